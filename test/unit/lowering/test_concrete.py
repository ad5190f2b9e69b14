"""The concrete form end to end: tagged gpu.func K-loop -> scheduled loop -> gfx950 assembly."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli_text as run
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.frag_waits import check_fragment_waits
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
from concrete_kernel import example_file, kernel_text  # noqa: E402

EXACT = "vm_per_load_a=1 vm_per_load_b=1 lgkm_per_load_a=1 lgkm_per_load_b=1"


def skeleton(lines: list[str]) -> list[str]:
    """Waits (merged vm/lgkm pairs), barriers and MFMAs of a list of IR or asm lines."""
    out = []
    for line in lines:
        m = re.search(r"rocdl\.s\.waitcnt (\d+)", line)
        if m:
            imm = int(m.group(1))
            vm, lg = (imm & 0xF) | ((imm >> 10) & 0x30), (imm >> 8) & 0xF
            out.append(("W", vm if vm != 63 else None, lg if lg != 15 else None))
        m = re.search(r"s_waitcnt\s+(.*)", line)
        if m:
            vm = re.search(r"vmcnt\((\d+)\)", m.group(1))
            lg = re.search(r"lgkmcnt\((\d+)\)", m.group(1))
            out.append(("W", int(vm.group(1)) if vm else None, int(lg.group(1)) if lg else None))
        if re.search(r"rocdl\.s\.barrier$|\ts_barrier$", line.rstrip()):
            out.append(("B",))
        if "amdgpu.mfma" in line or "v_mfma" in line:
            out.append(("M",))
    merged = []
    for t in out:  # LLVM merges adjacent waits into one: do the same on the MLIR
        if t[0] == "W" and merged and merged[-1][0] == "W":
            a = merged.pop()
            merged.append(("W", t[1] if t[1] is not None else a[1],
                           t[2] if t[2] is not None else a[2]))
        else:
            merged.append(t)
    return merged


def covers(g, p) -> bool:
    """Asm token ``g`` implements MLIR token ``p``: same kind; a wait keeps the MLIR's lgkm
    count and has a vm count at least as strict (LLVM folds its own vmcnt(0) before LDS
    reads after LDS DMA into our waits: it never weakens them)."""
    if g[0] != p[0]:
        return False
    if p[0] != "W":
        return True
    vm_ok = p[1] is None or (g[1] is not None and g[1] <= p[1])
    return vm_ok and g[2] == p[2]


def is_subsequence(want: list, got: list) -> bool:
    it = iter(got)
    return all(any(covers(g, p) for g in it) for p in want)


@pytest.mark.parametrize("name,block", [("4wave", 256), ("pingpong", 512)])
def test_main_loop_waits_barriers_and_mfma_order_survive_llvm(capsys, tmp_path, name, block):
    text = kernel_text(name, block=block)
    spec = f"{name}{{{EXACT}}}"
    rc, mlir, err = run(capsys, tmp_path, text, f"--pipeline={spec}")
    assert rc == 0, err
    loop = mlir[mlir.index("scf.for"):mlir.index("scf.yield")].splitlines()
    want = skeleton(loop)
    assert want.count(("M",)) == 8 and ("B",) in want
    rc, asm, err = run(capsys, tmp_path, text, f"--pipeline={spec}", "--emit=asm")
    assert rc == 0, err
    label = re.search(r"^(\.LBB\d+_\d+):.*Inner Loop Header", asm, re.M).group(1)
    body = asm[asm.index(label + ":"):re.search(rf"s_cbranch_\w+ {label}\b", asm).start()
               ].splitlines()
    got = skeleton(body)
    assert got.count(("M",)) == 8
    # every hand wait, barrier and MFMA of the lowered MLIR loop is in the assembly, in order
    # (LLVM may add waits of its own between them and strengthen vmcnt, never weaken ours)
    assert is_subsequence(want, got), (want, got)
    # negative control: the MLIR's waits with one made stricter than what LLVM emitted fail
    first = next(i for i, t in enumerate(want) if t[0] == "W" and t[2] is not None)
    bad = want[:first] + [("W", want[first][1], 0 if want[first][2] else 1)] + want[first + 1:]
    assert not is_subsequence(bad, got)
    # every MFMA's operands are waited for on every way through the kernel, counted as the
    # hardware counts lgkmcnt (the LDS DMAs of these global copies on vmcnt only: LLVM 22's
    # own waits for them were short, schedule/dma_lgkm.py)
    races = [f.message() for f in check_fragment_waits(
        parse_asm(asm).functions[0].main_loop_phases())[1]
        if f.kind in ("frag-wait-weak", "frag-wait-missing")]
    assert not races, races


def test_concrete_loop_is_replaced(capsys, tmp_path):
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"), f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 0, err
    assert not re.search(r"\"sched\.|sched\.(payload|mma|frag_load|global_load) =", out)
    assert out.count("scf.for") == 1 and out.count("amdgpu.mfma") == 16
    assert out.count("amdgpu.gather_to_lds") == 16  # 8 prologue + 8 main loop
    # bootstrap + loop + epilogue frags, but the epilogue's last two (of subtile 0, for an MMA
    # it does not run: lowering/dead_reads.py)
    assert out.count("vector.load") == 2 + 8 + 6


def test_kernel_compiles_to_code_object(capsys, tmp_path):
    src = tmp_path / "k.mlir"
    src.write_text(kernel_text("4wave"))
    out = tmp_path / "k.hsaco"
    assert main([str(src), f"--pipeline=4wave{{{EXACT}}}", "--emit=hsaco", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:4] == b"\x7fELF" and int.from_bytes(data[18:20], "little") == 224


def _tagged_loop(extra_in_loop: str) -> str:
    text = kernel_text("4wave")
    return text.replace("        scf.yield", extra_in_loop + "        scf.yield", 1)


def test_side_effecting_untagged_op_in_loop_is_an_error(capsys, tmp_path):
    rc, out, err = run(capsys, tmp_path, _tagged_loop("        rocdl.s.barrier\n"),
                       f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 1 and "Traceback" not in err
    assert re.search(r"k\.mlir:\d+:\d+: error: sched-import: 'rocdl.s.barrier' op in the "
                     r"pipelined loop is neither tagged", err), err


def test_two_tags_on_one_op_is_an_error(capsys, tmp_path):
    text = kernel_text("4wave").replace(
        "{sched.mma = {stage = 0 : i64, subtile = 0 : i64}}",
        "{sched.mma = {stage = 0 : i64, subtile = 0 : i64}, sched.frag_load = {channel = 0 : i64}}",
        1)
    rc, out, err = run(capsys, tmp_path, text, f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 1
    assert "carries sched.frag_load and sched.mma" in err or \
        "carries sched.mma and sched.frag_load" in err, err


def test_unknown_tag_field_is_an_error(capsys, tmp_path):
    text = kernel_text("4wave").replace("sched.mma = {stage = 0 : i64",
                                        "sched.mma = {stag = 0 : i64", 1)
    rc, out, err = run(capsys, tmp_path, text, f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 1 and "has unknown field 'stag'" in err, err


def _first_copy_refused(capsys, tmp_path, old: str, new: str, attribute: str) -> None:
    """The 4-wave concrete kernel with ``old`` replaced by ``new`` in its first copy is
    refused at that copy, one located message naming ``attribute`` (a regular expression of
    the rest of the message), no traceback."""
    text = kernel_text("4wave")
    line = next(i for i, t in enumerate(text.splitlines(), 1)
                if "sched.global_load = {channel" in t)
    rc, out, err = run(capsys, tmp_path, text.replace(old, new, 1), f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 1 and out == "" and "Traceback" not in err and err.count("error:") == 1, err
    assert re.search(rf"k\.mlir:{line}:\d+: error: sched-import: 'amdgpu.gather_to_lds' op "
                     rf"attribute {attribute}\n", err), err


@pytest.mark.parametrize("value, shown", [('"x"', '"x"'), ("0.5 : f32", "5.000000e-01 : f32"),
                                          ("1 : i128", "1 : i128")])
def test_a_tag_field_that_is_no_64_bit_integer_is_located(capsys, tmp_path, value, shown):
    _first_copy_refused(capsys, tmp_path, "sched.global_load = {channel = 0 : i64",
                        f"sched.global_load = {{channel = {value}",
                        rf"'sched.global_load' field 'channel' must be an integer of at most "
                        rf"64 bits; got {re.escape(shown)}")


@pytest.mark.parametrize("value", ['"x"', "1 : i64"])
def test_a_lane_stride_that_is_no_integer_of_a_lanes_elements_is_located(capsys, tmp_path,
                                                                         value):
    """A concrete copy may say its lanes write LDS ``sched.lane_stride`` elements apart (the
    tag check and the staging read it): one that is no integer, or under the 8 elements a
    lane moves (lanes overwriting each other's), is an error at the copy, not an internal
    error or a kernel whose lanes overlap."""
    _first_copy_refused(capsys, tmp_path, 'k_offset = "k0"}}',
                        f'k_offset = "k0"}}, sched.register_staged, sched.lane_stride = {value}}}',
                        rf"'sched.lane_stride' must be an integer of at least the 8 elements "
                        rf"each lane moves \(else the lanes overwrite each other's\), not "
                        rf"{re.escape(value)}")


def test_tagged_loop_without_schedule_is_an_error(capsys, tmp_path):
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"),
                       "--pass-pipeline=builtin.module(sched-import)")
    assert rc == 1 and "sched-import has no schedule=NAME option" in err, err


def test_body_that_does_not_fit_the_schedule_is_located(capsys, tmp_path):
    # drop one MMA tag: the 4-wave program needs 8 MMA blocks
    text = kernel_text("4wave")
    text = re.sub(r" \{sched\.mma = \{stage = 1 : i64, subtile = 1 : i64\}\}", "", text, count=1)
    rc, out, err = run(capsys, tmp_path, text, f"--pipeline=4wave{{{EXACT}}}")
    assert rc == 1 and "Traceback" not in err
    assert "error:" in err


def test_counts_the_spec_leaves_unset_come_from_the_payload(capsys, tmp_path):
    """A tagged loop needs no count options: one gather_to_lds and one ds_read per load."""
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"), "--pipeline=4wave",
                       "--emit=asm")
    assert (rc, err) == (0, "") and "v_mfma" in out, err
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"),
                       "--pass-pipeline=builtin.module(sched-import{schedule=4wave "
                       "lgkm_per_load_b=1})")
    assert rc == 0, err
    assert "options = {lgkm_per_load_a = 1 : i64, lgkm_per_load_b = 1 : i64, vm_per_load_a = " \
           "1 : i64, vm_per_load_b = 1 : i64}" in out, out


@pytest.mark.parametrize("options,key", [("vm_per_load_a=2", "vm_per_load_a=1"),
                                         ("vm_per_load_a=1 lgkm_per_load_b=4", "lgkm_per_load_b=1"),
                                         (EXACT.replace("lgkm_per_load_b=1", "lgkm_per_load_b=2"),
                                          "lgkm_per_load_b=1")])
def test_per_load_counts_must_match_the_payload(capsys, tmp_path, options, key):
    """Counting 2 vmcnt per load when the payload issues 1 would make every wait too weak."""
    spec = f"4wave{{{options}}}" if options else "4wave"
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"), f"--pipeline={spec}")
    assert rc == 1 and "its waits would not match the hardware counter" in err, err
    assert f"set {key}" in err


def test_stagger_needs_block_size(capsys, tmp_path):
    text = kernel_text("pingpong", block=512).replace(
        " attributes {known_block_size = array<i32: 512, 1, 1>}", "")
    rc, out, err = run(capsys, tmp_path, text, f"--pipeline=pingpong{{{EXACT}}}")
    # the address check of sched-import evaluates every thread, before the stagger needs it
    assert rc == 1 and "needs the kernel's workgroup size" in err, err


@pytest.mark.parametrize("name", ["4wave", "pingpong"])
def test_shipped_example_kernels_match_their_generator(name):
    path = Path(__file__).parents[3] / "examples" / f"gemm_loop_{name}.mlir"
    assert path.read_text() == example_file(name), (
        f"regenerate with: python examples/concrete_kernel.py {name} > {path}")


def test_single_buffer_concrete_loops_are_rejected(capsys, tmp_path):
    rc, out, err = run(capsys, tmp_path, kernel_text("4wave"), "--pipeline=single-buffer")
    assert rc == 1 and "the concrete form supports the double-buffer schedules" in err, err
