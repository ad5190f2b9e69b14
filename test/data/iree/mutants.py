"""Semantic mutants of IREE's matmul dispatches, and the verdict on each.

A mutant is IREE's kernel (bf16 ``A x B^T``: the committed 4096^3 inputs and a 512^3 one
that ``iree-compile`` generates, each at the prefetch point and in the late form,
:data:`INPUTS`) with one semantic change made to its text: an index constant,
an index operand of a copy or a read (another constant, the workgroup id, the thread id,
the loop's induction variable), the loop's bounds or step, a barrier removed or moved, a
copy moved below the reads, a read moved to the top of the body, or an extra side effect in
the loop (a store to the LDS the copies write, a store or an atomic add to C), two
accumulators swapped in the loop's ``scf.yield``, an MFMA's operands swapped or its B
replaced by its A.

The verdict on a mutant (:func:`verdict`):

* ``invalid``: the mutant is not a kernel (the build without pipelining fails too);
* ``refused``: ``pipeline-opt --pipeline=4wave`` exits 1 with one located message
  (``FILE:LINE:COL: error: ...``);
* ``exact``: the pipelined kernel computes, on the emulator (late mode, two workgroups),
  the same C bytes as the mutant built without pipelining (``--pass-pipeline=
  'builtin.module()'``; at the prefetch point IREE's LDS swizzle, an attribute of the
  ``memref.alloc`` that only IREE's own later passes apply, made explicit first as the
  front end's remainder loops make it, :func:`unswizzled`), and is race-free;
* ``no-reference``: the swizzle cannot be made explicit in the mutant (an access of the
  swizzled buffer the remainder path does not rewrite), so there is nothing to compare;
* ``input-broken``: the unpipelined mutant itself is racy or faults, so there is nothing to
  compare (the pipelined one is still run: a fault of its own is ``RACY``);
* ``WRONG``, ``RACY``, ``UNLOCATED``, ``CRASH``: what must never happen.

Run as a script it runs a campaign and prints the counts::

    python test/data/iree/mutants.py --count 200 --seed 1
    python test/data/iree/mutants.py --seed 1 --only 17    # one mutant, printed in full
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import random
import re
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent
#: the kernels mutated, by name: (M, N, K) of the bf16 ``A x B^T`` matmul, and the committed
#: file (None: generated with ``iree-compile``, :func:`source`; the 512^3 one has IREE's
#: 64x128 tile, K step 128, whose copies the front end re-distributes itself)
INPUTS = {"4096.prefetch": ((4096,) * 3, DATA / "matmul_bf16_abt_4096.prefetch.mlir"),
          "4096.late": ((4096,) * 3, DATA / "matmul_bf16_abt_4096.late.mlir"),
          "512.prefetch": ((512,) * 3, None), "512.late": ((512,) * 3, None)}
#: the workgroups each mutant runs (the prefetch form's 2-D grid, the late form's 1-D one)
WORKGROUPS = {"prefetch": [(0, 0), (1, 1)], "late": [0, 5]}
BAD = ("WRONG", "RACY", "UNLOCATED", "CRASH")
LOCATED = re.compile(r"^[^\n:]+:\d+:\d+: error: ", re.M)


@functools.lru_cache(maxsize=None)
def source(name: str) -> str:
    """The text of input ``name`` (:data:`INPUTS`), generated once when not committed."""
    (m, n, k), path = INPUTS[name]
    if path is not None:
        return path.read_text()
    import generate as G

    text = G.matmul_source(dtype="bf16", m=m, n=n, k=k, transpose_b=True)
    return (G.prefetch_point if name.endswith("prefetch") else G.late_form)(text)


@dataclass
class Mutant:
    form: str
    index: int
    what: str
    text: str


# ---- the mutations ----------------------------------------------------------------------------

def _loop(lines: list[str]) -> tuple[int, int]:
    """(line of the K-loop's scf.for, line of its scf.yield)."""
    start = next(i for i, s in enumerate(lines) if " scf.for " in s)
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next(i for i in range(start + 1, len(lines))
               if lines[i].strip().startswith("scf.yield")
               and len(lines[i]) - len(lines[i].lstrip()) == indent + 2)
    return start, end


def _index_names(lines: list[str]) -> list[str]:
    """Index values defined before the loop: constants, workgroup and thread ids."""
    out = []
    for s in lines[:_loop(lines)[0]]:
        m = re.match(r"\s*(%\w+) = (arith\.constant -?\d+ : index|hal\.interface\.workgroup"
                     r"\.id|gpu\.thread_id)", s)
        if m:
            out.append(m.group(1))
        m = re.match(r"\s*scf\.forall \((%\w+), (%\w+)\)", s)
        if m:
            out += [m.group(1), m.group(2)]
    return out


def _iv(lines: list[str]) -> tuple[str, str]:
    s = lines[_loop(lines)[0]]
    iv = re.search(r"scf\.for (%\w+) =", s).group(1)
    return iv, ("i32" if re.search(r":\s*i32\s*\{\s*$", s) else "index")


def _body(lines, pattern) -> list[int]:
    start, end = _loop(lines)
    return [i for i in range(start + 1, end) if re.search(pattern, lines[i])]


def m_constant(lines, rng):
    found = [(i, m) for i, s in enumerate(lines)
             if (m := re.match(r"(\s*%\w+ = arith\.constant )(-?\d+)( : (index|i32))", s))]
    i, m = rng.choice(found)
    v = int(m.group(2))
    new = rng.choice(sorted({0, 1, v + 1, v - 1, 2 * v, v + 8} - {v}))
    lines[i] = lines[i].replace(m.group(0), f"{m.group(1)}{new}{m.group(3)}", 1)
    return f"constant on line {i + 1}: {v} -> {new}"


def m_bound(lines, rng):
    start, _ = _loop(lines)
    _, ty = _iv(lines)
    m = re.search(r"= (%\w+) to (%\w+) step (%\w+)", lines[start])
    which = rng.choice(["lower", "upper", "step"])
    value = rng.choice({"lower": [1, 2, -1], "upper": [0, 1, 2, 3, 64, 127, 129],
                        "step": [0, -1, 2, 3]}[which])
    old = m.group({"lower": 1, "upper": 2, "step": 3}[which])
    pre = " " * (len(lines[start]) - len(lines[start].lstrip()))
    lines[start] = lines[start].replace(m.group(0), m.group(0).replace(
        f"{'to' if which == 'upper' else 'step' if which == 'step' else '='} {old}",
        f"{'to' if which == 'upper' else 'step' if which == 'step' else '='} %mut_bound", 1), 1)
    lines.insert(start, f"{pre}%mut_bound = arith.constant {value} : {ty}")
    return f"loop {which} bound -> {value}"


def m_barrier_drop(lines, rng):
    found = [i for i, s in enumerate(lines) if "gpu.barrier" in s]
    i = rng.choice(found)
    del lines[i]
    return f"barrier on line {i + 1} removed"


def m_barrier_move(lines, rng):
    i = rng.choice(_body(lines, r"gpu\.barrier"))
    s = lines.pop(i)
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    lines.insert(j, s)
    return f"barrier on line {i + 1} moved to line {j + 1}"


def m_operand(lines, rng):
    i = rng.choice(_body(lines, r"amdgpu\.gather_to_lds|vector\.transfer_read|vector\.load"))
    spans = [m for m in re.finditer(r"%[\w#]+", lines[i].split(" : ")[0])]
    # index operands: those inside [...] brackets
    inside = [m for m in spans if lines[i].rfind("[", 0, m.start()) > lines[i].rfind("]", 0,
                                                                                     m.start())]
    m = rng.choice(inside)
    names = [n for n in _index_names(lines) if n != m.group(0)]
    iv, ty = _iv(lines)
    if ty == "index":
        names.append(iv)
    new = rng.choice(names)
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return f"index operand {m.group(0)} on line {i + 1} -> {new}"


def m_copy_down(lines, rng):
    i = rng.choice(_body(lines, r"amdgpu\.gather_to_lds"))
    s = lines.pop(i)
    _, end = _loop(lines)
    lines.insert(end, s)
    return f"copy on line {i + 1} moved to the end of the body"


def m_read_up(lines, rng):
    i = rng.choice(_body(lines, r"vector\.transfer_read|vector\.load"))
    s = lines.pop(i)
    start, _ = _loop(lines)
    lines.insert(start + 1, s)
    return f"read on line {i + 1} moved to the top of the body"


def _alloc(lines, rng):
    found = [m for s in lines if (m := re.match(
        r"\s*(%\w+) = memref\.alloc\(\)[^:]*: (memref<(\d+)x(\w+), #gpu\.address_space"
        r"<workgroup>>)", s))]
    return rng.choice(found)


def m_lds_store(lines, rng):
    m = _alloc(lines, rng)
    name, ty, size, el = m.group(1), m.group(2), int(m.group(3)), m.group(4)
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    at = rng.randrange(0, size // 8) * 8
    pre = " " * (len(lines[end]) - len(lines[end].lstrip()))
    lines[j:j] = [f"{pre}%mut_v = arith.constant dense<1.0> : vector<8x{el}>",
                  f"{pre}%mut_i = arith.constant {at} : index",
                  f"{pre}vector.store %mut_v, {name}[%mut_i] : {ty}, vector<8x{el}>"]
    return f"store of 1.0 to {name}[{at}..{at + 7}] inserted at line {j + 1}"


def _c_binding(lines):
    for s in lines:
        m = re.match(r"\s*(%\w+) = hal\.interface\.binding\.subspan .*binding\(2\).*: "
                     r"(memref<\d+x\d+xf32[^>]*>>)", s)
        if m:
            return m.group(1), m.group(2)
    raise LookupError("no C binding")


def m_c_side_effect(lines, rng):
    c, ty = _c_binding(lines)
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    row, col = rng.randrange(0, 256), rng.randrange(0, 256)
    pre = " " * (len(lines[end]) - len(lines[end].lstrip()))
    new = [f"{pre}%mut_f = arith.constant 2.0 : f32",
           f"{pre}%mut_r = arith.constant {row} : index",
           f"{pre}%mut_c = arith.constant {col} : index"]
    if rng.random() < 0.5:
        new.append(f"{pre}memref.store %mut_f, {c}[%mut_r, %mut_c] : {ty}")
        what = "store of 2.0"
    else:
        new.append(f"{pre}%mut_a = memref.atomic_rmw addf %mut_f, {c}[%mut_r, %mut_c] : "
                   f"(f32, {ty}) -> f32")
        what = "atomic add of 2.0"
    lines[j:j] = new
    return f"{what} to C[{row}, {col}] inserted at line {j + 1}"


def m_yield_swap(lines, rng):
    _, end = _loop(lines)
    head, tail = lines[end].split(" : ", 1)
    names = re.findall(r"%[\w#]+", head)
    i, j = rng.sample(range(len(names)), 2)
    names[i], names[j] = names[j], names[i]
    lines[end] = re.sub(r"scf\.yield .*", "scf.yield " + ", ".join(names), head) + " : " + tail
    return f"accumulators {i} and {j} swapped in the loop's scf.yield"


def m_mfma(lines, rng):
    i = rng.choice(_body(lines, r"amdgpu\.mfma "))
    m = re.search(r"(%[\w#]+) \* (%[\w#]+) \+ (%[\w#]+)", lines[i])
    a, b, c = m.groups()
    if rng.random() < 0.5:
        new, what = f"{b} * {a} + {c}", "operands A and B swapped"
    else:
        new, what = f"{a} * {a} + {c}", "B operand replaced by A"
    lines[i] = lines[i].replace(m.group(0), new, 1)
    return f"MFMA on line {i + 1}: {what}"


MUTATIONS = (m_constant, m_bound, m_barrier_drop, m_barrier_move, m_operand, m_operand,
             m_copy_down, m_read_up, m_lds_store, m_c_side_effect, m_yield_swap, m_mfma)


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 100_003 + index)


def mutant_source(seed: int, index: int) -> str:
    """The input (:data:`INPUTS`) mutant ``index`` of campaign ``seed`` mutates."""
    return _rng(seed, index).choice(sorted(INPUTS))


def mutant(seed: int, index: int) -> Mutant:
    """Mutant ``index`` of the campaign ``seed`` (deterministic)."""
    rng = _rng(seed, index)
    form = rng.choice(sorted(INPUTS))
    lines = source(form).split("\n")
    what = rng.choice(MUTATIONS)(lines, rng)
    return Mutant(form, index, f"{form}: {what}", "\n".join(lines))


# ---- the verdict ------------------------------------------------------------------------------

def _opt(args: list[str]) -> tuple[int | None, str]:
    """(exit status or None for an exception, stderr) of pipeline-opt in this process."""
    from pipeline_mlir.tools.pipeline_opt import main

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(args)
    except SystemExit as e:
        rc = e.code
    except Exception:
        return None, err.getvalue() + traceback.format_exc()
    return rc, err.getvalue()


def c_bytes(hsaco: bytes, name: str):
    """C after the mutant's workgroups ran (late mode), or the finding as a string."""
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul, matmul_c

    try:
        return matmul_c(load_kernel(hsaco), Matmul(*INPUTS[name][0], "bf16"),
                        WORKGROUPS[name.split(".")[1]], mode="late")
    except (EmuError, Finding) as e:
        return f"{type(e).__name__}: {e}"


def build(text: str, pipelined: bool) -> tuple[int | None, str, bytes | None]:
    """(exit status, stderr, code object) of ``text`` built with ``--pipeline=4wave`` or
    without the sched passes."""
    how = "--pipeline=4wave" if pipelined else "--pass-pipeline=builtin.module()"
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "mutant.mlir"), Path(d, "out.hsaco")
        src.write_text(text)
        rc, err = _opt([how, str(src), "--emit=hsaco", "-o", str(out)])
        return rc, err, (out.read_bytes() if rc == 0 else None)


