"""The taint run's rule: a racing load's value must not reach anything observable.

In the taint run (:mod:`~pipeline_mlir.emu.racy_loads`) each wave keeps, per register and
lane, whether its value may differ with the order of a race (``Wave.taint``: VGPRs 0..255
and AGPRs 256..511, (512, G, 64); ``Wave.staint``: SGPRs, VCC, EXEC and SCC (as 253), (256,
G)), allocated at the first racing load, and which load each tainted register's value
comes from (``Wave.torigin``).  Before each instruction runs (:func:`before`):

* a vector ALU instruction taints its destination's active lanes where a source lane is
  tainted or a scalar source is (``v_cndmask_b32``: the source its mask selects, and the
  mask); one that writes SGPRs (a compare, a carry, ``v_readfirstlane``) taints them when
  any active lane of a source is; lanes it moves across (``permlane``) taint every lane;
* a matrix instruction taints all its destination when any source is tainted;
* a scalar ALU instruction taints its destinations and SCC when any source is (SCC
  among them where it reads it); SCC stays tainted until a compare writes it clean;
* untainted sources clear the destination (a whole write), except for writes of part of a
  register (SDWA, ``op_sel``, ``d16``), which keep the taint they had;
* *observable*, a ``global-race`` finding naming the load, the store it races and this
  use: a tainted address or datum of any memory instruction (a global or LDS store's
  data, any load's address; an LDS DMA of a racing lane), a branch on a tainted SCC, VCC
  or EXEC, EXEC or M0 (an LDS DMA's address, the VGPR index) made tainted;
* private memory (scratch) is a lane's own, so a scratch store of tainted data is not
  observable: it taints the bytes it writes in that lane (``Wave.ptaint``), a clean one
  clears them, and a scratch load taints its registers where the bytes it reads are
  (:func:`scratch_issue`): LLVM spills a racing load's row before the select that masks
  its racing lanes off, and reloads it to select (IREE's late form of ``C += A x B`` with
  C staged through private memory); a tainted scratch address is observable.

A memory instruction's destinations are clean at issue, but for the racing lanes and
dwords of a global load (:func:`at_issue`; a scalar load's SGPRs where any of the dwords
it loads into them races).  No MLIR here.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.operands import EXEC, M0, VCC
from pipeline_mlir.target.gfx950 import WAVE_SIZE

#: SCC's slot in ``Wave.staint``
SCC = 253
#: writes of part of a register (the other bits kept): the taint is added to, not replaced
PARTIAL = ("_sdwa", "_d16", "cvt_pk_fp8", "cvt_pk_bf8", "cvt_pkrtz", "v_mov_b16")
#: scalar instructions that read SCC; those that surely write it (others keep its taint)
SCC_READERS = ("s_cselect", "s_addc", "s_subb", "s_cmov")
SCC_WRITERS = ("s_cmp", "s_bitcmp")
#: instructions that move values across lanes
CROSS_LANE = ("permlane", "bpermute", "swizzle", "readlane", "writelane")


def start(w) -> None:
    """Give ``w`` its (clean) taint state."""
    w.taint = np.zeros((512, w.G, WAVE_SIZE), dtype=bool)
    w.staint = np.zeros((256, w.G), dtype=bool)
    w.torigin = {}
    w.ptaint, w.porigin = None, None


def before(m, w, st) -> None:
    """Apply the rule (module docstring) to ``st`` about to run on ``w``."""
    if w.taint is None:
        return
    kind = st.kind
    if kind in ("wait", "barrier", "nop", "end", "trap"):
        return
    regs = st.__dict__.get("taint_regs")
    if regs is None:        # (the step's registers in order, once per step)
        regs = st.taint_regs = (sorted(st.vreads), [s for s in sorted(st.sreads) if s < 256])
    vr, sr = regs
    lanes = w.taint[vr].any(axis=0) if vr else np.zeros((w.G, WAVE_SIZE), dtype=bool)
    scalar = w.staint[sr].any(axis=0) if sr else np.zeros(w.G, dtype=bool)
    if kind == "branch":
        _branch(m, w, st, scalar)
    elif kind == "vmem" and st.ins.name.startswith("scratch_"):
        f = st.ins.f        # (the data a store writes is followed through its bytes)
        avr = [f["vaddr"]] if f["sve"] else []
        asr = [f["saddr"]] if f["saddr"] < 256 and f["saddr"] != 0x7F else []
        if (w.taint[avr].any(axis=0) & w.exec).any() or w.staint[asr].any():
            _observed(m, w, st, avr, asr, "its address")
        _clear(w, st)
    elif kind in ("vmem", "ds", "smem"):
        if (lanes & w.exec).any() or scalar.any():
            _observed(m, w, st, vr, sr, "its address or stored data")
        _clear(w, st)
    elif kind == "salu":
        reads_scc = st.ins.name.startswith(SCC_READERS)
        tainted = scalar | w.staint[SCC] if reads_scc else scalar
        _scalar_writes(m, w, st, tainted, sr)
        w.staint[SCC] = tainted if st.ins.name.startswith(SCC_WRITERS) else \
            tainted | w.staint[SCC]
    elif kind == "mfma":
        _vector_writes(w, st, np.broadcast_to((lanes.any(axis=1) | scalar)[:, None],
                                              lanes.shape), vr + [1000 + s for s in sr])
    else:
        _valu(m, w, st, lanes, scalar, vr, sr)


def _valu(m, w, st, lanes, scalar, vr, sr) -> None:
    ins = st.ins
    new = lanes | scalar[:, None]
    if any(c in ins.name for c in CROSS_LANE) and "readfirstlane" not in ins.name:
        new = np.broadcast_to((lanes & w.exec).any(axis=1)[:, None] | scalar[:, None],
                              lanes.shape)
    elif ins.base == "v_cndmask_b32" and not ins.name.endswith("_sdwa"):
        new = _cndmask(w, ins)
    _vector_writes(w, st, new, vr + [1000 + s for s in sr])
    if st.swrites:
        _scalar_writes(m, w, st, (lanes & w.exec).any(axis=1) | scalar, sr, vr)


def _cndmask(w, ins) -> np.ndarray:
    """Per lane: the taint of the source the mask selects, or the mask's."""
    f = ins.f
    cond = VCC if ins.enc == "VOP2" else f["src2"]
    bits = (w.S[cond].astype(np.uint64) | (w.S[cond + 1].astype(np.uint64) << np.uint64(32)))
    sel = ((bits[:, None] >> np.arange(WAVE_SIZE, dtype=np.uint64)) & np.uint64(1)) != 0
    a, b = (_operand(w, f[k]) for k in ("src0", "src1"))
    return np.where(sel, b, a) | (w.staint[cond] | w.staint[cond + 1])[:, None]


