"""Typed reads of the attributes and types the front end and the passes decide on.

A decision is never taken on printed text (``"workgroup" in str(type)``, a regular expression
over ``str(attr)``): a string attribute that spells the text, or an unrelated attribute that
contains it, would pass for it, and another spelling of the same attribute would not. The
bindings have no Python class for the dialect attributes read here (``#gpu.dim<x>``,
``#gpu.address_space<workgroup>``, ``#hal.descriptor_type<...>``,
``#iree_codegen.workgroup_mapping<x>``, ``#gpu.block<x>``), so each is compared with the
attribute itself, built in the same context: attributes are uniqued, so equality is identity of meaning, whatever
the spelling it was written in.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.isa.commas import split_top
from pipeline_mlir.dialect.ir_io import IRError

#: x, y, z
DIMS = ("x", "y", "z")


#: while :func:`parsed_once` is entered, a memory space attribute -> the name
#: :func:`memory_space_name` gave it
_PARSED: list[dict] = []


@contextmanager
def parsed_once():
    """Within it, each memory space attribute is named once (the front end asks for the
    memory space of thousands of values per build)."""
    _PARSED.append({})
    try:
        yield
    finally:
        _PARSED.pop()


#: ``[context, {text: attribute}]``: the attributes :func:`_attr` parsed in the context it
#: was last asked of (a build reads the same few texts for every memref type and mapping;
#: attributes are immutable and uniqued).  An attribute keeps its context alive, so only
#: the last context's are kept.
_LAST: list = [None, {}]


def _attr(text: str, context) -> object | None:
    """The attribute ``text`` in ``context``; None when its dialect is not there (not
    remembered: asked again, the parse is tried again)."""
    if _LAST[0] is not context:
        _LAST[:] = [context, {}]
    table = _LAST[1]
    built = table.get(text)
    if built is None:
        try:
            built = table[text] = ir.Attribute.parse(text, context)
        except ir.MLIRError:
            return None     # (not kept: a dialect loaded later may parse it)
    return built


def _index(attr, texts: tuple[str, ...]) -> int | None:
    """The position of the attribute among those ``texts`` build, or None."""
    for i, text in enumerate(texts):
        built = _attr(text, attr.context)
        if built is not None and attr == built:
            return i
    return None


#: an attribute of each class :func:`is_kind` tells (their fields have no Python accessor: the
#: caller parses them from the printed form, once the class is known)
KINDS = {
    "translation_info": "#iree_codegen.translation_info<pipeline = "
                        "#iree_gpu.pipeline<BaseLowering> workgroup_size = [64, 1, 1]>",
    "constant_range": "#llvm.constant_range<i32, 0, 1>",
    "pipeline_layout": "#hal.pipeline.layout<constants = 1, bindings = "
                       "[#hal.pipeline.binding<storage_buffer>]>",
    "pipeline_binding": "#hal.pipeline.binding<storage_buffer>",
}
#: the most push constants a ``#hal.pipeline.layout`` may declare (IREE's HIP runtime
#: pushes at most 64 per dispatch)
MAX_PUSH_CONSTANTS = 64


def is_kind(attr, kind: str) -> bool:
    """Whether ``attr`` is of the attribute class of ``KINDS[kind]`` (its TypeID: a string
    attribute that spells one is not)."""
    example = _attr(KINDS[kind], attr.context)
    return example is not None and attr.typeid == example.typeid


#: the fields of a printed ``#llvm.constant_range<iN, lo, hi>``
_RANGE = re.compile(r"^#llvm\.constant_range<i\d+,\s*(-?\d+),\s*(-?\d+)>$")


def constant_range(attr) -> tuple[int, int] | None:
    """``(lo, hi)`` of an ``#llvm.constant_range`` (the values ``lo <= x < hi``; a range
    with ``lo >= hi`` wraps or is full, and is None too), else None.  The attribute has no
    Python accessor: its fields are read from its printed form once its class is known."""
    if not is_kind(attr, "constant_range"):
        return None
    m = _RANGE.match(str(attr))
    return (int(m.group(1)), int(m.group(2))) if m and int(m.group(1)) < int(m.group(2)) \
        else None


def pipeline_layout(attr, op) -> tuple[int, int] | None:
    """(push constants, bindings) of IREE's ``#hal.pipeline.layout<constants = N, bindings =
    [...], flags = F>`` (``constants`` may be left out: 0), the ``layout`` attribute of
    ``op``; None for an attribute of another class.  The attribute has no Python accessor:
    its fields are parsed from its printed form, each binding checked to be a
    ``#hal.pipeline.binding``; a layout this cannot read, or with a count of constants
    outside 0 .. :data:`MAX_PUSH_CONSTANTS`, is an error at ``op`` naming the field."""
    if not is_kind(attr, "pipeline_layout"):
        return None
    text = str(attr)
    head = "#hal.pipeline.layout<"

    def bad(field: str, why: str):
        return IRError(op, f"'{op.name}' op: its layout's '{field}' {why}: {text}")
    if not text.startswith(head) or not text.endswith(">"):
        raise bad("layout", "is not printed as #hal.pipeline.layout<...>")
    fields = {}
    for part in _split_top(text[len(head):-1]):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in ("constants", "bindings", "flags") or key in fields:
            raise bad(key or part, "is not a field of a layout the front end reads "
                                   "(constants, bindings, flags; each once)")
        fields[key] = value.strip()
    constants = fields.get("constants", "0")
    if not re.fullmatch(r"-?\d+", constants) or \
            not 0 <= int(constants) <= MAX_PUSH_CONSTANTS:
        raise bad("constants", f"is {constants}, not a count of 0 to {MAX_PUSH_CONSTANTS} "
                               f"push constants")
    items = fields.get("bindings")
    if items is None or not (items.startswith("[") and items.endswith("]")):
        raise bad("bindings", f"is {items}, not a list of #hal.pipeline.binding")
    bindings = _split_top(items[1:-1])
    for b in bindings:
        parsed = _attr(b, attr.context)
        if parsed is None or not is_kind(parsed, "pipeline_binding"):
            raise bad("bindings", f"holds {b}, not a #hal.pipeline.binding")
    return int(constants), len(bindings)


def _split_top(text: str) -> list[str]:
    """``text`` split at its commas outside brackets and strings, each part stripped (no
    part for an empty ``text``)."""
    return split_top(text, "<[({", strings=True)


def int_value(attr) -> int | None:
    """The value of an integer (or index) attribute; None for any other attribute."""
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def dimension(attr) -> int | None:
    """0, 1, 2 of a dimension: ``#gpu.dim<x|y|z>`` (the gpu ops) or an integer 0..2 (the HAL
    ops' ``dimension = 1 : index``); None for anything else."""
    n = int_value(attr)
    if n is not None:
        return n if 0 <= n < len(DIMS) else None
    return _index(attr, tuple(f"#gpu.dim<{d}>" for d in DIMS))


