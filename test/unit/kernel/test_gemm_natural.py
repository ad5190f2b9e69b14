"""The complete GEMM kernels go through the front end: one path for our kernels and others'.

``pipeline-opt --pipeline=SPEC`` without an input now compiles the generator's *natural*
K-loop (``natural_kernel_mlir``: one K tile per iteration, untagged, one LDS buffer per
operand and subtile), which ``sched-adopt-loop`` makes the schedule's loop.  The tagged
kernel (``kernel_mlir``, the schedule's body written directly) is kept as the tagged-form
example.  Both must give the same kernel: the same resources but for the scalar
registers (the natural loop's bound, written so that its trip count is visibly even,
takes two scalar instructions), the same instruction counts and the same ISA check.
"""

from __future__ import annotations

import re

import pytest

from build_cache import share_code_objects
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir, natural_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import COPIES_IN_RANGE_ATTR
from pipeline_mlir.tools.pipeline_opt import main

#: spelled as the behaviour snapshot's cases spell them (test/data/behaviour/cases.py), so
#: that the natural kernel's report is the run's one build of it
SPECS = ["4wave", "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
         "pingpong", "pingpong{is_fp8=true}"]


def report(capsys, *args) -> str:
    assert main([*args, "--emit=report"]) == 0, capsys.readouterr().err
    text = capsys.readouterr().out
    # assembly line numbers and register names differ; scalar registers are allowed to
    text = re.sub(r"\blines? [\d,\- ]+|asm line [\d,]+", "line N", text)
    text = re.sub(r"\b[sv]\[?\d+(:\d+)?\]?", "REG", text)
    return "\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("SGPRs"))


#: the front end's path of the 4-wave FP8 128x128 kernel is the 64x64 one's but for its
#: numbers (the natural and the tagged texts and the ``--emit=schedule-json``, numbers masked,
#: are the same but for the loop's arity); the lowering's MFMA interleave after the front end,
#: which the 64x64 kernel lacks, the 4-wave BF16 kernel has.  The ping-pong BF16 kernel takes
#: the ping-pong FP8 one's path (the same schedule adopted from the same natural loop) with
#: another element type, which the 4-wave BF16 kernel's item takes; the FP8 one adds the far
#: LDS bases pinned through the loop.  (About 1 s of CPU each: the tagged kernel's build; the
#: natural one's is the behaviour snapshot's.)
LONG_SPECS = {"4wave{dtype=fp8 BM=128 BN=128 BK=128}": (
    "the front end's path of 4wave{dtype=fp8 BM=64 BN=64 BK=128} but for its numbers, the "
    "MFMA interleave of 4wave's: test_natural_and_tagged_kernels_agree[4wave{dtype=fp8 "
    "BM=64 BN=64 BK=128}] and [4wave]"),
    "pingpong": (
        "the ping-pong path of test_natural_and_tagged_kernels_agree[pingpong{is_fp8=true}] "
        "with BF16 elements, which test_natural_and_tagged_kernels_agree[4wave] takes")}


@pytest.mark.parametrize("spec", [pytest.param(s, marks=pytest.mark.long(LONG_SPECS[s]))
                                  if s in LONG_SPECS else s for s in SPECS])
def test_natural_and_tagged_kernels_agree(spec, tmp_path, capsys):
    k = gemm_kernel(parse_pipeline(spec))
    tagged = tmp_path / "tagged.mlir"
    tagged.write_text(kernel_mlir(k))
    with share_code_objects(emits=("report",), own_kernels=True):    # once per run
        ours = report(capsys, f"--pipeline={spec}")
    theirs = report(capsys, f"--pipeline={k.schedule.spec()}", str(tagged))
    assert ours == theirs


def test_the_natural_loop_is_untagged_and_single_stage():
    text = natural_kernel_mlir(gemm_kernel(parse_pipeline("4wave")))
    # the one sched attribute is the function's: its generator's statement that every copy
    # reads within its buffer (check_launch takes whole tiles only; sched-buffer-soffset)
    assert text.count("sched.") == text.count(COPIES_IN_RANGE_ATTR) == 1
    assert text.count("amdgpu.gather_to_lds") == 8       # one K tile: 2 subtiles x 2 x 2
    assert text.count("amdgpu.mfma") == 32               # 4x4 tiles x 2 K steps
    assert len(re.findall(r"%lds_\w+: memref", text)) == 4  # one buffer per operand, subtile


def test_far_lds_bases_are_pinned_through_the_main_loop(capsys):
    """Ping-pong FP8 keeps 128 KiB of LDS: its B buffers lie above the 16-bit ds_read
    offset.  The B fragment bases carry the B region and are pinned (an opaque identity the
    lowering carries through the loop), so LLVM folds every B read's constant into its
    offset: no vector instruction in the main loop forms a ds_read address."""
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=true}"))
    # B's buffers at 64..128 KiB: its bases carry 64 KiB, every constant then fits 16 bits
    assert [b.offset for b in k.lds.buffers if b.channel == 1] == [65536, 81920, 98304, 114688]
    assert [k.lds.read_base(ch, 2048) for ch in (0, 1)] == [0, 65536]
    assert k.lds.read_base(1, 2048) + 0xFFFF >= 114688 + 2048
    assert main(["--pipeline=pingpong{is_fp8=true}", "--emit=mlir"]) == 0
    text = capsys.readouterr().out
    pins = re.findall(r'(%\d+) = llvm\.inline_asm "", "=v,0" %\w+ :', text)
    loop = re.search(r"%\w+:\d+ = scf\.for .*iter_args\((.*?)\) ->", text)
    assert len(pins) >= 4 and loop, text[:2000]
    inits = re.findall(r"(%arg\d+) = (%\w+)", loop[1])
    carried = [(arg, init) for arg, init in inits if init in pins[:2]]
    assert [init for _, init in carried] == pins[:2]
    body = text[loop.end():]
    for arg, _ in carried:   # the identity once per iteration, on the iter_arg, yielded
        inner = re.search(rf'(%\d+) = llvm\.inline_asm "", "=v,0" {arg} :', body)
        assert inner
        yields = re.search(r"scf\.yield (.*?) :", body)[1].split(", ")
        assert inner[1] in yields
    # the epilogue reads the loop's result, not the value before the loop
    after = body[body.index("scf.yield"):]
    assert not any(re.search(rf"{p}\b", after) for p in pins[:2])


