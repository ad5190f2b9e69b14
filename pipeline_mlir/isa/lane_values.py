"""Every thread's register values and what differs between waves, in a gfx950 function.

What the ISA check's LDS rule (:mod:`pipeline_mlir.isa.lds_ranges`) computes its addresses
and ``exec`` from: a forward dataflow over the function's control-flow graph that evaluates,
for every thread of the workgroup, the registers LLVM builds LDS addresses with
(:data:`_OPS`: moves, shifts, logic, additions, 24-bit products, bitfield extracts,
``v_alignbit_b32``, the 16-bit adds, products and shifts (their results' high half zeroed,
as gfx9 writes them), their SDWA forms writing the whole register, compares and the lane
masks; ``v0`` the thread's id; a scalar register one
value per wave; anything else, or a value that differs between the paths into a block,
unknown), and beside it which registers may hold a different value in different waves of
the workgroup (:func:`varying_states`: computed from the thread or wave id, a wave's own
hardware state, or memory), with the blocks whose conditional branch the waves may take
apart.

No MLIR here.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

import numpy as np

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.asm_instr import registers

__all__ = ["evaluate", "value_flow", "vary_after", "block_states", "lane_source",
           "varying_states"]

_M32 = np.uint64(0xFFFFFFFF)
_VGPR = re.compile(r"^v\d+$")
#: a vector register (VGPR or AGPR): never part of a lane mask
_VECTOR = re.compile(r"^[va]\d+$")
_NUMBER = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")


def _mask(x):
    return x & _M32


#: mnemonic (without ``_e32`` / ``_e64``) -> its result from its sources (numpy arrays of
#: per-thread 32-bit values held in ``uint64``)
_OPS = {
    "v_mov_b32": lambda a: a, "s_mov_b32": lambda a: a,
    # its 16-bit immediate sign-extended
    "s_movk_i32": lambda a: ((a & 0xFFFF) ^ 0x8000) + 0xFFFF8000,
    "v_not_b32": lambda a: ~a,
    "v_lshlrev_b32": lambda s, a: a << (s & 31), "v_lshrrev_b32": lambda s, a: a >> (s & 31),
    "s_lshl_b32": lambda a, s: a << (s & 31), "s_lshr_b32": lambda a, s: a >> (s & 31),
    "v_and_b32": lambda a, b: a & b, "s_and_b32": lambda a, b: a & b,
    "v_or_b32": lambda a, b: a | b, "s_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b, "s_xor_b32": lambda a, b: a ^ b,
    "v_add_u32": lambda a, b: a + b, "s_add_u32": lambda a, b: a + b,
    "s_add_i32": lambda a, b: a + b,
    "v_sub_u32": lambda a, b: a - b, "v_subrev_u32": lambda a, b: b - a,
    "s_sub_u32": lambda a, b: a - b, "s_sub_i32": lambda a, b: a - b,
    "v_mul_u32_u24": lambda a, b: (a & 0xFFFFFF) * (b & 0xFFFFFF),
    "v_mul_lo_u32": lambda a, b: a * b, "s_mul_i32": lambda a, b: a * b,
    "v_mad_u32_u24": lambda a, b, c: (a & 0xFFFFFF) * (b & 0xFFFFFF) + c,
    "v_add_lshl_u32": lambda a, b, s: (a + b) << (s & 31),
    "v_lshl_add_u32": lambda a, s, b: (a << (s & 31)) + b,
    "v_lshl_or_b32": lambda a, s, b: _mask(a << (s & 31)) | b,
    "v_and_or_b32": lambda a, b, c: (a & b) | c,
    "v_or3_b32": lambda a, b, c: a | b | c,
    "v_add3_u32": lambda a, b, c: a + b + c,
    "v_xad_u32": lambda a, b, c: (a ^ b) + c,
    "v_bfe_u32": lambda a, o, w: (a >> (o & 31)) & ((np.uint64(1) << (w & 31)) - 1),
    # the offset in bits 4:0 of the second source, the width in bits 22:16
    "s_bfe_u32": lambda a, f: (a >> (f & 31)) & (
        (np.uint64(1) << np.minimum((f >> 16) & 0x7F, 32)) - 1),
    "v_bfi_b32": lambda m, a, b: (m & a) | (~m & b),
    "v_ashrrev_i32": lambda s, a: _low32(_signed(a) >> (s & 31).astype(np.int64)),
    # signed: ``w & 31`` bits from bit ``o & 31``, sign-extended (0 for width 0)
    "v_bfe_i32": lambda a, o, w: _low32(_extend(a >> (o & 31), w & 31)),
    # bits ``s & 31`` .. ``s & 31 + 31`` of the 64 bits ``a`` (high) and ``b`` (low)
    "v_alignbit_b32": lambda a, b, s: ((a << np.uint64(32)) | b) >> (s & 31),
    # 16-bit integer operations on the sources' low halves (shift counts: their low 4
    # bits), the result zero-extended: gfx9 zeroes the destination's high 16 bits (LLVM's
    # ``GCNSubtarget::zeroesHigh16BitsOfDest``; the emulator's ``valu_lanes`` does the same)
    "v_add_u16": lambda a, b: (a + b) & 0xFFFF, "v_sub_u16": lambda a, b: (a - b) & 0xFFFF,
    "v_subrev_u16": lambda a, b: (b - a) & 0xFFFF,
    "v_mul_lo_u16": lambda a, b: (a * b) & 0xFFFF,
    "v_lshlrev_b16": lambda s, a: (a << (s & 15)) & 0xFFFF,
    "v_lshrrev_b16": lambda s, a: (a & 0xFFFF) >> (s & 15),
    "v_ashrrev_i16": lambda s, a: _low32(_extend(a, 16) >> (s & 15).astype(np.int64))
    & 0xFFFF,
}


def _low32(x):
    """Signed per-thread values (int64) as their 32-bit patterns (uint64)."""
    return (x & 0xFFFFFFFF).astype(np.uint64)


def _extend(a, w):
    """The low ``w`` bits of ``a`` (per-thread widths, 0..31) read as signed (int64; 0 for
    width 0)."""
    w = np.asarray(w, dtype=np.int64)
    field = a.astype(np.int64) & ((np.int64(1) << w) - 1)
    sign = np.where(w > 0, np.int64(1) << np.maximum(w - 1, 0), 0)
    return (field ^ sign) - sign


def _bitop3(table: int):
    """``v_bitop3_b32`` of truth table ``table`` (bit ``(s0 << 2) | (s1 << 1) | s2``)."""
    def run(a, b, c):
        r = np.zeros_like(a)
        for idx in range(8):
            if (table >> idx) & 1:
                r |= (a if idx & 4 else ~a) & (b if idx & 2 else ~b) & (c if idx & 1 else ~c)
        return r
    return run


def lane_source(text: str, state: dict, threads: int):
    """An operand's per-thread value, or None (unknown: a register of no known value, a
    float constant, a wide register, a modifier)."""
    if _NUMBER.match(text):
        return np.full(threads, int(text, 0) & 0xFFFFFFFF, dtype=np.uint64)
    regs = registers(text)
    if len(regs) != 1 or not re.match(r"^([vs]\d+|m0)$", text.strip()):
        return None
    return state.get(regs[0])


#: an SDWA source select: (shift, mask) of the field of the source it reads
_SDWA_FIELDS = {"BYTE_0": (0, 0xFF), "BYTE_1": (8, 0xFF), "BYTE_2": (16, 0xFF),
                "BYTE_3": (24, 0xFF), "WORD_0": (0, 0xFFFF), "WORD_1": (16, 0xFFFF),
                "DWORD": (0, 0xFFFFFFFF)}


def _sdwa(op, modifiers: tuple[str, ...]):
    """The SDWA form of ``op`` (gfx9): each source its selected field, zero-extended (a
    ``sext()`` source is no operand :func:`lane_source` reads), the operation on 32 bits,
    the whole result written (``dst_sel:DWORD``, the default, which makes ``dst_unused``
    moot); a destination field, or any other modifier (``clamp``, ``mul``), None."""
    fields = dict(m.split(":", 1) for m in modifiers if ":" in m)
    if len(fields) != len(modifiers) or fields.get("dst_sel", "DWORD") != "DWORD" or \
            set(fields) - {"dst_sel", "dst_unused", "src0_sel", "src1_sel"} or \
            not set(fields.get(k, "DWORD") for k in ("src0_sel", "src1_sel")) <= \
            set(_SDWA_FIELDS):
        return None
    sels = [_SDWA_FIELDS[fields.get(f"src{k}_sel", "DWORD")] for k in (0, 1)]

    def run(*args):
        return op(*[(a >> s) & m for a, (s, m) in zip(args, sels)], *args[2:])
    return run


@functools.lru_cache(maxsize=1024)
def _operation(mnemonic: str, modifiers: tuple[str, ...]):
    """The function that computes ``mnemonic``'s result from its sources (None: not
    evaluated here, its results unknown; ``"readfirstlane"``)."""
    base = re.sub(r"_e(32|64)$", "", mnemonic)
    if base.endswith("_sdwa"):
        op = _OPS.get(base[:-len("_sdwa")])
        return _sdwa(op, modifiers) if op is not None else None
    if base == "v_readfirstlane_b32" and not modifiers:
        return "readfirstlane"
    if base == "v_bitop3_b32":
        tables = [m.split(":")[1] for m in modifiers if m.startswith("bitop3:")]
        if len(tables) != len(modifiers) or len(tables) != 1 or not _NUMBER.match(tables[0]):
            return None
        return _bitop3(int(tables[0], 0) & 0xFF)
    return None if modifiers else _OPS.get(base)


#: a lane mask's compare: ``v_cmp_<cond>_<u32|i32>``
_CMP = re.compile(r"^v_cmp_(lt|gt|le|ge|eq|ne)_(u32|i32)(_e32|_e64)?$")
_COMPARE = {"lt": np.less, "gt": np.greater, "le": np.less_equal, "ge": np.greater_equal,
            "eq": np.equal, "ne": np.not_equal}
#: a 64-bit scalar operation on lane masks
_MASK_OPS = {"s_and_b64": lambda a, b: a & b, "s_or_b64": lambda a, b: a | b,
             "s_xor_b64": lambda a, b: a ^ b,
             "s_andn2_b64": lambda a, b: a & (1 - b), "s_mov_b64": lambda a: a}
#: ``exec`` saved, then a new one from it: ``s_and_saveexec_b64 d, s`` (``exec = s & exec``),
#: ``s_or_saveexec_b64`` (``s | exec``) and ``s_andn2_saveexec_b64`` (``s & ~exec``), ``d``
#: the old ``exec``
_SAVEEXEC = {"s_and_saveexec_b64": lambda s, old: s & old,
             "s_or_saveexec_b64": lambda s, old: s | old,
             "s_andn2_saveexec_b64": lambda s, old: s & (1 - old)}


class _Part(NamedTuple):
    """A lane mask known but for one condition no rule evaluates, ``C`` (the lanes the
    compare, or the combination of two such masks, at line ``cid`` makes): ``(a & C) | (b & ~C)``, ``a`` and ``b`` known.  LLVM's
    if-else on such a condition (``s_and_saveexec_b64``, ``s_xor_b64`` of the lanes left,
    ``s_andn2_saveexec_b64``, ``s_or_b64`` back) restores ``exec`` to a known mask, which
    ``a == b`` says."""
    cid: int
    a: np.ndarray
    b: np.ndarray


#: the state's key prefix of a lane mask known only as a :class:`_Part`
_SYM = "sym"
#: the state's key of the mask ``exec`` is known to lie within when it is not known (set
#: by ``s_and_saveexec_b64`` of an unknown condition: the ``exec`` it saved)
_WITHIN = ("exec_within",)


def _get_mask(state: dict, key):
    """The lane mask at ``key``: its array, its :class:`_Part`, or None."""
    if key is None:
        return None
    v = state.get(key)
    return v if v is not None else state.get((_SYM,) + key)


def _set_mask(state: dict, key, m) -> None:
    """Record lane mask ``m`` (an array, a :class:`_Part` or None: unknown) at ``key``."""
    if key is None:
        return
    state.pop(key, None)
    state.pop((_SYM,) + key, None)
    if isinstance(m, _Part) and np.array_equal(m.a, m.b):
        m = m.a
    if isinstance(m, _Part):
        state[(_SYM,) + key] = m
    elif m is not None:
        state[key] = m


def _combine(op, line: int, *masks):
    """``op`` of lane masks (by the instruction at ``line``), each an array or a
    :class:`_Part` of one condition; None when one is unknown or two conditions meet but as
    below."""
    if any(m is None for m in masks):
        return None
    parts = [m for m in masks if isinstance(m, _Part)]
    if not parts:
        return op(*masks)
    if len({m.cid for m in parts}) > 1:
        # two conditions: a mask of lanes within one known mask, ``x & C1`` and ``x & C2``
        # (compares under one exec), gives one within it again, of a condition of its own:
        # that instruction's
        x = parts[0].a
        if len(parts) != len(masks) or any(m.b.any() or not np.array_equal(m.a, x)
                                           for m in parts):
            return None
        return _Part(line, x, np.zeros_like(x))
    a = [m.a if isinstance(m, _Part) else m for m in masks]
    b = [m.b if isinstance(m, _Part) else m for m in masks]
    return _Part(parts[0].cid, op(*a), op(*b))


def _mask_key(text: str) -> tuple | None:
    """The state's key of a lane mask operand (``vcc``, ``exec``, an SGPR pair)."""
    regs = registers(text)
    return regs if regs in (("vcc",), ("exec",)) or (
        len(regs) == 2 and all(r.startswith("s") for r in regs)) else None


