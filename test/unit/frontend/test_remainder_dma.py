"""The copies to LDS of a one-iteration remainder issued before the pipelined loop
(``frontend/remainder_dma.py``).

A small kernel (a loop standing for the pipelined one, then a remainder of one iteration:
a barrier, a copy straight to LDS into a buffer of its own, a barrier, an LDS read the
accumulator takes) is rewritten: the copy above the first loop, at the remainder's lower
bound, with the views it needs; the barriers and the read stay.  The emulator runs the
rewrite on IREE's kernel (``test/unit/tools/test_tails_iree.py``: 35 K steps, both forms,
late and random mode) and on the example natural kernel at 3, 5 and 7 K tiles
(``test/unit/frontend/test_tails.py``).  Each condition the rewrite relies on leaves the
loop as written, with the reason on the loop.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.remainder_dma import copies_ahead, dma_copies_ahead
from pipeline_mlir.frontend.marks import (COPIES_AHEAD_ATTR as AHEAD_ATTR,
                                          COPIES_IN_PLACE_ATTR as IN_PLACE_ATTR)

from test_remainder_ahead import GLOBAL, LDS, rewritten   # (the same small kernel's)

SUB = "memref<8xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>"


def kernel(copy: str = "amdgpu.gather_to_lds %A[%i, %c0], %V[%c0] : vector<4xf32>, {G}, {S}",
           before: str = "", between: str = "", ub: str = "%c40", pre: str = "",
           buffer: str = "%R = memref.alloc() : {L}", around: str = "") -> str:
    body = f"""
    {before.format(G=GLOBAL, L=LDS, S=SUB)}
    gpu.barrier
    {copy.format(G=GLOBAL, L=LDS, S=SUB)}
    gpu.barrier
    %w = vector.load %R[%c4] : {LDS}, vector<4xf32>
    %s = arith.addf %acc, %w : vector<4xf32>
    %j2 = arith.addi %j, %c1 : index
    scf.yield %s, %j2 : vector<4xf32>, index"""
    loops = f"""
  %p:2 = scf.for %q = %c0 to %c32 step %c8 iter_args(%a0 = %z, %k0 = %c0)
      -> (vector<4xf32>, index) {{
    gpu.barrier
    %k1 = arith.addi %k0, %c1 : index
    scf.yield %a0, %k1 : vector<4xf32>, index
  }}
  %V = memref.subview %R[%c8] [8] [1] : {LDS} to {SUB}
  {between.format(G=GLOBAL, L=LDS)}
  %r:2 = scf.for %i = %c32 to {ub} step %c8 iter_args(%acc = %p#0, %j = %p#1)
      -> (vector<4xf32>, index) {{{body}
  }} {{sched.remainder}}"""
    if around:   # (an op whose body may run more than once)
        loops = f"{around} {{{loops}\n  }}"
    return f"""
func.func @k(%A: {GLOBAL}, %L: {LDS}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  {buffer.format(L=LDS)}
  {pre.format(G=GLOBAL, L=LDS)}
  {loops}
  return
}}"""


def rewrite(text: str):
    m, loops = rewritten(text, dma_copies_ahead)
    return m, loops[-1]


@pytest.mark.parametrize("between", ["", "left-over"])
def test_the_copy_goes_before_the_pipelined_loop(between):
    """Above the pipelined loop, past a remainder loop between them (a merged loop's
    left-over K steps, which run before the odd one's)."""
    other = ("%o = scf.for %u = %c0 to %c8 step %c8 iter_args(%a1 = %z) -> (vector<4xf32>) {{\n"
             "    gpu.barrier\n    scf.yield %a1 : vector<4xf32>\n  }} {{sched.remainder}}")
    m, loop = rewrite(kernel(between=other if between else ""))
    assert AHEAD_ATTR in loop.attributes and IN_PLACE_ATTR not in loop.attributes
    m.operation.verify()
    body = [o.name for o in loop.regions[0].blocks[0].operations]
    assert "amdgpu.gather_to_lds" not in body and body.count("gpu.barrier") == 2, body
    ops = list(loop.block.operations)
    names = [o.name for o in ops]
    (copy,) = [o for o in ops if o.name == "amdgpu.gather_to_lds"]
    assert names.index("amdgpu.gather_to_lds") < names.index("scf.for"), names
    # at the remainder's lower bound, into the view of its own buffer cloned above it
    assert copy.operands[1] == loop.operands[0], copy
    view = copy.operands[3].owner
    assert view.name == "memref.subview" and names.index("memref.subview") < names.index(
        "amdgpu.gather_to_lds"), names
    # the view after the pipelined loop, which only the copy used, is gone
    assert names.count("memref.subview") == 1, names


def test_a_lower_bound_after_the_pipelined_loop_is_cloned_with_the_copy():
    """The remainder's lower bound defined between the two loops: cloned above the
    pipelined loop with the copy (it was used there before its definition: the module did
    not verify)."""
    text = kernel(between="%cq = arith.constant 32 : index").replace(
        "scf.for %i = %c32 to", "scf.for %i = %cq to")
    m, loop = rewrite(text)
    assert AHEAD_ATTR in loop.attributes
    m.operation.verify()
    names = [o.name for o in loop.block.operations]
    (copy,) = [o for o in loop.block.operations if o.name == "amdgpu.gather_to_lds"]
    assert copy.operands[1] != loop.operands[0]
    assert ir.IntegerAttr(copy.operands[1].owner.attributes["value"]).value == 32
    assert names.index("amdgpu.gather_to_lds") < names.index("scf.for"), names


@pytest.mark.parametrize("edit,why", [
    (dict(ub="%c48"), "it does not run exactly one iteration"),
    (dict(around="scf.for %b = %c0 to %c4 step %c1"), "a loop around it ('scf.for') runs it "
                                                       "again"),
    # (a sequential loop too: each iteration's copies, issued ahead, would overwrite the
    # buffer the previous iteration's remainder may still read: an lds-race of the emulator
    # on IREE's kernel in one)
    (dict(around="scf.parallel (%b) = (%c0) to (%c4) step (%c1)"),
     "a loop around it ('scf.parallel') runs it again"),
    (dict(around="scf.forall (%b) in (4)"), "a loop around it ('scf.forall') runs it again"),
    (dict(before="rocdl.s.waitcnt 0"), "its body waits for a memory counter"),
    (dict(before="vector.store %z, %R[%c0] : {L}, vector<4xf32>"),
     "its body accesses memory before its last copy"),
    (dict(copy="amdgpu.gather_to_lds %A[%i, %c0], %L[%c0] : vector<4xf32>, {G}, {L}"),
     "a copy writes an LDS buffer that is not the remainder's own"),
    (dict(buffer="%R = memref.alloc() : {L}\n  vector.store %z, %R[%c0] : {L}, vector<4xf32>"),
     "a copy writes an LDS buffer that is not the remainder's own"),
    # (the buffer yielded by an scf.if and read under that name before the loops)
    (dict(pre="%t = arith.constant true\n  %x = scf.if %t -> ({L}) {{\n"
              "    scf.yield %R : {L}\n  }} else {{\n    scf.yield %L : {L}\n  }}\n"
              "  %xv = vector.load %x[%c8] : {L}, vector<4xf32>\n"
              "  vector.store %xv, %L[%c0] : {L}, vector<4xf32>"),
     "a copy writes an LDS buffer that is not the remainder's own"),
    (dict(copy="amdgpu.gather_to_lds %A[%j, %c0], %V[%c0] : vector<4xf32>, {G}, {S}"),
     "a copy depends on a value the loop carries"),
    (dict(pre="vector.store %z, %A[%c8, %c0] : {G}, vector<4xf32>"),
     "the kernel may write memory other than LDS before it"),
    (dict(between="%x = memref.load %L[%c8] : {L}\n  %xi = arith.fptosi %x : f32 to i32\n"
                  "  %xx = arith.index_cast %xi : i32 to index",
          copy="amdgpu.gather_to_lds %A[%xx, %c0], %V[%c0] : vector<4xf32>, {G}, {S}"),
     "a copy depends on an op after the pipelined loop that has side effects"),
    (dict(copy="amdgpu.gather_to_lds %A[%p#1, %c0], %V[%c0] : vector<4xf32>, {G}, {S}"),
     "a copy depends on a result of the pipelined loop"),
    (dict(copy="%t = arith.cmpi slt, %i, %c48 : index\n    scf.if %t {{\n"
               "      amdgpu.gather_to_lds %A[%i, %c0], %V[%c0] : vector<4xf32>, {G}, {S}\n"
               "    }}\n    amdgpu.gather_to_lds %A[%i, %c0], %V[%c0] : vector<4xf32>, {G}, {S}"),
     "a copy to LDS is nested in an op of its body"),
], ids=["two-trips", "loop-around", "parallel-around", "forall-around", "counter-wait",
        "lds-write-first", "shared-buffer",
        "buffer-used-before", "buffer-yielded", "carried-index", "global-write-before",
        "side-effect-between",
        "pipelined-result", "nested-copy"])
def test_what_the_rewrite_relies_on_leaves_the_loop_as_written(edit, why):
    m, loop = rewrite(kernel(**edit))
    assert AHEAD_ATTR not in loop.attributes, why
    said = ir.StringAttr(loop.attributes[IN_PLACE_ATTR]).value
    assert why in said, said
    assert any(o.name == "amdgpu.gather_to_lds" for o in loop.regions[0].blocks[0].operations)
    assert copies_ahead(loop) == said.removeprefix("its copies stay in their iteration: ")


def test_a_remainder_without_copies_is_left_alone():
    """No copy to LDS in its body: not this rewrite's (remainder_ahead.py's, if any); asked
    directly, the reason."""
    m, loop = rewrite(kernel(copy=""))
    assert AHEAD_ATTR not in loop.attributes and IN_PLACE_ATTR not in loop.attributes
    assert copies_ahead(loop) == "its body has no copy to LDS of its own (none outside a " \
                                 "nested op)"


def test_a_remainder_no_pipelined_loop_precedes_is_left_alone():
    """The whole loop run as written: nothing to overlap its copies with, no reason put."""
    text = kernel().replace("%p:2 = scf.for %q", "%p:2 = scf.forall_none %q")
    start = text.index("  %p:2 = scf.forall_none")
    end = text.index("  %V = memref.subview")
    text = text[:start] + text[end:].replace("%acc = %p#0, %j = %p#1", "%acc = %z, %j = %c0")
    m, loop = rewrite(text)
    assert AHEAD_ATTR not in loop.attributes and IN_PLACE_ATTR not in loop.attributes
    # asked directly: the reason, not a ValueError from the missing loop's position
    assert copies_ahead(loop) == "no pipelined loop precedes it in its block"
