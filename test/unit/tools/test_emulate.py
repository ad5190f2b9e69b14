"""``pipeline-opt --emulate``: builds and runs the kernel, runs a given code object or assembly,
exit status 0 only when exact and clean, one-line errors otherwise."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli_shared, with_stdin
from kernel_builds import build
from steady_loop import assert_short, assert_steady, counting_loops

IREE_DATA = Path(__file__).parents[2] / "data" / "iree"
sys.path.insert(0, str(IREE_DATA))
import dynamic as D  # noqa: E402

SPEC = "4wave{dtype=fp8 BM=64 BN=64 BK=128}"
#: why an item runs the shipped kernels below two iterations of their loop (steady_loop)
SHIPPED = "test_kernels.py goes round the shipped kernels' loops, 0 to 4 times"


run = run_cli_shared  # each kernel built once per run


def test_builds_and_runs_the_complete_kernel(capsys):
    with counting_loops() as loops:         # 6 K tiles: the main loop twice
        rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,768")
    assert rc == 0 and err == ""
    assert_steady(loops)
    assert re.match(r"gemm_4wave_fp8_64x64x128 M=128 N=128 K=768 mode=eager: exact, max error 0, "
                    r"4 workgroups x 4 waves, \d+ instructions in [\d.]+ s", out)


def test_a_pingpong_kernel_without_block_fences_is_exact(capsys):
    """sched_barrier_mask=0 leaves every block boundary of the ping-pong kernel to LLVM's
    scheduler (its waits stay fenced): the loads still meet the exact wait counts."""
    with counting_loops() as loops:
        rc, out, err = run(capsys, "--pipeline=pingpong{sched_barrier_mask=0}",
                           "--emulate=256,256,512", "--emulate-mode=late")
    assert rc == 0 and err == "" and "mode=late: exact, max error 0" in out
    assert_steady(loops)


@pytest.mark.parametrize("dtype, tile", [("f16", "256x256x64"), ("i8", "256x256x128")])
def test_a_pingpong_kernel_of_another_element_type_is_exact(dtype, tile, capsys):
    """``pingpong{dtype=...}``: the complete kernel of that element type's geometry (6 K
    tiles: the main loop twice)."""
    k = 768 if dtype == "i8" else 512
    with counting_loops() as loops:
        rc, out, err = run(capsys, f"--pipeline=pingpong{{dtype={dtype}}}",
                           f"--emulate=256,256,{k}", "--emulate-mode=late")
    assert rc == 0 and err == "", out + err
    assert out.startswith(f"gemm_pingpong_{dtype}_{tile} M=256 N=256 K={k} mode=late: exact, "
                          f"max error 0"), out
    assert_steady(loops)


def test_a_few_workgroups_spread_over_the_grid(capsys):
    with counting_loops() as loops:
        rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=256,128,512",
                           "--emulate-workgroups=2")
    assert rc == 0 and err == "" and ": exact, max error 0, 2 of 8 workgroups x 4 waves, " in out
    assert_short(loops, 1, SHIPPED)


def test_a_gemm_code_object_needs_the_pipeline_it_was_built_with(capsys, tmp_path):
    (tmp_path / "k.hsaco").write_bytes(build("4wave-fp8-64").hsaco)
    rc, out, err = run(capsys, "--emulate=128,128,256", str(tmp_path / "k.hsaco"))
    assert rc == 1 and "holds a GEMM kernel of pipeline-mlir" in err and \
        "needs the --pipeline=NAME{...} it was built with" in err


@pytest.mark.parametrize("mode", ["late", "random:7"])
def test_runs_a_code_object_and_assembly_in_each_mode(capsys, tmp_path, mode):
    b = build("4wave-fp8-64")
    (tmp_path / "k.hsaco").write_bytes(b.hsaco)
    (tmp_path / "k.s").write_text(b.asm)
    for name in ("k.hsaco", "k.s"):
        with counting_loops() as loops:
            rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                               str(tmp_path / name), f"--emulate-mode={mode}")
        assert rc == 0 and f"mode={mode.split(':')[0]}: exact" in out
        assert_short(loops, 0, SHIPPED)


def test_a_racy_kernel_exits_1_with_the_finding(capsys, tmp_path):
    lines = build("4wave-fp8-64").asm.split("\n")
    i = next(k for k, ln in enumerate(lines) if "Inner Loop Header" in ln)
    j = next(k for k in range(i, len(lines)) if lines[k].strip() == "s_barrier")
    (tmp_path / "bad.s").write_text("\n".join(lines[:j] + lines[j + 1:]))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,512",
                       str(tmp_path / "bad.s"))
    assert rc == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.match(rf"{re.escape(str(tmp_path / 'bad.s'))}: error: lds-race: wave \d of "
                    r"workgroups 0,1,2,3, 0x[0-9a-f]{4} 'ds_read_b128 [^']*': LDS read of address \d+ "
                    r"races the write",
                    err)


def test_a_global_race_exits_1_with_the_finding(capsys, tmp_path):
    """The first C store's lanes all store to one address (``offen`` dropped)."""
    lines = build("4wave-fp8-64").asm.split("\n")
    i = next(k for k, ln in enumerate(lines) if "buffer_store_dword" in ln)
    lines[i] = re.sub(r"(buffer_store_dword \S+, )\S+(, s\[\d+:\d+\], \S+) offen", r"\1off\2",
                      lines[i])
    (tmp_path / "bad.s").write_text("\n".join(lines))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,512",
                       str(tmp_path / "bad.s"))
    assert rc == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert re.match(rf"{re.escape(str(tmp_path / 'bad.s'))}: error: global-race: wave \d of "
                    r"workgroups 0,1,2,3, 0x[0-9a-f]{4} 'buffer_store_dword \w+, off, [^']*': "
                    r"global write of buffer C byte 0 \(address 0x[0-9a-f]+\) within this one "
                    r"store: lanes 0 and 1 of workgroup 0 store different values", err), err


