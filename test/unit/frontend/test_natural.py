"""The front end: natural K-loops (IREE's and the example's) made the schedule's loop.

IREE's inputs are the committed ones (``test/data/iree``; ``test_iree_round_trip.py`` regenerates
them with ``iree-compile`` and checks they are current).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from build_cache import share_code_objects
from cli_helpers import run_cli as run, run_cli_text as run_text
from pipeline_mlir.frontend import natural as N
from pipeline_mlir.frontend.partition import infer_schedule, layout_buffers
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.schedules.registry import parse_pipeline

ROOT = Path(__file__).parents[3]
IREE = ROOT / "test" / "data" / "iree"
sys.path.insert(0, str(ROOT / "examples"))
from natural_kernel import kernel_text  # noqa: E402

PREFETCH = IREE / "matmul_bf16_abt_4096.prefetch.mlir"
LATE = IREE / "matmul_bf16_abt_4096.late.mlir"


def loop_counts(asm: str) -> Counter:
    fn = parse_asm(asm).functions[0]
    return Counter(i.kind for i in fn.main_loop_phases()["loop"])


def analysis_of(text: str):
    ctx = new_context()
    ctx.__enter__()
    m = ir.Module.parse(text, ctx)
    (loop,) = N.find_natural_loops(m.operation)
    with ir.Location.unknown(ctx):
        an = N.analyse_loop(loop)
    return m, an


# ---- IREE's kernel ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", [PREFETCH, LATE], ids=["prefetch", "late"])
def test_iree_kernel_pipelines_to_asm_with_no_options(capsys, tmp_path, path):
    """IREE's bf16 A x B^T kernel at its prefetch point and in its late form become the
    4-wave schedule's loop, two K tiles per iteration, with no option but the name."""
    out = tmp_path / "k.s"
    with share_code_objects(emits=("asm",)):    # the run's build (test_buffer_soffset.py too)
        rc, _, err = run(capsys, "--pipeline=4wave", str(path), "--emit=asm", "-o", str(out))
    assert rc == 0, err
    counts = loop_counts(out.read_text())
    # two K tiles per iteration, each two of IREE's K steps of 32 (merge_k=auto): 4 x 16
    # MFMAs, 4 x 8 fragment reads, 4 x 4 DMA copies; four barriers (one per MMA block group
    # of the minimal-barrier 4-wave schedule)
    assert counts["mfma"] == 64 and counts["ds_read"] == 32, counts
    assert counts["vmem_load_lds"] == 16 and counts["barrier"] == 4, counts


def test_iree_kernel_partition():
    """Copy j of a wave writes rows 32w+16j..+15, so subtile j is M fragments j and j+2
    of every wave; the two subtiles of a buffer differ in element bit 9 (512 elements)."""
    m, an = analysis_of(PREFETCH.read_text())
    p = an.partition
    assert p.copy_channel == [0, 0, 1, 1] and p.copy_subtile == [0, 1, 0, 1]
    assert p.read_channel == [0] * 4 + [1] * 4
    assert p.read_subtile == [0, 1, 0, 1] * 2
    assert (p.vm_per_load, p.lgkm_per_load) == ((1, 1), (2, 2))
    assert sorted(Counter(p.mfma_group).values()) == [4, 4, 4, 4]
    layout = layout_buffers(an)
    assert [b.bit for b in layout.values()] == [9, 9]
    with ir.Location.unknown(m.context):
        schedule = infer_schedule(an, parse_pipeline("4wave"))
    assert schedule.spec() == "4wave{dtype=bf16 BM=128 BN=128 BK=32}"


def test_prefetch_and_late_forms_agree():
    """The swizzle hint of the prefetch point and the late form's explicit XOR give the
    same LDS footprints (IREE's swizzle applies to reads, not to the DMA destination)."""
    _, a = analysis_of(PREFETCH.read_text())
    _, b = analysis_of(LATE.read_text())
    for x, y in zip(a.copies, b.copies):
        assert np.array_equal(np.sort(x.lds.ravel()), np.sort(y.lds.ravel()))
    fa = sorted(tuple(np.sort(r.lds.ravel())) for r in a.reads)
    fb = sorted(tuple(np.sort(r.lds.ravel())) for r in b.reads)
    assert fa == fb


def test_iree_output_names_base_lowering(capsys, tmp_path):
    out = tmp_path / "p.mlir"
    with share_code_objects(emits=("mlir",)):   # the run's build (test_iree_round_trip.py too)
        rc, _, err = run(capsys, "--pipeline=4wave", str(PREFETCH), "-o", str(out))
    assert rc == 0, err
    text = out.read_text()
    assert "#iree_gpu.pipeline<BaseLowering>" in text and "TileAndFuse" not in text
    assert "iree_codegen.swizzle" not in text and "gpu.barrier" in text  # outside the loop


