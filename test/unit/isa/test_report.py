"""Kernel resource report: occupancy, the code object reader, the cross-check, the CLI."""

from __future__ import annotations

import dataclasses
import re
import struct
import subprocess
import sys

from pathlib import Path

import pytest

from kernel_builds import KERNEL_SPECS, build
from pipeline_mlir.isa.alloc_retry import retry_note
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.codegen import REVERSE_LOCAL
from pipeline_mlir.isa.codeobject import CodeObjectError, read_code_object
from pipeline_mlir.kernel.subtile_form import SubtileForm
from pipeline_mlir.isa.report import (CROSSWISE_NOTE, REFERENCE_LOOPS, lockstep_note,
                                         REFERENCE_PINGPONG_BF16, ReportError, has_loop,
                                         instruction_counts, kernel_report, loop_counts,
                                         occupancy_gfx950, unrolled_note, vgpr_padding)


@pytest.mark.parametrize("vgprs, sgprs, lds, wg, occ, limits", [
    (256, 46, 131072, 512, 2, {"vgpr": 2, "lds": 2}),       # ping-pong: both limit
    (169, 102, 65536, 256, 2, {"vgpr": 2, "sgpr": 7}),      # 169 -> 176 allocated
    (81, 102, 32768, 256, 5, {"vgpr": 5, "lds": 5}),
    (8, 30, 0, 64, 8, {"vgpr": 8, "sgpr": 10, "lds": 8}),   # at most 8 waves per SIMD
    (64, 90, 0, 256, 8, {"sgpr": 8}),
    (40, 30, 81920, 512, 4, {"lds": 4}),                    # 2 groups of 8 waves on 4 SIMDs
    (512, 30, 0, 64, 1, {"vgpr": 1}),
    # 6 one-wave (5 two-wave) workgroups on 4 SIMDs: 2 (3) on the fullest, as LLVM counts
    (112, 30, 24576, 64, 2, {"lds": 2}),
    (120, 30, 32768, 128, 3, {"lds": 3}),
])
def test_occupancy(vgprs, sgprs, lds, wg, occ, limits):
    got, lim = occupancy_gfx950(vgprs, sgprs, lds, wg)
    assert got == occ and {k: lim[k] for k in limits} == limits


@pytest.mark.parametrize("args, message", [((520, 30, 0, 64), "exceed the gfx950 file"),
                                           ((8, 30, 200000, 64), "bytes of LDS exceed")])
def test_occupancy_rejects_impossible_kernels(args, message):
    with pytest.raises(ReportError, match=message):
        occupancy_gfx950(*args)


@pytest.fixture(scope="session", params=sorted(KERNEL_SPECS))
def kernel(request):
    return request.param, build(request.param)


def _report(b, asm=None, hsaco=None):
    return kernel_report(b.asm if asm is None else asm, b.hsaco if hsaco is None else hsaco,
                         b.plan, mfmas_per_mma=b.kernel.mfmas_per_mma)