def _signed(x):
    """32-bit values read as signed."""
    return x.astype(np.int64) - ((x >> 31) & 1).astype(np.int64) * (1 << 32)


def _lane_mask(i: AsmInstr, state: dict, threads: int):
    """(the mask written, its key) by ``i`` when it computes a lane mask this rule reads:
    a compare (one it does not evaluate: a :class:`_Part` of its own condition, under a
    known ``exec``), a 64-bit logic op or move of masks; else None."""
    m = _CMP.match(i.mnemonic)
    if m and not i.modifiers and len(i.operands) == 3:
        a, b = (lane_source(x, state, threads) for x in i.operands[1:])
        if a is not None and b is not None:
            if m.group(2) == "i32":
                a, b = _signed(a), _signed(b)
            return _COMPARE[m.group(1)](a, b).astype(np.uint64), _mask_key(i.operands[0])
    if i.mnemonic.startswith("v_cmp_") and i.operands and _mask_key(i.operands[0]):
        active = state.get(("exec",))     # (unknown lanes C, off where exec is)
        if active is None:
            return None
        return _Part(i.line, active, np.zeros(threads, dtype=np.uint64)), \
            _mask_key(i.operands[0])
    op = _MASK_OPS.get(i.mnemonic)
    if op is not None and not i.modifiers:
        args = [_get_mask(state, _mask_key(x)) for x in i.operands[1:]]
        if i.mnemonic == "s_or_b64" and any(isinstance(a, np.ndarray) and a.all()
                                             for a in args):
            # every lane on, whatever the other mask (exec restored from a saved full one)
            return np.ones(threads, dtype=np.uint64), _mask_key(i.operands[0])
        if i.mnemonic == "s_or_b64" and _mask_key(i.operands[1]) == ("exec",) and \
                args[0] is None and _WITHIN in state and \
                _same_mask(state[_WITHIN], args[1]):
            # exec, unknown but within the mask it saved, joined back to that mask
            return args[1], _mask_key(i.operands[0])
        got = _combine(op, i.line, *args)
        return (got, _mask_key(i.operands[0])) if got is not None else None
    return None


