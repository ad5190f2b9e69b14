"""``sched-extract-device-module``: the ``gpu.module``'s LLVM ops become the module.

The last pass of the LLVM step (:class:`ExtractDeviceModule`): the module is then
ready for the translation to LLVM IR text (``passes/translate.py``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.target import gfx950
from pipeline_mlir.passes._common import (BLOCK_SIZE_ATTRS, KERNEL_MARKERS, ModulePass, OpError,
                                          attr_dict, collect_ops)

AMDGCN_TRIPLE = gfx950.TRIPLE

# Function attributes the extraction consumes (all others in these dialects are errors).
_HANDLED_FUNC_ATTRS = set(KERNEL_MARKERS + BLOCK_SIZE_ATTRS) | {
    gfx950.WAVES_PER_EU_ATTR, "rocdl.flat_work_group_size",
    # a hint iree-convert-to-rocdl has already applied to the workgroup.id ranges
    "gpu.known_grid_size",
    gfx950.AGPR_ALLOC_ATTR, gfx950.K_OUTER_MFMAS_ATTR,
    # read by sched-buffer-soffset (the contract of a shipped kernel's launcher)
    gfx950.COPIES_IN_RANGE_ATTR,
}


# Function attributes only a kernel may have.
_KERNEL_ONLY_ATTRS = (gfx950.WAVES_PER_EU_ATTR, "rocdl.flat_work_group_size",
                      gfx950.AGPR_ALLOC_ATTR, gfx950.K_OUTER_MFMAS_ATTR)


class ExtractDeviceModule(ModulePass):
    """Replace the module's contents by its ``gpu.module``'s LLVM ops, ready to translate.

    The module gets ``llvm.target_triple = "amdgcn-amd-amdhsa"``; each kernel
    (``rocdl.kernel``) gets ``CConv = #llvm.cconv<amdgpu_kernelcc>``,
    ``reqd_work_group_size`` and the ``passthrough`` attributes
    ``amdgpu-flat-work-group-size = "N,N"`` (N = the threads of
    ``known_block_size``, which every kernel must have), ``uniform-work-group-size``
    and, from ``rocdl.waves_per_eu``, ``amdgpu-waves-per-eu``; from ``sched.agpr_alloc``
    (the AGPRs a kernel keeps for its MFMA accumulators), ``amdgpu-agpr-alloc``.  Anything that
    would be silently dropped (a second ``gpu.module``, a host op next to it, an
    unlowered op inside it, an unknown ``rocdl.*``/``gpu.*`` function attribute)
    is a located error.  A module without ``gpu.module`` whose ops are all LLVM
    is processed in place, so the pass can run twice.
    """

    name = "sched-extract-device-module"
    summary = "move the gpu.module's LLVM ops to the top level and set the AMDGPU kernel ABI"

    def run(self, module) -> list[OpError]:
        try:
            self._extract(module)
        except OpError as e:
            return [e]
        return []

    def _extract(self, module) -> None:
        body = module.regions[0].blocks[0]
        top = list(body.operations)
        gpu_modules = [o.operation for o in top if o.operation.name == "gpu.module"]
        if len(gpu_modules) > 1:
            raise OpError(gpu_modules[1], "only one 'gpu.module' per module can be extracted "
                                           "to LLVM IR (found a second one)")
        for o in top:
            o = o.operation
            # next to a gpu.module, any other op is host code (iree-convert-to-rocdl
            # lowers host func.func to llvm.func too); without one, llvm.* ops are the
            # device code of an earlier extraction
            if o.name != "gpu.module" and (gpu_modules or not o.name.startswith("llvm.")):
                raise OpError(o, f"'{o.name}' op outside the gpu.module would be dropped by "
                                  f"the device-code extraction")
        device = gpu_modules[0].regions[0].blocks[0].operations if gpu_modules else top
        for o in device:
            # iree-convert-to-rocdl leaves ops it cannot convert for the chip (e.g. a
            # gfx950-only MFMA on gfx942) in place without an error
            unlowered = collect_ops(o.operation, lambda x: not x.name.startswith("llvm.") and
                                 x.name != "gpu.module_end")
            if unlowered:
                bad = unlowered[0]
                raise OpError(bad, f"'{bad.name}' op was not lowered to the LLVM dialect (an op "
                                    f"the chip does not support, or a lowering pass missing)")
        if gpu_modules:
            gm = gpu_modules[0]
            inner = list(gm.regions[0].blocks[0].operations)
            for o in inner:
                if o.operation.name != "gpu.module_end":
                    o.operation.move_before(gm)
            gm.erase()
        with module.context:
            if "gpu.container_module" in module.attributes:
                del module.attributes["gpu.container_module"]
            module.attributes["llvm.target_triple"] = ir.StringAttr.get(AMDGCN_TRIPLE)
            for o in list(body.operations):
                if o.operation.name == "llvm.func":
                    self._function(o.operation)

    @staticmethod
    def _function(f) -> None:
        attrs = attr_dict(f)
        fname = ir.StringAttr(attrs["sym_name"]).value
        unknown = [k for k in attrs if k.startswith(("rocdl.", "gpu.", "sched.")) and
                   k not in _HANDLED_FUNC_ATTRS]
        if unknown:
            raise OpError(f, f"function '{fname}': attribute '{unknown[0]}' has no LLVM "
                              f"equivalent in this lowering and would be dropped")
        is_kernel = any(k in attrs for k in KERNEL_MARKERS)
        if is_kernel:
            _set_kernel_abi(f, fname, attrs)
        elif any(k in attrs for k in _KERNEL_ONLY_ATTRS):
            raise OpError(f, f"function '{fname}' is not a kernel but has kernel attributes")
        for k in attrs:
            if k.startswith(("rocdl.", "gpu.", "sched.")):
                del f.attributes[k]


def _block_size(f, fname: str, attrs) -> tuple[int, ...]:
    sizes = {}
    for k in BLOCK_SIZE_ATTRS:
        if k in attrs:
            sizes[k] = tuple(ir.DenseI32ArrayAttr(attrs[k]))
    if not sizes:
        raise OpError(f, f"kernel '{fname}' has no known_block_size: give its gpu.func "
                          f"'known_block_size = array<i32: X, Y, Z>' (LLVM needs the workgroup "
                          f"size for amdgpu-flat-work-group-size; it is never guessed)")
    values = set(sizes.values())
    if len(values) > 1:
        raise OpError(f, f"kernel '{fname}': gpu.known_block_size and "
                          f"rocdl.reqd_work_group_size disagree ({sorted(values)})")
    (size,) = values
    if len(size) != 3 or min(size) < 1:
        raise OpError(f, f"kernel '{fname}': known_block_size must be three positive sizes, "
                          f"got {list(size)}")
    return size


def _set_kernel_abi(f, fname: str, attrs) -> None:
    x, y, z = _block_size(f, fname, attrs)
    threads = x * y * z
    if threads > 1024:
        raise OpError(f, f"kernel '{fname}': known_block_size {x}x{y}x{z} = {threads} threads "
                          f"exceeds the gfx9 limit of 1024")
    wanted = {"amdgpu-flat-work-group-size": f"{threads},{threads}",
              "uniform-work-group-size": "true"}
    if "rocdl.flat_work_group_size" in attrs:
        given = ir.StringAttr(attrs["rocdl.flat_work_group_size"]).value.replace(" ", "")
        if given != wanted["amdgpu-flat-work-group-size"]:
            raise OpError(f, f"kernel '{fname}': rocdl.flat_work_group_size \"{given}\" "
                              f"disagrees with known_block_size ({threads} threads)")
    if gfx950.WAVES_PER_EU_ATTR in attrs:
        waves = ir.IntegerAttr(attrs[gfx950.WAVES_PER_EU_ATTR]).value
        if not 1 <= waves <= gfx950.MAX_WAVES_PER_SIMD:
            raise OpError(f, f"kernel '{fname}': rocdl.waves_per_eu = {waves} is outside "
                              f"1..{gfx950.MAX_WAVES_PER_SIMD} ({gfx950.NAME})")
        wanted["amdgpu-waves-per-eu"] = str(waves)
    if gfx950.AGPR_ALLOC_ATTR in attrs:
        wanted["amdgpu-agpr-alloc"] = str(_agpr_alloc(f, fname, attrs[gfx950.AGPR_ALLOC_ATTR]))
    if gfx950.K_OUTER_MFMAS_ATTR in attrs:
        _check_k_outer(f, fname, attrs)
        wanted[gfx950.K_OUTER_MFMAS_LLVM] = "true"
    entries = []
    if "passthrough" in attrs:
        for item in ir.ArrayAttr(attrs["passthrough"]):
            key, value = passthrough_item(item)
            if key in wanted and value != wanted[key]:
                raise OpError(f, f"kernel '{fname}': passthrough \"{key}\"=\"{value}\" "
                                  f"disagrees with the derived \"{wanted[key]}\"")
            if key not in wanted:
                entries.append(item)
    for key, value in wanted.items():
        entries.append(ir.ArrayAttr.get([ir.StringAttr.get(key), ir.StringAttr.get(value)]))
    f.attributes["CConv"] = ir.Attribute.parse("#llvm.cconv<amdgpu_kernelcc>")
    f.attributes["passthrough"] = ir.ArrayAttr.get(entries)
    f.attributes["reqd_work_group_size"] = ir.DenseI32ArrayAttr.get([x, y, z])


def _check_k_outer(f, fname: str, attrs) -> None:
    """``sched.k_outer_mfmas``: a unit attribute of a kernel with AGPR accumulators (the
    codegen step reads it only with ``amdgpu-agpr-alloc``)."""
    name = gfx950.K_OUTER_MFMAS_ATTR
    if not isinstance(attrs[name], ir.UnitAttr):
        raise OpError(f, f"kernel '{fname}': {name} is a unit attribute, got {attrs[name]}")
    if gfx950.AGPR_ALLOC_ATTR not in attrs:
        raise OpError(f, f"kernel '{fname}': {name} needs {gfx950.AGPR_ALLOC_ATTR} (it orders "
                          f"the register allocation of AGPR accumulators)")


def _agpr_alloc(f, fname: str, attr) -> int:
    """The AGPR count of a kernel's ``sched.agpr_alloc``: an integer in 1..the AGPR file."""
    most = gfx950.VGPRS - gfx950.ARCH_VGPRS
    try:
        value = ir.IntegerAttr(attr).value
    except (ValueError, TypeError):
        value = None
    if value is None or not 1 <= value <= most:
        raise OpError(f, f"kernel '{fname}': {gfx950.AGPR_ALLOC_ATTR} must be an integer in "
                          f"1..{most} (the AGPRs of a lane), got {attr}")
    return value


def passthrough_item(item) -> tuple[str, str | None]:
    """(key, value or None) of one entry of an ``llvm.func``'s ``passthrough`` array: a bare
    string or a [key, value] pair of strings."""
    if isinstance(item, ir.StringAttr):
        return ir.StringAttr(item).value, None
    pair = ir.ArrayAttr(item)
    return ir.StringAttr(pair[0]).value, ir.StringAttr(pair[1]).value
