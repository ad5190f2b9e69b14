"""IREE's configurations of other tiles, MFMA shapes and sizes (``iree_configs.CONFIGS``):
copies the front end distributes itself, forced 32x32 MFMAs, i8, unaligned sizes and K. Both
forms give one schedule with the counts of the tile, and one form's kernel is exact with
memory completing in a random order the counters allow (one form each: both give one
schedule, so the same waits and barriers, and ``test_configuration`` runs the other form's
code object in late mode, this one's not again: ``iree_configs.RANDOM_FORM``,
``exact_in_random_order``; for a configuration of ``iree_forms.ONE_BUILT`` the default run
takes the other form to its schedule alone); copies that point the rows
past the edge of C inside the buffer are refused at the copy.
"""

from __future__ import annotations

import json
import re

import pytest

from iree_configs import exact_in_random_order, forms_agree, param
from kernel_builds import hsaco_and_lowered, shared_build
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main


pytestmark = pytest.mark.usefixtures("shared_code_objects")


def test_unaligned_k_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's K = 1023 kernel (register-staged copies, the masked last K tile peeled): the
    prefetch point and the late form become the same schedule, and one form's kernel is exact
    with memory completing in a random order the counters allow."""
    exact_in_random_order(generated, "bf16_abt_2048x2048x1023", capsys, 11, "late")


#: configurations whose copies do not split into the schedule's subtiles: the front end
#: distributes them itself (``pipeline_mlir/frontend/layout.py``)
REDISTRIBUTED = ("bf16_abt_512", "f16_abt_128x4096x1024")


@pytest.mark.parametrize("name", [param(n) for n in REDISTRIBUTED])
def test_redistributed_forms_agree_and_run_in_random_order(generated, name, capsys):
    """The prefetch point and the late form become the same schedule, and the late form's
    kernel is exact with memory completing in a random order allowed by the counters."""
    schedule = forms_agree(generated, name, built="late")
    # a 64x128 tile, K step 128: a subtile of A is 32x128 elements, 2 copies of 256
    # threads x 8 elements; one of B 64x128, 4 copies
    vm = {e["name"]: e["vm_cost"] for e in json.loads(schedule)["phases"]["prologue"]}
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (2, 4), vm
    exact_in_random_order(generated, name, capsys, 7, "late")

def test_i8_forms_agree_and_run_exact_in_random_order(generated, capsys):
    """IREE's i8 matmul (register copies of i8 tiles, ``v_mfma_i32_16x16x64_i8``, an i32 C):
    both forms become the same schedule, and one form's kernel is exact with memory completing in
    a random order the counters allow (at 2048x2048x1024: IREE's configuration and the
    schedule are 4096^3's, with a quarter of its K steps to emulate)."""
    name = "i8_abt_2048x2048x1024"
    exact_in_random_order(generated, name, capsys, 3, "prefetch", shows="i8xi8xi32")


@pytest.mark.parametrize("name,mfma,reads,copies,per_tile,tiles", [
    # (bf16 and f16: 16 K steps of 32, 8 MFMAs of 32 cycles a wave, two merged into each K
    # tile by default, merge_k=auto: twice the reads, copies and MFMAs per K tile)
    param("bf16_abt_512_mfma32", "v_mfma_f32_32x32x16_bf16", 4, 2, 16, 4),
    param("f16_abt_512_mfma32", "v_mfma_f32_32x32x16_f16", 4, 2, 16, 4),
    param("i8_abt_512_mfma32", "v_mfma_i32_32x32x32_i8", 4, 2, 16, 4),
    param("fp8_abt_512x512x896_mfma32", "v_mfma_f32_32x32x64_f8f6f4", 4, 2, 8, 5),
])
def test_mfma32_forms_agree_and_run_in_random_order(generated, name, mfma, reads, copies,
                                                    per_tile, tiles, capsys):
    """IREE's configuration with a forced 32x32 MFMA: both forms become the same schedule,
    its counts those of the 32x32 fragments (a subtile of A or B is one 32-row fragment:
    bf16 / f16 2 MFMAs along the K step of 32, 2 ``ds_read_b128`` and one copy, two K steps
    merged into each K tile; i8 4 along 128, 4 reads and 2 copies; FP8 2 along 128, each
    operand 2 reads), the code
    multiplies with that MFMA only, and one form's kernel is exact with memory completing in a
    random order the counters allow."""
    schedule = json.loads(forms_agree(generated, name, built="late"))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert schedule["lgkm_per_load"] == [reads] * 2, schedule
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (copies, copies), schedule
    # the MFMA instructions of the late form's code object (the one the random run below
    # emulates, built once per run)
    hsaco = hsaco_and_lowered("4wave", generated(name, "late").read_text())[0]
    mfmas = [ins.name for ins in load_kernel(hsaco).instrs if ins.name.startswith("v_mfma")]
    # per wave and K tile 2 x 2 fragments x the K steps (the 16x16 kernels issue twice as
    # many): the loop's 2 K tiles, 2 more split over its prologue and epilogue, and FP8's
    # remainder loop's one
    assert set(mfmas) == {mfma} and len(mfmas) == tiles * per_tile, mfmas
    exact_in_random_order(generated, name, capsys, 11, "late")


def test_unaligned_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's unaligned matmul (32x32x8 MFMAs, K step 8, 25 K steps, a 128x256 tile cut at
    the edges of C): both forms become the same 4-wave schedule with the 32x32x8 geometry
    (``mfma=32x32x8``; two K steps merged into a K tile of 16 by default, ``merge_k=auto``:
    a subtile of A is one 32-row fragment, two ``ds_read_b64`` and two copies a K tile; of
    B two fragments, four reads and one copy, IREE's 16-byte copies re-distributed), and
    one form's kernel is exact, the remainder loop (the odd K step) and the edge tiles included,
    with memory completing in a random order the counters allow."""
    name = "bf16_abt_300x500x200"
    schedule = json.loads(forms_agree(generated, name, built="prefetch"))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert schedule["lgkm_per_load"] == [2, 4] and (vm["LOAD_A"], vm["LOAD_B"]) == (2, 1), schedule
    exact_in_random_order(generated, name, capsys, 13, "prefetch")


def test_edge_rows_pointed_inside_the_buffer_are_spared(generated, tmp_path, capsys):
    """The front end's copies read a strided block per workgroup; IREE's point the rows
    past the edge of C out of the buffer (zeros), which the block does too.  A kernel whose
    copies point them at row 0 of the tile instead (inside the buffer) reads other data
    than the block there, in LDS rows whose accumulator rows no stored element of C uses
    (rows 300 to 383 of the last tile row): proven unused (``frontend/unused_rows.py``),
    the mutant gets the kernel's own schedule (exact on all 6 workgroups in late and
    random mode, by hand).  Refused at the copy before those rows were spared; a row that a
    stored element uses is refused (``test_unused_rows.py``'s widened scatters)."""
    text = generated("bf16_abt_300x500x200", "prefetch").read_text()
    mutant = re.sub(r"arith\.select (%\d+), %c(300|500), ", r"arith.select \1, %c0, ", text)
    assert mutant != text
    src = tmp_path / "mutant.mlir"
    src.write_text(mutant)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    got, err = capsys.readouterr()
    # the kernel's own schedule, every field of it: kept by the run's build of the kernel
    # (test_configuration's), not compiled again
    assert rc == 0 and got == forms_agree(generated, "bf16_abt_300x500x200"), err



def _one_schedule(tmp_path, forms: dict, capsys, built: tuple[str, ...] = ()) -> dict:
    """The schedule (JSON, parsed) both ``forms`` give, each written to ``tmp_path``: of a
    form of ``built`` (one the test emulates next) the schedule its build keeps on the way
    (``kernel_builds.shared_build``, the run's store: the ``--emulate`` after it reads that
    build), of the others ``--emit=schedule-json``'s."""
    schedules = []
    for form, text in forms.items():
        path = tmp_path / f"{form}.mlir"
        path.write_text(text)
        if form in built:
            schedules.append(shared_build("4wave", input=str(path)).stages["schedule-json"])
            continue
        assert main(["--pipeline=4wave", str(path), "--emit=schedule-json"]) == 0
        schedules.append(capsys.readouterr().out)
    assert schedules[0] == schedules[1]
    return json.loads(schedules[0])


def test_a_wait_inside_b_s_fragment_load_completes_it_whole(tmp_path, capsys):
    """IREE's bf16 ``A x B`` 192x128x128 with a 32x32x16 MFMA forced, a 64x64 tile of one
    wave, K step 16: A's fragment load issues 2 reads, B's (transposing reads) 4, and the
    top of each K partition keeps the reference's count, A's 2, which would complete only
    part of B's load issued last (the lowering refused it: ``s_waitcnt lgkmcnt(2) completes
    only part of the 4 instructions of PRO[13]``; a fifteenth-sweep forced configuration).
    ``sched-fix-hazards`` lowers it to lgkmcnt(0), which completes B's load whole
    (``kernel/wait_order.py``'s ``inside_waits``); the printed schedule stays the
    reference's.  Both forms one schedule, exact in random order."""
    from iree_configs import G

    forms = G.forms(G.matmul_source("bf16", 192, 128, 128, transpose_b=False,
                                    mma="MFMA_F32_32x32x16_BF16", tile=(64, 64, 16),
                                    waves=(1, 1)))
    got = _one_schedule(tmp_path, forms, capsys, built=("late",))
    assert got["lgkm_per_load"] == [2, 4] and got["waits"]["lgkm"] == 2, got["waits"]
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=random:7", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


#: the long tier's reason for the late form's build and run of an item below that builds
#: one form and takes the other to its schedule only (as ``iree_forms.ONE_BUILT`` does for
#: the configurations): ``{item}`` is the item of the prefetch point
ONE_FORM_BUILT = ("no edge, no mask: the late form takes the prefetch point's path (one "
                  "schedule, the front end's whole run on it, compared in {item}[prefetch], "
                  "which builds the prefetch point and runs it exact)")


@pytest.mark.parametrize("built", [
    "prefetch", pytest.param("late", marks=pytest.mark.long(ONE_FORM_BUILT.format(
        item="test_the_operand_the_k_split_leaves_whole_is_read_whole")))])
def test_the_operand_the_k_split_leaves_whole_is_read_whole(tmp_path, capsys, built):
    """IREE's f16 ``A x B^T`` 192x256x48 with a 32x32x16 MFMA forced, a 64x128 tile of 2x1
    waves, K step 16 (3 K steps: the loop's MFMAs halved along K, A one fragment per wave
    split along K, B split by accumulator).  Each B fragment's two halves go to one fragment
    load; read as two adjacent 8-byte reads, LLVM merged them into one ``ds_read_b128``,
    which the plan's reads and waits do not count, and the ISA gate refused the build
    (``lds-misread``; a fifteenth-sweep forced configuration).  B is now read whole, each
    half MFMA taking a slice: 2 reads per B load, not 4, both forms one schedule, and the
    build of the form ``built`` exact in random order (the late form's: the long tier)."""
    from iree_configs import G

    forms = G.forms(G.matmul_source("f16", 192, 256, 48, mma="MFMA_F32_32x32x16_F16",
                                    tile=(64, 128, 16), waves=(2, 1)))
    assert _one_schedule(tmp_path, forms, capsys, built=(built,))["lgkm_per_load"] == [1, 2]
    for form in (built,):
        rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / f"{form}.mlir"),
                   "--emulate-mode=random:5", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and ": exact, max error 0" in out, out + err


