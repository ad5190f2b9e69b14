"""The one rule of a barrier ordering LDS (``orders`` in ``pipeline_mlir/analysis/barriers.py``)
in the front end's readers besides the K-loop's own check: a bare ``rocdl.s.barrier``
behind a wait of the access's counter orders it as a fenced barrier does.

* ``private_stage`` (a private copy of an LDS tile read from the tile): the barrier after
  the last forwarded read may be a bare one behind ``lgkmcnt(0)``; a body whose barriers
  are all bare is taken (it was refused: "whose body has none"), the barrier it adds when
  none orders the reads is the body's last, behind a wait of ``lgkmcnt(0)`` when bare;
* ``aliased_remainder.barrier_first`` (the drain before a remainder on the schedule's
  buffers needs no barrier of its own): a bare barrier at the top of the remainder's body
  counts behind ``lgkmcnt(0)`` (the drain's own wait is ``vmcnt(0)``), not without.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.aliased_remainder import barrier_first
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from test_masked_stage import LOAD, WHOLE, _forward, _loop

LGKM0 = "rocdl.s.waitcnt 49279"        # lgkmcnt(0)
VM0 = "rocdl.s.waitcnt 3952"           # vmcnt(0)


def _staged(top: list, end: list) -> str:
    """The masked staging loop of test_masked_stage.py with its body's first barrier
    replaced by ``top`` and its last by ``end`` (op lines)."""
    text = _loop(WHOLE, LOAD)
    first, last = text.index("    gpu.barrier\n"), text.rindex("    gpu.barrier\n")
    lines = lambda ops: "".join(f"    {o}\n" for o in ops)   # noqa: E731
    return (text[:first] + lines(top) + text[first + len("    gpu.barrier\n"):last]
            + lines(end) + text[last + len("    gpu.barrier\n"):])


def _body_ops(out: str) -> list:
    body = out[out.index("scf.for"):out.rindex("return")]
    return [ln.strip() for ln in body.splitlines()
            if "barrier" in ln or "s.waitcnt" in ln]


@pytest.mark.parametrize("top,end,after", [
    (["gpu.barrier"], [LGKM0, "rocdl.s.barrier"],
     ["gpu.barrier", LGKM0, "rocdl.s.barrier"]),                  # ordered: nothing added
    ([LGKM0, "rocdl.s.barrier"], [LGKM0, "rocdl.s.barrier"],
     [LGKM0, "rocdl.s.barrier", LGKM0, "rocdl.s.barrier"]),       # all bare, ordered
    ([LGKM0, "rocdl.s.barrier"], ["rocdl.s.barrier"],
     [LGKM0, "rocdl.s.barrier", "rocdl.s.barrier", LGKM0, "rocdl.s.barrier"]),
    ([LGKM0, "rocdl.s.barrier"], [VM0, "rocdl.s.barrier"],
     [LGKM0, "rocdl.s.barrier", VM0, "rocdl.s.barrier", LGKM0, "rocdl.s.barrier"]),
    (["gpu.barrier"], ["rocdl.s.barrier"],
     ["gpu.barrier", "rocdl.s.barrier", "gpu.barrier"]),          # the fenced one repeated
], ids=["bare after lgkmcnt", "all bare", "bare unordered", "bare after vmcnt",
        "fenced repeated"])
def test_a_forwarded_tile_is_ordered_by_the_one_rule(top, end, after):
    n, out, _ = _forward(_staged(top, end))
    assert n == 1 and "private" not in out, out
    assert _body_ops(out) == after, _body_ops(out)


def test_a_body_with_no_barrier_is_still_refused():
    with pytest.raises(IRError, match="reads a private copy of an LDS tile with no barrier "
                                      "after it in the K-loop, whose body has none"):
        _forward(_staged([LGKM0], [LGKM0]))


REMAINDER = """
func.func @f(%n: index) {
  %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
TOP
    %v = memref.load %lds[%i] : memref<64xf32, #gpu.address_space<workgroup>>
  }
  return
}
"""


@pytest.mark.parametrize("top,first", [
    (["gpu.barrier"], True), (["amdgpu.lds_barrier"], True),
    ([LGKM0, "rocdl.s.barrier"], True),
    (["amdgpu.memory_counter_wait ds(0)", "gpu.barrier memfence []"], True),
    (["rocdl.s.barrier"], False), ([VM0, "rocdl.s.barrier"], False),
    (["rocdl.s.barrier", LGKM0], False), (["gpu.barrier memfence []"], False),
], ids=["fenced", "lds_barrier", "bare after lgkmcnt", "fenceless after ds(0)", "bare",
        "bare after vmcnt", "wait after", "fenceless"])
def test_a_remainder_barrier_spares_the_drains_by_the_one_rule(top, first):
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(REMAINDER.replace("TOP", "\n".join(f"    {o}" for o in top)), ctx)
        rem = next(o.operation for o in m.body.operations[0].regions[0].blocks[0].operations
                   if o.operation.name == "scf.for")
        with ir.InsertionPoint(rem):
            drain = B.rocdl.s_waitcnt(waitcnt_imm(vmcnt=0))
        assert barrier_first(rem, drain.operation) is first


def test_the_natural_kernel_behind_upstreams_waits_is_exact():
    """The example natural kernel at 5 K tiles with each barrier of its K-loop a bare
    ``rocdl.s.barrier`` behind upstream's ``amdgpu.memory_counter_wait`` (``ds(0)`` at
    the top, ``load(0)`` after the copies; ``analysis/barriers.py`` reads them as
    ``lgkmcnt(0)`` and ``vmcnt(0)``): taken, and exact on the emulator, remainder
    included."""
    import sys
    from pathlib import Path

    import numpy as np

    from kernel_builds import pipeline_opt_hsaco
    from test_natural_emu import first_tile

    sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
    from natural_kernel import kernel_text

    lines = kernel_text(src="buffer", k=32 * 5).split("\n")
    at = [i for i, ln in enumerate(lines) if ln.strip() == "gpu.barrier"]
    assert len(at) == 2, at
    ind = lines[at[0]][:len(lines[at[0]]) - len(lines[at[0]].lstrip())]
    for i, wait in zip(at, ("ds(0)", "load(0)")):
        lines[i] = f"{ind}amdgpu.memory_counter_wait {wait}\n{ind}rocdl.s.barrier"
    hsaco = pipeline_opt_hsaco("4wave", "\n".join(lines))
    C, ref = first_tile(hsaco, "bf16", "late", k=32 * 5)
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"
