"""Per-lane LDS byte addresses of a complete kernel's DS accesses, from its own index math.

:func:`lds_accesses` parses the MLIR :func:`pipeline_mlir.kernel.gemm.kernel_mlir` writes and
evaluates the index of every tagged LDS access with the per-lane evaluator the front end
uses (:class:`pipeline_mlir.analysis.loop_eval.Evaluator`), for every thread of the
workgroup at once, and returns one :class:`~pipeline_mlir.kernel.lds_data.LdsAccess` per
access, in the order the kernel lists them:

* a fragment read (``vector.load`` of a workgroup buffer tagged ``sched.frag_load``): one
  ``ds_read`` per load, lane ``l`` reading ``width`` bytes at its own address;
* a global->LDS load (``amdgpu.gather_to_lds`` tagged ``sched.global_load``): one
  ``buffer_load ... lds``.  The hardware writes lane ``l``'s ``width`` bytes at
  ``M0 + l * width``, M0 being the wave-uniform LDS address (LLVM takes lane 0's value),
  so its addresses are lane 0's plus ``l * width``.

Addresses are bytes from the start of the kernel's LDS: the workgroup buffers (the
kernel's workgroup attributions) are laid out in declaration order, each at the sum of the
sizes before it.  LLVM may place them differently; banks only see an address modulo 256
bytes (64 banks of 4 bytes), so the layout does not change any bank as long as every
buffer size is a multiple of 256 bytes, which :func:`lds_accesses` checks (a buffer of
another size is named in the result's ``notes``).

The evaluator runs with workgroup ids 0 and without sample values for launch-time values:
an LDS address that depends on a function argument, the loop variable, a loaded value or
an op the evaluator does not model is an :class:`~pipeline_mlir.kernel.lds_data.
LdsAccessError` naming the value.  Values and buffers are named as the kernel's text names
them (the SSA name at the value's source location).

The result is plain data: callers hand it (or :func:`kernel_lds` as a function of the
kernel) to the LDS bank model (:mod:`pipeline_mlir.sim.lds_banks`), which imports no MLIR.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.ir_facts import element_bytes, memory_space, segments
from pipeline_mlir.analysis.loop_eval import Evaluator, Unevaluable
from pipeline_mlir.analysis.operand_fills import operand_feeds
from pipeline_mlir.dialect.bindings import build_context, ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.kernel.lds_data import KernelLds, LdsAccess, LdsAccessError

#: the tag attribute of each kind of access, and the access's kind in the result
_TAGS = {"vector.load": ("sched.frag_load", "read"),
         "amdgpu.gather_to_lds": ("sched.global_load", "dma")}
_NAME = re.compile(r"%[\w.$-]+(?::\d+)?")


def kernel_lds(kernel) -> KernelLds:
    """The LDS accesses of ``kernel`` (a :class:`~pipeline_mlir.kernel.gemm.GemmKernel`)."""
    # (the kernel builders only here: the lowering reads its loop's LDS, loop_reads)
    from pipeline_mlir.kernel.gemm_mlir import kernel_mlir
    from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir

    text = mx_kernel_mlir(kernel) if kernel.geometry.is_mx else kernel_mlir(kernel)
    return lds_accesses(text, kernel.threads)


def lds_accesses(mlir_text: str, threads: int) -> KernelLds:
    """Every tagged LDS access of the kernel in ``mlir_text`` (see the module doc)."""
    names = _SourceNames(mlir_text)
    with build_context():       # (a pooled context: a new one loads every dialect again)
        try:
            module = ir.Module.parse(mlir_text)
        except Exception as e:   # the bindings' MLIRError
            raise LdsAccessError(f"LDS addresses: the kernel's MLIR does not parse: "
                                 f"{e}") from None
        ops = list(_walk(module.operation))
        buffers, elem, notes = _buffers(ops, names)
        ev = Evaluator((threads, 1, 1), workgroup_id=0, launch_values=False)
        out: list[LdsAccess] = []
        parts: dict[tuple, int] = {}
        for op in ops:
            if op.name not in _TAGS or _TAGS[op.name][0] not in op.attributes:
                continue
            out.append(_evaluated(op, ev, buffers, elem, names, parts))
        by_name = {names.of(v): (base, size) for v, (base, size) in buffers.items()}
    return KernelLds(out, by_name, threads, notes)


def loop_reads(loop, kernel, threads: int) -> KernelLds:
    """The fragment reads of the tagged loop ``loop`` (an ``scf.for`` op of the kernel
    function ``kernel``; each workgroup buffer's addresses from its own first byte) as
    :func:`lds_accesses` reads them, for ``threads`` threads: what the ISA check holds each
    ``ds_read`` of the built code against (:mod:`pipeline_mlir.isa.frag_addresses`).  An
    :class:`~pipeline_mlir.kernel.lds_data.LdsAccessError` names what is not evaluated
    (an address of the loop's variable, a buffer that is no workgroup attribution)."""
    buffers, elem = _loop_buffers(kernel)
    names = _BufferNames(buffers)
    ev = Evaluator((threads, 1, 1), workgroup_id=0, launch_values=False)
    out: list[LdsAccess] = []
    parts: dict[tuple, int] = {}
    loads = [op for op in _walk(loop)
             if op.name == "vector.load" and _TAGS[op.name][0] in op.attributes]
    for op in loads:
        out.append(_evaluated(op, ev, buffers, elem, names, parts))
    # which MFMA operand bytes each fills, of which MFMA (which planned read a ds_read is,
    # by where its destination registers go)
    out = [replace(a, fills=frozenset((x.operand, x.mapping) for x in f), feeds=f)
           for a, f in zip(out, operand_feeds(loop, loads))]
    return KernelLds(out, {names.of(v): b for v, b in buffers.items()}, threads)


def _loop_buffers(kernel) -> tuple[dict, dict]:
    """The workgroup buffers of function ``kernel`` (its workgroup attributions and its
    ``memref.alloc`` s of workgroup memory), each at byte 0 (where LLVM places it is
    LLVM's: the addresses are the buffer's own bytes): value -> (0, size), value -> bytes
    per element."""
    buffers: dict = {}
    elem: dict = {}
    if not kernel.regions or not kernel.regions[0].blocks:
        return {}, {}
    body = kernel.regions[0].blocks[0]
    values = list(body.arguments) + [_op(o).results[0] for o in body.operations
                                     if _op(o).name == "memref.alloc"]
    for v in values:
        if not isinstance(v.type, ir.MemRefType) or memory_space(v.type) != "workgroup":
            continue
        t = ir.MemRefType(v.type)
        try:
            elem[v], size = _sizes(t)
        except ValueError:
            continue            # an access of it is one of no workgroup buffer: named then
        if t.has_static_shape:
            buffers[v] = (0, size)
    return buffers, elem


def _evaluated(op, ev: Evaluator, buffers: dict, elem: dict, names: "_SourceNames",
               parts: dict) -> LdsAccess:
    """:func:`_access` of ``op``, what the evaluator cannot evaluate an
    :class:`LdsAccessError` naming it."""
    try:
        return _access(op, ev, buffers, elem, names, parts)
    except Unevaluable as e:
        if e.value is None:
            raise LdsAccessError(f"LDS address: {e}") from None
        raise LdsAccessError(_unevaluable(e, names)) from None
    except IRError as e:
        raise LdsAccessError(f"LDS address: {e}") from None


def _walk(op):
    """``op`` and every op nested in it, in the order the text lists them."""
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _walk(_op(inner))


def _buffers(ops, names: "_SourceNames"):
    """The workgroup buffers of the kernel's functions: value -> (base byte, size), value ->
    bytes per element, and the notes on sizes that are not multiples of 256 bytes."""
    buffers: dict = {}
    elem: dict = {}
    notes: list[str] = []
    base = 0
    for op in ops:
        if op.name not in ("gpu.func", "func.func") or not op.regions[0].blocks:
            continue
        for arg in op.regions[0].blocks[0].arguments:
            if not isinstance(arg.type, ir.MemRefType) or \
                    memory_space(arg.type) != "workgroup":
                continue
            t = ir.MemRefType(arg.type)
            try:
                elem[arg], size = _sizes(t)
            except ValueError:
                raise LdsAccessError(f"LDS buffer {names.of(arg)}: element type "
                                     f"{t.element_type} has no known size") from None
            buffers[arg] = (base, size)
            if size % 256:
                notes.append(f"LDS buffer {names.of(arg)} is {size} bytes, not a multiple "
                             f"of 256: the buffers' real placement may shift its banks")
            base += size
    return buffers, elem, notes


def _sizes(t) -> tuple[int, int]:
    """(bytes per element, bytes) of memref type ``t`` (ValueError: an element of no known
    size)."""
    elem = element_bytes(t)
    size = elem
    for d in t.shape:
        size *= d
    return elem, size


def _access(op, ev: Evaluator, buffers: dict, elem: dict, names: "_SourceNames",
            parts: dict) -> LdsAccess:
    """The :class:`LdsAccess` of one tagged op; ``parts`` counts the instructions of each
    tagged group so far."""
    tag_name, kind = _TAGS[op.name]
    if kind == "read":
        memref, indices = op.operands[0], list(op.operands)[1:]
        vector = ir.VectorType(op.results[0].type)
    else:
        _src, _src_idx, (memref,), indices = segments(op)
        vector = ir.VectorType(ir.TypeAttr(op.attributes["transferType"]).value)
    view = ev.view(memref)
    if view.root not in buffers:
        raise LdsAccessError(f"LDS access of {names.of(view.root)}, which is not a "
                             f"workgroup buffer")
    width = element_bytes(vector)
    for d in vector.shape:
        width *= d
    element = view.element([ev.value(i) for i in indices])
    if kind == "dma":     # lane 0's address (M0) plus the lane's place
        element = element[(ev.tid // WAVE_SIZE) * WAVE_SIZE]
    addr = buffers[view.root][0] + element * elem[view.root]
    if kind == "dma":
        addr = addr + (ev.tid % WAVE_SIZE) * width
    tag = _tag(op.attributes[tag_name])
    key = (kind, tag.get("id", -1))
    part = parts.get(key, 0)
    parts[key] = part + 1
    return LdsAccess(kind, tag.get("channel", -1), tag.get("stage", -1), tag.get("subtile", -1),
                     tag.get("id", -1), part, names.of(view.root), width, addr)


def _tag(attr) -> dict[str, int]:
    """The integer entries of a ``sched.*`` tag dictionary."""
    d = ir.DictAttr(attr)
    out = {}
    for i in range(len(d)):
        entry = d[i]
        if isinstance(entry.attr, ir.IntegerAttr):
            out[entry.name] = ir.IntegerAttr(entry.attr).value
    return out


def _unevaluable(e: Unevaluable, names: "_SourceNames") -> str:
    v = e.value
    if isinstance(v.owner, ir.Block):
        return (f"LDS address: value {names.of(v)} has no definition the address evaluation "
                f"knows (a function argument or loop variable)")
    return (f"LDS address: {names.of(v)} is defined by '{_op(v.owner).name}', which the "
            f"address evaluation does not model")


class _BufferNames:
    """Names of a function's workgroup buffers by their place among them (``workgroup
    buffer 0`` ...: a value's own name costs a printing of the function); any other
    value as :class:`_SourceNames` names it (an error's)."""

    def __init__(self, buffers: dict) -> None:
        self.own = {v: f"workgroup buffer {k}" for k, v in enumerate(buffers)}

    def of(self, value) -> str:
        return self.own.get(value) or _SourceNames("").of(value)


class _SourceNames:
    """The SSA name the kernel's text gives a value: the name at the value's source
    location (parsed IR keeps locations, not names)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def of(self, value) -> str:
        try:
            return self._name(value)
        except (ValueError, IndexError):   # no file location, or not a name there
            return value.get_name()

    def _name(self, value) -> str:
        owner = value.owner
        if isinstance(owner, ir.Block):
            loc = ir.FileLineColLoc(ir.BlockArgument(value).location)
            m = _NAME.match(self.lines[loc.start_line - 1], loc.start_col - 1)
            if m is None:
                raise ValueError("no name at the argument's location")
            return m.group(0)
        op = _op(owner)
        loc = ir.FileLineColLoc(op.location)
        head = self.lines[loc.start_line - 1][:loc.start_col - 1]
        found = _NAME.findall(head)
        if not found:
            raise ValueError("no name before the op")
        index = list(op.results).index(value)
        if len(found) == 1 and len(op.results) > 1:
            return f"{found[0].split(':')[0]}#{index}"
        return found[index]