def test_report_agrees_with_llvm_and_the_code_object(kernel):
    key, b = kernel
    rep = _report(b)
    r = rep.resources
    assert rep.mismatches == [] and rep.occupancy == r.llvm_occupancy and rep.ok
    assert r.name == b.kernel.name and r.lds_bytes == b.kernel.lds_bytes
    assert r.workgroup_size == b.kernel.threads and r.vgpr_spills == r.sgpr_spills == 0
    assert r.scratch_bytes == 0 and r.vgpr_alloc >= r.architected + r.agprs
    assert r.vgprs == (r.accum_offset + r.agprs if r.agprs else r.architected)
    hs = read_code_object(b.hsaco)
    assert hs.e_flags & 0xFF == 0x4F                                    # gfx950
    assert hs.kernels[r.name].fields["allocated_vgprs"] == -(-r.vgpr_alloc // 8) * 8
    text = rep.format()
    assert f"occupancy             {rep.occupancy} waves/SIMD" in text and ": agree" in text
    # the counts are the assembly's: checked against a plain scan of the text
    for label, pattern in (("mfma", r"^\tv_mfma_"), ("ds_read_b128", r"^\tds_read_b128 "),
                           ("s_waitcnt", r"^\ts_waitcnt"), ("s_barrier", r"^\ts_barrier$"),
                           ("s_setprio", r"^\ts_setprio "),
                           ("buffer_load ... lds", r"^\tbuffer_load_\w+ .* lds$")):
        assert rep.counts[label] == len(re.findall(pattern, b.asm, re.M)), label


def test_ping_pong_bf16_beside_the_reference():
    b = build("pingpong-bf16")
    rep = _report(b)
    ref = REFERENCE_PINGPONG_BF16
    assert rep.reference is ref and "reference" in rep.format()
    c = rep.counts
    for label in ("ds_read_b128", "buffer_load ... lds", "s_barrier", "s_setprio"):
        assert c[label] == ref["counts"][label], label
    assert c["  v_mfma_f32_16x16x32_bf16"] == ref["counts"]["v_mfma_f32_16x16x32_bf16"]
    # with the reference's block waits, our extra waits are exactly LLVM's waits for
    # kernel-argument s_loads; per-fragment waits (the default) add LLVM's per-MFMA waits
    block = _report(build("pingpong-bf16-block"))
    extra = [o for o in block.isa.outside if o.text.startswith("s_waitcnt")]
    assert block.counts["s_waitcnt"] - len(extra) == ref["counts"]["s_waitcnt"]
    assert c["s_waitcnt"] > block.counts["s_waitcnt"]
    assert rep.resources.lds_bytes == ref["lds_bytes"]
    # occupancy is limited by LDS (one 128 KiB workgroup per CU) in both kernels, so
    # the VGPR difference (ours vs 210) does not change it
    assert rep.limits["lds"] == rep.occupancy == 2
    assert occupancy_gfx950(ref["vgprs"], rep.resources.sgprs_for_waves, ref["lds_bytes"],
                            512)[0] == 2
    assert _report(build("4wave-bf16")).reference is None


def test_mismatches_are_reported():
    b = build("4wave-fp8-64")
    n = int(re.search(r"\.vgpr_count:\s+(\d+)", b.asm).group(1))
    asm = b.asm.replace(f".vgpr_count:     {n}", f".vgpr_count:     {n + 1}")
    assert asm != b.asm
    assert _report(b, asm=asm).mismatches == [f".vgpr_count: assembly {n + 1}, code object {n}"]
    asm = re.sub(r"; Occupancy: \d+", "; Occupancy: 3", b.asm)
    rep = _report(b, asm=asm)
    assert not rep.ok and "LLVM's '; Occupancy' 3: DIFFER" in rep.format()
    lds = b.hsaco.replace(struct.pack("<I", 32768), struct.pack("<I", 16384), 1)
    assert lds != b.hsaco
    assert "KD group_segment_fixed_size: assembly 32768, code object 16384" in \
        _report(b, hsaco=lds).mismatches


def test_a_plans_form_is_said_after_the_kernel():
    """A kernel plan whose operand the front end split along K (``KernelPlan.form``,
    ``frontend/k_subtiles.py``) is named in the line after the kernel's; a plan without one
    adds no line."""
    b = build("4wave-fp8-64")
    plain = _report(b)
    assert "schedule form" not in plain.format()
    rep = kernel_report(b.asm, b.hsaco, dataclasses.replace(b.plan, form=SubtileForm("B")),
                        mfmas_per_mma=b.kernel.mfmas_per_mma)
    assert rep.format().splitlines()[1] == (
        "schedule form: subtiles of B along K (one fragment of it per wave); the MMAs wait "
        "for whole fragment loads (waits=block)")
    assert rep.isa.findings == plain.isa.findings       # the form changes nothing else
    both = dataclasses.replace(rep, form=SubtileForm("A, B"))    # one fragment of each
    assert both.format().splitlines()[1].startswith(
        "schedule form: subtiles of A, B along K, crosswise (one fragment of each per wave)")
    # the crosswise form with one MFMA per MMA block says it is slower than IREE's own
    # prefetch, and why; with more MFMAs per block (a longer K step), or another form, not
    assert rep.form_mfmas == b.kernel.mfmas_per_mma      # read from the loop and the plan
    one = dataclasses.replace(both, form_mfmas=1)
    assert one.format().splitlines()[2] == CROSSWISE_NOTE
    assert CROSSWISE_NOTE.startswith("performance: slower than IREE's own")
    merged = dataclasses.replace(one, form=SubtileForm("A, B", 2))
    assert merged.format().splitlines()[1] == (
        "schedule form: subtiles of A, B along K, crosswise (one fragment of each per wave); "
        "2 of the kernel's K steps merged into each K tile; the MMAs wait for whole fragment "
        "loads (waits=block)")
    # merged K steps (frontend/kmerge.py) are faster than IREE's own kernel in the
    # simulator even with one MFMA per block (fp8 32x32x64): no performance line
    for other in (dataclasses.replace(both, form_mfmas=2),
                  dataclasses.replace(one, form=SubtileForm("B")), merged):
        assert "performance:" not in other.format()
    halved = dataclasses.replace(rep, form=SubtileForm("A", halved=True))   # half_k.py
    assert halved.format().splitlines()[1] == (
        "schedule form: subtiles of A along K (one fragment of it per wave); each of the "
        "kernel's MFMAs halved along K; the MMAs wait for whole fragment loads (waits=block)")
    # both operands in the same K halves (k_subtiles=ab_diagonal): one fragment of each, not
    # crosswise, and no crosswise note even with one MFMA per MMA block
    diagonal = dataclasses.replace(one, form=SubtileForm("A, B", halved=True, diagonal=True))
    assert diagonal.format().splitlines()[1] == (
        "schedule form: subtiles of A, B along K, diagonal (both the same K halves, MFMAs in "
        "the MMAs (0, 0) and (1, 1) only) (one fragment of each per wave); each of the "
        "kernel's MFMAs halved along K; the MMAs wait for whole fragment loads (waits=block)")
    assert "performance:" not in diagonal.format()
    # an operand held whole in each stage (whole=b, fp8 64x31x96): its stage form, the
    # other's subtiles by MFMA rows, not a split along K; no crosswise note
    held = dataclasses.replace(one, form=SubtileForm("B", whole=True))
    assert held.format().splitlines()[1] == (
        "schedule form: stage form: B whole (one load and one fragment of it per stage, A's "
        "two subtiles by MFMA rows against it: the MMAs (0, 0) and (1, 0) only); the MMAs "
        "wait for whole fragment loads (waits=block)")
    assert "performance:" not in held.format()
    frag = dataclasses.replace(rep, form_waits="fragment")     # a pipeline's waits=fragment
    assert frag.format().splitlines()[1].endswith(
        "each MFMA waits for its own reads, those an MMA leaves unread counted in flight "
        "(waits=fragment)")


def test_a_lockstep_kernel_of_more_than_4_waves_that_spills_says_so():
    """A plan of more than 4 waves in one group (``4wave`` on IREE's 8- or 16-wave kernels)
    whose registers spill gets a performance line after the kernel's; 8 waves are pointed
    at ``pingpong``; no spills, 4 waves or two groups: no line."""
    b = build("4wave-fp8-64")
    rep = kernel_report(b.asm, b.hsaco, b.plan, mfmas_per_mma=b.kernel.mfmas_per_mma)
    assert rep.lockstep_waves == 0 and "performance:" not in rep.format()
    spilled = dataclasses.replace(rep, resources=dataclasses.replace(rep.resources,
                                                                     vgpr_spills=22))
    assert "performance:" not in spilled.format()            # 4 waves: no line
    eight = dataclasses.replace(spilled, lockstep_waves=8)
    assert eight.format().splitlines()[1] == lockstep_note(8, 22)
    assert lockstep_note(8, 22).startswith("performance: 8 waves run the 4-wave schedule in "
                                           "lockstep and 22 VGPRs spill")
    assert lockstep_note(8, 22).endswith("schedules 8 waves as two groups")
    assert "pingpong" not in lockstep_note(16, 104)
    assert "2 waves share a SIMD's registers (256 a wave)" in lockstep_note(8, 22)
    assert "4 waves share a SIMD's registers (128 a wave)" in lockstep_note(16, 104)
    assert "performance:" not in dataclasses.replace(eight, resources=rep.resources).format()


def test_a_module_built_twice_says_so_after_its_spills():
    """The LLVM step's note on a module built in two allocator orders (``isa/alloc_retry.py``)
    is the line after the spill counts; a kernel built once has no such line."""
    b = build("4wave-fp8-64")
    rep = kernel_report(b.asm, b.hsaco, b.plan, mfmas_per_mma=b.kernel.mfmas_per_mma)
    assert "register allocation" not in rep.format()
    note = retry_note((22, 0), (0, 0), False, REVERSE_LOCAL, True)
    lines = dataclasses.replace(rep, allocation_note=note).format().splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("  scratch "))
    assert lines[at + 1] == f"  register allocation   {note}"
    assert note == ("built twice: 22 VGPRs and 0 SGPRs spilled in LLVM's default order of "
                    "local live ranges, 0 VGPRs and 0 SGPRs spilled in the reversed order of "
                    f"local live ranges ({REVERSE_LOCAL}); kept the second build (the "
                    "reversed order)")


