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


def _kernel_stream(barrier: str, hazards: list, ctx):
    """KERNEL with ``barrier`` in its place: the body's ops, and the indices of its LDS
    store and its barrier, after checking its LDS stream finds ``hazards``."""
    module = ir.Module.parse(KERNEL.replace("BARRIER", barrier), ctx)
    body = list(walk_ops(module.operation, lambda o: o.name != "builtin.module"
                         and o.name != "func.func"))
    events, _ops = lds_events(walk_ops(module.operation, lambda o: o.name == "func.func")[0])
    assert [h.kind for h in check(events)] == hazards
    store = next(i for i, o in enumerate(body) if o.name == "memref.store")
    bar = next(i for i, o in enumerate(body) if o.name == "rocdl.s.barrier")
    return body, store, bar


@pytest.mark.parametrize("barrier,hazards", [
    ("rocdl.s.barrier", ["raw"]),
    ("rocdl.s.waitcnt 49279\n  rocdl.s.barrier", []),          # lgkmcnt(0): the store waited
    ("rocdl.s.waitcnt 3952\n  rocdl.s.barrier", ["raw"]),       # vmcnt(0) lgkmcnt(15): not
    ("rocdl.s.barrier\n  rocdl.s.waitcnt 49279", ["raw"]),      # the wait after it
])
def test_a_bare_barrier_orders_lds_behind_its_wait(barrier, hazards):
    """``rocdl.s.barrier`` waits for nothing (gfx950's s_barrier): the stream orders an LDS
    store before it only behind a ``rocdl.s.waitcnt`` of ``lgkmcnt(0)``; :func:`drained`
    and :func:`waited` say the same of the loop body's ops."""
    from pipeline_mlir.analysis.barriers import drained, waited

    with new_context() as ctx:
        body, store, bar = _kernel_stream(barrier, hazards, ctx)
        assert waited(body, store, bar, "lgkmcnt") is (hazards == [])
        assert not waited(body, store, bar, "vmcnt") or "3952" in barrier
        waits = [drained(o) for o in body if o.name == "rocdl.s.waitcnt"]
        assert waits in ([], [frozenset({"lgkmcnt"})], [frozenset({"vmcnt"})])


@pytest.mark.parametrize("wait,hazards", [
    ("amdgpu.memory_counter_wait ds(0)", []),                   # lgkmcnt(0)
    ("amdgpu.memory_counter_wait load(0) store(0) ds(0) exp(0)", []),
    ("amdgpu.memory_counter_wait load(0)", ["raw"]),            # vmcnt(0) only
    ("amdgpu.memory_counter_wait ds(1)", ["raw"]),
])
def test_a_memory_counter_wait_is_read_as_the_wait_it_is(wait, hazards):
    """Upstream's ``amdgpu.memory_counter_wait`` before a bare barrier: the LDS stream and
    :func:`waited` read its ``ds`` count as ``lgkmcnt`` (its lowering's), so ``ds(0)``
    orders the LDS store and anything else does not."""
    from pipeline_mlir.analysis.barriers import waited

    with new_context() as ctx:
        body, store, bar = _kernel_stream(f"{wait}\n  rocdl.s.barrier", hazards, ctx)
        assert waited(body, store, bar, "lgkmcnt") is (hazards == [])
        assert waited(body, store, bar, "vmcnt") is ("load(0)" in wait)


#: memory_counter_wait fields, each one wait of the kernel below
COUNTER_WAITS = ["load(0)", "store(0)", "load(0) store(0)", "load(0) store(1)", "load(2) store(3)",
                 "ds(0)", "load(3) ds(0)", "exp(0)", "load(100) ds(20)",
                 "load(0) store(0) ds(0) exp(0)"]


