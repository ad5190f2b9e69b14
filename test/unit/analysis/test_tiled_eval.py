"""Many workgroups side by side over one workgroup's source (``pipeline_mlir/analysis/
tiled_eval.py``): exactly a ``SideBySide``'s values, what no workgroup moves evaluated once in
the source, and the source, shared by evaluators and proofs, told of every change of the IR
(the second evaluation after a change sees it)."""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.loop_eval import Repeated, SideBySide
from pipeline_mlir.analysis.tiled_eval import Crossed, StepSource, Tiled, TileSource
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

TEXT = """
func.func @f(%buf: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %wg = gpu.block_id x upper_bound 8
  %lane = arith.remui %tid, %c4 : index
  %row = arith.muli %lane, %c3 : index
  %base = arith.muli %wg, %c64 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %kr = arith.addi %row, %k : index
    %i = arith.addi %kr, %base : index
    memref.store %f, %buf[%i] : memref<4096xf32>
  }
  return
}
"""


def _kernel():
    """(context, module, the values and ops the tests read, by name)."""
    ctx = new_context()
    m = ir.Module.parse(TEXT, ctx)
    ops = walk_ops(m.operation, lambda o: o.name in ("arith.remui", "arith.muli", "arith.addi",
                                                     "gpu.block_id", "scf.for"))
    rem, row, base, loop, kr, i = [o for o in ops if o.name != "gpu.block_id"]
    wg = next(o for o in ops if o.name == "gpu.block_id")
    c64 = walk_ops(m.operation, lambda o: o.name == "arith.constant" and "64" in str(o))[0]
    return ctx, m, dict(rem=rem, row=row.results[0], base=base.results[0],
                        kr=kr.results[0], i=i.results[0], wg=wg.results[0],
                        k=loop.regions[0].blocks[0].arguments[0], row_op=row, c64=c64)


def _bound(ev, v, wgs, k) -> None:
    ev.bind(v["wg"], np.repeat(wgs, 64))
    ev.bind(v["k"], k)


def test_tiled_values_are_side_by_side_values_and_the_thread_part_is_evaluated_once():
    ctx, m, v = _kernel()
    wgs = np.array([0, 3, 7])
    source = TileSource((64, 1, 1), launch_values=False)
    for k in (0, 2):
        plain = SideBySide((64, 1, 1), len(wgs), launch_values=False)
        tiled = Tiled(source, len(wgs))
        _bound(plain, v, wgs, k)
        _bound(tiled, v, wgs, k)
        for name in ("row", "base", "kr", "i"):
            np.testing.assert_array_equal(tiled.value(v[name]), plain.value(v[name]))
    tid = np.tile(np.arange(64), 3)
    np.testing.assert_array_equal(tiled.value(v["i"]),
                                  tid % 4 * 3 + 2 + np.repeat(wgs, 64) * 64)
    # the thread's part taken from the source, tiled; what moves computed over every lane
    assert v["row"] in source.memo and v["row"] not in source.moving
    assert {v["base"], v["kr"], v["i"], v["k"], v["wg"]} <= source.moving
    # K steps side by side: what only the step moves taken once per step, broadcast over
    # the workgroups; a new batch of steps (rebound) forgets what it took
    steps = StepSource(source, 2)
    crossed = Crossed(tiled, 2, v["k"], steps)
    repeated = Repeated(plain, 2, v["k"])
    for batch in ([1, 3], [0, 2]):
        steps.bind(v["k"], np.repeat(batch, 64))
        for ev in (crossed, repeated):
            ev.bind(v["k"], np.repeat(batch, 3 * 64))
        for name in ("row", "kr", "i"):
            np.testing.assert_array_equal(crossed.value(v[name]), repeated.value(v[name]))
    assert v["kr"] in steps.memo and v["kr"] not in steps.moving and v["i"] in steps.moving