# ---- the natural example: containers and variants ----------------------------------------------

@pytest.mark.parametrize("variant", [
    {}, {"func": "func"}, {"lds": "alloc"}, {"iv": "i32"}, {"step": 4}, {"swizzle": True},
    {"dtype": "f16"}, {"func": "func", "iv": "i32", "lds": "alloc", "swizzle": True, "step": 2},
    {"layout": "kcols"}, {"layout": "kcols", "src": "buffer", "func": "func", "iv": "i32"},
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_natural_variants_pipeline(capsys, tmp_path, variant):
    rc, out, err = run_text(capsys, tmp_path, kernel_text(**variant), "--pipeline=4wave")
    assert rc == 0, err
    assert "sched.global_load" not in out and "gpu.barrier" not in out
    # 32 in the loop, 32 in the epilogue; with memref.alloc LDS (a func.func kernel's) two K
    # steps merged into each K tile by default (merge_k=auto): twice those (a gpu.func's
    # workgroup attributions are not merged: frontend/kmerge.py)
    merged = variant.get("lds") == "alloc" or variant.get("func") == "func"
    assert out.count("amdgpu.mfma") == (128 if merged else 64)


def test_natural_kernel_to_asm_func_func_alloc_i32(capsys, tmp_path):
    """A func.func kernel with memref.alloc LDS and an i32 loop variable compiles."""
    text = kernel_text(func="func", lds="alloc", iv="i32")
    out = tmp_path / "k.s"
    rc, _, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "--emit=asm", "-o",
                          str(out))
    assert rc == 0, err
    counts = loop_counts(out.read_text())
    # two K tiles per iteration, each two K steps of 32 merged (merge_k=auto)
    assert counts["mfma"] == 64 and counts["vmem_load_lds"] == 16, counts


def test_an_llvm_op_the_translation_cannot_take_is_located(capsys, tmp_path):
    """An LLVM-dialect op in the kernel that MLIR's translation cannot take (an intrinsic
    call with a mistyped operand) killed the process in an in-process translation; with LLVM
    ops in the input the translation runs in a child: one error at the op, exit 1."""
    bad = ('      %bad = llvm.mlir.constant(1 : i32) : i32\n'
           '      llvm.call_intrinsic "llvm.amdgcn.s.setprio"(%bad) : (i32) -> ()\n')
    text = kernel_text()
    assert text.count("      gpu.return\n") == 1
    text = text.replace("      gpu.return\n", bad + "      gpu.return\n")
    line = text[:text.index("llvm.call_intrinsic")].count("\n") + 1
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "--emit=llvm")
    assert (rc, out, err.count("error:")) == (1, "", 1), err
    assert err.startswith(f"{tmp_path / 'k.mlir'}:{line}:7: error: intrinsic call operand #0 "
                          f'has type i32 but "llvm.amdgcn.s.setprio" expects i16\n'), err


def _scrambled_rows(text: str) -> str:
    """The kcols example with each wave's 32 copied rows permuted (row r of the wave takes
    global row 3r mod 32): not a strided block of A or B."""
    for j in (0, 1):
        text = text.replace(f"%trow{j} = arith.addi %rw{j}, %lr{j} : index",
                            f"%c3x{j} = arith.constant 3 : index\n"
                            f"    %lr3{j} = arith.muli %lr{j}, %c3x{j} : index\n"
                            f"    %lrp{j} = arith.remui %lr3{j}, %c32 : index\n"
                            f"    %trow{j} = arith.addi %rw{j}, %lrp{j} : index")
    assert "%lrp1" in text
    return text


@pytest.mark.parametrize("variant,where,message", [
    ({"layout": "kcols", "scramble": True}, "vector.load",
     "channel A: every fragment read needs the data of the same copies"),
    ({"layout": "kcols", "scramble": True}, "vector.load", "needs the data of 2 copies"),
    ({"layout": "kcols", "scramble": True}, "vector.load",
     "nor can the front end distribute the copies itself: channel A: the global elements "
     "its LDS buffer holds are not a strided block of one buffer"),
    ({"extra": "store"}, "memref.store", "side effects the pipeliner cannot move"),
    # the 4-wave schedule runs any whole number of waves a workgroup may have in lockstep
    # (test_iree_config_waves.py): not threads that are no whole waves, nor more than 1024
    ({"threads": 96}, "gpu.func", "the kernel runs 96 threads (1.5 waves); the '4wave' "
                                  "schedule runs whole 64-lane waves in lockstep, 1 to 16 of "
                                  "them (at most 1024 threads a gfx950 workgroup)"),
    ({"threads": 1088}, "gpu.func", "its workgroup size (known_block_size) is [1088, 1, 1], "
                                    "1088 threads; a gfx950 workgroup has 1 to 1024"),
    # 8 waves of the 4-wave example kernel: its copies write outside their buffer
    ({"threads": 512}, "amdgpu.gather_to_lds", "accesses LDS outside its buffer"),
])
def test_natural_refusals_are_located(capsys, tmp_path, variant, where, message):
    variant = dict(variant)
    scramble = variant.pop("scramble", False)
    text = kernel_text(**variant)
    if scramble:
        text = _scrambled_rows(text)
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err
    assert message in err, err
    line = int(err.split(":")[1])
    assert where in text.splitlines()[line - 1], (err, text.splitlines()[line - 1])


