"""Wave uniformity of the values of one ``llvm.func`` (LLVM dialect, after lowering).

:class:`Uniformity` records the function's control flow (which values each branch passes
to each block argument, each block's predecessors, the branch conditions) and decides,
for every SSA value, whether it is the same in all 64 lanes of a wave:

* uniform whatever their operands: constants, global addresses, ``workgroup.id``,
  ``workgroup.dim``, ``grid.dim`` and ``readfirstlane`` (:data:`UNIFORM_SOURCES`);
* the wave's index: ``workitem.id.x`` (through extensions and truncations no narrower
  than it) divided (``udiv``, ``lshr``) by a multiple of 64 when the block's x size is a
  multiple of 64 (waves are cut from the linear thread id);
* a kernel's arguments (they live in SGPRs); any other function's entry arguments are not;
* side-effect-free arithmetic (:data:`PURE_OPS`) when all its operands are uniform;
* a block argument when every value a branch passes to it is uniform and no branch of
  the function depends on the lane (a fixed point: optimistic, then refuted).

Guarantee: a value :meth:`Uniformity.uniform` calls uniform is the same in every lane of
a wave wherever it is computed; the converse does not hold (a cycle through ops, a
switch's block arguments, and ops it does not know are taken as varying).
:meth:`Uniformity.from_lanes` says whether a value is computed from a lane's own id, which
LLVM then takes for varying even where this analysis proves it uniform.
"""

from __future__ import annotations

from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.ir_facts import segments
from pipeline_mlir.analysis.llvm_values import const_int, defining_op, int_width
from pipeline_mlir.dialect.bindings import ir

#: ops whose result is wave-uniform whatever their operands (none here take operands that
#: could make them vary) -- the workgroup's position and the broadcast of one lane
UNIFORM_SOURCES = frozenset({
    "llvm.mlir.constant", "llvm.mlir.addressof", "llvm.mlir.zero", "llvm.mlir.undef",
    "llvm.mlir.poison", "rocdl.workgroup.id.x", "rocdl.workgroup.id.y",
    "rocdl.workgroup.id.z", "rocdl.readfirstlane", "rocdl.workgroup.dim.x",
    "rocdl.workgroup.dim.y", "rocdl.workgroup.dim.z", "rocdl.grid.dim.x", "rocdl.grid.dim.y",
    "rocdl.grid.dim.z",
})

#: side-effect-free ops whose result is uniform when all their operands are
PURE_OPS = frozenset({
    "llvm.add", "llvm.sub", "llvm.mul", "llvm.udiv", "llvm.sdiv", "llvm.urem", "llvm.srem",
    "llvm.shl", "llvm.lshr", "llvm.ashr", "llvm.and", "llvm.or", "llvm.xor", "llvm.zext",
    "llvm.sext", "llvm.trunc", "llvm.icmp", "llvm.select", "llvm.bitcast", "llvm.ptrtoint",
    "llvm.inttoptr", "llvm.getelementptr", "llvm.intr.umax", "llvm.intr.umin",
    "llvm.intr.smax", "llvm.intr.smin", "llvm.extractvalue", "llvm.insertvalue",
    "rocdl.make.buffer.rsrc",
})


