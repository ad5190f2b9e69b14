"""``pipeline-opt`` under the conditions users meet outside the happy path: empty and piped
input, -o written whole or not at all, a closed stdout, Ctrl-C, SIGTERM while linking, a
worker that cannot start, and the command-line spellings of mlir-opt."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cli_helpers import one_error, run_cli as run
from pipeline_mlir.isa import codegen
from pipeline_mlir.isa.codegen import CodegenError
from pipeline_mlir.isa.worker import LAUNCHER_ENV
from pipeline_mlir.driver import printing
from pipeline_mlir.tools import output, pipeline_opt
from pipeline_mlir.tools.pipeline_opt import main

HERE = Path(__file__).resolve().parents[1]
ROOT = HERE.parents[1]
DUMPS = HERE.parents[0] / "lit" / "simulate" / "Inputs"
TOOL = [sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt"]
ABSTRACT = '''"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
'''


# ---- empty input, stdin ------------------------------------------------------------------

@pytest.mark.parametrize("content", ["", "\n// only a comment\n", "module {\n}\n"])
def test_an_empty_input_is_an_error_not_the_default_body(capsys, tmp_path, content):
    src = tmp_path / "in.mlir"
    src.write_text(content)
    for emit in ("schedule", "mlir"):
        code, out, err = run(capsys, str(src), "--pipeline=pingpong", f"--emit={emit}")
        one_error(code, err, f"{src}: error: the input has no operations: nothing to pipeline")
        assert out == ""


def test_dev_null_is_an_empty_input(capsys):
    code, out, err = run(capsys, os.devnull, "--pipeline=4wave")
    one_error(code, err, "the input has no operations")
    assert out == ""


def test_an_empty_input_without_passes_is_an_empty_module(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text("")
    code, out, _ = run(capsys, str(src))
    assert (code, out) == (0, "module {\n}\n")


def _default_body(spec: str) -> str:
    p = subprocess.run(TOOL + [f"--pipeline={spec}"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.startswith("WARP_STAGGER_INDEX"), p.stderr
    return p.stdout


def test_piped_stdin_with_pipeline_and_no_file_is_not_an_input():
    """As ``mlir-opt FILE`` never reads stdin: without an input file --pipeline builds the
    default body, whatever standard input holds (it is left unread)."""
    p = subprocess.run(TOOL + ["--pipeline=pingpong"], input=ABSTRACT, capture_output=True,
                       text=True, timeout=120)
    assert (p.returncode, p.stdout, p.stderr) == (0, _default_body("pingpong"), "")


def test_stdin_redirected_from_a_file_is_not_an_input_either(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(ABSTRACT)
    with open(src) as f:
        p = subprocess.run(TOOL + ["--pipeline=single-buffer{T=1}"], stdin=f,
                           capture_output=True, text=True, timeout=120)
        assert f.tell() == 0                                 # not read
    assert (p.returncode, p.stdout, p.stderr) == (0, _default_body("single-buffer{T=1}"), "")


@pytest.mark.skipif(not os.path.exists("/bin/sh"), reason="needs a POSIX shell")
def test_a_shell_loop_over_specs_reads_each_line_once(tmp_path):
    """``while read s; do pipeline-opt --pipeline="$s" --emit=schedule; done < specs.txt``:
    each spec's schedule, one after the other (the tool never eats the loop's input)."""
    specs = ["single-buffer{T=1}", "4wave", "pingpong{lds_contention_penalty=4}"]
    (tmp_path / "specs.txt").write_text("".join(s + "\n" for s in specs))
    tool = " ".join(shlex.quote(c) for c in TOOL)
    script = f'while read s; do {tool} --pipeline="$s" --emit=schedule; done < specs.txt'
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    p = subprocess.run(["/bin/sh", "-c", script], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600, env=env)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == "".join(_default_body(s) for s in specs)


def test_empty_or_closed_stdin_keeps_the_default_body():
    for stdin in (subprocess.DEVNULL, None):
        kw = {"stdin": stdin} if stdin is not None else {"input": ""}
        p = subprocess.run(TOOL + ["--pipeline=single-buffer{T=1}"], capture_output=True,
                           text=True, timeout=120, **kw)
        assert p.returncode == 0 and p.stdout.startswith("WARP_STAGGER_INDEX"), p.stderr


def test_dash_reads_stdin_with_a_pipeline():
    p = subprocess.run(TOOL + ["-", "--pipeline=single-buffer{T=1}", "--emit=schedule"],
                       input=ABSTRACT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "KERNEL (" in p.stdout, p.stderr


# ---- input text: UTF-8, nesting --------------------------------------------------------------

def test_an_input_that_is_not_utf8_is_one_located_error(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_bytes(b"// \xc3\xa9 is UTF-8\n\n  caf\xe9\n")
    code, out, err = run(capsys, str(src), "--pipeline=4wave")
    one_error(code, err, f"{src}:3:6: error: byte 0xe9 is not UTF-8 text")
    assert out == "" and "internal error" not in err


@pytest.mark.parametrize("argv, fragment", [
    (["--pipeline=4wave", "--simulate"], "--simulate reads a schedule dump or assembly"),
    (["--emulate=128,128,256"], "the input is neither a code object (ELF) nor text"),
], ids=["simulate", "emulate"])
def test_a_non_utf8_file_to_simulate_or_emulate_is_located(capsys, tmp_path, argv, fragment):
    """--simulate and --emulate read their own files: the first bad byte is located too."""
    src = tmp_path / "k.s"
    src.write_bytes(b"\t.text\n; caf\xe9\n")
    code, out, err = run(capsys, *argv, str(src))
    one_error(code, err, f"{src}:2:6: byte 0xe9 is not UTF-8 text: {fragment}")
    assert out == ""


@pytest.mark.parametrize("argv", [["--pipeline=4wave"], ["--pass-pipeline=builtin.module()"]])
def test_a_byte_order_mark_is_named(capsys, tmp_path, argv):
    """MLIR's parser says only 'unexpected character' at a UTF-8 byte order mark."""
    src = tmp_path / "in.mlir"
    src.write_bytes(b"\xef\xbb\xbf" + ABSTRACT.encode())
    code, out, err = run(capsys, str(src), *argv)
    one_error(code, err, f"{src}:1:1: error: the input starts with a byte order mark (U+FEFF")
    assert out == ""


