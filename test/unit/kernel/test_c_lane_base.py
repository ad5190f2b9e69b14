"""Each lane's C offset is computed before the main loop (``gemm_mlir.c_lane_base``).

One VGPR carries it through the loop, pinned by the opaque identity on both sides; the
kernel whose loop needs every VGPR (ping-pong FP8 with ``frags_ahead=balanced-across``,
the FP8 default, or ``across``) then spills nothing, where it spilled the lane's row and column ids before."""

from __future__ import annotations

import re

from kernel_builds import build
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir, natural_kernel_mlir
from pipeline_mlir.kernel.lds_data import OPAQUE_IDENTITY
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.tune import assembly_spills


def test_the_offset_is_pinned_before_the_loop_and_again_after_it():
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=true}"))
    for text in (natural_kernel_mlir(k), kernel_mlir(k)):
        loop = text.index("scf.for")
        before = text.index(f"%cbase2 = {OPAQUE_IDENTITY} %cbase1")
        after = text.index(f"%cbase = {OPAQUE_IDENTITY} %cbase2")
        assert before < loop < after
        # the stores' addresses start from the pinned offset only
        assert re.findall(r"arith\.addi %cbase\b", text) and "%lgrp" not in text[loop:]


def test_the_fp8_ping_pong_default_spills_nothing():
    assert parse_pipeline("pingpong{is_fp8=true}").ahead_mode == "balanced-across"
    for key in ("pingpong-fp8", "pingpong-fp8-across"):
        asm = build(key).asm
        assert assembly_spills(asm) == 0, key
        assert "scratch_" not in asm, key