def unswizzled(text: str) -> str:
    """``text`` with IREE's swizzle attributes replaced by explicit swizzled addresses
    (:func:`pipeline_mlir.frontend.tail_swizzle.resolve_swizzles`) and the swizzled
    buffers' deallocs dropped; an :class:`~pipeline_mlir.dialect.ir_io.IRError` where an
    access cannot be rewritten."""
    from pipeline_mlir.analysis.ir_facts import parse_xor_shuffle
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.tail_swizzle import SWIZZLE_ATTR, resolve_swizzles

    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        swizzled = {}
        for o in walk_ops(module.operation, lambda o: o.name == "memref.alloc"):
            if SWIZZLE_ATTR in o.attributes:
                swizzled[o.results[0]] = parse_xor_shuffle(o.attributes[SWIZZLE_ATTR])
                del o.attributes[SWIZZLE_ATTR]
        for o in walk_ops(module.operation, lambda o: o.name == "memref.dealloc"):
            if o.operands[0] in swizzled:
                o.erase()
        with ir.Location.unknown(ctx):
            resolve_swizzles(swizzled)
        return str(module)


def verdict(m: Mutant) -> tuple[str, str]:
    """(verdict, detail) of mutant ``m`` (module docstring)."""
    from pipeline_mlir.dialect.ir_io import IRError

    plain = m.text
    if "iree_codegen.swizzle" in m.text:
        try:
            plain = unswizzled(m.text)
        except IRError as e:
            return "no-reference", str(e)
        except Exception as e:  # the mutant does not parse: the build says where
            if "MLIRError" not in type(e).__name__:
                raise
    rc, err, ref = build(plain, False)
    if rc != 0:
        return "invalid", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"
    rc, err, out = build(m.text, True)
    if rc is None:
        return "CRASH", err
    if rc != 0:
        return ("refused" if rc == 1 and LOCATED.search(err) and "Traceback" not in err
                else "UNLOCATED"), err.strip()
    want, got = c_bytes(ref, m.form), c_bytes(out, m.form)
    if isinstance(got, str):
        return ("input-broken" if isinstance(want, str) else "RACY"), got
    if isinstance(want, str):
        return "input-broken", want
    if (want == got).all():
        return "exact", ""
    bad = list(zip(*(want != got).nonzero()))
    return "WRONG", f"{len(bad)} elements of C differ, first at {tuple(map(int, bad[0]))}"


