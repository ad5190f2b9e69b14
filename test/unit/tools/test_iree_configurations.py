"""IREE's other matmul configurations: each is pipelined correctly or refused with the reason.

Each configuration (element type, ``A x B^T`` or ``A x B``, problem size, IREE flags that
change its tiles or its copies) is compiled with ``iree-compile`` in the test, taken at
IREE's prefetch point and in its late form (``test/data/iree/generate.py``, once per
session), and given to ``pipeline-opt --pipeline=4wave --emit=hsaco`` with no other option:

* pipelined: the schedule it runs is hazard-free in the simulator (``sched-fix-hazards``
  simulates it on the way) and the code object computes C exactly on the emulator, memory
  completing as late as the counters allow, for four workgroups of its grid (IREE compiles
  the sizes in; tiles in different rows and columns of C);
* refused: exit 1 with the reason, located at an op of IREE's kernel, no traceback.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.waterfall import waterfall_loops
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import (assert_short, assert_steady, assert_steady_unrolled, counting_loops,
                         lowered_split)

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from pass_helpers import assert_named_and_hazard_free  # noqa: E402

SPLIT = "needs the data of"            # a fragment read needs copies of both subtiles
NO_LOOP = "is not inside an scf.for: the kernel has no K-loop to pipeline"

#: IREE's VectorDistribute pipeline instead of TileAndFuse
VECTOR_DISTRIBUTE = ("--iree-codegen-llvmgpu-use-vector-distribution",
                     "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")

#: name -> (matmul_source arguments, iree-compile flags, None if pipelined else the reason
#: it is refused; a pair: (at the prefetch point, in the late form), None where pipelined)
CONFIGS = {
    "f16_abt_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024), (), None),
    "bf16_abt_1024x4096x2048": (dict(dtype="bf16", m=1024, n=4096, k=2048), (), None),
    "bf16_abt_2048x2048x1024_c_threshold": (
        dict(dtype="bf16", m=2048, n=2048, k=1024),
        ("--iree-codegen-llvmgpu-matmul-c-matrix-threshold=1024",), None),
    # plain A x B: B read with transposing reads, regrouped per MFMA operand
    # (pipeline_mlir/frontend/transpose.py)
    "bf16_ab_4096": (dict(dtype="bf16", transpose_b=False), (), None),
    "bf16_ab_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False),
                               (), None),
    "f16_ab_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024, transpose_b=False),
                              (), None),
    # fp8 / i8 A x B: B read with 8-bit transposing reads (ds_read_b64_tr_b8), 8 bytes each,
    # regrouped as the 16-bit ones: 4 per 32-byte fp8 operand, 2 per 16-byte i8 one
    "fp8_ab_2048x2048x1024": (dict(dtype="fp8", m=2048, n=2048, k=1024, transpose_b=False),
                              (), None),
    "i8_ab_2048x2048x1024": (dict(dtype="i8", m=2048, n=2048, k=1024, transpose_b=False),
                             (), None),
    # 64x128 tile, K step 128: 16 transposing reads per B subtile, one more than lgkmcnt
    # holds: issued in two runs of 8 (pipeline_mlir/schedule/load_runs.py)
    "bf16_ab_1024x1024x512": (dict(dtype="bf16", m=1024, n=1024, k=512, transpose_b=False),
                              (), None),
    # A^T x B (A is K x M): IREE copies A through registers and reads both operands with
    # transposing reads; the copies made DMA (frontend/regcopy.py), the reads regrouped
    "bf16_atb_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_a=True,
                                     transpose_b=False), (), None),
    "f16_atb_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024, transpose_a=True,
                                    transpose_b=False), (), None),
    "bf16_atbt_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_a=True),
                                 (), None),
    # 6 K steps: its pipelined loop runs twice (the family's item that goes round it)
    "bf16_atb_1024x1024x768": (dict(dtype="bf16", m=1024, n=1024, k=768, transpose_a=True,
                                    transpose_b=False), (), None),
    # 8-bit A^T x B, A^T x B^T, and fp8 E5M2 A x B (1024x1024xK: a 64x128 tile, K step
    # 256): copies through registers, the K-major operands read with 8-bit transposing
    # reads; the A^T ones run as their dispatch says (i8: an i32 C); fp8 A^T x B at 6 K
    # steps (its loop runs twice), the others at 2
    **{f"{dtype}_{layout}_1024x1024x{k}": (
        dict(dtype=dtype, m=1024, n=1024, k=k, transpose_a=layout.startswith("at"),
             transpose_b=layout.endswith("bt")), (), None)
       for dtype, layout, k in (("fp8e5m2", "ab", 512), ("fp8", "atb", 1536),
                                ("fp8", "atbt", 512), ("i8", "atb", 512),
                                ("fp8e5m2", "atb", 512))},
    "fp8_abt_4096": (dict(dtype="fp8"), (), None),
    "fp8e5m2_abt_2048x2048x1024": (dict(dtype="fp8e5m2", m=2048, n=2048, k=1024), (), None),
    "i8_abt_4096": (dict(dtype="i8"), (), None),
    "i8_abt_512": (dict(dtype="i8", m=512, n=512, k=512), (), None),
    "i8_abt_2048x2048x1024": (dict(dtype="i8", m=2048, n=2048, k=1024), (), None),
    "bf16_abt_2048x2048x1024_no_dma": (dict(dtype="bf16", m=2048, n=2048, k=1024),
                                       ("--iree-llvmgpu-use-direct-load=false",), None),
    # 64x128 tiles, K step 128: the front end distributes the copies itself
    "bf16_abt_512": (dict(dtype="bf16", m=512, n=512, k=512), (), None),
    "bf16_abt_8192x256x1024": (dict(dtype="bf16", m=8192, n=256, k=1024), (), None),
    "f16_abt_128x4096x1024": (dict(dtype="f16", m=128, n=4096, k=1024), (), None),
    # IREE's default configuration with a forced 32x32x16 MFMA (a compilation_info on the
    # matmul): each wave's 32-row fragment spans two of its copies
    "bf16_abt_512_mfma32": (dict(dtype="bf16", m=512, n=512, k=512,
                                 mma="MFMA_F32_32x32x16_BF16"), (), None),
    "f16_abt_512_mfma32": (dict(dtype="f16", m=512, n=512, k=512,
                                mma="MFMA_F32_32x32x16_F16"), (), None),
    # the 8-bit 32x32 MFMAs forced at K step 128: i8's 32x32x32 (4 per K step), FP8's
    # 32x32x64 (2; each operand two 16-byte reads)
    "i8_abt_512_mfma32": (dict(dtype="i8", m=512, n=512, k=512, mma="MFMA_I32_32x32x32_I8",
                               tile=(128, 128, 128)), (), None),
    # ... FP8's at K = 896: 7 K steps, the last one in the remainder loop, whose 16-pass
    # MFMAs LLVM interleaves with the epilogue's stores (the guard after the remainder
    # loop: lowering/xdl_window.py; without it the late form's store of v2 is 19 wait
    # states after its MFMA, one short)
    "fp8_abt_512x512x896_mfma32": (dict(dtype="fp8", m=512, n=512, k=896,
                                        mma="MFMA_F32_32x32x64_F8E4M3FN",
                                        tile=(128, 128, 128)), (), None),
    # the same i8 MFMA at IREE's own K step of 32: one 32x32x32 MFMA deep
    "i8_abt_512_mfma32_k32": (dict(dtype="i8", m=512, n=512, k=512,
                                   mma="MFMA_I32_32x32x32_I8"), (), None),
    # unaligned sizes: 128x256 tiles cut at the edges of C, 32x32x8 MFMAs, K step 8 (an
    # odd trip count: the remainder loop), A copied 4 bytes per lane and B 16: the front
    # end makes 4-byte copies of its own (1000^3 as IREE picks it for 300x500x200)
    "bf16_abt_300x500x200": (dict(dtype="bf16", m=300, n=500, k=200), (), None),
    "bf16_abt_4096x4096x64": (dict(dtype="bf16", k=64), (), NO_LOOP),
    # unaligned K: rows of 8190 / 8200 bytes, copies register-staged, the masked last K
    # tile peeled (the late form's guarded loads too, its explicit swizzle undone)
    "bf16_abt_2048x2048x4095": (dict(dtype="bf16", m=2048, n=2048, k=4095), (), None),
    "bf16_abt_2048x2048x4100": (dict(dtype="bf16", m=2048, n=2048, k=4100), (), None),
    # fp8 rows of 4100 bytes: 16-byte copies 4-byte aligned; the remainder loop's byte loads
    "fp8_abt_2048x2048x4100": (dict(dtype="fp8", m=2048, n=2048, k=4100), (), None),
    # no DMA copies asked for, K unaligned: the copies through registers staged as well
    "bf16_abt_2048x2048x4095_no_dma": (dict(dtype="bf16", m=2048, n=2048, k=4095),
                                       ("--iree-llvmgpu-use-direct-load=false",), None),
    "bf16_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1024),
        VECTOR_DISTRIBUTE,
        # prefetch point: whole-tile products, distributed by IREE's own passes
        # (pipeline_mlir/frontend/vector_distribute.py); late form: the LDS stores of the
        # register copies inside scf.if %true, inlined (pipeline_mlir/frontend/const_if.py)
        None),
    "f16_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="f16", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    # 6 K steps of 256: the pipelined loop runs twice (LLVM unrolls it)
    "i8_abt_2048x2048x1536_vector_distribute": (
        dict(dtype="i8", m=2048, n=2048, k=1536), VECTOR_DISTRIBUTE, None),
    # B K x N: column reads lowered to one-element reads as IREE lowers them, regrouped
    # into transposing reads (pipeline_mlir/frontend/element_reads.py)
    "bf16_ab_2048x2048x1024_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False), VECTOR_DISTRIBUTE,
        None),
    # fp8: a 64x128 tile with K step 512, two stages of which do not fit the LDS: split
    # into two K sub-steps of 256 (pipeline_mlir/frontend/ksplit.py)
    "fp8_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="fp8", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    "fp8e5m2_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="fp8e5m2", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    # 9 K steps of 128: IREE's LDS of the remainder loop (a 128x132 B buffer) fits in no
    # buffer of the schedule's layout beside which it has no room; the remainder (no masked
    # copies) is rebuilt on the schedule's stage-0 buffers (frontend/aliased_remainder.py)
    "bf16_abt_2048x2048x1152_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1152), VECTOR_DISTRIBUTE, None),
    # 3 K steps of 512: the split loop runs 2 (4 sub-steps), the remainder loop the third
    # on the schedule's stage-0 buffers, one sub-step of 256 per iteration
    "fp8_abt_1024x1024x1536_vector_distribute": (
        dict(dtype="fp8", m=1024, n=1024, k=1536), VECTOR_DISTRIBUTE, None),
}


#: configurations whose exactness runs stay below 2 iterations of the steady loop on purpose
#: (each kept small for the emulator's time; another item goes round the loop of what it
#: tests): name -> (the iterations the loop counter sees: 0, LLVM unrolls their loop; by the
#: MFMAs each wave ran, steady_loop.unrolled_iterations, the runs made the iterations the
#: comments say, measured once), why it keeps its size
SHORT: dict[str, tuple[int, str]] = {
    # 4 K steps of 128: the loop once (unrolled)
    "bf16_ab_1024x1024x512": (0, "bf16_atb_1024x1024x768 goes round the loop of the B reads "
                                 "issued in two runs"),
    "bf16_abt_512": (0, "f16_abt_128x4096x1024 goes round the loop of the front end's copies"),
    # 2 K steps of 256: the prologue and the drain alone
    **{name: (0, "fp8_atb_1024x1024x1536 goes round the loop of the 64x128 8-bit tile")
       for name in ("fp8e5m2_ab_1024x1024x512", "fp8_atbt_1024x1024x512",
                    "i8_atb_1024x1024x512", "fp8e5m2_atb_1024x1024x512", "i8_abt_512")},
    # 4 K steps of 128 with i8's 32x32 MFMA: the loop once (test_mfma32_... counts the
    # MFMAs of that kernel; FP8's, at 7 K steps, goes round it twice)
    "i8_abt_512_mfma32": (0, "i8_abt_512_mfma32_k32, bf16, f16 and fp8 go round the loop of "
                             "32x32 MFMAs"),
    # K sub-steps of 256: 4 (the loop once), 6 (once, the remainder one K step)
    **{name: (0, "test_dynamic_shapes.py's vdk-late (K = 2560) goes round the split loop")
       for name in ("fp8_abt_2048x2048x1024_vector_distribute",
                    "fp8e5m2_abt_2048x2048x1024_vector_distribute",
                    "fp8_abt_1024x1024x1536_vector_distribute")},
}


def _assert_steady(loops, name: str, generated) -> None:
    """The runs went round the steady loop twice (``steady_loop``), or made the iterations
    ``SHORT`` pins: counted at the loop's back edge, or where LLVM unrolled it (no loop holds
    an MFMA) by the MFMAs each wave ran against the lowering of the prefetch point (both
    forms make one schedule: ``_forms_agree``, test_iree_families.py)."""
    if name in SHORT:
        assert_short(loops, *SHORT[name])
    elif None in loops.iterations():
        assert_steady_unrolled(loops, lowered_split(generated(name, "prefetch"), "4wave"))
    else:
        assert_steady(loops)


#: configurations only the K-split tests below run (the same form as CONFIGS; not in
#: test_configuration, to keep the suite's time): fp8 ``A x B`` (B ``K x N``, read one byte
#: at a time, regrouped into 8-bit transposing reads) at a K of 8 sub-steps, whose loop
#: LLVM keeps (3 trips)
SPLIT_ONLY = {
    "fp8_ab_1024x1024x2048_vector_distribute": (
        dict(dtype="fp8", m=1024, n=1024, k=2048, transpose_b=False), VECTOR_DISTRIBUTE,
        None),
}


@pytest.fixture(autouse=True)
def _code_objects_shared():
    """A kernel built here (``--emit=hsaco``) and emulated (``--emulate``, each mode) is
    compiled once per run (``build_cache.share_code_objects``)."""
    with share_code_objects():
        yield


@pytest.fixture
def generated(tmp_path_factory):
    """(config, form) -> the path of IREE's kernel, generated once per run (both forms from
    one ``iree-compile`` run, kept in the run's build cache: the tests spread over the
    workers without building a kernel twice)."""
    d = tmp_path_factory.mktemp("iree_configs")

    def get(name: str, form: str) -> Path:
        path = d / f"{name}.{form}.mlir"
        if not path.exists():
            cfg, flags, _ = (CONFIGS | SPLIT_ONLY)[name]
            path.write_text(G.forms(G.matmul_source(**cfg), flags)[form])
        return path
    return get


def _grid(prefetch_text: str) -> tuple[int, int] | None:
    """IREE's workgroup grid (tiles in M, tiles in N): the bounds of its scf.forall; None
    without one (VectorDistribute)."""
    m = re.search(r"scf\.forall \([^)]*\) in \((\d+), (\d+)\)", prefetch_text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _tile(size: int, tiles: int) -> int:
    """IREE's tile along a dimension of ``size`` covered by ``tiles``: the power of two that
    covers it in as many (128 for 4096 in 32 and for 300 in 3)."""
    return 1 << (-(-size // tiles) - 1).bit_length()


@pytest.mark.parametrize("form", ["prefetch", "late"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_configuration(generated, name, form, tmp_path, capsys):
    cfg, _flags, reason = CONFIGS[name]
    if isinstance(reason, tuple):
        reason = reason[0] if form == "prefetch" else reason[1]
    src = generated(name, form)
    out = tmp_path / "k.hsaco"
    rc = main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(out)])
    err = capsys.readouterr().err
    if isinstance(reason, tuple):           # (at the prefetch point, in the late form)
        reason = reason[0] if form == "prefetch" else reason[1]
    if reason is not None:
        assert rc == 1 and reason in err and "Traceback" not in err, err
        assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err  # at an op
        return
    assert rc == 0, err
    grid = _grid(generated(name, "prefetch").read_text())
    if cfg.get("transpose_a") or grid is None:  # A K x M, or no forall: as the dispatch says
        # one process (the test run's workers are the parallelism; the spread over
        # processes gives the same result: test_emulate_jobs.py)
        with counting_loops() as loops:
            rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=4",
                       "--emulate-mode=late", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and ": exact, max error 0" in out, out + err
        assert "C = A.T @ B" in out or not cfg.get("transpose_a"), out
        _assert_steady(loops, name, generated)
        return
    full = dict(dtype="bf16", m=4096, n=4096, k=4096, transpose_b=True) | cfg
    rows, cols = grid
    tile = (_tile(full["m"], rows), _tile(full["n"], cols))
    kernel = load_kernel(out.read_bytes())
    if kernel.launch.workgroup_id[1]:          # IREE's 2-D grid: ids (x = column, y = row)
        workgroups = [(0, 0), (1, 0), (0, 1), (cols - 1, rows - 1)]
    else:                                       # linearised
        workgroups = [0, 1, cols + 1, rows * cols - 1]
    with counting_loops() as loops:
        run = emulate_matmul(kernel, Matmul(full["m"], full["n"], full["k"], full["dtype"],
                                            full["transpose_b"]),
                             (cols, rows) if kernel.launch.workgroup_id[1] else (rows * cols,),
                             mode="late", workgroups=workgroups)
    _assert_steady(loops, name, generated)
    # each workgroup writes its tile, cut at the edges of C
    at = [w if isinstance(w, tuple) else (w % cols, w // cols) for w in workgroups]
    cut = sum(min(tile[0], full["m"] - y * tile[0]) * min(tile[1], full["n"] - x * tile[1])
              for x, y in at)
    assert run.exact and run.expected == cut, run.summary() + f", first wrong element {run.first_bad}"


def _forms_agree(generated, name: str, capsys) -> str:
    """The schedule (JSON) of configuration ``name``, the same from both forms."""
    schedules = {}
    for form in ("prefetch", "late"):
        rc = main(["--pipeline=4wave", str(generated(name, form)), "--emit=schedule-json"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        schedules[form] = out
    assert schedules["prefetch"] == schedules["late"]
    return schedules["late"]


def _exact_in_random_order(generated, name: str, capsys, seed: int) -> None:
    """Both forms' kernels exact on 3 workgroups, memory completing in a random order."""
    for form in ("prefetch", "late"):
        with counting_loops() as loops:
            rc = main(["--pipeline=4wave", "--emulate", str(generated(name, form)),
                       "--emulate-workgroups=3", f"--emulate-mode=random:{seed}"])
        out, err = capsys.readouterr()
        assert rc == 0 and "mode=random" in out and ": exact, max error 0" in out, out + err
        _assert_steady(loops, name, generated)


