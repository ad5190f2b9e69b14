"""The ``frags-ahead`` edit of ``bench_whatif.py``: a ping-pong loop's pre-barrier fragment
reads issued one MMA run earlier (text only; the edited loop is not a kernel).

A ping-pong loop is a cycle of segments split by its ``s_barrier`` s: a *load* segment
(fragment reads, LDS DMAs, waits) and an *MMA* segment (the wave's MFMA run) in turn.  A
load segment that ends in ``s_waitcnt lgkmcnt(N)`` with ``N > 0`` completes its first
``R - N`` of ``R`` fragment reads before its barrier (ping-pong FP8: the 4 reads of B's
fragments, which the next barrier hands to the other warp group), so the MMA after it
waits for the reads that follow those.  The edit moves those ``R - N`` reads into the
MMA segment before the load segment (cyclically: the loop's first block's into its last,
which serves the next iteration), after that segment's second MFMA: their registers are
free there in the ping-pong kernels (the edit refuses a segment whose MFMAs use them).
The wait that closed the load segment then completes the moved reads only; a later
``lgkmcnt`` in the MMA segment is raised by the moved reads so that it completes the same
instructions.

The moved reads now run one barrier earlier, while the other warp group (one barrier
behind) may not yet have waited for its own LDS DMAs of the data they read.  The edit
adds that guard: the ``vmcnt`` wait of the load segment before the MMA segment completes
the DMAs the moved reads need in this wave; the same instructions are waited for one load
segment earlier (before that segment's barrier), so the other group's copies are complete
one barrier earlier too.  That is a timing bound for a schedule that would do the same,
not a proof: which DMA feeds which read is not analysed here.
"""

from __future__ import annotations

import re

_LGKM = re.compile(r"lgkmcnt\((\d+)\)")
_VMCNT = re.compile(r"vmcnt\((\d+)\)")
_REG = re.compile(r"v\[(\d+):(\d+)\]")
LGKMCNT_MAX = 15


def _segments(body: list[str]) -> list[list[str]]:
    """``body`` split after each ``s_barrier`` (the barrier ends its segment)."""
    segs, cur = [], []
    for line in body:
        cur.append(line)
        if line.strip() == "s_barrier":
            segs.append(cur)
            cur = []
    return segs + [cur]


def _is_read(line: str) -> bool:
    return line.strip().startswith("ds_read")


def _is_vm(line: str) -> bool:
    return re.match(r"\s*(buffer|global)_(load|store)_", line) is not None


def _regs(line: str) -> set[int]:
    out: set[int] = set()
    for lo, hi in _REG.findall(line):
        out |= set(range(int(lo), int(hi) + 1))
    return out


def _closing_lgkm(seg: list[str]) -> int | None:
    """Index in ``seg`` of its last ``lgkmcnt(N>0)`` wait with no read after it."""
    for k in range(len(seg) - 1, -1, -1):
        if _is_read(seg[k]):
            return None
        m = _LGKM.search(seg[k])
        if m:
            return k if int(m.group(1)) > 0 else None
    return None


def _move_reads(src: list[str], dst: list[str]) -> tuple[list[str], list[str]]:
    """``src`` without the reads its closing wait completes; ``dst`` with them after its
    second MFMA and its later lgkm waits raised by their number."""
    at = _closing_lgkm(src)
    reads = [k for k in range(at) if _is_read(src[k])]
    n = int(_LGKM.search(src[at]).group(1))
    moved = reads[:len(reads) - n]
    lines = [src[k] for k in moved]
    mfmas = [k for k, line in enumerate(dst) if "v_mfma" in line]
    if len(mfmas) < 2:
        raise ValueError("frags-ahead: an MMA segment with fewer than two MFMAs")
    written = set().union(*(_regs(src[k]) for k in moved))
    if any(written & _regs(dst[k]) for k in mfmas):
        raise ValueError("frags-ahead: the moved reads' registers are in use in the MMA "
                         "segment before them")
    tail = [_LGKM.sub(lambda m: f"lgkmcnt({min(LGKMCNT_MAX, int(m.group(1)) + len(lines))})",
                      line) for line in dst[mfmas[1] + 1:]]
    new_src = [line for k, line in enumerate(src) if k not in moved]
    return new_src, dst[:mfmas[1] + 1] + lines + tail


