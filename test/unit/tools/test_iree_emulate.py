"""IREE's matmul kernels run on the emulator: C = A x B^T exactly.

IREE's bf16 ``A x B^T`` 4096^3 kernel (the committed inputs, taken where IREE would
pipeline it and in its late form) is pipelined with ``pipeline-opt --pipeline=4wave`` and
compiled to a code object; the emulator runs it with the launch contract of its kernel
arguments (``sched-gpu-kernel``'s memref descriptors) and, handed back to ``iree-compile``,
as IREE's own HAL launches it (one pointer per binding, preloaded into SGPRs).  IREE's own
kernels (no prefetch, and IREE's 2-stage prefetch pipelining) run the same way, built at
4096x4096x1024: IREE's kernels of 4096^3 but for the numbers (the same tile, waves, K step
and copies; their late forms, both stage counts, are one text with the numbers set aside,
checked by hand), a quarter of the K steps to emulate.

IREE compiles the sizes into its kernels: each run launches three workgroups of the grid
(the first, its neighbour along x: a tile that tells M from N, and the last corner: both
offsets at their largest, the buffers' ends) and checks their three 128 x 128 tiles
(4096 = 32 x 128: no edge tiles) in the late completion mode (memory completing at the
wait that forces it, so a missing wait or barrier shows as a finding or wrong data: the
same check as the eager mode's, and more; the command-line tests below run the pipelined
kernel eagerly too).  The late form's such run is of the long tier: both forms give one
schedule (test_iree_families.py), and the command-line tests run its code object.

The command line (``pipeline-opt --emulate``) runs the same kernels as a user would: an IREE
dispatch built with ``--pipeline`` (sizes, bindings and grid read from it), the code object
and assembly it builds, IREE's own kernels of small matmuls over their whole grid; and it
refuses, in one line, sizes other than the kernel's, a kernel with a wait removed, kernels
the emulator cannot run and dispatches that are no matmul.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import OnRequest, share_code_objects
from cli_helpers import with_stdin
from kernel_builds import shared_build
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul, kernel_arguments
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_steady, counting_loops

ROOT = Path(__file__).parents[3]
DATA = ROOT / "test" / "data" / "iree"
sys.path.insert(0, str(DATA))
import generate as G  # noqa: E402
from long_tier import FUNCTIONS_RUN  # noqa: E402

SIZE = 4096
TILE = (128, 128)
#: workgroup ids: the prefetch form keeps IREE's 2-D grid (x, y) of 32 x 32 tiles, the late
#: form and IREE's finished kernels linearise it (x: 0..1023).  Workgroup 0 runs anyway (the
#: probe that learns the grid); its x neighbour's tile moves in one of M, N only, so a kernel
#: that swaps them, or drops that offset, writes the wrong tile; the last corner moves in
#: both and reaches each buffer's end.  A both-ways neighbour ((1, 1), 33) adds no check.
GRID_2D = [(0, 0), (1, 0), (31, 31)]
GRID_1D = [0, 1, 1023]
#: K of IREE's own builds (:func:`iree_kernels`): 32 of its K steps of 32 where 4096^3 has 128
OWN_K = 1024



def _has_iree_compile() -> bool:
    try:
        return Path(G.tool("iree-compile")).exists()
    except Exception:              # the wheel's tool lookup fails: not installed
        return False


needs_iree = pytest.mark.skipif(not _has_iree_compile(),
                                reason="iree-compile (iree-base-compiler) is not installed")


def _shared():
    """The committed kernel's builds (code object, assembly, pipelined MLIR) made once per
    run: the session fixtures' builds, the command line's ``--emulate`` of the same
    dispatch and those of other modules (``build_cache.share_code_objects``)."""
    return share_code_objects(emits=("hsaco", "asm", "mlir"))


@pytest.fixture(autouse=True)
def _builds_shared():
    with _shared():
        yield


@pytest.fixture(scope="session")
def kernels(tmp_path_factory):
    """name -> code object bytes, built once per session."""
    d = tmp_path_factory.mktemp("iree_emu")
    out = {}
    for form in ("prefetch", "late"):
        src = DATA / f"matmul_bf16_abt_4096.{form}.mlir"
        hsaco = d / f"{form}.hsaco"
        with _shared():
            assert main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(hsaco)]) == 0
        out[f"4wave-{form}"] = hsaco.read_bytes()
    return out


@pytest.fixture(scope="session")
def iree_kernels(tmp_path_factory):
    """IREE's own kernels and the pipelined one as iree-compile finishes it (the pipelined
    MLIR, what ``-o pipelined.mlir`` writes, kept on the way by the run's ``--emit=hsaco``
    build of the prefetch point, which :func:`kernels` makes: no passes run again), each
    built when an item first asks for it."""
    own = G.matmul_source(dtype="bf16", m=SIZE, n=SIZE, k=OWN_K)

    def in_iree() -> dict:
        pipelined = tmp_path_factory.mktemp("iree_own") / "pipelined.mlir"
        pipelined.write_text(shared_build("4wave", stages=("mlir",), input=str(
            DATA / "matmul_bf16_abt_4096.prefetch.mlir")).stages["mlir"])
        source = G.matmul_source(**G.CONFIGS["matmul_bf16_abt_4096"])
        return {"4wave-in-iree": G.iree_hsaco(source, executable=str(pipelined))}

    def prefetch_2() -> dict:
        asm, hsaco = G.iree_prefetch_files(own)     # the code object and its assembly
        return {"iree-prefetch-2": hsaco, "iree-prefetch-2.s": asm}

    makers = {"iree-no-prefetch": lambda: {"iree-no-prefetch": G.iree_hsaco(own, 1)},
              "iree-prefetch-2": prefetch_2, "iree-prefetch-2.s": prefetch_2,
              "4wave-in-iree": in_iree}
    return OnRequest(lambda name: makers[name]())


def _check(data: bytes, workgroups, mode: str, contract: str, k: int = SIZE) -> None:
    kernel = load_kernel(data)
    run = emulate_matmul(kernel, Matmul(SIZE, SIZE, k, "bf16"), mode=mode,
                         workgroups=workgroups)
    assert run.contract == contract and run.grid == (SIZE // TILE[0]) * (SIZE // TILE[1])
    assert run.exact, run.summary() + f", first wrong element {run.first_bad}"


@pytest.mark.parametrize("form", ["prefetch", pytest.param("late", marks=pytest.mark.long(
    "one schedule from both forms: test_iree_families.py::test_both_forms_give_one_schedule"
    "[bf16-abt-4096]; the late form's code object run in late mode on workgroup 0 "
    "(test_cli_runs_the_pipelined_code_object_and_its_assembly, its assembly) and eagerly "
    "on workgroups 0 and 1023 (test_cli_builds_and_runs_an_iree_dispatch[late-...])"))])
def test_pipelined_iree_kernel_is_exact(kernels, form):
    with counting_loops() as loops:
        _check(kernels[f"4wave-{form}"], GRID_2D if form == "prefetch" else GRID_1D, "late",
               "memref")
    assert_steady(loops)


#: (2026-12-07) items whose every function of pipeline_mlir the default run's items left run
#: (the function rule of docs/testing.md, "The long tier"; coverage.py per item)
BUILT_LONG = pytest.mark.long(f"{FUNCTIONS_RUN}; an IREE-built kernel's launch emulated exact in "
                              "test_iree_built_kernels_are_exact[iree-no-prefetch]")


@needs_iree
@pytest.mark.parametrize("name", [pytest.param("4wave-in-iree", marks=BUILT_LONG),
                                  "iree-no-prefetch",
                                  pytest.param("iree-prefetch-2", marks=BUILT_LONG)])
def test_iree_built_kernels_are_exact(iree_kernels, name):
    _check(iree_kernels[name], GRID_1D, "late", "hal",
           SIZE if name == "4wave-in-iree" else OWN_K)




def test_launch_contract_errors(kernels):
    kernel = load_kernel(kernels["4wave-late"])
    with pytest.raises(EmuError, match="neither IREE's HAL bindings"):
        kernel_arguments(kernel, [1 << 32, 2 << 32], [(4, 4), (4, 4)])
    asm_kernel = load_kernel(kernels["4wave-late"])
    asm_kernel.meta = None                       # assembly without .amdgpu_metadata
    with pytest.raises(EmuError, match="no metadata"):
        kernel_arguments(asm_kernel, [1 << 32] * 3, [(4, 4)] * 3)


# ---------------------------------------------------------------------------------------------
# the command line: pipeline-opt --emulate on IREE's dispatches and code objects
# ---------------------------------------------------------------------------------------------

def cli(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _summary(workgroups: str, mode: str, contract: str, size=(SIZE, SIZE, SIZE),
             ran: str = "") -> str:
    """The summary line's pattern; ``ran``: the ids a partial run names (regex-quoted)."""
    m, n, k = size
    return (rf"matmul_dispatch_0_matmul_{m}x{n}x{k}_\w+ M={m} N={n} K={k} mode={mode}: exact, "
            rf"max error 0, {workgroups} workgroups x 4 waves, \d+ instructions in [\d.]+ s "
            rf"\([\d,]+ instructions/s\)"
            + (f"; workgroups run: {ran}" if ran else "") + rf"; {contract}, B N x K\n")