def test_trip_count_below_two_runs_as_written(capsys, tmp_path):
    """One iteration: no pair to pipeline, the loop runs as written (before: refused; the
    kernel is exact, and no iteration is refused: test_short_loops.py).  (An odd trip count
    is pipelined with a remainder loop: test_tails.py.)"""
    rc, out, err = run_text(capsys, tmp_path, kernel_text(k=32), "--pipeline=4wave")
    assert rc == 0 and "sched.unpipelined" in out and "sched.pipeline" not in out, err


@pytest.mark.parametrize("iv", ["index", "i32"])
def test_dynamic_trip_count_is_guarded_not_trapped(capsys, tmp_path, iv):
    """A trip count known only at run time: the pipelined loop runs in an ``scf.if`` that
    skips it below a pair (the rest in the remainder loop: test_tails.py), no trap."""
    out = tmp_path / "k.s"
    rc, _, err = run_text(capsys, tmp_path, kernel_text(dynamic=True, iv=iv), "--pipeline=4wave",
                          "--emit=asm", "-o", str(out))
    assert rc == 0, err
    assert "s_trap" not in out.read_text()
    rc, text, err = run_text(capsys, tmp_path, kernel_text(dynamic=True, iv=iv),
                             "--pipeline=4wave")
    assert rc == 0 and "llvm.intr.trap" not in text and "arith.cmpi sgt" in text, err


