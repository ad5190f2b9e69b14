"""``sched-gpu-kernel``: put every kernel in the form the step to LLVM compiles.

The LLVM step (``registry.TO_LLVM_PASSES``) compiles one ``gpu.module`` of ``gpu.func``
kernels.  Kernels come in other containers too; this pass rewrites them:

* a ``func.func`` kernel at the top level, or inside IREE's ``hal.executable`` /
  ``hal.executable.variant`` (what ``iree-compile`` hands its codegen), becomes a
  ``gpu.func ... kernel`` in the module's ``gpu.module`` (created if needed); its
  workgroup size comes from ``gpu.known_block_size`` or IREE's ``translation_info``;
* IREE's interface ops become kernel arguments or GPU ids:
  ``hal.interface.binding.subspan`` -> a memref argument (in binding order; the
  ``#hal.descriptor_type<storage_buffer>`` memory space becomes global; a dynamic size
  is then the descriptor's, passed at launch, and the push constants IREE computes it
  from stay arguments of their own),
  ``hal.interface.constant.load`` -> an ``i32`` argument (in ordinal order),
  ``hal.interface.workgroup.id/count/size`` -> ``gpu.block_id/grid_dim/block_dim`` (an
  id's ``upper_bound`` kept: the LLVM step's ``workgroup.id`` then has that range, which
  ``sched-buffer-soffset`` bounds a workgroup's rows with),
  an ``scf.forall`` over workgroups (``#iree_codegen.workgroup_mapping`` or ``#gpu.block``,
  not mixed; one that maps some dimensions to workgroups and others not: an error) -> its body
  with ``gpu.block_id`` for the induction variables; ``iree_codegen.index_hint`` and
  ``util.assume.int`` hints and the ``iree_tensor_ext.dispatch.workload.ordinal`` naming
  a push constant's size are dropped (their operands used instead);
* an affine op other than ``affine.apply`` is an error at the op; the ``affine.apply`` ops
  stay for upstream ``lower-affine``, the next step of ``registry.TO_LLVM_PASSES`` (IREE's
  tail has already lowered those of a ``hal.executable``);
* workgroup memory from ``memref.alloc`` becomes workgroup attributions of the
  ``gpu.func`` (``memref.dealloc`` of it is dropped).

These are exactly the things IREE's own ``iree-convert-to-rocdl`` mishandles outside
IREE's flow: a binding op inside a ``gpu.func`` makes it crash (its HAL lowering
expects IREE's kernel ABI), a workgroup ``memref.alloc`` inside a ``gpu.module`` gives
``'llvm.mlir.addressof' op must reference a global``.  Anything the pass cannot
rewrite (a binding with a non-zero offset, or of dynamic sizes in a strided layout, a
swizzle hint, host code next to the kernels) is a located error.  The kernel's launch:
the grid is the ``scf.forall`` bounds (x, y, z as mapped) or whatever the kernel's own
ids expect; arguments are the function's own arguments, then IREE's (its ROCm HAL ABI,
``ConvertFunc`` of IREE's LLVMGPU lowering): one per binding of the
``#hal.pipeline.layout``, in binding order, unused ones included (a global
``!llvm.ptr<1>``, the pointer IREE passes), then one ``i32`` per push constant of the
layout (``constants = N``), in ordinal order, unused ones included.  A load of an ordinal
>= N, a subspan of a binding the layout does not have, two layouts in one kernel, or a
second subspan of one binding (one argument each) is an error at the op.  So is
``sched.copies_in_range`` on IREE's kernel (in a ``hal.executable``, or using its
interface ops): it is the contract of the project's own launcher (``kernel/launch.py``),
which IREE's runtime does not honour, and ``sched-buffer-soffset`` would trust it.
"""

from __future__ import annotations

from pipeline_mlir.dialect.attrs import (is_hal_descriptor_space, is_workgroup_memref,
                                         pipeline_layout, workgroup_forall_problem,
                                         workgroup_mapping)
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops as _walk
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (block_size, checked_int_attr, constant_int,
                                             declares_kernel)
from pipeline_mlir.frontend.kernel_ir import at

from pipeline_mlir.passes._common import SchedPass
from pipeline_mlir.target.gfx950 import (AGPR_ALLOC_ATTR, COPIES_IN_RANGE_ATTR,
                                         K_OUTER_MFMAS_ATTR, WAVES_PER_EU_ATTR)