def test_report_errors():
    b = build("4wave-fp8-64")
    with pytest.raises(CodeObjectError, match="not an ELF file"):
        _report(b, hsaco=b"junk")
    stripped = re.sub(r"\t\.amdhsa_kernel .*?\.end_amdhsa_kernel\n", "", b.asm, flags=re.S)
    with pytest.raises(ReportError, match="no .amdhsa_kernel"):
        _report(b, asm=stripped)


def _with_reference_loop(key: str) -> bool:
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    return gemm_kernel(parse_pipeline(KERNEL_SPECS[key])).name in REFERENCE_LOOPS


@pytest.mark.parametrize("key", [k for k in KERNEL_SPECS if _with_reference_loop(k)])
def test_main_loop_address_arithmetic_at_most_the_reference(key):
    """K is each copy's scalar offset (sched-buffer-soffset) and every fragment read has a
    precomputed base, so one main-loop iteration issues at most the reference's vector ALU
    instructions; the kernel needs at most its VGPRs. The report prints both beside it.
    The scalar work is one M0 write per copy and a handful more (no buffer descriptor is
    rebuilt in the loop: that took 40-58 scalar instructions)."""
    b = build(key)
    rep = _report(b)
    ref = REFERENCE_LOOPS[rep.resources.name]
    assert rep.loop["VALU"] <= ref["VALU"]
    assert rep.resources.vgpr_alloc <= ref["VGPRs"]
    assert rep.loop["SALU"] <= 24
    text = rep.format()
    assert f"  VALU{rep.loop['VALU']:>32}   reference {ref['VALU']:>4}" in text
    assert "main loop, per iteration of one wave; the reference's kernel" in text


