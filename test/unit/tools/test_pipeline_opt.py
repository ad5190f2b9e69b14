"""The ``pipeline-opt`` driver: golden output, JSON, -o, and one-line errors with exit status 1."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli as run

REPO = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).resolve().parents[2] / "data" / "reference"
LIT_INPUTS = Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs"


def golden(name: str) -> str:
    p = GOLDEN / name
    return p.read_text()


def assert_one_line_error(code, out, err, fragment):
    assert code == 1
    assert out == ""
    assert err.startswith("pipeline-opt: error: ") and err.endswith("\n")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert fragment in err, err


# ---- output ---------------------------------------------------------------------

#: the reference's ping-pong configuration (the pipeline's defaults are its kernel's counts)
REFERENCE_PINGPONG = ("pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 "
                      "lgkm_per_load_b=2 waits=block}")


def test_reference_pingpong_is_golden(capsys):
    code, out, err = run(capsys, f"--pipeline={REFERENCE_PINGPONG}", "--emit=schedule")
    assert (code, err) == (0, "")
    assert out == golden("pingpong_bf16_l2_2.txt")


@pytest.mark.parametrize("spec", ["pingpong", "pingpong{is_fp8=true}", "4wave",
                                  "4wave{dtype=fp8 BM=64 BN=64 BK=128}"])
def test_one_spec_one_schedule(capsys, tmp_path, spec):
    """--emit=schedule of a spec prints the schedule its complete kernel (--emit=hsaco) is
    built with: the kernel's natural loop adopted under the same spec."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir
    from pipeline_mlir.schedules.registry import parse_pipeline

    src = tmp_path / "kernel.mlir"
    src.write_text(natural_kernel_mlir(gemm_kernel(parse_pipeline(spec))))
    code, kernel_schedule, err = run(capsys, str(src), f"--pipeline={spec}", "--emit=schedule")
    assert (code, err) == (0, "")
    code, printed, err = run(capsys, f"--pipeline={spec}", "--emit=schedule")
    assert (code, err) == (0, "") and printed == kernel_schedule


def test_fourwave_fp8_is_golden(capsys):
    code, out, err = run(capsys, "--pipeline=4wave{dtype=fp8 BM=128 BN=128 BK=128}",
                         "--emit=schedule")
    assert (code, err) == (0, "")
    assert out == golden("4wave_fp8_128x128x128.txt")


def test_readme_main_command_is_golden(capsys):
    # the README's "run the main job" command; --emit defaults to schedule
    code, out, _ = run(capsys, "--pipeline", "4wave{dtype=bf16 BM=128 BN=128 BK=64}")
    assert code == 0
    assert out == golden("4wave_bf16_128x128x64.txt")


def test_single_buffer_schedule(capsys):
    code, out, _ = run(capsys, "--pipeline=single-buffer{T=2}")
    assert code == 0
    assert out.startswith("WARP_STAGGER_INDEX 7\nPROLOGUE (6 entries)\n")
    assert "KERNEL (56 entries)" in out and "EPILOGUE (13 entries)" in out


