"""The alignment of the separators of an expected and an actual skeleton (one assembly
phase), which the ISA check (:mod:`pipeline_mlir.isa.check`) compares gap by gap.

The separators (waits, barriers, priorities, fences) are aligned by their classes with
:mod:`difflib`.  Where that leaves a fence unpaired though the phase has the schedule's
fences, alike in order, the fences are paired in order and the other separators aligned
between each two (:func:`_by_fences`): LLVM prints every ``sched_barrier``, adds none and
moves none past another.

No MLIR here.
"""

from __future__ import annotations

import difflib

from pipeline_mlir.isa.skeleton import SEPARATORS, Token, sep_key

__all__ = ["align_separators"]


def align_separators(exp: list[Token], act: list[Token], foreign: frozenset = frozenset()):
    """Matched separator pairs (exp index, act index) and the unmatched ones; the actual
    separators ``foreign`` are left out of the alignment (unmatched).  Where the alignment
    leaves a fence unpaired though the phase has the schedule's fences, alike in order,
    they are paired in order (:func:`_by_fences`)."""
    esep = [k for k, t in enumerate(exp) if t.kind in SEPARATORS]
    asep = [k for k, t in enumerate(act) if t.kind in SEPARATORS and k not in foreign]
    pairs, un_e, un_a = _matched(exp, act, esep, asep)
    ef = [k for k in esep if exp[k].kind == "sched_barrier"]
    af = [k for k in asep if act[k].kind == "sched_barrier"]
    paired = {e for e, _ in pairs}
    if any(k not in paired for k in ef) and \
            [sep_key(exp[k]) for k in ef] == [sep_key(act[k]) for k in af]:
        pairs, un_e, un_a = _by_fences(exp, act, esep, asep, ef, af)
    return pairs, un_e, sorted(un_a + list(foreign))


def _matched(exp: list[Token], act: list[Token], esep: list[int], asep: list[int]):
    """The separators ``esep`` of ``exp`` and ``asep`` of ``act`` aligned by their classes
    (:func:`~pipeline_mlir.isa.skeleton.sep_key`): (pairs, unmatched of each)."""
    sm = difflib.SequenceMatcher(None, [sep_key(exp[k]) for k in esep],
                                 [sep_key(act[k]) for k in asep], autojunk=False)
    pairs: list[tuple[int, int]] = []
    un_e: list[int] = []
    un_a: list[int] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            pairs += [(esep[i1 + d], asep[j1 + d]) for d in range(i2 - i1)]
        else:
            un_e += esep[i1:i2]
            un_a += asep[j1:j2]
    return pairs, un_e, un_a


def _by_fences(exp, act, esep, asep, ef, af):
    """The alignment of a phase whose fences (``ef``, ``af``) are the schedule's, alike in
    order: the k-th fence of each paired, the other separators aligned between each two
    (:func:`_matched`).  LLVM prints every ``sched_barrier``, adds none, and moves none
    past another (each bounds the scheduler's regions), so the fences are paired in
    order; the class alignment may pair them otherwise where a run of separators as long
    matches elsewhere: IREE's i8 ``A^T x B^T`` 128x64 tile in one wave (finding 39), its
    epilogue's last reads dead (their results unused, gone before LLVM), the guard
    waits then placed inside a long load and the ``vmcnt(0)`` after them merged into the
    wait before them, 8 fences in a row: the alignment paired the last guard's fences and wait with the later
    ``lgkmcnt(0)`` and its fences, and that ``vmcnt(0)`` and ``lgkmcnt(0)`` were missing."""
    pairs: list[tuple[int, int]] = list(zip(ef, af))
    un_e: list[int] = []
    un_a: list[int] = []
    for i in range(len(ef) + 1):
        lo_e, hi_e = (ef[i - 1] if i else -1), (ef[i] if i < len(ef) else len(exp))
        lo_a, hi_a = (af[i - 1] if i else -1), (af[i] if i < len(af) else len(act))
        p, ue, ua = _matched(exp, act, [k for k in esep if lo_e < k < hi_e],
                             [k for k in asep if lo_a < k < hi_a])
        pairs += p
        un_e += ue
        un_a += ua
    return sorted(pairs), un_e, un_a