def test_a_wrong_result_exits_1(capsys, tmp_path):
    lines = build("4wave-fp8-64").asm.split("\n")
    i = next(k for k, ln in enumerate(lines) if "v_mfma" in ln)
    lines[i] = re.sub(r"(v_mfma\w+ \S+, )(\S+), (\S+),", r"\1\3, \2,", lines[i])
    (tmp_path / "swap.s").write_text("\n".join(lines))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,512",
                       str(tmp_path / "swap.s"))
    assert rc == 1 and "exact" not in out
    assert re.search(r"error: C differs from the reference: C\[\d+\]\[\d+\] = \S+, expected "
                     r"\S+ \(max error \S+\)", err)


@pytest.mark.parametrize("argv,message", [
    (["--emulate=1,2,3"], "--emulate needs --pipeline"),
    ([f"--pipeline={SPEC}", "--emulate"], "the GEMM kernel of --pipeline takes its sizes at "
                                          "launch: give --emulate=M,N,K"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-workgroups=0"],
     "--emulate-workgroups=0: run at least one workgroup"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-workgroups=5"],
     "--emulate-workgroups=5: 5 workgroups asked for, the grid has 4"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-workgroups=-1"],
     "--emulate-workgroups=-1: run at least one workgroup"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-workgroups=abc"],
     "argument --emulate-workgroups: expected an integer, got 'abc'"),
    ([f"--pipeline={SPEC}", "--emulate-workgroups=2"], "--emulate-workgroups goes with --emulate"),
    ([f"--pipeline={SPEC}", "--emulate", "128,128"], "--emulate=128,128: expected three integers"),
    ([f"--pipeline={SPEC}", "--emulate=0,128,256"], "--emulate=0,128,256: M = 0; the sizes are "
                                                     "positive"),
    (["--emulate=128,-128,256", "/nonexistent/k.hsaco"], "--emulate=128,-128,256: N = -128; "
                                                        "the sizes are positive"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,-32"], "--emulate=128,128,-32: K = -32; K is "
                                                       "0 or more"),
    # K = 0 parses; the project's kernel itself takes no launch without K tiles
    ([f"--pipeline={SPEC}", "--emulate=128,128,0"], "gemm_4wave_fp8_64x64x128: K must be a "
                                                    "positive integer, got 0"),
    (["--emulate", "/nonexistent/k.mlir"], "cannot read"),
    ([f"--pipeline={SPEC}", "--emulate=128,128"], "expected three integers M,N,K"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-mode=fast"],
     "choose eager, late or random"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-mode=random:x"],
     "the seed must be an integer"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emulate-mode=random:\uff11"],
     "the seed must be an integer"),
    ([f"--pipeline={SPEC}", "--emulate-mode=late"], "--emulate-mode goes with --emulate"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "--emit=asm"],
     "--emulate cannot be combined with --emit"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,384"], "K = 384 is not a multiple of 2*BK"),
    (["--pipeline=single-buffer", "--emulate=128,128,256"], "exists for 4wave and pingpong"),
    ([f"--pipeline={SPEC}", "--emulate=128,128,256", "/nonexistent/k.hsaco"], "cannot read"),
])
def test_usage_errors(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 1 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_launch_without_k_tiles_runs_where_the_kernel_takes_it(tmp_path, capsys):
    """``--emulate=M,N,0`` on IREE's dispatch with K known at launch: its guards skip the
    pipelined loop and the remainder, and C is 0 (``test/data/iree/dynamic.py``)."""
    src = tmp_path / "k.mlir"
    src.write_text(D.dynamic_k_late((IREE_DATA / "matmul_bf16_abt_4096.late.mlir").read_text()))
    with counting_loops() as loops:
        rc, out, err = run(capsys, "--pipeline=4wave", "--emulate=4096,4096,0",
                           "--emulate-workgroups=2", "--emulate-mode=late", str(src))
    assert rc == 0 and err == "", err
    assert_short(loops, 0, "K = 0: the guards' path")
    assert "M=4096 N=4096 K=0 mode=late: exact, max error 0, 2 of 1024 workgroups" in out, out


def test_an_error_of_the_built_kernel_names_it(capsys):
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       "--emulate-workgroups=5")
    assert rc == 1 and err.startswith(f"<gemm kernel of {SPEC}>: error: --emulate-workgroups=5")