def test_unaligned_k_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's K = 4095 kernel (register-staged copies, the masked last K tile peeled): the
    prefetch point and the late form become the same schedule, and each kernel is exact
    with memory completing in a random order the counters allow."""
    _forms_agree(generated, "bf16_abt_2048x2048x4095", capsys)
    _exact_in_random_order(generated, "bf16_abt_2048x2048x4095", capsys, 11)


#: configurations whose copies do not split into the schedule's subtiles: the front end
#: distributes them itself (``pipeline_mlir/frontend/layout.py``)
REDISTRIBUTED = ("bf16_abt_512", "f16_abt_128x4096x1024")


@pytest.mark.parametrize("name", REDISTRIBUTED)
def test_redistributed_forms_agree_and_run_in_random_order(generated, name, capsys):
    """The prefetch point and the late form become the same schedule, and the late form's
    kernel is exact with memory completing in a random order allowed by the counters."""
    schedule = _forms_agree(generated, name, capsys)
    # a 64x128 tile, K step 128: a subtile of A is 32x128 elements, 2 copies of 256
    # threads x 8 elements; one of B 64x128, 4 copies
    vm = {e["name"]: e["vm_cost"] for e in json.loads(schedule)["phases"]["prologue"]}
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (2, 4), vm
    _exact_in_random_order(generated, name, capsys, 7)


@pytest.mark.parametrize("name,b_reads", [("bf16_ab_2048x2048x1024", 4),
                                          ("f16_ab_2048x2048x1024", 4),
                                          ("fp8_ab_2048x2048x1024", 8),
                                          ("i8_ab_2048x2048x1024", 4)])
def test_transposed_b_forms_agree_and_run_in_random_order(generated, name, b_reads, capsys):
    """Plain ``A x B`` (B read with ``amdgpu.transpose_load``): the front end regroups the
    reads per MFMA operand, both forms become the same 128x128 schedule with ``2 b_reads``
    transposing reads per K tile and wave, and each kernel is exact with memory completing
    in a random order the counters allow."""
    schedule = _forms_agree(generated, name, capsys)
    # a B subtile: 2 N fragments of 2 transposing reads each (IREE's kernel: 8 reads that
    # each feed all 4 N fragments of a wave); fp8: 2 of 4 each (its 32-byte operands), where
    # IREE's kernel has 16 reads of 8 bytes feeding all 4
    assert json.loads(schedule)["lgkm_per_load"] == [b_reads // 2, b_reads], schedule
    _exact_in_random_order(generated, name, capsys, 5)


@pytest.mark.parametrize("name", ["bf16_atb_2048x2048x1024", "bf16_atbt_2048x2048x1024"])
def test_transposed_a_forms_agree_and_run_in_random_order(generated, name, capsys):
    """``A^T x B`` and ``A^T x B^T`` (A is K x M; IREE copies A through registers and reads
    it with transposing reads): both forms become the same 128x128 schedule, 2 transposing
    reads per MFMA operand of A (4 per subtile), and each kernel is exact with memory
    completing in a random order the counters allow."""
    schedule = _forms_agree(generated, name, capsys)
    lgkm_b = 4 if CONFIGS[name][0].get("transpose_b", True) is False else 2
    assert json.loads(schedule)["lgkm_per_load"] == [4, lgkm_b], schedule
    _exact_in_random_order(generated, name, capsys, 11)


@pytest.mark.parametrize("name, lgkm", [("bf16_ab_1024x1024x512", [4, 16]),
                                        ("bf16_atb_1024x1024x768", [8, 16])])
def test_loads_longer_than_lgkmcnt_forms_agree_and_run_in_random_order(generated, name, lgkm,
                                                                       capsys):
    """K step 128 with B ``K x N``: a B subtile is 16 transposing reads, more than lgkmcnt
    holds; the load is issued in two runs of 8 with a guard wait between them, both forms
    give the same schedule, and each kernel is exact with memory completing in a random
    order the counters allow."""
    schedule = _forms_agree(generated, name, capsys)
    assert json.loads(schedule)["lgkm_per_load"] == lgkm, schedule
    _exact_in_random_order(generated, name, capsys, 13)


def _main_loop(asm: str) -> list[str]:
    """The opcodes of the first loop of an assembly listing (header to back branch)."""
    body = asm[asm.index("Inner Loop Header"):]
    body = body[:body.index("s_cbranch")]
    return [line.split()[0] for line in body.splitlines()[1:]
            if line.strip() and not line.lstrip().startswith((";", "."))]


def _scalar_lines(asm: str) -> list[str]:
    """The scalar instructions of the first loop, each SGPR renamed by first appearance."""
    body = asm[asm.index("Inner Loop Header"):]
    body = body[:body.index("s_cbranch")]
    names: dict = {}
    return [re.sub(r"\bs(\d+)\b", lambda m: f"s#{names.setdefault(m.group(1), len(names))}",
                   line.strip()) for line in body.splitlines()[1:]
            if line.strip().startswith("s_")]


def test_vector_distribute_forms_agree_and_run_in_random_order(generated, tmp_path, capsys):
    """IREE's VectorDistribute kernel: at the prefetch point whole-tile products (distributed
    by IREE's own passes), in the late form register copies whose LDS stores sit in
    ``scf.if %true``. Both become the same schedule and the same main loop, and each kernel
    is exact with memory completing in a random order the counters allow."""
    name = "bf16_abt_2048x2048x1024_vector_distribute"
    _forms_agree(generated, name, capsys)
    loops = []
    for form in ("prefetch", "late"):
        out = tmp_path / f"{form}.s"
        rc = main(["--pipeline=4wave", str(generated(name, form)), "--emit=asm", "-o",
                   str(out)])
        assert rc == 0, capsys.readouterr()
        loops.append(out.read_text())
    # one main loop: the same instructions in the same order (the front end clones the late
    # form's i32 K index as the prefetch point's: frontend/zext_index.py), the scalar ones
    # alike up to the names of their registers (the code around the loop differs)
    assert _main_loop(loops[0]) == _main_loop(loops[1])
    assert _main_loop(loops[0]).count("v_mfma_f32_16x16x32_bf16") == 64
    assert _scalar_lines(loops[0]) == _scalar_lines(loops[1])
    _exact_in_random_order(generated, name, capsys, 9)


def test_vector_distribute_odd_k_steps_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's bf16 VectorDistribute kernel with 9 K steps: both forms become the same
    schedule, and each kernel (8 K steps pipelined, the ninth on the schedule's stage-0
    buffers) is exact with memory completing in a random order the counters allow."""
    name = "bf16_abt_2048x2048x1152_vector_distribute"
    _forms_agree(generated, name, capsys)
    _exact_in_random_order(generated, name, capsys, 23)