def test_non_utf8_bytes_on_stdin_are_one_located_error():
    p = subprocess.run(TOOL + ["--pipeline=4wave", "-"], input=b"caf\xe9",
                       capture_output=True, timeout=120)
    err = p.stderr.decode()
    one_error(p.returncode, err, "<stdin>:1:4: error: byte 0xe9 is not UTF-8 text")
    assert p.stdout == b"" and "internal error" not in err


def test_crlf_input_reads_as_text_mode_did(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_bytes(ABSTRACT.replace("\n", "\r\n").encode())
    code, out, err = run(capsys, str(src), "--pass-pipeline=builtin.module(sched-annotate)")
    assert code == 0 and "\r" not in out, err


def test_nesting_is_counted_outside_strings_and_comments():
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.inputs import MAX_NESTING, check_nesting

    deep = MAX_NESTING + 1
    check_nesting('"x"() {s = "' + "{" * 1000 + '"} : () -> ()\n// ' + "(" * 1000, "f")
    check_nesting("%0 = f(%a) : (i32) -> i32 // a -> b >= c\n" * 1000, "f")
    check_nesting("[" * MAX_NESTING + "]" * MAX_NESTING, "f")
    with pytest.raises(Failure) as e:
        check_nesting("\n\n" + "vector<" * deep + ">" * deep, "f.mlir", line_offset=10)
    (d,) = e.value.diags
    assert (d.file, d.line, d.col) == ("f.mlir", 13, 7 * MAX_NESTING + 7)
    assert f"nests {deep} levels deep" in d.message and f"at most {MAX_NESTING}" in d.message


def test_a_deep_split_chunk_is_refused_at_its_line(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(ABSTRACT + "// -----\n" + "module {\n" * 300 + "}\n" * 300)
    code, out, err = run(capsys, str(src), "--split-input-file",
                         "--pass-pipeline=builtin.module(sched-annotate)")
    one_error(code, err, f"{src}:261:8: error: the input nests 300 levels deep")
    assert 'state = "annotated"' in out     # the first chunk is compiled


# ---- integers beyond 64 bits ------------------------------------------------------------

@pytest.mark.parametrize("emit", ["schedule", "mlir"])
def test_an_integer_beyond_64_bits_in_a_spec_is_an_error_on_every_path(capsys, emit):
    code, out, err = run(capsys, "--pipeline=pingpong{lgkm_per_load_a=9223372036854775808}",
                         f"--emit={emit}")
    one_error(code, err, "pipeline-opt: error: pipeline 'pingpong': option 'lgkm_per_load_a' "
                         "is out of range: 9223372036854775808 does not fit in a 64-bit integer")
    assert out == "" and "internal error" not in err


# ---- messages: the user's words, not ours -------------------------------------------------

@pytest.mark.parametrize("emit", ["schedule", "asm"])
def test_a_scheduling_error_names_the_users_spec_and_no_internal_function(capsys, emit):
    code, out, err = run(capsys, "--pipeline=pingpong{max_vgpr=1}", f"--emit={emit}")
    one_error(code, err, "pipeline-opt: error: pipeline 'pingpong{max_vgpr=1}': the csp "
                         "scheduler: no order satisfies max_vgpr=1")
    # no option the user never set (the kernel's counts), no function name
    assert "vm_per_load" not in err and "optimal_schedule" not in err, err


def test_a_body_that_does_not_fit_names_no_internal_function(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text('''"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0"} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
''')
    code, out, err = run(capsys, str(src), "--pipeline=4wave", "--emit=schedule")
    assert code == 1 and "Traceback" not in err
    for name in ("construct_mma_blocks", "mma_block_interleave", "verify_schedule",
                 "redistribute_globals", "derive_prologue", "optimal_schedule"):
        assert name not in err, err


# ---- -o: whole or not at all ---------------------------------------------------------------

def test_failure_leaves_an_existing_output_untouched(capsys, tmp_path):
    dest = tmp_path / "out.txt"
    dest.write_text("good old output\n")
    code, _, _ = run(capsys, "--pipeline=pingpong{max_vgpr=10}", "-o", str(dest))
    assert code == 1 and dest.read_text() == "good old output\n"
    assert os.listdir(tmp_path) == ["out.txt"]  # no temporary file left behind


def test_write_failure_leaves_the_target_and_no_temporary(capsys, tmp_path, monkeypatch):
    dest = tmp_path / "out.txt"
    dest.write_text("good old output\n")
    real_fsync = os.fsync

    def full_disk(fd):
        real_fsync(fd)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "fsync", full_disk)
    code, out, err = run(capsys, "--pipeline=pingpong", "-o", str(dest))
    one_error(code, err, f"cannot write '{dest}': No space left on device")
    assert dest.read_text() == "good old output\n"
    assert os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("bad", ["dir", "missing/x.txt"])
def test_two_outputs_are_written_both_or_neither(tmp_path, bad):
    """--tune's -o FILE and --tune-spec FILE: one that cannot be written leaves the other
    untouched (and no temporary file), the error naming the path given."""
    (tmp_path / "dir").mkdir()
    kept = tmp_path / "kept.txt"
    kept.write_text("old\n")
    with pytest.raises(OSError) as err:
        output.write_all([(str(kept), "new\n"), (str(tmp_path / bad), "spec\n")])
    assert err.value.filename == str(tmp_path / bad)
    assert kept.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["dir", "kept.txt"]
    output.write_all([(str(kept), "new\n"), (str(tmp_path / "spec.txt"), b"spec\n")])
    assert (kept.read_text(), (tmp_path / "spec.txt").read_text()) == ("new\n", "spec\n")


def test_output_replaces_the_target_keeping_its_mode(capsys, tmp_path):
    dest = tmp_path / "out.txt"
    dest.write_text("old\n")
    dest.chmod(0o640)
    code, _, _ = run(capsys, "--pipeline=pingpong", "-o", str(dest))
    assert code == 0 and dest.read_text().startswith("WARP_STAGGER_INDEX 4")
    assert dest.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["out.txt"]


def test_new_output_gets_the_umask_mode(capsys, tmp_path):
    dest = tmp_path / "new.txt"
    umask = os.umask(0o022)
    try:
        code, _, _ = run(capsys, "--pipeline=pingpong", "-o", str(dest))
    finally:
        os.umask(umask)
    assert code == 0 and dest.stat().st_mode & 0o777 == 0o644


def test_output_to_a_device_is_written_in_place(capsys):
    code, out, err = run(capsys, "--pipeline=pingpong", "-o", os.devnull)
    assert (code, out, err) == (0, "", "")
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def test_output_to_dev_stdout_through_a_pipe():
    p = subprocess.run(TOOL + ["--pipeline=pingpong", "-o", "/dev/stdout"], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.startswith("WARP_STAGGER_INDEX 4"), p.stderr


def test_output_through_a_symlink_replaces_the_file_it_names(capsys, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    code, _, _ = run(capsys, "--pipeline=pingpong", "-o", str(link))
    assert code == 0 and link.is_symlink() and real.read_text().startswith("WARP_STAGGER")


def test_simulate_hazard_leaves_the_output_untouched(capsys, tmp_path):
    dest = tmp_path / "report.txt"
    dest.write_text("previous report\n")
    code, out, err = run(capsys, "--simulate", str(DUMPS / "4wave_bf16_128x128x64.txt"),
                         "--pipeline=4wave", "--cost-table=llvm", "--sim-iterations=1",
                         "--report", "-o", str(dest))
    assert code == 1 and out == "" and "error: hazard with 1 main-loop iteration" in err
    assert dest.read_text() == "previous report\n"
    # without -o the report still goes to stdout before the hazard
    code, out, err = run(capsys, "--simulate", str(DUMPS / "4wave_bf16_128x128x64.txt"),
                         "--pipeline=4wave", "--cost-table=llvm", "--sim-iterations=1",
                         "--report")
    assert code == 1 and "Functional model" in out and "error: hazard" in err


# ---- closed stdout, Ctrl-C, SIGTERM, worker start ----------------------------------------

def test_closed_stdout_is_one_error_not_a_traceback():
    p = subprocess.run(TOOL + ["--pipeline=pingpong"], capture_output=False,
                       stdout=None, stderr=subprocess.PIPE, text=True, timeout=120,
                       preexec_fn=lambda: os.close(1))
    assert p.returncode == 1
    assert p.stderr == "pipeline-opt: error: cannot write standard output: standard output " \
                       "is closed\n"


def test_ctrl_c_is_a_message_and_status_130(capsys, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(printing, "format_schedule", interrupted)
    code, out, err = run(capsys, "--pipeline=pingpong")
    assert (code, out, err) == (130, "", "pipeline-opt: interrupted\n")


def test_sigterm_while_linking_removes_the_temporary_directory(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    real_run = subprocess.run
    seen = []

    def terminated_linker(cmd, *a, **k):
        if "-shared" in cmd:  # the linker: SIGTERM arrives while it runs
            seen.append(Path(cmd[-1]).parent)
            os.kill(os.getpid(), signal.SIGTERM)
        return real_run(cmd, *a, **k)

    monkeypatch.setattr(codegen.subprocess, "run", terminated_linker)
    dest = tmp_path / "k.hsaco"
    code, out, err = run(capsys, "--pipeline=4wave", "--emit=hsaco", "-o", str(dest))
    assert (code, out, err) == (143, "", "pipeline-opt: terminated\n")
    assert seen and not seen[0].exists()
    assert list(tmp_path.iterdir()) == []  # no pipeline-mlir-link-* directory, no output
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL or \
        signal.getsignal(signal.SIGTERM) is not pipeline_opt.on_sigterm


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                    reason="needs /proc/PID/task/PID/children to see the worker process")
def test_sigterm_as_a_process_leaves_nothing_behind(tmp_path):
    # SIGTERM is sent while the driver waits for a child process (the LLVM worker or the
    # linker), so main() is certainly running with its handler installed; waiting for a file
    # in TMPDIR instead raced with the end of the run (the output's temporary file, then the
    # restored default handler: killed by the signal, status -15)
    tmp, out = tmp_path / "tmp", tmp_path / "out"
    tmp.mkdir()
    out.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    p = subprocess.Popen(TOOL + ["--pipeline=pingpong", "--emit=hsaco", "-o",
                                 str(out / "k.hsaco")], env=env, stderr=subprocess.PIPE,
                         text=True)
    import time
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None and not _children(p.pid):
        time.sleep(0.005)
    if p.poll() is not None:
        pytest.skip("the compilation finished before a child process was seen")
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    assert (p.returncode, err) == (143, "pipeline-opt: terminated\n")
    assert list(tmp.iterdir()) == []  # no pipeline-mlir-link-* directory
    assert list(out.iterdir()) == []  # neither the output nor its temporary file


def test_worker_that_cannot_start_is_a_codegen_error(monkeypatch):
    monkeypatch.setattr(codegen.sys, "executable", "/nonexistent/python")
    monkeypatch.delenv(LAUNCHER_ENV, raising=False)  # started itself, not by the run's zygote
    with pytest.raises(CodegenError, match="cannot start the LLVM code generation worker "
                                           r"\(/nonexistent/python\): No such file"):
        codegen.compile_llvm_ir("define void @f() { ret void }")


def test_worker_start_failure_through_the_driver(capsys, monkeypatch):
    monkeypatch.setattr(codegen.sys, "executable", "/nonexistent/python")
    monkeypatch.delenv(LAUNCHER_ENV, raising=False)  # started itself, not by the run's zygote
    code, out, err = run(capsys, "--pipeline=4wave", "--emit=asm")
    # the function LLVM was given is named (a code generation failure stands at it)
    one_error(code, err, "pipeline-opt: error: pipeline '4wave': function "
                         "'gemm_4wave_bf16_128x128x64': cannot start the LLVM code "
                         "generation worker")
    assert "internal error" not in err and out == ""


# ---- mlir-opt spellings --------------------------------------------------------------------

def test_single_dash_long_flags(capsys):
    assert run(capsys, "-pipeline=pingpong", "-emit=schedule") == \
        run(capsys, "--pipeline=pingpong", "--emit=schedule")


def test_values_are_not_rewritten(capsys, tmp_path):
    # an option's separate value that looks like a flag is the value, not a flag
    dest = tmp_path / "-emit=mlir"
    code, out, _ = run(capsys, "--pipeline=pingpong", "-o", str(dest))
    assert code == 0 and dest.read_text().startswith("WARP_STAGGER_INDEX")


def test_repeated_flag_takes_the_last_value(capsys):
    code, out, _ = run(capsys, "--pipeline=4wave", "--pipeline=pingpong", "--emit=mlir",
                       "--emit=schedule")
    assert code == 0 and out.startswith("WARP_STAGGER_INDEX 4\n")


def test_report_alone_does_not_take_the_next_argument(capsys):
    dump = str(DUMPS / "pingpong_bf16_l2_2.txt")
    code, out, err = run(capsys, "--simulate", dump, "--report", "--pipeline=pingpong",
                         "--cost-table=llvm", "--sim-iterations=0")
    assert code == 0 and "Functional model" in out, err
    # a picture after a space is not taken as the picture (nor silently dropped)
    code, out, err = run(capsys, "--simulate", "--pipeline=pingpong", "--report", "t.svg")
    one_error(code, err, "cannot be combined with the input 't.svg'")
    assert "--report=t.svg" in err


def test_version_and_list_passes(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == "" and out.startswith("pipeline-opt (pipeline-mlir ")
    code, out, err = run(capsys, "--list-passes")
    assert code == 0 and err == ""
    assert "sched-fix-hazards" in out and "pingpong:" in out and "usage:" not in out


@pytest.mark.parametrize("pipeline, fragment", [
    ("builtin.module(sched-verfy)", "unknown pass 'sched-verfy' (did you mean 'sched-verify'?)"),
    ("builtin.module(canonicalise)", "unknown pass 'canonicalise': neither a sched pass"),
])
def test_unknown_pass_suggests_the_closest(capsys, tmp_path, pipeline, fragment):
    src = tmp_path / "in.mlir"
    src.write_text(ABSTRACT)
    code, _, err = run(capsys, str(src), f"--pass-pipeline={pipeline}")
    one_error(code, err, fragment)
    assert "^" not in err


@pytest.mark.parametrize("pipeline, fragment", [
    ("builtin.module(gpu.module(sched-verify))",
     "--pass-pipeline: 'gpu.module(sched-verify)' nests sched-verify under gpu.module: the "
     "sched passes run on builtin.module (the whole module; each finds its sched.pipeline ops, "
     "loops and kernels itself): name them at the top level, e.g. "
     "--pass-pipeline='builtin.module(sched-verify)'"),
    ("builtin.module(func.func(cse,sched-annotate))",
     "e.g. --pass-pipeline='builtin.module(sched-annotate,func.func(cse))'"),
    ("builtin.module(func.func(canonicalise))", "unknown pass 'canonicalise': neither"),
])
def test_a_nested_pass_is_named_not_its_anchor(capsys, tmp_path, pipeline, fragment):
    """A sched pass under gpu.module(...) / func.func(...) is no "unknown pass 'gpu.module'":
    the message says where the sched passes run and how to write it; an unknown nested pass
    is named itself."""
    src = tmp_path / "in.mlir"
    src.write_text(ABSTRACT)
    code, _, err = run(capsys, str(src), f"--pass-pipeline={pipeline}")
    one_error(code, err, fragment)
    assert "unknown pass 'gpu.module'" not in err and "unknown pass 'func.func'" not in err


def test_emit_after_an_llvm_step_for_another_chip_names_the_flags(tmp_path):
    """--emit=llvm appends the LLVM step for --mcpu; a --pass-pipeline that ran it for
    another chip already set the process's GPU target (a process of its own here: the
    target cannot be unset)."""
    src = tmp_path / "f.mlir"
    src.write_text("module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n")
    p = subprocess.run(TOOL + [str(src), "--pass-pipeline=builtin.module(sched-to-llvm"
                               "{chip=gfx942})", "--emit=llvm"], capture_output=True,
                       timeout=300)
    one_error(p.returncode, p.stderr.decode(), "--emit=llvm runs the LLVM step for "
              "--mcpu=gfx950 after the --pass-pipeline: the GPU target is already set to "
              "gfx942")
    assert p.stdout == b""


def test_split_input_file_with_binary_output_is_an_error(capsys, tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(ABSTRACT + "// -----\n" + ABSTRACT)
    code, _, err = run(capsys, str(src), "--split-input-file", "--pipeline=single-buffer{T=1}",
                       "--emit=obj", "-o", str(tmp_path / "o"))
    one_error(code, err, "--emit=obj writes one binary file: --split-input-file found 2 chunks")
    assert not (tmp_path / "o").exists()


def test_an_oversized_body_fails_at_once(capsys, tmp_path):
    """A body far larger than the schedule's blocks is refused by its first scheduling pass
    (linear), not after the quadratic edge derivation."""
    empty = tmp_path / "e.mlir"
    empty.write_text("")
    assert main([str(empty), "--pass-pipeline=builtin.module(sched-import{schedule=4wave})",
                 "-o", str(tmp_path / "one.mlir")]) == 0
    capsys.readouterr()
    lines = (tmp_path / "one.mlir").read_text().splitlines()
    body = lines[2:-2]
    big = tmp_path / "big.mlir"
    big.write_text("\n".join(lines[:2] + body * 100 + lines[-2:]) + "\n")
    code, out, err = run(capsys, str(big), "--pipeline=4wave", "--emit=schedule")
    one_error(code, err, f"{big}:2:3: error: sched-annotate: the body has 800 MMAs, but the "
                         f"'4wave' schedule's 8 MMA blocks take at most 8 (one per block)")


# ---- inputs that crash a parser -----------------------------------------------------------

_SWIZZLED = ('func.func @f() {{\n  %a = memref.alloc() {{iree_codegen.swizzle = '
             '#iree_codegen.xor_shuffle<{}>}} : memref<64xf16, #gpu.address_space<workgroup>>\n'
             '  return\n}}\n')


@pytest.mark.parametrize("widths", ["0, 8", "64, 0", "0x0, 8", "-9223372036854775808, -1"])
def test_a_swizzle_that_crashes_the_parser_is_one_located_error(capsys, tmp_path, widths):
    """IREE's verifier of ``xor_shuffle<row, access>`` divides row by access while MLIR
    parses: these widths killed the process with a floating-point exception (exit 136, no
    message) before any pass ran, on every path (a plain build, ``--emulate``)."""
    src = tmp_path / "in.mlir"
    src.write_text(_SWIZZLED.format(widths))
    for argv in (["--emit=mlir"], ["--emulate"]):
        code, out, err = run(capsys, "--pipeline=4wave", str(src), *argv)
        one_error(code, err, f"{src}:2:47: error: #iree_codegen.xor_shuffle<{widths}>: IREE's "
                             f"verifier of the swizzle divides its row width by its access width")


def test_a_swizzle_is_read_outside_strings_and_comments_only():
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.inputs import check_swizzles

    check_swizzles('// #iree_codegen.xor_shuffle<64, 0>\n"x"() {s = "#iree_codegen.xor_shuffle'
                   '<0, 0>"} : () -> ()\n' + _SWIZZLED.format("64, 8") +
                   _SWIZZLED.format("-9223372036854775808, 1"), "f")
    with pytest.raises(Failure) as e:
        check_swizzles("\n" + _SWIZZLED.format("64,\n 0"), "f.mlir", line_offset=4)
    (d,) = e.value.diags
    assert (d.file, d.line, d.col) == ("f.mlir", 7, 47)