def _same_mask(a, b) -> bool:
    if isinstance(a, _Part) or isinstance(b, _Part):
        return isinstance(a, _Part) and isinstance(b, _Part) and a.cid == b.cid and \
            np.array_equal(a.a, b.a) and np.array_equal(a.b, b.b)
    return a is not None and b is not None and np.array_equal(a, b)


def _first_lanes(a, active):
    """``v_readfirstlane_b32`` of per-thread ``a``: per wave, its first lane ``active``
    (exec) leaves on (lane 0 where none is), for the whole wave; where exec is not known,
    known only for a wave whose lanes all hold one value."""
    out = np.empty_like(a)
    for w in range(0, len(a), 64):
        lanes = a[w:w + 64]
        if active is None:
            if not (lanes == lanes[0]).all():
                return None
            first = 0
        else:
            on = np.flatnonzero(active[w:w + 64])
            first = int(on[0]) if len(on) else 0
        out[w:w + 64] = lanes[first]
    return out


def evaluate(i: AsmInstr, state: dict, threads: int) -> None:
    """``state`` (register -> per-thread values; a lane mask's key -> per-thread 0 or 1)
    after ``i``."""
    if not i.defs:
        return
    op = _operation(i.mnemonic, i.modifiers) if i.kind in ("valu", "salu") else None
    value = None
    active = state.get(("exec",))
    if op == "readfirstlane":
        a = lane_source(i.operands[1], state, threads) if len(i.operands) == 2 else None
        if a is not None:               # each wave's first lane exec leaves on, whole wave
            value = _first_lanes(a, active)
    elif op is not None and len(i.operands) >= 2:
        args = [lane_source(o, state, threads) for o in i.operands[1:]]
        if all(a is not None for a in args):
            try:
                value = _mask(op(*args))
            except TypeError:           # the wrong number of sources
                value = None
    mask = None
    saved = None
    within = None       # (what exec lies within after i, when i leaves it unknown)
    if i.mnemonic in _SAVEEXEC and len(i.operands) == 2:
        src, old = _get_mask(state, _mask_key(i.operands[1])), _get_mask(state, ("exec",))
        if old is not None:             # the exec saved is known whatever the new one is
            saved = (old, _mask_key(i.operands[0]))
            mask = (_combine(_SAVEEXEC[i.mnemonic], i.line, src, old), ("exec",))
            within = old if mask[0] is None and i.mnemonic == "s_and_saveexec_b64" else None
    elif i.mnemonic.startswith(("v_cmp_", "s_and_b64", "s_or_b64", "s_xor_b64",
                                "s_andn2_b64", "s_mov_b64")):
        mask = _lane_mask(i, state, threads)
        if mask is not None and i.kind == "valu" and isinstance(mask[0], np.ndarray):
            # a compare: 0 in the lanes exec leaves off
            mask = (mask[0] & active, mask[1]) if active is not None else None
    dst = i.defs[0]
    if value is not None and i.kind == "valu" and re.match(r"^v\d+$", dst):
        # the lanes exec leaves off keep what they held: known only where it is
        old = state.get(dst)
        if active is None:
            value = value if old is not None and np.array_equal(old, value) else None
        elif not active.all():
            value = np.where(active != 0, value, old) if old is not None else None
    for r in i.defs:
        state.pop(r, None)
    if any(not _VGPR.match(r) for r in i.defs):     # a lane mask's register among them
        defs = set(i.defs)
        for key in [k for k in state if isinstance(k, tuple) and
                    defs.intersection(k[1:] if k[:1] == (_SYM,) else k)]:
            del state[key]
    if value is not None and dst != "scc" and registers(i.operands[0]) == (dst,):
        state[dst] = value
    if mask is not None:
        _set_mask(state, mask[1], mask[0])
    if saved is not None:
        _set_mask(state, saved[1], saved[0])
    if "exec" in i.defs:    # (only an s_and_saveexec_b64 says what a new exec lies within)
        state.pop(_WITHIN, None)
        if within is not None and _get_mask(state, ("exec",)) is None:
            state[_WITHIN] = within