#: the attributes that map a dimension of an ``scf.forall`` to a workgroup id (x, y, z): IREE's
#: and upstream MLIR's (the GPU dialect's), one meaning
WORKGROUP_MAPPINGS = ("#iree_codegen.workgroup_mapping<{}>", "#gpu.block<{}>")


def _mapping_form(attr) -> tuple[int, int] | None:
    """(form in :data:`WORKGROUP_MAPPINGS`, dimension) of a workgroup mapping; None else."""
    for k, form in enumerate(WORKGROUP_MAPPINGS):
        d = _index(attr, tuple(form.format(d) for d in DIMS))
        if d is not None:
            return k, d
    return None


def workgroup_mapping(attr) -> int | None:
    """0, 1, 2 of a mapping to workgroup id x, y, z: IREE's
    ``#iree_codegen.workgroup_mapping<x|y|z>`` or upstream's ``#gpu.block<x|y|z>``; None for
    anything else."""
    form = _mapping_form(attr)
    return None if form is None else form[1]


def workgroup_forall_problem(op) -> str | None:
    """Why ``scf.forall`` ``op`` is not a loop over workgroups (each dimension its own
    workgroup id, all in one producer's terms), said after "'scf.forall' op"; None when it
    is one."""
    if "mapping" not in op.attributes:
        return ("has no mapping: it is not distributed (each workgroup runs all its "
                "iterations, one after another)")
    mapping = op.attributes["mapping"]
    forms = [_mapping_form(m) for m in ir.ArrayAttr(mapping)]
    if not forms or None in forms:
        return f"maps to {mapping}, not to workgroups"
    if len({k for k, _ in forms}) > 1:
        return (f"maps to {mapping}, which mixes IREE's #iree_codegen.workgroup_mapping and "
                f"upstream's #gpu.block: a loop over workgroups says its ids in one of them")
    dims = [DIMS[d] for _, d in forms]
    if len(set(dims)) != len(dims):
        return (f"maps two of its dimensions to the same workgroup id ({', '.join(dims)}); "
                f"each must have its own")
    return None


