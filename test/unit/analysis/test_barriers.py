"""Which barriers order LDS (``pipeline_mlir/analysis/barriers.py``): a ``gpu.barrier`` with no
``memfence`` or one that lists workgroup memory does; ``memfence []`` and a fence of global
memory alone do not.  The LDS stream (``analysis/lds_order.py``) then has no wait for the
wave's LDS operations at such a barrier, so a register-staged store read behind it alone is
a hazard, and safe behind a barrier that fences workgroup memory."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.barriers import fences_lds
from pipeline_mlir.analysis.lds_order import lds_events
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.sim.lds_events import check

KERNEL = """
func.func @f(%g: memref<64xf32, #gpu.address_space<global>>) {
  %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %v = memref.load %g[%t] : memref<64xf32, #gpu.address_space<global>>
  memref.store %v, %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  BARRIER
  %w = memref.load %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %g[%t] : memref<64xf32, #gpu.address_space<global>>
  return
}
"""

FENCES = {"gpu.barrier": True,
          "gpu.barrier memfence [#gpu.address_space<workgroup>]": True,
          "gpu.barrier memfence [#gpu.address_space<global>, #gpu.address_space<workgroup>]":
              True,
          "amdgpu.lds_barrier": True,
          "gpu.barrier memfence []": False,
          "gpu.barrier memfence [#gpu.address_space<global>]": False}


@pytest.mark.parametrize("barrier,orders", FENCES.items(), ids=range(len(FENCES)))
def test_only_a_fence_of_workgroup_memory_orders_lds(barrier, orders):
    with new_context() as ctx:
        module = ir.Module.parse(KERNEL.replace("BARRIER", barrier), ctx)
        (op,) = walk_ops(module.operation, lambda o: o.name.endswith("barrier"))
        assert fences_lds(op) is orders
        events, _ops = lds_events(walk_ops(module.operation,
                                           lambda o: o.name == "func.func")[0])
    hazards = [h.kind for h in check(events)]
    assert hazards == ([] if orders else ["raw"]), hazards