def test_a_shared_source_sees_a_change_of_the_ir_between_two_evaluations():
    """Two evaluations (two proofs, the second after the IR changed) share one source: an
    operand rewired (a thread's part read through another constant) and an op
    replaced by another (its uses rewired, then erased) reach the second, as they reach
    every evaluator."""
    ctx, m, v = _kernel()
    wgs = np.array([1, 5])
    source = TileSource((64, 1, 1), launch_values=False)
    first = Tiled(source, len(wgs))
    _bound(first, v, wgs, 0)
    tid = np.tile(np.arange(64), 2)
    np.testing.assert_array_equal(first.value(v["i"]), tid % 4 * 3 + np.repeat(wgs, 64) * 64)
    # the row's multiplier 3 made 64 (the operand rewired: the bindings tell the caches)
    v["row_op"].operands[1] = v["c64"].results[0]
    second = Tiled(source, len(wgs))
    _bound(second, v, wgs, 0)
    np.testing.assert_array_equal(second.value(v["i"]),
                                  tid % 4 * 64 + np.repeat(wgs, 64) * 64)
    # and the remainder's op replaced by another (erased: its address may be taken again)
    with ctx, ir.Location.unknown(), ir.InsertionPoint(v["rem"]):
        t = ir.IndexType.get()
        c2 = ir.Operation.create("arith.constant", results=[t],
                                 attributes={"value": ir.IntegerAttr.get(t, 2)})
        div = ir.Operation.create("arith.divui", results=[t],
                                  operands=[v["rem"].operands[0], c2.results[0]])
    v["rem"].results[0].replace_all_uses_with(div.results[0])
    v["rem"].erase()
    third = Tiled(source, len(wgs))
    _bound(third, v, wgs, 0)
    np.testing.assert_array_equal(third.value(v["i"]),
                                  tid // 2 * 64 + np.repeat(wgs, 64) * 64)


def test_evaluators_on_one_source_share_what_they_read_off_the_ir():
    """What a caller reads off the IR alone (``structure``: the ops computing a select's
    condition, a box's integer operands) is the source's, for every evaluator on it (the
    boxes of one proof ask of the same ops), and forgotten by all at a change of the IR."""
    ctx, m, v = _kernel()
    source = TileSource((64, 1, 1), launch_values=False)
    first, second = Tiled(source, 2), StepSource(source, 3)
    assert first.structure is source.structure and second.structure is source.structure
    first.structure["key"] = "read off the IR"
    assert second.structure.get("key") == "read off the IR"
    v["row_op"].operands[1] = v["c64"].results[0]       # (the bindings tell the caches)
    assert "key" not in source.structure and "key" not in second.structure


def test_a_fact_of_what_no_workgroup_moves_is_the_sources():
    """``fact_of`` (the kept-mask proof's verdicts that no op wraps, ``exact_ints``): a fact
    of all the lanes together that reads nothing a workgroup or the K step moves is the
    same of the lanes tiled, so it is computed once, in the source, for every evaluator on
    it; one that reads a moving value is computed over the evaluator's own lanes (the
    source's, of its first workgroup only, says otherwise here)."""
    ctx, m, v = _kernel()
    wgs = np.array([0, 3, 7])
    source = TileSource((64, 1, 1), launch_values=False)
    plain = SideBySide((64, 1, 1), len(wgs), launch_values=False)
    _bound(plain, v, wgs, 1)
    want = {name: bool((plain.value(v[name]) >= 128).any()) for name in ("row", "i")}
    seen = []

    def past(name):
        def compute(ev):
            seen.append(type(ev).__name__)
            return bool((ev.value(v[name]) >= 128).any())
        return compute
    for _ in range(2):                  # (two evaluators, one source: computed once there)
        tiled = Tiled(source, len(wgs))
        _bound(tiled, v, wgs, 1)
        for name in ("row", "i"):
            assert tiled.fact_of((name, v["row_op"]), past(name)) == want[name]
    assert seen == ["TileSource", "TileSource", "Tiled", "Tiled"]
    assert want["i"] and source.facts[("i", v["row_op"])] is False
