"""Facts about the integer values of LLVM-dialect IR that the integer analyses read.

:func:`defining_op` (None for a block argument), :func:`const_int` (the value of an
``llvm.mlir.constant`` integer), :func:`int_width` (the bit width of an integer type, None
for any other type) and :func:`overflow_flags` (an integer op's ``nsw`` / ``nuw`` flags, read
from the op's properties, never from its printed text).
"""

from __future__ import annotations

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

