"""Facts about ops and the kernel around a loop that every front-end reader asks: where an op
is (for messages), the op defining a value and what it is computed from, its memory
effects, the enclosing kernel function and its workgroup size; and the builders of a
range-checked view of a global buffer the front end's copies read and of a zero vector."""

from __future__ import annotations


from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import location_text

def at(op) -> str:
    """Where ``op`` is, for a message (``file:line:col``, or ``line L:C`` for a buffer)."""
    text = location_text(op.location)[0]
    return "line " + text[2:] if text.startswith("-:") else text


def describe(op) -> str:
    return f"'{op.name}' op at {at(op)}"


# ---------------------------------------------------------------------------------------------
# what defines a value
# ---------------------------------------------------------------------------------------------

def owner(v, name: str):
    """The op defining ``v`` if it is a ``name``, else None."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    return o if o.name == name else None


def depends(v, values: set, seen: set | None = None) -> bool:
    """Whether ``v`` is computed from any of ``values`` (through the ops defining it)."""
    seen = set() if seen is None else seen
    if v in values:
        return True
    if isinstance(v.owner, ir.Block) or v in seen:
        return False
    seen.add(v)
    return any(depends(x, values, seen) for x in _op(v.owner).operands)


# ---------------------------------------------------------------------------------------------
# side effects
# ---------------------------------------------------------------------------------------------

def effects(op) -> list | None:
    """[(kind, value)] with kind 'read'/'write'/'alloc'/'free', from the op's
    MemoryEffectOpInterface; None when the op does not describe its effects (unknown)."""
    try:
        iface = ir.MemoryEffectsOpInterface(op)
    except (ValueError, TypeError, RuntimeError):
        return None
    out = []
    for e in iface.get_effects():
        kind = ("read" if e.effect == ir.MemoryEffect.Read else
                "write" if e.effect == ir.MemoryEffect.Write else
                "alloc" if e.effect == ir.MemoryEffect.Allocate else "free")
        out.append((kind, e.value))
    return out


def is_pure(op) -> bool:
    """No memory effects according to MLIR (ops with regions: none here)."""
    if len(op.regions):
        return False
    e = effects(op)
    return e is not None and not e


def next_op(op):
    """The op after ``op`` in its block (a loop always has one: the block's terminator)."""
    ops = [_op(o) for o in op.block.operations]
    return ops[ops.index(op) + 1]


# ---------------------------------------------------------------------------------------------
# the kernel around a loop
# ---------------------------------------------------------------------------------------------

def kernel_of(loop):
    o = _op(loop).parent
    while o is not None and _op(o).name not in ("gpu.func", "func.func"):
        o = _op(o).parent
    return _op(o) if o is not None else None


def zero_vector(t):
    """A new ``arith.constant`` of vector type ``t``, every element 0 (integer or float), at
    the current insertion point."""
    et = ir.VectorType(t).element_type
    z = ir.IntegerAttr.get(et, 0) if isinstance(et, ir.IntegerType) else ir.FloatAttr.get(et, 0.0)
    return B.arith.constant(t, ir.DenseElementsAttr.get_splat(ir.VectorType(t), z))


def fat_raw_view(buf, point, loc, cache: dict):
    """``buf`` (a global memref) as a fat raw buffer: an ``amdgpu.fat_raw_buffer_cast``
    with ``resetOffset`` (its range the buffer's), inserted at ``point`` with location
    ``loc`` once per buffer (``cache``: buffer -> cast); shape, element type and layout
    kept."""
    if buf not in cache:
        t = ir.MemRefType(buf.type)
        ft = ir.MemRefType.get(t.shape, t.element_type, t.layout, ir.Attribute.parse(
            "#amdgpu.address_space<fat_raw_buffer>"))
        with point, loc:
            cache[buf] = B.amdgpu.fat_raw_buffer_cast(buf, reset_offset=True, results=[ft])
    return cache[buf]