GLOBAL_SPACE = "#gpu.address_space<global>"
_DIMS = ("x", "y", "z")


def _ops(block) -> list:
    return [_op(o) for o in block.operations]


def _global_type(t):
    """``t`` with a HAL descriptor memory space made global (other types unchanged)."""
    if not isinstance(t, ir.MemRefType) or not is_hal_descriptor_space(t.memory_space):
        return None
    mt = ir.MemRefType(t)
    return ir.MemRefType.get(mt.shape, mt.element_type, layout=mt.layout,
                             memory_space=ir.Attribute.parse(GLOBAL_SPACE))



def _check_constant(o, earlier: list) -> None:
    """A push constant becomes one ``i32`` kernel argument, pushed in ordinal order: a load
    of another type, or a second load of an ordinal already loaded (a second argument
    that shifts every later one), is an error at the op."""
    t = o.results[0].type
    ordinal = checked_int_attr(o, "ordinal", 0)
    if not (isinstance(t, ir.IntegerType) and t.width == 32 and t.is_signless):
        raise IRError(o, f"'{o.name}' op loads push constant #{ordinal} as {t}; a push "
                         f"constant is one i32 word (its kernel argument)")
    for e in earlier:
        if checked_int_attr(e, "ordinal", 0) == ordinal:
            raise IRError(o, f"'{o.name}' op loads push constant #{ordinal} a second time "
                             f"(first at {at(e)}); each ordinal is one kernel argument, "
                             f"load it once")

def _abi(bindings: list, constants: list) -> tuple[list, list]:
    """(one entry per binding of the kernel's pipeline layout, one per push constant of it):
    the subspan or load that uses the slot, None for an unused one (module docstring)."""
    ops = bindings + constants
    if not ops:
        return [], []
    layout = ops[0].attributes["layout"] if "layout" in ops[0].attributes else None
    counts = None if layout is None else pipeline_layout(layout, ops[0])
    if counts is None:
        raise IRError(ops[0], f"'{ops[0].name}' op has no #hal.pipeline.layout, which says "
                              f"the kernel's arguments")
    for o in ops[1:]:
        if "layout" not in o.attributes or o.attributes["layout"] != layout:
            raise IRError(o, f"'{o.name}' op uses another pipeline layout than "
                             f"'{ops[0].name}' at {at(ops[0])}; one kernel has one layout "
                             f"(its arguments)")
    return (_slots(bindings, "binding", counts[1], "binding"),
            _slots(constants, "ordinal", counts[0], "push constant"))


def _slots(ops: list, key: str, n: int, what: str) -> list:
    """The ``n`` slots of the layout, each the op of ``ops`` whose attribute ``key`` is its
    index (None: unused); a second op of one index is an error at the op, and so is an
    index past the layout's (IREE's verifier refuses that one first)."""
    out = [None] * n
    for o in ops:
        i = checked_int_attr(o, key, 0)
        if not 0 <= i < n:
            raise IRError(o, f"'{o.name}' op uses {what} #{i}, but its pipeline layout has "
                             f"{n} {what}s (#0 to #{n - 1}): IREE passes no such kernel "
                             f"argument")
        if out[i] is not None:
            raise IRError(o, f"'{o.name}' op uses {what} #{i} a second time (first at "
                             f"{at(out[i])}); each {what} is one kernel argument, use it once")
        out[i] = o
    return out


def _slot_type(o):
    """The kernel argument type of a binding slot: the subspan's memref, or for an unused
    binding the global pointer IREE passes."""
    if o is None:
        return ir.Type.parse("!llvm.ptr<1>")
    return o.results[0].type


