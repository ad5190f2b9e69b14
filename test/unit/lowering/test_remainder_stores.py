"""The remainder's LDS stores placed before a straight pair's last MMA block
(``pipeline_mlir/lowering/remainder_stores.py``), and each reason they stay, on a small
function shaped as the lowering leaves IREE's batch at K = 192: the epilogue's last wait and
MMA block, then the remainder of one iteration storing its carried registers to its own LDS.
IREE's kernel itself is run exact with the stores moved by ``test/unit/tools/
test_iree_straight_pair.py``."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
from pipeline_mlir.lowering.remainder_stores import stores_before_last_mma

LDS = "#gpu.address_space<workgroup>"
MFMA = "amdgpu.mfma 16x16x32 %a * %a + %x : vector<8xbf16>, vector<8xbf16>, vector<4xf32>"

KERNEL = f"""
func.func @k(%a: vector<8xbf16>, %x: vector<4xf32>, %i: index, %arg: memref<64xbf16, {LDS}>,
             %g: memref<4xindex>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lds = memref.alloc() : memref<64xbf16, {LDS}>
  BEFORE
  %m0 = {MFMA}
  rocdl.sched.barrier none
  rocdl.s.waitcnt 49279
  rocdl.sched.barrier none
  %m1 = {MFMA}
  AFTER
  rocdl.s.barrier
  %view = memref.subview DEST[0] [64] [1] : memref<64xbf16, {LDS}>
      to memref<64xbf16, strided<[1]>, {LDS}>
  %r = scf.for %iv = %c0 to UB step %c1 iter_args(%ar = %a) -> (vector<8xbf16>) {{
    gpu.barrier
    BODY
    vector.store VALUE, %view[INDEX] : memref<64xbf16, strided<[1]>, {LDS}>, vector<8xbf16>
    gpu.barrier
    %l = vector.load %view[%c0] : memref<64xbf16, strided<[1]>, {LDS}>, vector<8xbf16>
    scf.yield %l : vector<8xbf16>
  }} {{sched.remainder, sched.loads_ahead}}
  return
}}
"""
PLAIN = dict(BEFORE="", AFTER="", BODY="", DEST="%lds", UB="%c1", VALUE="%ar", INDEX="%i")


def _run(text: str):
    """(why the stores stay or None, the names of the ops beside the remainder, in order)."""
    with new_context():
        module = ir.Module.parse(text)
        loop = next(iter(walk_ops(module.operation,
                                  lambda o: "sched.remainder" in o.attributes)))
        why = stores_before_last_mma(loop)
        names = [as_operation(o).name for o in loop.block.operations]
        assert module.operation.verify()
    return why, names


def _kernel(**edits) -> str:
    text = KERNEL
    for k, v in {**PLAIN, **edits}.items():
        text = text.replace(k, v)
    return text


def test_the_stores_go_before_the_last_mma_block():
    why, names = _run(_kernel())
    assert why is None
    # after the last wait and its fence: the view they need, the store, then the MFMA
    wait = names.index("rocdl.s.waitcnt")
    assert names[wait + 1:wait + 5] == ["rocdl.sched.barrier", "memref.subview",
                                       "vector.store", "amdgpu.mfma"], names


REFUSED = {
    "it does not run exactly one iteration": dict(UB="%i"),
    "a loop around it may run it again": None,
    "its body stores no carried value to LDS": dict(VALUE="%a"),
    "its body writes LDS other than by storing a carried value": dict(
        BODY=f"vector.store %a, %view[%c0] : memref<64xbf16, strided<[1]>, {LDS}>, "
             "vector<8xbf16>"),
    "its body waits for a memory counter": dict(BODY="rocdl.s.waitcnt 0"),
    "a store's address depends on the loop": dict(INDEX="%iv"),
    "a store writes LDS that is not an allocation of the kernel's": dict(DEST="%arg"),
    "a buffer it stores to is used outside the remainder": dict(
        BEFORE=f"%u = vector.load %lds[%c0] : memref<64xbf16, {LDS}>, vector<8xbf16>"),
    "its body accesses a buffer it stores to before the stores": dict(
        BODY=f"%u = vector.load %view[%c0] : memref<64xbf16, strided<[1]>, {LDS}>, "
             "vector<8xbf16>"),
    "a wait after the epilogue's last MMA block would count the stores": dict(
        AFTER="rocdl.s.waitcnt 0"),
    "a store needs an op after the epilogue's last wait that has side effects": dict(
        AFTER="%j = memref.load %g[%c0] : memref<4xindex>", INDEX="%j"),
}


def _around() -> str:
    """The kernel with its code from the first MFMA on in a loop of two iterations."""
    text = _kernel()
    head, rest = text.split("  %m0 = ", 1)
    body, tail = rest.split("  return\n", 1)
    return (head + "  %c2 = arith.constant 2 : index\n  scf.for %o = %c0 to %c2 step %c1 {\n"
            "  %m0 = " + body + "  }\n  return\n" + tail)


@pytest.mark.parametrize("reason", list(REFUSED))
def test_each_reason_keeps_the_stores_in_the_loop(reason):
    edits = REFUSED[reason]
    why, names = _run(_around() if edits is None else _kernel(**edits))
    assert why == reason
    assert "vector.store" not in names


#: each op that waits for (or marks) a memory counter, as the front end lists them
#: (``remainder_ahead.WAITS``): in the remainder's body or after the epilogue's last MMA block
WAIT_OPS = ["rocdl.s.waitcnt 0", "amdgpu.memory_counter_wait load(0)", "rocdl.asyncmark",
            "rocdl.wait.asyncmark 0", "rocdl.s.wait.loadcnt 0"]


@pytest.mark.parametrize("where,reason", [
    ("BODY", "its body waits for a memory counter"),
    ("AFTER", "a wait after the epilogue's last MMA block would count the stores")])
@pytest.mark.parametrize("wait", WAIT_OPS)
def test_every_kind_of_wait_keeps_the_stores(wait, where, reason):
    why, names = _run(_kernel(**{where: wait}))
    assert why == reason and "vector.store" not in names


@pytest.mark.parametrize("drop,reason", [("mfma", "no MFMA before the remainder"),
                                         ("wait", "no wait before the last MFMA")])
def test_no_place_keeps_the_stores(drop, reason):
    text = _kernel()
    if drop == "mfma":
        text = text.replace(f"%m0 = {MFMA}", "").replace(f"%m1 = {MFMA}", "")
    else:
        text = text.replace("rocdl.s.waitcnt 49279", "")
    why, names = _run(text)
    assert why == reason and "vector.store" not in names
