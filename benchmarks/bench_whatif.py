"""What-if edits of a compiled kernel's main loop, on the simulator's CU model only.

Compiles ``SPEC`` to assembly, applies the named edits to its main K-loop (the text; the
kernel is NOT rebuilt, NOT checked for races or exactness and its addresses are NOT
recomputed, so an edited loop is a timing question, never a kernel), and prints the loop's
cycles per iteration in the ``measured`` table, its MFMA busy against the MFMA bound and
where the SIMDs' MFMA pipes idle (``pipeline_mlir.sim.pipe_gaps``).  It answers "would
this change of the schedule or the lowering move the number?" before anyone builds it.

Edits (comma-separated, applied in this order):

* ``dword-dma``: every ``buffer_load_dwordx4 ... lds`` becomes four ``buffer_load_dword
  ... lds`` (256 bytes each instead of 1024), the first where the x4 was, the others
  after each of the next three MFMAs; every ``vmcnt(N)`` is raised so that it completes
  the same bytes (capped at the counter's 63, which completes one more);
* ``early-loop-control``: the scalar adds and the compare LLVM leaves between the loop's
  last MFMA and its branch back (the loop counter's) move in front of the fourth MFMA
  from the end;
* ``half-barriers``: every second ``s_barrier`` of the loop is left out (a bound on what
  fewer barriers could give; the loop is racy without them);
* ``no-scale-reads``: every MX scale read (``ds_read_u8``) of the loop is left out and each
  ``lgkmcnt(N)`` lowered by the ones among the last ``N`` LDS instructions before it (over
  earlier iterations too), so it completes the same other instructions: what the scale
  reads cost wherever a schedule put them, the most any placement of them could give;
* ``no-scale-dmas``: the same for the MX scale DMAs (``buffer_load_dword ... lds`` in a
  loop whose element DMAs are ``buffer_load_dwordx4 ... lds``) and ``vmcnt``; refused where
  the element DMAs are dwords too (the scale DMAs cannot be told apart in the text).

Models, not hardware::

    .venv/bin/python benchmarks/bench_whatif.py SPEC [--edits dword-dma,early-loop-control]
"""

from __future__ import annotations

import argparse
import re
import sys

from whatif_frags import frags_ahead, frags_ahead_kernel

EDITS = ("dword-dma", "early-loop-control", "half-barriers", "frags-ahead", "no-scale-reads",
         "no-scale-dmas")
VMCNT_MAX = 63
_X4 = re.compile(r"\bbuffer_load_dwordx4\b(?=.*\blds\b)")
_VMCNT = re.compile(r"vmcnt\((\d+)\)")
_DWORD_LDS = re.compile(r"\bbuffer_load_dword\b(?=.*\blds\b)")
_LGKM = re.compile(r"\s*(ds_|s_load_|s_buffer_load_)")
_LOOP_CONTROL = re.compile(r"\s*(s_add_u32|s_addc_u32|s_add_i32|s_cmp_\w+|v_cmp_\w+)\s")


def loop_span(lines: list[str]) -> tuple[int, int]:
    """[first, last] line of the innermost loop: from its header label (LLVM's ``Loop
    Header`` comment) to the branch back to it."""
    for i, line in enumerate(lines):
        if line.startswith(".LBB") and "Inner Loop Header" in line:
            label = line.split(":")[0]
            for j in range(i + 1, len(lines)):
                if "s_cbranch" in lines[j] and lines[j].split()[-1] == label:
                    return i, j
    raise SystemExit("bench_whatif: no inner loop with a branch back in the assembly")


def _is_mfma(line: str) -> bool:
    return "v_mfma" in line


def _is_vm(line: str) -> bool:
    return re.search(r"\bbuffer_load_|\bglobal_load_|\bbuffer_store_|\bglobal_store_",
                     line) is not None


