"""IREE's VectorDistribute fp8 kernels, whose K step of 512 the front end splits into two
sub-steps of 256 (``pipeline_mlir/frontend/ksplit.py``): one schedule from both forms, the
named 4-wave fp8 schedule of the sub-step, hazard-free, exact in a random order; a loop the
split would cut, or does not take, refused at the op with the reason.
"""

from __future__ import annotations

import json
import re

import pytest

from iree_configs import exact_in_random_order, forms_agree, param
from kernel_builds import shared_build
from pass_helpers import assert_named_and_hazard_free
from pipeline_mlir.tools.pipeline_opt import main


pytestmark = pytest.mark.usefixtures("shared_code_objects")


@pytest.mark.parametrize("name, form, lgkm_b", [
    param("fp8_abt_2048x2048x1024_vector_distribute", "late", 8),
    param("fp8e5m2_abt_2048x2048x1024_vector_distribute", "prefetch", 8),
    param("fp8_abt_1024x1024x1536_vector_distribute", "prefetch", 8),
    param("fp8_ab_1024x1024x2048_vector_distribute", "late", 16)])
def test_vector_distribute_fp8_split_along_k(generated, name, form, lgkm_b, capsys):
    """IREE's VectorDistribute fp8 kernel (K step 512: two stages of its tiles need more LDS
    than a workgroup has) is split into two K sub-steps of 256: both forms become the same
    schedule, a 64x128 tile with a K tile of 256 (a subtile of A is 2 copies of 256 lanes
    x 16 bytes, of B 4, where a K tile of 512 needs 4 and 8; 4 and 8 ``ds_read_b128`` per
    subtile and wave: two 16x16x128 K steps; ``A x B``: 16 8-bit transposing reads per B
    subtile, issued in runs, where IREE's copies of B each hold one sub-step's rows only),
    and the kernel is exact with memory completing in a random order the counters allow
    (one form each: ``test_configuration`` runs the ``A x B^T`` ones' other forms in late mode,
    ``iree_configs.RANDOM_FORM``; in the default run, the ones of ``iree_forms.ONE_BUILT``
    to their schedule alone); at 8
    sub-steps (``A x B``) the run goes round the pipelined loop, the others' runs make what
    ``SHORT`` pins."""
    schedule = json.loads(forms_agree(generated, name, built=form))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (2, 4) and schedule["lgkm_per_load"] == [4, lgkm_b]
    exact_in_random_order(generated, name, capsys, 19, form)


def test_vector_distribute_fp8_schedule_is_hazard_free(generated, tmp_path, capsys):
    """The split loop's schedule is the named 4-wave fp8 schedule of the sub-step (the same
    printed schedule), and the simulator finds its kernel hazard-free for main loops of
    0..6 iterations."""
    spec = ("4wave{dtype=fp8 BM=64 BN=128 BK=256 vm_per_load_a=2 vm_per_load_b=4 "
            "lgkm_per_load_a=4 lgkm_per_load_b=8}")
    assert_named_and_hazard_free(generated("fp8_abt_2048x2048x1024_vector_distribute", "late"),
                                 spec, tmp_path, capsys)


