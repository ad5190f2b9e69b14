"""IREE's VectorDistribute kernel at its prefetch point (a K-loop of whole-tile products) is
distributed by IREE's own passes before the front end reads it
(``pipeline_mlir/frontend/vector_distribute.py``); each way that can go wrong is refused at
an op with its reason."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend import vector_distribute as VD
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from build_cache import share_code_objects  # noqa: E402
from kernel_builds import built_schedule  # noqa: E402
from pass_helpers import assert_named_and_hazard_free  # noqa: E402

FLAGS = ("--iree-codegen-llvmgpu-use-vector-distribution",
         "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")


@pytest.fixture(scope="module")
def prefetch() -> str:
    """IREE's bf16 A x B^T 2048x2048x1024 VectorDistribute kernel at the prefetch point."""
    return G.prefetch_point(G.matmul_source(dtype="bf16", m=2048, n=2048, k=1024), FLAGS)


@pytest.fixture(scope="module")
def prefetch_input() -> str:
    """The same kernel as IREE's own prefetch pass receives it (after its distribution)."""
    return G.prefetch_input(G.matmul_source(dtype="bf16", m=2048, n=2048, k=1024), FLAGS)


@pytest.fixture(scope="module")
def prefetch_ab() -> str:
    """IREE's bf16 ``A x B`` (B ``K x N``) 2048x2048x1024 VectorDistribute kernel at the
    prefetch point."""
    return G.prefetch_point(G.matmul_source(dtype="bf16", m=2048, n=2048, k=1024,
                                            transpose_b=False), FLAGS)


def _without_executable(text: str) -> str:
    """``text`` with its kernel moved out of its hal.executable (which goes)."""
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (exe,) = walk_ops(module.operation, lambda o: o.name == "hal.executable")
        (f,) = walk_ops(exe, lambda o: o.name == "func.func")
        f.move_before(exe)
        exe.erase()
        return str(module)


def _refused(text: str, tmp_path, capsys, *args: str) -> str:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), *(args or ["--emit=schedule"])])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    return err


def _pipeline(src, pipelined, capsys) -> None:
    """``pipeline-opt --pipeline=4wave SRC -o PIPELINED``, built once per run for the same
    input (test_iree_families.py's round trips pipeline the same kernels)."""
    with share_code_objects(emits=("mlir",)):
        rc = main(["--pipeline=4wave", str(src), "-o", str(pipelined)])
    assert rc == 0, capsys.readouterr()


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_loop_becomes_mfmas(prefetch):
    """The whole-tile product becomes 32 MFMAs per K step of 128 in a loop with no
    ``scf.if`` (the copies' guard on ``thread_id y`` folded) and no affine index op."""
    assert "iree_codegen.inner_tiled" in prefetch
    with new_context() as ctx:
        module = ir.Module.parse(prefetch, ctx)
        assert VD.prepare_vector_distribute(module.operation) == 1
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        names = [o.name for o in walk_ops(loop, lambda o: True)]
    assert names.count("amdgpu.mfma") == 32
    assert not [n for n in names if n in VD.WHOLE_TILE_PRODUCTS or n == "scf.if"
                or n.startswith("affine.")], names


def test_another_pipeline_is_left_to_the_scan(prefetch, tmp_path, capsys):
    """A whole-tile loop of a kernel that does not name the VectorDistribute pipeline is not
    distributed: the scan refuses it at the product."""
    text = prefetch.replace("#iree_gpu.pipeline<VectorDistribute>",
                            "#iree_gpu.pipeline<TileAndFuse>")
    with new_context() as ctx:
        assert VD.prepare_vector_distribute(ir.Module.parse(text, ctx).operation) == 0
    err = _refused(text, tmp_path, capsys)
    line = _line_of(text, "iree_codegen.inner_tiled")
    assert f"k.mlir:{line}:" in err and "multiplies whole tiles inside the K-loop" in err, err