def _one_error(err: str, start: str) -> None:
    assert err.startswith(start) and "Traceback" not in err, err


@pytest.mark.parametrize("form,emulate,mode", [("prefetch", "--emulate", "late"),
                                               ("late", "--emulate=4096,4096,4096", "eager")])
def test_cli_builds_and_runs_an_iree_dispatch(capsys, form, emulate, mode):
    """The sizes, bindings and grid come from the dispatch (sizes left out, or the same)."""
    with counting_loops() as loops:
        rc, out, err = cli(capsys, "--pipeline=4wave", emulate,
                           str(DATA / f"matmul_bf16_abt_4096.{form}.mlir"),
                           f"--emulate-mode={mode}", "--emulate-workgroups=2")
    assert rc == 0 and err == "", err
    assert_steady(loops)
    # the prefetch point's 32 x 32 grid: its two corners, on its diagonal;
    # the late form's linearised grid of 1024: the first and the last
    ran = r"\(0, 0\), \(31, 31\)" if form == "prefetch" else "0, 1023"
    assert re.fullmatch(_summary("2 of 1024", mode, "memref descriptors", ran=ran), out), out


def test_each_mode_of_a_dispatch_built_before_reads_it_once(capsys, monkeypatch):
    """A dispatch emulated again with the same sizes and workgroups, its build held by the
    code-object store, is not read again (``_READ`` in ``pipeline_mlir/driver/emulate.py``):
    the second run is as the first, another workgroup count reads it again."""
    from collections import OrderedDict

    import pipeline_mlir.driver.emulate as E

    read, real = [], E.read_dispatch
    monkeypatch.setattr(E, "read_dispatch", lambda *a: read.append(a) or real(*a))
    monkeypatch.setattr(E, "_READ", OrderedDict())
    args = ["--pipeline=4wave", "--emulate", str(DATA / "matmul_bf16_abt_4096.prefetch.mlir"),
            "--emulate-mode=late"]
    runs = [cli(capsys, *args, f"--emulate-workgroups={n}") for n in (2, 2, 1)]
    assert [rc for rc, _out, _err in runs] == [0, 0, 0] and len(read) == 2, runs
    first, again = (re.sub(r"[\d.,]+ (s|instructions/s)\b", "", out) for _rc, out, _e in runs[:2])
    assert first == again and "2 of 1024 workgroups" in first, (first, again)
    assert "1 of 1024 workgroups" in runs[2][1], runs[2]
    # each reading is kept with the build options it was built by: another build of the
    # same input (another pipeline, option or emit) never runs a reading it was not built by
    assert all("CompileOptions(" in key[-1] and "4wave" in key[-1] for key in E._READ), \
        list(E._READ)