def test_an_empty_mlir_file_is_refused_as_mlir(capsys, tmp_path):
    (tmp_path / "k.mlir").write_text("")
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate", str(tmp_path / "k.mlir"))
    assert rc == 1 and out == "" and "--emulate: the input has no kernel to launch" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_code_object_of_another_kernel_is_refused(capsys, tmp_path):
    (tmp_path / "k.hsaco").write_bytes(build("4wave-bf16").hsaco)
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "k.hsaco"))
    assert rc == 1 and "declares 65536 bytes of LDS" in err


def test_binary_garbage_is_refused(capsys, tmp_path):
    (tmp_path / "x.bin").write_bytes(b"\x00\xff\xfe\x80")
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "x.bin"))
    assert rc == 1 and "neither a code object" in err


@pytest.mark.parametrize("text", ["module {\n  func.func @f() {\n    return\n  }\n}\n",
                                  '"builtin.module"() ({\n^bb0:\n}) : () -> ()\n'])
def test_an_mlir_file_without_a_dispatch_is_refused_with_what_it_takes(capsys, tmp_path, text):
    """MLIR is not run as if it were assembly text: it must be a matmul dispatch."""
    (tmp_path / "k.mlir").write_text(text)
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "k.mlir"))
    assert rc == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"{tmp_path / 'k.mlir'}:1:1: error: --emulate: the input has no "
                          f"kernel to launch: a matmul dispatch is a func.func with "
                          f"hal.interface.binding.subspan bindings"), err