def _join(a: dict, b: dict) -> dict:
    return {r: v for r, v in a.items() if r in b and (v is b[r] or (
        _same_mask(v, b[r]) if isinstance(v, _Part) or isinstance(b[r], _Part)
        else np.array_equal(v, b[r])))}


def block_states(fn: AsmFunction) -> dict[int, dict]:
    """Per block reachable from the entry, the registers of known value at its top."""
    return value_flow(fn)[0]


def value_flow(fn: AsmFunction):
    """(per block reachable from the entry, the registers of known value at its top; per
    such block, the registers at its top that may differ between waves, and the blocks
    whose branch the waves may take apart: :func:`varying_states`), one fixpoint."""
    threads = fn.threads
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    entry = {0: {"v0": np.arange(threads, dtype=np.uint64),
                 ("exec",): np.ones(threads, dtype=np.uint64)}}
    varying = {0: frozenset({"v0"} | ({"exec"} if threads % 64 else set()))}
    apart: set[int] = set()
    work = [0]
    while work:
        k = work.pop()
        state, vary = dict(entry[k]), set(varying[k])
        for i in fn.blocks[k].instrs:
            if i.kind == "branch" and i.mnemonic.startswith("s_cbranch") and \
                    vary.intersection(i.uses):
                apart.add(k)
            evaluate(i, state, threads)
            vary_after(i, vary, state)
        for s in fn.blocks[k].succs:
            t = index[s]
            new = _join(entry[t], state) if t in entry else state
            more = varying.get(t, frozenset()) | vary
            if t not in entry or new.keys() != entry[t].keys() or more != varying[t]:
                entry[t], varying[t] = new, frozenset(more)
                if t not in work:
                    work.append(t)
    return entry, varying, frozenset(apart)


