"""Facts about the integer values of LLVM-dialect IR that the integer analyses read.

:func:`defining_op` (None for a block argument), :func:`const_int` (the value of an
``llvm.mlir.constant`` integer), :func:`int_width` (the bit width of an integer type, None
for any other type), :func:`overflow_flags` (an integer op's ``nsw`` / ``nuw`` flags, read
from the op's properties, never from its printed text), and how a one-index
``llvm.getelementptr`` is read (:func:`gep_index`, :func:`gep_element_bytes`: by
``sched-buffer-soffset`` and by the per-lane evaluator alike).
"""

from __future__ import annotations

import math

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation


def defining_op(value):
    """The op that defines ``value``, None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else as_operation(owner)


def const_int(value) -> int | None:
    op = defining_op(value)
    if op is None or op.name != "llvm.mlir.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


def overflow_flags(op) -> int:
    """The ``overflowFlags`` of an LLVM integer op (``nsw`` = 1, ``nuw`` = 2; 0 when it has
    none).  The flags are a property of the op, which the bindings do not list among its
    attributes: they are read from the op's generic form, the property dictionary
    ``<{...}>`` that follows the operands, parsed as an attribute (a discardable attribute
    that merely mentions ``nsw`` is not read)."""
    text = op.get_asm(print_generic_op_form=True)
    start = text.find(") <{", text.find('"' + op.name + '"('))
    if start < 0:
        return 0
    props = ir.DictAttr(ir.Attribute.parse(_balanced(text, start + 3)))
    if "overflowFlags" not in props:
        return 0
    return ir.IntegerAttr(props["overflowFlags"]).value


def _balanced(text: str, start: int) -> str:
    """The ``{...}`` that opens at ``text[start]``, its nested braces and quoted strings
    included."""
    depth, quoted, i = 0, False, start
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    raise ValueError(f"unbalanced braces in {text!r}")


def int_width(value) -> int | None:
    t = value.type
    return t.width if isinstance(t, ir.IntegerType) else None



#: a GEP's ``rawConstantIndices`` entry for a dynamic index
GEP_DYNAMIC_INDEX = -2147483648


def gep_index(gep) -> tuple | None:
    """The one index of a one-index ``llvm.getelementptr``: ``(value, None)`` when it is
    dynamic, ``(None, constant)`` when it is constant; None for any other GEP."""
    raw = list(ir.DenseI32ArrayAttr(gep.attributes["rawConstantIndices"]))
    dyn = list(gep.operands)[1:]
    if len(raw) != 1:
        return None
    if raw == [GEP_DYNAMIC_INDEX] and len(dyn) == 1:
        return dyn[0], None
    if not dyn and raw[0] != GEP_DYNAMIC_INDEX:
        return None, raw[0]
    return None


def gep_element_bytes(gep) -> int | None:
    """The byte size of a GEP's element type (integers, floats, vectors of them), None for
    any other type."""
    t = ir.TypeAttr(gep.attributes["elem_type"]).value
    count = 1
    if isinstance(t, ir.VectorType):
        count, t = math.prod(t.shape), t.element_type
    width = t.width if isinstance(t, (ir.IntegerType, ir.FloatType)) else None
    if width is None or width % 8:
        return None
    return count * width // 8
