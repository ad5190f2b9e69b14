"""Kernels of other producers put in the front end's form: IREE's Wave DSL.

IREE's Wave DSL (``wave-lang``) hands its compiler a module that differs from an
``iree-compile`` dispatch in its container and in a few ops.  :func:`normalize_producers`
rewrites, in place and before the natural K-loop is looked for:

* a ``stream.executable`` (Wave's container): its ``func.func`` kernels move to the top
  level, each ``!stream.binding`` argument becomes the memref its one
  ``stream.binding.subspan`` (byte offset constant 0, static type) makes of it; the
  executable's export (grid computation) goes, and so does a host function that only
  dispatches to it (Wave's ``isolated_benchmark`` launcher: ``hal.tensor`` and
  ``flow.dispatch`` ops, no device code);
* one workgroup ``memref.alloc`` of bytes carved by ``memref.view``s at constant,
  disjoint, aligned byte offsets (Wave's shared-memory pool): one allocation per view
  (the front end multi-buffers LDS itself, so where the views sat does not matter);
* ``llvm.call_intrinsic "llvm.amdgcn.readfirstlane"`` -> ``rocdl.readfirstlane`` (the
  same operation, which the address analysis and the LLVM step know);
* its ``affine.apply`` ops stay (the address analysis evaluates them; the LLVM step
  lowers them with upstream ``lower-affine``);
* an IREE VectorDistribute kernel before its late form (whole-tile products, or
  distributed with ``scf.if`` guards and affine index math in the loop): distributed and
  cleaned up by IREE's own passes (:mod:`pipeline_mlir.frontend.vector_distribute`);
* a K-loop IREE pipelined itself (``prefetch_num_stages`` 2 or more: a prologue of
  copies, multi-buffered LDS, an epilogue of MFMAs) rolled back to its one-stage loop
  (:mod:`pipeline_mlir.frontend.reroll`), and one it pipelined with copies through
  registers (a prologue of loads and LDS stores, the next tile's loads in registers, an
  epilogue of MFMAs) likewise (:mod:`pipeline_mlir.frontend.reroll_regs`).

Anything of this kind it cannot rewrite exactly is a located error.
"""

from __future__ import annotations

from pipeline_mlir.dialect.attrs import is_workgroup_memref
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import constant_int, static_bytes
from pipeline_mlir.frontend.reroll import reroll_prefetched
from pipeline_mlir.frontend.reroll_carried import uncarry_all
from pipeline_mlir.frontend.reroll_regs import reroll_register_prefetch
from pipeline_mlir.frontend.reroll_straight import reroll_straight
from pipeline_mlir.frontend.reroll_straight_regs import reroll_straight_regs
from pipeline_mlir.frontend.vector_distribute import prepare_vector_distribute

READFIRSTLANE = "llvm.amdgcn.readfirstlane"


def _ops(block) -> list:
    return [_op(o) for o in block.operations]


def normalize_producers(module) -> None:
    """Every rewrite of the module docstring, on ``module`` (an ``ir.Module`` or op)."""
    root = _op(module)
    with root.context, root.location:
        _stream_executables(root)
        for f in walk_ops(root, lambda o: o.name in ("func.func", "gpu.func")):
            _split_view_pools(f)
        for o in walk_ops(root, lambda o: o.name == "llvm.call_intrinsic"):
            _readfirstlane(o)
        distribute_and_roll_back(root)


def distribute_and_roll_back(root) -> None:
    """The K-loops of ``root`` as the front end reads them: an IREE VectorDistribute kernel
    distributed (:func:`~pipeline_mlir.frontend.vector_distribute.prepare_vector_distribute`),
    then IREE's own prefetch pipelining rolled back
    (:func:`~pipeline_mlir.frontend.reroll.reroll_prefetched`; where it left no loop, its
    K tiles straight, :func:`~pipeline_mlir.frontend.reroll_straight.reroll_straight`
    first; and of copies through
    registers :func:`~pipeline_mlir.frontend.reroll_regs.reroll_register_prefetch`, its
    3-stage form first brought to its 2-stage one,
    :func:`~pipeline_mlir.frontend.reroll_carried.uncarry_all`, or, where it left no loop,
    rebuilt first, :func:`~pipeline_mlir.frontend.reroll_straight_regs.reroll_straight_regs`);
    the last rewrites of
    :func:`normalize_producers`, which ``--emulate`` runs on the dispatch it reads."""
    root = _op(root)
    with root.context, root.location:
        prepare_vector_distribute(root)
        reroll_straight(root)
        reroll_straight_regs(root)
        reroll_prefetched(root)
        uncarry_all(root)
        reroll_register_prefetch(root)


# ---- stream.executable ------------------------------------------------------------------
def _stream_executables(root) -> None:
    body = root.regions[0].blocks[0]
    executables = [o for o in _ops(body) if o.name == "stream.executable"]
    if not executables:
        return
    names = {ir.StringAttr(e.attributes["sym_name"]).value for e in executables}
    for exe in executables:
        kernels = [f for inner in _ops(exe.regions[0].blocks[0])
                   if inner.name == "builtin.module"
                   for f in _ops(inner.regions[0].blocks[0]) if f.name == "func.func"]
        if not kernels:
            raise IRError(exe, "'stream.executable' op holds no func.func kernel")
        for f in kernels:
            _bind_stream_arguments(f)
            f.move_before(exe)
        exe.erase()
    for o in _ops(body):
        if o.name == "func.func" and _is_launcher(o, names):
            o.erase()