def _operand(w, code: int) -> np.ndarray:
    """The taint of source operand ``code`` (a VGPR from 256, an SGPR, or a constant)."""
    if code >= 256:
        return w.taint[code - 256]
    if code < 128:
        return np.broadcast_to(w.staint[code][:, None], (w.G, WAVE_SIZE))
    return np.zeros((w.G, WAVE_SIZE), dtype=bool)


def _origin(w, regs) -> str | None:
    return next((w.torigin[r] for r in regs if r in w.torigin), None)


def _vector_writes(w, st, new, srcs) -> None:
    if not st.vwrites:
        return
    partial = any(p in st.ins.name for p in PARTIAL) or st.ins.f.get("op_sel")
    origin = _origin(w, srcs) if new.any() else None
    for r in st.vwrites:
        old = w.taint[r]
        w.taint[r] = np.where(w.exec, new | old if partial else new, old)
        if origin is not None:
            w.torigin.setdefault(r, origin)
        elif not w.taint[r].any():
            w.torigin.pop(r, None)


def _scalar_writes(m, w, st, tainted, sr, vr=()) -> None:
    origin = _origin(w, list(vr) + [1000 + s for s in sr] + [1000 + SCC]) \
        if tainted.any() else None
    for s in st.swrites:
        if s >= 256:
            continue
        if s in (EXEC, EXEC + 1, M0) and tainted.any():     # which lanes run; M0: an LDS
            _report(m, w, st, origin, "EXEC (which lanes run)" if s != M0 else
                    "M0 (an LDS address or a VGPR index)")
        w.staint[s] = tainted
        if origin is not None:
            w.torigin[1000 + s] = origin
    if origin is not None:
        w.torigin.setdefault(1000 + SCC, origin)