def _memref_in(t, space_text: str) -> bool:
    """A memref whose memory space attribute is ``space_text`` (compared as attributes)."""
    if not isinstance(t, ir.MemRefType):
        return False
    space = ir.MemRefType(t).memory_space
    return space is not None and _index(space, (space_text,)) == 0


def is_workgroup_memref(t) -> bool:
    """A memref in workgroup memory (LDS): memory space ``#gpu.address_space<workgroup>``."""
    return _memref_in(t, "#gpu.address_space<workgroup>")


def is_storage_buffer(t) -> bool:
    """A memref in ``#hal.descriptor_type<storage_buffer>`` (a binding IREE did not cast):
    its memory space attribute, not its printed type."""
    return _memref_in(t, "#hal.descriptor_type<storage_buffer>")


def is_hal_descriptor_space(attr) -> bool:
    """``#hal.descriptor_type<storage_buffer>`` or ``<uniform_buffer>`` (a binding's memory
    space)."""
    return attr is not None and _index(attr, ("#hal.descriptor_type<storage_buffer>",
                                              "#hal.descriptor_type<uniform_buffer>")) is not None


def bool_values(attr) -> list[bool] | None:
    """The booleans of an array of ``BoolAttr`` (``in_bounds = [true, false]``); None when an
    element is anything else."""
    out = []
    for a in ir.ArrayAttr(attr):
        if not isinstance(a, ir.BoolAttr):
            return None
        out.append(ir.BoolAttr(a).value)
    return out


def is_float8(t) -> bool:
    """One of the builtin 8-bit float types (``f8E4M3FN``, ``f8E5M2``, ...)."""
    return any(isinstance(t, cls) for name, cls in vars(ir).items()
               if name.startswith("Float8") and name.endswith("Type") and isinstance(cls, type))


#: the memory spaces :func:`memory_space_name` names, by the attribute that says them
_SPACES = (("#gpu.address_space<workgroup>", "workgroup"),
           ("#gpu.address_space<global>", "global"),
           ("#gpu.address_space<private>", "private"),
           ("#amdgpu.address_space<fat_raw_buffer>", "fat_raw_buffer"),
           ("#hal.descriptor_type<storage_buffer>", "global"))
#: AMDGPU's address space of LDS (an integer memory space, as LLVM numbers them)
LDS_ADDRESS_SPACE = 3


def memory_space_name(t) -> str:
    """``workgroup``, ``global``, ``fat_raw_buffer`` or ``private`` for a memref type whose
    memory space is one of :data:`_SPACES` (none: ``global``; the integer 3: ``workgroup``);
    the printed space otherwise (for messages: it names no known space)."""
    space = ir.MemRefType(t).memory_space
    if space is None:
        return "global"
    table = _PARSED[-1] if _PARSED else None    # (within parsed_once: by the attribute)
    name = None if table is None else table.get(space)
    if name is None:
        if int_value(space) == LDS_ADDRESS_SPACE:
            name = "workgroup"
        else:
            i = _index(space, tuple(text for text, _ in _SPACES))
            name = _SPACES[i][1] if i is not None else str(space)
        if table is not None:
            table[space] = name
    return name