#: the fp8 VectorDistribute kernel's late form mutated: (what, old text, new text, the
#: op the refusal names, the reason)
KSPLIT_MUTANTS = {
    # A's second K step read at K 192 in place of 128: its lanes read K 192..319, across
    # the sub-steps' boundary at 256
    "cut_read": ("%74 = arith.addi %72, %c128_i32",
                 "%k192 = arith.constant 192 : i32\n%74 = arith.addi %72, %k192",
                 "vector.load", "but it would cut a fragment read (its lanes read K "
                 "columns of sub-steps 0, 1)"),
    # the first MFMA of sub-step 1 multiplies another B fragment than sub-step 0's first
    "mfma_differs": ("amdgpu.mfma 16x16x128 %185 * %193 + %215",
                     "amdgpu.mfma 16x16x128 %185 * %197 + %215", "amdgpu.mfma",
                     "but it does not repeat the first sub-step's MFMA of its accumulator"),
    # (copies staged through registers, refused here once, are split now:
    # test_a_single_pair_is_split_for_steady_trips)
    # (a remainder loop marked to be rebuilt on the schedule's buffers, whose step is not the
    # loop's, was made here by writing `sched.remainder_shared` on an input loop: an input
    # carrying the front end's own marks is refused now, frontend/reserved.py, test_reserved.py)
    # a step of 511 over 0..1022 (two iterations): no sub-step of half of it
    "odd_step": ("%92:8 = scf.for %arg0 = %c0_i32 to %c1024_i32 step %c512_i32",
                 "%s511 = arith.constant 511 : i32\n%u1022 = arith.constant 1022 : i32\n"
                 "%92:8 = scf.for %arg0 = %c0_i32 to %u1022 step %s511", "scf.for",
                 "nor can the front end split its K step into 2 sub-steps: the loop's step "
                 "(511) is not a multiple of 2"),
}


@pytest.mark.parametrize("mutant", list(KSPLIT_MUTANTS))
def test_a_k_split_that_would_cut_the_loop_is_refused_at_the_op(generated, mutant, tmp_path,
                                                                capsys):
    """A loop the K split would cut (a fragment read across the sub-steps' boundary, an
    MFMA of the second sub-step that is not the first's moved along K) is refused at that
    op with the reason; one it does not take (a step with no sub-step) at the loop, the
    reason added; never split."""
    old, new, op, reason = KSPLIT_MUTANTS[mutant]
    text = generated("fp8_abt_2048x2048x1024_vector_distribute", "late").read_text()
    assert text.count(old) == 1
    src = tmp_path / "mutant.mlir"
    src.write_text(text.replace(old, new))
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: .*'{op}' op: the schedule's "
                    rf"LDS buffers .* into 2 sub-steps", err), err
    assert reason in err, err


def test_a_copy_of_a_later_sub_step_is_checked(generated, tmp_path, capsys):
    """fp8 ``A x B``'s last copy of B holds K rows of the second sub-step only (no read the
    split keeps reads it; its channel is told by the reads of every sub-step): made to read
    16 columns further along N, the global elements B's LDS holds are no strided block, and
    the loop is refused at a read of B with the reason, never split with that copy left
    out."""
    text = generated("fp8_ab_1024x1024x2048_vector_distribute", "late").read_text()
    loads = re.findall(r"(%\w+) = vector\.load (%\w+)\[(%\w+), (%\w+)\] : "
                       r"memref<2048x1024xf8E4M3FN, #amdgpu\.address_space<fat_raw_buffer>>",
                       text)
    assert len(loads) == 16, loads          # 16 copies of 32 K rows: 512
    res, buf, row, col = loads[-1]
    old = f"{res} = vector.load {buf}[{row}, {col}]"
    src = tmp_path / "mutant.mlir"
    src.write_text(text.replace(old, f"%c16m = arith.constant 16 : index\n%n16m = arith.addi "
                                     f"{col}, %c16m : index\n{res} = vector.load "
                                     f"{buf}[{row}, %n16m]"))
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: .*'amdgpu.transpose_load' op", err)
    assert "channel B: the global elements its LDS buffer holds are not a strided block" in err


def _remainder_bounds(text: str) -> tuple:
    """The constant bounds of the one remainder loop (``sched.remainder``) of the 4-wave
    build of ``text``, whose lowered MLIR holds it and the pipelined loop only."""
    from kernel_builds import hsaco_and_lowered
    from pipeline_mlir.analysis.ir_facts import constant_bounds
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    _, lowered = hsaco_and_lowered("4wave", text)
    with new_context():
        module = ir.Module.parse(lowered)
        loops = walk_ops(module.operation, lambda o: o.name == "scf.for")
        rems = [lp for lp in loops if "sched.remainder" in lp.attributes]
        assert len(rems) == 1 and len(loops) == 2, [str(lp.location) for lp in loops]
        return constant_bounds(rems[0])