def test_vector_distribute_a_times_b_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's VectorDistribute ``A x B`` (B read one element per ``ds_read``): both forms
    become the same schedule, a B subtile 16 transposing reads in place of 64 one-element
    reads (A's 4 reads of 16 bytes), and each kernel is exact with memory completing in a
    random order the counters allow."""
    name = "bf16_ab_2048x2048x1024_vector_distribute"
    schedule = _forms_agree(generated, name, capsys)
    assert json.loads(schedule)["lgkm_per_load"] == [4, 16], schedule
    _exact_in_random_order(generated, name, capsys, 17)


@pytest.mark.parametrize("name, form, lgkm_b", [
    ("fp8_abt_2048x2048x1024_vector_distribute", "late", 8),
    ("fp8e5m2_abt_2048x2048x1024_vector_distribute", "prefetch", 8),
    ("fp8_abt_1024x1024x1536_vector_distribute", "prefetch", 8),
    ("fp8_ab_1024x1024x2048_vector_distribute", "late", 16)])
def test_vector_distribute_fp8_split_along_k(generated, name, form, lgkm_b, capsys):
    """IREE's VectorDistribute fp8 kernel (K step 512: two stages of its tiles need more LDS
    than a workgroup has) is split into two K sub-steps of 256: both forms become the same
    schedule, a 64x128 tile with a K tile of 256 (a subtile of A is 2 copies of 256 lanes
    x 16 bytes, of B 4, where a K tile of 512 needs 4 and 8; 4 and 8 ``ds_read_b128`` per
    subtile and wave: two 16x16x128 K steps; ``A x B``: 16 8-bit transposing reads per B
    subtile, issued in runs, where IREE's copies of B each hold one sub-step's rows only),
    and the kernel is exact with memory completing in a random order the counters allow
    (one form each: ``test_configuration`` runs the ``A x B^T`` ones in late mode); at 8
    sub-steps (``A x B``) the run goes round the pipelined loop, the others' runs make what
    ``SHORT`` pins."""
    schedule = json.loads(_forms_agree(generated, name, capsys))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (2, 4) and schedule["lgkm_per_load"] == [4, lgkm_b]
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(generated(name, form)),
                   "--emulate-workgroups=2", "--emulate-mode=random:19"])
    text, err = capsys.readouterr()
    assert rc == 0 and "mode=random" in text and ": exact, max error 0" in text, text + err
    _assert_steady(loops, name, generated)


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
                 "vector.load", "which would cut this fragment read (its lanes read K "
                 "columns of sub-steps 0, 1)"),
    # the first MFMA of sub-step 1 multiplies another B fragment than sub-step 0's first
    "mfma_differs": ("amdgpu.mfma 16x16x128 %185 * %193 + %215",
                     "amdgpu.mfma 16x16x128 %185 * %197 + %215", "amdgpu.mfma",
                     "but it does not repeat the first sub-step's MFMA of its accumulator"),
    # every copy reads one element further along K: its global address is not aligned to
    # its 16 bytes, so it is staged through registers, which the split does not take
    # (refused at the loop, naming the copy)
    "staged_copies": ("%158 = arith.index_castui %157 : i32 to index",
                      "%k158 = arith.index_castui %157 : i32 to index\n"
                      "%kc1 = arith.constant 1 : index\n%158 = arith.addi %k158, %kc1 : index",
                      "scf.for", "nor can the front end split its K step into 2 sub-steps "
                      "of 256: 'amdgpu.gather_to_lds' op at line"),
    # a loop marked as a remainder to be rebuilt on the schedule's buffers (which the split
    # makes one sub-step wide; tails.py marks it so when its own LDS does not fit) whose
    # step is not the loop's: it cannot run one sub-step per iteration
    "shared_remainder": ("%92:8 = scf.for %arg0 = %c0_i32",
                         "%r1 = arith.constant 1 : i32\nscf.for %rr = %c0_i32 to %r1 step %r1 "
                         ": i32 {\n} {sched.remainder_shared}\n%92:8 = scf.for %arg0 = %c0_i32",
                         "scf.for", "runs on the schedule's LDS buffers, one sub-step at a "
                         "time, which takes the loop's step (512) and constant bounds a whole "
                         "number of steps apart (or bounds known only at run time)"),
    # the same with bounds known only at run time (taken when its step is the loop's: its
    # end is rounded to a whole K step), of step 1
    "shared_remainder_run_time": (
        "%92:8 = scf.for %arg0 = %c0_i32",
        "%r1 = arith.constant 1 : i32\nscf.for %rr = %c0_i32 to %6 step %r1 : i32 {\n} "
        "{sched.remainder_shared}\n%92:8 = scf.for %arg0 = %c0_i32", "scf.for",
        "runs on the schedule's LDS buffers, one sub-step at a time, which takes the loop's "
        "step (512)"),
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
    op with the reason; one it does not take (copies staged through registers, a remainder
    loop on the schedule's buffers, a step with no sub-step) at the loop, the reason added;
    never split."""
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