@pytest.fixture(scope="session")
def late_asm(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("iree_asm") / "late.s"
    with _shared():
        assert main(["--pipeline=4wave", str(DATA / "matmul_bf16_abt_4096.late.mlir"),
                     "--emit=asm", "-o", str(path)]) == 0
    return path


def test_cli_runs_the_pipelined_code_object_and_its_assembly(capsys, kernels, late_asm,
                                                             tmp_path):
    """No --pipeline: the kernel's arguments say the launch; the sizes are given."""
    hsaco = tmp_path / "late.hsaco"
    hsaco.write_bytes(kernels["4wave-late"])
    for path, mode in ((hsaco, "eager"), (late_asm, "late")):
        rc, out, err = cli(capsys, "--emulate=4096,4096,4096", str(path),
                           f"--emulate-mode={mode}", "--emulate-workgroups=1")
        assert rc == 0 and err == "", err
        assert re.fullmatch(_summary("1 of 1024", mode, "memref descriptors", ran="0"),
                            out), out


def test_cli_catches_a_weakened_wait_in_late_mode(capsys, late_asm, tmp_path):
    lines = late_asm.read_text().split("\n")
    head = next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln)
    # the loop's first wait loses its vmcnt: the next block's LDS reads race the DMA
    wait = next(i for i in range(head, len(lines)) if lines[i].strip().startswith("s_waitcnt"))
    assert "vmcnt" in lines[wait] and "lgkmcnt(0)" in lines[wait]
    mutant = tmp_path / "mutant.s"
    mutant.write_text("\n".join(lines[:wait] + ["\ts_waitcnt lgkmcnt(0)"] + lines[wait + 1:]))
    rc, out, err = cli(capsys, "--emulate=4096,4096,4096", str(mutant), "--emulate-mode=late",
                       "--emulate-workgroups=1")
    assert rc == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert re.match(rf"{re.escape(str(mutant))}: error: lds-race: wave \d of workgroup 0, "
                    rf"0x[0-9a-f]{{4}} 'ds_read_b128 [^']*': LDS read of address \d+ races the "
                    rf"write by wave \d at 0x[0-9a-f]{{4}} 'buffer_load_dwordx4 [^']*' \(not yet "
                    rf"waited for\)\n", err), err


