"""The barrier on the way into a loop whose LDS read the front end moves to its entry
(``check_entry`` in ``pipeline_mlir/frontend/soundness.py``), on a small hand-written
kernel: LDS zeroed before the loop by other threads than read it, one barrier (or none)
between, a read in the loop.  A barrier that fences workgroup memory orders them, and so
does a bare one behind a wait of the store's counter; anything else is refused at the
barrier, or at the read when no barrier is on the way."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.private_stage import root_of
from pipeline_mlir.frontend.soundness import check_entry

KERNEL = """
func.func @k(%lds: memref<256x4xf32, #gpu.address_space<workgroup>>,
             %other: memref<256x4xf32, #gpu.address_space<workgroup>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %t = gpu.thread_id x
  %u = arith.addi %t, %c1 : index
  vector.store %z, WRITTEN[%u, %c0] : memref<256x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  ENTRY
  scf.for %i = %c0 to %n step %c1 {
    %v = vector.load %lds[%t, %c0] : memref<256x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %lds[%t, %c0] : memref<256x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  }
  return
}
"""
FENCED = "gpu.barrier memfence [#gpu.address_space<workgroup>]"


def _check(entry: list, written: str = "%lds") -> None:
    text = KERNEL.replace("ENTRY", "\n  ".join(entry)).replace("WRITTEN", written)
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        func = module.body.operations[0]
        loop = next(o for o in func.regions[0].blocks[0].operations if o.name == "scf.for")
        read = loop.regions[0].blocks[0].operations[0]
        root = root_of(read.operands[0])
        check_entry(loop, lambda x: root_of(x) == root, read)


@pytest.mark.parametrize("entry", [
    [FENCED], ["gpu.barrier"], ["amdgpu.lds_barrier"],
    ["rocdl.s.waitcnt 49279", "rocdl.s.barrier"],            # lgkmcnt(0)
    ["rocdl.s.waitcnt 112", "gpu.barrier memfence []"],       # vmcnt(0) lgkmcnt(0)
    ["rocdl.s.barrier", FENCED],
    ["amdgpu.memory_counter_wait ds(0)", "rocdl.s.barrier"],  # lgkmcnt(0), upstream's op
], ids=["fenced", "no memfence", "lds_barrier", "bare after lgkmcnt", "fenceless after wait",
        "bare then fenced", "bare after ds(0)"])
def test_an_ordering_barrier_is_taken(entry):
    _check(entry)


def test_writes_of_another_buffer_need_no_barrier():
    _check([], written="%other")


@pytest.mark.parametrize("entry,op,message", [
    (["rocdl.s.barrier"], "rocdl.s.barrier",
     "waits for none of the wave's memory operations"),
    (["rocdl.s.waitcnt 3952", "rocdl.s.barrier"], "rocdl.s.barrier",   # vmcnt(0) only
     "no rocdl.s.waitcnt with lgkmcnt(0) comes between them"),
    (["rocdl.s.barrier", "rocdl.s.waitcnt 49279"], "rocdl.s.barrier",  # the wait after it
     "it is the only barrier between 'vector.store' op"),
    (["gpu.barrier memfence []"], "gpu.barrier", "(memfence []) fences no workgroup memory"),
    (["rocdl.s.barrier", "gpu.barrier memfence []"], "rocdl.s.barrier",
     "the first of 2 barriers, none of which orders them"),
    ([], "vector.load", "with no barrier between them on the way into the loop"),
    (["amdgpu.memory_counter_wait load(0) store(0) ds(1)", "rocdl.s.barrier"],
     "rocdl.s.barrier", "no rocdl.s.waitcnt with lgkmcnt(0) comes between them (nor an "
                        "amdgpu.memory_counter_wait with ds(0) for lgkmcnt)"),
], ids=["bare", "bare after vmcnt", "wait after", "fenceless", "two bare", "none",
        "bare after ds(1)"])
def test_an_unordered_entry_is_refused_at_the_barrier(entry, op, message):
    with pytest.raises(IRError) as e:
        _check(entry)
    assert e.value.op.name == op and message in str(e.value), str(e.value)
    assert "a read of LDS that the front end moves to the loop's entry" in str(e.value)