def _clear(w, st) -> None:
    """A memory instruction's destinations: clean (a racing load taints its lanes at
    issue, :func:`at_issue`)."""
    for r in st.vwrites:
        if "_d16" not in st.ins.name:
            w.taint[r][w.exec] = False
    for s in st.swrites:
        if s < 256:
            w.staint[s] = False


def _branch(m, w, st, scalar) -> None:
    n = st.ins.name
    regs = [SCC] if "scc" in n else [VCC, VCC + 1] if "vcc" in n else \
        [EXEC, EXEC + 1] if "exec" in n else []
    if scalar.any() or any(w.staint[r].any() for r in regs):
        origin = _origin(w, [1000 + r for r in regs] + [1000 + s for s in sorted(st.sreads)])
        _report(m, w, st, origin, "a branch")


def _observed(m, w, st, vr, sr, what: str) -> None:
    _report(m, w, st, _origin(w, [r for r in vr if (w.taint[r] & w.exec).any()] +
                              [1000 + s for s in sr if w.staint[s].any()]), what)


def _report(m, w, st, origin, what: str) -> None:
    m.finding("global-race", w, st,
              f"{origin or 'a load racing a store'}, and the value loaded reaches "
              f"{what} here: the race is observable")


def scratch_issue(w, regs: tuple, off: np.ndarray, mask: np.ndarray, size: int,
                  store: bool, private_bytes: int) -> None:
    """In the taint run, at the issue of a scratch access of ``size`` bytes at each lane's
    byte offset ``off`` (the lanes of ``mask``; ``regs`` its data registers, taint indices):
    a store sets the taint of the bytes it writes to its data's, dword by dword; a load
    adds the taint of the bytes it reads to its registers (module docstring)."""
    if w.taint is None:
        return
    pt = w.ptaint
    if pt is None:
        pt = w.ptaint = np.zeros((w.G, WAVE_SIZE, private_bytes), dtype=bool)
    lanes = mask & (off >= 0) & (off + size <= private_bytes)
    if not lanes.any():
        return
    g, lane = np.nonzero(lanes)
    at = off[g, lane][:, None] + np.arange(size)[None, :]
    if store:
        data = np.stack([w.taint[r][g, lane] for r in regs], axis=-1)      # (n, dwords)
        pt[g[:, None], lane[:, None], at] = np.repeat(data, 4, axis=-1)
        if data.any():
            w.porigin = next(w.torigin[r] for r in regs if r in w.torigin)
        return
    got = pt[g[:, None], lane[:, None], at].reshape(len(g), len(regs), 4).any(axis=-1)
    for j, r in enumerate(regs):
        w.taint[r][g, lane] |= got[:, j]
        if got[:, j].any():
            w.torigin[r] = w.porigin


def at_issue(m, w, op) -> None:
    """After a memory op's issue in the taint run: its racing lanes' dwords
    (``m.load_taint``, :func:`~pipeline_mlir.emu.racy_loads.taint_lanes`) taint the
    registers it loads into (an LDS DMA's: observable)."""
    parts, origin = m.load_taint, m.load_origin
    m.load_taint, m.load_origin = [], None
    if not parts:
        return
    flags = np.concatenate(parts, axis=-1)
    if not flags.any():
        return
    if w.taint is None:
        start(w)
    if op.lds is not None:
        _report(m, w, op.step, origin, "LDS (a DMA load's data)")
    sregs = [s for s in op.dst_s if s < 256]
    if sregs:               # a scalar load: its SGPRs, dword by dword where told apart
        per = flags[:, 0, :] if flags.shape[1:] == (1, len(sregs)) else \
            np.broadcast_to(flags.any(axis=(1, 2))[:, None], (flags.shape[0], len(sregs)))
        for j, s in enumerate(sregs):
            w.staint[s] |= per[:, j]
            if per[:, j].any():
                w.torigin[1000 + s] = origin
    regs = list(op.dst_v)
    if flags.shape[-1] != len(regs):    # dwords not told apart: every one, per lane
        flags = np.repeat(flags.any(axis=-1, keepdims=True), len(regs), axis=-1)
    for j, r in enumerate(regs):
        w.taint[r] |= flags[..., j] & w.exec
        if flags[..., j].any():
            w.torigin[r] = origin
