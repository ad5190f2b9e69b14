"""IREE's masked last K tile: peeled into the remainder loop, the masks proven full before it.

IREE's bf16 matmul with K = 4095 (``iree-compile``, at the prefetch point, once per
module): 128 K steps of 32, the last one partial, so its copies through registers are
masked by ``vector.create_mask`` of the columns left.  The front end peels the last K
tile(s) into the remainder loop and proves every mask full in the 126 iterations the
pipelined loop keeps; the copies themselves (rows of 8190 bytes, not 16-byte aligned: no
direct-to-LDS copy moves them) are register-staged (``sched-stage-copies``).  The same
kernels at 2048x2048 and K = 1023 and K = 1028 (rows of 2046 and 2056 bytes, as unaligned
as 4095's and 4100's; 32 and 33 K steps) run exact on the emulator, memory completing
as late as the counters allow (test_iree_configurations.py, on the same code objects) and
at random (here in the long tier; K = 1023's late form in test_iree_config_tiles.py); a
staged copy whose LDS wait is weakened, or
whose store moves past the barrier after it, is caught as a race by sched-stage-copies'
check of the staged form.  In the pipelined loop the
staged loads are issued an iteration ahead: a load for the wrong iteration gives a wrong C,
and the loop's assembly without LLVM's vmcnt before a staged write is a pending register.  Mutants of the kernel
(the prefetch point and the late form, whose guarded loads are peeled too) check each
refusal of the peel.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from build_cache import cached, share_code_objects
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.emu.hazard_paths import basic_blocks
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.frontend import grid_eval as GE
from pipeline_mlir.frontend import kept_layout as KL
from pipeline_mlir.frontend import kept_masks as KM
from pipeline_mlir.frontend import layout as L
from pipeline_mlir.isa.natural_loops import main_loop, natural_loops
from pipeline_mlir.kernel.loop_model import LoopRefusal
from pipeline_mlir.tools.pipeline_opt import main
from kernel_builds import shared_build
from steady_loop import assert_steady, counting_loops

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from staged_asm import emulate_without_staged_write_waits  # noqa: E402
from long_tier import FUNCTIONS_RUN, marked  # noqa: E402

LOOP = "%33:16 = scf.for %arg2 = %c0 to %c128 step %c1"
MASK = "%72 = vector.create_mask %c1, %70 : vector<1x8xi1>"


@pytest.fixture(scope="module")
def prefetch() -> str:
    text = G.prefetch_point(G.matmul_source(dtype="bf16", k=4095), ())
    assert LOOP in text and MASK in text, "IREE's K = 4095 kernel changed shape"
    return text


def _run(capsys, tmp_path, text: str) -> tuple[int, str, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, err, text.splitlines()[int(err.split(":")[1]) - 1] if rc else ""


@pytest.fixture(scope="module")
def unaligned(tmp_path_factory):
    """K -> IREE's 2048x2048xK bf16 kernel at the prefetch point (a 128x128 tile); "late":
    the K = 1023 kernel's late form; each written (``iree-compile`` run) when first asked
    for, so a kernel only the long tier runs costs the default run nothing."""
    def prefetch(**shape):
        return lambda: G.prefetch_point(G.matmul_source(**shape), ())

    def late(**shape):
        return lambda: G.late_form(G.matmul_source(**shape), ())

    makers = {k: (f"k{k}.mlir", prefetch(dtype="bf16", m=2048, n=2048, k=k))
              for k in (1023, 1028)}
    makers["late"] = ("k1023.late.mlir", late(dtype="bf16", m=2048, n=2048, k=1023))
    # IREE's default for small problems: a 64x128 tile at K step 128, 8 K tiles, the last
    # masked; the peeled tile's LDS fits beside the schedule's (B's subtiles in windows that
    # wrap, partition.subtile_windows; before them it was put on the schedule's).
    # At 300x260 (a partial edge tile of M and N) each run is masked by its row and the K
    # left (frontend/masked_rows_k.py, masked_rows_k_late.py); at K = 1030 the tile's K
    # step is 32, A's runs staged through a private row
    for (m, n, k), form in (((300, 260, 1020), "prefetch"), ((300, 260, 1020), "late"),
                            ((200, 1000, 1030), "prefetch"), ((200, 1000, 1030), "late")):
        key = f"{m}x{n}x{k}.{form}"
        makers[key] = (f"{key}.mlir", (prefetch if form == "prefetch" else late)(
            dtype="bf16", m=m, n=n, k=k))
    # IREE's 8-bit default there: K step 256, rows padded to 264 bytes; the peeled tiles'
    # 128x264 buffer (33792 bytes) fits beside the schedule's (before the wrapping
    # windows, one schedule buffer was grown to hold it: aliased_remainder, whose growth
    # test_iree_epilogues.py's C += kernel runs); K = 1768 (7 K tiles, the last masked)
    # runs the steady loop
    makers["i8.512x1768.late"] = ("i8_512x1768.late.mlir", late(dtype="i8", m=512, n=512,
                                                                k=1768))
    # i8 A x B: each copy of B (K x N) one K row, read unmasked and kept or padded by an
    # arith.select of whether the row is inside K (frontend/select_masks.py)
    for form in ("prefetch", "late"):    # (one iree-compile run for both)
        makers[f"i8ab.512x1768.{form}"] = (f"i8ab_512x1768.{form}.mlir", lambda form=form: (
            G.forms(G.matmul_source(dtype="i8", m=512, n=512, k=1768,
                                    transpose_b=False))[form]))
    return _Written(tmp_path_factory.mktemp("unaligned_k"), makers)


class _Written(dict):
    """name -> the path of its kernel in ``folder``, written by ``makers[name] = (file
    name, a function that returns the text)`` when first asked for."""

    def __init__(self, folder: Path, makers: dict):
        super().__init__()
        self.folder, self.makers = folder, makers

    def __missing__(self, name):
        file, make = self.makers[name]
        path = self[name] = self.folder / file
        path.write_text(make())
        return path


@pytest.mark.parametrize("k,mode", [
    pytest.param(1023, "random:3", marks=pytest.mark.long(
        "a second mode: test_configuration[bf16_abt_2048x2048x1023-prefetch] runs this "
        "kernel in late mode, test_iree_config_tiles.py's test_unaligned_k_forms_agree_and_"
        "run_in_random_order its late form (one schedule) in random order, and "
        "200x1000x1030.late a masked tile's peel in random order here")),
    # (K = 1028's kernel is K = 1023's but for its numbers; its K steps are merged (in 256
    # VGPRs since the LLVM step narrows the index arithmetic to 32 bits; before, found to
    # leave one wave per SIMD and built again unmerged), and its remainder runs the masked
    # K tile alone, 1023's a whole one and the masked one)
    pytest.param(1028, "random:5", marks=pytest.mark.long(
        "a second mode: test_configuration[bf16_abt_2048x2048x1028-prefetch] runs this "
        "kernel in late mode, and 200x1000x1030.late a masked tile's peel in random order "
        "here")),
    # (the late form, the rarer path: its guarded loads at clamped rows; the prefetch
    # point pipelined to its schedule in test_200x1000x1030_both_forms_one_schedule)
    ("200x1000x1030.late", "random:7"),
    pytest.param("200x1000x1030.prefetch", "late", marks=pytest.mark.long(
        "one schedule with 200x1000x1030.late (test_200x1000x1030_both_forms_one_schedule), "
        "which runs it here; the prefetch point's runs masked by the row and the K left "
        "run in test_k1020_both_forms_one_hazard_free_schedule (300x260x1020.prefetch)")),
    # (the i8 A x B^T kernel's schedule is the A x B one's but for the numbers; its masked
    # runs of K are that one's A's, peeled onto buffers of their own beside the schedule's)
    pytest.param("i8.512x1768.late", "random:11", marks=pytest.mark.long(
        "i8ab.512x1768.late takes its tile, schedule and peel: 8-bit tiles masked along K, "
        "peeled beside the schedule's buffers")),
    ("i8ab.512x1768.late", "late")])
def test_unaligned_k_is_exact(unaligned, capsys, k, mode):
    """(1020, 1030, 1768: the peeled masked tiles run on buffers of their own beside the
    schedule's.  200x1000x1030 (and
    300x260x1020's prefetch point, test_k1020_both_forms_one_hazard_free_schedule): the
    last of the 2 workgroups run holds the partial tile of both M (44, 8 rows) and N (4,
    104 columns); at 1030 the runs of A are staged through registers; the i8 A x B kernel's B
    copies padded by selects, dropped in the loop that stays, which compiles to one block.)
    The K = 1023 and 1028 kernels in late mode: test_iree_configurations.py's
    ``test_configuration[bf16_abt_2048x2048x{1023,1028}-prefetch]`` (the same kernels,
    code objects shared with it here) runs them on 2
    workgroups, the second of the first row and the last of the grid (the last run here
    too)."""
    with share_code_objects(), counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(unaligned[k]),
                   "--emulate-workgroups=2", f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert_steady(loops)
    grid = {"300x260x1020": 15}.get(str(k).split(".")[0], 256 if isinstance(k, int) else 32)
    assert f"K={k if isinstance(k, int) else k.split('.')[-2].split('x')[-1]}" in out, out
    assert f": exact, max error 0, 2 of {grid} workgroups" in out, out
    if k == "i8ab.512x1768.late":
        _one_block_loop(unaligned[k])


def test_200x1000x1030_both_forms_one_schedule(unaligned, capsys):
    """IREE's 200x1000x1030 kernel: the prefetch point (its build and run in the long tier)
    is pipelined with the late form's schedule (``--emit=schedule-json``, no lowering, no
    LLVM), which ``test_unaligned_k_is_exact[200x1000x1030.late-random:7]`` runs (the late
    form's schedule kept by that build, the run's store)."""
    assert main(["--pipeline=4wave", str(unaligned["200x1000x1030.prefetch"]),
                 "--emit=schedule-json"]) == 0
    got = capsys.readouterr().out
    assert got == shared_build("4wave", input=str(unaligned["200x1000x1030.late"])) \
        .stages["schedule-json"] and '"phases"' in got, got[:500]


def _one_block_loop(path) -> None:
    """The main loop of the kernel just emulated (its code object from the run's cache) is
    one block: LLVM's pipeline left this kernel's header-tested, its counter in a VGPR, its
    branch on exec (``codegen.unrotated_loop``: compiled again with its loops rotated)."""
    with share_code_objects():
        hsaco = compile(CompileOptions(schedule="4wave", input=str(path), emit="hsaco"))
    instrs = load_kernel(hsaco.checked_output()).instrs
    starts, succs = basic_blocks(instrs)
    ends = [*starts[1:], len(instrs)]
    mfmas = [sum(i.name.startswith("v_mfma") for i in instrs[a:b]) for a, b in zip(starts, ends)]
    loop = main_loop(natural_loops(succs), mfmas)
    assert loop is not None and len(loop.blocks) == 1, loop


def test_a_remainder_tile_no_buffer_can_grow_to_is_refused(unaligned, capsys, tmp_path):
    """The i8 kernel's B tile padded to 1040-byte rows: the peeled tiles' 133120-byte buffer
    fits neither beside the schedule's nor on one of them grown (by 116736 bytes, more
    than the 65536 the kernel leaves): refused at the loop, saying so (at 520-byte rows
    the growth fits: aliased, exact by hand)."""
    text = unaligned["i8.512x1768.late"].read_text()
    assert text.count("memref<128x264xi8") > 1
    rc, err, line = _run(capsys, tmp_path, text.replace("memref<128x264xi8",
                                                        "memref<128x1040xi8"))
    assert rc == 1 and "needs an LDS buffer of 133120 x i8" in err, err
    assert ("(the largest free buffer of the schedule holds 16384 x i8, and growing it to "
            "133120 needs 116736 bytes more than the 65536 the kernel leaves unused)") in err
    assert "scf.for" in line, (err, line)


def test_a_staged_copy_with_a_weakened_wait_is_caught(unaligned, capsys, monkeypatch):
    """The staged copy's LDS store waited for only down to 15 outstanding LDS operations
    (not 0): another wave reads the LDS it writes before the write is done, a race, which
    sched-stage-copies' check of the staged form finds at the read (before the emulator
    would find it as an lds-race)."""
    import pipeline_mlir.passes.stage_copies as SC
    real = SC.waitcnt_imm
    monkeypatch.setattr(SC, "waitcnt_imm", lambda **kw: real(lgkmcnt=15))
    rc = main(["--pipeline=4wave", "--emulate", str(unaligned[1023]),
               "--emulate-workgroups=1", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "sched-stage-copies: the register-staged form: " in err, out + err
    assert "may see the staged LDS store at 'vector.store' op" in err, err


#: a cut run's mask on A's K run, its pieces taken (frontend/cut_runs.py): the front end's
#: own copies of A refused
PAST_END_ROWS = ("channel A: the global elements its LDS buffer holds are not a strided block "
                 "of one buffer, swizzled or not")


@pytest.mark.parametrize("old,new,message,where", [
    (LOOP, "%c129 = arith.constant 129 : index\n" + LOOP.replace("%c128", "%c129"),
     "is masked to 7 of 8 elements in thread 3 in iteration 127, which the pipelined loop "
     "runs", "vector.transfer_read"),
    # a size that moves with the workgroup, odd in some lane, on a run along K (this A is
    # M x K): copied an element per lane as masked (frontend/cut_runs.py), but the front
    # end's own copies of A (its copies do not split into subtiles) cannot hold the rows
    # pointed past the end beside the others
    (MASK, MASK.replace("%70", "%20"), PAST_END_ROWS, "vector.transfer_read"),
    (MASK, "%72 = arith.constant dense<true> : vector<1x8xi1>",
     "is masked by a value that is not a vector.create_mask", "vector.transfer_read"),
    (LOOP, LOOP.replace("%c128", "%arg0"),
     "has a masked last K tile and a trip count known only at run time", "scf.for"),
], ids=["partial-before-last", "workgroup-dependent", "not-create-mask", "dynamic-trips"])
def test_mask_peel_refusals(prefetch, capsys, tmp_path, old, new, message, where):
    rc, err, line = _run(capsys, tmp_path, prefetch.replace(old, new))
    assert rc == 1 and message in err, err
    assert re.search(r"\.mlir:\d+:\d+: error: ", err) and where in line, (err, line)


def test_a_staged_store_past_its_barrier_is_caught(unaligned, capsys, monkeypatch):
    """The staged copy's LDS store moved past the waits and barriers after it (to the end
    of its block, outside the window in which the DMA copy may write): a race, which
    sched-stage-copies' check of the staged form finds (before the emulator would)."""
    import pipeline_mlir.passes.stage_copies as SC
    monkeypatch.setattr(SC, "FENCES", ())
    rc = main(["--pipeline=4wave", "--emulate", str(unaligned[1023]),
               "--emulate-workgroups=1", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "sched-stage-copies: the register-staged form: " in err, out + err


LATE_LOOP = "scf.for %arg0 = %c0_i32 to %c32_i32 step %c1_i32"
LATE_LOAD = "%349 = vector.load %1[%27, %288]"
LATE_DEALLOC = "memref.dealloc %alloc :"
LATE_MASK = "%289 = vector.create_mask %286 : vector<8xi1>"


@pytest.mark.parametrize("old,new,message,where", [
    # the else-branch loads other elements than the masked load: not a guarded load
    # (the refusal says which op of which region breaks IREE's form, and the condition)
    (LATE_LOAD, LATE_LOAD.replace("%27", "%29"), "this one, on the condition of the "
     "'arith.andi' op at line 174:20, is not: the 'vector.load' op at line 179:22 reads other "
     "elements than the 'vector.maskedload' op at line 176:22: index 0 differs", "scf.if"),
    # a 33rd K step: the guarded load's mask is partial in an iteration kept
    pytest.param(LATE_LOOP, LATE_LOOP.replace("%c32_i32", "%c33_i32"), "is masked to",
                 "scf.if", marks=pytest.mark.long(
                     "the same check of the masks (frontend/masks.py) refuses "
                     "test_mask_peel_refusals[partial-before-last]")),
    # another access of the LDS buffer: its explicit swizzle is not undone, and the copy's
    # lanes do not store in order
    (LATE_DEALLOC, "%zz = memref.load %alloc[%c0] : memref<4096xbf16, "
     "#gpu.address_space<workgroup>>\n" + LATE_DEALLOC,
     "writes LDS element 72 of the dense tile, not 64", "vector.store"),
    # the guarded load's mask sized by the workgroup: its pieces taken, the front end's own
    # copies refused at A's fragment read
    pytest.param(LATE_MASK, LATE_MASK.replace("%286", "%workgroup_id_x"), PAST_END_ROWS,
                 "vector.load %alloc", marks=pytest.mark.long(
                     "the same refusal at the same op: guard-mask-fixed; a mask moving with "
                     "the workgroup: test_mask_peel_refusals[workgroup-dependent]")),
    # the guarded load's mask a constant size cutting a 4-byte piece: a size of the threads
    # alone is a cut run's (frontend/cut_runs.py), refused as the one above (before the
    # fixed-size cut runs, the refusal's note read the element size off operand 0, an i1
    # of the scf.if: an internal error, as IREE's f16 A x B 2048x17x1000 late form gave)
    (LATE_MASK, "%one = arith.constant 1 : index\n" + LATE_MASK.replace("%286", "%one"),
     PAST_END_ROWS, "vector.load %alloc"),
], ids=["guard-reads-other-elements", "partial-before-last", "other-lds-access",
        "guard-mask-moves", "guard-mask-fixed"])
def test_late_form_refusals(unaligned, capsys, tmp_path, old, new, message, where):
    text = unaligned["late"].read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    if "%c33_i32" in new:        # the kernel has the constant 33 of its own
        assert "%c33_i32 = arith.constant 33 : i32" in text
    rc, err, line = _run(capsys, tmp_path, text)
    assert rc == 1 and message in err, err
    assert re.search(r"\.mlir:\d+:\d+: error: ", err) and where in line, (err, line)


def test_staged_loads_are_issued_an_iteration_ahead(unaligned, capsys, tmp_path):
    """The emitted MLIR (what an executable handed back to iree-compile holds) has the
    masks peeled and the copies staged: no marked copy left, each a global load, an LDS
    store and a wait.  In the pipelined loop every staged copy is an LDS store of a value
    the loop carries and the load of the next iteration's elements; its vmcnt waits are
    gone (LLVM derives the one the register needs); the copies before and after the loop
    keep the slot form."""
    out = tmp_path / "p.mlir"
    with share_code_objects(emits=("mlir",)):   # the run's build (test_iree_families.py too)
        assert main(["--pipeline=4wave", str(unaligned[1023]), "-o", str(out)]) == 0
    text = out.read_text()
    assert "sched.register_staged" not in text and "amdgpu.gather_to_lds" not in text
    assert text.count("gpu.lane_id") == 16 and text.count("rocdl.s.waitcnt 49279") >= 16
    loops = [ln for ln in text.splitlines() if " = scf.for " in ln and "vector<4xf32>" in ln]
    staged = [ln.split("-> (")[1].count("vector<8xbf16>") for ln in loops]
    assert staged[0] == 8 and text.count("vector.store %arg") == 8, staged
    body = text.split(loops[0])[1].split("scf.yield")[0]
    waits = [int(w) for w in re.findall(r"rocdl\.s\.waitcnt (\d+)", body)]
    assert waits and all(w & 0xC00F == 0xC00F for w in waits), waits   # vmcnt at 63


def test_a_staged_load_for_the_wrong_iteration_is_caught(unaligned, capsys, monkeypatch):
    """The load issued ahead reads the current iteration's elements, not the next's: the
    LDS holds the K tile before the one the reads expect, a wrong C."""
    import pipeline_mlir.passes._stage_ahead as SA
    monkeypatch.setattr(SA, "_next_iv", lambda iv, p: iv)
    rc = main(["--pipeline=4wave", "--emulate", str(unaligned[1023]),
               "--emulate-workgroups=1", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "max error" in out + err and "exact" not in out, out + err


def test_a_stage_ahead_write_before_its_load_is_caught(unaligned, capsys, tmp_path):
    """The wait LLVM derives for a staged LDS write (vmcnt on the load issued an iteration
    earlier, across the back edge) dropped from the loop's assembly: the write reads
    registers the load has not filled, a pending-register finding."""
    rc = emulate_without_staged_write_waits(unaligned[1023], "2048,2048,1023", tmp_path)
    out, err = capsys.readouterr()
    assert rc == 1 and "pending-register" in err and "ds_write_b128" in err, out + err


def test_a_static_row_mask_of_more_than_the_tile_is_refused(unaligned, capsys, tmp_path):
    """The static rows' masks are evaluated at every tile of the grid: one computed from a
    workgroup id op (which the evaluator takes at a sample, not tile by tile) is refused
    at the read (it was taken)."""
    text = unaligned["300x260x1020.prefetch"].read_text()
    old = "%10 = affine.min #map2(%arg0)\n"
    assert old in text, "IREE's 300x260x1020 kernel changed shape"
    src = tmp_path / "hw.mlir"
    src.write_text(text.replace(old, "%hw = hal.interface.workgroup.id[0] upper_bound 5 : "
                                     "index\n%10 = affine.min #map2(%hw)\n", 1))
    assert main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "o.mlir")]) == 1
    err = capsys.readouterr().err
    assert "'vector.transfer_read' op at line" in err and "masks rows of a binding of " \
        "static rows by a value that depends on 'hal.interface.workgroup.id'" in err, err


def test_k1020_both_forms_one_hazard_free_schedule(unaligned, capsys):
    """The prefetch point and the late form of IREE's 300x260x1020 kernel (partial edge
    tiles of M and N: its runs masked by their row and the K left, the late form's guarded
    loads with and without the row's guard) give the same schedule: the 4-wave one at
    IREE's 64x128 tile and K step 128, which the simulator finds hazard-free as the kernel
    runs it (after sched-fix-hazards); the late form's printed, the prefetch point's
    options (the whole spec but its defaults) read from its run on the emulator, exact in
    late mode on 2 of its 15 workgroups, the last holding the partial tile of both M and
    N, its steady loop run; its LDS as sched-adopt-loop leaves it."""
    rc = main(["--pipeline=4wave", str(unaligned["300x260x1020.late"]),
               "--emit=schedule-json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    spec = ("4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 lgkm_per_load_a=4 "
            "lgkm_per_load_b=8}")
    assert main([f"--pipeline={spec}", "--emit=schedule-json"]) == 0
    assert capsys.readouterr().out == out
    assert main(["--simulate", f"--pipeline={spec}"]) == 0
    assert ": safe for main loops of 0..6 iterations: no hazard" in capsys.readouterr().out
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(unaligned["300x260x1020.prefetch"]),
                   "--emulate-workgroups=2", "--emulate-mode=late",
                   "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "K=1020" in out and ": exact, max error 0, 2 of 15 workgroups" in out, \
        out + err[-2000:]
    assert_steady(loops)
    assert set(re.findall(r"sched\.options = \{[^}]*\}", err)) == {
        'sched.options = {BK = 128 : i64, BM = 64 : i64, BN = 128 : i64, dtype = "bf16"}'}
    # two stages of every subtile (B's in windows that wrap) and beside them the remainder
    # loop's own buffers, no drain before it (the remainder on the schedule's buffers,
    # drained: test_iree_epilogues.py's C += kernel)
    allocs = re.findall(r"memref\.alloc\(\) : memref<(\d+)xbf16", err)
    assert sorted(map(int, allocs)) == [4096] * 4 + [8192] * 5 + [16384], allocs
    assert "rocdl.s.waitcnt" not in err


SELECT = "%644 = arith.select %640, %643, %cst : vector<16xi8>"
SELECT_COND = "%638 = arith.minsi %637, %c1_i32 : i32"
KEPT_COND = "%640 = arith.index_castui %639 : index to i1"


def test_select_masked_copies_both_forms_one_schedule(unaligned, capsys, tmp_path,
                                                       monkeypatch):
    """IREE's i8 A x B 512x512x1768 kernel (B's copies padded by arith.select of whether
    their K row is inside K): both forms give one schedule; a mutant of the late form whose
    condition is 2 cast to i1 (false: a one-bit truncation) in a kept iteration is refused
    at the select (the other refusals: test/unit/frontend/test_select_masks.py); one whose
    condition also tests a lane, not an element coordinate, is kept in the copy and refused
    by frontend/kept_layout.py's proof, whose other refusals are checked on that run's
    analysis (:func:`_kept_layout_variants`)."""
    # the late form's schedule from its code object's build (the run's store: emulated by
    # test_unaligned_k_is_exact), kept on the way; the prefetch point's, which no test here
    # builds, from --emit=schedule-json
    assert main(["--pipeline=4wave", str(unaligned["i8ab.512x1768.prefetch"]),
                 "--emit=schedule-json"]) == 0
    got = capsys.readouterr().out
    assert got == shared_build("4wave", input=str(unaligned["i8ab.512x1768.late"])) \
        .stages["schedule-json"]
    late = unaligned["i8ab.512x1768.late"].read_text()
    assert SELECT in late and SELECT_COND in late and late.count(KEPT_COND) == 1, \
        "IREE's i8 A x B kernel changed shape"
    rc, err, line = _run(capsys, tmp_path, late.replace(
        SELECT_COND, SELECT_COND.replace("%c1_i32 : i32", "%c2_i32 : i32")))
    assert rc == 1 and "pads the loaded value in thread 0 in iteration 0, which the " \
        "pipelined loop runs" in err, err
    assert line.strip().startswith(SELECT.split(" =")[0]), (err, line)
    # the condition ANDed with a test of the lane that is not one of the element's
    # coordinates (true in workgroup 0, which the layout is read from): kept in B's copy
    # (frontend/kept_masks.py); B's channel needs the front end's own copies, whose lanes
    # test their own runs against the buffer (frontend/kept_layout.py), and the proof over
    # the grid finds workgroup 1; kept_layout's other refusals on the same run's analysis
    said = _kept_layout_variants(monkeypatch)
    rc, err, line = _run(capsys, tmp_path, _kept_mutant(late, NOT_A_LANE_COORDINATE))
    assert rc == 1 and "channel B's copies keep a mask in their address; the front end's " \
        "own copies, each lane's run kept where it lies inside the buffer's 1768x512 " \
        "elements, would not read what they read: in workgroup (1,) at K step 0" in err, err
    assert re.search(r"LDS element \d+ gets zero from the kernel's copies", err), err
    assert "nor can the front end distribute the copies itself" in err, err
    assert "amdgpu.transpose_load" in line, (err, line)
    assert len(said) == len(KEPT_LAYOUT_REFUSALS), said
    for got, want in zip(said, KEPT_LAYOUT_REFUSALS):
        assert re.search(want, got), (want, got)
    over = [re.search(KEPT_LAYOUT_REFUSALS[7], x) for x in said][7]
    assert int(over[1]) == int(over[2]) + 1, over[0]      # (the budget one read short)


@pytest.mark.parametrize("wg", [13, 30])
def test_a_kept_mask_wrong_at_one_inner_point_is_refused_by_boxes(unaligned, capsys, tmp_path,
                                                                   monkeypatch, wg):
    """IREE's i8 ``A x B`` 512x1768 late form with B's kept condition made false for thread
    5 alone in workgroup 13 or 30 (of 0..31): a point no corner or step of the grid's box
    is.  The proof over boxes of workgroups and K steps (kept_layout.py's ``_by_boxes``)
    splits the boxes the condition leaves undecided down to that workgroup, and the
    channel is refused there: with the budget of lane reads at 1 (no lane-by-lane proof) at
    the point the boxes found, with the default budget at the first point of the
    lane-by-lane proof, the same one.  (The same condition false at one K step only is
    refused before, at the select: ``... pads the loaded value in thread 5 in iteration 12,
    which the pipelined loop runs``.)"""
    late = unaligned["i8ab.512x1768.late"].read_text()
    where = f"({wg},) at K step 0"
    mutant = _kept_mutant(late, f"%kwb = arith.constant {wg} : index\n"
                                "%kw0 = arith.cmpi ne, %workgroup_id_x, %kwb : index\n"
                                "%kt5 = arith.constant 5 : index\n"
                                "%ktl = arith.cmpi ne, %thread_id_x, %kt5 : index\n"
                                "%kok = arith.ori %kw0, %ktl : i1")
    for budget in (1, GE.EVAL_BUDGET):
        monkeypatch.setattr(GE, "EVAL_BUDGET", budget)
        rc, err, line = _run(capsys, tmp_path, mutant)
        assert rc == 1 and "channel B's copies keep a mask in their address; the front " \
            f"end's own copies, each lane's run kept where it lies inside the buffer's " \
            f"1768x512 elements, would not read what they read: in workgroup {where}" in err, \
            (budget, err[-3000:])
    assert cached("tails-late-boxes", late, lambda: _pipelined_by_boxes(late, monkeypatch))


def _pipelined_by_boxes(late: str, monkeypatch) -> bool:
    """Whether ``late`` (as IREE wrote it) is pipelined with the budget of lane reads at 1
    (its proof by boxes alone): one ``--emit=schedule-json`` per run, which each workgroup
    of :func:`test_a_kept_mask_wrong_at_one_inner_point_is_refused_by_boxes` asks for."""
    monkeypatch.setattr(GE, "EVAL_BUDGET", 1)
    result = compile(CompileOptions(schedule="4wave", text=late, emit="schedule-json"))
    return not result.failed


#: kept conditions of workgroup ``%workgroup_id_x`` (0..31) ORed with a test of one thread:
#: false at one workgroup, below a bound, at a remainder, where a product or a square
#: crosses a bound
BOX_MUTANTS = {
    "ne": "%kwb = arith.constant 21 : index\n%kw0 = arith.cmpi ne, %workgroup_id_x, %kwb : index",
    "ult": "%kwb = arith.constant 25 : index\n%kw0 = arith.cmpi ult, %workgroup_id_x, %kwb : index",
    "mod": "%kwb = arith.constant 5 : index\n%kwr = arith.remui %workgroup_id_x, %kwb : index\n"
           "%kwc = arith.constant 2 : index\n%kw0 = arith.cmpi ne, %kwr, %kwc : index",
    "lin": "%kwb = arith.constant 3 : index\n%kwr = arith.muli %workgroup_id_x, %kwb : index\n"
           "%kwc = arith.constant 57 : index\n%kw0 = arith.cmpi slt, %kwr, %kwc : index",
    "square": "%kwr = arith.muli %workgroup_id_x, %workgroup_id_x : index\n"
              "%kwc = arith.constant 169 : index\n%kw0 = arith.cmpi ne, %kwr, %kwc : index",
    "square_none": "%kwr = arith.muli %workgroup_id_x, %workgroup_id_x : index\n"
                   "%kwc = arith.constant 170 : index\n%kw0 = arith.cmpi ne, %kwr, %kwc : index"}


@pytest.mark.parametrize("name", sorted(BOX_MUTANTS))
def test_boxes_and_lanes_agree_on_kept_mutants(unaligned, capsys, tmp_path, monkeypatch, name):
    """The kept-mask proof over boxes (the budget of lane reads at 1) and lane by lane (the
    boxes settling nothing) give the same verdict on IREE's i8 ``A x B`` 512x1768 late form
    with B's kept condition ANDed with ``BOX_MUTANTS[name] or thread id != 9``: refused at
    the same first workgroup (21; 25; 2; 19; 13), or pipelined (no square is 170)."""
    late = unaligned["i8ab.512x1768.late"].read_text()
    mutant = _kept_mutant(late, BOX_MUTANTS[name] + "\n%kt5 = arith.constant 9 : index\n"
                          "%ktl = arith.cmpi ne, %thread_id_x, %kt5 : index\n"
                          "%kok = arith.ori %kw0, %ktl : i1")
    verdicts = []
    for budget, boxes in ((1, GE.BOXES), (GE.EVAL_BUDGET, 0)):
        with monkeypatch.context() as m:
            m.setattr(GE, "EVAL_BUDGET", budget)
            m.setattr(GE, "BOXES", boxes)
            rc, err, _line = _run(capsys, tmp_path, mutant)
        found = re.search(r"in workgroup \((\d+),\) at K step 0", err)
        verdicts.append((rc, found and int(found[1])))
    want = {"ne": 21, "ult": 25, "mod": 2, "lin": 19, "square": 13, "square_none": None}[name]
    assert verdicts == [(int(want is not None), want)] * 2, verdicts


#: a test of the lane that is not one of the element's coordinates, true in workgroup 0
NOT_A_LANE_COORDINATE = (
    "%kwb = arith.constant 0 : index\n%kw0 = arith.cmpi eq, %workgroup_id_x, %kwb : index\n"
    "%kt5 = arith.constant 5 : index\n%ktl = arith.cmpi ne, %thread_id_x, %kt5 : index\n"
    "%kok = arith.ori %kw0, %ktl : i1")


def _kept_mutant(late: str, cond: str) -> str:
    """IREE's i8 A x B late form with B's select condition ANDed with ``%kok`` (``cond``)."""
    return late.replace(KEPT_COND, KEPT_COND.replace("%640 =", "%k640 =") + "\n" + cond +
                        "\n%640 = arith.andi %k640, %kok : i1")


_DMA_B = re.compile(r"^( *)amdgpu\.gather_to_lds %3\[(%\w+), (%\w+)\], (%alloc\w*)\[(%\w+)\] : "
                    r"vector<8xbf16>, (memref<\d+x\d+xbf16, [^>]*>>), "
                    r"(memref<\d+xbf16, #gpu\.address_space<workgroup>>)$", re.M)


def _kept_copy(m, n=[0]) -> str:
    """One of B's direct-to-LDS copies made a register copy whose run is padded with zeros
    by ``arith.select`` in the grid's last workgroup (a mask that moves with the
    workgroup): the load, the select of ``workgroup id < 255``, the store of the lane's
    run where the DMA would have put it."""
    ind, r, c, buf, d, gt, lt = m.groups()
    n[0] += 1
    k = f"%kept{n[0]}"
    return "\n".join(ind + x for x in [
        f"{k}l = gpu.lane_id upper_bound 64", f"{k}w = arith.constant 8 : index",
        f"{k}o = arith.muli {k}l, {k}w : index", f"{k}a = arith.addi {d}, {k}o : index",
        f"{k}e = arith.constant 255 : index",
        f"{k}c = arith.cmpi ult, %workgroup_id_x, {k}e : index",
        f"{k}z = arith.constant dense<0.000000e+00> : vector<8xbf16>",
        f"{k}v = vector.load %3[{r}, {c}] : {gt}, vector<8xbf16>",
        f"{k}s = arith.select {k}c, {k}v, {k}z : vector<8xbf16>",
        f"vector.store {k}s, {buf}[{k}a] : {lt}, vector<8xbf16>"])


def test_a_mask_that_moves_with_the_workgroup_is_kept_in_the_copies(capsys, tmp_path):
    """IREE's bf16 1024x4096x2048 late form (its copies split into the schedule's subtiles
    as they are) with B's copies made register copies padded by a select that is false in
    the grid's last workgroup only: not proven but kept in the copies' address
    (frontend/kept_masks.py), recomputed for every copy the pipelined loop issues.  Run on
    the first and the last workgroup, the first is exact and the last computes its C tile
    from a zero B tile: the first element C differs at is that tile's first, and it is 0
    (a mask dropped would make C exact, one applied everywhere would differ in
    workgroup 0's tile first)."""
    late = G.late_form(G.matmul_source(dtype="bf16", m=1024, n=4096, k=2048), ())
    src = tmp_path / "kept.mlir"
    src.write_text(_DMA_B.sub(_kept_copy, late))
    assert src.read_text().count("arith.select %kept") == 2, "IREE's kernel changed shape"
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "WRONG" in out and "2 of 256 workgroups" in out, out + err
    assert "C differs from the reference: C[896][3968] = 0, expected" in err, out + err


#: the schedule IREE's bf16 A x B 1000x1000xK kernel adopts (its tile, MFMAs and K step),
#: and the options the front end writes for it (the whole spec, defaults left out)
#: (merge_k=auto, the default, merges two of its K steps of 8: 8 MFMAs of 32 cycles a wave
#: each, 512 cycles in two stages against a global load's 790; an odd number of them, 125
#: at K = 1000, 25 at the test's K = 200, leaves one to the remainder)
KEPT_SPEC = "4wave{dtype=bf16 mfma=32x32x8 BM=128 BN=256 BK=16 vm_per_load_a=2}"
KEPT_OPTIONS = ('sched.options = {BK = 16 : i64, BM = 128 : i64, BN = 256 : i64, dtype = '
                '"bf16", mfma = "32x32x8", vm_per_load_a = 2 : i64}')


def test_edge_tiles_masked_per_lane_both_forms(capsys, tmp_path):
    """IREE's bf16 A x B 1000x1000x200 kernel (a 128x256 tile cut at C's edges, 32x32x8
    MFMAs, K step 8; its 1000^3 kernel is the same text from both forms but for K's
    numbers, and gives the same schedule and adopted loop but for them, compared by hand: K
    cut to 200 to emulate 25 K steps, not 125): each run of A and B padded by a condition
    of the workgroup's edge, kept in the copies (frontend/kept_masks.py); neither operand's
    copies split into the schedule's subtiles, so the front end makes its own, each lane
    testing its own run against the buffer, proven the kernel's mask over the whole grid
    (frontend/kept_layout.py).  Both forms give one schedule, the spec's: the prefetch
    point's printed, the late form's options (every field of the spec but its defaults,
    which the spec's own schedule is compiled from) read from its emulated run, as
    test_iree_pingpong.py reads them; hazard-free in the simulator; the late form is exact
    on the emulator in late mode on the first and the last workgroup (the corner tile: 104
    rows, 232 columns; the prefetch point likewise, by hand)."""
    forms = G.forms(G.matmul_source(dtype="bf16", m=1000, n=1000, k=200, transpose_b=False))
    for form in ("prefetch", "late"):
        (tmp_path / f"{form}.mlir").write_text(forms[form])
    assert main(["--pipeline=4wave", str(tmp_path / "prefetch.mlir"),
                 "--emit=schedule-json"]) == 0
    got = capsys.readouterr().out
    assert main([f"--pipeline={KEPT_SPEC}", "--emit=schedule-json"]) == 0
    assert capsys.readouterr().out == got
    assert main(["--simulate", f"--pipeline={KEPT_SPEC}"]) == 0
    assert ": safe for main loops of 0..6 iterations: no hazard" in capsys.readouterr().out
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=late",
               "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0, 2 of 32 workgroups" in out, out
    assert set(re.findall(r"sched\.options = \{[^}]*\}", err)) == {KEPT_OPTIONS}, err[-2000:]


#: IREE's f16 A^T x B 1000x600x1030 and A^T x B^T 200x1000x1030 (committed as lit inputs,
#: generate.py's LIT_INPUTS): their schedules, and the options and form the front end
#: writes for them
MERGED = ROOT / "test" / "lit" / "passes" / "Inputs" / "iree-f16-atb-1000x600x1030"
MERGED_SPEC = ("4wave{dtype=f16 BM=16 BN=32 BK=128 k_subtiles=ab vm_per_load_a=4 "
               "lgkm_per_load_a=4 lgkm_per_load_b=4 waves=2}")
MERGED_OPTIONS = ('sched.options = {BK = 128 : i64, BM = 16 : i64, BN = 32 : i64, dtype = '
                  '"f16", k_subtiles = "ab", lgkm_per_load_a = 4 : i64, lgkm_per_load_b = 4 '
                  ': i64, vm_per_load_a = 4 : i64, waves = 2 : i64}')
#: the two kernels: (the form whose schedule is printed, the form emulated, spec, options,
#: the subtile form, C's elements in the first and the corner workgroup, the grid)
MERGED_CASES = {
    "atb-1000x600x1030": ("prefetch", "late", MERGED_SPEC, MERGED_OPTIONS,
                          "A, B along K, crosswise; 4", 704, 1197),
    # one wave of a 16x128 tile: 8 accumulators share one A fragment; B N x K, its rows of
    # 2060 bytes register-staged
    "atbt-200x1000x1030": (
        "late", "prefetch", "4wave{dtype=f16 BM=16 BN=128 BK=64 k_subtiles=a "
        "lgkm_per_load_a=2 waves=1}",
        'sched.options = {BK = 64 : i64, BM = 16 : i64, BN = 128 : i64, dtype = "f16", '
        'k_subtiles = "a", lgkm_per_load_a = 2 : i64, waves = 1 : i64}', "A along K; 2",
        2880, 104)}


#: (2026-12-07) the case of :func:`test_merged_transposing_reads_both_forms` in the long tier
#: only: every function of pipeline_mlir it runs is run by the default run's items left (the
#: function rule of docs/testing.md, "The long tier"; coverage.py per item)
MERGED_LONG = {"atbt-200x1000x1030": f"{FUNCTIONS_RUN}; [atb-1000x600x1030] merges a "
               "masked kernel's "
               "transposing reads, both forms one schedule, exact"}


@pytest.mark.parametrize("case", marked(sorted(MERGED_CASES), MERGED_LONG))
def test_merged_transposing_reads_both_forms(capsys, monkeypatch, case):
    """IREE's f16 A^T x B 1000x600x1030 (a 16x32 tile in 2 waves cut at M, N and K, one
    16x16x32 MFMA per wave and K step, A read with transposing reads, its copies' masks kept,
    C written by memref.copy of per-thread rows): 4 K steps merged, the merged loop's
    transposing reads (joined by the first regrouping's vector.shuffle) regrouped again,
    both operands split along K, B crosswise.  IREE's f16 A^T x B^T 200x1000x1030 (one wave
    of a 16x128 tile cut at M, N and K: 8 accumulators sharing one A fragment, one MFMA
    each per K step): 2 K steps merged, A split along K, B by accumulator; the top of each
    half of the 4-wave loop leaves B's load of 8 reads in flight, not A's 2
    (schedule/program_builder.py), and its staged B copies need no barrier in a
    workgroup of one wave (analysis/lds_order.py).  Both forms give one schedule, the
    spec's (one form's printed, the other's options read from its emulated run),
    hazard-free in the simulator; the emulated form exact in late mode on the first and the
    last workgroup (the corner tile: 8 rows and 24 columns, 8 and 104; K cut at 1030; the
    other forms likewise, by hand).  Their refusals: test/lit/passes/
    sched-adopt-loop-transpose.mlir.  The whole-grid proof of their kept masks also refuses
    its own copies moved in the last workgroup at the last K step only
    (:func:`_corner_variant`), and proves the copies as written with every batch of K steps
    passing side by side (none proven again one step at a time)."""
    printed, emulated, spec, options, merged, elements, grid = MERGED_CASES[case]
    paths = {form: f"{MERGED.parent}/iree-f16-{case}.{form}.mlir" for form in (printed,
                                                                            emulated)}
    corner, batches, stale = _corner_variant(monkeypatch)
    assert main(["--pipeline=4wave", paths[printed], "--emit=schedule-json"]) == 0
    got = capsys.readouterr().out
    monkeypatch.setattr(L, "prove_kept", KL.prove_kept)
    assert batches and all(batches), batches
    # (the next proof of the same kernel, after its threads' part of the index changed,
    # sees the change: the part no workgroup moves, shared by the proofs, is told of it)
    assert len(stale) == 1 and re.search(
        r"at K step 0, LDS element \d+ gets global element \d+ from the kernel's copies",
        stale[0]), stale
    # (the proof of the kept masks, kept_layout.py: its own copies moved in the grid's last
    # workgroup at the last K step only are refused there)
    assert all(re.search(
        rf"in workgroup {re.escape(str(w))} at K step {k}, LDS element \d+ gets global "
        rf"element \d+ from the kernel's copies and (global element \d+|zero|an element "
        rf"neither inside the buffer nor past its end) from the front end's", said) and k > 0
        for said, w, k in corner) and len(corner) == 1, corner
    assert main([f"--pipeline={spec}", "--emit=schedule-json"]) == 0
    assert capsys.readouterr().out == got
    assert main(["--simulate", f"--pipeline={spec}"]) == 0
    assert ": safe for main loops of 0..6 iterations: no hazard" in capsys.readouterr().out
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", paths[emulated],
                   "--emulate-workgroups=2", "--emulate-mode=late",
                   "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and f"mode=late: exact, max error 0 in C ({elements} elements), 2 of " \
        f"{grid} workgroups" in out, out + err[-2000:]
    assert set(re.findall(r"sched\.options = \{[^}]*\}", err)) == {options}, err[-2000:]
    assert f'sched.subtiles = "{merged} of the kernel\'s K steps merged into each K tile"' \
        in err, err[-2000:]


#: what :func:`_kept_layout_variants` finds, in order
KEPT_LAYOUT_REFUSALS = [
    r"at K step 0, LDS element \d+ gets global element \d+ from the kernel's copies and "
    r"global element \d+ from the front end's",
    r"gets global element \d+ from the kernel's copies and zero from the front end's",
    r"at K step 0, LDS element \d+ gets global element \d+ from the kernel's copies and "
    r"global element \d+ from the front end's",
    "which must then be a fat raw buffer of static shape",
    "own copies must read the buffer the kernel's copies read, from its element 0",
    r"a grid of 32 workgroups \(at most 31\)", "a loop over workgroups is not evaluated",
    r"in every workgroup at every K step: the proof over boxes of workgroups and K steps "
    r"settled no more in 0 boxes, and evaluating every lane instead, the 32 workgroups of "
    r"\d+ threads at \d+ K steps, \d+ copies in each, are (\d+) lane reads to evaluate, "
    r"more than (\d+)",
    r"would not read what they read: in workgroup \(1,\) at K step 0",
    "the K-loop needs constant bounds",
    "which a view or a split of the copy has changed: each index must be the select the "
    "front end built",
    "its run is neither inside the buffer nor past its end",
    "needs the copies' views of the buffer to be casts and same-rank",
    "where its kept condition is false and it reads inside the buffer",
    "proven for the front end's own copies of whole K steps only, not of K sub-steps"]


def _corner_at_last_step(an) -> tuple:
    """``dim_indices`` (kept_layout.py's own copies' indices per dimension) with the last
    dimension's index moved by one in the grid's last workgroup at the K-loop's last step
    only (read from the IR's own ids and loop variable, not the proof's layout of lanes):
    the mutant a proof that evaluates only some K steps or some workgroups passes; with
    that workgroup and step."""
    kernel = KL.kernel_of(an.scan.loop)
    corner = [g - 1 for g in KL.workgroup_grid(kernel)]
    lb, ub, step = KL.constant_bounds(an.scan.loop)
    last = lb + (ub - lb - 1) // step * step
    iv = an.scan.loop.regions[0].blocks[0].arguments[0]
    ids = []                          # the values the corner binds, and theirs there
    KL.bind_workgroup(SimpleNamespace(bind=lambda v, a: ids.append((v, int(a[0])))), kernel,
                      tuple(np.array([corner[d] if d < len(corner) else 0]) for d in range(3)))
    real = KL.dim_indices

    def moved(*args):
        g = real(*args)
        ev = args[0].ev
        at = ev.value(iv) == last
        for v, there in ids:
            at = at & (ev.value(v) == there)
        return g[:-1] + [np.where(at, g[-1] + 1, g[-1])]
    return moved, tuple(corner), last


def _corner_variant(monkeypatch) -> tuple:
    """The refusal of kept_layout.py's ``prove_kept`` in the next run that proves a kept
    channel, its first proof run first on :func:`_corner_at_last_step`'s mutant (then
    every proof as written): [(message, the mutant's workgroup, its K step)]; per batch of
    K steps the proofs as written evaluate side by side, whether it passed there (a batch
    that fails is proven again step by step, which would hide a side-by-side path that
    refuses what one K step at a time proves); and the refusal of the first proof made
    again after it with its kernel's copies' thread ids read as 0
    (:func:`_thread_ids_zeroed`: the IR changed between two proofs of one kernel)."""
    said, batches, stale = [], [], []
    side_by_side = KL._side_by_side

    def recorded(*args):
        batches.append(side_by_side(*args))
        return batches[-1]

    def variant(*args):
        if not said:
            moved, corner, last = _corner_at_last_step(args[0])
            with monkeypatch.context() as m:
                m.setattr(KL, "dim_indices", moved)
                with pytest.raises(LoopRefusal) as e:
                    KL.prove_kept(*args)
            said.append((str(e.value), corner, last))
            del e                             # (its traceback holds the proof's arrays)
        with monkeypatch.context() as m:        # (lane by lane: the boxes settle nothing)
            m.setattr(KL, "_side_by_side", recorded)
            m.setattr(GE, "BOXES", 0)
            out = KL.prove_kept(*args)
        if not stale:       # (C's stores may read the ops changed: their proof left out)
            undo = _thread_ids_zeroed(args[0], args[2])
            try:
                with monkeypatch.context() as m, pytest.raises(LoopRefusal) as e:
                    m.setattr(KL, "check_grid_covers", lambda *a: None)
                    KL.prove_kept(*args)
                stale.append(str(e.value))
                del e
            finally:
                undo()
        return out
    monkeypatch.setattr(L, "prove_kept", variant)
    return said, batches, stale


def _thread_ids_zeroed(an, kept: list):
    """The thread id read as a constant 0 by the ops of the first kept copy's indices (of
    ``kept``) that read it: every lane's run moves to thread 0's (the front end's own
    copies, which the plan lays out, do not); returns what puts it back."""
    todo = list(KM.unkept(list(an.scan.copies[kept[0]].src_indices)))
    seen, uses = set(), []
    while todo:
        v = todo.pop()
        if isinstance(v.owner, ir.Block) or v in seen:
            continue
        seen.add(v)
        op = v.owner.operation if hasattr(v.owner, "operation") else v.owner
        for i, x in enumerate(op.operands):
            if not isinstance(x.owner, ir.Block) and x.owner.name == "gpu.thread_id":
                uses.append((op, i, x))
            todo.append(x)
    assert uses, "no thread id in the kept copy's indices"
    with uses[0][0].context, ir.Location.unknown(), ir.InsertionPoint(uses[0][0]):
        t = ir.IndexType.get()
        zero = ir.Operation.create("arith.constant", results=[t],
                                   attributes={"value": ir.IntegerAttr.get(t, 0)})
    for op, i, _ in uses:
        op.operands[i] = zero.results[0]

    def undo():
        for op, i, x in uses:
            op.operands[i] = x
        zero.erase()
    return undo


def _before_start(indices: list, made: list) -> list:
    """The kept copy's indices as the kernel computed them (``kept_masks.unkept``) with the
    first moved 10**6 rows back: a mutant whose index goes negative, before the buffer's
    start in every lane, built once (its ops in ``made``, the subtraction first)."""
    got = KM.unkept(indices)
    if not made:
        select = indices[0].owner
        with indices[0].type.context, ir.Location.unknown(), ir.InsertionPoint(select):
            t = ir.IndexType.get()
            c = ir.Operation.create("arith.constant", results=[t], attributes={
                "value": ir.IntegerAttr.get(t, 10 ** 6)})
            made += [ir.Operation.create("arith.subi", results=[t],
                                         operands=[got[0], c.result]), c]
    return [made[0].result] + got[1:]


def _lane_reads(an, copies: list, lanes: list) -> int:
    """The lane reads ``prove_kept`` evaluates (``grid_eval.over_budget``): every thread of
    every workgroup at every K step, for the kernel's copies and the front end's."""
    lb, ub, step = KL.constant_bounds(an.scan.loop)
    grid = KL.workgroup_grid(KL.kernel_of(an.scan.loop))
    return an.scan.threads * int(np.prod(grid)) * len(range(lb, ub, step)) * \
        (len(copies) + len(lanes))


def _kept_layout_variants(monkeypatch) -> list:
    """The refusals of frontend/kept_layout.py's ``prove_kept`` on the analysis of the next
    run that proves a kept channel (their messages, in :data:`KEPT_LAYOUT_REFUSALS`'
    order): the front end's copies moved by one column, before the buffer's start, a
    dimension's offset the same in every lane (an int), a buffer that is not a fat raw
    one, another operand's buffer, a grid over the limit, a loop over workgroups, bounds not
    constant, kept indices not as kept_masks.py built them, a kernel's copy whose index goes
    negative (:func:`_before_start`: before the buffer's start), views that give no index per
    dimension, a kept copy that reads inside the buffer where its
    condition is false, a plan of K sub-steps; then the real proof."""
    said = []

    def variants(an, copies, kept, base, width, lanes, ref, full, label, aligned=None,
                 skip=None):
        def refused(**kw):
            a = dict(an=an, copies=copies, kept_i=kept, base=base, width=width, lanes=lanes,
                     ref_copy=ref, full=full, label=label)
            a.update(kw)
            with pytest.raises(LoopRefusal) as e:
                KL.prove_kept(**a)
            said.append(str(e.value))
        refused(lanes=[(p, offs[:-1] + [offs[-1] + 1]) for p, offs in lanes])
        refused(lanes=[(p, [offs[0] - 10 ** 6] + offs[1:]) for p, offs in lanes])
        refused(lanes=[(p, [0] + offs[1:]) for p, offs in lanes])
        refused(base=an.buffers[0])
        other = next(c.src for j, c in enumerate(an.scan.copies) if j not in copies)
        refused(base=other)                                  # (A's buffer)
        with monkeypatch.context() as m:
            m.setattr(KL, "GRID_LIMIT", 31)
            refused()
            m.setattr(KL, "grid_stride", lambda o: True)
            refused()
            m.setattr(KL, "grid_stride", lambda o: False)
            m.setattr(KL, "GRID_LIMIT", 32)
            reads, budget, boxes = _lane_reads(an, copies, lanes), GE.EVAL_BUDGET, GE.BOXES
            m.setattr(GE, "BOXES", 0)               # (the boxes settle nothing)
            m.setattr(GE, "EVAL_BUDGET", reads - 1)
            refused()
            m.setattr(GE, "EVAL_BUDGET", reads)      # (at the budget: evaluated, refused)
            refused()
            m.setattr(GE, "EVAL_BUDGET", budget)
            m.setattr(GE, "BOXES", boxes)
            m.setattr(KL, "constant_bounds", lambda o: None)
            refused()
            m.setattr(KL, "constant_bounds", lambda o: (0, 7, 1))
            m.setattr(KL, "unkept", lambda idx: None)
            refused()
            made = []
            m.setattr(KL, "unkept", lambda idx: _before_start(idx, made))
            refused()
            for o in made:
                o.erase()
            m.setattr(KL, "unkept", KM.unkept)
            m.setattr(KL, "dim_indices", lambda *a: None)
            refused()
            m.setattr(KL, "truth", lambda s, ev, c: np.zeros(ev.threads, bool))
            refused()
        with pytest.raises(LoopRefusal) as e:     # (the plan of a K sub-step: ksplit.py)
            L._kept_plan(an, SimpleNamespace(kbits=(3,)), copies, kept, base, full, label)
        said.append(str(e.value))
        return KL.prove_kept(an, copies, kept, base, width, lanes, ref, full, label, aligned)
    monkeypatch.setattr(L, "prove_kept", variants)
    return said