@pytest.fixture(scope="session")
def small_iree(tmp_path_factory):
    """IREE's own kernels of small matmuls (a whole grid runs in a fraction of a second):
    f16 256^3 (no prefetch), bf16 256x256x512 with IREE's 2-stage prefetch (assembly), i8
    256^3 (i32 MFMAs, an i32 C), and A x B (B read with transposing LDS reads,
    ``ds_read_b64_tr_b16``; fp8 and i8: ``ds_read_b64_tr_b8``)."""
    d = tmp_path_factory.mktemp("iree_small")
    out = {}
    out["f16.hsaco"] = G.iree_hsaco(G.matmul_source(dtype="f16", m=256, n=256, k=256), 1)
    out["bf16-prefetch.s"] = G.iree_prefetch_asm(G.matmul_source(dtype="bf16", m=256, n=256,
                                                                  k=512))
    out["i8.hsaco"] = G.iree_hsaco(G.matmul_source(dtype="i8", m=256, n=256, k=256), 1)
    out["ab.hsaco"] = G.iree_hsaco(G.matmul_source(dtype="bf16", m=256, n=256, k=256,
                                                   transpose_b=False), 1)
    for dtype in ("fp8", "i8"):         # B read with ds_read_b64_tr_b8
        out[f"ab-{dtype}.hsaco"] = G.iree_hsaco(G.matmul_source(dtype=dtype, m=256, n=256,
                                                                k=256, transpose_b=False), 1)
    for name, data in out.items():
        (d / name).write_bytes(data) if isinstance(data, bytes) else (d / name).write_text(data)
    return d


#: IREE's own kernels' random mode beyond the one instance the default run keeps
#: (test_iree_own_a_x_b_kernel_is_exact_with_b_k_by_n's i8 kernel): the same code object, the
#: same launch, only the order memory completes in differs from its late mode's
OWN_RANDOM = pytest.mark.long("random mode of IREE's own kernel, whose late mode the default "
                              "run keeps: test_iree_own_a_x_b_kernel_is_exact_with_b_k_by_n"
                              "[ab-i8.hsaco-i8-random] runs that mode on one of them")


@needs_iree
@pytest.mark.parametrize("name,size,mode", [
    ("f16.hsaco", (256, 256, 256), "late"), ("bf16-prefetch.s", (256, 256, 512), "late"),
    pytest.param("bf16-prefetch.s", (256, 256, 512), "random:5", marks=OWN_RANDOM),
    pytest.param("i8.hsaco", (256, 256, 256), "late", marks=pytest.mark.long(
        f"{FUNCTIONS_RUN}; IREE's own code objects run over the whole grid from the "
        "command line in "
        "[f16.hsaco-size0-late] and [bf16-prefetch.s-size1-late]"))])