class GpuKernel(SchedPass):
    name = "sched-gpu-kernel"
    summary = ("make every kernel a gpu.func in one gpu.module: func.func and IREE "
               "hal.executable kernels, HAL bindings -> arguments, workgroup ids, "
               "workgroup memref.alloc -> attributions")

    def run(self, module) -> None:
        body = module.regions[0].blocks[0]
        top = _ops(body)
        kernels, gpu_module = [], None
        for o in top:
            if o.name == "gpu.module":
                if gpu_module is not None:
                    raise IRError(o, "'gpu.module' op: only one gpu.module per input can be "
                                     "compiled")
                gpu_module = o
                kernels += [f for f in _ops(o.regions[0].blocks[0])
                            if f.name == "gpu.func" and _needs_rewrite(f)]
            elif o.name == "hal.executable":
                kernels += self._executable_kernels(o)
            elif o.name == "func.func" and declares_kernel(o):
                kernels.append(o)
            elif o.name == "builtin.module":
                kernels += _nested_kernels(o)
            # anything else is left to sched-check-device-input, which reports it
        if not kernels:
            return
        with module.context, module.location:
            if gpu_module is None:
                with ir.InsertionPoint(body):
                    gpu_module = ir.Operation.create(
                        "gpu.module", regions=1,
                        attributes={"sym_name": ir.StringAttr.get("kernels")})
                gpu_module.regions[0].blocks.append()
            module.attributes["gpu.container_module"] = ir.UnitAttr.get()
            for f in kernels:
                self._kernel(f, gpu_module)
            for o in _ops(body):
                if o.name == "hal.executable" or (o.name == "builtin.module" and
                                                  not _ops(o.regions[0].blocks[0])):
                    o.erase()

    @staticmethod
    def _executable_kernels(exe) -> list:
        out = []
        for variant in _ops(exe.regions[0].blocks[0]):
            if variant.name != "hal.executable.variant":
                continue
            for inner in _ops(variant.regions[0].blocks[0]):
                if inner.name == "builtin.module":
                    out += [f for f in _ops(inner.regions[0].blocks[0]) if f.name == "func.func"]
        if not out:
            raise IRError(exe, "'hal.executable' op holds no func.func kernel")
        return out

    def _kernel(self, f, gpu_module) -> None:
        name = ir.StringAttr(f.attributes["sym_name"]).value
        size = block_size(f)
        if size is None:
            raise IRError(f, f"'{f.name}' op '{name}': no workgroup size (known_block_size, "
                             f"gpu.known_block_size or IREE's translation_info workgroup_size); "
                             f"LLVM needs it and it is never guessed")
        blocks = list(f.regions[0].blocks)
        if len(blocks) != 1:
            raise IRError(f, f"'{f.name}' op '{name}': a kernel body of {len(blocks)} blocks is "
                             f"not supported (one block, structured control flow)")
        _refuse_claimed_range(f, name)
        _retype_to_global(f)
        bindings, constants, allocs = self._interface_ops(f)
        with f.location:
            g = self._rebuild(f, gpu_module, name, size, blocks[0], bindings, constants, allocs)
            self._ids(g)
            self._foralls(g)
            _drop_hints_and_returns(g)
            _refuse_affine(g)
        f.erase()

    def _interface_ops(self, f) -> tuple[list, list, list]:
        """The HAL bindings, push constants and workgroup allocations of kernel ``f`` (each
        becomes a kernel argument or a workgroup attribution), in argument order (IREE's:
        one slot per binding of the pipeline layout, then one per push constant of it,
        :func:`_abi`); any other HAL op, or an IREE swizzle only IREE's own lowering applies,
        is an error."""
        bindings, constants, allocs = [], [], []
        for o in _walk(f, lambda o: True):
            if o.name == "hal.interface.binding.subspan":
                self._check_binding(o)
                bindings.append(o)
            elif o.name == "hal.interface.constant.load":
                _check_constant(o, constants)
                constants.append(o)
            elif o.name == "memref.alloc" and is_workgroup_memref(o.results[0].type):
                _check_workgroup_alloc(o, f)
                allocs.append(o)
            elif o.name == "iree_codegen.swizzle_hint":
                raise IRError(o, "'iree_codegen.swizzle_hint' op: the swizzle is applied by "
                                 "IREE's own lowering only; compile it with iree-compile, or "
                                 "pipeline the loop that uses it first")
            elif o.name.startswith("hal.") and o.name not in (
                    "hal.interface.workgroup.id", "hal.interface.workgroup.count",
                    "hal.interface.workgroup.size"):
                raise IRError(o, f"'{o.name}' op has no GPU kernel equivalent in this lowering")
        return (*_abi(bindings, constants), allocs)

    @staticmethod
    def _rebuild(f, gpu_module, name: str, size, entry, bindings, constants, allocs):
        """The ``gpu.func`` of kernel ``f``: its arguments, then one per binding and constant;
        its workgroup attributions, then one per allocation; ``f``'s body moved into it."""
        # a gpu.func's entry block holds its arguments, then its workgroup attributions
        n_in = len(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).inputs)
        n_wg = checked_int_attr(f, "workgroup_attributions", 0)
        if len(list(entry.arguments)) != n_in + n_wg:
            raise IRError(f, f"'{f.name}' op '{name}': private attributions are not supported")
        args = list(entry.arguments)[:n_in]
        old_wg = list(entry.arguments)[n_in:]
        arg_types = [a.type for a in args] + [_slot_type(o) for o in bindings] + \
            [ir.IntegerType.get_signless(32)] * len(constants)
        att_types = [a.type for a in old_wg] + [o.results[0].type for o in allocs]
        attrs = {"function_type": ir.TypeAttr.get(ir.FunctionType.get(arg_types, [])),
                 "sym_name": ir.StringAttr.get(name),
                 "kernel": ir.UnitAttr.get(),
                 "known_block_size": ir.DenseI32ArrayAttr.get(list(size)),
                 "workgroup_attributions": ir.IntegerAttr.get(
                     ir.IntegerType.get_signless(64), len(att_types))}
        for keep in (WAVES_PER_EU_ATTR, AGPR_ALLOC_ATTR, K_OUTER_MFMAS_ATTR,
                     COPIES_IN_RANGE_ATTR):
            if keep in f.attributes:
                attrs[keep] = f.attributes[keep]
        if f.name == "gpu.func":
            ip = ir.InsertionPoint(f)
        else:
            ip = ir.InsertionPoint(gpu_module.regions[0].blocks[0])
        with ip:
            g = ir.Operation.create("gpu.func", regions=1, attributes=attrs)
        nb = g.regions[0].blocks.append(*(arg_types + att_types))
        new_args = list(nb.arguments)
        for old, new in zip(args, new_args):
            old.replace_all_uses_with(new)
        for old, new in zip(old_wg, new_args[len(arg_types):]):
            old.replace_all_uses_with(new)
        for o in _ops(entry):
            nb.append(o)
        k = len(args) + len(bindings)
        for o, a in zip(bindings + constants, new_args[len(args):k + len(constants)]):
            if o is not None:            # an unused slot: an argument nothing reads
                o.results[0].replace_all_uses_with(a)
                o.erase()
        for o, a in zip(allocs, new_args[len(arg_types) + len(old_wg):]):
            for u in [_op(u.owner) for u in o.results[0].uses]:
                if u.name == "memref.dealloc":
                    u.erase()
            o.results[0].replace_all_uses_with(a)
            o.erase()
        return g

    @staticmethod
    def _check_binding(o) -> None:
        t = ir.MemRefType(o.results[0].type)
        if not t.has_static_shape and str(t.layout) != str(ir.AffineMapAttr.get(
                ir.AffineMap.get_identity(t.rank))):
            raise IRError(o, f"'hal.interface.binding.subspan' op of {t}: a binding of dynamic "
                             f"sizes becomes a memref argument whose descriptor passes them, "
                             f"which needs the row-major (identity) layout")
        ops = list(o.operands)
        if ops and constant_int(ops[0]) != 0:
            raise IRError(o, "'hal.interface.binding.subspan' op with a non-zero or dynamic "
                             "byte offset: not supported as a kernel argument")

    @staticmethod
    def _ids(g) -> None:
        table = {"hal.interface.workgroup.id": "gpu.block_id",
                 "hal.interface.workgroup.count": "gpu.grid_dim",
                 "hal.interface.workgroup.size": "gpu.block_dim"}
        for o in _walk(g, lambda o: o.name in table):
            dim = checked_int_attr(o, "dimension", 0)
            with ir.InsertionPoint(o), o.location:
                if o.name == "hal.interface.workgroup.count":
                    new = _block_count(dim)
                else:
                    attrs = {"dimension": ir.Attribute.parse(f"#gpu<dim<{_DIMS[dim]}>>")}
                    if "upper_bound" in o.attributes:     # id < bound, as gpu's says too
                        attrs["upper_bound"] = o.attributes["upper_bound"]
                    new = ir.Operation.create(table[o.name], results=[ir.IndexType.get()],
                                              attributes=attrs)
            o.results[0].replace_all_uses_with(new.results[0])
            o.erase()

    @staticmethod
    def _foralls(g) -> None:
        for o in _walk(g, lambda o: o.name == "scf.forall"):
            if "mapping" not in o.attributes:
                continue
            ids = _mapping(o)
            if all(i is None for i in ids):
                continue
            if (problem := workgroup_forall_problem(o)) is not None:
                raise IRError(o, f"'scf.forall' op {problem}")
            dims = [_DIMS[i] for i in ids]
            if len(o.results):
                raise IRError(o, "'scf.forall' op over workgroups with results is not supported")
            for k in ("staticLowerBound", "staticStep"):
                if k in o.attributes and any(v != (0 if k == "staticLowerBound" else 1)
                                             for v in ir.DenseI64ArrayAttr(o.attributes[k])):
                    raise IRError(o, "'scf.forall' op over workgroups must start at 0 with step 1")
            blk = o.regions[0].blocks[0]
            uppers = _static_bounds(o, "staticUpperBound", len(dims))
            with ir.InsertionPoint(o), o.location:
                for iv, d, ub in zip(blk.arguments, dims, uppers):
                    attrs = {"dimension": ir.Attribute.parse(f"#gpu<dim<{d}>>")}
                    if ub is not None:      # the grid is the forall's bounds
                        attrs["upper_bound"] = ir.IntegerAttr.get(ir.IndexType.get(), ub)
                    bid = ir.Operation.create("gpu.block_id", results=[ir.IndexType.get()],
                                              attributes=attrs)
                    iv.replace_all_uses_with(bid.results[0])
            for inner in _ops(blk):
                if inner.name == "scf.forall.in_parallel":
                    continue
                inner.move_before(o)
            o.erase()