def test_progress_counts_the_workgroups_run():
    """What --emulate shows on a terminal: workgroups done / total, as batches finish."""
    from pipeline_mlir.driver import CompileOptions
    from pipeline_mlir.driver.emulate import EmulateOptions, emulate

    seen = []
    with counting_loops() as loops:
        result = emulate(EmulateOptions(CompileOptions(schedule=SPEC), (256, 128, 512),
                                        progress=lambda done, total: seen.append((done, total))))
    assert result.problem is None and "exact" in result.summary
    assert_short(loops, 1, SHIPPED)
    assert seen and seen[-1] == (8, 8)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})      # increasing


@pytest.mark.parametrize("source", [
    {}, {"input": str(IREE_DATA / "matmul_bf16_abt_4096.prefetch.mlir")}],
    ids=["kernel", "dispatch"])
def test_a_spec_that_does_not_parse_is_the_results_diagnostic(source):
    """emulate() raised the core's ConfigError for the GEMM kernel of a spec that does not
    parse (only the command line made it an error line): it is the result's one error, as
    compile() gives it, and nothing runs (milliseconds)."""
    from pipeline_mlir.driver import CompileOptions
    from pipeline_mlir.driver.emulate import EmulateOptions, emulate

    result = emulate(EmulateOptions(CompileOptions(schedule="4wave{bogus=1}", **source),
                                    None if source else (256, 128, 512)))
    assert (result.summary, result.problem) == ("", None)
    (d,) = result.diagnostics
    assert (d.severity, d.location()) == ("error", None)
    assert d.message.startswith("pipeline '4wave': unknown option 'bogus'; valid keys:")


def test_an_assembly_register_the_machine_has_not_is_an_error_naming_the_line(capsys, tmp_path):
    lines = build("4wave-fp8-64").asm.split("\n")
    i = next(k for k, ln in enumerate(lines) if re.match(r"\s+v_\w+ v1, ", ln))
    lines[i] = lines[i].replace(" v1, ", " v999, ", 1)
    (tmp_path / "k.s").write_text("\n".join(lines))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "k.s"))
    assert rc == 1 and out == "" and "internal error" not in err
    assert err.startswith(f"{tmp_path / 'k.s'}: error: line {i + 1}: register 'v999' does not "
                          f"exist: the gfx950 registers of its file are v0..v255 (in "), err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("mach,name", [(0x4C, "gfx942"), (0x3F, "gfx90a"),
                                       (0x00, "no processor (EF_AMDGPU_MACH_NONE)"),
                                       (0x99, "processor 0x99 (EF_AMDGPU_MACH)")])
def test_a_code_object_for_another_processor_is_refused(capsys, tmp_path, mach, name):
    data = bytearray(build("4wave-fp8-64").hsaco)
    assert data[48] == 0x4F                  # e_flags (ELF64 header offset 48): gfx950
    data[48] = mach
    (tmp_path / "k.hsaco").write_bytes(bytes(data))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "k.hsaco"))
    assert rc == 1 and out == "" and "exact" not in err
    assert f"error: the code object's ELF header (e_flags) says the kernel is for {name}; " \
           f"the emulator models gfx950 only" in err, err


def test_assembly_for_another_processor_is_refused(capsys, tmp_path):
    text = build("4wave-fp8-64").asm
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx950"' in text
    lines = text.replace("--gfx950\"", "--gfx942:sramecc+:xnack-\"").split("\n")
    i = next(k for k, ln in enumerate(lines) if ".amdgcn_target" in ln)
    (tmp_path / "k.s").write_text("\n".join(lines))
    rc, out, err = run(capsys, f"--pipeline={SPEC}", "--emulate=128,128,256",
                       str(tmp_path / "k.s"))
    assert rc == 1 and out == ""
    assert f"error: line {i + 1}: .amdgcn_target says the kernel is for gfx942; the emulator " \
           f"models gfx950 only" in err, err


