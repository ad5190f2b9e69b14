"""The pipelined main loop on a 32-bit counter (``pipeline_mlir/lowering/loop_i32.py``) and
the bounds analysis it relies on (``pipeline_mlir/analysis/index_bounds.py``).

The shipped kernels bound their loop from the 32-bit K (``kernel/loop_once.py``), so the
lowering runs it on ``i32`` with an unsigned compare and LLVM keeps the counter and the
exit test on the SALU (no ``v_cmp_*_i64``); a bound the analysis cannot prove to fit keeps
the ``index`` loop.  Exactness: the emulator runs of the shipped kernels
(``test/unit/emu``) and of the front end's kernels."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build, main_loop
from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE
from pipeline_mlir.lowering.loop_i32 import U32_MAX, narrowed_bounds

FUNC = """
func.func @f(%K: index, %Ki: i32, %s: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %big = arith.constant 4294967296 : index
  %kx = arith.index_castui %Ki : i32 to index
  %np0 = arith.divui %kx, %c128 : index
  %np = arith.maxui %np0, %c1 : index
  %kend = arith.muli %np, %c128 : index
  %start = arith.addi %c0, %c128 : index
  %ks = arith.index_cast %Ki : i32 to index
  %kr = arith.remui %kx, %c128 : index
  %w = arith.muli %Ki, %Ki : i32
  %kw = arith.index_castui %w : i32 to index
  %sx = arith.index_castui %s : i32 to index
  %kmin = arith.minui %kx, %c128 : index
  %kplus = arith.addi %kend, %c128 : index
  %kmn = arith.minsi %K, %big : index
  %clamp = arith.maxsi %kmn, %c1 : index
  %kmx = arith.maxsi %K, %c1 : index
  %clamp2 = arith.minsi %kmx, %c128 : index
  %cm1 = arith.constant -1 : index
  %negclamp = arith.maxsi %kmn, %cm1 : index
  %both = arith.maxsi %kr, %c128 : index
  %split = arith.divsi %K, %c128 : index
  %splitc = arith.maxsi %split, %kr : index
  return
}
"""


@pytest.fixture(scope="module")
def values():
    with new_context() as ctx, ir.Location.unknown():
        module = ir.Module.parse(FUNC)
        func = module.body.operations[0]
        names = re.findall(r"^  %(\w+) = ", FUNC, re.M)
        ops = [o for o in func.regions[0].blocks[0].operations if len(o.results) == 1]
        out = {n: o.results[0] for n, o in zip(names, ops)}
        out["K"] = func.regions[0].blocks[0].arguments[0]
        yield ctx, module, out


@pytest.mark.parametrize("name, bounds", [
    ("c128", (128, 128)), ("kx", (0, U32_MAX)), ("np0", (0, U32_MAX // 128)),
    ("np", (1, U32_MAX // 128)), ("kend", (128, U32_MAX // 128 * 128)),
    ("start", (128, 128)), ("kr", (0, 127)), ("kmin", (0, 128)),
    ("kplus", (256, U32_MAX // 128 * 128 + 128)),
    # a signed clamp of any value between two non-negative ones (frontend/tails.clamp_split)
    ("clamp", (1, 1 << 32)), ("clamp2", (1, 128)),
    # unknown: an index argument, a signed cast of a value that may be negative, an i32
    # product that may wrap
    ("K", None), ("ks", None), ("kw", (0, U32_MAX)),
    # a signed min or max alone (of an unknown value, or of two known ones: only the clamp
    # is needed), a clamp below a negative value
    ("kmn", None), ("kmx", None), ("both", None), ("splitc", None), ("negclamp", None),
])
def test_the_bounds(values, name, bounds):
    assert unsigned_bounds(values[2][name]) == bounds


def _narrow(values, start, ub, step):
    _, module, v = values
    func = module.body.operations[0]
    with ir.InsertionPoint(func.regions[0].blocks[0].operations[0]):
        return narrowed_bounds(v[start], v[ub], v[step])


def test_a_bound_from_the_32_bit_k_is_narrowed(values):
    got = _narrow(values, "start", "kend", "c128")
    assert got is not None and all(str(x.type) == "i32" for x in got)


@pytest.mark.parametrize("ub, step, why", [
    ("K", "c128", "an index argument: unknown"),
    ("big", "c1", "2**32 does not fit the counter"),
    ("kplus", "c128", "bound + step - 1 may pass 2**32 - 1: the counter could wrap"),
    ("kend", "kr", "the step may be 0"),
])
def test_a_loop_that_may_not_fit_keeps_its_index_counter(values, ub, step, why):
    assert _narrow(values, "start", ub, step) is None, why


@pytest.mark.parametrize("key", ["pingpong-bf16", "4wave-bf16", "4wave-mxfp8-256"])
def test_the_main_loop_counts_on_the_salu(key):
    """Before: ``s_add_u32``/``s_addc_u32`` of a 64-bit counter, ``v_mov_b64`` of the bound
    and a 64-bit ``v_cmp`` into vcc each iteration.  Now no VALU instruction is left in the
    loop, whichever way the body's K position is made (ping-pong: carried as an ``index``;
    cast from the counter, two of its DMAs got a ``v_add_u32`` each)."""
    lines, loop = main_loop(build(key).asm)
    body = [lines[i].split()[0] for i in loop if lines[i].strip()
            and not lines[i].strip().startswith(";")]
    assert not any(re.match(r"v_(?!mfma)", m) for m in body), body
    assert "s_addc_u32" not in body and body[-1] in ("s_cbranch_scc0", "s_cbranch_scc1")
    assert any(m.startswith("s_cmp") for m in body[-6:]), body[-6:]


@pytest.mark.parametrize("key, carried", [
    ("pingpong-bf16", True), ("4wave-mxfp8-256-once", True),
    ("4wave-bf16", False), ("4wave-mxfp8-256", False),
])
def test_the_k_position_is_carried_only_by_a_loop_without_a_zero_trip_path(key, carried):
    """``loop_i32.carries_k_position``: the 64-bit K position is a second loop-carried
    value (an ``i64`` phi beside the ``i32`` counter) in a loop the plan gives no zero-trip
    fence; with one it is cast from the counter (with the carried form the MXFP8 256x256
    kernel spilled 4 VGPRs in its epilogue), and nothing 64-bit crosses the loop."""
    b = build(key)
    assert any(p.kind == ZERO_TRIP_FENCE for p in b.plan.parts) != carried
    assert len(re.findall(r"= phi i32 ", b.ll)) == 1
    assert len(re.findall(r"= phi i64 ", b.ll)) == int(carried)
    assert (".vgpr_spill_count: 0" in b.asm) and "scratch_" not in b.asm
