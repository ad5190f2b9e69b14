"""Small facts read from MLIR ops and types, shared by the analyses (no numpy).

Attribute readers (:func:`attr_names`, :func:`int_attr`, :func:`dense_i64`), an op's
operand groups (:func:`segments`), a memref's memory space (:func:`memory_space`), bytes
per element (:func:`element_bytes`), IREE's ``xor_shuffle`` swizzle (:func:`xor_shuffle`,
:func:`parse_xor_shuffle`), the opaque identity the kernels pin an LDS base with
(:func:`is_opaque_identity`), the integer an SSA value is when constants define it
(:func:`constant_int`), what a vector transfer states of its access (:func:`transfer`)
and the trip count of an ``scf.for`` with constant bounds
(:func:`constant_trips`).
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from pipeline_mlir.analysis.int_ranges import signed
from pipeline_mlir.dialect.attrs import (constant_range, int_value, is_float8, is_kind,
                                         memory_space_name)
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.kernel.lds_data import (OPAQUE_ASM, OPAQUE_CONSTRAINTS,
                                        OPAQUE_SCALAR_CONSTRAINTS)
from pipeline_mlir.target.gfx950 import MAX_WORKGROUP_THREADS, NAME, waves_of_threads

#: ops whose results are thread ids: they differ between the threads (and the waves) of a
#: workgroup, and each is 0 for thread 0
THREAD_ID_OPS = ("gpu.thread_id", "gpu.lane_id", "gpu.subgroup_id", "rocdl.workitem.id.x",
                 "rocdl.workitem.id.y", "rocdl.workitem.id.z", "rocdl.mbcnt.lo",
                 "rocdl.mbcnt.hi")

#: a dynamic size, stride or offset in a shaped type or a static_* attribute
DYNAMIC = ir.ShapedType.get_dynamic_size() if hasattr(ir.ShapedType, "get_dynamic_size") \
    else -9223372036854775808


#: where a kernel states its workgroup size, in the order they are read: a gpu.func's, a
#: func.func's (and an llvm.func's), ROCDL's required size on an llvm.func
BLOCK_SIZE_ATTRS = ("known_block_size", "gpu.known_block_size", "rocdl.reqd_work_group_size")


#: where :func:`declared_sizes` says IREE's ``translation_info`` states the size
INFO_SIZE = "translation_info workgroup_size"


def stated_size(kernel) -> tuple[str, tuple[int, int, int]] | None:
    """``(where, size)`` of the workgroup size ``kernel`` states (:func:`block_size`'s, not
    checked): the first of :data:`BLOCK_SIZE_ATTRS` it has, else IREE's ``translation_info``
    workgroup size; ``where`` the ``translation_info`` wherever it states that size, as it
    gave it (IREE's passes copy it to ``gpu.known_block_size``: the VectorDistribute front
    end's); None if it states none."""
    sizes = declared_sizes(kernel)
    if not sizes:
        return None
    where, size = sizes[0]
    return (INFO_SIZE if (INFO_SIZE, size) in sizes else where), size


def block_size(kernel) -> tuple[int, int, int] | None:
    """The workgroup size ``kernel`` (a gpu.func, func.func or llvm.func) states, padded to
    three sizes (:func:`stated_size`); None if it states none.  A size of no thread or of
    more than a workgroup of the target holds is refused at the kernel, naming the
    attribute that gave it (no launch runs it, and the analyses evaluate every thread:
    finding 118 of docs/iree-audits.md)."""
    stated = stated_size(kernel)
    if stated is None:
        return None
    where, size = stated
    if not 0 < math.prod(size) <= MAX_WORKGROUP_THREADS or min(size) < 1:
        raise IRError(kernel, f"'{kernel.name}' op: its workgroup size ({where}) is "
                              f"{list(size)}, {math.prod(size)} threads; a {NAME} workgroup "
                              f"has 1 to {MAX_WORKGROUP_THREADS}")
    return size


def workgroup_waves(kernel) -> int | None:
    """The waves of ``kernel``'s workgroup, or None when it is not known: no size stated,
    or two stated sizes that differ (:func:`~pipeline_mlir.analysis.launch_conflicts.
    launch_conflict`: whichever one launches it, a check must hold for either)."""
    sizes = {size for _, size in declared_sizes(kernel)}
    if len(sizes) != 1:
        return None
    (x, y, z), = sizes
    return waves_of_threads(x * y * z)


def declares_kernel(func) -> bool:
    """Does ``func`` (a ``func.func``) declare itself a kernel: a workgroup size or IREE's
    ``translation_info`` (host functions have neither; what ``sched-gpu-kernel`` makes a
    ``gpu.func`` kernel)?"""
    return block_size(func) is not None or "translation_info" in func.attributes


def translation_info_text(kernel) -> str | None:
    """The text of IREE's ``translation_info`` on ``kernel`` (it has no accessor)."""
    info = kernel.attributes["translation_info"] if "translation_info" in kernel.attributes \
        else None
    return str(info) if info is not None and is_kind(info, "translation_info") else None


def declared_sizes(kernel) -> list[tuple[str, tuple[int, int, int]]]:
    """Every workgroup size ``kernel`` states, ``[(where, size padded to 3)]``, in the order
    :func:`block_size` reads them."""
    out = []
    for name in BLOCK_SIZE_ATTRS:
        if name in kernel.attributes:
            v = list(ir.DenseI32ArrayAttr(kernel.attributes[name]))
            out.append((name, tuple(v + [1] * (3 - len(v)))))
    m = re.search(r"workgroup_size\s*=\s*\[([\d,\s]+)\]", translation_info_text(kernel) or "")
    if m:
        v = [int(x) for x in m.group(1).split(",")]
        out.append((INFO_SIZE, tuple(v + [1] * (3 - len(v)))))
    return out


def attr_names(op) -> list[str]:
    a = op.attributes
    return [a[i].name for i in range(len(a))]


def attr_strings(op) -> dict[str, str]:
    """``op``'s attributes by name, each as its printed text."""
    return {n: str(op.attributes[n]) for n in attr_names(op)}


def int_attr(op, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def dense_i64(op, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def segment_sizes(op) -> list[int]:
    return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))


def segments(op) -> list[list]:
    """The operand groups of an op with ``operandSegmentSizes``."""
    out, pos = [], 0
    operands = list(op.operands)
    for n in segment_sizes(op):
        out.append(operands[pos:pos + n])
        pos += n
    return out


class Transfer(NamedTuple):
    """What a ``vector.transfer_read`` / ``transfer_write`` states of its access
    (:func:`transfer`): whether it has a mask, which of its vector's dimensions are
    ``in_bounds`` and whether its ``permutation_map`` is the minor identity (the vector's
    dimensions the memref's innermost, in order)."""
    masked: bool
    in_bounds: tuple
    minor_identity: bool

    @property
    def in_view(self) -> bool:
        """In bounds in every dimension and of the minor-identity map: where its mask (if
        any) is true, the access moves the vector's elements at its indices."""
        return all(self.in_bounds) and self.minor_identity

    @property
    def plain(self) -> bool:
        """:attr:`in_view` and unmasked: the access moves exactly the vector's elements at
        its indices."""
        return not self.masked and self.in_view


def transfer(op) -> Transfer:
    """The :class:`Transfer` facts of ``op`` (a ``vector.transfer_read`` or
    ``transfer_write`` of a memref).  An ``in_bounds`` or ``permutation_map`` the op does
    not carry is MLIR's default (not in bounds; the minor identity); an ``in_bounds``
    element that is not a boolean counts as not in bounds."""
    g = segments(op)
    write = op.name == "vector.transfer_write"
    vt = ir.VectorType((g[0][0] if write else op.results[0]).type)
    rank = ir.MemRefType(g[1 if write else 0][0].type).rank
    bounds = (False,) * vt.rank
    if "in_bounds" in op.attributes:
        bounds = tuple(isinstance(a, ir.BoolAttr) and ir.BoolAttr(a).value
                       for a in ir.ArrayAttr(op.attributes["in_bounds"]))
    identity = True
    if "permutation_map" in op.attributes:
        pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
        identity = pm == ir.AffineMap.get_minor_identity(rank, vt.rank, context=pm.context)
    return Transfer(bool(len(g) > 3 and g[3]), bounds, identity)


#: the integer attribute (elements) of a register-staged ``amdgpu.gather_to_lds`` whose
#: lanes write LDS that many elements apart instead of one after the other: a piece of each
#: lane's run (``frontend/layout.py``, pieces of a run cut at an odd size); no DMA writes so
LANE_STRIDE = "sched.lane_stride"


def lane_stride(op, n: int) -> int:
    """Elements between the LDS places of consecutive lanes of copy ``op`` moving ``n``
    each: :data:`LANE_STRIDE` where set, else ``n`` (the DMA's lanes one after the other).
    An :class:`IRError` at the op for a stride that is no integer of at least ``n`` (the
    lanes would overwrite each other's elements)."""
    if LANE_STRIDE not in op.attributes:
        return n
    a = op.attributes[LANE_STRIDE]
    if not isinstance(a, ir.IntegerAttr) or ir.IntegerAttr(a).value < n:
        raise IRError(op, f"'{op.name}' op attribute '{LANE_STRIDE}' must be an integer of at "
                          f"least the {n} elements each lane moves (else the lanes overwrite "
                          f"each other's), not {a}")
    return ir.IntegerAttr(a).value


def memory_space(t) -> str:
    """``workgroup``, ``global``, ``fat_raw_buffer``, ``private`` or the printed space."""
    return memory_space_name(t)     # the attribute, never its printed text


def element_bytes(t) -> int:
    """Bytes per element of a memref or vector type, or of a scalar type itself (sub-byte
    types are refused)."""
    et = getattr(t, "element_type", t)
    width = getattr(et, "width", None)
    if width is None:
        try:
            width = ir.FloatType(et).width
        except Exception:  # pragma: no cover - exotic element types
            width = None
    if width is None and is_float8(et):
        width = 8
    if width is None or width % 8:
        raise ValueError(f"element type {et} is not a whole number of bytes")
    return width // 8


def static_bytes(t) -> int:
    """Bytes of a statically shaped memref or vector type ``t``: its elements times
    :func:`element_bytes` (a sub-byte element type is refused, ``ValueError``)."""
    n = 1
    for d in t.shape:
        n *= d
    return n * element_bytes(t)


def row_major_strides(shape) -> list[int]:
    """The element strides of a dense row-major array of ``shape`` (each dimension's: the
    product of the sizes after it)."""
    out, acc = [], 1
    for d in reversed(list(shape)):
        out.append(acc)
        acc *= d
    return out[::-1]


def dense_row_major(t, launch_sizes: bool = False) -> bool:
    """Whether memref type ``t`` is dense and row-major from its element 0: offset 0 and
    each dimension's stride the product of the sizes after it (:func:`row_major_strides`;
    its first size may be known only at launch).  A size after the first known only at
    launch makes the strides so too: ``launch_sizes`` takes those when the layout is the
    identity (row-major by definition), else they are not known to be dense."""
    t = ir.MemRefType(t)
    if any(ir.ShapedType.is_dynamic_size(d) for d in list(t.shape)[1:]):
        return launch_sizes and t.layout == ir.AffineMapAttr.get(
            ir.AffineMap.get_identity(t.rank))
    strides, offset = t.get_strides_and_offset()
    return offset == 0 and list(strides) == row_major_strides(t.shape)



def xor_shuffle(elements, row: int, access: int):
    """IREE's ``#iree_codegen.xor_shuffle<row, access>`` of flat element offsets: the
    ``access``-element chunk index within a ``row``-element row is XORed with the row
    index modulo ``row / access`` (elements within a chunk keep their place).  Integer
    elements and powers of two (IREE's swizzles): the same by shifts and masks, which
    floor and wrap as ``//`` and ``%`` do, negative elements too, and cost less."""
    if type(row) is int and type(access) is int and 0 < access <= row and not (row & (row - 1) or access & (access - 1)) and \
            (isinstance(elements, int) or getattr(getattr(elements, "dtype", None), "kind",
                                                  "") in ("i", "u")):
        lr, la = row.bit_length() - 1, access.bit_length() - 1
        r = elements >> lr
        phase = r & ((row >> la) - 1)
        return (r << lr) + ((((elements & (row - 1)) >> la) ^ phase) << la) + \
            (elements & (access - 1))
    r = elements // row
    chunk = (elements % row) // access
    phase = r % (row // access)
    return r * row + (chunk ^ phase) * access + elements % access


def parse_xor_shuffle(attr) -> tuple[int, int] | None:
    """``(row, access)`` of a ``#iree_codegen.xor_shuffle<row, access>`` attribute, else None."""
    m = re.fullmatch(r"#iree_codegen\.xor_shuffle<\s*(\d+)\s*,\s*(\d+)\s*>", str(attr).strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def is_opaque_identity(op) -> bool:
    """An ``llvm.inline_asm`` with no instructions whose one result is tied to its one
    operand (constraints ``"=v,0"``, or ``"=s,0"`` in an SGPR): the value passes unchanged, but LLVM cannot see
    through it (the kernels use it to keep a precomputed LDS base in a register)."""
    a = op.attributes
    return (op.name == "llvm.inline_asm" and len(op.operands) == 1 and len(op.results) == 1
            and "asm_string" in a and "constraints" in a
            and ir.StringAttr(a["asm_string"]).value == OPAQUE_ASM
            and ir.StringAttr(a["constraints"]).value in (OPAQUE_CONSTRAINTS,
                                                          OPAQUE_SCALAR_CONSTRAINTS))


def descendants(op):
    """Every operation nested in ``op`` (not ``op`` itself), in pre-order, as a generator."""
    for region in op.regions:
        for block in region.blocks:
            for o in block.operations:
                o = as_operation(o)
                yield o
                yield from descendants(o)


#: the ops a kernel's body ends at, walking outward
FUNCTION_OPS = ("func.func", "gpu.func", "builtin.module")


def enclosing_ops(op):
    """The ops around ``op`` (not ``op`` itself), innermost first, up to but not including
    its function (or module), as a generator."""
    p = as_operation(op).parent
    while p is not None and as_operation(p).name not in FUNCTION_OPS:
        p = as_operation(p)
        yield p
        p = p.parent


def function_of(op):
    """The ``func.func`` or ``gpu.func`` around ``op`` (not ``op`` itself): where the walk
    of :func:`enclosing_ops` stops; None when it stops at a module or at an op of no parent
    (``op`` outside any function)."""
    p = as_operation(op).parent
    while p is not None and as_operation(p).name not in FUNCTION_OPS:
        p = as_operation(p).parent
    return as_operation(p) if p is not None and as_operation(p).name != "builtin.module" \
        else None


def encloses(outer, op) -> bool:
    """``op`` is nested in ``outer``'s regions, at any depth below its function (not
    ``outer`` itself): one of :func:`enclosing_ops`."""
    outer = as_operation(outer)
    return any(p == outer for p in enclosing_ops(op))


def defined_in(v, loop) -> bool:
    """Whether the value ``v`` is defined inside ``loop``: an argument of a block of its
    regions or of a region nested there, or a result of an op nested in it (not one of
    ``loop``'s own results)."""
    if isinstance(v.owner, ir.Block):
        o = v.owner.owner
        return o is not None and (as_operation(o) == as_operation(loop) or encloses(loop, o))
    return encloses(loop, v.owner)


#: the binary affine expressions :func:`fold_affine` combines, by the kind it names them
_AFFINE_BINARY = (("add", "AffineAddExpr"), ("mul", "AffineMulExpr"), ("mod", "AffineModExpr"),
                  ("floordiv", "AffineFloorDivExpr"), ("ceildiv", "AffineCeilDivExpr"))


def affine_tree(e) -> tuple:
    """The affine expression ``e`` read off the bindings once, as tuples: ``("const", c)``,
    ``("dim", i)``, ``("sym", i)``, or ``(kind, lhs, rhs, e)`` for a binary expression (its
    operands' trees; ``kind`` as :func:`fold_affine` names it).  :func:`fold_tree` folds it
    without asking the bindings again (each node they give is a new object, each kind a
    type test): what a caller that folds one expression many times keeps."""
    if isinstance(e, ir.AffineConstantExpr):
        return ("const", e.value)
    if isinstance(e, ir.AffineDimExpr):
        return ("dim", e.position)
    if isinstance(e, ir.AffineSymbolExpr):
        return ("sym", e.position)
    lhs, rhs = affine_tree(e.lhs), affine_tree(e.rhs)
    kind = next(k for k, cls in _AFFINE_BINARY if isinstance(e, getattr(ir, cls)))
    return (kind, lhs, rhs, e)


def map_trees(attr) -> tuple:
    """(dimensions, the :func:`affine_tree` of each result) of the affine map attribute
    ``attr``."""
    am = ir.AffineMapAttr(attr).value
    return am.n_dims, tuple(affine_tree(e) for e in am.results)


def fold_tree(t: tuple, dims: list, syms: list, const, binary):
    """:func:`fold_affine` of the expression whose :func:`affine_tree` is ``t``: the same
    calls of ``const`` and ``binary``, in the same order."""
    kind = t[0]
    if kind == "const":
        return const(t[1])
    if kind == "dim":
        return dims[t[1]]
    if kind == "sym":
        return syms[t[1]]
    a = fold_tree(t[1], dims, syms, const, binary)
    return binary(kind, a, fold_tree(t[2], dims, syms, const, binary), t[3])


def fold_affine(e, dims: list, syms: list, const, binary):
    """The value of the affine expression ``e`` in the caller's algebra: ``dims`` and
    ``syms`` the values of its dimensions and symbols, ``const(c)`` that of a constant,
    ``binary(kind, a, b, e)`` that of a binary expression ``e`` whose operands have the
    values ``a`` and ``b`` (``kind``: ``add``, ``mul``, ``mod``, ``floordiv`` or
    ``ceildiv``): :func:`fold_tree` of its :func:`affine_tree`, for a caller that folds it
    once (the guard's and the dynamic-K masks' linear forms; the per-lane evaluator and the
    row proof keep the trees)."""
    return fold_tree(affine_tree(e), dims, syms, const, binary)


#: integer ops :func:`constant_int` folds, and what they compute
_FOLDS = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
          "arith.muli": lambda a, b: a * b}
def mapped_forall(op) -> bool:
    """``op`` is an ``scf.forall`` with a ``mapping`` (a workgroup forall of IREE's when
    its mapping is workgroup ids: the callers read it)."""
    return op.name == "scf.forall" and "mapping" in op.attributes


#: the ops of a workgroup id: the one list (the evaluator samples them, the front end's
#: proofs bound them by :func:`workgroup_id_bound`, the analyses of what moves with the
#: workgroup start from them)
WORKGROUP_ID_OPS = ("hal.interface.workgroup.id", "gpu.block_id", "rocdl.workgroup.id.x",
                    "rocdl.workgroup.id.y", "rocdl.workgroup.id.z")
#: the ops of the workgroup count (a launch's size along a dimension)
WORKGROUP_COUNT_OPS = ("hal.interface.workgroup.count", "gpu.grid_dim")
#: the ops a constant passes through unchanged
VALUE_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")
#: the ops a launch value (a push constant, a size) passes through unchanged on its way to
#: what it sizes: :data:`VALUE_CASTS` and IREE's naming of a workload value
LAUNCH_PASS_THROUGH = VALUE_CASTS + ("iree_tensor_ext.dispatch.workload.ordinal",)
#: the casts of :data:`VALUE_CASTS` that extend their operand's sign bit
SIGN_EXTENDING = ("arith.index_cast", "arith.extsi")


def through_casts(v, extra: tuple = ()):
    """``v`` followed back through the ops a value passes through unchanged (index casts
    and integer extensions, and the ops ``extra`` names)."""
    while not isinstance(v.owner, ir.Block) and \
            as_operation(v.owner).name in VALUE_CASTS + extra:
        v = as_operation(v.owner).operands[0]
    return v


def int_bits(t) -> int:
    """The width of integer type ``t`` (index: 64 bits)."""
    return ir.IntegerType(t).width if isinstance(t, ir.IntegerType) else 64


def constant_int(v) -> int | None:
    """The integer ``v`` is when constants define it: an integer ``arith.constant``, through
    index casts and integer extensions (zero- or sign-extended as the cast says, truncated
    to a narrower result), and ``arith.addi``/``subi``/``muli`` of such values (wrapped to
    the result's width), read signed; None for anything else."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    o = as_operation(owner)
    if o.name in VALUE_CASTS:
        x = constant_int(o.operands[0])
        if x is None:
            return None
        if o.name not in SIGN_EXTENDING:       # zero-extended: the operand's bits unsigned
            x &= (1 << int_bits(o.operands[0].type)) - 1
        return signed(x, int_bits(o.results[0].type))
    if o.name == "arith.constant" and isinstance(o.attributes["value"], ir.IntegerAttr):
        return ir.IntegerAttr(o.attributes["value"]).value
    if o.name in _FOLDS:
        a, b = (constant_int(x) for x in o.operands)
        if a is None or b is None:
            return None
        return signed(_FOLDS[o.name](a, b), int_bits(o.results[0].type))
    return None


def dense_ints(attr) -> list[int] | None:
    """The elements of a dense integer attribute (one for a splat), None for another
    attribute."""
    if not isinstance(attr, ir.DenseIntElementsAttr):
        return None
    return [int(attr[i]) for i in range(1 if attr.is_splat else len(attr))]


def assumed_divisor(op, i: int) -> int:
    """The divisor ``util.assume.int`` ``op`` states of its ``i``-th value: the ``udiv``
    its assumptions give, the greatest common one where it gives several sets (one of them
    holds), 1 where a set gives none (or 0)."""
    text = str(ir.ArrayAttr(op.attributes["assumptions"])[i])
    sets = max(1, text.count("#util.int.assumption"))
    found = [int(x) for x in re.findall(r"\budiv\s*=\s*(\d+)", text)]
    return (math.gcd(*found) or 1) if len(found) == sets and found else 1


def zero_bits(v) -> bool:
    """``v`` is an ``arith.constant`` zero with every bit clear: an integer 0 or a float
    +0.0, a scalar or the splat of one.  Not -0.0: the one test of the front end's
    paddings, each of which stands for what a read past the end of a range-checked buffer
    returns, zero bits; -0.0 is another value (``-0.0 + -0.0`` is -0.0, ``1 / -0.0`` is
    -inf), so a kernel padded with it would be rewritten into another kernel."""
    if isinstance(v.owner, ir.Block) or as_operation(v.owner).name != "arith.constant":
        return False
    a = as_operation(v.owner).attributes["value"]
    if isinstance(a, ir.DenseElementsAttr):
        if not ir.DenseElementsAttr(a).is_splat:
            return False
        a = ir.DenseElementsAttr(a).get_splat_value()
    if isinstance(a, ir.IntegerAttr):
        return ir.IntegerAttr(a).value == 0
    return isinstance(a, ir.FloatAttr) and math.copysign(1.0, ir.FloatAttr(a).value) == 1.0 \
        and ir.FloatAttr(a).value == 0.0


def splat_mask(v) -> bool | None:
    """What every lane of ``v`` is when it is an ``arith.constant`` splat of ``true`` or
    ``false`` (an ``i1`` vector: a mask with every lane enabled, or none); else None."""
    if isinstance(v.owner, ir.Block) or as_operation(v.owner).name != "arith.constant":
        return None
    a = as_operation(v.owner).attributes["value"]
    if not isinstance(a, ir.DenseElementsAttr) or not ir.DenseElementsAttr(a).is_splat:
        return None
    return {"dense<true>": True, "dense<false>": False}.get(str(a).split(" :")[0])


def signed_bounds(loop) -> tuple[int, int, int] | None:
    """(lower bound, upper bound, step) of ``loop`` (an ``scf.for``) read signed when all
    three are constants (:func:`constant_int`), else None."""
    bounds = tuple(constant_int(v) for v in list(loop.operands)[:3])
    return None if None in bounds else bounds


def constant_bounds(loop) -> tuple[int, int, int] | None:
    """:func:`signed_bounds` of ``loop``, but None for a loop that compares its bounds
    unsigned (``scf.for unsigned``) when one reads < 0 signed: every loop this gives bounds
    of runs the iterations they count signed, and an unsigned loop whose count differs is
    one whose bounds no caller knows (it refuses them, or takes them as known only at run
    time, where the front end refuses an unsigned loop)."""
    bounds = signed_bounds(loop)
    if bounds is not None and "unsignedCmp" in loop.attributes and min(bounds[:2]) < 0:
        return None
    return bounds


def constant_trips(loop) -> int | None:
    """The iterations ``loop`` (an ``scf.for``) runs when its bounds are constants and its
    step positive, else None (a loop whose step is not positive never ends; callers that
    accept the loop refuse that themselves)."""
    bounds = constant_bounds(loop)
    if bounds is None or bounds[2] <= 0:
        return None
    lb, ub, step = bounds
    return max(0, -(-(ub - lb) // step))


def workgroup_id_bound(op) -> int | None:
    """The bound ``op`` (one of :data:`WORKGROUP_ID_OPS`) states on its workgroup id (the
    id is below it): the ``upper_bound`` of ``hal.interface.workgroup.id`` and
    ``gpu.block_id``, the end of the ``range`` of a ``rocdl.workgroup.id.*`` starting at 0
    or above; None without one.  A bound below 1 admits no workgroup (no id is below it): an
    IRError at the op."""
    if op.name.startswith("rocdl."):
        r = constant_range(op.attributes["range"]) if "range" in op.attributes else None
        bound, name = (r[1] if r is not None and r[0] >= 0 else None), "range"
    else:
        bound, name = checked_int_attr(op, "upper_bound"), "upper_bound"
    if bound is not None and bound < 1:
        raise IRError(op, f"'{op.name}' op: its {name} bounds the workgroup id below "
                          f"{bound}, which no id is (a grid has at least workgroup 0)")
    return bound


def checked_int_attr(op, name: str, default: int | None = None) -> int | None:
    """The integer attribute ``name`` of ``op`` (``default`` when absent; :func:`int_attr`
    requires it); an IRError at the op when it is another kind of attribute (never read
    from its printed text)."""
    if name not in op.attributes:
        return default
    value = int_value(op.attributes[name])
    if value is None:
        raise IRError(op, f"'{op.name}' op: attribute '{name}' = {op.attributes[name]} is not "
                          f"an integer")
    return value


def main_trips(loop) -> int | None:
    """How many times a pipelined kernel's main loop (from ``lb + step`` to ``ub``, by
    ``step``; the first iteration is the prologue's) runs when ``loop``'s bounds are
    constants (:func:`constant_int`), else None."""
    lb, ub, step = (constant_int(v) for v in list(loop.operands)[:3])
    if lb is None or ub is None or not step or step < 0:
        return None
    return max(0, -(-(ub - lb - step) // step))
