"""``frontend/accumulator_agprs.py``: a kernel whose accumulators take a lane's architected
VGPRs or more keeps them in AGPRs (``sched.agpr_alloc``); others, and a kernel that says
its own count, are left as they are.  IREE's kernels that take it:
``test/unit/tools/test_iree_config_tiles.py``."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.accumulator_agprs import keep_accumulators_in_agprs
from pipeline_mlir.target.gfx950 import AGPR_ALLOC_ATTR

_KERNEL = """func.func @k() attributes {gpu.known_block_size = array<i32: 128, 1, 1>%s} {
  return
}
"""


@pytest.mark.parametrize("regs,given,asked", [
    (255, None, None),          # a register of the architected file left: LLVM chooses
    (256, None, 256),           # the whole file: the AGPRs asked for
    (320, None, 256),           # more than the AGPRs hold: all of them
    (256, 64, None),            # the kernel's own count kept
])
def test_the_accumulators_registers_decide_the_agprs(regs, given, asked):
    with new_context() as ctx:
        extra = "" if given is None else f", {AGPR_ALLOC_ATTR} = {given} : i32"
        module = ir.Module.parse(_KERNEL % extra, ctx)
        kernel = module.body.operations[0].operation
        assert keep_accumulators_in_agprs(kernel, regs) == asked
        want = given if given is not None else asked
        if want is None:
            assert AGPR_ALLOC_ATTR not in kernel.attributes
        else:
            assert ir.IntegerAttr(kernel.attributes[AGPR_ALLOC_ATTR]).value == want