def test_an_inline_asm_other_than_the_opaque_identity_is_not_evaluated(capsys, tmp_path):
    text = natural_kernel_mlir(gemm_kernel(parse_pipeline("pingpong{is_fp8=true}")))
    bad = text.replace('"=v,0"', '"=v,v"', 1)
    assert bad != text
    src = tmp_path / "k.mlir"
    src.write_text(bad)
    assert main([str(src), "--pipeline=pingpong{is_fp8=true}", "--emit=mlir"]) == 1
    err = capsys.readouterr().err
    assert "the address analysis evaluates only the opaque identity" in err, err


def _loop_body(text: str) -> str:
    start = text.index("scf.for")
    return text[start:text.index("scf.yield", start)]


def test_4wave_mmas_are_interleaved_with_their_loads(capsys, tmp_path):
    """sched-lower-to-rocdl interleaves an MMA that follows its block's loads with them
    (an IGroupLP pipeline, sync id 1): 4-wave FP8 128x128 has 8 such blocks of 4 MFMAs per
    iteration (the half's last block waits for vmcnt before its MMA and again after it:
    the lowering drops the first half's wait, and sched-fix-hazards already moved the
    loop's last one to the loop's exit); option interleave=false keeps the schedule barriers
    and the first half's wait; 4-wave FP8 64x64 (one MFMA per MMA) is not interleaved."""
    spec = "4wave{dtype=fp8 BM=128 BN=128 BK=128}"
    assert main([f"--pipeline={spec}", "--emit=mlir",
                 "--mlir-print-ir-after=sched-fix-hazards"]) == 0
    got = capsys.readouterr()
    loop = _loop_body(got.out)
    assert loop.count("rocdl.sched.group.barrier mfma_wmma, 1, 1") == 8 * 4
    assert loop.count("rocdl.sched.group.barrier ds_read, 2, 1") == 8 * 2
    phases = tmp_path / "phases.mlir"
    phases.write_text(got.err.split("\n", 1)[1])
    assert main([str(phases), "--pass-pipeline=builtin.module(sched-lower-to-rocdl"
                 "{interleave=false})"]) == 0
    plain = _loop_body(capsys.readouterr().out)
    assert "sched.group.barrier" not in plain
    # the schedule barrier after the fragment loads of every block, of none
    def after_reads(text):
        return len(re.findall(r"vector\.load[^\n]*\n\s*rocdl\.sched\.barrier none", text))
    assert (after_reads(plain), after_reads(loop)) == (8, 0)
    assert (plain.count("rocdl.s.waitcnt"), loop.count("rocdl.s.waitcnt")) == (11, 10)
    assert main(["--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}", "--emit=mlir"]) == 0
    assert "sched.group.barrier" not in capsys.readouterr().out


def test_pingpong_dmas_follow_a_fragment_read(capsys, tmp_path):
    """Without fence-loads (which fences a ping-pong block's fragment reads from its LDS
    DMAs, the default) the two kinds of loads share a region, and the interleave's
    pipeline puts a fragment read before each DMA, which fills the wait state the DMA needs
    after its M0 write: the FP8 loop keeps only the 4 s_nop of the two regions that hold
    DMAs only (8 without the pipeline; the default build gets the same 4 from its load runs,
    where the fences between the two kinds once left 16; without the pipeline it was 10
    before the order fence between each block's B and A reads, which LLVM schedules
    around).  Measured on ``frags_ahead=within`` (an FP8 default before ``balanced``,
    whose A1 reads leave a third block of DMAs alone: 12 s_nop in its loop)."""
    spec = "pingpong{is_fp8=true frags_ahead=within}"
    assert main([f"--pipeline={spec}", "--emit=asm",
                 "--mlir-print-ir-after=sched-fix-hazards"]) == 0
    got = capsys.readouterr()

    def loop_nops(asm):
        body = asm[asm.index("Inner Loop Header"):]
        body = body[:re.search(r"s_cbranch_\w+ \.LBB", body).start()]
        return body.count("s_nop")
    # the default build orders each block's fragment reads and DMAs as one run (load runs):
    # the same 4 s_nop
    assert loop_nops(got.out) == 4
    phases = tmp_path / "phases.mlir"
    phases.write_text(got.err.split("\n", 1)[1])
    out = tmp_path / "k.s"
    for options, nops in (("fence-loads=false", 4), ("fence-loads=false interleave=false", 8)):
        assert main([str(phases), "--pass-pipeline=builtin.module(sched-lower-to-rocdl"
                     f"{{{options}}})", "--emit=asm", "-o", str(out)]) == 0
        assert loop_nops(out.read_text()) == nops, options