def _is_launcher(f, executables: set) -> bool:
    """A host function of the stream executables ``executables``: it dispatches to one of
    them (``flow.dispatch``) and holds only host ops."""
    dispatches = walk_ops(f, lambda o: o.name == "flow.dispatch")
    if not dispatches:
        return False
    for d in dispatches:
        callees = [str(a) for a in ir.ArrayAttr(d.attributes["entry_points"])] \
            if "entry_points" in d.attributes else []
        if not callees or not all(any(c.startswith(f"@{n}::") for n in executables)
                                  for c in callees):
            raise IRError(d, "'flow.dispatch' op dispatches to no stream.executable of this "
                             "module")
    host = ("hal.", "flow.", "func.", "arith.", "util.")
    for o in walk_ops(f, lambda o: True)[1:]:
        if not o.name.startswith(host):
            raise IRError(o, f"'{o.name}' op in the host function of a stream.executable: "
                             f"only its launcher (hal, flow, func, arith ops) can be dropped")
    return True


def _bind_stream_arguments(f) -> None:
    """Each ``!stream.binding`` argument of ``f`` -> the memref of its subspan."""
    entry = f.regions[0].blocks[0]
    ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
    types = list(ftype.inputs)
    for i, arg in enumerate(list(entry.arguments)):
        if not str(arg.type).startswith("!stream.binding"):
            continue
        uses = [_op(u.owner) for u in arg.uses]
        if len(uses) != 1 or uses[0].name != "stream.binding.subspan":
            raise IRError(f, f"'func.func' op: stream binding argument #{i} must have exactly "
                             f"one use, a stream.binding.subspan ({len(uses)} uses)")
        sub = uses[0]
        mt = sub.results[0].type
        if not isinstance(mt, ir.MemRefType) or not ir.MemRefType(mt).has_static_shape:
            raise IRError(sub, f"'stream.binding.subspan' op: the result {mt} is not a "
                               f"statically shaped memref (a kernel argument needs one)")
        if len(sub.operands) != 2 or constant_int(sub.operands[1]) != 0:
            raise IRError(sub, "'stream.binding.subspan' op with a non-zero or dynamic byte "
                               "offset: not supported as a kernel argument")
        arg.set_type(mt)
        sub.results[0].replace_all_uses_with(arg)
        sub.erase()
        types[i] = mt
    f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(types,
                                                                        list(ftype.results)))


# ---- memref.view pools ------------------------------------------------------------------
def _split_view_pools(f) -> None:
    for alloc in walk_ops(f, lambda o: o.name == "memref.alloc" and
                          is_workgroup_memref(o.results[0].type)):
        uses = [_op(u.owner) for u in alloc.results[0].uses]
        if not uses or any(u.name != "memref.view" for u in uses):
            continue
        spans = []
        for v in uses:
            shift = constant_int(v.operands[1])
            rt = ir.MemRefType(v.results[0].type)
            if shift is None or len(v.operands) != 2 or not rt.has_static_shape:
                raise IRError(v, "'memref.view' op: the front end splits a memory pool only "
                                 "at constant byte offsets into static shapes")
            size = _bytes(v, rt)
            if shift % 16 or shift + size > _bytes(v, ir.MemRefType(alloc.results[0].type)):
                raise IRError(v, f"'memref.view' op: bytes {shift}..{shift + size} are not a "
                                 f"16-byte aligned part of the pool")
            spans.append((shift, shift + size, v))
        spans.sort(key=lambda s: s[0])
        for (_, end, _), (start, _, v) in zip(spans, spans[1:]):
            if start < end:
                raise IRError(v, "'memref.view' op overlaps another view of the same pool: "
                                 "the front end cannot give each its own buffer")
        for _, _, v in spans:
            with ir.InsertionPoint(alloc), v.location:
                new = ir.Operation.create("memref.alloc", results=[v.results[0].type],
                                          operands=[], attributes={
                                              "operandSegmentSizes":
                                                  ir.DenseI32ArrayAttr.get([0, 0])})
            v.results[0].replace_all_uses_with(new.results[0])
            v.erase()
        alloc.erase()


def _bytes(view, t) -> int:
    """The bytes of ``t``, a memref type of ``view`` or of its pool; an :class:`IRError` at
    ``view`` for a sub-byte element type (its byte offsets are not whole elements)."""
    try:
        return static_bytes(t)
    except ValueError as e:
        raise IRError(view, f"'memref.view' op: the front end splits a memory pool only "
                            f"into whole bytes: {e}") from None


# ---- readfirstlane ----------------------------------------------------------------------
def _readfirstlane(o) -> None:
    callee = o.attributes["intrin"] if "intrin" in o.attributes else None
    if callee is None or ir.StringAttr(callee).value != READFIRSTLANE:
        return
    if len(o.operands) != 1 or len(o.results) != 1 or \
            str(o.operands[0].type) != str(o.results[0].type):
        raise IRError(o, f"'llvm.call_intrinsic' op: {READFIRSTLANE} takes one value and "
                         f"returns one of the same type")
    with ir.InsertionPoint(o), o.location:
        new = ir.Operation.create("rocdl.readfirstlane", results=[o.results[0].type],
                                  operands=[o.operands[0]])
    o.results[0].replace_all_uses_with(new.results[0])
    o.erase()
