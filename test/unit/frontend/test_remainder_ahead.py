"""The remainder loop's global loads issued a K tile ahead (``frontend/remainder_ahead.py``).

A small remainder loop (a copy through registers into LDS, a barrier, an LDS read the
accumulator takes) is rewritten: the first iteration's load before the loop, the next
iteration's after the LDS store, carried across the back edge; the loop run in Python on
the IR's semantics is not needed, the rewrite is checked by its structure and by IREE's
kernels on the emulator (``test_short_loops.py``: the masked loop run as written, exact
from both forms).  Each condition the rewrite relies on leaves the loop as written, with
the reason on the loop.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.remainder_ahead import load_ahead, loads_ahead
from pipeline_mlir.frontend.marks import (LOADS_AHEAD_ATTR as AHEAD_ATTR,
                                          LOADS_IN_PLACE_ATTR as IN_PLACE_ATTR)

GLOBAL = "memref<64x64xf32, #amdgpu.address_space<fat_raw_buffer>>"
LDS = "memref<64xf32, #gpu.address_space<workgroup>>"


def loop_text(load: str = "%v = vector.load %A[%i, %c0] : {G}, vector<4xf32>",
              extra: str = "", lb: str = "%c0", ub: str = "%c32", pre: str = "") -> str:
    body = f"""
    {load.format(G=GLOBAL)}
    vector.store %v, %L[%c0] : {LDS}, vector<4xf32>
    {extra.format(G=GLOBAL, L=LDS)}
    gpu.barrier
    %w = vector.load %L[%c4] : {LDS}, vector<4xf32>
    %s = arith.addf %acc, %w : vector<4xf32>
    %j2 = arith.addi %j, %c1 : index
    scf.yield %s, %j2 : vector<4xf32>, index"""
    return f"""
