"""``sched-rocdl-to-llvm-intrinsics``: every ``rocdl.*`` op becomes an LLVM intrinsic call.

The ROCDL -> LLVM IR translation interface is not registered in the iree-base-compiler
wheel, so after ``iree-convert-to-rocdl`` each ``rocdl.X`` op inside an ``llvm.func``
becomes ``llvm.call_intrinsic "llvm.amdgcn.X"`` with its immediate attributes as
``llvm.mlir.constant`` arguments (:class:`RocdlToLLVMIntrinsics`).
"""

from __future__ import annotations

import re

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.lowering.rocdl_build import SCHED_GROUP_MASK_BITS
from pipeline_mlir.passes._common import ModulePass, OpError, attr_dict, collect_ops

#: ``#rocdl.sched_group_mask<...>`` keywords -> the bits of LLVM's i32 mask:
#: ``SCHED_GROUP_MASK_BITS`` (``pipeline_mlir/lowering/rocdl_build.py``, which builds those attributes).

#: ``#rocdl.mfma_perm_b<...>`` keywords in the order of their ``blgp`` value.
MFMA_PERM_B = ("none", "bcast_first_32", "bcast_second_32", "rotate_16_right",
               "bcast_first_16", "bcast_second_16", "bcast_third_16", "bcast_fourth_16")

#: ``#rocdl.matrix_format<...>`` keywords in the order of their value (the cbsz/blgp
#: format codes of the gfx950 ``mfma.scale.*.f8f6f4`` intrinsics).
MATRIX_FORMATS = ("fp8_e4m3", "fp8_e5m2", "fp6_e2m3", "fp6_e3m2", "fp4_e2m1")

_ENUM_RE = re.compile(r"^#rocdl\.(sched_group_mask|mfma_perm_b|matrix_format)"
                      r"<\s*([\w|\s]*?)\s*>$")


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
    "ds_bpermute": (), "make.buffer.rsrc": (), "ds.read.tr16.b64": (),
    "ds.read.tr8.b64": (),
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
    # the 8-bit float conversions arith-to-amdgpu makes of an ``arith.truncf`` to
    # f8E4M3FN / f8E5M2: (a, b, old word, i1 word_sel), (a, seed, old word, i32 byte_sel)
    "cvt.pk.fp8.f32": ("wordSel",), "cvt.pk.bf8.f32": ("wordSel",),
    "cvt.sr.fp8.f32": ("byteSel",), "cvt.sr.bf8.f32": ("byteSel",),
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



class RocdlToLLVMIntrinsics(ModulePass):
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

    name = "sched-rocdl-to-llvm-intrinsics"
    summary = "rewrite rocdl.* ops into llvm.call_intrinsic \"llvm.amdgcn.*\""

    def run(self, module) -> list[OpError]:
        funcs = collect_ops(module, lambda o: o.name == "llvm.func")
        ops = [o for f in funcs for o in collect_ops(f, lambda o: o.name.startswith("rocdl."))]
        calls, errors = [], []
        for op in ops:
            try:
                calls.append((op, self._call_of(op)))
            except OpError as e:
                errors.append(e)
        if errors:
            return errors
        for op, call in calls:
            self._rewrite(op, *call)
        return []

    @staticmethod
    def _call_of(op):
        """(intrinsic name, [(bit width, value) per immediate], call attributes)."""
        suffix = op.name[len("rocdl."):]
        names = _immediates_of(suffix)
        if names is None:
            raise OpError(op, f"'{op.name}' op has no rewrite to an LLVM intrinsic (supported: "
                               f"{', '.join(SUPPORTED_ROCDL_OPS)}, rocdl.mfma.*, rocdl.smfmac.*)")
        attrs = attr_dict(op)
        extra = sorted(set(attrs) - set(names) - set(_CALL_ATTRS))
        if extra:
            raise OpError(op, f"'{op.name}' op: attribute '{extra[0]}' has no equivalent on "
                               f"llvm.call_intrinsic and would be lost")
        imms = []
        for n in names:
            if n not in attrs:
                if n not in _DEFAULTS:
                    raise OpError(op, f"'{op.name}' op: missing immediate attribute '{n}'")
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
                consts.append(B.llvm.ConstantOp(t, ir.IntegerAttr.get(t, value)).result)
            if intrinsic.startswith("llvm.amdgcn.mfma.scale."):
                it = iter(consts)
                args = [operands[a] if isinstance(a, int) else next(it) for a in _MFMA_SCALE_ARGS]
            else:
                args = operands + consts
            if intrinsic == "llvm.amdgcn.make.buffer.rsrc":
                num_records = args[2]
                if ir.IntegerType(num_records.type).width < 64:
                    args[2] = B.llvm.zext(ir.IntegerType.get_signless(64), num_records)
            result_type = op.results[0].type if len(op.results) else None
            arg_attrs, res_attrs = _call_attributes(op, call_attrs, len(args), result_type)
            call = B.llvm.CallIntrinsicOp(result_type, intrinsic, args, [], [],
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
            raise OpError(op, f"'{op.name}' op: 'range' and res_attrs' llvm.range disagree")
        res["llvm.range"] = call_attrs["range"]
    res_attrs = None
    if res and result_type is not None:
        res_attrs = ir.ArrayAttr.get([ir.DictAttr.get(res)])
    return arg_attrs, res_attrs


def _immediate(op, name: str, attr) -> tuple[int, int]:
    """(bit width, value) of an immediate attribute."""
    try:
        enum_value = decode_rocdl_enum(attr)
    except ValueError as e:
        raise OpError(op, f"'{op.name}' op: attribute '{name}': {e}") from None
    if enum_value is not None:
        return 32, enum_value
    if isinstance(attr, ir.BoolAttr):
        return 1, int(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerType(attr.type).width, attr.value
    raise OpError(op, f"'{op.name}' op: attribute '{name}' = {attr} is not an integer or a "
                       f"known rocdl enum")