def test_unguarded_dynamic_trip_count_traps():
    """``adopt`` given a loop of run-time trip count that no remainder path guards (not
    cut by ``frontend/tails.py``) traps unless the count is even and at least 2."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.adopt import adopt
    from pipeline_mlir.frontend.natural import analyse_loop
    from pipeline_mlir.passes.adopt_loop import AdoptLoop

    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(kernel_text(dynamic=True), ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        schedule = AdoptLoop(schedule="4wave").schedule
        with loop.location:
            adopt(analyse_loop(loop, schedule), schedule)
        assert "llvm.intr.trap" in str(m)


def test_option_disagreeing_with_the_payload_is_an_error(capsys, tmp_path):
    # (under merge_k=auto or true BK=64 asks for 2 K steps merged: frontend/kmerge_asked.py,
    # test_kmerge_auto.py; merge_k=false merges nothing for a BK)
    rc, _, err = run_text(capsys, tmp_path, kernel_text(), "--pipeline=4wave{merge_k=false "
                                                           "BK=64}")
    assert rc == 1 and "asks for BK=64, but the loop's payload has BK=32\n" in err, err


def test_matching_options_are_accepted(capsys, tmp_path):
    rc, _, err = run_text(capsys, tmp_path, kernel_text(),
                          "--pipeline=4wave{BK=32 vm_per_load_a=1 fences=true}")
    assert rc == 0, err


def test_other_schedules(capsys, tmp_path):
    rc, _, err = run_text(capsys, tmp_path, kernel_text(), "--pipeline=pingpong")
    assert rc == 1 and "'pingpong' schedule is written for 8 waves" in err, err
    rc, _, err = run_text(capsys, tmp_path, kernel_text(), "--pipeline=single-buffer")
    assert rc == 1 and "'single-buffer' has no K offsets" in err, err


def test_import_without_adoption_says_what_to_run(capsys, tmp_path):
    rc, _, err = run_text(capsys, tmp_path, kernel_text(),
                          "--pass-pipeline=builtin.module(sched-import{schedule=4wave})")
    assert rc == 1 and "run sched-adopt-loop first" in err, err


def test_unknown_side_effects_are_refused(capsys, tmp_path):
    text = kernel_text().replace("      gpu.barrier\n", '      "test.unknown"() : () -> ()\n', 1)
    rc, _, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and "does not declare its side effects" in err, err


# ---- the analysis core (no MLIR) -------------------------------------------------------------

def _copy(op, lo, n=8, buffer=0):
    el = np.arange(lo, lo + n)[None, :]
    return LM.Copy(op, buffer, el, 0, el, el + 32, 1)


def _read(op, lo, n=8, buffer=0):
    return LM.Read(op, buffer, np.arange(lo, lo + n)[None, :], 1)


def test_partition_needs_equal_instruction_counts():
    copies = [_copy(0, 0), _copy(1, 8), _copy(2, 16), _copy(10, 0, buffer=1),
              _copy(11, 8, buffer=1)]
    reads = [_read(3, 0), _read(4, 8), _read(5, 16), _read(12, 0, buffer=1),
             _read(13, 8, buffer=1)]
    mfmas = [LM.Mfma(20 + i, frozenset([a]), frozenset([b]), i)
             for i, (a, b) in enumerate((a, b) for a in (0, 1, 2) for b in (3, 4))]
    with pytest.raises(LM.LoopRefusal, match="cannot be split into two subtiles with equal"):
        LM.partition(copies, reads, mfmas, {0: 64, 1: 64}, lambda i: f"op {i}")


def test_compaction_bit():
    sub0 = [np.array([[0, 1, 2, 3], [8, 9, 10, 11]])]
    sub1 = [np.array([[4, 5, 6, 7], [12, 13, 14, 15]])]
    assert LM.compaction_bit({0: sub0, 1: sub1}, 16, 0) == 2
    assert LM.compaction_bit({0: sub0, 1: [np.array([[4, 8]])]}, 16, 0) is None
    assert list(LM.delete_bit(np.array([0, 3, 8, 11, 12]), 2)) == [0, 3, 4, 7, 4]


def test_read_of_two_channels_is_refused():
    copies = [_copy(0, 0), _copy(1, 8)]
    reads = [_read(2, 0)]
    mfmas = [LM.Mfma(3, frozenset([0]), frozenset([0]), 0)]
    with pytest.raises(LM.LoopRefusal, match="feeds both the A and the B operand"):
        LM.partition(copies, reads, mfmas, {0: 64}, lambda i: f"op {i}")


def test_unwritten_read_is_refused():
    with pytest.raises(LM.LoopRefusal, match="no copy of the same iteration writes"):
        LM.read_dependencies([_copy(0, 0)], [_read(1, 4)], {0: 64}, lambda i: f"op {i}")


@pytest.mark.parametrize("op,why", [
    ("rocdl.s.setprio 1", "the schedule sets the wave priorities itself"),
    ("rocdl.sched.group.barrier ds_read, 1, 0", "asks LLVM's scheduler for an interleave"),
    ("rocdl.iglp.opt 1", "asks LLVM's scheduler for a scheduling strategy"),
])
def test_a_request_the_pipelined_loop_cannot_honour_is_refused(capsys, tmp_path, op, why):
    """A priority or scheduler request in the K-loop is refused at the op, not dropped."""
    text = kernel_text()
    assert "      gpu.barrier\n" in text
    text = text.replace("      gpu.barrier\n", f"      gpu.barrier\n      {op}\n", 1)
    line = text[:text.index(f"      {op}\n")].count("\n") + 1
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    name = op.split()[0]
    assert rc == 1 and out == "" and "Traceback" not in err
    assert f"k.mlir:{line}:7: error: sched-adopt-loop: '{name}' op inside the K-loop cannot " \
           f"be kept in the pipelined loop: " in err and why in err, err


@pytest.mark.parametrize("op", ["rocdl.s.waitcnt 0", "rocdl.sched.barrier none", "rocdl.s.barrier"])
def test_barriers_waits_and_fences_are_replaced(capsys, tmp_path, op):
    """Synchronisation the schedule derives itself is dropped: the loop adopts as without."""
    base = run_text(capsys, tmp_path, kernel_text(), "--pipeline=4wave")
    text = kernel_text().replace("      gpu.barrier\n", f"      gpu.barrier\n      {op}\n", 1)
    assert run_text(capsys, tmp_path, text, "--pipeline=4wave") == base


def test_a_read_of_one_unrolled_copy_names_it_once_with_its_count():
    """The copies an unrolled op makes share its name (its location): the refusal says it
    once, with how many (it listed the same name 8 times for IREE's fp8 A^T x B
    31x112x96)."""
    copies = [_copy(0, 0), _copy(0, 8), _copy(1, 16), _copy(10, 0, buffer=1),
              _copy(11, 8, buffer=1)]
    reads = [_read(3, 0, n=24), _read(12, 0, buffer=1), _read(13, 8, buffer=1)]
    mfmas = [LM.Mfma(20 + i, frozenset([0]), frozenset([b]), i) for i, b in enumerate((1, 2))]
    with pytest.raises(LM.LoopRefusal, match=re.escape(
            "op 3 needs the data of 3 copies (op 0: 2 of them, op 1)")):
        LM.partition(copies, reads, mfmas, {0: 64, 1: 64}, lambda i: f"op {i}")