def test_cli_runs_iree_own_kernels_over_the_whole_grid(capsys, small_iree, name, size, mode):
    rc, out, err = cli(capsys, f"--emulate={','.join(map(str, size))}", str(small_iree / name),
                       f"--emulate-mode={mode}")
    assert rc == 0 and err == "", err
    assert re.fullmatch(_summary("8", mode.split(":")[0], "IREE's HAL bindings", size), out), out


def test_cli_sizes_that_disagree_with_a_dispatch(capsys):
    path = DATA / "matmul_bf16_abt_4096.late.mlir"
    rc, out, err = cli(capsys, "--pipeline=4wave", "--emulate=2048,4096,4096", str(path))
    assert rc == 1 and out == ""
    _one_error(err, f"{path}:41:16: error: --emulate=2048,4096,4096 disagrees with the sizes "
                    f"compiled into kernel matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32"
                    f": M=4096 N=4096 K=4096 (its bindings A 4096x4096xbf16, B 4096x4096xbf16, "
                    f"C 4096x4096xf32); give --emulate=4096,4096,4096 or --emulate alone\n")


@needs_iree
def test_cli_sizes_that_disagree_with_a_code_object(capsys, small_iree):
    """The code object states its sizes only in its buffer descriptors: they are checked."""
    path = small_iree / "f16.hsaco"
    rc, out, err = cli(capsys, "--emulate=256,512,256", str(path))
    assert rc == 1 and out == "" and len(err.strip().splitlines()) == 1
    _one_error(err, f"{path}: error: --emulate=256,512,256: kernel "
                    f"matmul_dispatch_0_matmul_256x256x256_f16xf16xf32 has other sizes compiled "
                    f"in than M=256 N=512 K=256: its buffer descriptor of B spans 131072 bytes, "
                    f"M=256 N=512 K=256 make B 512x256 f16, 262144 bytes (the kernel's sizes: "
                    f"M=256 N=256 K=256)\n")


@needs_iree
def test_the_check_sees_a_wrong_result(small_iree):
    """B laid out N x K under IREE's own kernel of ``A x B`` (B ``K x N``): the tiles come
    out wrong (a workgroup of 8 K steps; the check is the launch's, whichever kernel)."""
    kernel = load_kernel((small_iree / "ab.hsaco").read_bytes())
    run = emulate_matmul(kernel, Matmul(256, 256, 256, "bf16"), workgroups=[0])
    assert not run.exact and run.first_bad is not None
    # ... and a run of no workgroups writes nothing (the probe's tile is forgotten)
    assert emulate_matmul(kernel, Matmul(256, 256, 256, "bf16", False),
                          workgroups=[]).written == 0


@needs_iree
@pytest.mark.parametrize("name,dtype,mode", [
    (name, dtype, mode) if dtype == "i8" or mode == "late" else
    pytest.param(name, dtype, mode, marks=OWN_RANDOM)
    for name, dtype in [("ab.hsaco", "bf16"), ("ab-fp8.hsaco", "fp8"), ("ab-i8.hsaco", "i8")]
    for mode in ("late", "random")])
def test_iree_own_a_x_b_kernel_is_exact_with_b_k_by_n(small_iree, name, dtype, mode):
    """IREE's own A x B kernel reads B (K x N in LDS) with ``ds_read_b64_tr_b16`` (fp8, i8:
    ``ds_read_b64_tr_b8``): exact over its whole grid when B is laid out K x N, an
    independent check of the emulator's lane exchange (IREE chose the addresses, the MFMA
    consumes the result)."""
    kernel = load_kernel((small_iree / name).read_bytes())
    run = emulate_matmul(kernel, Matmul(256, 256, 256, dtype, False), mode=mode)
    assert run.exact and run.expected == 256 * 256, run.summary()


@needs_iree
def test_cli_runs_a_x_b_code_object_as_a_x_b_t_and_says_so(capsys, small_iree, monkeypatch):
    """A code object does not say how B is laid out: run as N x K, C differs, with the hint
    (the code object read from standard input, which the error names ``<stdin>``)."""
    with_stdin(monkeypatch, (small_iree / "ab.hsaco").read_bytes())
    rc, out, err = cli(capsys, "--emulate=256,256,256", "-")
    assert rc == 1 and "a code object does not say how B is laid out" in err, err
    assert err.startswith("<stdin>: error: C differs from the reference"), err