def test_loop_counts_of_a_snippet():
    fn = parse_asm("f:\n.LBB0_1:\n v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n"
                   " v_add_u32_e32 v12, 4, v12\n s_add_u32 s2, s2, 0x80\n"
                   " s_cbranch_scc1 .LBB0_1\n s_endpgm\n").function()
    assert loop_counts(fn) == {"VALU": 1, "SALU": 1}
    # no loop: nothing to count, and the report prints no such section
    fn = parse_asm("f:\n v_add_u32_e32 v12, 4, v12\n s_endpgm\n").function()
    assert loop_counts(fn) == {}


def test_counts_of_a_snippet():
    fn = parse_asm("f:\n s_waitcnt vmcnt(0)\n ds_read2_b64 v[0:3], v4\n s_nop 1\n").function()
    c = instruction_counts(fn)
    assert (c["s_waitcnt"], c["ds_read (other)"], c["s_nop"], c["mfma"]) == (1, 1, 1, 0)


def test_isa_check_in_the_report_is_the_checks():
    b = build("4wave-bf16")
    rep = _report(b)
    direct = check_kernel_asm(parse_asm(b.asm).function(), b.plan, b.kernel.mfmas_per_mma)
    assert [f.key() for f in rep.isa.findings] == [f.key() for f in direct.findings]
    assert "ISA check" in rep.format()
    assert "not run" in kernel_report(b.asm, b.hsaco).format()


# ---- the driver ----------------------------------------------------------------------------

def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt", *args],
                          capture_output=True, text=True, input=stdin)


@pytest.mark.parametrize("args, message", [
    (["--pipeline=single-buffer", "--emit=report"],
     "--emit=report without an input builds a complete GEMM kernel, which exists for 4wave "
     "and pingpong, not 'single-buffer'"),
    (["--pipeline=pingpong", "--emit=report", "-"], "error:"),
])
def test_cli_report_errors(args, message):
    stdin = '"sched.pipeline"() ({}) {schedule = "pingpong"} : () -> ()\n' if "-" in args else ""
    r = _cli(*args, stdin=stdin)
    assert r.returncode == 1 and message in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.count("error:") == 1, r.stderr


LOOPED_LL = """define void @f(i1 %c) {
  br label %1

1:
  br i1 %c, label %1, label %2

2:
  ret void
}
"""
STRAIGHT_LL = LOOPED_LL.replace("label %1, label %2", "label %2, label %2")


def test_an_unrolled_k_loop_is_said_so():
    """MFMAs in no loop: the report says LLVM unrolled the K-loop when the LLVM IR it
    compiled has a loop, that there was none when it has none; a loop holding the MFMAs
    (or no MFMA at all) gives no note."""
    assert has_loop(LOOPED_LL) and not has_loop(STRAIGHT_LL)
    flat = parse_asm("f:\n v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n"
                     " v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n"
                     " s_endpgm\n").function()
    assert unrolled_note(flat, LOOPED_LL) == ("none: the function's 2 MFMAs are in no loop: "
                                              "LLVM unrolled the K-loop fully (its trip "
                                              "count is a small constant)")
    assert unrolled_note(flat, STRAIGHT_LL).endswith(
        "and the LLVM IR has no loop either: no K-loop of two or more trips reached LLVM "
        "(MLIR folds a loop of a constant 0 or 1 trips: a pipelined loop whose prologue and "
        "drain take every K step runs none)")
    assert unrolled_note(flat).endswith("(the K-loop was unrolled fully)")
    looped = parse_asm("f:\n.LBB0_1:\n v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], "
                       "v[0:3]\n s_cbranch_scc1 .LBB0_1\n s_endpgm\n").function()
    assert unrolled_note(looped, LOOPED_LL) == ""
    assert unrolled_note(parse_asm("f:\n s_endpgm\n").function(), LOOPED_LL) == ""