def test_pieces_the_split_puts_in_one_load_are_read_as_one(tmp_path, capsys, monkeypatch):
    """IREE's default build of fp8 ``A^T x B^T`` 652x284x512 (one accumulator per wave):
    each 16x16x128 MFMA is cut into 4 along K and both operands split along K crosswise;
    B's quarters 0 and 1 of a fragment go to one subtile, 2 and 3 to the other, each pair
    at adjacent LDS bytes of one fragment load, where LLVM merged the two 8-byte reads into
    one ``ds_read_b128`` and the ISA gate refused the build (a sixteenth-sweep draw).  Each
    such pair is now one read, sliced (``frontend/half_join.py``): B's load is 2 reads, not
    4; both forms one schedule, exact in random order.  Where the loop analysed again with
    the pairs joined is refused, the joins are undone: the pieces' own 4 reads."""
    import pipeline_mlir.frontend.natural as N
    from iree_configs import G

    forms = G.forms(G.matmul_source("fp8", 652, 284, 512, transpose_a=True),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    assert _one_schedule(tmp_path, forms, capsys, built=("late",))["lgkm_per_load"] == \
        [4, 2]
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=random:5", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
    analyse, calls = N.analyse_loop, []

    def refused_once_joined(loop, schedule=None):
        calls.append(N.HALVED_ATTR in loop.attributes)
        if calls.count(True) == 2:          # (the halved loop's second analysis: joined)
            raise N.IRError(loop, "refused for the test")
        return analyse(loop, schedule)
    monkeypatch.setattr(N, "analyse_loop", refused_once_joined)
    assert main(["--pipeline=4wave", str(tmp_path / "late.mlir"),
                 "--emit=schedule-json"]) == 0
    assert json.loads(capsys.readouterr().out)["lgkm_per_load"] == [4, 4]
    assert calls.count(True) == 3


@pytest.mark.parametrize("built_form", [
    "prefetch", pytest.param("late", marks=pytest.mark.long(ONE_FORM_BUILT.format(
        item="test_accumulators_that_fill_the_vgprs_are_kept_in_agprs")))])
def test_accumulators_that_fill_the_vgprs_are_kept_in_agprs(tmp_path, capsys, built_form):
    """IREE's f16 ``A x B^T`` 256x512x512 with a 16x16x32 MFMA forced in a 128x256 tile of
    2x1 waves, K step 64: each wave's 64 accumulators take 256 registers of a lane, the
    whole architected file.  LLVM's code generation of the pipelined kernel did not finish
    in 120 s (its allocator splitting the live ranges across VGPRs and AGPRs; IREE's own
    build of the dispatch takes 2 s: a seventeenth-sweep forced configuration, the class of
    the fifteenth sweep's finding 13).  The front end now has such a kernel keep its
    accumulators in AGPRs (``sched.agpr_alloc``, ``frontend/accumulator_agprs.py``), as the
    shipped 128x128 warp tiles do: the form ``built_form`` built in seconds and exact (the
    late form's: the long tier), the other taken to its schedule, one schedule."""
    from build_cache import share_code_objects
    from iree_configs import G, each_form_built
    from kernel_builds import scheduled_only

    forms = G.forms(G.matmul_source("f16", 256, 512, 512, mma="MFMA_F32_16x16x32_F16",
                                    tile=(128, 256, 64), waves=(2, 1)))
    other, = (f for f in forms if f != built_form)
    (tmp_path / f"{other}.mlir").write_text(forms[other])
    _, schedule, adopted = scheduled_only(tmp_path / f"{other}.mlir")
    assert "sched.agpr_alloc = 256 : i32" in adopted, other
    schedules = [schedule]
    with share_code_objects():      # (the emulation runs the build below)
        for form, path, built in each_form_built(tmp_path, {built_form: forms[built_form]},
                                                 ("schedule-json", "mlir", "report")):
            assert "sched.agpr_alloc = 256 : i32" in built.stages["mlir"], form
            assert re.search(r"VGPRs +\d+ architected, 256 AGPRs", built.stages["report"]), \
                built.stages["report"]
            schedules.append(built.stages["schedule-json"])
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                       "--emulate-workgroups=2", "--emulate-jobs=1"])
            out, err = capsys.readouterr()
            assert rc == 0 and ": exact, max error 0" in out, out + err
    assert schedules[0] == schedules[1]


