"""What a matmul dispatch stores to its output, read from its ops (for ``--emulate``).

IREE fuses element-wise work into a matmul's dispatch: a bias added, a ``relu``, a
``truncf`` to bf16/f16, an accumulation into the C it reads (``C += A x B^T``).  The
K-loop's results reach the output binding through vector shape ops, element-wise ``arith``
ops, reads of other bindings and round trips through workgroup memory; :func:`trace_output`
follows the value every write of the output binding stores back to its sources and returns
it as a tree of :class:`Node`\\ s:

* ``acc``: a result of the K-loop, whose ``init`` (the loop's initial accumulator) is a tree
  too (a zero constant, a read of C, or a read of another binding: IREE's ``C += A x B``
  with an epilogue fused reads the C it accumulates into from one binding and writes
  another);
* ``read``: a read of a global binding (by binding index);
* ``const``: a splat constant; ``add``, ``sub``, ``mul``, ``max``, ``min``: element-wise
  ``arith`` ops (float, and the integer ones of an i32 C: ``addi``, ``maxsi``, ...);
  ``trunc``: a ``truncf`` (to ``type``).

Shape ops (``vector.shape_cast``, ``transpose``, ``broadcast``, ``extract``, ``insert``,
their strided forms, ...) move elements but compute nothing: their value is the one tree
their non-constant operands share; operands of different trees are refused (the emulator
checks the result element by element, so the tree says what every element is).  A read of
workgroup or private memory is the value the last write into that allocation before it
(outside the K-loop) stores, and the writes beside it in its block (no read of the
allocation between) store the same (or C's rows and constant rows past its last:
:mod:`~pipeline_mlir.frontend.padded_rows`; or, in private memory, the writes whose
elements it reads last store the same, thread by thread:
:mod:`~pipeline_mlir.frontend.private_provenance`), else the read is refused (the late form
writes C's rows one by one: each is read, not the last alone): IREE's epilogues stage
whole tiles through workgroup memory, and its 8-wave ones the accumulators through
private memory, a slice per iteration of a loop; a ``memref.copy`` writes what its source holds (IREE copies the rows of a partial
edge tile of C from the private accumulators so), and an ``iree_linalg_ext.map_load`` of a
binding into private memory is a read of that binding when its region, evaluated for each
element, reads a strided view of it (:func:`~pipeline_mlir.frontend.gather_order.check_in_order`; IREE gathers a bias of an edge
tile so; a reversed or scrambled gather is refused at the op; a square C's bias read that
way is refused where telling which side of C it follows would need it) and every
workgroup's gather is the first one's moved with its tile of C (:func:`_tie_gather`);
IREE's late form of that gather, an ``scf.if`` per element (in bounds the element, else a
pad), is a read of the binding when :mod:`~pipeline_mlir.frontend.guarded_read` proves it
one; an ``scf.if`` on a constant ``false`` is what its else-branch yields (its then-branch
never runs), and an ``arith.select`` of a loaded row and a constant pad (the late form's
masked read of C's edge tile) a read of the binding when
:mod:`~pipeline_mlir.frontend.select_read` proves its mask exactly the row's in-bounds
elements.  A loop after the K-loop that gathers elements into a carried vector (the late
form's) is a shape op over its initial value and what its body yields.
Anything else on the way is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the op,
naming it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from pipeline_mlir.analysis.ir_facts import encloses
from pipeline_mlir.analysis.loop_eval import memory_space
from pipeline_mlir.analysis.output_tiles import KernelFacts
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops
from pipeline_mlir.frontend.bias_axis import follows_axis
from pipeline_mlir.frontend.const_if import constant_bool
from pipeline_mlir.frontend.epilogue_ops import COPIES, MAP_LOAD, READS, WRITES, gathered
from pipeline_mlir.frontend.gather_order import check_in_order
from pipeline_mlir.frontend.guarded_read import Ties, check_tied, guarded_load, \
    loops_around, tie_to_c
from pipeline_mlir.frontend.kernel_ir import describe
from pipeline_mlir.frontend.padded_rows import padded_rows
from pipeline_mlir.frontend.private_provenance import last_writers
from pipeline_mlir.frontend.select_read import check_transfer_masks, masked_read

#: ops that move vector elements without computing
SHAPE_OPS = frozenset({
    "vector.shape_cast", "vector.transpose", "vector.broadcast", "vector.extract",
    "vector.extract_strided_slice", "vector.insert", "vector.insert_strided_slice",
    "vector.splat", "vector.from_elements", "vector.to_elements", "vector.extractelement",
    "vector.insertelement"})
#: element-wise arith ops -> node kind
ARITH = {"arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul",
         "arith.maximumf": "max", "arith.maxnumf": "max", "arith.minimumf": "min",
         "arith.minnumf": "min", "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul",
         "arith.maxsi": "max", "arith.minsi": "min"}
#: ops that pass a value on unchanged (exact on the emulator's small integers)
PASS = frozenset({"arith.extf"})


@dataclass(frozen=True)
class Node:
    kind: str                  # acc, read, const, add, sub, mul, max, min, trunc
    args: tuple = ()           # child nodes
    value: object = None       # const: the number; read: the binding index; trunc: type
    op: object = None          # an op it came from (for messages); not compared

    def __eq__(self, other) -> bool:
        return isinstance(other, Node) and (self.kind, self.args, self.value) == \
            (other.kind, other.args, other.value)

    def __hash__(self) -> int:
        return hash((self.kind, self.args, self.value))


def writes_to(f, root, writes: list | None = None) -> list:
    """The write ops of ``f`` whose memref is a view of ``root`` (``writes``: every write
    op of ``f``, if found already)."""
    return [o for o in (walk_ops(f, lambda o: o.name in WRITES) if writes is None else writes)
            if view_root(o.operands[WRITES[o.name][1]]) == root]


class _Tracer:
    def __init__(self, f, loop, bindings: list) -> None:
        self.f, self.loop, self.bindings = f, loop, bindings
        self.facts = KernelFacts(f)         # the trace only reads the kernel
        self.memo: dict = {}
        self.active: set = set()
        self._order = None
        self._walked: dict = {}             # name -> the ops of one kind, walked once

    def _ops(self, kind: str, pred) -> list:
        """The ops of the kernel for which ``pred`` holds (``kind`` names them), in walk
        order: one walk per kind per trace."""
        if kind not in self._walked:
            self._walked[kind] = walk_ops(self.f, pred)
        return self._walked[kind]

    def value(self, v) -> Node:
        if v in self.memo:
            return self.memo[v]
        owner = v.owner
        if isinstance(owner, ir.Block):
            parent = as_operation(owner.owner) if owner.owner is not None else self.f
            raise IRError(parent, f"{describe(parent)}: the value the output stores passes "
                                  f"through block argument #{v.arg_number} of this op, which "
                                  f"the epilogue reader does not follow")
        op = as_operation(owner)
        if op in self.active:
            raise IRError(op, f"{describe(op)}: the value the output stores depends on itself")
        self.active.add(op)
        try:
            node = self._op(op, v)
        finally:
            self.active.discard(op)
        self.memo[v] = node
        return node

    def _op(self, op, v) -> Node:
        name = op.name
        if op == self.loop:
            i = list(op.results).index(v)
            return Node("acc", (self.value(op.operands[3 + i]),), op=op)
        if name in ("arith.constant", "ub.poison"):
            return _constant(op)
        if name in SHAPE_OPS:
            return self._shape(op)
        if name == "scf.for":
            return self._gather_loop(op, v)
        if name == "scf.if" and constant_bool(op.operands[0]) is False:
            # never takes its then-branch: its value is what the else-branch yields
            yielded = list(op.regions[1].blocks[0].operations)[-1]
            return self.value(as_operation(yielded).operands[list(op.results).index(v)])
        if name == "scf.if":        # IREE's late form of a map_load: frontend/guarded_read.py
            load, pad = guarded_load(self.f, op, lambda m: view_root(m) in self.bindings,
                                     self.facts)
            if self.value(pad).kind not in ("const", "poison"):
                raise IRError(op, f"{describe(op)}: its pad is not a scalar constant")
            return self._read(load)
        if name == "arith.select":  # IREE's late form of a masked read: select_read.py
            load, pad = masked_read(self.f, op, lambda m: view_root(m) in self.bindings,
                                    self.facts)
            if self.value(pad).kind not in ("const", "poison"):
                raise IRError(op, f"{describe(op)}: its pad is not a scalar constant")
            return self._read(load)
        if name in ARITH:
            a, b = (self.value(x) for x in op.operands)
            return Node(ARITH[name], (a, b), op=op)
        if name == "arith.negf":
            return Node("sub", (Node("const", value=0.0, op=op), self.value(op.operands[0])),
                        op=op)
        if name in PASS:
            return self.value(op.operands[0])
        if name == "arith.truncf":
            t = v.type.element_type if isinstance(v.type, ir.VectorType) else v.type
            return Node("trunc", (self.value(op.operands[0]),), str(t), op)
        if name in READS:
            return self._read(op)
        raise IRError(op, f"{describe(op)}: the epilogue (what the dispatch stores to its "
                          f"output after the K-loop) computes with '{name}', which the "
                          f"emulator's reference does not model (it models bias adds, "
                          f"relu, truncf and C += A x B^T)")

    def _shape(self, op) -> Node:
        found = []
        for x in op.operands:
            # (values: vectors, float and integer scalars; positions are of type index)
            if isinstance(x.type, (ir.VectorType, ir.FloatType, ir.IntegerType)):
                n = self.value(x)
                if n.kind != "poison" and n not in found:
                    found.append(n)
        moved = [n for n in found if n.kind != "const"]
        if len(moved) > 1:
            raise IRError(op, f"{describe(op)} puts values of different kinds into one vector "
                              f"({', '.join(n.kind for n in moved)}): the epilogue reader "
                              f"needs every element of the output computed the same way")
        if moved:
            return moved[0]
        if len(found) > 1:
            raise IRError(op, f"{describe(op)} mixes different constants")
        return found[0] if found else Node("poison", op=op)

    def _gather_loop(self, op, v) -> Node:
        """A loop after the K-loop that moves elements into a carried vector (IREE's late
        form gathers a fragment from private memory one element per iteration): its
        result is what its initial value and what its body yields share, as a shape op's
        (the carried value is the initial one's tree while the body is read)."""
        i = list(op.results).index(v)
        init = self.value(op.operands[3 + i])
        body = op.regions[0].blocks[0]
        self.memo[body.arguments[1 + i]] = init
        yielded = self.value(as_operation(body.operations[-1]).operands[i])
        moved = [n for n in dict.fromkeys((init, yielded))
                 if n.kind not in ("poison", "const")]
        if len(moved) > 1:
            raise IRError(op, f"{describe(op)} carries values of different kinds "
                              f"({', '.join(n.kind for n in moved)}): the epilogue reader "
                              f"needs every element of the output computed the same way")
        return moved[0] if moved else yielded

    def stored(self, w) -> Node:
        """What write ``w`` stores: its value operand's tree, or (a copy) what the memory
        it copies from holds."""
        if w.name in COPIES:
            return self._read(w, w.operands[WRITES[w.name][0]])
        if w.name == MAP_LOAD:
            read = self._binding_read(w, view_root(w.operands[0]))
            if read is None:
                raise IRError(w, f"{describe(w)} gathers from memory that is not a binding; "
                                 f"the epilogue reader reads a gather of a binding only")
            check_in_order(self.f, w)
            return read
        return self.value(w.operands[WRITES[w.name][0]])

    def _binding_read(self, op, root) -> Node | None:
        """The read of the binding ``root`` by ``op``, or None if ``root`` is no binding."""
        return Node("read", value=self.bindings.index(root), op=op) \
            if root in self.bindings else None

    def _read(self, op, ref=None) -> Node:
        """What ``op`` reads from memref ``ref`` (by default its operand that READS names)."""
        root = view_root(op.operands[READS[op.name]] if ref is None else ref)
        read = self._binding_read(op, root)
        if read is not None:
            if op.name in COPIES:
                raise IRError(op, f"{describe(op)} copies from binding "
                                  f"#{self.bindings.index(root)} into the output; the epilogue "
                                  f"reader reads a binding through vector and memref loads, "
                                  f"and a copy from private or workgroup memory")
            return read
        space = memory_space(root.type)
        if space not in ("workgroup", "private"):
            raise IRError(op, f"{describe(op)} reads memory that is neither a binding nor "
                              f"workgroup or private memory")
        order = self.order()
        before = [w for w in writes_to(self.f, root,
                                       self._ops("writes", lambda o: o.name in WRITES))
                  if not encloses(self.loop, w) and order[w] < order[op]]
        if not before:
            raise IRError(op, f"{describe(op)} reads {space} memory that no write outside "
                              f"the K-loop fills before it (the K-loop's tiles are not an "
                              f"epilogue input)")
        # the writes it reads: the last one and those beside it in its block that no read
        # of the memory interrupts (the late form's rows written one by one; not a buffer
        # filled, read and filled again, nor a copy in a loop before it)
        last = before[-1]
        cut = max((order[r] for r in self._ops("reads", lambda o: o.name in READS or
                                               o.name in COPIES or o.name == MAP_LOAD)
                   if view_root(r.operands[0]) == root and order[r] < order[last]), default=-1)
        stored = [(w, self.stored(w)) for w in before
                  if order[w] > cut and w.operation.block == last.operation.block]
        trees = {n: next(w for w, m in stored if m == n) for _, n in stored}   # first writes
        if len(trees) > 1 and (rows := padded_rows(stored, root, self.bindings)) is not None:
            return rows
        if len(trees) > 1 and space == "private" and (used := last_writers(
                self.f, op, root, [w for w, _ in stored])) is not None:
            trees = {stored[k][1]: stored[k][0] for k in sorted(used)}   # the writes it reads
        if len(trees) > 1:
            a, b = list(trees.values())[:2]
            raise IRError(op, f"{describe(op)} reads {space} memory that the writes before it "
                              f"fill with different values ({describe(a)}, {describe(b)}): "
                              f"the epilogue reader needs one")
        return next(iter(trees))

    def order(self) -> dict:
        """Op -> its position in the kernel (pre-order)."""
        if self._order is None:
            self._order = {o: i for i, o in enumerate(walk_ops(self.f, lambda o: True))}
        return self._order


def _constant(op) -> Node:
    if op.name == "ub.poison":
        return Node("poison", op=op)
    attr = op.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        dense = attr
        if not dense.is_splat:
            raise IRError(op, f"{describe(op)}: a constant that is not one value everywhere "
                              f"in the epilogue")
        attr = dense.get_splat_value()
    if isinstance(attr, ir.FloatAttr):
        return Node("const", value=float(attr.value), op=op)
    if isinstance(attr, ir.IntegerAttr):
        return Node("const", value=int(attr.value), op=op)
    raise IRError(op, f"{describe(op)}: a constant the epilogue reader does not read")


def trace_output(f, loop, bindings: list, output: int) -> tuple[Node, list]:
    """(the tree every write of binding ``output`` stores, those write ops).  A write that
    stores what a read of the output itself gives (IREE's one-wave kernels write C, read it
    back and write it again) says nothing of C's value beside another write's tree and is
    left out of it: C is checked against that tree wherever it ends up (a copy of other
    elements is a wrong C, a race of threads a finding of the emulator)."""
    root = bindings[output]
    writers = writes_to(f, root)
    if not writers:
        raise IRError(f, f"'{f.name}' op: nothing writes the output binding #{output}")
    tracer = _Tracer(f, loop, bindings)
    trees = {}
    for w in writers:
        trees.setdefault(tracer.stored(w), w)
    copy = Node("read", value=output)
    if len(trees) > 1 and copy in trees:
        del trees[copy]
    if len(trees) > 1:
        a, b = list(trees.values())[:2]
        raise IRError(b, f"{describe(b)} stores another value to the output than "
                         f"{describe(a)}: the epilogue reader needs one")
    return next(iter(trees)), writers


def _refuse(node: Node, why: str):
    raise IRError(node.op, f"{describe(node.op)}: {why}")


def expression(tree: Node, names: list[str], out: int, ab: list[int], product: str,
               out_element: str, rows: frozenset = frozenset()) -> str:
    """The expression C must equal, in the launch descriptions' language
    (:mod:`pipeline_mlir.emu.expect`); ``rows``: the 1-D epilogue inputs that follow C's
    rows (added as ``(X.T + bias).T``; the others broadcast along C's rows)."""
    if tree.kind == "trunc":
        if tree.value != out_element:
            _refuse(tree, f"truncates to {tree.value} and the output C is {out_element}")
        tree = tree.args[0]

    def element_wise(n: Node, sign: str) -> str:
        a, b = (render(x) for x in n.args)
        by_row = [x.kind == "read" and x.value in rows for x in n.args]
        if all(by_row):
            _refuse(n, "the epilogue combines two inputs that follow C's rows")
        if any(by_row):             # a per-row input: combined with the transposed value
            a, b = (x if r else f"({x}).T" for x, r in zip((a, b), by_row))
            return f"(({a} {sign} {b}).T)"
        if sign == "*":     # '*' binds as '@' (left to right): ``s * A @ B.T`` is (s * A) @ B.T
            a, b = (x if x.isidentifier() or x.startswith("(") and _closes_at_end(x)
                    else f"({x})" for x in (a, b))
        return f"({a} {sign} {b})"

    def render(n: Node) -> str:
        if n.kind == "acc":
            init = n.args[0]
            if init.kind == "const" and init.value == 0:
                return product
            if init.kind == "read":     # C += A x B, or D + A x B: D an input like a bias
                if init.value in rows:
                    return f"(({render(init)} + ({product}).T).T)"
                return f"({render(init)} + {product})"
            _refuse(n, "the K-loop's accumulator starts from a value that is neither zero "
                       "nor a read of a binding: the emulator's reference does not model it")
        if n.kind == "read":
            if n.value == out:
                return "C"
            if n.value in ab:
                _refuse(n, f"the epilogue reads {names[n.value]}, an operand of the matmul")
            return names[n.value]
        if n.kind in ("add", "sub"):
            return element_wise(n, "+" if n.kind == "add" else "-")
        if n.kind == "mul" and not out_element.startswith(("i", "u")):
            scale = [x for x in n.args if x.kind == "const" and isinstance(x.value, float)
                     and abs(x.value) < float("inf")]
            if len(scale) == 1:         # a scale: the product rounded to f32
                inner = n.args[1] if n.args[0] is scale[0] else n.args[0]
                c = scale[0].value
                text = f"{render(inner)} * {abs(c)!r}"
                return f"({text})" if c >= 0 else f"(-({text}))"
            if not any(x.kind == "const" for x in n.args):
                return element_wise(n, "*")     # (each operand, and the product, f32)
        if n.kind == "max":
            zero = [x for x in n.args if x.kind == "const" and x.value == 0]
            if zero:
                inner = n.args[1] if n.args[0] is zero[0] else n.args[0]
                return f"relu({_bare(render(inner))})"
        what = {"const": f"the constant {n.value} outside a relu", "trunc": "a truncf inside "
                "the epilogue (not as the store to C)", "poison": "an undefined value"}
        _refuse(n, f"the epilogue computes {what.get(n.kind, f'a {n.kind}')}, which the "
                   f"emulator's reference does not model (it models bias adds, relu, scales, "
                   f"products with epilogue inputs, truncf to C's type and an accumulator "
                   f"started from C or an input: C += A x B^T)")
    return _bare(render(tree))


def _bare(text: str) -> str:
    """``text`` without the parentheses around all of it."""
    return text[1:-1] if text.startswith("(") and _closes_at_end(text) else text


def _closes_at_end(text: str) -> bool:
    """Whether the '(' at ``text[0]`` closes at its last character."""
    depth = 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def binding_reads(f, loop, root) -> list:
    """Every read (:data:`READS`, a ``map_load``) of the binding ``root`` outside the K-loop
    ``loop``: the tree holds one of the reads it holds alike (its nodes compare without
    their op) and, of private memory written more than once, the last write's, so a read
    that reaches C another way is found here, not in it."""
    return [o for o in walk_ops(f, lambda o: o.name in READS or o.name == MAP_LOAD)
            if not encloses(loop, o) and view_root(o.operands[0]) == root]


def reads_of(tree: Node, binding: int) -> list:
    """The read ops of ``binding`` in ``tree``."""
    if tree.kind == "read":
        return [tree.op] if tree.value == binding else []
    return [op for a in tree.args for op in reads_of(a, binding)]


def follows(f, tree: Node, binding: int, b, writer, mn: tuple[int, int],
            ties: Ties | None = None, reads: list | None = None) -> str:
    """``column`` when the 1-D epilogue input ``b`` follows C's columns (added to every
    row), ``row`` when it follows C's rows.  Told by its length when M != N, else by how the
    element it reads and the element of C the kernel writes move as each workgroup id
    moves.  Each of its ``reads`` (by default those in ``tree``; all of them:
    :func:`binding_reads`) is tied to C's tiles that way (:func:`tie_reads`)."""
    M, N = mn
    (L,) = b.shape
    fits = [o for o, n in (("column", N), ("row", M)) if n == L]
    if not fits:
        raise IRError(reads_of(tree, binding)[0], f"{describe(reads_of(tree, binding)[0])}: "
                      f"the epilogue input {b.name} has {L} elements, neither C's {N} "
                      f"columns nor its {M} rows")
    if len(fits) == 2:
        fits = follows_axis(f, reads_of(tree, binding)[0], writer, mn, b.name)
    tie_reads(f, reads_of(tree, binding) if reads is None else reads, writer, fits[0], ties)
    return fits[0]


def tie_reads(f, reads: list, writer, along: str, ties: Ties | None) -> None:
    """Refuse a read of ``reads`` whose element does not move, over the grid, with the
    ``along`` origin of the tile of C each workgroup writes (``writer``: a write of C;
    :func:`~pipeline_mlir.frontend.guarded_read.tie_to_c`, whose ``ties`` the reads of
    one kernel share)."""
    c_shape = ir.MemRefType(view_root(writer.operands[WRITES[writer.name][1]]).type).shape
    ties = Ties() if ties is None else ties
    for read in reads:
        if read.name == MAP_LOAD:
            _tie_gather(f, read, c_shape, along, ties)
        else:
            # a masked read proven masked exactly outside its binding first: its wholly
            # masked lanes read nothing (or what they read their select drops) and are not
            # held to the tie
            check_transfer_masks(f, [read], ties.of(f))
            check_tied(f, read, c_shape, along, ties,
                       mask_exact=read.name == "vector.transfer_read" or
                       _selected(f, read, ties))


def _selected(f, load, ties: Ties) -> bool:
    """Whether ``load``'s one use is the true operand of an ``arith.select`` that is a
    masked read of it (:func:`~pipeline_mlir.frontend.select_read.masked_read`: its mask
    proven over the grid false exactly at the elements outside the binding), so that what
    the load reads where the mask is false is dropped."""
    uses = list(load.results[0].uses) if len(load.results) == 1 else []
    if len(uses) != 1 or uses[0].operand_number != 1:
        return False
    sel = as_operation(uses[0].owner)
    if sel.name != "arith.select":
        return False
    try:
        masked_read(f, sel, lambda m: True, ties.of(f))
    except IRError:
        return False
    return True


def _tie_gather(f, op, c_shape: tuple, along: str, ties: Ties) -> None:
    """Refuse (at ``op``, a ``map_load`` :func:`~pipeline_mlir.frontend.gather_order.check_in_order` took at the grid's first
    workgroup and the first iteration of the loops around it) a gather that is not, at
    every workgroup and every iteration of those loops, the first workgroup's moved with
    its tile of C (``tie_to_c``: each destination element's source element)."""
    block = op.regions[0].blocks[0]
    src, yielded = gathered(op)
    shape = ir.MemRefType(op.operands[1].type).shape
    loops = loops_around(op, "a gather of a bias", "its gather is tied to C at every "
                         "iteration")
    args = [iv for iv, _ in loops] + list(block.arguments)

    def element(ev, point, chunk):
        for a, i in zip(args, point):
            ev.bind(a, i)
        try:
            return ev.view(src).element([ev.value(x) for x in yielded])
        except IRError as e:
            raise IRError(op, f"{describe(op)}: the source element its region gathers could "
                              f"not be evaluated ({e})") from None

    tie_to_c(f, op, c_shape, along, list(itertools.product(
        *[r for _, r in loops], *map(range, shape))), element, "gather",
        "loop iteration and destination element", ties)