def test_the_report_of_a_wave_kernel_whose_loop_llvm_unrolled():
    """IREE Wave's GEMM at K = 256 (a 2-trip loop): LLVM unrolls the pipelined loop, and
    the report (``--emit=report``'s) still reports the resources, says why there is no main
    loop to count, and compares the straight code with the schedule's run: the prologue,
    the one copy of the loop phase the loop ran, the epilogue
    (``pipeline_mlir/isa/unrolled.py``; before, the comparison was not run).  The run's
    one build of it, which ``test_isa_gate.py`` mutates."""
    from kernel_builds import built_input
    from pipeline_mlir.isa.report import kernel_report

    b = built_input("4wave", Path(__file__).parents[2] / "data" / "wave" /
                    "gemm_f16_128x128x256.mlir")
    out = kernel_report(b.asm, b.hsaco, b.plan, ll_text=b.ll).format()
    assert "  LDS                   65536 bytes per workgroup" in out, out
    assert ("main loop: none: the function's 128 MFMAs are in no loop: LLVM unrolled the "
            "K-loop fully") in out, out
    assert ("ISA check: the pipelined loop unrolled (main loop above): its straight code "
            "compared as the prologue, 1 copy of the loop phase (the 'loop' row) and the "
            "epilogue; lines ") in out, out
    # the copy holds the loop phase's 64 MFMAs, the epilogue its 64
    assert re.search(r"\n  loop +64 \(exp  64\)", out) and \
        re.search(r"\n  epilogue +64 \(exp  64\)", out), out
    assert "ISA gate: no finding refuses a code build of this kernel" in out, out
    assert "VGPR roles" not in out, out          # no main loop: no roles, no heading


def test_an_unrolled_kernels_short_wait_is_found():
    """The straight-line code of an unrolled loop still gets the rules that read the
    assembly alone: an MFMA reading a register an LDS read may still be writing (the
    ``s_waitcnt lgkmcnt(0)`` deleted) is a ``wait-short`` finding, and the report prints it."""
    from pipeline_mlir.isa.check import check_without_schedule
    body = (" ds_read_b128 v[4:7], v0\n s_waitcnt lgkmcnt(0)\n"
            " v_mfma_f32_16x16x32_bf16 v[8:11], v[4:7], v[4:7], v[8:11]\n")
    good = parse_asm("f:\n" + body * 2 + " s_endpgm\n").function()
    assert check_without_schedule(good) == []
    short = parse_asm("f:\n" + body + body.replace(" s_waitcnt lgkmcnt(0)\n", "")
                      + " s_endpgm\n").function()
    (found,) = check_without_schedule(short)
    assert found.kind == "wait-short" and found.lines == (6, 5), found


@pytest.mark.parametrize("vgprs, alloc, limits, text", [
    # IREE's VectorDistribute bf16 kernel: 128 KiB of LDS, one wave per SIMD
    (156, 257, {"vgpr": 1, "sgpr": 7, "lds": 1, "max": 8},
     "LLVM pads the allocation from 156 to 257, the fewest VGPRs that allow at most 1 wave "
     "per SIMD, the limit lds sets already: the padding costs no occupancy"),
    (150, 169, {"vgpr": 2, "sgpr": 7, "lds": 2, "max": 8},
     "LLVM pads the allocation from 150 to 169, the fewest VGPRs that allow at most 2 waves "
     "per SIMD, the limit lds sets already: the padding costs no occupancy"),
    # a padding the rule does not explain is said as it is, with no reason claimed
    (150, 200, {"vgpr": 2, "sgpr": 7, "lds": 2, "max": 8},
     "LLVM pads the allocation from 150 to 200"),
    (240, 240, {"vgpr": 2, "sgpr": 7, "lds": 2, "max": 8}, None),
])
def test_vgpr_padding(vgprs, alloc, limits, text):
    assert vgpr_padding(vgprs, alloc, limits) == text