def test_accumulators_that_fill_the_register_file_are_refused(tmp_path, capsys):
    """IREE's bf16 ``A x B^T`` 128x256x128 with a 32x32x16 MFMA forced in a 128x256 tile of
    one wave: its 32 accumulators take 512 registers of a lane, VGPRs and AGPRs together,
    none left for the fragments.  LLVM's code generation of the pipelined kernel ran past
    its 120 s limit, AGPRs or not (a seventeenth-sweep forced configuration); both forms
    are now refused at the MFMA in seconds, saying why."""
    from iree_configs import G

    forms = G.forms(G.matmul_source("bf16", 128, 256, 128, mma="MFMA_F32_32x32x16_BF16",
                                    stages=2, tile=(128, 256, 16), waves=(1, 1)))
    for form, text in forms.items():
        path = tmp_path / f"{form}.mlir"
        path.write_text(text)
        rc = main(["--pipeline=4wave", str(path), "--emit=schedule-json"])
        err = capsys.readouterr().err
        assert rc == 1 and "Traceback" not in err, err
        assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: sched-adopt-loop: "
                        r"'amdgpu.mfma' op: the loop's 32 accumulators take 512 registers of "
                        r"a lane, the whole file of 512", err), err


def _mfma_above_its_read(asm: str) -> str:
    """``asm`` with the first epilogue MFMA that reads a fragment read after LLVM's first
    scratch reload there moved above that read (it then multiplies what the register held
    before: the stale fragment)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.asm_instr import registers

    fn = next(f for f in parse_asm(asm).functions if any(i.kind == "mfma" for i in f.instrs()))
    epi = fn.main_loop_phases()["epilogue"]
    first = next(k for k, i in enumerate(epi) if i.mnemonic.startswith("scratch_load"))
    read = next(i for i in epi[first:] if i.kind == "ds_read")
    mfma = next(i for i in epi[first:] if i.kind == "mfma" and i.line > read.line and
                {r for o in i.operands[1:3] for r in registers(o)} & set(read.defs))
    lines = asm.split("\n")
    text = lines.pop(mfma.line - 1)
    lines.insert(read.line - 1, text)
    return "\n".join(lines)


def test_an_epilogue_with_llvms_spill_reloads_is_held_to_its_schedule(tmp_path, capsys):
    """IREE's i8 ``A x B^T`` 128x512x896 with a 32x32x32 MFMA forced in a 128x256 tile of
    1x2 waves, K step 128 (7 K steps: the remainder's one LLVM unrolls after the epilogue),
    late form: its accumulators in AGPRs, LLVM still spills VGPRs, and its scratch reloads
    between the epilogue's reads, each with its own ``s_waitcnt vmcnt``, shifted the ISA
    check's alignment: the gate refused the build (``mfma-moved``, ``wait-missing``; a
    seventeenth-sweep forced configuration), which runs exact.  Waits with a fence on
    neither side are now left out of the alignment (``isa/check.py``): the gate passes it,
    and still refuses an MFMA moved there above the read of its fragment.

    LLVM spills nothing since the workgroup id keeps IREE's ``upper_bound``
    (``sched-gpu-kernel``); the spills come back with the bound taken out of the kernel
    (a workgroup id with no bound, as IREE's dispatches whose grid is known only at launch
    have it), which is the input here."""
    from iree_configs import G, each_form_built
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.isa_gate import check_built

    forms = G.forms(G.matmul_source("i8", 128, 512, 896, mma="MFMA_I32_32x32x32_I8",
                                    tile=(128, 256, 128), waves=(1, 2)))
    late, n = re.subn(r"(hal\.interface\.workgroup\.id\[\d\]) upper_bound \d+", r"\1",
                      forms["late"])
    assert n >= 1
    (_form, path, built), = each_form_built(tmp_path, {"late": late},
                                            ("mlir", "llvm", "asm", "report"))
    assert "sched.agpr_alloc = 256 : i32" in built.stages["mlir"]
    assert re.search(r"spills: [1-9]\d* VGPR", built.stages["report"]), built.stages["report"]
    asm, ll = built.stages["asm"], built.stages["llvm"]
    check_built(asm, built.plans, ll, None, str(path))      # (the store's build skips it)
    rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
               "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
    with pytest.raises(Failure) as e:
        check_built(_mfma_above_its_read(asm), built.plans, ll, None, str(path))
    messages = [d.message for d in e.value.diags]
    assert any("ISA check: mfma-moved in the epilogue" in m for m in messages), messages