def test_cli_refuses_a_dispatch_that_is_not_a_matmul(capsys, tmp_path):
    """Checked before anything is built: a C of i32 is no matmul the reference computes."""
    layout = ("#l = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, "
              "#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>")
    binding = ("    %{0} = hal.interface.binding.subspan layout(#l) binding({0}) alignment(64) "
               "offset(%c0) : memref<{1}>\n")
    path = tmp_path / "i32c.mlir"
    path.write_text(f"{layout}\nfunc.func @k() attributes {{gpu.known_block_size = array<i32: "
                    f"256, 1, 1>}} {{\n    %c0 = arith.constant 0 : index\n" +
                    binding.format(0, "128x64xbf16") + binding.format(1, "256x64xbf16") +
                    binding.format(2, "128x256xi32") + "    return\n}\n")
    rc, out, err = cli(capsys, "--pipeline=4wave", "--emulate", str(path))
    assert rc == 1 and out == ""
    _one_error(err, f"{path}:6:10: error: --emulate: C is i32: the emulator's reference "
                    f"writes C as f32, bf16, f16, f8E4M3FN, f8E5M2\n")


@needs_iree
@pytest.mark.parametrize("argv,message", [
    # the code object on standard input (named so)
    (["--emulate", "-", "<f16.hsaco"],
     "'<stdin>' holds IREE's kernel matmul_dispatch_0_matmul_256x256x256_f16xf16xf32 (IREE's "
     "HAL bindings), and a code object does not state the sizes compiled into it: give "
     "--emulate=M,N,K"),
    (["--emulate=256,256,256", "f16.hsaco", "--pipeline=4wave"],
     "--pipeline describes the project's own GEMM kernels and says nothing about it; leave "
     "--pipeline out"),
    (["--emulate=256,256,256", "f16.hsaco", "--emulate-workgroups=9"],
     "--emulate-workgroups=9: 9 workgroups asked for, the grid has 8"),
])
def test_cli_usage_with_an_iree_code_object(capsys, small_iree, argv, message, monkeypatch):
    for a in argv:
        if a.startswith("<"):
            with_stdin(monkeypatch, (small_iree / a[1:]).read_bytes())
    argv = [str(small_iree / a) if a.endswith(".hsaco") else a for a in argv
            if not a.startswith("<")]
    rc, out, err = cli(capsys, *argv)
    assert rc == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert message in err and "Traceback" not in err, err


def test_cli_a_dispatch_needs_the_pipeline_to_build_it(capsys):
    rc, out, err = cli(capsys, "--emulate", str(DATA / "matmul_bf16_abt_4096.late.mlir"))
    assert rc == 1 and "is MLIR: --emulate builds it first, with the schedule of --pipeline" in err


@needs_iree
def test_blocks_measured_on_irees_own_build_match_its_layout(iree_kernels):
    """IREE's own 2-stage build (bf16 4096x4096x1024) on the emulator, the first 5000
    instructions of its first workgroup: no inner loop and no block its lanes skip, so
    the timed iteration is exactly what each wave executed, the layout's
    (pipeline_mlir/driver/measured_trips.py, pipeline_mlir/emu/trips.py)."""
    from pipeline_mlir.driver.measured_trips import measure_trips
    from pipeline_mlir.sim.timing import asm_main_loop

    asm = iree_kernels["iree-prefetch-2.s"]
    trips = measure_trips(asm, iree_kernels["iree-prefetch-2"], Matmul(SIZE, SIZE, OWN_K, "bf16"),
                          limit=5000)
    assert trips.loops == () and len(trips.waves) == 4
    laid_out = asm_main_loop(asm)
    for counts, executed, (n, of) in zip(trips.waves, trips.executed, trips.support):
        assert of >= 8 and n >= of - 1               # the last one seen is cut short
        assert all(set(runs) == {1} for runs in counts.values())
        assert asm_main_loop(asm, measured=counts) == laid_out
        assert len(laid_out) == executed
