"""A K tile whose fragments do not fit in a lane's registers, split along K into sub-steps.

A wave's accumulators of a 128x128 tile take a lane's 256 AGPRs
(:mod:`~pipeline_mlir.frontend.accumulator_agprs`), which leaves the 256 architected VGPRs
for everything else; the schedule holds the four fragment loads of a K tile (A's and B's
two subtiles) at once (the 4-wave schedule at three of its four MMA blocks: finding 108 of
``docs/iree-audits.md``).  Where those loads take too much of the architected file, LLVM
spills: IREE's forced i8 ``A^T x B`` 1920x128x1280 (16x16x64 MFMAs, a K step of 256) reads
256 VGPRs of fragments a K tile, the whole file, and spills 598 VGPRs.

:func:`split_for_registers` counts, on the loop's partition, the VGPRs a lane the reads of
one K tile write and the read instructions (each keeps its LDS address in a VGPR until it
issues: :func:`fragment_registers`), and where their sum is over :func:`register_budget`
splits the K step into the fewest sub-steps (a power of two) that bring it under
(:func:`~pipeline_mlir.frontend.ksplit.split_k`, which keeps sub-step 0's reads and MFMAs:
the sums bit-identical).  The rule is for a loop whose accumulators go to AGPRs (beside
accumulators in VGPRs no budget is measured: :func:`register_budget`); its budget is the
256 architected VGPRs less :data:`OTHER_LIVE`, measured:

* at a sum of 176 (fp8 ``A^T x B^T`` 128x1280x384: 128 VGPRs of fragments, 48 reads) and
  160 (i8 ``A x B^T`` 896x128x384 and 128x2560x640: 128, 32) the kernels spill nothing;
* at 192 (IREE's i8 ``A^T x B`` above split into 2: 128 VGPRs, 64 reads) they spill 40 to
  56 VGPRs; at 96 (split into 4) none; unsplit (384) 471 to 598.

Over the budget, a loop whose accumulators are 16x16 MFMAs' (4 registers a lane:
:func:`untied_accumulators`) is split into as many sub-steps as an accumulator has MFMAs a
K step, one MFMA an accumulator a sub-step, where the fewest under the budget would leave
more (finding 119).  LLVM writes a 32x32 MFMA's result in place of its accumulator (its
``_mac`` form: one register tuple an accumulator); it has no such form for the 16x16 ones,
whose result may overlap the accumulator exactly, and gives each MFMA's result a register
of its own, so an accumulator taking two MFMAs a sub-step is two live ranges there.  With
the 64 accumulators taking all 256 AGPRs, LLVM's allocator then moves some into
architected VGPRs and spills them to scratch where the architected file cannot take them:
IREE's i8 ``A x B^T`` 384x1280x2560, ``A x B`` 640x512x768 and ``A^T x B^T``
256x512x1536 (a K step of 256, 256 VGPRs of fragments in 64 reads: 320) split into 2
(160, under the budget) spill 8, 37 and 21 VGPRs of accumulators, at most 157 to 208
architected VGPRs live before allocation; split into 4, none.

Under the budget too, a loop whose 16x16 MFMAs' accumulators fill the AGPRs and take
several MFMAs a K step is split into one MFMA an accumulator a sub-step
(:func:`_untied_under_budget`, finding 125): IREE's i8 ``A x B`` 512x640x1152 and
128x1024x896 and ``A x B^T`` 768x384x1152 at a K step of 128 (two 16x16x64 MFMAs an
accumulator, 128 VGPRs of fragments in 48 or 32 reads: 176 or 160) spill 18, 22 and 2 VGPRs
whole (the first two after the loop, where LLVM moves accumulators between AGPRs and
architected VGPRs; the third also moves them in the loop), none split into 2.  A loop at
one MFMA an accumulator a K step already (the 8-bit floats' 16x16x128 at a K step of 128)
has nothing to split, and one whose split is refused is pipelined as it is, its note saying
why (:data:`UNDER_BUDGET`; no warning, being under the budget).

Where the split cannot be made (``split_k`` refuses it: a remainder loop on the schedule's
buffers, copies it would narrow, an MFMA chain that does not repeat), the loop is pipelined
as it is, as before (the one-MFMA split, refused, falls back to the fewest under the
budget).  The split for registers is asked to take a buffer whose XOR swizzle mixes the
sub-step's element bits (``split_k``'s ``unswizzle``: the one-wave i8 tiles'
``xor_shuffle<128, 16>`` and a quarter K step's bit 6).  Either way the adopted loop says
what was decided (:data:`~pipeline_mlir.frontend.marks.KSPLIT_NOTE_ATTR`, which
``--emit=report`` prints), and a loop left over the budget is warned of at the loop
(``passes/adopt_loop.py``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import int_value
from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.frontend.accumulator_agprs import accumulator_registers
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.ksplit import KSplitRefusal, split_k
from pipeline_mlir.frontend.marks import MERGED_ATTR
from pipeline_mlir.target.gfx950 import ARCH_VGPRS

__all__ = ["OTHER_LIVE", "UNTIED_REGISTERS", "fragment_registers", "register_budget",
           "split_for_registers", "sub_steps", "over_budget_note", "untied_accumulators"]

#: the architected VGPRs a lane's other values take beside one K tile's fragments and their
#: read addresses (copies' addresses, counters, C's store addresses), as measured: the
#: budget of a kernel whose accumulators are in AGPRs is 256 less this, 176 (module
#: docstring; finding 109 of docs/iree-audits.md)
OTHER_LIVE = 80
#: the registers a lane of an accumulator LLVM does not write in place (module docstring):
#: a 16x16 MFMA's 4 (a 32x32 MFMA's 16 it does)
UNTIED_REGISTERS = 4
#: what such accumulators are, worded in the note
UNTIED = "the 16x16 MFMAs' accumulators of 4 registers fill the AGPRs"
#: how a note of a loop over the budget that the split could not take starts (the driver's
#: warning at the loop reads it)
OVER_BUDGET = "not split"
#: how the note of a loop under the budget that the split for untied accumulators could
#: not take starts (no warning: :func:`over_budget_note` is False for it)
UNDER_BUDGET = "kept whole"
#: why a loop is split into one MFMA an accumulator a sub-step, as its note says it
_ONE_EACH = (f"one MFMA an accumulator a sub-step ({UNTIED}: LLVM gives each of an "
             f"accumulator's MFMAs a register of its own)")


def fragment_registers(an: Analysis) -> tuple[int, int]:
    """(the VGPRs a lane the fragment reads of one K tile of ``an``'s loop write, those
    reads' instructions): the schedule's four fragment loads of the tile."""
    vgprs = reads = 0
    for r in an.reads:
        nbytes = r.lds.shape[-1] * an.buffer_views[r.buffer].elem_bytes
        vgprs += -(-nbytes // 4)
        reads += r.instructions
    return vgprs, reads


def register_budget(an: Analysis) -> int | None:
    """The budget of :func:`fragment_registers`' sum where the loop's accumulators go to
    AGPRs (``keep_accumulators_in_agprs``: they take the architected file or more), else
    None: beside accumulators in VGPRs the budget is not measured (IREE's 8-wave i8
    256x256 kernel holds 128 VGPRs of them, 96 of fragments in 24 reads, and LLVM fits it
    in 246 VGPRs with no spill), and such a loop is left as it is."""
    if accumulator_registers(an) < ARCH_VGPRS:
        return None
    return ARCH_VGPRS - OTHER_LIVE


def split_for_registers(an: Analysis) -> Analysis:
    """``an``, or the analysis of its loop split along K into the fewest sub-steps whose
    fragments fit the budget (module docstring), with what was decided where over it
    (``ksplit_note``, the adopted loop's
    :data:`~pipeline_mlir.frontend.marks.KSPLIT_NOTE_ATTR`).  A loop whose K steps were
    merged is left as it is."""
    loop = an.scan.loop
    if not an.mfmas or MERGED_ATTR in loop.attributes:
        return an
    vgprs, reads = fragment_registers(an)
    budget = register_budget(an)
    need = vgprs + reads
    if budget is None:
        return an
    if need <= budget:
        return _untied_under_budget(an, vgprs, reads, budget)
    n = sub_steps(need, budget, an.chain())
    said = (f"{_fragments(vgprs, reads)}, over the budget of {budget} ({ARCH_VGPRS} "
            f"architected VGPRs, the accumulators in AGPRs, {OTHER_LIVE} for other values)")
    before = _step_and_k(an)      # (read before the split changes them)
    out, reason, one = None, "", ""
    if untied_accumulators(an) and an.chain() > n:      # (one MFMA an accumulator a sub-step)
        out, reason = _split(an, an.chain())
        one = f"; {_ONE_EACH}" if out is not None else \
            f"; not {an.chain()}, one MFMA an accumulator a sub-step ({reason})"
    if out is None:
        out, reason = _split(an, n)
    if out is None:
        an.ksplit_note = (f"{OVER_BUDGET}: {said}; the front end cannot split its K step into "
                          f"{max(n, 2)} sub-steps ({reason}): pipelined as it is, LLVM "
                          f"may spill")
        return an
    return _noted(an, out, before, said, (vgprs, reads), one)


def _fragments(vgprs: int, reads: int) -> str:
    """What one K tile's fragment reads take, as both notes say it."""
    return (f"one K tile's fragment reads write {vgprs} VGPRs a lane in {reads} reads "
            f"({vgprs + reads} with their addresses)")


def _step_and_k(an: Analysis) -> tuple[int, int]:
    """(the step of ``an``'s loop, the K elements a step multiplies), read before a split."""
    return an.evaluator.uniform(an.scan.loop.operands[2]), _k_elements(an)


def _noted(an: Analysis, out: Analysis, before: tuple[int, int], said: str,
           regs: tuple[int, int], tail: str) -> Analysis:
    """``out``, ``an``'s loop split along K (``before``: :func:`_step_and_k` before the
    split), its note saying into how many sub-steps, ``said`` (the fragments), what a
    sub-step's fragment reads write of ``regs`` (the K step's VGPRs and reads), ``tail``."""
    (step, k), (vgprs, reads) = before, regs
    got = step // constant_int(an.scan.loop.operands[2])
    out.ksplit_note = (f"split into {got} sub-steps of K {k // got} (the K step of {k}): "
                       f"{said}; {-(-vgprs // got)} VGPRs in {-(-reads // got)} reads a "
                       f"sub-step{tail}")
    return out


def _untied_under_budget(an: Analysis, vgprs: int, reads: int, budget: int) -> Analysis:
    """``an`` under the budget: as it is, or, where its accumulators are untied
    (:func:`untied_accumulators`) and take several MFMAs a K step, split into one MFMA an
    accumulator a sub-step (module docstring: finding 125), with its note; a split
    refused leaves it as it is, the note saying why (no warning: it is under the budget)."""
    chain = an.chain()
    if chain < 2 or not untied_accumulators(an):
        return an
    said = f"{_fragments(vgprs, reads)}, under the budget of {budget}"
    before = _step_and_k(an)      # (read before the split changes them)
    out, reason = _split(an, chain)
    if out is None:
        an.ksplit_note = (f"{UNDER_BUDGET}: {said}; not {chain} sub-steps, {_ONE_EACH}, "
                          f"since the front end cannot split its K step so ({reason}): "
                          f"pipelined as it is")
        return an
    return _noted(an, out, before, said, (vgprs, reads), f"; {_ONE_EACH}")


def untied_accumulators(an: Analysis) -> bool:
    """Whether the loop's MFMAs write accumulators of at most 4 registers a lane (16x16
    MFMAs), which LLVM does not tie to their result (module docstring): a 32x32 MFMA's
    result overlaps no input, LLVM writes it in place of its accumulator (its ``_mac``
    form); a 16x16 MFMA's may overlap it exactly, and LLVM gives it a register of its own."""
    return accumulator_registers(an) <= UNTIED_REGISTERS * an.accumulators()


def _k_elements(an: Analysis) -> int:
    """The K elements one step of ``an``'s loop multiplies: an MFMA's K times the MFMAs of
    an accumulator."""
    return int_value(an.scan.mfmas[0].attributes["k"]) * an.chain()


def sub_steps(need: int, budget: int, chain: int) -> int:
    """The fewest sub-steps (a power of two, at most ``chain``, the MFMAs of an accumulator
    a K step) whose share of ``need`` is at most ``budget``; 1 where ``need`` is."""
    n = 1
    while -(-need // n) > budget and n < chain:
        n *= 2
    return n


def over_budget_note(note: str) -> bool:
    """Whether ``note`` (a :data:`KSPLIT_NOTE_ATTR`) tells of a loop left over the budget."""
    return note.startswith(OVER_BUDGET)


def _split(an: Analysis, n: int) -> tuple[Analysis | None, str]:
    """(``an`` split into ``n`` K sub-steps, "") or (None, why not): ``split_k``'s reason
    apart from its preamble (:class:`~pipeline_mlir.frontend.ksplit.KSplitRefusal`)."""
    if n < 2:
        return None, "its accumulators take one MFMA a K step, which is not cut"
    try:
        return split_k(an, at_least=n, unswizzle=True), ""
    except KSplitRefusal as e:
        return None, e.reason