def test_i8_forms_agree_and_run_exact_in_random_order(generated, capsys):
    """IREE's i8 matmul (register copies of i8 tiles, ``v_mfma_i32_16x16x64_i8``, an i32 C):
    both forms become the same schedule, and each kernel is exact with memory completing in
    a random order the counters allow (at 2048x2048x1024: IREE's configuration and the
    schedule are 4096^3's, with a quarter of its K steps to emulate)."""
    name = "i8_abt_2048x2048x1024"
    schedules = {}
    for form in ("prefetch", "late"):
        rc = main(["--pipeline=4wave", str(generated(name, form)), "--emit=schedule-json"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        schedules[form] = out
    assert schedules["prefetch"] == schedules["late"]
    for form in ("prefetch", "late"):
        with counting_loops() as loops:
            rc = main(["--pipeline=4wave", "--emulate", str(generated(name, form)),
                       "--emulate-workgroups=2", "--emulate-mode=random:3"])
        out, err = capsys.readouterr()
        assert rc == 0 and "i8xi8xi32" in out and ": exact, max error 0" in out, out + err
        _assert_steady(loops, name, generated)


def test_i8_a_times_b_copies_have_no_waterfall(generated, tmp_path, capsys):
    """IREE's i8 ``A x B``: LLVM once kept its copies' soffset in a loop-carried VGPR and
    wrapped each of the 8 copies of the main loop in a readfirstlane waterfall loop; the
    soffset now goes through readfirstlane (``sched-buffer-soffset``): none (the late form;
    the prefetch point's kernel is the same, and had the same 8 before; the ISA check's
    waterfall finding, ``pipeline_mlir/isa/waterfall.py``)."""
    asm = tmp_path / "k.s"
    rc = main(["--pipeline=4wave", str(generated("i8_ab_2048x2048x1024", "late")),
               "--emit=asm", "-o", str(asm)])
    assert rc == 0, capsys.readouterr().err
    (fn,) = parse_asm(asm.read_text()).functions
    assert "buffer_load_dwordx4" in asm.read_text() and waterfall_loops(fn) == []
    assert "s_cbranch_execnz" not in asm.read_text()


@pytest.mark.parametrize("name,mfma,reads,copies,per_tile,tiles", [
    ("bf16_abt_512_mfma32", "v_mfma_f32_32x32x16_bf16", 2, 1, 8, 4),
    ("f16_abt_512_mfma32", "v_mfma_f32_32x32x16_f16", 2, 1, 8, 4),
    ("i8_abt_512_mfma32", "v_mfma_i32_32x32x32_i8", 4, 2, 16, 4),
    ("fp8_abt_512x512x896_mfma32", "v_mfma_f32_32x32x64_f8f6f4", 4, 2, 8, 5),
])
def test_mfma32_forms_agree_and_run_in_random_order(generated, name, mfma, reads, copies,
                                                    per_tile, tiles, tmp_path, capsys):
    """IREE's configuration with a forced 32x32 MFMA: both forms become the same schedule,
    its counts those of the 32x32 fragments (a subtile of A or B is one 32-row fragment:
    bf16 / f16 2 MFMAs along the K step of 32, 2 ``ds_read_b128`` and one copy; i8 4
    along 128, 4 reads and 2 copies; FP8 2 along 128, each operand 2 reads), the code
    multiplies with that MFMA only, and each kernel is exact with memory completing in a
    random order the counters allow."""
    schedule = json.loads(_forms_agree(generated, name, capsys))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert schedule["lgkm_per_load"] == [reads] * 2, schedule
    assert (vm["LOAD_A"], vm["LOAD_B"]) == (copies, copies), schedule
    asm = tmp_path / "k.s"
    rc = main(["--pipeline=4wave", str(generated(name, "late")), "--emit=asm", "-o", str(asm)])
    assert rc == 0, capsys.readouterr().err
    mfmas = re.findall(r"\bv_mfma_\w+", asm.read_text())
    # per wave and K tile 2 x 2 fragments x the K steps (the 16x16 kernels issue twice as
    # many): the loop's 2 K tiles, 2 more split over its prologue and epilogue, and FP8's
    # remainder loop's one
    assert set(mfmas) == {mfma} and len(mfmas) == tiles * per_tile, mfmas
    _exact_in_random_order(generated, name, capsys, 11)


def test_unaligned_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's unaligned matmul (32x32x8 MFMAs, K step 8, 25 K steps, a 128x256 tile cut at
    the edges of C): both forms become the same 4-wave schedule with the 32x32x8 geometry
    (``mfma=32x32x8``, BK 8; a subtile of A is one 32-row fragment: one ``ds_read_b64``, one
    4-byte copy; of B two fragments: two reads, two 4-byte copies, IREE's one 16-byte copy
    re-distributed), and each kernel is exact, the remainder loop and the edge tiles
    included, with memory completing in a random order the counters allow."""
    name = "bf16_abt_300x500x200"
    schedule = json.loads(_forms_agree(generated, name, capsys))
    vm = {e["name"]: e["vm_cost"] for e in schedule["phases"]["prologue"]}
    assert schedule["lgkm_per_load"] == [1, 2] and (vm["LOAD_A"], vm["LOAD_B"]) == (1, 2), schedule
    rc = main(["--pipeline=4wave", str(generated(name, "late")), "--emit=schedule"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    _exact_in_random_order(generated, name, capsys, 13)


def test_edge_rows_pointed_inside_the_buffer_are_refused(generated, tmp_path, capsys):
    """The front end's copies read a strided block per workgroup; IREE's point the rows
    past the edge of C out of the buffer (zeros), which the block does too.  A kernel whose
    copies point them at row 0 of the tile instead (inside the buffer) reads other data
    than the block there: refused at the copy, naming the workgroup."""
    text = generated("bf16_abt_300x500x200", "prefetch").read_text()
    mutant = re.sub(r"arith\.select (%\d+), %c(300|500), ", r"arith.select \1, %c0, ", text)
    assert mutant != text
    src = tmp_path / "mutant.mlir"
    src.write_text(mutant)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err
    assert "copies do not move as one block from one workgroup to another: with every " \
           "workgroup id" in err, err


def test_vector_distribute_i8_a_times_b_reads_bytes_regrouped(tmp_path, capsys):
    """IREE's VectorDistribute i8 ``A x B`` reads B one byte at a time (``vector<1xi8>``,
    16 joined by ``vector.from_elements`` per MFMA operand): the front end regroups them
    into 8-bit transposing reads as it does 16-bit ones (``frontend/element_reads.py``),
    both forms give one schedule (a B subtile 16 ``ds_read_b64_tr_b8``, issued in runs,
    where it had 128 one-byte reads and was refused), and the late form's kernel is exact
    with the steady loop run (8 K steps of 256: 3 trips, LLVM keeps the loop)."""
    from steady_loop import assert_steady, counting_loops

    forms = G.forms(G.matmul_source(dtype="i8", m=1024, n=1024, k=2048, transpose_b=False),
                    VECTOR_DISTRIBUTE)
    schedules = []
    for form, text in forms.items():
        src = tmp_path / f"{form}.mlir"
        src.write_text(text)
        assert main(["--pipeline=4wave", str(src), "--emit=schedule-json"]) == 0
        schedules.append(capsys.readouterr().out)
    assert schedules[0] == schedules[1]
    assert json.loads(schedules[1])["lgkm_per_load"][1] == 16, schedules[1]
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0, 2 of" in out and "i8xi8xi32" in out, out + err
    assert_steady(loops)
