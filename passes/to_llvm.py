"""The step to LLVM: a ``gpu.module`` kernel -> LLVM dialect -> LLVM IR text.

Input: a module holding one ``gpu.module`` whose ``gpu.func ... kernel`` functions
use the ops ``sched-lower-to-rocdl`` produces (``amdgpu``, ``rocdl``, ``vector``,
``memref``, ``arith``, ``scf``).  Every kernel must carry
``known_block_size = array<i32: X, Y, Z>``.

The sub-pipeline (:data:`TO_LLVM_PASSES`, in order):

1. ``convert-scf-to-cf``, ``iree-convert-to-rocdl``, ``canonicalize``, ``cse``,
   ``reconcile-unrealized-casts``: the upstream lowerings of this wheel.  The
   separate upstream conversion passes are not registered in iree-base-compiler;
   IREE's one pass does gpu/amdgpu/vector/memref/arith/cf -> llvm + rocdl.  It
   needs a GPU target (:func:`~pipeline_mlir.dialect.bindings.ensure_gpu_target`).
2. ``sched-rocdl-to-llvm-intrinsics``: the ROCDL -> LLVM IR translation
   interface is not registered in the wheel, so every ``rocdl.*`` op becomes
   ``llvm.call_intrinsic "llvm.amdgcn.<name>"`` with its immediate attributes as
   ``llvm.mlir.constant`` arguments.
3. ``sched-extract-device-module``: the ``gpu.module``'s LLVM ops replace the
   module's contents; the module gets the ``amdgcn-amd-amdhsa`` triple and each
   kernel the ``amdgpu_kernel`` calling convention and the function attributes
   LLVM needs (``amdgpu-flat-work-group-size`` from ``known_block_size``;
   without it LLVM assumes up to 1024 threads and, with no kernel attributes at
   all, even deletes ``s_barrier``).

:func:`translate_to_llvm_ir` then prints LLVM IR text; it checks the module
first, because ``translate_module_to_llvmir`` segfaults on an op it cannot
translate instead of raising.  The text is LLVM 24's; :mod:`pipeline_mlir.isa.codegen`
compiles it with llvmlite's LLVM 22 (the one known skew, ``make.buffer.rsrc``,
is shimmed on both sides).
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Callable, Union

from pipeline_mlir.dialect.ir_io import location_text
from pipeline_mlir.dialect.rocdl_build import SCHED_GROUP_MASK_BITS
from pipeline_mlir.dialect.bindings import ensure_gpu_target, ir, llvm, new_context, passmanager
from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.passes.gpu_kernel import GpuKernel

__all__ = [
    "INTRINSICS_PASS", "EXTRACT_PASS", "TO_LLVM_PASSES", "ToLLVMError",
    "RocdlToLLVMIntrinsics", "ExtractDeviceModule", "SUPPORTED_ROCDL_OPS",
    "SCHED_GROUP_MASK_BITS", "MFMA_PERM_B", "IREE_GPU_CHIPS", "add_to_llvm", "run_to_llvm",
    "translate_to_llvm_ir", "module_to_llvm_ir", "decode_rocdl_enum",
]

INTRINSICS_PASS = "sched-rocdl-to-llvm-intrinsics"
EXTRACT_PASS = "sched-extract-device-module"
CHECK_PASS = "sched-check-device-input"
#: what iree-convert-to-rocdl lowers correctly inside a gpu.module; a func.func is dropped
#: (its memref arguments) or crashes it (one that returns a value)
DEVICE_OPS = ("gpu.func", "memref.global")

AMDGCN_TRIPLE = "amdgcn-amd-amdhsa"


class ToLLVMError(PipelineError):
    """The step to LLVM failed; the message names the op and its location."""


class _OpError(Exception):
    """Internal: a located problem a pass reports as an MLIR diagnostic."""

    def __init__(self, op, message: str) -> None:
        super().__init__(message)
        self.op = op


# ---- rocdl enum attributes ------------------------------------------------------------------

#: ``#rocdl.sched_group_mask<...>`` keywords -> the bits of LLVM's i32 mask
#: (AMDGPU ``SchedGroupMask``; ``all`` is the union of the twelve bits).

#: ``#rocdl.mfma_perm_b<...>`` keywords in the order of their ``blgp`` value.
MFMA_PERM_B = ("none", "bcast_first_32", "bcast_second_32", "rotate_16_right",
               "bcast_first_16", "bcast_second_16", "bcast_third_16", "bcast_fourth_16")

#: ``#rocdl.matrix_format<...>`` keywords in the order of their value (the cbsz/blgp
#: format codes of the gfx950 ``mfma.scale.*.f8f6f4`` intrinsics).
MATRIX_FORMATS = ("fp8_e4m3", "fp8_e5m2", "fp6_e2m3", "fp6_e3m2", "fp4_e2m1")

_ENUM_RE = re.compile(r"^#rocdl\.(sched_group_mask|mfma_perm_b|matrix_format)<\s*([\w|\s]*?)\s*>$")


def decode_rocdl_enum(attr) -> int | None:
    """The integer of a ``#rocdl.sched_group_mask`` / ``#rocdl.mfma_perm_b`` attribute.

    None if ``attr`` is neither; ValueError for a keyword not in the tables.  The
    bindings have no accessor for these enums, so the printed form is read.
    """
    m = _ENUM_RE.match(str(attr))
    if m is None:
        return None
    kind, body = m.groups()
    words = [w.strip() for w in body.split("|")]
    if kind in ("mfma_perm_b", "matrix_format"):
        table = MFMA_PERM_B if kind == "mfma_perm_b" else MATRIX_FORMATS
        if len(words) != 1 or words[0] not in table:
            raise ValueError(f"unknown #rocdl.{kind} value '{body}'")
        return table.index(words[0])
    value = 0
    for w in words:
        if w not in SCHED_GROUP_MASK_BITS:
            raise ValueError(f"unknown #rocdl.sched_group_mask keyword '{w}'")
        value |= SCHED_GROUP_MASK_BITS[w]
    return value


# ---- rocdl op -> intrinsic table ----------------------------------------------------------------

# Immediate (immarg) attributes appended after the operands, in the intrinsic's
# argument order.  Each entry was compiled through llvmlite for gfx950
# (test/unit/passes/test_to_llvm.py::test_every_supported_rocdl_op_compiles).
_IMMEDIATES: dict[str, tuple[str, ...]] = {
    "s.barrier": (), "wave.barrier": (),
    "workitem.id.x": (), "workitem.id.y": (), "workitem.id.z": (),
    "workgroup.id.x": (), "workgroup.id.y": (), "workgroup.id.z": (),
    "readfirstlane": (), "readlane": (), "mbcnt.lo": (), "mbcnt.hi": (),
    "ds_bpermute": (), "make.buffer.rsrc": (),
    "s.waitcnt": ("bitfield",),
    "s.setprio": ("priority",),
    "s.nop": ("count",),
    "s.sleep": ("count",),
    "iglp.opt": ("variant",),
    "sched.barrier": ("mask",),
    "sched.group.barrier": ("mask", "size", "groupId"),
    "load.to.lds": ("size", "offset", "aux"),
    "global.load.lds": ("size", "offset", "aux"),
    "raw.ptr.buffer.load": ("aux",),
    "raw.ptr.buffer.store": ("aux",),
    "raw.ptr.buffer.load.lds": ("aux",),
}
# Intrinsic names that differ from the op name after the "rocdl." prefix.
_RENAMED = {"ds_bpermute": "ds.bpermute"}
# Optional immediates: (default value, bit width) when the attribute is absent.
_DEFAULTS = {"aux": (0, 32)}
# MFMA-family ops: operands, then these immediates.
_MFMA_IMMEDIATES = ("cbsz", "abid", "blgp")
# mfma.scale.*: operands (a, b, c, scale_a, scale_b) and immediates interleave as
# ``a, b, c, cbsz, blgp, opselA, scale_a, opselB, scale_b`` (an int is an operand index).
_MFMA_SCALE_ARGS = (0, 1, 2, "cbsz", "blgp", "opselA", 3, "opselB", 4)
_SMFMAC_IMMEDIATES = ("cbsz", "abid")


def _immediates_of(suffix: str) -> tuple[str, ...] | None:
    if suffix in _IMMEDIATES:
        return _IMMEDIATES[suffix]
    if suffix.startswith("mfma.scale."):
        return tuple(a for a in _MFMA_SCALE_ARGS if isinstance(a, str))
    if suffix.startswith("mfma."):
        return _MFMA_IMMEDIATES
    if suffix.startswith("smfmac."):
        return _SMFMAC_IMMEDIATES
    return None


#: The rocdl op names :class:`RocdlToLLVMIntrinsics` rewrites (plus every
#: ``rocdl.mfma.*`` (incl. ``rocdl.mfma.scale.*``), and every ``rocdl.smfmac.*``).
SUPPORTED_ROCDL_OPS = tuple(sorted("rocdl." + k for k in _IMMEDIATES))


def _where(location) -> str:
    """``loc("f.mlir":3:5)`` -> ``f.mlir:3:5``."""
    return location_text(location)[0]


def _collect(root, predicate) -> list:
    """The ops under (and including) ``root`` matching ``predicate``, outermost first."""
    found = []

    def visit(op):
        if predicate(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _as_operation(op):
    """An ``ir.Operation`` from a Module, an OpView or an Operation."""
    if isinstance(op, ir.Module):
        return op.operation
    return op.operation if hasattr(op, "operation") else op


class _PythonPass:
    """Shape shared with the ``sched-*`` passes: ``name``, ``summary``, ``options``.

    An instance is the ``(op, pass_)`` callable ``PassManager.add`` takes.
    Located problems become MLIR error diagnostics and fail the pass.
    """

    name = ""
    summary = ""
    options: tuple = ()

    @classmethod
    def from_text(cls, pairs: list[tuple[str, str]]) -> "_PythonPass":
        if pairs:
            raise ConfigError(f"pass '{cls.name}' has no option '{pairs[0][0]}' (it takes none)")
        return cls()

    def __call__(self, op, pass_) -> None:
        op = _as_operation(op)
        errors = self.run(op)
        if errors:
            for e in errors:
                e.op.location.emit_error(f"{self.name}: {e}")
            pass_.signal_pass_failure()

    def run(self, module) -> list[_OpError]:  # pragma: no cover - abstract
        raise NotImplementedError


# ---- sched-check-device-input ---------------------------------------------------------------

class CheckDeviceInput(_PythonPass):
    """Before lowering: the module must hold exactly one ``gpu.module`` and nothing else
    (or be LLVM-only already).  ``iree-convert-to-rocdl`` would otherwise lower host code
    as device code, or crash on it (a ``func.func`` returning a value segfaults)."""

    name = CHECK_PASS
    summary = "check that the module is one gpu.module (the device code to compile)"

    def run(self, module) -> list[_OpError]:
        top = [_as_operation(o) for o in module.regions[0].blocks[0].operations]
        gpu_modules = [o for o in top if o.name == "gpu.module"]
        if not gpu_modules:
            if top and all(o.name.startswith("llvm.") for o in top):
                return []  # already lowered
            what = (f"found '{top[0].name}'" if top else "the module is empty")
            where = top[0] if top else module
            return [_OpError(where, f"nothing to compile for the GPU: no 'gpu.module' ({what}); "
                                    f"--emit=llvm|asm|obj|hsaco need a gpu.module kernel")]
        errors = []
        if len(gpu_modules) > 1:
            errors.append(_OpError(gpu_modules[1], "only one 'gpu.module' per input can be "
                                                   "compiled"))
        for o in top:
            if o.name != "gpu.module":
                errors.append(_OpError(o, f"'{o.name}' op outside the gpu.module: only device "
                                          f"code can be compiled (move it into the gpu.module "
                                          f"or remove it)"))
        for gm in gpu_modules:
            for inner in gm.regions[0].blocks[0].operations:
                inner = _as_operation(inner)
                if inner.name not in DEVICE_OPS and not inner.name.startswith("llvm."):
                    errors.append(_OpError(inner, f"'{inner.name}' op in the gpu.module: the "
                                                  f"LLVM step lowers {', '.join(DEVICE_OPS)} "
                                                  f"only (write functions as gpu.func)"))
        return errors


# ---- sched-rocdl-to-llvm-intrinsics -----------------------------------------------------------

class RocdlToLLVMIntrinsics(_PythonPass):
    """Rewrite every ``rocdl.*`` op inside an ``llvm.func`` into ``llvm.call_intrinsic``.

    ``rocdl.X`` becomes ``llvm.call_intrinsic "llvm.amdgcn.X"(operands...,
    immediates...)``; integer attributes keep their width (``s.setprio`` is
    i16), ``#rocdl.sched_group_mask`` / ``#rocdl.mfma_perm_b`` become their i32
    value, a ``range`` attribute becomes the call's ``llvm.range`` result
    attribute.  ``make.buffer.rsrc`` gets its i32 record count zero-extended to
    i64 (LLVM 22 declares ``make.buffer.rsrc(ptr, i16, i64, i32)``).  An op that
    is not in the table, or an attribute the rewrite would lose, is a located
    error; nothing is rewritten then.
    """

    name = INTRINSICS_PASS
    summary = "rewrite rocdl.* ops into llvm.call_intrinsic \"llvm.amdgcn.*\""

    def run(self, module) -> list[_OpError]:
        funcs = _collect(module, lambda o: o.name == "llvm.func")
        ops = [o for f in funcs for o in _collect(f, lambda o: o.name.startswith("rocdl."))]
        plans, errors = [], []
        for op in ops:
            try:
                plans.append((op, self._plan(op)))
            except _OpError as e:
                errors.append(e)
        if errors:
            return errors
        for op, plan in plans:
            self._rewrite(op, *plan)
        return []

    @staticmethod
    def _plan(op):
        """(intrinsic name, [(bit width, value) per immediate], call attributes)."""
        suffix = op.name[len("rocdl."):]
        names = _immediates_of(suffix)
        if names is None:
            raise _OpError(op, f"'{op.name}' op has no rewrite to an LLVM intrinsic (supported: "
                               f"{', '.join(SUPPORTED_ROCDL_OPS)}, rocdl.mfma.*, rocdl.smfmac.*)")
        attrs = _attr_dict(op)
        extra = sorted(set(attrs) - set(names) - set(_CALL_ATTRS))
        if extra:
            raise _OpError(op, f"'{op.name}' op: attribute '{extra[0]}' has no equivalent on "
                               f"llvm.call_intrinsic and would be lost")
        imms = []
        for n in names:
            if n not in attrs:
                if n not in _DEFAULTS:
                    raise _OpError(op, f"'{op.name}' op: missing immediate attribute '{n}'")
                value, width = _DEFAULTS[n]
                imms.append((width, value))
                continue
            imms.append(_immediate(op, n, attrs[n]))
        intrinsic = "llvm.amdgcn." + _RENAMED.get(suffix, suffix)
        return intrinsic, imms, {k: attrs[k] for k in _CALL_ATTRS if k in attrs}

    @staticmethod
    def _rewrite(op, intrinsic: str, imms, call_attrs) -> None:
        with ir.InsertionPoint(op), op.location:
            operands = list(op.operands)
            consts = []
            for width, value in imms:
                t = ir.IntegerType.get_signless(width)
                consts.append(llvm.ConstantOp(t, ir.IntegerAttr.get(t, value)).result)
            if intrinsic.startswith("llvm.amdgcn.mfma.scale."):
                it = iter(consts)
                args = [operands[a] if isinstance(a, int) else next(it) for a in _MFMA_SCALE_ARGS]
            else:
                args = operands + consts
            if intrinsic == "llvm.amdgcn.make.buffer.rsrc":
                num_records = args[2]
                if ir.IntegerType(num_records.type).width < 64:
                    args[2] = llvm.zext(ir.IntegerType.get_signless(64), num_records)
            result_type = op.results[0].type if len(op.results) else None
            arg_attrs, res_attrs = _call_attributes(op, call_attrs, len(args), result_type)
            call = llvm.CallIntrinsicOp(result_type, intrinsic, args, [], [],
                                        arg_attrs=arg_attrs, res_attrs=res_attrs)
        if result_type is not None:
            op.results[0].replace_all_uses_with(call.results[0])
        op.erase()


# Attributes of a rocdl op that become attributes of the call: ``range`` (the
# result's value range) and the argument / result attribute dictionaries.
_CALL_ATTRS = ("range", "arg_attrs", "res_attrs")


def _call_attributes(op, call_attrs: dict, num_args: int, result_type):
    """(arg_attrs, res_attrs) ArrayAttrs of the call (None when empty)."""
    arg_attrs = None
    if "arg_attrs" in call_attrs:
        dicts = list(ir.ArrayAttr(call_attrs["arg_attrs"]))
        dicts += [ir.DictAttr.get({})] * (num_args - len(dicts))  # the immediates
        arg_attrs = ir.ArrayAttr.get(dicts)
    res = {}
    if "res_attrs" in call_attrs:
        for d in ir.ArrayAttr(call_attrs["res_attrs"]):
            res.update({na.name: na.attr for na in ir.DictAttr(d)})
    if "range" in call_attrs:
        if "llvm.range" in res and str(res["llvm.range"]) != str(call_attrs["range"]):
            raise _OpError(op, f"'{op.name}' op: 'range' and res_attrs' llvm.range disagree")
        res["llvm.range"] = call_attrs["range"]
    res_attrs = None
    if res and result_type is not None:
        res_attrs = ir.ArrayAttr.get([ir.DictAttr.get(res)])
    return arg_attrs, res_attrs


def _attr_dict(op) -> dict:
    """``{name: attribute}`` of an op (iteration yields names here, NamedAttribute upstream)."""
    out = {}
    for a in op.attributes:
        if isinstance(a, str):
            out[a] = op.attributes[a]
        else:
            out[a.name] = a.attr
    return out


def _immediate(op, name: str, attr) -> tuple[int, int]:
    """(bit width, value) of an immediate attribute."""
    try:
        enum_value = decode_rocdl_enum(attr)
    except ValueError as e:
        raise _OpError(op, f"'{op.name}' op: attribute '{name}': {e}") from None
    if enum_value is not None:
        return 32, enum_value
    if isinstance(attr, ir.BoolAttr):
        return 1, int(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerType(attr.type).width, attr.value
    raise _OpError(op, f"'{op.name}' op: attribute '{name}' = {attr} is not an integer or a "
                       f"known rocdl enum")


# ---- sched-extract-device-module ------------------------------------------------------------

# Function attributes the extraction consumes (all others in these dialects are errors).
_KERNEL_MARKERS = ("rocdl.kernel", "gpu.kernel")
_BLOCK_SIZE_ATTRS = ("gpu.known_block_size", "rocdl.reqd_work_group_size")
_HANDLED_FUNC_ATTRS = set(_KERNEL_MARKERS + _BLOCK_SIZE_ATTRS) | {
    "rocdl.waves_per_eu", "rocdl.flat_work_group_size",
    # a hint iree-convert-to-rocdl has already applied to the workgroup.id ranges
    "gpu.known_grid_size",
}


class ExtractDeviceModule(_PythonPass):
    """Replace the module's contents by its ``gpu.module``'s LLVM ops, ready to translate.

    The module gets ``llvm.target_triple = "amdgcn-amd-amdhsa"``; each kernel
    (``rocdl.kernel``) gets ``CConv = #llvm.cconv<amdgpu_kernelcc>``,
    ``reqd_work_group_size`` and the ``passthrough`` attributes
    ``amdgpu-flat-work-group-size = "N,N"`` (N = the threads of
    ``known_block_size``, which every kernel must have), ``uniform-work-group-size``
    and, from ``rocdl.waves_per_eu``, ``amdgpu-waves-per-eu``.  Anything that
    would be silently dropped (a second ``gpu.module``, a host op next to it, an
    unlowered op inside it, an unknown ``rocdl.*``/``gpu.*`` function attribute)
    is a located error.  A module without ``gpu.module`` whose ops are all LLVM
    is processed in place, so the pass can run twice.
    """

    name = EXTRACT_PASS
    summary = "move the gpu.module's LLVM ops to the top level and set the AMDGPU kernel ABI"

    def run(self, module) -> list[_OpError]:
        try:
            self._extract(module)
        except _OpError as e:
            return [e]
        return []

    def _extract(self, module) -> None:
        body = module.regions[0].blocks[0]
        top = list(body.operations)
        gpu_modules = [o.operation for o in top if o.operation.name == "gpu.module"]
        if len(gpu_modules) > 1:
            raise _OpError(gpu_modules[1], "only one 'gpu.module' per module can be extracted "
                                           "to LLVM IR (found a second one)")
        for o in top:
            o = o.operation
            # next to a gpu.module, any other op is host code (iree-convert-to-rocdl
            # lowers host func.func to llvm.func too); without one, llvm.* ops are the
            # device code of an earlier extraction
            if o.name != "gpu.module" and (gpu_modules or not o.name.startswith("llvm.")):
                raise _OpError(o, f"'{o.name}' op outside the gpu.module would be dropped by "
                                  f"the device-code extraction")
        device = gpu_modules[0].regions[0].blocks[0].operations if gpu_modules else top
        for o in device:
            # iree-convert-to-rocdl leaves ops it cannot convert for the chip (e.g. a
            # gfx950-only MFMA on gfx942) in place without an error
            unlowered = _collect(o.operation, lambda x: not x.name.startswith("llvm.") and
                                 x.name != "gpu.module_end")
            if unlowered:
                bad = unlowered[0]
                raise _OpError(bad, f"'{bad.name}' op was not lowered to the LLVM dialect (an op "
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
        attrs = _attr_dict(f)
        fname = ir.StringAttr(attrs["sym_name"]).value
        unknown = [k for k in attrs if k.startswith(("rocdl.", "gpu.")) and
                   k not in _HANDLED_FUNC_ATTRS]
        if unknown:
            raise _OpError(f, f"function '{fname}': attribute '{unknown[0]}' has no LLVM "
                              f"equivalent in this lowering and would be dropped")
        is_kernel = any(k in attrs for k in _KERNEL_MARKERS)
        if is_kernel:
            _set_kernel_abi(f, fname, attrs)
        elif "rocdl.waves_per_eu" in attrs or "rocdl.flat_work_group_size" in attrs:
            raise _OpError(f, f"function '{fname}' is not a kernel but has kernel attributes")
        for k in attrs:
            if k.startswith(("rocdl.", "gpu.")):
                del f.attributes[k]


def _block_size(f, fname: str, attrs) -> tuple[int, ...]:
    sizes = {}
    for k in _BLOCK_SIZE_ATTRS:
        if k in attrs:
            sizes[k] = tuple(ir.DenseI32ArrayAttr(attrs[k]))
    if not sizes:
        raise _OpError(f, f"kernel '{fname}' has no known_block_size: give its gpu.func "
                          f"'known_block_size = array<i32: X, Y, Z>' (LLVM needs the workgroup "
                          f"size for amdgpu-flat-work-group-size; it is never guessed)")
    values = set(sizes.values())
    if len(values) > 1:
        raise _OpError(f, f"kernel '{fname}': gpu.known_block_size and "
                          f"rocdl.reqd_work_group_size disagree ({sorted(values)})")
    (size,) = values
    if len(size) != 3 or min(size) < 1:
        raise _OpError(f, f"kernel '{fname}': known_block_size must be three positive sizes, "
                          f"got {list(size)}")
    return size


def _set_kernel_abi(f, fname: str, attrs) -> None:
    x, y, z = _block_size(f, fname, attrs)
    threads = x * y * z
    if threads > 1024:
        raise _OpError(f, f"kernel '{fname}': known_block_size {x}x{y}x{z} = {threads} threads "
                          f"exceeds the gfx9 limit of 1024")
    wanted = {"amdgpu-flat-work-group-size": f"{threads},{threads}",
              "uniform-work-group-size": "true"}
    if "rocdl.flat_work_group_size" in attrs:
        given = ir.StringAttr(attrs["rocdl.flat_work_group_size"]).value.replace(" ", "")
        if given != wanted["amdgpu-flat-work-group-size"]:
            raise _OpError(f, f"kernel '{fname}': rocdl.flat_work_group_size \"{given}\" "
                              f"disagrees with known_block_size ({threads} threads)")
    if "rocdl.waves_per_eu" in attrs:
        waves = ir.IntegerAttr(attrs["rocdl.waves_per_eu"]).value
        if not 1 <= waves <= 8:
            raise _OpError(f, f"kernel '{fname}': rocdl.waves_per_eu = {waves} is outside "
                              f"1..8 (gfx950)")
        wanted["amdgpu-waves-per-eu"] = str(waves)
    entries = []
    if "passthrough" in attrs:
        for item in ir.ArrayAttr(attrs["passthrough"]):
            key, value = _passthrough_item(item)
            if key in wanted and value != wanted[key]:
                raise _OpError(f, f"kernel '{fname}': passthrough \"{key}\"=\"{value}\" "
                                  f"disagrees with the derived \"{wanted[key]}\"")
            if key not in wanted:
                entries.append(item)
    for key, value in wanted.items():
        entries.append(ir.ArrayAttr.get([ir.StringAttr.get(key), ir.StringAttr.get(value)]))
    f.attributes["CConv"] = ir.Attribute.parse("#llvm.cconv<amdgpu_kernelcc>")
    f.attributes["passthrough"] = ir.ArrayAttr.get(entries)
    f.attributes["reqd_work_group_size"] = ir.DenseI32ArrayAttr.get([x, y, z])


def _passthrough_item(item) -> tuple[str, str | None]:
    if isinstance(item, ir.StringAttr):
        return ir.StringAttr(item).value, None
    pair = ir.ArrayAttr(item)
    return ir.StringAttr(pair[0]).value, ir.StringAttr(pair[1]).value


# ---- the sub-pipeline ----------------------------------------------------------------------

PassEntry = Union[str, Callable]

#: What IREE's own codegen runs on a kernel between the point where it pipelines the K-loop
#: (``iree-llvmgpu-prefetch-shared-memory``) and its ROCDL conversion, for a kernel that
#: comes inside an IREE ``hal.executable`` (iree-base-compiler 3.13's TileAndFuse and
#: LLVMGPU lowering passes, less those that re-tile, re-schedule or reconcile the
#: executable): n-D vector lowering, memref alias folding, affine lowering.  Nested under
#: ``hal.executable``, so it touches nothing else.
IREE_TAIL = ("iree-codegen-fold-memref-alias-ops,canonicalize,cse,"
             "iree-codegen-optimize-vector-transfer,canonicalize,cse,"
             "iree-codegen-remove-index-hints,"
             "iree-codegen-convert-hal-descriptor-type-to-gpu-address-space,canonicalize,cse,"
             "iree-llvmgpu-vector-lowering,iree-llvmgpu-vector-flattening,"
             "iree-llvmgpu-legalize-nd-vectors,canonicalize,cse,"
             "iree-codegen-fold-memref-alias-ops,iree-codegen-expand-strided-metadata,"
             "iree-codegen-decompose-affine-ops,cse,iree-affine-expand-index-ops,iree-lower-affine,"
             "cse,iree-llvmgpu-1d-vector-canonicalizations,iree-codegen-fold-memref-alias-ops,"
             "iree-codegen-expand-strided-metadata{allow-subview-expansion=true},"
             "iree-amdgpu-emulate-narrow-type,iree-affine-expand-index-ops,iree-lower-affine,"
             "iree-convert-unsupported-float-arith")
IREE_TAIL_PIPELINE = ("hal.executable(hal.executable.variant(builtin.module(func.func("
                      + IREE_TAIL + "))))")

#: The step to LLVM in order: (pass name, textual pipeline element or Python pass).
TO_LLVM_PASSES: list[tuple[str, PassEntry]] = [
    ("iree-codegen-tail", IREE_TAIL_PIPELINE),
    (GpuKernel.name, GpuKernel()),
    (CHECK_PASS, CheckDeviceInput()),
    ("convert-scf-to-cf", "convert-scf-to-cf"),
    ("iree-convert-to-rocdl", "iree-convert-to-rocdl"),
    ("canonicalize", "canonicalize"),
    ("cse", "cse"),
    ("reconcile-unrealized-casts", "reconcile-unrealized-casts"),
    (INTRINSICS_PASS, RocdlToLLVMIntrinsics()),
    (EXTRACT_PASS, ExtractDeviceModule()),
]


#: Chips ``iree-convert-to-rocdl`` runs for in iree-base-compiler 3.13 (each tried);
#: for others (gfx900, gfx906, gfx940, gfx941, mi300x, mi355x, typos) it segfaults.
#: The project's kernels are written for gfx950.
IREE_GPU_CHIPS = ("gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100",
                  "gfx1101", "gfx1102", "gfx1150", "gfx1151", "gfx1200", "gfx1201", "gfx1250")


def add_to_llvm(pm, chip: str = "gfx950") -> list:
    """Append :data:`TO_LLVM_PASSES` to a ``builtin.module`` PassManager.

    Sets the process-wide IREE GPU target to ``chip`` first (it cannot change
    later in the same process); a chip outside :data:`IREE_GPU_CHIPS` is a
    :class:`ToLLVMError`.  Returns the Python pass objects added.
    """
    if chip not in IREE_GPU_CHIPS:
        raise ToLLVMError(f"unknown GPU chip '{chip}' for the step to LLVM (known: "
                          f"{', '.join(IREE_GPU_CHIPS)})")
    try:
        ensure_gpu_target(chip)
    except (ValueError, RuntimeError) as e:  # another chip already set; bindings without IREE
        raise ToLLVMError(str(e)) from None
    added = []
    for name, entry in TO_LLVM_PASSES:
        if isinstance(entry, str):
            pm.add(entry)
        else:
            pm.add(entry, name=name, argument=name, description=entry.summary)
            added.append(entry)
    return added


def _diagnostics_text(err) -> str:
    diags = getattr(err, "error_diagnostics", None) or []
    if not diags:
        return str(err).strip()
    return "\n".join(f"{_where(d.location)}: error: {d.message}" for d in diags)


def run_to_llvm(module, chip: str = "gfx950"):
    """Run the step to LLVM on ``module`` (an ``ir.Module``) in place and return it.

    Raises :class:`ToLLVMError` with the located diagnostics on failure.
    """
    op = _as_operation(module)
    with op.context:
        pm = passmanager.PassManager("builtin.module")
        add_to_llvm(pm, chip)
        try:
            pm.run(op)
        except ir.MLIRError as e:
            raise ToLLVMError(_diagnostics_text(e)) from None
    return module


# ---- LLVM IR text ---------------------------------------------------------------------------

def _check_translatable(op) -> None:
    """Raise ToLLVMError for anything ``translate_module_to_llvmir`` would crash on."""
    if op.name != "builtin.module":
        raise ToLLVMError(f"{_where(op.location)}: expected a 'builtin.module' to translate, "
                          f"got '{op.name}'")
    bad = _collect(op, lambda o: not (o.name.startswith("llvm.") or
                                      (o.name == "builtin.module" and o == op)))
    if bad:
        o = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ToLLVMError(f"{_where(o.location)}: '{o.name}' op cannot be translated to LLVM IR"
                          f"{more}: only llvm.* ops can (run the step to LLVM first)")
    for f in _collect(op, lambda o: o.name == "llvm.func"):
        cconv = f.attributes["CConv"] if "CConv" in f.attributes else None
        if str(cconv) == "#llvm.cconv<amdgpu_kernelcc>":
            ftype = str(f.attributes["function_type"])
            if not ftype.startswith("!llvm.func<void "):
                name = ir.StringAttr(f.attributes["sym_name"]).value
                raise ToLLVMError(f"{_where(f.location)}: kernel '{name}' must return void")
    try:
        op.verify()
    except ir.MLIRError as e:
        raise ToLLVMError(_diagnostics_text(e)) from None


def translate_to_llvm_ir(module, *, isolated: bool = False) -> str:
    """LLVM IR text of an LLVM-dialect module (``ir.Module`` or its operation).

    Guarded: a non-``llvm.*`` op anywhere, a kernel returning a value or a
    verifier failure raises :class:`ToLLVMError` naming the op and location
    (the underlying ``translate_module_to_llvmir`` would segfault on them).

    The bindings segfault on *any* translation failure, including ones the
    guard cannot foresee (an ``llvm.call_intrinsic`` whose operand types do not
    match the intrinsic).  ``isolated=True`` translates in a child process
    (about 0.2 s more) and turns such a failure into a ToLLVMError carrying
    MLIR's located diagnostics; use it for IR that did not come from
    :data:`TO_LLVM_PASSES`.
    """
    op = _as_operation(module)
    _check_translatable(op)
    if isolated:
        return _translate_in_child(op)
    with op.context:
        return llvm.translate_module_to_llvmir(op)


_TRANSLATE_FLAG = "--translate-worker"
_DIAG_LINE = re.compile(r"^(loc\(.*?\)): (error|note): (.*)$")


def _translate_in_child(op, timeout: float = 120.0) -> str:
    text = op.get_asm(enable_debug_info=True, print_generic_op_form=True)
    cmd = [sys.executable, "-m", "pipeline_mlir.passes.to_llvm", _TRANSLATE_FLAG]
    try:
        proc = subprocess.run(cmd, input=text.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToLLVMError(f"translation to LLVM IR did not finish in {timeout:g} s") from None
    if proc.returncode == 0:
        return proc.stdout.decode()
    lines = []
    for ln in proc.stderr.decode(errors="replace").splitlines():
        m = _DIAG_LINE.match(ln.strip())
        if m:
            lines.append(f"{_where(m.group(1))}: {m.group(2)}: {m.group(3)}")
    how = (f"crashed (signal {-proc.returncode})" if proc.returncode < 0
           else f"failed (status {proc.returncode})")
    raise ToLLVMError("\n".join(lines) if lines else f"translation to LLVM IR {how}")


def _translate_worker() -> int:
    with new_context() as ctx:
        module = ir.Module.parse(sys.stdin.buffer.read(), ctx)
        sys.stdout.write(llvm.translate_module_to_llvmir(module.operation))
    return 0


def module_to_llvm_ir(module, chip: str = "gfx950") -> str:
    """:func:`run_to_llvm` then :func:`translate_to_llvm_ir`."""
    return translate_to_llvm_ir(run_to_llvm(module, chip))


if __name__ == "__main__":
    if sys.argv[1:] == [_TRANSLATE_FLAG]:
        sys.exit(_translate_worker())
    sys.stderr.write(f"usage: python -m pipeline_mlir.passes.to_llvm {_TRANSLATE_FLAG} "
                     f"(internal: an LLVM-dialect module on stdin)\n")
    sys.exit(2)