def dword_dma(body: list[str]) -> list[str]:
    """Each x4 LDS DMA as four dword ones, the waits raised to complete the same bytes."""
    out: list[tuple[str, int]] = []    # (line, id of the original vm instruction or -1)
    pending: list[tuple[str, int]] = []
    vm_id = 0
    for line in body:
        if _is_vm(line):
            if _X4.search(line):
                piece = _X4.sub("buffer_load_dword", line)
                out.append((piece, vm_id))
                pending += [(piece, vm_id)] * 3
            else:
                out.append((line, vm_id))
            vm_id += 1
            continue
        out.append((line, -1))
        if _is_mfma(line) and pending:
            out.append(pending.pop(0))
    out += pending
    return _rescale_waits(out, vm_id)


def _rescale_waits(out: list[tuple[str, int]], n_vm: int) -> list[str]:
    """Raise each ``vmcnt(N)`` to the new instructions of the last ``N`` original vm
    instructions issued before it (the loop runs on: the count reaches back over earlier
    iterations)."""
    ids = [i for _, i in out if i >= 0]
    result = []
    for pos, (line, _) in enumerate(out):
        m = _VMCNT.search(line)
        if m and n_vm:
            line = _VMCNT.sub(f"vmcnt({_in_flight(ids, out[:pos], n_vm, int(m.group(1)))})",
                              line)
        result.append(line)
    return result


def _in_flight(ids: list[int], before: list[tuple[str, int]], n_vm: int, keep: int) -> int:
    """How many of the new instructions, counted back from the wait, belong to the last
    ``keep`` originals (numbered over iterations: iteration ``t``'s ``i`` is
    ``t * n_vm + i``, the wait's own iteration 0); at most ``VMCNT_MAX``."""
    now = [i for _, i in before if i >= 0]
    newest = max(now) if now else -1
    pieces = [(0, i) for i in reversed(now)]
    n, t = 0, 0
    while n <= VMCNT_MAX:
        if not pieces:
            t -= 1
            pieces = [(t, i) for i in reversed(ids)]
        it, i = pieces.pop(0)
        if newest - (it * n_vm + i) >= keep:
            return n
        n += 1
    return VMCNT_MAX


def early_loop_control(body: list[str]) -> list[str]:
    """The loop counter's scalar adds and its compare, where LLVM puts them after the
    last MFMA, moved in front of the 4th MFMA from the end."""
    mfmas = [k for k, line in enumerate(body) if _is_mfma(line)]
    if len(mfmas) < 4:
        return body
    moved = [k for k in range(mfmas[-1] + 1, len(body) - 1) if _LOOP_CONTROL.match(body[k])]
    rest = [line for k, line in enumerate(body) if k not in moved]
    at = mfmas[-4]
    return rest[:at] + [body[k] for k in moved] + rest[at:]


def half_barriers(body: list[str]) -> list[str]:
    out, n = [], 0
    for line in body:
        if line.strip() == "s_barrier":
            n += 1
            if n % 2 == 0:
                continue
        out.append(line)
    return out


def _dropped(body: list[str], drop, counted, counter: str) -> list[str]:
    """``body`` without the lines ``drop`` picks (instructions ``counted`` counts), each
    ``counter(N)`` lowered by the dropped ones among the last ``N`` counted instructions
    issued before it (reaching back over earlier iterations)."""
    seq = [(k, bool(drop(line))) for k, line in enumerate(body) if counted(line)]
    pattern = re.compile(counter + r"\((\d+)\)")
    out = []
    for k, line in enumerate(body):
        if counted(line) and drop(line):
            continue
        m = pattern.search(line)
        if m and seq:
            n = int(m.group(1))
            back = [d for kk, d in reversed(seq) if kk < k]
            while len(back) < n:
                back += [d for _, d in reversed(seq)]
            line = pattern.sub(f"{counter}({n - sum(back[:n])})", line)
        out.append(line)
    return out


def no_scale_reads(body: list[str]) -> list[str]:
    return _dropped(body, lambda line: line.strip().startswith("ds_read_u8"),
                    lambda line: _LGKM.match(line) is not None, "lgkmcnt")