def command(seed: int, index: int) -> str:
    return f"python test/data/iree/mutants.py --seed {seed} --only {index}"


def campaign(seed: int, count: int, out=sys.stdout) -> dict[str, list]:
    """Mutants 0 .. count-1 of ``seed``: verdict -> [(mutant, detail)]."""
    found: dict[str, list] = {}
    for i in range(count):
        m = mutant(seed, i)
        v, detail = verdict(m)
        found.setdefault(v, []).append((m, detail))
        first = detail.splitlines()[0] if detail else ""
        print(f"[{i}] {v}: {m.what}" + (f"  ({first[:160]})" if first else ""), file=out,
              flush=True)
    return found


def campaign_args(description: str, argv=None) -> argparse.Namespace:
    """A campaign's command line: ``--seed``, ``--count``, ``--only``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--only", type=int, help="one mutant: print it and its verdict")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    a = campaign_args(__doc__.split("\n")[0], argv)
    if a.only is not None:
        m = mutant(a.seed, a.only)
        print(m.text)
        v, detail = verdict(m)
        print(f"// {m.what}\n// verdict: {v}\n// {detail}", file=sys.stderr)
        return int(v in BAD)
    found = campaign(a.seed, a.count)
    print(", ".join(f"{k}: {len(v)}" for k, v in sorted(found.items())))
    for v in BAD:
        for m, _ in found.get(v, []):
            print(f"{v}: {m.what}\n  {command(a.seed, m.index)}")
    return int(any(v in found for v in BAD))


sys.path.insert(0, str(DATA))              # generate.py

if __name__ == "__main__":
    sys.path.insert(0, str(DATA.parents[2]))
    sys.exit(main())