func.func @k(%A: {GLOBAL}, %L: {LDS}, %n: index) -> vector<4xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  {pre.format(G=GLOBAL)}
  %r:2 = scf.for %i = {lb} to {ub} step %c8 iter_args(%acc = %z, %j = %c0)
      -> (vector<4xf32>, index) {{{body}
  }} {{sched.remainder}}
  return %r#0 : vector<4xf32>
}}"""


def rewritten(text: str, rewrite_module):
    """``text`` parsed (in a context left entered) and ``rewrite_module`` run on it: the
    module and its loops marked ``sched.remainder``."""
    ctx = new_context()
    ctx.__enter__()
    m = ir.Module.parse(text, ctx)
    with ir.Location.unknown(ctx):
        rewrite_module(m.operation)
    return m, walk_ops(m.operation, lambda o: "sched.remainder" in o.attributes)


def rewrite(text: str):
    m, (loop,) = rewritten(text, loads_ahead)
    return m, loop


def test_loads_are_issued_an_iteration_ahead():
    m, loop = rewrite(loop_text())
    assert AHEAD_ATTR in loop.attributes and "sched.remainder" in loop.attributes
    m.operation.verify()
    body = [o.name for o in loop.regions[0].blocks[0].operations]
    # the store of the carried value, then the next iteration's load, then the barrier
    assert body.index("vector.store") < body.index("vector.load") < body.index("gpu.barrier")
    assert len(loop.operands) == 3 + 3          # the two iter_args and the carried load
    first = [o for o in loop.block.operations if o.name == "vector.load"]
    assert len(first) == 1 and "%c0, %c0" in str(first[0])   # iteration 0's, before it
    # the next iteration's: at iv + step, selected only below the bound
    (nxt,) = [o for o in loop.regions[0].blocks[0].operations
              if o.name == "vector.load" and "fat_raw_buffer" in str(o.operands[0].type)]
    sel = nxt.operands[1].owner
    assert sel.name == "arith.select", sel
    add = sel.operands[1].owner
    assert add.name == "arith.addi" and list(add.operands) == [
        loop.regions[0].blocks[0].arguments[0], loop.operands[2]], add
    assert sel.operands[2] == loop.regions[0].blocks[0].arguments[0]


def test_run_time_bounds_guard_the_first_loads():
    m, loop = rewrite(loop_text(lb="%n"))
    assert AHEAD_ATTR in loop.attributes
    m.operation.verify()
    guards = [o for o in loop.block.operations if o.name == "scf.if"]
    assert len(guards) == 1 and guards[0].results[0] == loop.operands[5]
    cond = guards[0].operands[0].owner
    assert cond.name == "arith.cmpi" and list(cond.operands) == list(loop.operands)[:2]


@pytest.mark.parametrize("load,extra,why", [
    (None, "vector.store %w0, %A[%c0, %c0] : {G}, vector<4xf32>",
     "its body may write memory other than LDS"),
    (None, "rocdl.s.waitcnt 0", "its body waits for a memory counter"),
    (None, "amdgpu.gather_to_lds %A[%c0, %c0], %L[%c0] : vector<4xf32>, {G}, {L}",
     "its body copies straight to LDS"),
    ("%v = vector.load %A[%j, %c0] : {G}, vector<4xf32>", "",
     "a load depends on a value the loop carries"),
    ("%x = memref.load %L[%c8] : memref<64xf32, #gpu.address_space<workgroup>>\n"
     "    %xi = arith.fptosi %x : f32 to i32\n    %xx = arith.index_cast %xi : i32 to index\n"
     "    %v = vector.load %A[%xx, %c0] : {G}, vector<4xf32>", "",
     "a load depends on an op that is not free of side effects"),
    ("%v = vector.load %L[%c8] : memref<64xf32, #gpu.address_space<workgroup>>, "
     "vector<4xf32>", "", "its body loads nothing from global memory into registers"),
    (None, "pre:vector.store %z, %A[%c8, %c0] : {G}, vector<4xf32>",
     "the kernel may write memory other than LDS before it, which another wave's loads "
     "may have to see past a barrier"),
    (None, "lb:%c32", "it runs no iteration"),
    # ops with regions that state their own write (the region computes the value written)
    (None, "%old = memref.generic_atomic_rmw %A[%c8, %c0] : {G} {{\n"
           "    ^bb0(%cur: f32):\n      %nw = arith.addf %cur, %cur : f32\n"
           "      memref.atomic_yield %nw : f32\n    }}",
     "its body may write memory other than LDS"),
    (None, "pre:%c0f = arith.constant 0.0 : f32\n  linalg.fill ins(%c0f : f32) outs(%A : {G})",
     "the kernel may write memory other than LDS before it"),
], ids=["global-write", "counter-wait", "dma-copy", "carried-index", "lds-read-index", "no-global-load",
        "global-write-before", "no-iteration", "atomic-rmw", "linalg-fill-before"])
def test_what_the_rewrite_relies_on_leaves_the_loop_as_written(load, extra, why):
    if extra.startswith("vector.store %w0"):
        extra = "%w0 = vector.load %L[%c8] : {L}, vector<4xf32>\n    " + extra
    pre = extra.removeprefix("pre:") if extra.startswith("pre:") else ""
    lb = extra.removeprefix("lb:") if extra.startswith("lb:") else "%c0"
    extra = "" if pre or lb != "%c0" else extra
    text = loop_text(extra=extra, pre=pre, lb=lb) if load is None else loop_text(
        load=load, extra=extra)
    m, loop = rewrite(text)
    assert AHEAD_ATTR not in loop.attributes, why
    said = ir.StringAttr(loop.attributes[IN_PLACE_ATTR]).value
    assert why in said, said
    assert load_ahead(loop) == said.removeprefix("its loads stay in their iteration: ")


def test_a_write_after_the_remainder_in_a_loop_around_it_leaves_it_as_written():
    """A batch loop around the pipelined loop and the remainder, writing a global buffer
    after the remainder: in the batch loop's next iteration that write comes before the
    remainder, and a first load moved above the pipelined loop's barriers would not see
    another wave's write they ordered before it."""
    text = f"""
func.func @k(%A: {GLOBAL}, %L: {LDS}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  scf.for %b = %c0 to %c4 step %c1 {{
    %p = scf.for %q = %c0 to %c8 step %c1 iter_args(%a0 = %z) -> (vector<4xf32>) {{
      gpu.barrier
      scf.yield %a0 : vector<4xf32>
    }}
    %r = scf.for %i = %c0 to %c32 step %c8 iter_args(%acc = %p) -> (vector<4xf32>) {{
      %v = vector.load %A[%i, %c0] : {GLOBAL}, vector<4xf32>
      vector.store %v, %L[%c0] : {LDS}, vector<4xf32>
      gpu.barrier
      %w = vector.load %L[%c4] : {LDS}, vector<4xf32>
      %s = arith.addf %acc, %w : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }} {{sched.remainder}}
    vector.store %r, %A[%b, %c4] : {GLOBAL}, vector<4xf32>
  }}
  return
}}"""
    ctx = new_context()
    ctx.__enter__()
    m = ir.Module.parse(text, ctx)
    with ir.Location.unknown(ctx):
        loads_ahead(m.operation)
    (loop,) = walk_ops(m.operation, lambda o: "sched.remainder" in o.attributes)
    assert AHEAD_ATTR not in loop.attributes, m
    assert "may write memory other than LDS before it" in str(loop.attributes[IN_PLACE_ATTR])
    # the same kernel with the write before the batch loop's end taken out: loads ahead
    m2 = ir.Module.parse(text.replace(f"vector.store %r, %A[%b, %c4] : {GLOBAL}, "
                                      f"vector<4xf32>", ""), ctx)
    with ir.Location.unknown(ctx):
        loads_ahead(m2.operation)
    (loop2,) = walk_ops(m2.operation, lambda o: "sched.remainder" in o.attributes)
    assert AHEAD_ATTR in loop2.attributes
    # the remainder and the write after it inside an scf.if in the batch loop: the same
    wrapped = text.replace("    %r = scf.for %i", "    %cnd = arith.cmpi slt, %b, %c4 : index\n"
                           "    scf.if %cnd {\n    %r = scf.for %i") \
        .replace("vector<4xf32>\n  }\n  return", "vector<4xf32>\n    }\n  }\n  return")
    assert wrapped.count("scf.if %cnd {") == 1 and wrapped.count("}\n  return") == 1
    m4 = ir.Module.parse(wrapped, ctx)
    with ir.Location.unknown(ctx):
        loads_ahead(m4.operation)
    (loop4,) = walk_ops(m4.operation, lambda o: "sched.remainder" in o.attributes)
    assert AHEAD_ATTR not in loop4.attributes, m4
    # IREE's loop over workgroups (one iteration a workgroup) around it: loads ahead
    forall = text.replace("scf.for %b = %c0 to %c4 step %c1 {", "scf.forall (%b) in (4) {") \
        .replace("  }\n  return", "  } {mapping = [#iree_codegen.workgroup_mapping<x>]}\n  return")
    m3 = ir.Module.parse(forall, ctx)
    with ir.Location.unknown(ctx):
        loads_ahead(m3.operation)
    (loop3,) = walk_ops(m3.operation, lambda o: "sched.remainder" in o.attributes)
    assert AHEAD_ATTR in loop3.attributes, m3