def _static_bounds(o, key: str, n: int) -> list:
    """The ``n`` static bounds ``key`` of an ``scf.forall`` (None where dynamic or absent)."""
    if key not in o.attributes:
        return [None] * n
    return [v if v >= 0 else None for v in ir.DenseI64ArrayAttr(o.attributes[key])]


def _refuse_claimed_range(f, name: str) -> None:
    """An error if IREE's kernel ``f`` (in a ``hal.executable`` or using IREE's interface
    ops) carries ``sched.copies_in_range``: the project's launcher's contract, which IREE's
    runtime does not honour, and which ``sched-buffer-soffset`` trusts."""
    if COPIES_IN_RANGE_ATTR not in f.attributes:
        return
    parent, irees = f.parent, False
    while parent is not None and not irees:
        irees = parent.name == "hal.executable"
        parent = parent.parent
    irees = irees or bool(_walk(f, lambda o: o.name.startswith("hal.interface.")))
    if irees:
        raise IRError(f, f"'{f.name}' op '{name}': {COPIES_IN_RANGE_ATTR} is the contract of "
                         f"the project's own launcher (check_launch: whole tiles only), and "
                         f"IREE's runtime launches IREE's kernels without it; "
                         f"sched-buffer-soffset would trust it and move offsets into soffset "
                         f"unproven: remove the attribute")