def test_outside_its_executable_is_refused(prefetch, tmp_path, capsys):
    """IREE's passes read the GPU target from the hal.executable.variant: a VectorDistribute
    kernel given without it is refused at the product."""
    text = _without_executable(prefetch)
    err = _refused(text, tmp_path, capsys)
    line = _line_of(text, "iree_codegen.inner_tiled")
    assert f"k.mlir:{line}:" in err and "outside an IREE hal.executable.variant" in err, err


def test_prefetch_input_outside_its_executable_is_refused(prefetch_input, tmp_path, capsys):
    """The same for the distributed form (no product): refused at the kernel."""
    text = _without_executable(prefetch_input)
    err = _refused(text, tmp_path, capsys)
    line = _line_of(text, "func.func @")
    assert f"k.mlir:{line}:" in err and "outside an IREE hal.executable.variant" in err, err


@pytest.mark.parametrize("args", [(), ("--emulate",)], ids=["build", "emulate"])
def test_a_failing_distribution_is_refused(prefetch, tmp_path, capsys, args):
    """A kernel IREE's distribution fails on (waves of 32 lanes against layouts of 64) is
    refused at the kernel with IREE's diagnostic and the product's line (also by
    ``--emulate``, which reads the dispatch's K-loop first)."""
    text = prefetch.replace("subgroup_size = 64", "subgroup_size = 32")
    err = _refused(text, tmp_path, capsys, *args)
    line = _line_of(text, "iree_codegen.inner_tiled")
    assert "IREE's VectorDistribute passes failed" in err and "failed to distribute" in err
    assert f"its product at line {line}" in err, err
    assert re.search(r"k\.mlir:\d+:\d+: error", err), err


def test_a_product_left_whole_is_refused(prefetch, tmp_path, capsys, monkeypatch):
    """Passes that leave a whole-tile product in the loop: refused at that product."""
    monkeypatch.setattr(VD, "DISTRIBUTION", "canonicalize")
    err = _refused(prefetch, tmp_path, capsys)
    assert "still multiplies whole tiles inside the K-loop after IREE's" in err, err


def test_prefetch_input_pipelines_as_the_prefetch_point(prefetch_input, tmp_path, capsys):
    """IREE's own prefetch pass receives the kernel distributed (copies guarded by
    ``scf.if`` on ``thread_id y``, affine index math in the loop): cleaned up, it becomes
    the schedule the undistributed form becomes (the named spec's, which
    ``test_the_schedule_is_hazard_free[prefetch-8]`` derives from the prefetch point: its one
    front-end run), and runs exact with memory completing in a random order the counters
    allow (its schedule kept by the build it runs: one front-end run of it)."""
    assert "scf.if" in prefetch_input and "iree_codegen.inner_tiled" not in prefetch_input
    src = tmp_path / "k.mlir"
    src.write_text(prefetch_input)
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=random:4"])
    out, err = capsys.readouterr()
    assert rc == 0 and "of 512 workgroups" in out and ": exact, max error 0" in out, out + err
    rc = main([f"--pipeline={SPEC.format(lgkm_b=8)}", "--emit=schedule-json"])
    out, err = capsys.readouterr()
    assert rc == 0 and out == built_schedule("4wave", prefetch_input), err


@pytest.mark.parametrize("dtype", [
    pytest.param("bf16", marks=pytest.mark.long(
        "the hand-back of this kernel's pipelined MLIR is test_iree_families.py's "
        "test_round_trip_builds_a_vmfb[vector-distribute] (one iree-compile run); its "
        "schedule runs exact in test_prefetch_input_pipelines_as_the_prefetch_point, and a "
        "handed-back VectorDistribute code object runs exact in [fp8] and in "
        "test_a_times_b_handed_back_to_iree_compile_is_exact")),
    "fp8"])