def no_scale_dmas(body: list[str]) -> list[str]:
    if not any(_X4.search(line) for line in body):
        raise SystemExit("bench_whatif: no-scale-dmas: the loop's element DMAs are dwords "
                         "too; its scale DMAs cannot be told apart")
    return _dropped(body, _DWORD_LDS.search, _is_vm, "vmcnt")


def edit_asm(asm: str, edits: list[str]) -> str:
    """``asm`` with ``edits`` applied to its main loop's body."""
    lines = asm.split("\n")
    first, last = loop_span(lines)
    body = lines[first + 1:last + 1]
    for name in EDITS:
        if name in edits:
            body = {"dword-dma": dword_dma, "early-loop-control": early_loop_control,
                    "half-barriers": half_barriers, "frags-ahead": frags_ahead,
                    "no-scale-reads": no_scale_reads, "no-scale-dmas": no_scale_dmas}[name](body)
    return "\n".join(lines[:first + 1] + body + lines[last + 1:])


def figures(spec: str, edits: list[str]) -> dict:
    """Cycles per iteration, MFMA bound and idle cycles by cause of the edited loop."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.pipe_gaps import gaps_per_iteration, pipe_gaps
    from pipeline_mlir.sim.report import TIMING_ITERATIONS
    from pipeline_mlir.sim.timing import simulate_asm_loop
    from pipeline_mlir.sim.trace import kernel_shape

    asm = edit_asm(compile(CompileOptions(schedule=spec, emit="asm")).checked_output(), edits)
    shape = kernel_shape(parse_pipeline(spec))
    a = simulate_asm_loop(asm, shape.waves, TIMING_ITERATIONS, "measured",
                          stagger=shape.groups == 2)
    bound = max(c for u, c in a.res.per_unit.items() if u.startswith("XDL"))
    iterations = (a.window[1] - a.window[0]) / a.achieved_ii
    gaps = gaps_per_iteration(pipe_gaps(a.run, a.window), iterations, len(a.mfma_busy))
    return {"cycles": a.achieved_ii, "bound": bound, "gaps": gaps}


def write_kernel(spec: str, path: str) -> None:
    """The ``frags-ahead`` edit of ``spec``'s assembly, made runnable, written to ``path``."""
    from pipeline_mlir.driver import CompileOptions, compile

    asm = compile(CompileOptions(schedule=spec, emit="asm")).checked_output()
    with open(path, "w") as f:
        f.write(frags_ahead_kernel(asm, loop_span))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", help="a named pipeline, e.g. '4wave{dtype=bf16 BM=256 BN=256 BK=64}'")
    ap.add_argument("--kernel-out", metavar="FILE", help="with --edits frags-ahead alone: "
                    "write the edited assembly as a kernel the emulator runs (whatif_frags.py)")
    ap.add_argument("--edits", default="", help=f"comma-separated, of {', '.join(EDITS)}")
    args = ap.parse_args()
    edits = [e for e in args.edits.split(",") if e]
    bad = [e for e in edits if e not in EDITS]
    if bad:
        print(f"bench_whatif: --edits: unknown edit {bad[0]!r}; valid: {', '.join(EDITS)}",
              file=sys.stderr)
        raise SystemExit(1)
    if args.kernel_out and edits != ["frags-ahead"]:
        print("bench_whatif: --kernel-out: only with --edits frags-ahead alone", file=sys.stderr)
        raise SystemExit(1)
    from pipeline_mlir.errors import PipelineError
    try:
        if args.kernel_out:
            write_kernel(args.spec, args.kernel_out)
        f = figures(args.spec, edits)
    except (PipelineError, ValueError) as e:
        print(f"bench_whatif: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    print(f"`{args.spec}` edits {','.join(edits) or 'none'}: {f['cycles']:.0f} cycles per "
          f"iteration, MFMA bound {f['bound']:.0f} ({f['bound'] / f['cycles']:.1%} busy); "
          "idle per SIMD and iteration: "
          + (", ".join(f"{c} {n:.1f}" for c, n in f["gaps"].items()) or "none"))


if __name__ == "__main__":
    main()