class Uniformity:
    """The control flow of one ``llvm.func``: which values reach each block argument (and
    along which edge), each block's predecessors, and the uniformity of every value
    (:meth:`uniform`, after :meth:`analyse`)."""

    def __init__(self, func, kernel: bool, block_size: list[int] | None) -> None:
        #: whether ``func`` is a kernel (its arguments are then wave-uniform: SGPRs)
        self.kernel = kernel
        #: the block's [x, y, z] size when the function states it
        self.block_size = block_size
        self.block_x = self.block_size[0] if self.block_size else None
        blocks = list(func.regions[0].blocks)
        self.entry = blocks[0] if blocks else None
        self._blocks = blocks
        self._ids = {b: i for i, b in enumerate(blocks)}
        #: (block, argument number) -> [(value, predecessor, terminator, successor number)];
        #: None: unknown (a branch whose operands are not followed passes to it)
        self.edges: dict = {}
        #: block -> [(predecessor, terminator, successor number)], one entry per edge
        self.preds: dict = {}
        #: the conditions of the function's branches
        self.conditions: list = []
        self.divergent_branch = False
        self._uniform: dict = {}
        for block in blocks:
            ops = list(block.operations)
            if not ops:
                continue
            self._record_branch(self.block_key(block), ops[-1].operation)

    def block_key(self, block) -> int:
        key = self._ids.get(block)
        if key is None:
            raise KeyError("block outside the function")
        return key

    def arg_key(self, arg) -> tuple[int, int]:
        """``(block, argument number)`` of a block argument."""
        return self.block_key(arg.owner), arg.arg_number

    def argument(self, key: tuple[int, int]):
        """The block argument ``(block, argument number)``."""
        return self._blocks[key[0]].arguments[key[1]]

    def block_of(self, value) -> int:
        """The number of the block that defines ``value``."""
        op = defining_op(value)
        if op is None:
            return self.block_key(ir.BlockArgument(value).owner)
        return self.block_key(op.block)

    def _record_branch(self, here: int, term) -> None:
        succs = list(term.successors)
        if not succs:
            return
        for pos, s in enumerate(succs):
            self.preds.setdefault(self.block_key(s), []).append((here, term, pos))
        if term.name == "llvm.br":
            groups = [list(term.operands)]
        elif term.name == "llvm.cond_br":
            (cond,), *groups = segments(term)
            self.conditions.append(cond)
        else:  # a switch or anything else: its block arguments are not followed
            for s in succs:
                for i in range(len(s.arguments)):
                    self.edges[(self.block_key(s), i)] = None
            self.conditions += list(term.operands)[:1]
            return
        for pos, (s, vals) in enumerate(zip(succs, groups)):
            for i, v in enumerate(vals):
                seen = self.edges.setdefault((self.block_key(s), i), [])
                if seen is not None:
                    seen.append((v, here, term, pos))

    def incoming(self, key) -> list | None:
        """The values branches pass to block argument ``key``; None: unknown."""
        edges = self.edges.get(key, [])
        return None if edges is None else [e[0] for e in edges]

    # ---- uniformity ----------------------------------------------------------------------

    def analyse(self) -> None:
        """Fix the uniformity of every block argument (optimistic, then refuted)."""
        self._arg_uniform: dict = dict.fromkeys(self.edges, True)
        changed = True
        while changed:
            changed = False
            self._uniform = {}
            for key in self.edges:
                if not self._arg_uniform[key]:
                    continue
                vals = self.incoming(key)
                if vals is None or not all(self.uniform(v) for v in vals):
                    self._arg_uniform[key] = False
                    changed = True
        self.divergent_branch = not all(self.uniform(c) for c in self.conditions)
        self._uniform = {}

    def uniform(self, value) -> bool:
        hit = self._uniform.get(value)
        if hit is not None:
            return hit
        self._uniform[value] = False   # a cycle through ops (not block arguments): varying
        result = self._uniform_of(value)
        self._uniform[value] = result
        return result

    def _uniform_of(self, value) -> bool:
        if isinstance(value.owner, ir.Block):
            arg = ir.BlockArgument(value)
            if arg.owner == self.entry:
                return self.kernel          # kernel arguments live in SGPRs
            if self.divergent_branch:
                return False
            return self._arg_uniform.get(self.arg_key(arg), False)
        op = defining_op(value)
        if op.name in UNIFORM_SOURCES:
            return True
        if op.name in ("llvm.udiv", "llvm.lshr") and self._wave_index(op):
            return True
        if op.name in PURE_OPS:
            return all(self.uniform(v) for v in op.operands)
        return False

    def from_lanes(self, value) -> bool:
        """Whether ``value`` is computed from a lane's own id (``workitem.id``, ``mbcnt``)
        other than through ``readfirstlane``: LLVM then treats it as varying across the
        wave even where this pass proves it uniform."""
        stack, seen = [value], set()
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            op = defining_op(v)
            if op is None:
                arg = ir.BlockArgument(v)
                if arg.owner != self.entry:
                    stack += self.incoming(self.arg_key(arg)) or []
                continue
            if op.name.startswith(("rocdl.workitem.id.", "rocdl.mbcnt.")):
                return True
            if op.name != "rocdl.readfirstlane":
                stack += list(op.operands)
        return False

    def _wave_index(self, op) -> bool:
        """Whether ``op`` divides the thread's x index by a multiple of the wave size (64
        on gfx9): the wave's index, the same in all its lanes when the block's x size is a
        multiple of 64 (waves are cut from the linear thread index)."""
        ops = list(op.operands)
        c = const_int(ops[1])
        if c is None or self.block_x is None or self.block_x % WAVE_SIZE:
            return False
        if (op.name == "llvm.udiv" and (c <= 0 or c % WAVE_SIZE)) or \
                (op.name == "llvm.lshr" and not WAVE_SIZE.bit_length() - 1 <= c < 64):
            return False
        # through extensions, and truncations to at least the id's own width (IREE's
        # narrowing to 32 bits leaves ``trunc (sext id to i64) to i32``): the id unchanged
        x, narrowest = ops[0], int_width(ops[0])
        while (d := defining_op(x)) is not None and \
                d.name in ("llvm.zext", "llvm.sext", "llvm.trunc"):
            if d.name == "llvm.trunc":
                narrowest = min(narrowest, int_width(x))
            x = d.operands[0]
        d = defining_op(x)
        return d is not None and d.name == "rocdl.workitem.id.x" and \
            narrowest is not None and narrowest >= int_width(x)