def test_handed_back_to_iree_compile_is_exact(prefetch, dtype, tmp_path, capsys):
    """Pipelined from the prefetch point and given back to ``iree-compile`` by executable
    substitution: the code object it builds computes C exactly (random order).  fp8: IREE's
    K step of 512 split into two sub-steps (``pipeline_mlir/frontend/ksplit.py``)."""
    src, pipelined, hsaco = (tmp_path / n for n in ("k.mlir", "pipelined.mlir", "k.hsaco"))
    source = G.matmul_source(dtype=dtype, m=2048, n=2048, k=1024)
    src.write_text(prefetch if dtype == "bf16" else G.prefetch_point(source, FLAGS))
    _pipeline(src, pipelined, capsys)
    hsaco.write_bytes(G.iree_hsaco(source, executable=str(pipelined)))
    rc = main(["--emulate=2048,2048,1024", str(hsaco), "--emulate-workgroups=2",
               "--emulate-mode=random:5"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random: exact, max error 0" in out, out + err
    assert "IREE's HAL bindings" in out, out


#: the schedule IREE's 2048x2048x1024 VectorDistribute kernels become (``A x B^T``: B's
#: LDS reads 8 per load; ``A x B``: 16)
SPEC = ("4wave{{dtype=bf16 BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
        "lgkm_per_load_a=4 lgkm_per_load_b={lgkm_b}}}")


@pytest.mark.parametrize("form, lgkm_b", [("prefetch", 8), ("prefetch_ab", 16)])
def test_the_schedule_is_hazard_free(form, lgkm_b, request, tmp_path, capsys):
    """The prefetch point becomes the 4-wave schedule of its geometry and counts (the same
    printed schedule), whose kernel, with the waits and barriers ``sched-fix-hazards`` adds,
    the simulator finds hazard-free for main loops of 0..6 iterations. ``A x B``: B's
    one-element reads regrouped into transposing reads
    (``pipeline_mlir/frontend/element_reads.py``), 16 per B subtile instead of 64, issued in
    two guarded runs."""
    src = tmp_path / "k.mlir"
    src.write_text(request.getfixturevalue(form))
    assert_named_and_hazard_free(src, SPEC.format(lgkm_b=lgkm_b), tmp_path, capsys)


def _square(form: str) -> str:
    """IREE's bf16 ``A x B^T`` 512^3 VectorDistribute kernel in ``form``."""
    fn = G.prefetch_point if form == "prefetch" else G.late_form
    return fn(G.matmul_source(dtype="bf16", m=512, n=512, k=512), FLAGS)


@pytest.mark.parametrize("form", ["prefetch", pytest.param("late", marks=pytest.mark.long(
    "one schedule with the prefetch point, which [prefetch] runs; the late form's B told "
    "from its loop and its schedule: test_the_late_form_tells_a_square_b_as_its_prefetch_"
    "point"))])
def test_a_square_b_is_told_by_the_distributed_loop(form, tmp_path, capsys):
    """At 512^3 B's shape does not say whether it is N x K: ``--emulate`` reads it from the
    K-loop's copies, which it sees as the build does (distributed at the prefetch point, the
    ``scf.if %true`` inlined in the late form); exact in random mode (the build kept in the
    run's store: its schedule is compared with the late form's)."""
    src = tmp_path / "k.mlir"
    src.write_text(_square(form))
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=random:3"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out and "B N x K" in out, out + err


def test_the_late_form_tells_a_square_b_as_its_prefetch_point():
    """The late form of the same kernel (its build and run in the long tier): ``--emulate``'s
    read of the dispatch (``driver/emulate.read_dispatch``: the copies' ``scf.if %true``
    inlined as the build does) tells B N x K from its K-loop, and the late form is
    pipelined (``--emit=schedule-json``: no lowering, no LLVM) with the prefetch point's
    schedule (kept by its build in ``test_a_square_b_is_told_by_the_distributed_loop``)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.driver.emulate import read_dispatch

    late = _square("late")
    with new_context() as ctx:
        d, problem = read_dispatch(ir.Module.parse(late, ctx), "k.mlir", None)
    assert problem is None and d.transpose_b is True, problem
    got = compile(CompileOptions(schedule="4wave", text=late,
                                 emit="schedule-json")).checked_output()
    assert got == built_schedule("4wave", _square("prefetch")) and '"phases"' in got, got[:500]


@pytest.mark.parametrize("kind, check", [("bias", "C = A @ B.T + bias"),
                                         ("batch", "2x2048x2048xf32, C = A @ B.T")])
def test_fused_epilogues_and_batches(kind, check, tmp_path, capsys):
    """A bias epilogue and a batch matmul of the VectorDistribute pipeline, from the prefetch
    point: ``--emulate`` runs the dispatch as IREE launches it, exact in random mode."""
    import epilogues as E

    src = tmp_path / "k.mlir"
    src.write_text(G.prefetch_point(E.epilogue_source(kind, m=2048, n=2048, k=1024), FLAGS))
    rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
               "--emulate-mode=random:3"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random: exact, max error 0" in out and check in out, out + err


def test_a_times_b_column_reads_become_element_reads(prefetch_ab):
    """IREE distributes B ``K x N`` into column reads (``vector<8x1>``: 8 K rows of one N
    column); its vector lowering, run with the cleanup as IREE runs it before its late form,
    makes them the late form's one-element reads, each the data of one copy."""
    with new_context() as ctx:
        module = ir.Module.parse(prefetch_ab, ctx)
        assert VD.prepare_vector_distribute(module.operation) == 1
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        reads = [str(o.results[0].type) for o in walk_ops(
            loop, lambda o: o.name in ("vector.load", "vector.transfer_read")
            and "workgroup" in str(o.operands[0].type))]
    assert reads.count("vector<1xbf16>") == 128 and reads.count("vector<8xbf16>") == 8, reads
    assert len(reads) == 136, reads


@pytest.mark.parametrize("mutant, needs", [
    ("reread", "the 8 elements of each MFMA operand to be 2 reads of 4 consecutive rows of "
               "one column"),
    ("barrier", "the reads of each MFMA operand with no copy, LDS store or barrier between "
                "them (an MFMA operand gathers its elements from transposing reads on both "
                "sides of 'gpu.barrier' op"),
], ids=["reread", "barrier"])
def test_element_reads_that_fit_no_transposing_read_are_left(mutant, needs, tmp_path, capsys):
    """A late form whose second B element read reads the first one's element again (no
    transposing read delivers an operand's elements), or with a barrier between the two
    (the new reads would go before it): its one-element reads are left as they are (never
    regrouped wrongly or half), and the loop is refused for them at a read of that MFMA
    operand, saying what the regrouping needed (it said only that ``lgkm_per_load_b`` was
    out of range, at the loop)."""
    late = G.late_form(G.matmul_source(dtype="bf16", m=2048, n=2048, k=1024,
                                       transpose_b=False), FLAGS)
    reads = re.findall(r"(%\w+) = vector\.load (%\w+)\[(%\w+), (%\w+)\] : "
                       r"memref<128x132xbf16, #gpu\.address_space<workgroup>>, "
                       r"vector<1xbf16>", late)
    (r0, buf, row0, col0), (r1, _b, row1, col1) = reads[:2]
    assert col0 == col1 and row0 != row1, reads[:2]
    old = f"{r1} = vector.load {buf}[{row1}, {col1}]"
    new = f"{r1} = vector.load {buf}[{row0}, {col1}]" if mutant == "reread" else \
        f"gpu.barrier\n{old}"
    mutated = late.replace(old, new)
    err = _refused(mutated, tmp_path, capsys)
    assert "'vector.load' op: the loop's 128 one-element LDS reads stay as they are " \
        f"(regrouping them into transposing reads needs {needs}" in err, err
    assert "more than the schedule counts: pipeline '4wave': option 'lgkm_per_load_b' is " \
        "out of range: expects an integer in 1..60, got 64" in err, err
    if mutant == "reread":       # at the operand's first read
        assert f"k.mlir:{_line_of(mutated, f'{r0} = vector.load')}:" in err, err
    else:                        # at its last, past the barrier
        line = int(re.search(r"k\.mlir:(\d+):", err).group(1))
        assert line >= _line_of(mutated, f"{r1} = vector.load") and \
            "vector<1xbf16>" in mutated.splitlines()[line - 1], err


def test_an_unaligned_matmul_has_no_mfma_loop(tmp_path, capsys):
    """bf16 1000^3 with the VectorDistribute flags: IREE falls back to dot products from
    global memory (no LDS, no MFMA), so no K-loop exists to pipeline; refused with the
    reason at the product the loop's sum is computed from (before, "nothing to pipeline"
    at the module)."""
    late = G.late_form(G.matmul_source(dtype="bf16", m=1000, n=1000, k=1000), FLAGS)
    assert "amdgpu.mfma" not in late and "workgroup>" not in late
    assert "vector.reduction <add>" in late
    err = _refused(late, tmp_path, capsys)
    m = re.search(r"k\.mlir:(\d+):\d+: error: sched-adopt-loop: '(\S+)' op multiplies in "
                  r"registers inside the K-loop, with no amdgpu.mfma and no LDS", err)
    assert m and m.group(2) in late.splitlines()[int(m.group(1)) - 1], err



@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_a_kernel_without_mfmas_is_refused_as_its_late_form(form, tmp_path, capsys):
    """IREE's bf16 A x B^T 2x364x1024 (``test/lit/passes/Inputs``, ``generate.py``'s
    LIT_INPUTS): VectorDistribute with no MFMA, one wave per column of C multiplying with
    FMAs.  Both forms are refused with one reason at the same op: the FMA the loop's sum is
    computed from (at the prefetch point IREE's vector lowering makes the late form's FMAs
    of its ``vector.contract``, which they keep the location of).  The prefetch point's
    contract, which IREE's distribution leaves (no MFMA layout applies), was refused as a
    whole-tile product left undistributed before (the ninth audit); then both with
    "nothing to pipeline" at the module, until the twelfth sweep."""
    text = (ROOT / "test" / "lit" / "passes" / "Inputs" /
            f"iree-bf16-abt-2x364x1024.{form}.mlir").read_text()
    assert "vector.contract" in text if form == "prefetch" else "math.fma" in text
    assert not re.search(r"= amdgpu\.mfma ", text)
    err = _refused(text, tmp_path, capsys)
    m = re.search(r"k\.mlir:(\d+):\d+: error: sched-adopt-loop: 'math\.fma' op multiplies in "
                  r"registers inside the K-loop, with no amdgpu.mfma and no LDS in the kernel", err)
    line = text.splitlines()[int(m.group(1)) - 1] if m else ""
    assert ("vector.contract" if form == "prefetch" else "math.fma") in line, err
    assert "whole tiles" not in err, err

def test_a_times_b_handed_back_to_iree_compile_is_exact(prefetch_ab, tmp_path, capsys):
    """``A x B`` pipelined from the prefetch point and given back to ``iree-compile`` by
    executable substitution: the code object it builds (LLVM's packed 16-bit address
    arithmetic included, ``pipeline_mlir/emu/packed.py``) computes ``C = A x B`` exactly,
    launched as IREE launches it (a launch description: its three bindings, 512
    workgroups of 256 work-items), random order."""
    from emu_helpers import buffer_arg, launch_toml

    src, pipelined, hsaco = (tmp_path / n for n in ("k.mlir", "pipelined.mlir", "k.hsaco"))
    src.write_text(prefetch_ab)
    _pipeline(src, pipelined, capsys)
    source = G.matmul_source(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False)
    hsaco.write_bytes(G.iree_hsaco(source, executable=str(pipelined)))
    launch = tmp_path / "launch.toml"
    launch.write_text(launch_toml(
        dict(grid=[512], block=[256]),
        [buffer_arg("A", "bf16", [2048, 1024]), buffer_arg("B", "bf16", [1024, 2048]),
         buffer_arg("C", "f32", [2048, 2048])],
        [dict(output="C", expect="A @ B")]))
    rc = main(["--emulate", str(hsaco), f"--emulate-launch={launch}",
               "--emulate-workgroups=3", "--emulate-mode=random:5"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random: exact, max error 0" in out, out + err