def test_an_odd_trip_counts_remainder_runs_the_sub_steps(generated):
    """K = 1536 is three K steps of 512: the front end's tails give the third to a remainder
    loop, which its LDS planner marks to run on the schedule's stage-0 buffers (its own
    copy would not fit beside the two stages: the input carries no such mark), and the split
    makes that remainder run one sub-step of 256 per iteration, over the one K step it has
    (``ksplit.py``, the shared-remainder rule).  The lowered MLIR is the one the exactness
    run of this kernel (``test_vector_distribute_fp8_split_along_k``) builds and emulates:
    exact through that remainder.  With the rule's step rewrite removed, the kernel is
    refused (the remainder "steps by 512, the pipelined loop by 256")."""
    text = generated("fp8_abt_1024x1024x1536_vector_distribute", "prefetch").read_text()
    assert "sched.remainder" not in text
    assert _remainder_bounds(text) == (1024, 1536, 256)


def test_a_single_pair_is_split_for_steady_trips(generated, capsys):
    """fp8 ``A x B`` 129x64x1000 (a 64x64 tile, K step 256; rows of 1000 bytes, its copies
    staged through registers) has 3 whole K steps and a masked one.  Its two stages fit in
    LDS, but in pairs the 3 would leave the pipelined loop its prologue's and drain's K
    steps, no steady trip, and IREE's loop the third with the masked one: the front end
    splits the 3 into 6 sub-steps of 128 (``natural._steady_substeps``, ``ksplit.py``), so
    IREE's loop, the remainder, runs the masked K step alone (K 768 to 1024, the loop's
    units of 128: 6 to 8); the kernel is exact (late mode, the first and the last
    workgroup).  Without the split the remainder runs from 4 (the cut moved back: a split
    refused, as for 64x64x1000, whose B fragments have no subtile split at half the K step:
    ``test_isa_gate.py``'s loop folded away)."""
    path = generated("fp8_ab_129x64x1000", "late")
    assert _remainder_bounds(path.read_text()) == (6, 8, 2)
    rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
               "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def test_a_k_left_ending_before_the_last_tile_moves_the_cut_back(generated):
    """fp8 ``A x B`` 129x64x1000 with A's K left ending at 700 rather than 1000 (a mutant:
    A's reads masked in the loop's third K tile as well as its fourth): the peel that keeps
    3 whole K steps for the split finds the third one's masks not full, so the cut moves
    back to the pairs' (2 K steps, IREE's loop from 4, the units of 128) rather than the
    loop being refused (it was taken before the peel kept 3); the pipelined build computes
    what the unpipelined one computes, on the first and the last workgroup, late mode."""
    import mutants as I
    from kernel_builds import hsaco_and_lowered
    from pipeline_mlir.analysis.ir_facts import constant_bounds
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.driver.emulate import read_dispatch
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul, matmul_c

    text = generated("fp8_ab_129x64x1000", "late").read_text()
    old = "%c1000_i32 = arith.constant 1000 : i32"
    assert text.count(old) == 1
    mutant = text.replace(old, "%c1000_i32 = arith.constant 700 : i32")
    with new_context() as ctx:
        d = read_dispatch(ir.Module.parse(text, ctx), "fp8_ab_129x64x1000", None)[0]

    def c(hsaco):
        return matmul_c(load_kernel(hsaco), Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b,
                                                   d.constants), [0, 2], mode="late",
                        grid=d.grid)
    rc, err, ref = I.build(mutant, False)
    assert rc == 0, err
    out, lowered = hsaco_and_lowered("4wave", mutant)
    assert (c(ref) == c(out)).all()
    with new_context():
        module = ir.Module.parse(lowered)
        loops = walk_ops(module.operation, lambda o: o.name == "scf.for")
        rems = [lp for lp in loops if "sched.remainder" in lp.attributes]
        assert len(rems) == 1 and constant_bounds(rems[0]) == (4, 8, 2)