def _vm_guard(segs: list[list[str]], load: int, earlier: int) -> None:
    """Complete, before the barrier of segment ``earlier``, the vm instructions the last
    ``vmcnt`` wait of segment ``load`` completes (the loop repeats: counts reach back)."""
    flat = [(s, k) for s in range(len(segs)) for k in range(len(segs[s]))]
    waits = [k for k, line in enumerate(segs[load]) if _VMCNT.search(line)]
    if not waits:
        raise ValueError(f"frags-ahead: load segment {load} has no vmcnt wait to move up")
    pos = flat.index((load, waits[-1]))
    keep = int(_VMCNT.search(segs[load][waits[-1]]).group(1))
    guard = flat.index((earlier, len(segs[earlier]) - 1))
    vm_before_wait = [i for i, (s, k) in enumerate(flat[:pos]) if _is_vm(segs[s][k])]
    n_vm = len([1 for s, k in flat if _is_vm(segs[s][k])])
    # the newest instruction the wait completes, as a position in the cycle
    last_done = (len(vm_before_wait) - keep - 1) % n_vm
    vm_positions = [i for i, (s, k) in enumerate(flat) if _is_vm(segs[s][k])]
    done_at = vm_positions[last_done]
    after = sum(1 for i in vm_positions if done_at < i < guard) if done_at < guard else \
        sum(1 for i in vm_positions if i > done_at or i < guard)
    segs[earlier].insert(len(segs[earlier]) - 1, f"\ts_waitcnt vmcnt({after})")


def frags_ahead(body: list[str]) -> list[str]:
    """The edit (module docstring) on a main loop's body (its lines after the header)."""
    segs = _segments(body)
    tail = segs.pop()              # after the last barrier: the branch back
    if len(segs) % 2:
        raise ValueError("frags-ahead: the loop is not load and MMA segments in turn")
    n = len(segs)
    sources = [i for i in range(0, n, 2) if _closing_lgkm(segs[i]) is not None]
    for i in sources:
        segs[i], segs[(i - 1) % n] = _move_reads(segs[i], segs[(i - 1) % n])
        _vm_guard(segs, (i - 2) % n, (i - 4) % n)
    return [line for seg in segs for line in seg] + tail


def _rename_scratch(body: list[str], moved: set[int], fresh: int) -> tuple[list[str], int]:
    """Pairs of registers that non-MFMA, non-read instructions of ``body`` name and that
    overlap the moved reads' registers, renamed to fresh ones from ``fresh`` up."""
    out = []
    for line in body:
        if "v_mfma" not in line and not _is_read(line):
            for lo, hi in _REG.findall(line):
                if set(range(int(lo), int(hi) + 1)) & moved:
                    width = int(hi) - int(lo)
                    line = line.replace(f"v[{lo}:{hi}]", f"v[{fresh}:{fresh + width}]")
        out.append(line)
    used = [int(h) for line in out for _, h in _REG.findall(line)]
    return out, max([fresh - 1] + used)


def frags_ahead_kernel(asm: str, loop_span) -> str:
    """``asm`` with ``frags-ahead`` made a kernel the emulator can run: the moved reads
    also issued before the loop (the first iteration's), the loop's exit waiting for the
    last iteration's, and the loop's scratch registers that overlap them renamed to fresh
    ones (the VGPR count raised).  One kernel of one function; not a build."""
    lines = asm.split("\n")
    first, last = loop_span(lines)
    body = lines[first + 1:last + 1]
    at = _closing_lgkm(_segments(body)[0])
    if at is None:
        return asm
    seg0 = _segments(body)[0]
    reads = [line for line in seg0[:at] if _is_read(line)]
    n = int(_LGKM.search(seg0[at]).group(1))
    pro = reads[:len(reads) - n]
    moved = set().union(*(_regs(line) for line in pro))
    count = re.search(r"\.amdhsa_next_free_vgpr (\d+)", asm)
    new_body, top = _rename_scratch(frags_ahead(body), moved, int(count.group(1)))
    out = lines[:first] + pro + lines[first:first + 1] + new_body + \
        ["\ts_waitcnt lgkmcnt(0)"] + lines[last + 1:]
    text = "\n".join(out)
    text = re.sub(r"(\.amdhsa_next_free_vgpr )\d+", lambda m: f"{m.group(1)}{top + 1}", text)
    return re.sub(r"(\.vgpr_count:\s+)\d+", lambda m: f"{m.group(1)}{top + 1}", text)
