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

Control leaving any other code that issues such an MFMA needs the same guard, whatever
marks the front end left: :func:`guard_exits` puts it after every control-flow op holding
one (a loop the kernel runs as written, a remainder, an ``scf.if``, a loop a person wrote),
decided by the IR alone, and at the start of every block such a block branches to in
unstructured control flow.  Found on IREE's fp8 512x512x896 kernel with the 32x32x64 MFMA
forced (late form, 4-wave), whose one-iteration remainder LLVM unrolled and interleaved with
the epilogue's stores, one of which read the last MFMA's result 19 wait states after it.
Only an exit that nothing after it can misuse goes without: every 16-pass MFMA directly in
the op's body with its result only accumulated on (an MFMA's identical C, or yielded to a
result that is only accumulated on after the op, as the pipelined main loop's accumulators
are by its epilogue), so its registers stay live, read with no wait, until an MFMA takes
them.  ``sched-lower-to-rocdl`` runs it (so ``--emit=mlir`` shows the guards), and so does
``sched-xdl-guard`` in the LLVM step, which every route to machine code runs
(``--pipeline``, ``--pass-pipeline`` with any pass list, MLIR of ``amdgpu`` MFMAs and no
``sched`` ops), before ``convert-scf-to-cf``.  The emulator checks these rules on every path
of the code (``pipeline_mlir/emu/hazard_paths.py``), not only on the path a run takes.
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.lowering.rocdl_build import mask_attr, sched_barrier_none
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
    """Does the op (a loop, any op) issue an XDL MFMA whose readers need more wait states
    than LLVM 22 looks back for?"""
    return any(_window(op) for op in _walk(loop))


def _window(op) -> bool:
    """Is ``op`` an XDL MFMA whose readers need more wait states than LLVM 22 looks back?"""
    return (p := xdl_passes(op)) is not None and p + XDL_READ_EXTRA > LLVM_LOOKBACK


def _is_guard(ops: list, i: int) -> bool:
    """Do the ops from index ``i`` on make a guard (:func:`emit_guard`: a ``sched_barrier``
    none, ``s_nop`` worth at least :data:`GUARD` wait states, a ``sched_barrier`` none)?"""
    def fence(op) -> bool:
        return op.name == "rocdl.sched.barrier" and op.attributes["mask"] == mask_attr(0)

    if i >= len(ops) or not fence(ops[i]):
        return False
    total, j = 0, i + 1
    while j < len(ops) and ops[j].name == "rocdl.s.nop":
        total += ir.IntegerAttr(ops[j].attributes["count"]).value + 1
        j += 1
    return total >= GUARD and j < len(ops) and fence(ops[j])


def _only_accumulated(value, block, region_op=None) -> bool:
    """Is every use of ``value`` an MFMA's C of the same type in ``block`` (the readers an
    XDL MFMA leaves waiting 0 wait states: identical C), or the ``scf.yield`` of
    ``region_op`` (an ``scf.for`` / ``scf.if``) whose result is only accumulated too?"""
    for use in value.uses:
        user = _op(use.owner)
        if user.name in _MFMA_OPS and use.operand_number == 2 and \
                user.block == block and user.results[0].type == value.type:
            continue
        if user.name == "scf.yield" and region_op is not None and \
                _op(user.parent) == region_op and region_op.name in ("scf.for", "scf.if"):
            result = region_op.results[use.operand_number]
            if _only_accumulated(result, region_op.block):
                continue
        return False
    return True


def _exit_is_safe(op) -> bool:
    """Can nothing after ``op`` read or overwrite a 16-pass MFMA's result too early?  True
    when every such MFMA inside is directly in ``op``'s body and its result is only
    accumulated on (:func:`_only_accumulated`): its registers stay those MFMAs' C, read
    with no wait, until an MFMA after ``op`` takes them (the pipelined main loop, whose
    epilogue accumulates on its results)."""
    for inner in _walk(op):
        if inner == op or not _window(inner):
            continue
        if _op(inner.parent) != op or not _only_accumulated(inner.results[0], inner.block, op):
            return False
    return True


#: ops whose regions are code but not control flow inside a kernel (modules, functions)
_CONTAINERS = ("builtin.module", "gpu.module", "func.func", "gpu.func", "llvm.func",
               "hal.executable", "hal.executable.variant")


def guard_exits(root) -> int:
    """The guard wherever control leaves code that issues a 16-pass XDL MFMA, decided by
    the IR alone (module docstring): after every control-flow op (a loop, an ``scf.if``,
    any op with regions inside a function) holding one, unless nothing after it can read
    or overwrite the MFMA's result too early (:func:`_exit_is_safe`, or only the kernel's
    return follows); and, in unstructured control flow (a region of several blocks), at
    the start of every block a block holding one branches to.  Idempotent: a guard already there counts.  Returns the number of
    guards placed."""
    exits, entries = [], []
    for op in _walk(root):
        if not op.regions:
            continue
        for region in op.regions:
            blocks = list(region.blocks)
            if len(blocks) > 1:
                entries += [b for blk in blocks
                            if any(_window(o.operation) for o in blk.operations)
                            for b in _successor_blocks(blk)]
        if op.name in _CONTAINERS or not needs_guard(op) or _exit_is_safe(op):
            continue
        ops = [o.operation for o in op.block.operations]
        after = ops.index(op) + 1
        if not _is_guard(ops, after) and not _ends_program(ops[after:]):
            exits.append(op)
    for op in exits:
        with ir.InsertionPoint.after(op), op.location:
            emit_guard()
    placed = len(exits)
    for block in entries:      # a block entered twice has its guard the second time
        ops = [o.operation for o in block.operations]
        if not _is_guard(ops, 0):
            with ir.InsertionPoint.at_block_begin(block), ops[0].location:
                emit_guard()
            placed += 1
    return placed


def _ends_program(ops: list) -> bool:
    """Is ``ops`` (what follows an op in its block) only a kernel's return of nothing (IREE's
    ``scf.forall`` over workgroups, the whole kernel)?  A ``gpu.func`` kernel's, or a
    ``func.func``'s (IREE's kernels; the front end's inputs call no function); a device
    function's return is not the end: its caller runs on."""
    if len(ops) != 1 or list(ops[0].operands):
        return False
    parent = _op(ops[0].parent)
    if ops[0].name == "gpu.return":
        return parent.name == "gpu.func" and any(
            k in parent.attributes for k in ("kernel", "gpu.kernel"))
    return ops[0].name == "func.return" and parent.name == "func.func"


def _successor_blocks(block) -> list:
    ops = list(block.operations)
    return list(ops[-1].operation.successors) if ops else []


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