def _form_schedules(forms: dict, tmp_path, capsys, built: str) -> list:
    """The schedule (JSON, parsed) of each form of ``forms`` ({form: text}), written to
    ``tmp_path``, in the forms' order: of the form ``built`` (the one the test emulates
    next) the schedule its build keeps on the way (``kernel_builds.shared_build``, the
    run's store: the ``--emulate`` after it reads that build, no passes run twice), of
    the other ``--emit=schedule-json``'s."""
    schedules = []
    for form, text in forms.items():
        path = tmp_path / f"{form}.mlir"
        path.write_text(text)
        if form == built:
            schedules.append(json.loads(
                shared_build("4wave", input=str(path)).stages["schedule-json"]))
            continue
        assert main(["--pipeline=4wave", str(path), "--emit=schedule-json"]) == 0
        schedules.append(json.loads(capsys.readouterr().out))
    return schedules


def test_a_pair_is_split_alike_whatever_workgroup_is_sampled(tmp_path, capsys):
    """f16 ``A x B^T`` 101x256x256 (a 64x128 tile, K step 128: 2 K steps, split into 4
    sub-steps for a steady trip).  The split reads the K sub-step's element bits off the
    global elements A's copies put in each LDS element, at the sampled workgroup 1: at
    the prefetch point that is the tile along M that C's edge cuts, whose rows past M
    IREE points past the end of the range-checked buffer, and that table was no strided
    block: the split was dropped there while the late form (workgroup 1 another tile)
    took it, two kernels for one dispatch (a sixteenth-sweep fused draw, its bias and C
    accumulated).  The elements past the buffer's end are free in that table now: both
    forms split, one schedule, exact in random order."""
    from iree_configs import G

    forms = G.forms(G.matmul_source("f16", 101, 256, 256))
    schedules = _form_schedules(forms, tmp_path, capsys, built="prefetch")
    assert schedules[0] == schedules[1]
    vm = {e["name"]: e["vm_cost"] for e in schedules[0]["phases"]["prologue"]}
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (1, 2), vm       # (2 and 4 unsplit)
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "prefetch.mlir"),
               "--emulate-mode=random:3", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def test_a_pair_whose_split_narrows_a_copy_is_split_in_neither_form(tmp_path, capsys):
    """IREE's bf16 batch ``A x B^T`` 2 x 267x969x181 built with 4 prefetch stages (a 64x128
    tile, K step 64 in units of 32: 2 whole K steps and a masked third, every K tile peeled
    in the late form and the loop rebuilt).  Split into sub-steps of 32 for a steady trip,
    A's sub-step (64x32) is 4 elements a lane where IREE's copies move 8, each staged in two
    pieces (rows of 181 bf16 are not 4-byte aligned): the split costs copies the steady trip
    does not save (``ksplit._narrowed``).  It used to be taken from the late form, whose rows
    past M are clamped, and refused at the prefetch point, whose copies keep them in their
    address: ``BK=32`` against ``BK=64``, two schedules for one dispatch.  Now neither form
    splits: one schedule, the unsplit loads (LDS reads per load 2 and 4, not 1 and 2), the
    late form exact (late mode, its first and last workgroups)."""
    import epilogues as E
    from iree_configs import G

    src = E.epilogue_source("batch", "bf16", m=267, n=969, k=181)
    forms = G.forms(src, ("--iree-llvmgpu-prefetch-num-stages=4",))
    schedules = _form_schedules(forms, tmp_path, capsys, built="late")
    assert schedules[0]["lgkm_per_load"] == [2, 4], schedules[0]["lgkm_per_load"]
    assert schedules[0] == schedules[1]
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-mode=late", "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