def test_memory_counter_wait_counts_are_its_lowerings():
    """:func:`wait_counts` of each ``amdgpu.memory_counter_wait`` is the ``vmcnt`` and
    ``lgkmcnt`` of the ``s_waitcnt`` the MLIR lowering (iree-base-compiler's, for gfx950)
    makes of it, read back from the LLVM IR."""
    import re

    from pipeline_mlir.analysis.barriers import wait_counts
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.isa.waitcnt import decode_waitcnt

    waits = "\n".join(f"      amdgpu.memory_counter_wait {w}" for w in COUNTER_WAITS)
    text = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k() kernel attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
{waits}
      gpu.return
    }}
  }}
}}"""
    llvm = compile(CompileOptions(pass_pipeline="builtin.module()", text=text,
                                  emit="llvm")).output
    lowered = [decode_waitcnt(int(n)) for n in
               re.findall(r"call void @llvm\.amdgcn\.s\.waitcnt\(i32 (\d+)\)", llvm)]
    with new_context() as ctx:
        ops = walk_ops(ir.Module.parse(text, ctx).operation,
                       lambda o: o.name == "amdgpu.memory_counter_wait")
        ours = [wait_counts(o) for o in ops]
    assert ours == [(vm, lgkm) for vm, _exp, lgkm in lowered], (ours, lowered)
    assert ours[3] == (1, 15) and ours[6] == (3, 0)


def test_a_forall_not_over_workgroups_holding_lds_is_not_modelled():
    """The stream runs the body of a forall over workgroups once (its mapping IREE's or
    upstream's #gpu.block); one over threads holding LDS accesses is not modelled."""
    text = """
func.func @f() {
  %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  scf.forall (%i) in (64) {
    %w = memref.load %lds[%i] : memref<64xf32, #gpu.address_space<workgroup>>
  } {mapping = [MAP]}
  return
}
"""
    for mapping, modelled in (("#gpu.block<x>", True), ("#iree_codegen.workgroup_mapping<x>",
                                                         True), ("#gpu.thread<x>", False)):
        with new_context() as ctx:
            module = ir.Module.parse(text.replace("MAP", mapping), ctx)
            out = lds_events(walk_ops(module.operation, lambda o: o.name == "func.func")[0])
        if modelled:
            assert isinstance(out, tuple) and len(out[0]) == 1, out
        else:
            assert isinstance(out, str) and "'scf.forall' op" in out and "not modelled" in out


#: KERNEL's LDS filled by a direct-to-LDS copy (counted on vmcnt), not a store
DMA_KERNEL = """
func.func @f(%g: memref<64xf32, #gpu.address_space<global>>) {
  %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  amdgpu.gather_to_lds %g[%t], %lds[%c0] : vector<1xf32>, memref<64xf32, #gpu.address_space<global>>, memref<64xf32, #gpu.address_space<workgroup>>
  BARRIER
  %w = memref.load %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %g[%t] : memref<64xf32, #gpu.address_space<global>>
  return
}
"""


@pytest.mark.parametrize("barrier,hazards", [
    *((b, [] if o else ["raw"]) for b, o in FENCES.items()),
    ("rocdl.s.barrier", ["raw"]),
    ("rocdl.s.waitcnt 49279\n  rocdl.s.barrier", ["raw"]),     # lgkmcnt(0): not the copy's
    ("rocdl.s.waitcnt 3952\n  rocdl.s.barrier", []),           # vmcnt(0)
], ids=range(len(FENCES) + 3))
def test_a_fenced_barrier_orders_a_direct_to_lds_copy(barrier, hazards):
    """A barrier that fences workgroup memory orders a direct-to-LDS copy before it as it
    orders a store (:func:`orders`' rule; LLVM's fence waits for the LDS DMA in flight,
    as IREE's own DMA kernels rely on): the LDS stream waits for the copy there
    (``vmcnt(0)``), not only for the wave's LDS operations, so the late form of IREE's
    f16 ``A^T x B^T`` 113x240x352, whose remainder loop copies B straight to LDS behind the
    kernel's ``gpu.barrier``, is no longer refused by the register-staged form's check.
    A bare barrier still needs a ``vmcnt(0)`` wait before it."""
    from pipeline_mlir.analysis.barriers import orders

    with new_context() as ctx:
        module = ir.Module.parse(DMA_KERNEL.replace("BARRIER", barrier), ctx)
        f = walk_ops(module.operation, lambda o: o.name == "func.func")[0]
        events, _ops = lds_events(f)
        assert [h.kind for h in check(events)] == hazards
        body = list(walk_ops(module.operation, lambda o: o.name not in
                             ("builtin.module", "func.func")))
        copy = next(i for i, o in enumerate(body) if o.name == "amdgpu.gather_to_lds")
        bar = max(i for i, o in enumerate(body) if o.name.endswith("barrier"))
        assert orders(body, copy, bar, "vmcnt") is (hazards == [])