def _nested_kernels(module) -> list:
    out = []
    for o in _ops(module.regions[0].blocks[0]):
        if o.name == "func.func" and declares_kernel(o):
            out.append(o)
        elif o.name == "builtin.module":
            out += _nested_kernels(o)
    return out


def _needs_rewrite(f) -> bool:
    """A gpu.func holding IREE interface ops, hints, affine ops or workgroup allocations."""
    def bad(o):
        return (o.name.startswith(("hal.", "iree_codegen.", "util.", "affine.")) or
                (o.name == "memref.alloc" and is_workgroup_memref(o.results[0].type)) or
                (o.name == "scf.forall" and any(i is not None for i in _mapping(o))))
    return bool(_walk(f, bad))


def _mapping(o) -> list:
    """The workgroup dimension (0, 1, 2) of each entry of an ``scf.forall``'s mapping, None
    for an entry that maps to none (``#iree_codegen.workgroup_mapping`` or ``#gpu.block``;
    empty: no mapping)."""
    if "mapping" not in o.attributes:
        return []
    return [workgroup_mapping(m) for m in ir.ArrayAttr(o.attributes["mapping"])]


def _retype_to_global(f) -> None:
    """HAL descriptor memory spaces -> global, on every result and block argument of ``f``."""
    ops = _walk(f, lambda o: True)
    for o in ops:
        for r in o.results:
            t = _global_type(r.type)
            if t is not None:
                r.set_type(t)
    # (walk_blocks(f)'s blocks, from the same walk: retyping changes no op or block)
    for b in [block for o in ops if len(o.regions) > 0
              for region in o.regions for block in region.blocks]:
        for a in b.arguments:
            t = _global_type(a.type)
            if t is not None:
                a.set_type(t)