def test_schedule_json(capsys):
    code, out, err = run(capsys, "--pipeline=pingpong", "--emit=schedule-json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["warp_stagger_index"] == 4
    assert set(data["phases"]) == {"prologue", "kernel", "epilogue"}
    assert [len(data["phases"][p]) for p in ("prologue", "kernel", "epilogue")] == [10, 70, 58]
    entry_fields = {"tag", "name", "stage", "subtile", "k_offset", "channel", "wait_value",
                    "vm_cost", "lgkm_cost", "resource", "latency", "role", "vgpr_def",
                    "vgpr_kill", "time_slot", "is_prefetch"}
    for entries in data["phases"].values():
        for e in entries:
            assert set(e) == entry_fields
    assert len(data["edges"]) == 54
    assert set(data["edges"][0]) == {"producer", "consumer", "kind", "distance"}
    assert len(data["blocks"]) == 8 and data["blocks"][0]["mma"]["name"] == "MMA"
    assert data["scheduler"]["proven_optimal"] is True
    assert data["scheduler"]["makespan"] == data["scheduler"]["lower_bound"] == 420
    assert data["lgkm_per_load"] == [8, 4]


def test_schedule_json_fourwave_and_single_buffer(capsys):
    code, out, _ = run(capsys, "--pipeline=4wave{dtype=fp8 BK=128}", "--emit=schedule-json")
    data = json.loads(out)
    assert code == 0 and data["warp_stagger_index"] == 15 and len(data["edges"]) == 64
    assert data["scheduling"] == "IDENTITY" and data["lgkm_per_load"] == [4, 4]
    code, out, _ = run(capsys, "--pipeline=single-buffer", "--emit=schedule-json")
    data = json.loads(out)
    assert code == 0 and data["blocks"] == [] and data["scheduler"] is None


def test_output_file(tmp_path, capsys):
    dest = tmp_path / "pp.txt"
    code, out, err = run(capsys, f"--pipeline={REFERENCE_PINGPONG}", "-o", str(dest))
    assert (code, out, err) == (0, "", "")
    assert dest.read_text() == golden("pingpong_bf16_l2_2.txt")
    code, out, _ = run(capsys, "--pipeline=pingpong", "--emit=schedule-json", "-o", "-")
    assert code == 0 and json.loads(out)["schedule"] == "pingpong"


def test_help(capsys):
    code, out, err = run(capsys, "--help")
    assert code == 0 and err == ""
    assert out.startswith("usage: pipeline-opt")
    for word in ("--pipeline", "--emit", "-o FILE", "pingpong", "4wave", "single-buffer",
                 "lds_contention_penalty", "T=2"):
        assert word in out
    from pipeline_mlir.passes.catalogue import LLVM_STEP, PASS_NAMES

    for name in (*PASS_NAMES, LLVM_STEP):  # by name: --list-passes describes them
        assert name in out


# ---- errors -----------------------------------------------------------------------

@pytest.mark.parametrize("argv, fragment", [
    (["--pipeline=nope"], "unknown pipeline 'nope'"),
    (["--pipeline=4wave{BQ=1}"], "unknown option 'BQ'"),
    (["--pipeline=4wave{BM=64,BM=128}"], "option 'BM' given twice"),
    (["--pipeline=4wave{BM=big}"], "option 'BM' expects an integer"),
    (["--pipeline=4wave{BM=0}"], "option 'BM' is out of range"),
    (["--pipeline=4wave{BM=128"], "missing closing '}'"),
    (["--pipeline=4wave{dtype=fp8 BK=64}"], "pipeline '4wave': geometry"),
    (["--pipeline=4wave{scheduling=csp}"], "cannot be honoured"),
    (["--pipeline=single-buffer{scheduling=csp}"], "is a ScheduleConfig field"),
    (["--pipeline=pingpong{max_vgpr=10}"], "no order satisfies max_vgpr=10"),
    ([], "nothing to do: give --pipeline=NAME"),
    (["--pipeline=pingpong", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["--pipeline=pingpong", "--emit=bitcode"], "unknown --emit kind 'bitcode'"),
    (["--pipeline=pingpong", "-o"], "argument -o: expected one argument"),
    (["--pipeline=pingpong", "no-such-input.mlir"], "cannot read 'no-such-input.mlir'"),
    (["--pipeline=pingpong", "--pass-pipeline=builtin.module(cse)"],
     "--pipeline and --pass-pipeline cannot be combined"),
    (["--pipeline=pingpong", "--mcpu=gfx942"], "--mcpu=gfx942: unsupported processor"),
    (["--pipeline="], "empty pipeline spec"),
])
def test_errors_are_one_line(capsys, argv, fragment):
    assert_one_line_error(*run(capsys, *argv), fragment)


#: a 4-wave option that changes the schedule but no kernel (every 4-wave kernel waits for
#: lgkmcnt(0) where it would)
NO_KERNEL_EFFECT = "4wave{barrier_before_pre_ops=true}"


@pytest.mark.parametrize("argv", [
    [f"--pipeline={NO_KERNEL_EFFECT}", "--emit=mlir"],
    [f"--pipeline={NO_KERNEL_EFFECT}", "--emit=asm"],
    [f"--pipeline={NO_KERNEL_EFFECT}", "--emit=report"],
    [f"--pipeline={NO_KERNEL_EFFECT}", "--emulate=128,128,256"],
    [str(LIT_INPUTS / "natural-4wave.mlir"), f"--pipeline={NO_KERNEL_EFFECT}", "--emit=mlir"],
])
def test_an_option_no_kernel_shows_is_one_error_for_a_kernel(capsys, argv):
    assert_one_line_error(*run(capsys, *argv), "pipeline '4wave': option "
                          "'barrier_before_pre_ops=true' has no effect on the kernel: in the "
                          "4-wave blocks it only sets the entry wait")


def test_an_option_no_kernel_shows_is_printed_in_the_schedule(capsys):
    code, out, err = run(capsys, f"--pipeline={NO_KERNEL_EFFECT}", "--emit=schedule")
    assert code == 0 and err == ""
    assert out != run(capsys, "--pipeline=4wave", "--emit=schedule")[1]


def test_a_pingpong_kernel_fences_its_blocks_where_the_mask_says(capsys):
    """sched_barrier_mask changes the ping-pong kernel: its schedule barriers are the only
    fences between blocks (the default 0x55 fences the boundary after every other block of
    the loop; 0xff every one, like the lowering's own fences of a 4-wave kernel)."""
    def loop_fences(spec):
        code, out, err = run(capsys, f"--pipeline={spec}", "--emit=asm")
        assert code == 0, err
        body = out[out.index("Inner Loop Header"):]
        back = re.search(r"s_cbranch_(?:vccnz|scc[01])", body)
        return body[:back.start()].count("; sched_barrier")
    none, default, every = (loop_fences(f"pingpong{{sched_barrier_mask={m}}}")
                            for m in ("0", "0x55", "0xff"))
    assert none < default < every


@pytest.mark.parametrize("kind", ["llvm", "asm", "obj", "hsaco"])
def test_code_emit_kinds_need_a_kernel(capsys, tmp_path, kind):
    """The abstract form has no payload ops: there is nothing for LLVM to compile."""
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    code, abstract, _ = run(capsys, str(empty),
                            "--pass-pipeline=builtin.module(sched-import{schedule=4wave})")
    assert code == 0 and '"sched.pipeline"' in abstract
    src = tmp_path / "abstract.mlir"
    src.write_text(abstract)
    code, out, err = run(capsys, str(src), "--pipeline=4wave", f"--emit={kind}", "-o",
                         str(tmp_path / "out"))
    assert code == 1 and out == "" and "Traceback" not in err
    assert "nothing to compile for the GPU: no 'gpu.module'" in err, err
    # without an input, single-buffer has no complete kernel to build
    code, out, err = run(capsys, "--pipeline=single-buffer", f"--emit={kind}", "-o",
                         str(tmp_path / "out"))
    assert code == 1 and out == "" and "Traceback" not in err
    assert "builds a complete GEMM kernel, which exists for 4wave and pingpong" in err, err


def test_unwritable_output(tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "dir" / "out.txt"
    assert_one_line_error(*run(capsys, "--pipeline=pingpong", "-o", str(missing)),
                          f"cannot write '{missing}'")
    assert_one_line_error(*run(capsys, "--pipeline=pingpong", "-o", str(tmp_path)),
                          "cannot write")


def test_failed_compile_writes_no_output_file(tmp_path, capsys):
    dest = tmp_path / "out.txt"
    code, _, _ = run(capsys, "--pipeline=pingpong{max_vgpr=10}", "-o", str(dest))
    assert code == 1 and not dest.exists()


# ---- as a separate process -----------------------------------------------------------

def _command() -> tuple[list[str], dict]:
    """pipeline-opt as a separate process, with this checkout importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return [sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt"], env


def test_subprocess_error_exit_status_and_no_traceback():
    cmd, env = _command()
    p = subprocess.run(cmd + ["--pipeline=4wave{BM=nope}"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 1
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert p.stderr == ("pipeline-opt: error: pipeline '4wave': option 'BM' expects an "
                        "integer >= 1, got 'nope'\n")
    p = subprocess.run(cmd + ["--emit=schedule"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("pipeline-opt: error: ")


def test_subprocess_golden():
    cmd, env = _command()
    p = subprocess.run(cmd + [f"--pipeline={REFERENCE_PINGPONG}", "--emit=schedule"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == golden("pingpong_bf16_l2_2.txt")


# ---- --launch: the host contract of the complete kernels ---------------------------------

def test_launch_prints_the_launch_configuration(capsys):
    code, out, err = run(capsys, "--pipeline=pingpong", "--launch=512,768,256")
    assert code == 0 and err == ""
    assert "kernel            gemm_pingpong_bf16_256x256x64" in out
    assert "grid              6 x 1 x 1 workgroups" in out
    assert "workgroup         512 x 1 x 1 threads" in out
    assert "main-loop trips   1" in out and "  136  8  K" in out


@pytest.mark.parametrize("argv,fragment", [
    (["--pipeline=4wave", "--launch=128,128,192"], "K = 192 is not a multiple of 2*BK = 128"),
    (["--pipeline=4wave", "--launch=128,128,64"], "K = 64 is too small"),
    (["--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}", "--launch=96,64,256"],
     "M = 96 is not a multiple of the tile BM = 64"),
    (["--pipeline=4wave", "--launch=1,2"], "--launch=1,2: expected three integers M,N,K"),
    (["--pipeline=4wave", "--launch=a,b,c"], "expected three integers"),
    (["--pipeline=single-buffer", "--launch=128,128,128"], "no complete GEMM kernel"),
    (["--launch=128,128,128"], "nothing to do: give --pipeline=NAME"),
    (["--pass-pipeline=builtin.module(cse)", "--launch=128,128,128"],
     "checks a problem size for the kernel of --pipeline"),
])
def test_launch_rejects(capsys, argv, fragment):
    assert_one_line_error(*run(capsys, *argv), fragment)


@pytest.mark.parametrize("argv,fragment", [
    (["--pipeline=4wave", "--no-isa-check"], "it goes with --emit=asm, obj or hsaco (or "
                                             "--emulate), not --emit=schedule"),
    (["--pipeline=4wave", "--emit=report", "--no-isa-check"], "not --emit=report"),
    (["--pipeline=4wave", "--no-isa-check", "--launch=128,128,128"],
     "(not --launch or --tune)"),
    (["--pipeline=4wave", "--no-isa-check", "--simulate"],
     "--simulate cannot be combined with --no-isa-check"),
])
def test_no_isa_check_goes_with_a_code_build(capsys, argv, fragment):
    """``--no-isa-check`` turns off the ISA check of a code build: anywhere else it would
    be ignored, so it is a usage error."""
    assert_one_line_error(*run(capsys, *argv), fragment)


@pytest.mark.parametrize("argv,fragment", [
    (["--pipeline=4wave", "--launch=1_28,128,128"], "--launch=1_28,128,128: expected three"),
    (["--pipeline=4wave", "--launch=\uff11\uff12\uff18,128,128"], "expected three integers"),
    (["--pipeline=4wave", "--launch= 128,128,128"], "expected three integers"),
    (["--pipeline=4wave", "--simulate", "--sim-iterations=1_0"],
     "argument --sim-iterations: expected an integer, got '1_0'"),
    (["--pipeline=4wave", "--emulate=128,128,256", "--emulate-workgroups=\uff11"],
     "argument --emulate-workgroups: expected an integer"),
    (["--pipeline=4wave", "--mlir-elide-elementsattrs-if-larger=1_0"], "expected a count >= 0"),
    (["--pipeline=4wave", "--tune", "--tune-budget=1_0"], "--tune-budget=1_0: must be a number"),
    (["--pipeline=4wave", "--emit=asm", "--codegen-timeout=1_0"],
     "--codegen-timeout=1_0: expected a number of seconds above 0"),
])
def test_numbers_on_the_command_line_are_ascii_decimal(capsys, argv, fragment):
    """Python's int and float also take digit groups (1_28), other scripts' digits and
    spaces around; the command line's numbers are ASCII decimal, as the specs' are."""
    assert_one_line_error(*run(capsys, *argv), fragment)


def test_readme_example_key_builds_a_code_object(capsys, tmp_path):
    """pingpong{lds_contention_penalty=4}: its CSP order needs cross-warp-group fixes
    (sched-fix-hazards inserts them) and the kernel builds."""
    out_file = tmp_path / "k.hsaco"
    code, out, err = run(capsys, "--pipeline=pingpong{lds_contention_penalty=4}",
                         "--emit=hsaco", "-o", str(out_file))
    assert (code, err) == (0, "")
    assert out_file.read_bytes()[:4] == b"\x7fELF"


#: a kernel whose LDS LLVM refuses (200000 bytes, over the 163840 of a gfx950 workgroup)
TOO_MUCH_LDS = """\
module {
  llvm.mlir.global internal @big() {addr_space = 3 : i32} : !llvm.array<50000 x f32>
  llvm.func @too_much_lds(%out: !llvm.ptr<1>) attributes {rocdl.kernel,
      gpu.known_block_size = array<i32: 256, 1, 1>} {
    %lds = llvm.mlir.addressof @big : !llvm.ptr<3>
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %i = rocdl.workitem.id.x : i32
    %p = llvm.getelementptr %lds[0, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<50000 x f32>
    llvm.store %one, %p : f32, !llvm.ptr<3>
    rocdl.s.barrier
    %q = llvm.getelementptr %lds[0, 7] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<50000 x f32>
    %v = llvm.load %q : !llvm.ptr<3> -> f32
    %o = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %v, %o : f32, !llvm.ptr<1>
    llvm.return
  }
}
"""


def test_an_llvm_error_is_located_at_its_function(capsys, tmp_path):
    """LLVM's error about a function (here its LDS) is one error at that function's line,
    with LLVM's words and no ``error: error: <unknown>:0:0:``."""
    src = tmp_path / "lds.mlir"
    src.write_text(TOO_MUCH_LDS)
    code, out, err = run(capsys, str(src), "--pass-pipeline=builtin.module()", "--emit=asm")
    assert code == 1 and out == "" and err.count("error:") == 1, err
    assert err.startswith(f"{src}:3:3: error: LLVM: local memory (200000) exceeds limit "
                          f"(163840) in function 'too_much_lds'\n"), err


def test_an_llvm_error_naming_no_function_of_the_module_stays_unlocated():
    """The function LLVM names is looked up in the module: found, the error is at its line;
    not found (or none named), LLVM's error is reported as it is."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.emit import located_llvm_error
    from pipeline_mlir.isa.codegen import CodegenError

    with new_context() as ctx:
        module = ir.Module.parse(TOO_MUCH_LDS, ctx)
        for text in ("LLVM: local memory (1) exceeds limit (0) in function 'other'",
                     "LLVM ERROR: Cannot select: x"):
            err = CodegenError(text)
            assert located_llvm_error(err, module, "x.mlir") is err
        hit = located_llvm_error(CodegenError("LLVM: local memory (1) exceeds limit (0) in "
                                              "function 'too_much_lds'"), module, "x.mlir")
    assert isinstance(hit, Failure)
    assert [(d.file, d.line, d.col) for d in hit.diags] == [("x.mlir", 3, 3)]


BAD_INTRINSIC = """\
module {
  llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %0 = llvm.mlir.constant(1 : i32) : i32
    llvm.call_intrinsic "llvm.amdgcn.s.setprio"(%0) : (i32) -> ()
    llvm.return
  }
}
"""


@pytest.mark.parametrize("emit", ["llvm", "asm"])
def test_an_untranslatable_llvm_op_is_one_error_at_the_op(capsys, tmp_path, emit):
    """MLIR's translation kills the process on an op it cannot take (the first check of the
    translation cannot foresee a mistyped intrinsic call); after a --pass-pipeline it runs in
    a child: one error at the op (MLIR's second, 'LLVM Translation failed', is dropped)."""
    src, out = tmp_path / "bad.mlir", tmp_path / "bad.out"
    src.write_text(BAD_INTRINSIC)
    code, _, err = run(capsys, str(src), "--pass-pipeline=builtin.module(cse)",
                       f"--emit={emit}", "-o", str(out))
    assert code == 1 and err.count("error:") == 1 and "Traceback" not in err, err
    assert err.startswith(f'{src}:4:5: error: intrinsic call operand #0 has type i32 but '
                          f'"llvm.amdgcn.s.setprio" expects i16\n'), err
    assert not out.exists()


def test_a_kernel_returning_a_value_is_an_error_at_it_in_the_input(capsys, tmp_path):
    """The checks before the translation name the input file and line (not the ``-`` of a
    module parsed from text)."""
    src = tmp_path / "ret.mlir"
    src.write_text(BAD_INTRINSIC.replace("llvm.func @k()", "llvm.func @k() -> i32").replace(
        "    llvm.return\n", "    llvm.return %0 : i32\n"))
    code, out, err = run(capsys, str(src), "--pass-pipeline=builtin.module(cse)", "--emit=llvm")
    assert (code, out, err.count("error:")) == (1, "", 1), err
    assert err.startswith(f"{src}:2:3: error: kernel 'k' must return void\n"), err