LAUNCH = "examples/launch/gemm_4wave_bf16.toml"
LAUNCH_SPEC = "4wave{dtype=bf16 BM=128 BN=128 BK=64}"


def test_a_launch_description_runs_the_built_kernel(capsys):
    with counting_loops() as loops:
        rc, out, err = run(capsys, f"--pipeline={LAUNCH_SPEC}", "--emulate",
                           f"--emulate-launch={LAUNCH}", "--emulate-strict")
    assert rc == 0 and err == ""
    assert_short(loops, 0, SHIPPED)
    assert re.match(r"gemm_4wave_bf16_128x128x64 as examples/launch/gemm_4wave_bf16\.toml says, "
                    r"mode=eager: exact, max error 0 in C \(65536 elements\), 4 workgroups", out)


def test_a_bad_launch_description_is_one_located_error(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    with open(LAUNCH) as f:
        path.write_text(f.read().replace('dtype = "f32"', 'dtype = "f31"'))
    obj = tmp_path / "k.hsaco"
    obj.write_bytes(build("4wave-bf16").hsaco)
    rc, out, err = run(capsys, "--emulate", str(obj), f"--emulate-launch={path}")
    assert rc == 1 and out == ""
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+: error: arg\[2\]\.dtype: must be one of "
                        r"f32, .*, got 'f31'\n", err)


def test_a_launch_description_on_standard_input(capsys, monkeypatch, tmp_path):
    """``--emulate-launch=-`` reads standard input (named ``<stdin>``), as ``-`` does
    everywhere in the command line; a bad one is one located error there."""
    with open(LAUNCH) as f:
        with_stdin(monkeypatch, f.read().replace('dtype = "f32"', 'dtype = "f31"').encode())
    obj = tmp_path / "k.hsaco"
    obj.write_bytes(build("4wave-bf16").hsaco)
    rc, out, err = run(capsys, "--emulate", str(obj), "--emulate-launch=-")
    assert rc == 1 and out == ""
    assert re.fullmatch(r"<stdin>:\d+: error: arg\[2\]\.dtype: must be one of "
                        r"f32, .*, got 'f31'\n", err)
    with_stdin(monkeypatch, b"\xff")
    rc, out, err = run(capsys, "--emulate", str(obj), "--emulate-launch=-")
    assert rc == 1 and "<stdin>:1:1: byte 0xff is not UTF-8 text: --emulate-launch reads" in err


def test_the_input_on_standard_input(capsys, monkeypatch):
    """Standard input is ``<stdin>`` in every message that names the input: text that is
    not UTF-8, and a code object that needs ``--pipeline`` (IREE's code objects:
    ``test_iree_emulate.py``)."""
    with_stdin(monkeypatch, b"\xff")
    rc, out, err = run(capsys, "--emulate", "-")
    assert rc == 1 and out == "" and "<stdin>:1:1: byte 0xff is not UTF-8 text" in err
    with_stdin(monkeypatch, build("4wave-fp8-64").hsaco)
    rc, out, err = run(capsys, "--emulate=128,128,256", "-")
    assert rc == 1 and out == "" and "'<stdin>' holds a GEMM kernel of pipeline-mlir" in err, err


@pytest.mark.parametrize("argv,message", [
    (["--emulate", "-", "--emulate-launch=-"],
     "--emulate-launch=- and INPUT - cannot both be standard input"),
    (["--pipeline=4wave", f"--emulate-launch={LAUNCH}"], "--emulate-launch goes with --emulate"),
    (["--pipeline=4wave", "--emulate-strict"], "--emulate-strict goes with --emulate"),
    (["--pipeline=4wave", "--emulate=256,256,128", f"--emulate-launch={LAUNCH}"],
     "--emulate=256,256,128 with --emulate-launch: the launch description gives the sizes"),
])
def test_launch_usage_errors(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 1 and message in err
