"""IREE's matmuls with fused epilogues, batch and bf16/f16 C: pipelined and exact.

Each configuration of ``test/data/iree/epilogues.py`` (batch matmul, bias per row, bias
per column + relu, truncf to bf16 / f16 / E4M3FN (bf16 and E4M3FN at the prefetch
point only, f16 in its late form only: ``ONE_FORM``), ``C += A x B^T``; relu alone is bias
+ relu's ``maximumf`` on a one-input generic, as the truncf ones are, and bias per column
alone is bias + relu without the ``maximumf``: not run again, ``NOT_RUN``) is
compiled with ``iree-compile`` (IREE keeps its default 128x128 tile, 4 waves, K step 32 and DMA copies at
these sizes), taken at IREE's prefetch point and in its late form, and run with
``pipeline-opt --pipeline=4wave --emulate`` as IREE launches it: the dispatch says which
bindings are inputs, C's type, whether C is read first (then it starts random and must end
as C0 + A x B^T), the grid (3-D for the batch at the prefetch point).  Two workgroups spread
over the grid (for the batch: one in each batch; three in its late form, whose middle one
is where the front end's copies and IREE's differ in LDS rows no stored row of C uses),
memory completing as late as the counters allow, and in random order; C must be exact.

Without ``iree-compile`` these tests skip; the expression ``--emulate`` checks and the
refusals are pinned in ``test/unit/frontend/test_dispatch.py`` without it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import ENV as BUILD_CACHE_ENV, share_code_objects
from unused_checks import check_batch_late, spied
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.expect import evaluate, parse_expect
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402
from steady_loop import assert_steady, counting_loops  # noqa: E402
from test_iree_emulate import needs_iree  # noqa: E402
from long_tier import FUNCTIONS_RUN, marked  # noqa: E402

#: kind -> (epilogue_source arguments, the expression --emulate checks C against)
CONFIGS = {
    # M and K unaligned: the batch's rows kept in the copies' index (frontend/kept_rows.py)
    "batch": (dict(kind="batch", m=300, n=520, k=262), "A @ B.T"),
    # N = 520: the edge tile's bias gathered (map_load; in the late form an scf.if per
    # element, frontend/guarded_read.py), the corner workgroup among the two run
    "bias": (dict(kind="bias", dtype="f16", m=1000, n=520), "A @ B.T + bias"),
    # M = 65 cut by the tile: the edge tile's bias rows past M read past the bias's end
    # (the prefetch point masks them, padded with poison; the late form clamps them to M,
    # range-checked), the edge workgroup the last of the two run
    "bias_row": (dict(kind="bias_row", m=65, n=1000), "((A @ B.T).T + bias).T"),
    # C square (M = N = 251) and cut by the tile: which side the bias follows is told by
    # how its read moves with the workgroup, against the edge tile's scatter of C (late
    # form) and the bias's gather (map_load, prefetch point); both were refused by
    # --emulate before (frontend/epilogue.py, _follows; the session-49 sweep)
    "bias_relu": (dict(kind="bias_relu", dtype="f16", m=251, n=251), "relu(A @ B.T + bias)"),
    "trunc_bf16": (dict(kind="trunc_bf16"), "A @ B.T"),
    "trunc_f16": (dict(kind="trunc_f16", dtype="f16"), "A @ B.T"),
    # IREE's default build at an unaligned K: copies staged through registers, C's tile
    # staged through 36 KiB of LDS beside the schedule's (B's subtiles in windows that wrap)
    "accumulate": (dict(kind="accumulate", dtype="f16", m=1024, n=1024, k=1020),
                   "C + A @ B.T"),
    # C cut by the tile in both dimensions: IREE stages each thread's C tile (64x128 words)
    # through private memory to read its 32 initial values, which the front end reads from
    # C instead (frontend/private_rows.py; test_c_staged_in_private_memory_does_not_spill).
    # K = 1024: 32 K steps, the loop kept by LLVM and run 15 times (the staging is C's, the
    # same at any K; at 2048 it emulated twice the steps for nothing more; at 512 LLVM
    # unrolls the loop, which the steady-loop check then cannot count)
    "accumulate_edge": (dict(kind="accumulate", dtype="f16", m=257, n=129, k=1024),
                        "C + A @ B.T"),
    # C narrowed to E4M3FN (v_cvt_pk_fp8_f32; E5M2's v_cvt_pk_bf8_f32 is the same path
    # but for the format: test_fp8_convert.py, test_launchfile.py): one form
    "trunc_f8E4M3FN": (dict(kind="trunc_f8E4M3FN"), "A @ B.T"),
    # ... at an odd N (197): C scattered a byte at a time (vector.scatter into C collapsed
    # to 1-D), the last column of one workgroup's tile and the first of the next in one
    # halfword, which two workgroups store to (the race check marks such an output per
    # byte: emu/globalrace.py; it reported a race here before, a fourteenth-sweep draw)
    "trunc_f8E4M3FN_odd_n": (dict(kind="trunc_f8E4M3FN", m=44, n=197, k=1024), "A @ B.T"),
}
#: the configurations run in one form only, and it: the truncf to bf16 and to f16 kernels are
#: one text but for the element type in both forms (A, B, the MFMA, C), so bf16's is run
#: at the prefetch point and f16's in its late form: each form's truncf and each type's
#: conversion run once (test_iree_families.py checks them twins, bf16's forms one schedule;
#: f16's late form in the long tier: :data:`LONG`)
ONE_FORM = {"trunc_f8E4M3FN": "prefetch", "trunc_bf16": "prefetch", "trunc_f16": "late",
            "trunc_f8E4M3FN_odd_n": "late"}
#: (config, form) -> workgroups run where not 2: the batch's late form clamps the rows of A
#: past M to row M (IREE's ``arith.minui``; B's past N alike), which in batch 0 is batch 1's
#: first row, while the front end's own copies read rows M, M+1, ...: they differ only in LDS
#: rows no stored C row uses (frontend/unused_rows.py proves it); 3 spread over the 50
#: run workgroup 24, batch 0's corner, where both differ
WORKGROUPS = {("batch", "late"): 3,
              # 3 of its 4 workgroups, two side by side (0, 2 and 3)
              ("trunc_f8E4M3FN_odd_n", "late"): 3}
#: the configurations generated for the tests below but not run: the bias per column's
#: kernel (f16 1000x520, its corner tile's bias gathered) runs no line of the package that
#: the others leave unrun (its gather, map_load at the prefetch point and an ``scf.if`` per
#: element in the late form, is bias + relu's on a C cut in N too; its expression ``A @
#: B.T + bias`` is the 8-wave bias kernel's below), so it is the mutated gathers' kernel only
NOT_RUN = {"bias"}
#: iree-compile's flags where IREE's default build (its own 2-stage prefetch) is wanted
FLAGS = {"accumulate": ("--iree-llvmgpu-prefetch-num-stages=2",)}
#: C's type where it is not f32, as the summary line names it
AS = {"trunc_bf16": " as bf16", "trunc_f16": " as f16", "trunc_f8E4M3FN": " as f8E4M3FN",
      "trunc_f8E4M3FN_odd_n": " as f8E4M3FN"}


@pytest.fixture(autouse=True)
def _code_objects_shared():
    """Each form's kernel is built once per run (``build_cache.share_code_objects``), its
    schedule kept on the way: test_iree_families.py compares the two forms' schedules from
    these builds."""
    with share_code_objects():
        yield


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    d = tmp_path_factory.mktemp("iree_epilogues")
    cache = {}

    def get(name: str, form: str) -> Path:
        if (name, form) not in cache:
            src = E.epilogue_source(**CONFIGS[name][0])
            fn = G.prefetch_point if form == "prefetch" else G.late_form
            path = d / f"{name}.{form}.mlir"
            path.write_text(fn(src, FLAGS.get(name, ())))
            cache[name, form] = path
        return cache[name, form]
    return get


#: (config, form) -> why it is in the long tier (``long_tier.py``): a second instance of an
#: epilogue kind and launch shape whose other form or twin the default run emulates, every
#: line of the package it runs (the emulator aside) run by the default run's items of this
#: module and test_iree_families.py (measured with per-item line coverage, when
#: test_iree_families.py built these late forms; it now takes them to their schedule only,
#: compared with the emulated prefetch point's)
LONG = {
    ("bias_row", "late"): "the bias's extra binding emulated from a late form: "
    "test_an_8_wave_epilogue_through_private_memory_is_exact; this kernel's late form "
    "pipelined (one schedule with the prefetch point's) in test_iree_families.py "
    "(epilogue-bias-row) and its clamped bias read by "
    "test_a_bias_of_m_cut_by_the_tile_reads_zeros_past_its_end",
    ("bias_relu", "late"): "bias + relu emulated at the prefetch point "
    "([bias_relu-prefetch]), a late form's bias by "
    "test_an_8_wave_epilogue_through_private_memory_is_exact; this kernel's late form "
    "pipelined (one schedule with the prefetch point's) in test_iree_families.py "
    "(epilogue-bias-relu-f16)",
    # (2026-12-07, the same measure over this module's default items alone)
    ("accumulate", "prefetch"): "C += A x B^T at an unaligned K, copies staged through "
    "registers and C's tile through LDS beside the schedule's, emulated in its late form "
    "([accumulate-late]); a C += prefetch point emulated with C cut by the tile "
    "([accumulate_edge-prefetch])",
    ("trunc_f16", "late"): "truncf to bf16's kernel renamed (test_iree_families.py's "
    "test_truncf_to_f16_is_truncf_to_bf16_renamed), whose late form's schedule is compared "
    "there (epilogue-trunc-bf16); a narrowed C emulated in [trunc_bf16-prefetch]",
    # (2026-12-07, the function rule: every function of pipeline_mlir the item runs is run
    # by the default items left of the IREE modules, coverage.py per item)
    ("accumulate_edge", "late"): f"{FUNCTIONS_RUN}; C += A x B^T with C cut by the tile "
    "emulated at "
    "the prefetch point ([accumulate_edge-prefetch]), a C += late form in [accumulate-late]",
    ("trunc_f8E4M3FN", "prefetch"): f"{FUNCTIONS_RUN}; C narrowed to E4M3FN emulated in "
    "[trunc_f8E4M3FN_odd_n-late], a narrowed C at the prefetch point in "
    "[trunc_bf16-prefetch]",
}


@needs_iree
@pytest.mark.parametrize("name,form", marked(
    [(n, f) for n in CONFIGS for f in ("prefetch", "late")
     if ONE_FORM.get(n, f) == f and n not in NOT_RUN], LONG))
def test_epilogue_pipelined_and_exact(generated, name, form, capsys, monkeypatch):
    src = generated(name, form)
    seen = spied(monkeypatch)
    if name == "batch" and (name, form) in WORKGROUPS:
        # the proof spied runs in this process only if this item builds the kernel: not a
        # build of the same input that test_iree_families.py (epilogue-batch) may have
        # left in the run's cache first
        monkeypatch.delenv(BUILD_CACHE_ENV, raising=False)
    text = src.read_text()
    # IREE's default configuration: 4 waves, K step 32 (a loop of step 1 over K / 32)
    assert "workgroup_size = [256, 1, 1]" in text
    mode = "late" if form == "prefetch" else "random:7"
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", str(src), "--emulate",
                   f"--emulate-workgroups={WORKGROUPS.get((name, form), 2)}",
                   f"--emulate-mode={mode}", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    if name == "batch" and (name, form) in WORKGROUPS:  # the LDS rows it differs in, unused
        check_batch_late(seen)
    assert_steady(loops)        # K = 1024: 32 K steps, the loop 15 times
    expect = CONFIGS[name][1]
    assert re.search(rf": exact, max error 0 in C \(\d+ elements\), "
                     rf"{WORKGROUPS.get((name, form), 2)} of \d+ workgroups", out), out
    assert out.rstrip().endswith(f"C = {expect}" + AS.get(name, "")), out
    if name.startswith("trunc_"):   # the narrowing is the LLVM step's, run on the emulator
        to = CONFIGS[name][0]["kind"][6:]
        assert re.search(rf"arith\.truncf %\w+ : vector<[\dx]+f32> to vector<[\dx]+{to}>",
                         text), f"no truncf to {to}"


@needs_iree
def test_a_batch_dispatch_is_timed_whole_as_launched(generated, tmp_path):
    """The whole-kernel timer (``driver/measured_trips.py``, ``bench_iree.py``'s cases timed
    whole, ``--sim-trips``) launches a dispatch with a batch as ``--emulate`` does, from its
    launch description: its 3-D grid and its bindings of rank 3.  It launched every dispatch
    as a plain matmul, and the batch's kernel arguments matched no such launch."""
    from pipeline_mlir.driver.measured_trips import DescribedDispatch, dispatch_launch, \
        whole_kernel

    src = generated("batch", "prefetch")
    cfg = CONFIGS["batch"][0]
    asm, hsaco = tmp_path / "k.s", tmp_path / "k.hsaco"
    for emit, out in (("asm", asm), ("hsaco", hsaco)):
        assert main(["--pipeline=4wave", str(src), f"--emit={emit}", "-o", str(out)]) == 0
    problem, grid = dispatch_launch(src.read_text(), (cfg["m"], cfg["n"], cfg["k"]), str(src))
    assert isinstance(problem, DescribedDispatch) and len(grid) == 3 and 2 in grid, grid
    run = whole_kernel(asm.read_text(), hsaco.read_bytes(), problem, grid)
    # each wave's 8 accumulators take one MFMA per K step of 32, the masked last one too
    assert run.mfmas == (8 * -(-cfg["k"] // 32),) * 4, run.describe()
    assert run.cycles["llvm"] > 0 and run.cycles["measured"] > 0, run.cycles


@needs_iree
@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_c_staged_in_private_memory_does_not_spill(generated, form):
    """The C += kernel whose C the tile cuts: IREE reads each thread's whole workgroup tile
    of C (64 rows of 128 words) into private memory for its 32 initial values, which LLVM
    keeps in 32 KiB of scratch per lane with thousands of spills (IREE's own build of
    257x129x512: 8288 VGPRs and 806 SGPRs spilled, 2 minutes of code generation).  The
    pipelined kernel reads the 32 from C: no scratch, no spill (the same build as the
    exactness test's above, from the run's cache)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.isa.codeobject import read_code_object

    src = generated("accumulate_edge", form)
    assert "memref<64x128xf32, #gpu.address_space<private>>" in src.read_text()
    result = compile(CompileOptions(schedule="4wave", input=str(src), emit="hsaco"))
    (md,) = read_code_object(result.checked_output()).metadata["amdhsa.kernels"]
    assert (md[".private_segment_fixed_size"], md.get(".vgpr_spill_count", 0),
            md.get(".sgpr_spill_count", 0)) == (0, 0, 0), md


@needs_iree
def test_a_batch_whose_merge_spares_clamped_rows_is_exact(tmp_path, capsys, monkeypatch):
    """IREE's batch ``A x B^T`` 2x65x256x262, late form: its loop's partition is refused
    (A's rows past M clamped to row M, batch 1's first), and the K-step merge the front end
    tries next (its merged loop built beside the kernel's) takes it: the rows that differ,
    31 of batch 0's last 32-row tile (workgroups 8 to 11), are proven unused with the
    kernel loop's epilogue (``unused_rows.results_replacing``), in the merged K tile of
    4 x 32.  Before, that proof proved nothing in the merged loop, the merge was refused
    and the loop halved along K, where its prefetch point is merged (two schedules; the
    merged loop left in the kernel was once refused as "a natural K-loop ...: run
    sched-adopt-loop first").  Pipelined, exact on every workgroup of its grid of 24 in
    late mode."""
    merged: dict = {}
    spied(monkeypatch, merged)
    src = tmp_path / "batch65.late.mlir"
    src.write_text(G.late_form(E.epilogue_source(kind="batch", m=65, n=256, k=262)))
    rc = main(["--pipeline=4wave", str(src), "--emulate", "--emulate-workgroups=24",
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert re.search(r": exact, max error 0 in C \(33280 elements\), 24 workgroups ", out), out
    assert merged == {(4, 32 * 128, (w,)): (96 - 65) * 128 for w in range(8, 12)}, merged


@needs_iree
def test_an_8_wave_epilogue_through_private_memory_is_exact(tmp_path, capsys):
    """IREE's 8-wave kernel (a compilation_info) with a bias: its late form stages the
    accumulators through private memory and gathers them back one element per iteration
    of a loop after the K-loop, which the epilogue reader follows (the prefetch point's
    slice loop: ``test_dispatch.py``); ``pingpong`` pipelines it, exact in late mode, the
    steady loop run (6 K steps of 64)."""
    config = G.compilation_info("bf16", (256, 256), (8, 4), 2, 512)
    src = tmp_path / "bias_8wave.late.mlir"
    src.write_text(G.late_form(E.epilogue_source("bias", m=1024, n=1024, k=384, config=config)))
    with counting_loops() as loops:
        rc = main(["--pipeline=pingpong", str(src), "--emulate", "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert_steady(loops)
    assert "memref.alloca" in src.read_text() and "x 8 waves" in out, out
    assert re.search(r": exact, max error 0 in C \(\d+ elements\), 2 of \d+ workgroups", out)
    assert out.rstrip().endswith("C = A @ B.T + bias"), out


@needs_iree
def test_an_epilogue_it_cannot_model_is_refused(generated, tmp_path, capsys):
    """bias + relu's kernel with its maximumf made a minimumf against zero: one located
    line."""
    text = generated("bias_relu", "prefetch").read_text()
    assert "arith.maximumf" in text
    bad = tmp_path / "min.mlir"
    bad.write_text(text.replace("arith.maximumf", "arith.minimumf"))
    assert main(["--pipeline=4wave", str(bad), "--emulate", "--emulate-workgroups=1"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"min\.mlir:\d+:\d+: error: --emulate: 'arith.minimumf' op at line "
                     r"\d+:\d+: the epilogue computes a min", err), err
    assert "Traceback" not in err


@needs_iree
def test_the_c_tile_beside_and_the_remainder_on_the_schedule_buffers(generated, capsys,
                                                                     monkeypatch):
    """The C += kernel's prefetch point: C's 36 KiB tile stays beside the schedule's
    buffers, and the masked remainder's own buffers (IREE's 64x132 and 128x132 tiles) go
    onto two of B's, grown to hold them (frontend/aliased_remainder.py), the pipelined
    code drained before it (vmcnt(0)), as the rewrite's drain step sees the kernel.  With
    the remainder's own first barrier gone there (and the drain's), a remainder write may
    overwrite a schedule buffer another wave's pipelined read still needs: the check of
    the issued form finds it at the write."""
    import pipeline_mlir.frontend.aliased_remainder as AR
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.kernel_ir import kernel_of

    seen = {}

    def strip(rem, drain):
        seen["allocs"] = sorted(str(a.results[0].type).split(",")[0] for a in walk_ops(
            kernel_of(rem), lambda o: o.name == "memref.alloc"))
        seen["drain"] = str(drain.attributes["bitfield"])
        for o in rem.regions[0].blocks[0].operations:
            if o.operation.name == "gpu.barrier":
                o.operation.erase()
                return True
        return True
    monkeypatch.setattr(AR, "barrier_first", strip)
    assert main(["--pipeline=4wave", str(generated("accumulate", "prefetch")), "-o", "-"]) == 1
    new = [t for t in seen["allocs"] if re.fullmatch(r"memref<\d+xf16", t)]   # the schedule's
    assert new == ["memref<16896xf16"] + ["memref<4096xf16"] * 4 + [
        "memref<8192xf16"] * 2 + ["memref<8448xf16"], seen
    assert "memref<4x16x8x18xf32" in seen["allocs"], seen
    assert seen["drain"] == "3952 : i32", seen                        # vmcnt(0)
    err = capsys.readouterr().err
    assert "sched-stage-copies: the register-staged form: " in err, err
    assert "the staged LDS store may overwrite LDS %alloc_" in err, err
    assert re.search(r"error: .*\n\s+vector\.transfer_write ", err), err


#: the loop after the K-loop that copies C's tile from its LDS staging buffer to C, and
#: the delinearized index of its LDS view's third dimension (the prefetch point's)
COPY_OUT = re.compile(r"scf\.for (%\w+) = %c0 to %c2048 step %c256 \{\n\s*%\w+ = affine\.apply "
                      r"#map\d+\(\1\)\[%thread_id_x\]\n\s*(%\w+):4 = affine\.delinearize_index")


@needs_iree
@pytest.mark.parametrize("how", ["lower", "view", 1, 5, "masked"])
def test_c_staged_through_lds_read_past_its_allocation_is_refused(generated, tmp_path,
                                                                  capsys, how):
    """Found by the red-team campaign of the newest families (IREE's bf16 ``C += A x B^T``
    256^3 at the prefetch point, seed 81, mutants 16 and 55): C's tile staged through LDS
    the K-loop does not touch, copied out by a loop whose lower bound was made 1 (the last
    thread's last iteration reads one row of tiles past the allocation) or whose LDS view
    was moved 16 elements along a dimension of 8, was pipelined with exit 0 and C wrong
    against the unpipelined build (10 and 1457 bytes): what lies past the allocation is
    another buffer, which the front end lays out anew.  Now refused at the read
    (``frontend/lds_extent.py``; here on the f16 ``C +=`` kernel, staged through a padded
    ``memref<4x16x8x18xf32>``), and so are the campaign's staged mutations
    (``mutants.m_staged``, drawn with seeds 1 and 5: the write of the results into LDS
    moved a row of tiles on, the copy out moved by one element), and the review's
    (``mutants.m_staged_masked``: the copy's read not in bounds, its view moved on)."""
    from cli_helpers import refusal

    text = generated("accumulate", "prefetch").read_text()
    m = list(COPY_OUT.finditer(text))[-1]
    lines = text[:m.start()].count("\n")          # the copy loop's line
    out = text.split("\n")
    if how == "masked":
        # the review's: the copy's LDS read made not in bounds along its last dimension,
        # its view moved 3 columns on (mutants.m_staged_masked: a padded row of 18 keeps a
        # move of 1 or 2 inside the allocation), the last thread reading one past its end
        import random

        import mutants as M

        for seed in range(50):
            out = text.split("\n")
            what = M.m_staged_masked(out, random.Random(seed))
            if what.endswith("+3") and any("vector.transfer_read" in line and "false]}" in line
                                           for line in out):
                break
        assert what.endswith("+3"), what
    elif isinstance(how, int):
        import random

        import mutants as M

        what = M.m_staged(out, random.Random(how))
        assert what.startswith("staged LDS index "), what
    elif how == "lower":
        out[lines] = out[lines].replace("= %c0 to", "= %mut_lo to", 1)
        out.insert(lines, "%mut_lo = arith.constant 1 : index")
    else:
        d = m.group(2)
        i = next(i for i in range(lines, len(out)) if "memref.subview" in out[i]
                 and f"[{d}#0, {d}#1, {d}#2, " in out[i] and "workgroup>> to" in out[i])
        out[i] = out[i].replace(f"{d}#2, ", "%mut_r, ", 1)
        out[i:i] = ["%mut_16 = arith.constant 16 : index",
                    f"%mut_r = arith.addi {d}#2, %mut_16 : index"]
    bad = "\n".join(out)
    assert bad != text
    err = refusal(capsys, tmp_path, bad)
    op = "transfer_write" if how == 1 else "transfer_read"
    if how == "masked":
        assert "at elements 9213..9216 in thread 255 (loop iteration [1792])" in err, err
    assert re.search(rf"error: sched-adopt-loop: 'vector\.{op}' op at line \d+:\d+ "
                     r"accesses memref<4x16x8x18xf32, #gpu\.address_space<workgroup>> at "
                     r"elements \d+\.\.\d+ in thread \d+( \(loop iteration \[\d+\]\))?, outside "
                     r"its 9216 elements", err), err


#: the late form's guarded gather of the bias (one scf.if per element)
GUARD = "arith.cmpi slt, %745, %c520_i32 : i32"
INDEX = "%745 = arith.addi %314, %744 overflow<nsw> : i32"


@needs_iree
@pytest.mark.parametrize("old,new,message", [
    # a wrong bound: refused at the scf.if before anything runs
    (GUARD, "arith.cmpi slt, %745, %c512_i32 : i32", r"'scf\.if' op at line \d+:\d+: its "
     r"guard is false where the load's index \[512\] is inside memref<520xf32"),
    # the gather shifted by 8 columns, its guard shifted with it (a strided view still):
    # every element of C gets another column's bias and the last 8 the pad; --emulate
    # compares C and finds it (one workgroup: every column is off)
    (INDEX, "%s745 = arith.addi %314, %744 overflow<nsw> : i32\n%c8s = arith.constant 8 : "
     "i32\n%745 = arith.addi %s745, %c8s : i32", r"error: C differs from its check"),
], ids=["bound", "shift"])
def test_a_mutated_bias_gather_is_refused_or_caught(generated, tmp_path, capsys, old, new,
                                                     message):
    text = generated("bias", "late").read_text()
    assert text.count(old) == 1 and text.count("scf.if") == 1
    bad = tmp_path / "gather.mlir"
    bad.write_text(text.replace(old, new))
    assert main(["--pipeline=4wave", str(bad), "--emulate", "--emulate-workgroups=1"]) == 1
    err = capsys.readouterr().err
    assert re.search(message, err) and "Traceback" not in err, err


def test_scales_in_check_expressions():
    """``X * number``: the product rounded to f32 as an f32 multiply rounds it (not the
    float64 product), so 3 * 0.1 is f32(3 * f32(0.1)); a scale of a scale's shape, or of
    two buffers, is an error."""
    import numpy as np

    e = parse_expect("-(A @ B.T * 0.1) + 2 * bias", {"A": (1, 2), "B": (1, 2), "bias": (1,)})
    got = evaluate(e, {"A": np.array([[1.0, 2.0]]), "B": np.array([[1.0, 1.0]]),
                       "bias": np.array([3.0])})
    assert e.shape == (1, 1)
    assert got.tolist() == [[-float(np.float32(3 * np.float64(np.float32(0.1)))) + 6.0]]
    assert got[0, 0] != -0.30000000000000004 + 6.0       # the float64 product's value
    for bad, message in [("A * s", "cannot multiply shapes [2, 2] * [3] element by element"),
                         ("A * 0.5.5", "cannot read '.5'")]:
        with pytest.raises(EmuError, match=re.escape(message)):
            parse_expect(bad, {"A": (2, 2), "B": (2, 2), "s": (3,)})


def test_products_with_epilogue_inputs_in_check_expressions():
    """``X * s`` element by element (the fourth audit's per-row scale: ``((A @ B.T).T *
    s).T``; per column ``A @ B.T * s``): each operand and the product rounded to f32, as
    the kernel's f32 multiply of the f32 accumulator rounds it."""
    import numpy as np

    shapes = {"A": (2, 1), "B": (3, 1), "s": (2,), "t": (3,)}
    A, B = np.array([[3.0], [1.0]]), np.array([[1.0], [2.0], [16777217.0]])
    values = {"A": A, "B": B, "s": np.array([0.1, 2.0]), "t": np.array([1.0, 0.5, 3.0])}
    rows = evaluate(parse_expect("((A @ B.T).T * s).T", shapes), values)
    f32 = [[float(np.float32(np.float64(np.float32(3.0 * b)) * np.float32(0.1)))
            for b in (1.0, 2.0, 16777217.0)], [2.0, 4.0, float(np.float32(16777217.0)) * 2]]
    assert rows.tolist() == f32
    cols = evaluate(parse_expect("A @ B.T * t", shapes), values)
    f = np.float32          # (3 x 16777217 is 50331652 in f32, times 3 150994960)
    assert cols.tolist() == [[3.0, 3.0, float(f(np.float64(f(3 * 16777217.0)) * 3))],
                             [1.0, 1.0, float(f(16777217.0)) * 3]]
    assert cols[0, 2] != 3 * 16777217.0 * 3 and cols[0, 2] == 150994960.0


def test_relu_in_check_expressions():
    import numpy as np

    e = parse_expect("relu(A @ B.T + bias)", {"A": (2, 3), "B": (4, 3), "bias": (4,)})
    assert e.shape == (2, 4) and e.names == {"A", "B", "bias"}
    A = np.array([[1.0, -2, 0], [0, 1, 1]])
    B = np.eye(4, 3)
    got = evaluate(e, {"A": A, "B": B, "bias": np.array([0.0, 1, -1, 0])})
    assert got.tolist() == [[1, 0, 0, 0], [0, 2, 0, 0]]
    for bad, message in [("relu(A", "the expression ends early"), ("relu(A A)", "relu( is not closed"),
                         ("relu A", "'relu' is no buffer")]:
        with pytest.raises(EmuError, match=re.escape(message)):
            parse_expect(bad, {"A": (2, 2)})


@pytest.mark.parametrize("by_row", [True, False])
def test_products_with_an_epilogue_input_follow_its_rows_or_columns(by_row):
    """``(A x B^T) * s`` (the fourth audit's per-row scale, ``frontend/epilogue.py``): the
    expression multiplies row ``m`` by ``s[m]`` when ``s`` follows C's rows, column ``n`` by
    ``s[n]`` otherwise; on a square C, where numpy would broadcast either way, a swapped
    broadcast gives another value."""
    import numpy as np

    from pipeline_mlir.frontend.epilogue import Node, expression

    acc = Node("acc", (Node("const", value=0.0),))
    for tree in (Node("mul", (acc, Node("read", value=3))),
                 Node("mul", (Node("read", value=3), acc))):
        text = expression(tree, ["A", "B", "C", "s"], 2, [0, 1], "A @ B.T", "f32",
                          frozenset({3}) if by_row else frozenset())
        A, B, s = np.array([[1.0], [2.0]]), np.array([[3.0], [5.0]]), np.array([7.0, 11.0])
        got = evaluate(parse_expect(text, {"A": (2, 1), "B": (2, 1), "s": (2,)}),
                       {"A": A, "B": B, "s": s})
        want = (A @ B.T) * (s[:, None] if by_row else s[None, :])
        assert got.tolist() == want.tolist(), text


@needs_iree
def test_a_bias_of_m_cut_by_the_tile_reads_zeros_past_its_end(generated):
    """bf16 65x1000x1024 with a bias of M (``bias_row``'s late form, emulated above): the late form clamps the bias rows past M to M
    (``arith.minui``), so the edge tile's lanes past C's last row read the range-checked
    bias from its end (zeros, as the read moved with C's tile would: it starts past the end
    too); the tie to C takes it (``guarded_read._buffer_end``; it was pipelined with exit 0
    and refused by ``--emulate`` before).  A lane that reads past the end where the moved
    read is inside the bias (the edge tile's row 64 read one on) is still refused at the
    load, and so is the clamp of a bias without its range check."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    text = generated("bias_row", "late").read_text()
    # index = min(rows left, the lane's row) + base, read unguarded (scf.if %false)
    m = re.search(r"(%\w+) = arith\.minui (%\w+), %\w+ : i32\n(?:.*\n){4}\s*(%\w+) = "
                  r"arith\.addi \1, (%\w+) : i32\n\s*%\w+ = arith\.index_castui \3 : i32 to "
                  r"index\n\s*%\w+ = scf\.if %false", text)
    clamp, left, at, base = m.groups()
    edge = text.replace(
        f"{at} = arith.addi {clamp}, {base} : i32",
        f"%at0 = arith.addi {clamp}, {base} : i32\n  %two = arith.constant 2 : i32\n"
        f"  %few = arith.cmpi ult, {left}, %two : i32\n  %one = arith.extui %few : i1 to i32\n"
        f"  {at} = arith.addi %at0, %one : i32", 1)
    unchecked = re.sub(r"(fat_raw_buffer_cast %\w+) (resetOffset : memref<65xf32)",
                       r"\1 boundsCheck(false) \2", text, count=1)
    assert edge != text and unchecked != text
    with new_context() as ctx:
        matmul_dispatch(ir.Module.parse(text, ctx))
        for bad, thread in ((edge, 0), (unchecked, 16)):
            with pytest.raises(IRError) as e:
                matmul_dispatch(ir.Module.parse(bad, ctx))
            assert e.value.op.name == "vector.load" and "moved with its tile of C" in \
                str(e.value) and f"in workgroup [32] thread {thread} " in str(e.value), \
                str(e.value)


@needs_iree
def test_a_masked_bias_of_m_is_tied_only_where_its_mask_keeps_rows(generated):
    """The prefetch point of a bias of M cut by the tile (``bias_row``: M = 65) reads the
    bias with a ``vector.transfer_read`` masked by ``vector.create_mask``, padded with
    ``ub.poison``: the edge tile's lanes past row 64 read nothing.  Its mask proven over the
    grid false exactly past the bias's end, a wholly masked lane is not held to the tie to
    C where the read moved with C's tile is wholly past the end too
    (``guarded_read._buffer_end``; ``--emulate`` refused it at the read before while the
    compile took it).  A mask widened by one row (the lane reading row 65) is refused at the
    read, and so is the mask dropped from a read not in bounds (the poison then read as
    the bias past its end); dropped from the read in bounds, it is the plain load, which
    reads zeros past the end as the read moved with C's tile does: taken."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    text = generated("bias_row", "prefetch").read_text()
    m = re.search(r"(%\w+) = vector\.create_mask (%\w+) : vector<4xi1>\n\s*(%\w+) = "
                  r"vector\.transfer_read (%\w+)\[%c0\], (%\w+), \1 ", text)
    mask, rows, _, view, pad = m.groups()
    wide = text.replace(f"{mask} = vector.create_mask {rows} :",
                        f"%one = arith.constant 1 : index\n  %wide = arith.addi {rows}, %one "
                        f": index\n  {mask} = vector.create_mask %wide :", 1)
    unmasked = text.replace(f"{view}[%c0], {pad}, {mask} ", f"{view}[%c0], {pad} ", 1)
    padded = unmasked.replace(f"{view}[%c0], {pad} {{in_bounds = [true]}}",
                              f"{view}[%c0], {pad} {{in_bounds = [false]}}", 1)
    assert wide != text and unmasked != text and padded != unmasked
    with new_context() as ctx:
        matmul_dispatch(ir.Module.parse(text, ctx))
        matmul_dispatch(ir.Module.parse(unmasked, ctx))
        for bad, why in ((wide, "its mask is true at element 1"),
                         (padded, "moved with its tile of C")):
            with pytest.raises(IRError) as e:
                matmul_dispatch(ir.Module.parse(bad, ctx))
            assert e.value.op.name == "vector.transfer_read" and why in str(e.value), \
                str(e.value)


@needs_iree
def test_an_unmasked_bias_read_in_bounds_reads_zeros_past_its_end():
    """The prefetch point of a bias of N cut by the tile (``bias``, 128x82x256): each lane
    reads one element through a subview clamped at N, a ``vector.transfer_read`` in bounds
    and unmasked, padded with ``ub.poison``; the edge tile's lanes past column 81 read
    element 82, past the range-checked bias's end: zeros, as the read moved with C's tile
    would.  Its padding is never used (it is lowered to the plain load), so the tie to C
    takes it as a plain read (``guarded_read._buffer_end``; ``--emulate`` refused it at the
    read before while the compile took it: a sixteenth-sweep draw, ``accumulate_bias``
    3 x 324x82x256).  The same read out of bounds, its padding then used, is refused."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    text = G.prefetch_point(E.epilogue_source("bias", m=128, n=82, k=256))
    m = re.search(r"vector\.transfer_read %\w+\[%c0\], %\w+ \{in_bounds = \[true\]\} : "
                  r"memref<\?xf32", text)
    padded = text.replace(m.group(0), m.group(0).replace("[true]", "[false]"), 1)
    with new_context() as ctx:
        matmul_dispatch(ir.Module.parse(text, ctx))
        with pytest.raises(IRError) as e:
            matmul_dispatch(ir.Module.parse(padded, ctx))
        assert e.value.op.name == "vector.transfer_read" and "in workgroup [2, 0] " in \
            str(e.value) and "moved with its tile of C" in str(e.value), str(e.value)


#: IREE's batch matmuls of M (or N) inside one tile (docs/iree-configurations.md, the row
#: "batches of M (or N) inside one tile"), one per code path of the 13 taken: i8 with a
#: masked K and N = 33 inside one 64-column tile (the K left masked with the batch's row
#: kept, the late form's guarded load), a batch of 4 (the prefetch point's 3-D grid), f16
#: ``A x B`` (B ``K x N`` read with transposing reads), fp8 with a masked K (E4M3FN; i8's
#: path, which leaves i8's to the long tier)
BATCHES = {
    "i8_2x257x33x1000": dict(dtype="i8", m=257, n=33, k=1000),
    "bf16_4x9x316x256": dict(dtype="bf16", m=9, n=316, k=256, batch=4),
    "f16_ab_2x33x128x160": dict(dtype="f16", m=33, n=128, k=160, b_kxn=True),
    "fp8_2x33x257x1000": dict(dtype="f8E4M3FN", m=33, n=257, k=1000),
}


@needs_iree
@pytest.mark.parametrize("name", [pytest.param("i8_2x257x33x1000", marks=pytest.mark.long(
    "fp8 2 x 33x257x1000 takes the same path (a masked K, the batch's row kept, the late "
    "form's guarded load; every package line this item runs is run by the default run's "
    "items, measured with per-item line coverage): [fp8_2x33x257x1000]"))]
    + [pytest.param("bf16_4x9x316x256", marks=pytest.mark.long(
        f"{FUNCTIONS_RUN}; a batch inside one tile pipelined and exact in [f16_ab_2x33x128x160] "
        "and [fp8_2x33x257x1000]"))]
    + [n for n in BATCHES if n not in ("i8_2x257x33x1000", "bf16_4x9x316x256")])
def test_a_batch_inside_one_tile_is_pipelined_and_exact(tmp_path, capsys, name):
    """Generated by ``iree-compile`` (both forms from one run), the two forms pipelined with
    one schedule, the late form exact in late mode on its first and last workgroups (the
    last in the last batch, cut by C's edges).  Before these were taken each was refused
    from both forms (at A's split, or at the row mask and the late form's guarded load)."""
    from build_cache import cached
    from kernel_builds import shared_build
    from pipeline_mlir.driver import CompileOptions, compile

    cfg = BATCHES[name]
    forms = G.forms(E.epilogue_source(kind="batch", **cfg))
    late = tmp_path / f"{name}.late.mlir"
    late.write_text(forms["late"])
    rc = main(["--pipeline=4wave", str(late), "--emulate", "--emulate-workgroups=2",
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    batch = cfg.get("batch", 2)
    assert re.search(r": exact, max error 0 in C \(\d+ elements\), "
                     r"2 of \d+ workgroups", out), out
    assert f"_batch_matmul_{batch}x{cfg['m']}x{cfg['n']}x{cfg['k']}_" in out, out
    # the late form's schedule kept by the run's build of it above; the prefetch point's
    late_schedule = shared_build("4wave", input=str(late)).stages["schedule-json"]
    text = forms["prefetch"]
    prefetch = cached("4wave-schedule-json", text, lambda: compile(CompileOptions(
        schedule="4wave", text=text, emit="schedule-json")).checked_output())
    assert prefetch == late_schedule


@needs_iree
def test_an_auto_merge_near_two_waves_fits_them_unasked(tmp_path, capsys):
    """IREE's default build (its own prefetch, 2 stages) of ``A x B`` f16 64x167x1058 with
    C truncated to f16: ``merge_k=auto`` merges 2 K steps for time in both forms, and the
    merged kernel sits just under the 256 VGPRs of 2 waves per SIMD.  Before the LLVM step
    narrowed IREE's index arithmetic (``registry.NARROW_INDEX``, finding 100) the two forms
    fell either side of that line (the late form asked LLVM for the 2 waves, the prefetch
    point's spilled under the ask and was built again unmerged); now both fit unasked (248
    and 252 VGPRs): each report says the merge, neither asks (``rocdl.waves_per_eu``) nor
    was built again, neither spills, both run 2 waves per SIMD and are exact.  The asking
    and the unmerged build again are ``test_merge_confirm.py``'s (the judgement patched):
    no IREE kernel at that edge is known now."""
    from iree_configs import each_form_built

    forms = G.forms(E.epilogue_source("trunc_f16", "f16", m=64, n=167, k=1058, b_kxn=True),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    merged = "K steps: merge_k=auto: 2 K steps merged into each K tile (two stages"
    for form, path, built in each_form_built(tmp_path, forms,
                                             ("report", "schedule-json", "mlir"), "trunc_f16."):
        report, mlir = built.stages["report"], built.stages["mlir"]
        assert "spills: 0 VGPR" in report, report
        assert merged in report and "asks LLVM" not in report, report
        assert "built again unmerged" not in report, report
        assert re.search(r"occupancy +2 waves/SIMD", report), report
        assert "rocdl.waves_per_eu" not in mlir
        rc = main(["--pipeline=4wave", str(tmp_path / f"trunc_f16.{form}.mlir"), "--emulate",
                   "--emulate-workgroups=2", "--emulate-mode=late", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and re.search(r": exact, max error 0 in C \(\d+ elements\)", out), \
            out + err


@needs_iree
def test_c0_past_its_last_column_is_outside_it(tmp_path, capsys):
    """bf16 ``C += A x B + bias`` 77x76x635 (IREE's default build, 3x3 tiles of 32x32, the
    last column tile 12 wide): each thread reads C's initial value in the edge tile at its
    column clamped to the tile's width, so the threads past the tile's 12 columns read at
    column 76 = N, masked off wholly (the prefetch point's ``vector.transfer_read`` of a
    subview, a ``vector.create_mask`` of 0 columns; the late form's ``vector.load`` and its
    ``arith.select``).  Element [r, 76] is outside C along N though its flat element is that
    of [r + 1, 0]: the epilogue reader judges the mask and the tie to C's tiles by the index
    per dimension (``select_read._coords``, ``guarded_read._wholly_masked``; before,
    ``--emulate`` refused the prefetch point at the read, ``its mask is false at element
    [0, 0], whose index [1, 0] is inside``, and the late form at the tie, ``reads element 76,
    63 from the grid's first workgroup's``, an eighteenth-sweep draw).  Both forms exact; a
    mask widened to column 76 (true there, the element outside) and one false inside C
    are refused at the read, in both forms; so is the late form's C read 12 columns to the
    left by the threads past column 11 of the full tiles only (its mask true there, inside
    C): in the edge tile those threads' reads are wholly masked, but the first workgroup's
    moved with C's tile lie inside C."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.emulate import read_dispatch

    forms = G.forms(E.epilogue_source("accumulate_bias", "bf16", 77, 76, 635, b_kxn=True),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    for form, mode in (("prefetch", "late"), ("late", "random:5")):
        path = tmp_path / f"{form}.mlir"
        path.write_text(forms[form])
        rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-workgroups=2",
                   f"--emulate-mode={mode}", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and re.search(r": exact, max error 0 in C \(1180 elements\), 2 of 9 "
                                     r"workgroups", out) and \
            out.rstrip().endswith("C = (X2 + A @ B) + X3"), out + err
    # the prefetch point: create_mask rows, columns (0 or 1) of C's 4x1 read
    text = forms["prefetch"]
    m = re.search(r"(%\w+) = vector\.create_mask (%\w+), (%\w+) : vector<4x1xi1>", text)
    mask, rows, cols = m.groups()
    one = f"%one = arith.constant 1 : index\n  {mask} = vector.create_mask {rows}, %one :"
    none = f"%none = arith.constant 0 : index\n  {mask} = vector.create_mask {rows}, %none :"
    prefetch = [text.replace(f"{mask} = vector.create_mask {rows}, {cols} :", x, 1)
                for x in (one, none)]
    # the late form: the columns left (0 or 1) of C's one-column read
    text = forms["late"]
    m = re.search(r"(%\w+) = arith\.minsi (%\w+), %c1_i32 : i32\n\s*%\w+ = arith\.index_cast "
                  r"\1 : i32 to index\n\s*%\w+ = vector\.create_mask", text)
    left, cols = m.groups()
    late = [text.replace(f"{left} = arith.minsi {cols}, %c1_i32", f"{left} = arith.minsi {x}, "
                         f"%c1_i32", 1) for x in ("%c1_i32", "%c0_i32")]
    # ... and, in the full column tiles only, the threads past column 11 reading 12 columns
    # to the left (inside C, their mask true): in the edge tile those threads' reads are
    # wholly masked, but the first workgroup's moved with C's tile lie inside C
    c0, col = re.search(r"vector\.load (%\w+)\[%\w+, (%\w+)\] : memref<77x76xf32",
                        text).groups()
    at = re.search(rf"{col} = arith\.index_castui (%\w+) : i32 to index", text).group(1)
    clamped, base = re.search(rf"{at} = arith\.addi (%\w+), (%\w+) : i32", text).groups()
    width = re.search(rf"{clamped} = arith\.minui (%\w+), %\w+ : i32", text).group(1)
    cast = f"{col} = arith.index_castui {at} : i32 to index"
    shifted = text.replace(cast, cast + (
        f"\n  %c12_x = arith.constant 12 : i32\n  %hi = arith.cmpi uge, {clamped}, %c12_x : "
        f"i32\n  %full = arith.cmpi eq, {width}, %c32_i32 : i32\n  %both = arith.andi %hi, "
        f"%full : i1\n  %lo = arith.subi {clamped}, %c12_x : i32\n  %sh = arith.select "
        f"%both, %lo, {clamped} : i32\n  %at_x = arith.addi %sh, {base} : i32\n  %col_x = "
        f"arith.index_castui %at_x : i32 to index"), 1)
    # C's initial value read at the shifted column (the bias and C's store at their own)
    late.append(re.sub(rf"({c0}\[%\w+, ){col}\]", r"\1%col_x]", shifted))
    assert forms["prefetch"] not in prefetch and text not in late
    with new_context() as ctx:
        for good in forms.values():         # the epilogue reader, as --emulate runs it
            read_dispatch(ir.Module.parse(good, ctx), "k.mlir", None)
        for bad, op, why in (
                (prefetch[0], "vector.transfer_read", "its mask is true at element [0, 0], "
                 "whose index [0, 76] is outside"),
                (prefetch[1], "vector.transfer_read", "its mask is false at element [0, 0], "
                 "whose index [0, 0] is inside"),
                (late[0], "arith.select", "its mask is true at element 0, whose index "
                 "[0, 76] is outside"),
                (late[1], "arith.select", "its mask is false at element 0, whose index "
                 "[0, 0] is inside"),
                (late[2], "vector.load", "from the grid's first workgroup's, where the "
                 "element of the tile of C it writes moved by")):
            with pytest.raises(Failure) as e:
                read_dispatch(ir.Module.parse(bad, ctx), "k.mlir", None)
            assert f"--emulate: '{op}' op" in str(e.value) and why in str(e.value), \
                str(e.value)


@needs_iree
def test_c0_padded_past_its_rows_and_read_past_its_columns_is_exact(tmp_path, capsys,
                                                                    monkeypatch):
    """fp8 E4M3FN ``C += A x B^T`` 24x327x1044 (IREE's default build, its 2-stage prefetch):
    the late form reads each thread's tile of C0 (32 rows of 64) into private memory, rows
    0-23 from C's rows, rows 24-31 the zero IREE pads them with, which the epilogue reader
    takes as rows wholly outside C (``frontend/padded_rows.py``; before, ``--emulate`` refused
    the read: ``the writes before it fill with different values``).  The edge workgroup's
    unmasked 64-element reads of C0's rows run past column 326 into the next row, which
    workgroup 0 writes, and a select discards what they read: the race check leaves those
    loads to the taint run (``emu/racy_loads.py``), which finds no loaded value that could
    differ reaching anything observable (a global race before).  That staging is kept here
    as IREE writes it: the front end now forwards it (``frontend/private_rows.py``, pad rows
    past C's last), and the kernel so built, run second, has no over-read left to race,
    and is exact too.  Exact in late mode on
    workgroups 0 and 5, the two that race (the whole grid and random mode:
    :func:`test_c0_padded_and_read_past_its_columns_on_the_whole_grid`); a pad row moved inside C (row 23's C row stored at 24 and
    the zero at 23) and a row read from another of C's rows are refused at the read."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.emulate import read_dispatch
    from pipeline_mlir.emu import gemm as emu_gemm
    from pipeline_mlir.frontend import natural

    forms = G.forms(E.epilogue_source("accumulate", "f8E4M3FN", 24, 327, 1044),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    text = forms["late"]
    pad = "vector.store %cst_1, %alloca[%c24, %c0]"
    row = re.search(r"vector\.store (%\w+), %alloca\[%c23, %c0\]", text)
    assert pad in text and row, "the late form pads C0's rows as it did"
    tainted = []
    again = emu_gemm.again_tainting
    monkeypatch.setattr(emu_gemm, "again_tainting",
                        lambda race: tainted.append(again(race)) or tainted[-1])
    # C0's staging kept as IREE writes it (frontend/private_rows.py forwards it now: the
    # second run), so that its over-reads race and the taint run is tested
    monkeypatch.setattr(natural, "forward_private_rows", lambda kernel: None)
    for staged in (True, False):
        path = tmp_path / f"late{staged}.mlir"
        path.write_text(text + ("" if staged else "\n// C0's staging forwarded\n"))
        rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late",
                   "--emulate-workgroups=2", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and re.search(r": exact, max error 0 in C \(1704 elements\), 2 of "
                                     r"6 workgroups .*; workgroups run: 0, 5;", out), out + err
        if staged:
            assert True in tainted, "C0's over-reads no longer race: no taint run tested"
            monkeypatch.undo()
            tainted.clear()
            monkeypatch.setattr(emu_gemm, "again_tainting",
                                lambda race: tainted.append(again(race)) or tainted[-1])
    assert True not in tainted, "C0's staging not forwarded: its over-reads still race"
    swapped = text.replace(row.group(0), "@@").replace(pad, row.group(0).replace(
        "%c23", "%c24")).replace("@@", pad.replace("%c24", "%c23"))
    load = re.search(r"vector\.load (%\w+)\[%c23, (%\w+)\] : memref<24x327xf32", text)
    other = text.replace(load.group(0), load.group(0).replace("%c23", "%c22"))
    with new_context() as ctx:
        read_dispatch(ir.Module.parse(text, ctx), "k.mlir", None)
        for bad in (swapped, other):
            with pytest.raises(Failure) as e:
                read_dispatch(ir.Module.parse(bad, ctx), "k.mlir", None)
            assert "the writes before it fill with different values" in str(e.value), \
                str(e.value)


@needs_iree
@pytest.mark.long("test_c0_padded_past_its_rows_and_read_past_its_columns_is_exact runs the "
                  "workgroups that race (0 and 5) in late mode, the taint run among them")
@pytest.mark.parametrize("mode", ["late", "random:5"])
def test_c0_padded_and_read_past_its_columns_on_the_whole_grid(tmp_path, capsys, mode):
    """The fp8 ``C += A x B^T`` 24x327x1044 above, its late form on the whole grid of 6
    workgroups in late and in random mode: exact (about 8 s of emulation each, the run
    made twice, the second tainting)."""
    forms = G.forms(E.epilogue_source("accumulate", "f8E4M3FN", 24, 327, 1044),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    path = tmp_path / "late.mlir"
    path.write_text(forms["late"])
    rc = main(["--pipeline=4wave", str(path), "--emulate", f"--emulate-mode={mode}",
               "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and re.search(r": exact, max error 0 in C \(7848 elements\), 6 "
                                 r"workgroups", out), out + err