#: the kinds whose results may differ between waves whatever they read: memory other waves
#: may be writing (an LDS read, a vector load, a returning atomic or ``ds_append``) and the
#: wave's own hardware state (``s_getreg_b32`` of its id, ``s_memtime``)
_WAVE_OWN = frozenset({"ds_read", "ds_write", "vmem_load", "vmem_store", "other"})


def vary_after(i: AsmInstr, state: set, values: dict) -> None:
    """``state`` (the registers that may differ between waves) after ``i``; ``values``
    (:func:`evaluate`'s, after ``i``): a register whose value is known and the same in
    every wave (lane by lane) does not."""
    if i.kind in _WAVE_OWN or i.mnemonic.startswith(("s_atomic_", "s_buffer_atomic_")) or \
            state.intersection(i.uses):
        state.update(i.defs)
        for r in i.defs:
            v = values.get(r)
            if v is None and not _VECTOR.match(r):    # a lane mask's register
                v = next((x for k, x in values.items() if isinstance(k, tuple) and r in k),
                         None)
            if v is not None and len(v) % 64 == 0 and (v.reshape(-1, 64) == v[:64]).all():
                state.discard(r)
    else:
        state.difference_update(i.defs)


def varying_states(fn: AsmFunction) -> tuple[dict[int, frozenset], frozenset]:
    """Per block reachable from the entry, the registers at its top whose value may differ
    between the waves of the workgroup, and the blocks whose conditional branch the waves
    may take apart (it reads such a register; none: every wave takes every branch alike).
    A forward dataflow over the control-flow graph (the union over the paths into a
    block, beside the values of :func:`block_states`): ``v0`` (the thread id), ``exec``
    where the workgroup's last wave is not full, and what an instruction reading one of
    them writes (``v_readfirstlane_b32`` of ``v0``: the wave's id; a vector result under
    such an ``exec``), what an LDS read, a vector load or a returning atomic writes
    (memory other waves may be writing), ``s_getreg_b32`` (the wave's hardware id) and
    ``s_memtime``; the others (kernel arguments, workgroup ids, constants and what is computed
    from them alone) are the same in every wave, and so is a value known the same in
    every wave (a mask of every lane saved)."""
    return value_flow(fn)[1:]