def _check_workgroup_alloc(o, f) -> None:
    """A workgroup allocation can become a workgroup attribution of ``f``: static, no IREE
    swizzle, in the kernel's entry block."""
    if len(o.operands) or not ir.MemRefType(o.results[0].type).has_static_shape:
        raise IRError(o, "'memref.alloc' op: workgroup memory of dynamic size "
                         "cannot become a kernel's workgroup attribution")
    if "iree_codegen.swizzle" in o.attributes:
        raise IRError(o, "'memref.alloc' op has an IREE swizzle "
                         "(iree_codegen.swizzle) that only IREE's own lowering "
                         "applies; compile it with iree-compile, or pipeline the loop "
                         "that uses it first")
    if _op(o.parent) != f:
        raise IRError(o, "'memref.alloc' op of workgroup memory must be in the "
                         "kernel's entry block")


def _refuse_affine(g) -> None:
    """Every affine op of kernel ``g`` but ``affine.apply`` refused at the op: the LLVM
    step's ``lower-affine`` runs for the index arithmetic of kernels outside IREE's flow,
    whose loops and bounds this project never produces or checks."""
    for o in _walk(g, lambda o: o.name.startswith("affine.") and o.name != "affine.apply"):
        raise IRError(o, f"'{o.name}' op: the LLVM step lowers only affine.apply outside "
                         f"IREE's hal.executable (lower the others before)")


#: IREE's value hints, each forwarded to its operands (:func:`_drop_hints_and_returns`)
_HINTS = ("iree_codegen.index_hint", "util.assume.int",
          "iree_tensor_ext.dispatch.workload.ordinal")


def _drop_hints_and_returns(g) -> None:
    """IREE's value hints forwarded to their operands; ``func.return`` -> ``gpu.return``."""
    returns: list = []      # (found in the walk for the hints, whose erasure keeps them)

    def hint(o) -> bool:
        name = o.name
        if name == "func.return":
            returns.append(o)
        return name in _HINTS
    for o in _walk(g, hint):
        if len(o.results) != len(o.operands):
            raise IRError(o, f"'{o.name}' op: cannot drop this hint")
        for r, v in zip(o.results, o.operands):
            r.replace_all_uses_with(v)
        o.erase()
    for o in returns:
        if len(o.operands):
            raise IRError(o, "'func.return' op: a kernel returns nothing")
        with ir.InsertionPoint(o), o.location:
            ir.Operation.create("gpu.return")
        o.erase()


def _block_count(dim: int):
    """The workgroup count along ``dim`` (the op giving it, as an index): the hidden kernel
    argument ``hidden_block_count_<dim>``, the first three words of the implicit arguments
    (code object v5).  ``gpu.grid_dim`` would become a call of the device library's
    ``__ockl_get_num_groups``, which nothing links."""
    i32, ptr = ir.IntegerType.get_signless(32), ir.Type.parse("!llvm.ptr<4>")
    base = ir.Operation.parse('%0 = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : '
                              '() -> !llvm.ptr<4>')
    ir.InsertionPoint.current.insert(base)
    at = ir.Operation.create("llvm.getelementptr", results=[ptr], operands=base.results,
                             attributes={"rawConstantIndices": ir.DenseI32ArrayAttr.get(
                                 [4 * dim]), "elem_type": ir.TypeAttr.get(
                                     ir.IntegerType.get_signless(8))})
    word = ir.Operation.create("llvm.load", results=[i32], operands=at.results,
                               attributes={"alignment": ir.IntegerAttr.get(
                                   ir.IntegerType.get_signless(64), 4),
                                   "invariant": ir.UnitAttr.get()})
    return ir.Operation.create("arith.index_castui", results=[ir.IndexType.get()],
                               operands=word.results)
