"""The low zero bits of an index and of the byte offset it makes (``analysis/twos.py``): the
one rule ``sched-unmask-loads`` (a load's first dword) and the joined LDS stores of
``sched-stage-copies`` (a store's alignment) reason with."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.twos import byte_offset_zeros
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

BODY = """
func.func @f(%m: memref<64xbf16>, %w: memref<64xf32>, %b: memref<64xi8>) {
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %i = arith.muli %t, %c4 : index
  %j = arith.addi %i, %t : index
  return
}"""


@pytest.fixture(scope="module")
def parsed():
    """The values of :data:`BODY` by name, and its memref arguments (one context and one
    parse for the module's cases)."""
    with new_context():
        m = ir.Module.parse(BODY)
        (fn,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        values = dict(zip(("c4", "t", "i", "j"),
                          [o.results[0] for o in walk_ops(fn, lambda o: len(o.results) == 1)]))
        yield values, list(fn.regions[0].blocks[0].arguments)


@pytest.mark.parametrize("index,memref,zeros", [
    ("i", 0, 3), ("i", 1, 4), ("i", 2, 2),      # 4 * t elements of 2, 4 and 1 bytes
    ("j", 0, 1), ("j", 2, 0),                   # 5 * t elements: their bytes' own
    ("c4", 1, 4),                               # 4 f32: 16 bytes
])
def test_byte_offset_zeros_adds_the_element_bytes(parsed, index, memref, zeros):
    values, args = parsed
    assert byte_offset_zeros(values[index], args[memref].type) == zeros


AFFINE = """
#twice = affine_map<(d0) -> (d0 * 2)>
#mod8 = affine_map<(d0) -> (d0 mod 8)>
#half = affine_map<(d0) -> (d0 floordiv 2)>
#plus1 = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
#min16 = affine_map<(d0) -> (d0 * 8, 16)>
#max12 = affine_map<(d0) -> (d0 * 8, 12)>
#min17 = affine_map<(d0) -> (d0 * 8, 17)>
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = gpu.thread_id x
  %two = affine.apply #twice(%t)
  %m8 = affine.apply #mod8(%two)
  %hf = affine.apply #half(%two)
  %p1 = affine.apply #plus1(%two)[%c1]
  %d:2 = affine.delinearize_index %two into (16, 8) : index, index
  %l = affine.linearize_index disjoint [%t, %two] by (2, 4) : index
  %h = iree_codegen.index_hint %two(#iree_gpu.lane_constant<32>) : index
  %mn = affine.min #min16(%two)
  %mx = affine.max #max12(%two)
  %m17 = affine.min #min17(%two)
  scf.for %i = %c0 to %n step %c8 {
    %x = arith.addi %i, %c0 : index
  }
  scf.for %k = %c1 to %n step %c8 {
    %y = arith.addi %k, %c0 : index
  }
  return
}"""


@pytest.fixture(scope="module")
def affine_values():
    """:data:`AFFINE`'s index values by name (each op's first result; the two loops'
    induction variables as ``i`` and ``k``)."""
    with new_context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(AFFINE)
        names = ("c0", "c1", "c4", "c8", "t", "two", "m8", "hf", "p1", "d", "l", "h", "mn",
                 "mx", "m17", "x", "y")
        ops = walk_ops(m.operation, lambda o: len(o.results) >= 1)
        assert len(ops) == len(names)
        out = {n: list(o.results) for n, o in zip(names, ops)}
        loops = walk_ops(m.operation, lambda o: o.name == "scf.for")
        out["i"], out["k"] = ([loop.regions[0].blocks[0].arguments[0]] for loop in loops)
        yield out


@pytest.mark.parametrize("name,result,zeros", [
    ("two", 0, 1),          # d0 * 2
    ("m8", 0, 1),           # (2 t) mod 8: the fewer of 1 and 3
    ("hf", 0, 0),           # a floordiv: nothing known
    ("p1", 0, 0),           # 8 t + 1
    ("d", 1, 1),            # the last result of (2 t) into (16, 8): (2 t) mod 8
    ("d", 0, 0),            # any other result: a division
    ("l", 0, 1),            # 4 t + 2 t
    ("h", 0, 1),            # the hint passes 2 t on
    ("mn", 0, 4),           # min(16 t, 16): either is a multiple of 16
    ("mx", 0, 2),           # max(16 t, 12): the fewer of 4 and 2
    ("m17", 0, 0),          # min(16 t, 17): 17 may be the value
    ("i", 0, 3),            # 0 + j * 8
    ("k", 0, 0),            # 1 + j * 8
])
def test_affine_ops_hints_and_induction_variables(affine_values, name, result, zeros):
    from pipeline_mlir.analysis.twos import low_zeros
    assert low_zeros(affine_values[name][result]) == zeros


def test_exact_answers_are_taken_when_they_know_more(affine_values):
    """``exact`` (a thread-only evaluation, for instance) is asked first; the larger of its
    answer and the rules' is kept, so a weaker answer changes nothing."""
    from pipeline_mlir.analysis.twos import low_zeros
    v = affine_values["hf"][0]
    assert low_zeros(v, exact=lambda x: 2 if x == v else None) == 2
    assert low_zeros(affine_values["two"][0], exact=lambda x: 0) == 1


HINTS = """func.func @f(%n: index) {
  %a = util.assume.int %n<umin = 0, umax = 4096, udiv = 48> : index
  %w = iree_tensor_ext.dispatch.workload.ordinal %a, 0 : index
  %u = util.assume.int %n[<udiv = 16>, <udiv = 24>] : index
  %v = util.assume.int %n[<udiv = 16>, <umax = 64>] : index
  %x = util.assume.int %n<umin = 0, umax = 4096> : index
  return
}"""


@pytest.mark.parametrize("name,zeros", [
    ("a", 4),       # a multiple of 48: of 16
    ("w", 4),       # the workload's ordinal passes it on
    ("u", 3),       # one of two sets holds: a multiple of 16 or of 24, so of 8
    ("v", 0),       # a set that states no divisor
    ("x", 0),       # no divisor stated
])
def test_a_stated_divisor_is_taken(name, zeros):
    """``util.assume.int``'s ``udiv`` (IREE's statement of a size known at launch: K a
    multiple of the K step) counts its zeros, through the workload's ordinal (finding 93);
    before, a hint passed its operand's zeros only."""
    from pipeline_mlir.analysis.twos import low_zeros
    with new_context():
        m = ir.Module.parse(HINTS)
        ops = walk_ops(m.operation, lambda o: len(o.results) == 1)
        got = dict(zip(("a", "w", "u", "v", "x"), (o.results[0] for o in ops)))
        assert low_zeros(got[name]) == zeros