def test_a_guard_yielding_a_value_not_a_vector_is_no_load_to_move():
    """An ``scf.if`` around a global load that also yields an index is not a guarded load
    (the first loads' guard of a run-time trip count yields zero vectors in their place):
    with run-time bounds the loop stays as written, with its reason, no traceback."""
    load = ("%c = arith.cmpi slt, %i, %c8 : index\n"
            "    %v, %k = scf.if %c -> (vector<4xf32>, index) {{\n"
            "      %t = vector.load %A[%i, %c0] : {G}, vector<4xf32>\n"
            "      scf.yield %t, %c4 : vector<4xf32>, index\n"
            "    }} else {{\n"
            "      scf.yield %z, %c8 : vector<4xf32>, index\n"
            "    }}\n"
            "    %u = vector.load %A[%k, %c0] : {G}, vector<4xf32>\n"
            f"    vector.store %u, %L[%c4] : {LDS}, vector<4xf32>")
    m, loop = rewrite(loop_text(load=load, lb="%n"))
    assert AHEAD_ATTR not in loop.attributes
    said = ir.StringAttr(loop.attributes[IN_PLACE_ATTR]).value
    assert "a load depends on an op that is not free of side effects" in said, said


@pytest.mark.parametrize("between,before_it", [("", True),
                                               ("%c9 = arith.constant 9 : index", False)])
def test_first_loads_go_above_the_loop_before_the_remainder(between, before_it):
    """The first iteration's loads go above the loop before the remainder (the pipelined
    one: they complete under it), but not above the definition of a value they use."""
    load = "%v = vector.load %A[%i, {c}] : {{G}}, vector<4xf32>".format(
        c="%c9" if between else "%c0")
    pre = ("%p = scf.for %q = %c0 to %c8 step %c1 iter_args(%a0 = %z) -> (vector<4xf32>) {{\n"
           "    gpu.barrier\n    scf.yield %a0 : vector<4xf32>\n  }}\n  " + between)
    text = loop_text(load=load, pre=pre).replace("iter_args(%acc = %z,", "iter_args(%acc = %p,")
    m, loop = rewrite(text)
    assert AHEAD_ATTR in loop.attributes
    m.operation.verify()
    ops = list(loop.block.operations)
    names = [o.name for o in ops]
    first = next(i for i, o in enumerate(ops) if o.name == "vector.load")
    assert (first < names.index("scf.for")) == before_it, names
    # the guard of a run-time trip count goes there too, its compare of the remainder's bounds
    m, loop = rewrite(text.replace("scf.for %i = %c0 to", "scf.for %i = %n to"))
    names = [o.name for o in loop.block.operations]
    assert (names.index("scf.if") < names.index("scf.for")) == before_it, names
    (guard,) = [o for o in loop.block.operations if o.name == "scf.if"]
    cond = guard.operands[0].owner
    assert str(cond.attributes["predicate"]) == "2 : i64", cond     # slt: lb < ub
