"""The wait states LLVM 22 does not see after a 16-pass XDL MFMA, put in by the lowering.

gfx950 does not interlock an XDL MFMA's result: a VALU, VMEM or DS instruction (or another
MFMA's A/B operand) that touches the VGPRs it writes must issue ``passes + 4`` wait states
after it (the emulator's rule ``mfma-d-mem`` / ``mfma-d-valu`` / ``mfma-d-srcab``,
:mod:`pipeline_mlir.emu.hazards`).  For the 16-pass MFMAs (``v_mfma_f32_32x32x64_f8f6f4``
and its scaled form with an 8-bit operand) that is 20, and LLVM 22 asks for 20 too: with
0..18 independent instructions between the two it adds ``s_nop`` up to 20.  But its hazard
recognizer looks back at most 19 wait states for the MFMA that wrote a register (the search
limit of ``GCNHazardRecognizer::checkMAIVALUHazards`` and ``checkMAIHazards90A``, kept at
gfx940's 19 when gfx950 raised the 16-pass count to 20), so a reader exactly 19 wait states
after the MFMA is outside its window and gets nothing: one wait state short.  Found on IREE's
fp8 64x128 kernel in 2x4 waves at K step 256 (pingpong), whose epilogue store read the last
MFMA's result 19 wait states after it on the path where ``s_cbranch_execz`` skips the warp
stagger's barrier; ``test/unit/emu/test_llvm_window.py`` shows LLVM's count at every gap.

No other MFMA reaches the window (every other XDL MFMA has at most 8 passes: 12 wait states;
the 16-pass ``v_mfma_f32_32x32x2_f32`` is not XDL: 18).  So after the pipelined code the
lowering puts the whole count itself, :func:`emit_guard`, when the loop issues a 16-pass XDL
MFMA: a ``sched_barrier`` no instruction crosses, ``s_nop`` worth :data:`GUARD` wait
states, another ``sched_barrier``.  Whatever reads the accumulators after the pipelined code
(IREE's epilogue: conversions, stores) is then at least 20 wait states after the last MFMA on
every path, and LLVM's own count (it counts an ``s_nop`` already there) adds nothing.  The
cost is at most 20 issue cycles once per kernel, while that MFMA's 64 cycles drain.

The loops the kernel runs as written (a remainder loop, a loop with no pair to pipeline:
``sched.remainder``) get the same guard after them (:func:`guard_loops_as_written`, run by
``sched-lower-to-rocdl``): found on IREE's fp8 512x512x896 kernel with the 32x32x64 MFMA
forced (late form, 4-wave), whose one-iteration remainder LLVM unrolled and interleaved with
the epilogue's stores, one of which read the last MFMA's result 19 wait states after it.
Between the pipelined code and such a loop the readers are MFMAs (C, identical: no wait) and
loads into other registers, as inside the pipelined loop.  The emulator checks these rules
on every path of the code (``pipeline_mlir/emu/hazard_paths.py``), not only on the path a
run takes.
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.scan import REMAINDER_ATTR
from pipeline_mlir.lowering.rocdl_build import sched_barrier_none
from pipeline_mlir.target.gfx950 import MFMAS, mfma_passes

#: the wait states LLVM 22's hazard recognizer looks back for the MFMA that wrote a VGPR
LLVM_LOOKBACK = 19
#: the wait states an XDL MFMA's readers need beyond its passes (gfx950, 4 passes and more)
XDL_READ_EXTRA = 4
#: the wait states the guard issues: a 16-pass XDL MFMA's readers' count
GUARD = 16 + XDL_READ_EXTRA
#: the most wait states one ``s_nop`` issues (``s_nop 15``)
NOP_MAX = 16
_MFMA_OPS = ("amdgpu.mfma", "amdgpu.scaled_mfma")


def _operand_class(element: str) -> str | None:
    """The target's operand class (``Mfma.operands``) of an MFMA source element type."""
    if element in ("bf16", "f16", "i8"):
        return element
    if element.startswith(("f8", "f6", "f4")):
        return "f8f6f4"
    return None


def _bits(element: str) -> int:
    return int(element[1]) if element.startswith(("f8", "f6", "f4")) else 8


def xdl_passes(op) -> int | None:
    """The passes of the XDL MFMA an ``amdgpu.mfma`` / ``amdgpu.scaled_mfma`` op issues
    (its instruction found in the target's MFMA table by shape and operands, its passes
    from :func:`~pipeline_mlir.target.gfx950.mfma_passes`, the count the emulator's rules
    read); ``None`` for any other op or an MFMA the table lacks (f32, f64: not XDL)."""
    if op.name not in _MFMA_OPS:
        return None
    attrs = op.attributes
    shape = tuple(ir.IntegerAttr(attrs[d]).value for d in ("m", "n", "k"))
    elements = [str(v.type.element_type) if isinstance(v.type, ir.VectorType)
                else str(v.type) for v in list(op.operands)[:2]]
    kinds = {_operand_class(e) for e in elements}
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    for mfma in MFMAS:
        if (mfma.m, mfma.n, mfma.k, mfma.operands) == (*shape, kind) and \
                mfma.scaled == (op.name == "amdgpu.scaled_mfma"):
            entry = mfma_passes(mfma.mnemonic, all(_bits(e) < 8 for e in elements))
            return entry[0] if entry is not None and entry[1] else None
    return None


def _walk(op):
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _walk(inner.operation)


def needs_guard(loop) -> bool:
    """Does the loop issue an XDL MFMA whose readers need more wait states than LLVM 22
    looks back for?"""
    return any((p := xdl_passes(op)) is not None and p + XDL_READ_EXTRA > LLVM_LOOKBACK
               for op in _walk(loop))


def guard_loops_as_written(root) -> int:
    """The guard right after every loop under ``root`` that the kernel runs as written
    (:data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR`: a remainder loop, whatever masked
    K tiles were peeled into it, or a loop with no pair to pipeline) and that issues a
    16-pass XDL MFMA: the code after it (IREE's epilogue, which LLVM interleaves with the
    loop's last MFMAs once it unrolls a remainder of one iteration) reads its accumulators.
    Returns the number of guards placed."""
    loops = [op for op in _walk(root) if op.name == "scf.for"
             and REMAINDER_ATTR in op.attributes and needs_guard(op)]
    for loop in loops:
        with ir.InsertionPoint.after(loop), loop.location:
            emit_guard()
    return len(loops)


def emit_guard() -> None:
    """:data:`GUARD` wait states at the insertion point, fenced so that no instruction
    moves across them."""
    sched_barrier_none()
    left = GUARD
    while left:
        n = min(left, NOP_MAX)
        B.rocdl.s_nop(n - 1)
        left -= n
    sched_barrier_none()
