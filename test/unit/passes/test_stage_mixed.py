"""Register-staged copies issued an iteration ahead in a K-loop that also has DMA copies.

IREE's fp8 kernel (``iree-compile``, late form, 2048x2048x1024: copies through registers
that the front end makes direct-to-LDS copies) with operand A's copies register-staged by
the public option ``sched-stage-copies{force-sources=0}`` (a staged copy moves what the DMA
moves, so the kernel still computes A x B^T) and B's left DMA copies.
``sched-stage-copies`` issues A's loads an iteration ahead and re-derives the ``vmcnt``
waits of the prologue, the zero-trip fence, the loop and the epilogue for B's copies
(``pipeline_mlir/passes/_stage_mixed.py``, counting B's copies only, not A's loads, which
LLVM may delete or move), the prologue's A stores placed at the waits that need them:
exact on the emulator as late as the counters allow and at random, with its race and
pending-register checks; every re-derived wait of the loop, and the prologue's, raised
past what is issued after the copy it waits for (the emitted MLIR edited) is caught as a
race (the prologue's also by ``sched-verify``), and a prologue store moved past the
barrier after it is an error of ``sched-verify``; the count is the weakest that holds if
the staged loads are gone (every stream of up to 8 copies); the waits also complete A's
loads before their LDS writes (LLVM adds no vmcnt of its own there).  ``sched-verify`` on the emitted MLIR
checks the staged form as it is issued: it passes, and the loop without its first barrier,
or without the ``lgkmcnt(0)`` after each staged store, is a located error.  A
``force-sources`` that names no source is one located error, one that is not a list of numbers
an error of the option.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.isa.waitcnt import VMCNT_MAX, decode_waitcnt, waitcnt_imm
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from staged_asm import drop_loop_vmcnt_before_lds_writes, force_staged  # noqa: E402

SIZE = "2048,2048,1024"


@pytest.fixture(scope="module")
def kernel(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mixed") / "fp8.mlir"
    path.write_text(G.late_form(G.matmul_source("fp8", m=2048, n=2048, k=1024)))
    return path


@pytest.fixture(scope="module")
def staged(kernel) -> Path:
    """The kernel's emitted MLIR with operand A's copies (source 0) staged."""
    return force_staged(kernel, kernel.with_name("a_staged.mlir"), "0")


@pytest.fixture(scope="module")
def staged_asm(staged) -> Path:
    """The staged kernel through the LLVM step (compiled once for the tests that run it)."""
    asm = staged.with_name("a_staged.s")
    assert main([str(staged), "--pass-pipeline=builtin.module(sched-to-llvm)",
                 "--emit=asm", "-o", str(asm)]) == 0
    return asm


def _loop(text: str) -> str:
    start = text.index("scf.for")
    return text[start:text.index("scf.yield", start)]


def _asm(mlir: Path, tmp_path: Path) -> Path:
    asm = tmp_path / "k.s"
    assert main([str(mlir), "--pass-pipeline=builtin.module(sched-to-llvm)", "--emit=asm",
                 "-o", str(asm)]) == 0
    return asm


def test_mixed_loop_loads_ahead(staged):
    """A's 8 copies of an iteration carried across the back edge, B's stay DMA copies; the
    loop's 4 vmcnt(8) waits (the slot form's, every copy counted) become vmcnt(4): only the
    B copies issued after the ones they wait for are counted, not A's staged loads, which
    LLVM may delete (the last iteration's, used nowhere after a loop it removes) or move."""
    loop = _loop(staged.read_text())
    assert len(re.findall(r"vector\.store %arg\d+, %alloc", loop)) == 8, loop
    assert loop.count("amdgpu.gather_to_lds %3[") == 8, loop
    vmcnts = [w for w in re.findall(r"s\.waitcnt (\d+)", loop) if int(w) & 0xC00F != 0xC00F]
    assert vmcnts == [str(waitcnt_imm(vmcnt=4, expcnt=7))] * 4, vmcnts


@pytest.mark.parametrize("mode", ["late", "random:3"])
def test_mixed_loop_is_exact(staged_asm, capsys, mode):
    rc = main([f"--emulate={SIZE}", str(staged_asm), "--emulate-workgroups=2",
               f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0, 2 of 256 workgroups" in out, out + err


def _prologue(text: str) -> str:
    """The function's ops before its first loop (the prologue and the zero-trip fence)."""
    start = text.index("func.func")
    return text[start:text.index("scf.for", start)]


#: a VMEM operation of the emitted MLIR: a DMA copy or a global (fat_raw_buffer) load
VMEM = re.compile(r"amdgpu\.gather_to_lds|vector\.load %\w+\[.*fat_raw_buffer")
WAIT = re.compile(r"rocdl\.s\.waitcnt (\d+)")


def _vmcnt_waits(text: str) -> list[tuple[int, int, int]]:
    """(line index, vmcnt, VMEM operations issued after the youngest DMA copy it completes
    as derived) of each wait with a vmcnt in ``text``'s lines: its count ``n`` leaves the
    last ``n`` DMA copies in flight, so the copy is the ``n + 1``-th DMA from the end."""
    out, issued = [], []
    for i, line in enumerate(text.split("\n")):
        if VMEM.search(line):
            issued.append("gather_to_lds" in line)
        elif (m := WAIT.search(line)) and (vm := decode_waitcnt(int(m.group(1)))[0]) < VMCNT_MAX:
            dmas = [j for j, dma in enumerate(issued) if dma]
            out.append((i, vm, len(issued) - 1 - dmas[-1 - vm]))
    return out


def test_the_prologue_waits_are_rederived(staged):
    """The prologue issues A A B B B B A A | A A B B B B A A (A staged in its slot, B DMA):
    its first vmcnt(14) required only the first two A copies: erased; its vmcnt(12)
    required the first two B copies: vmcnt(6), the B copies issued after them (the schedule
    counted A's loads too); the zero-trip fence keeps vmcnt(0).  A's stores go just before
    the wait that requires them: two before the first barrier, six past the second, before
    the fence (they waited at the first barrier for every load before)."""
    pro = _prologue(staged.read_text())
    assert [vm for _, vm, _ in _vmcnt_waits(pro)] == [6, 0], pro
    barriers = pro.split("rocdl.s.barrier\n")
    stores = [len(re.findall(r"vector\.store %\d+, %alloc", b)) for b in barriers]
    assert stores == [2, 0, 6, 0], stores


def test_a_prologue_store_past_the_barrier_after_it_is_caught(staged, capsys, tmp_path):
    """The prologue's first A store (placed just before the wait its copy needed, before
    the first barrier) moved past that barrier: the reads after it may see it incomplete, a
    located error of ``sched-verify``; the stores go as late as they may, not later."""
    text = staged.read_text()
    at = text.index("scf.for")
    m = re.search(r"(\n\s*vector\.store %\d+, %alloc\S*\[[^\n]*\n\s*rocdl\.s\.waitcnt "
                  rf"{waitcnt_imm(lgkmcnt=0)})((?:\n[^\n]*)*?\n\s*rocdl\.s\.barrier)", text[:at])
    moved = text[:m.start()] + m.group(2) + m.group(1) + text[m.end():]
    rc, err = _verify(moved, tmp_path, capsys)
    assert rc == 1 and "Traceback" not in err, err
    assert "may see the staged LDS store at 'vector.store' op" in err, err


def _with_vmcnt(text: str, line: int, vm: int) -> str:
    lines = text.split("\n")
    _, exp, lgkm = decode_waitcnt(int(WAIT.search(lines[line]).group(1)))
    lines[line] = WAIT.sub(f"rocdl.s.waitcnt {waitcnt_imm(vmcnt=vm, expcnt=exp, lgkmcnt=lgkm)}",
                           lines[line])
    return "\n".join(lines)


def test_a_prologue_wait_one_weaker_than_issued_is_caught(staged, capsys, tmp_path):
    """The prologue's re-derived vmcnt(6) raised to the VMEM operations issued after the B
    copy it completes (12: six B copies and six of A's loads, which the derivation does not
    count, since LLVM may move them) still verifies; one more leaves that copy in flight
    for the reads after the barrier: a located error of ``sched-verify``, a race on the
    emulator."""
    text = staged.read_text()
    (line, vm, issued), = [w for w in _vmcnt_waits(_prologue(text)) if w[1]]
    assert (vm, issued) == (6, 12)
    line += text[:text.index("func.func")].count("\n")
    rc, err = _verify(_with_vmcnt(text, line, issued), tmp_path, capsys)
    assert rc == 0 and not err, err
    weak = _with_vmcnt(text, line, issued + 1)
    rc, err = _verify(weak, tmp_path, capsys)
    assert rc == 1 and "Traceback" not in err and "sched-verify: the register-staged form: " \
        "'vector.load' op at line" in err and "incomplete in another wave" in err, err
    path = tmp_path / "weak.mlir"
    path.write_text(weak)
    rc = main([f"--emulate={SIZE}", str(_asm(path, tmp_path)), "--emulate-workgroups=1",
               "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "lds-race" in err, out + err


def _edit_loop(text: str, edit) -> str:
    """``text`` with its first loop's body (up to its yield) replaced by ``edit`` of it."""
    start = text.index("scf.for")
    end = text.index("scf.yield", start)
    loop = edit(text[start:end])
    assert loop != text[start:end]
    return text[:start] + loop + text[end:]


#: how far a re-derived wait is raised: past the B copies it counts (4) and A's staged
#: loads issued after the copy it waits for (up to 6), which it does not count
WEAKER_BY = 7


def _weaker(m: re.Match) -> str:
    vm, exp, lgkm = decode_waitcnt(int(m.group(1)))
    if vm >= VMCNT_MAX:
        return m.group(0)
    return f"rocdl.s.waitcnt {waitcnt_imm(vmcnt=vm + WEAKER_BY, expcnt=exp, lgkmcnt=lgkm)}"


def test_a_rederived_wait_weaker_than_issued_is_caught(staged, capsys, tmp_path):
    """Every re-derived vmcnt of the loop raised past the VMEM operations issued after the
    B copy it waits for (staged loads included): a B copy's LDS is read before its DMA is
    done."""
    weak = tmp_path / "weak.mlir"
    weak.write_text(_edit_loop(staged.read_text(),
                               lambda loop: re.sub(r"rocdl\.s\.waitcnt (\d+)", _weaker, loop)))
    rc = main([f"--emulate={SIZE}", str(_asm(weak, tmp_path)), "--emulate-workgroups=1",
               "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "lds-race" in err and "lds'" in err, out + err


def test_the_rederived_waits_complete_the_staged_loads(staged_asm):
    """Counting only the B copies, the loop's waits also complete A's loads of an iteration
    earlier before their LDS writes: LLVM adds no vmcnt wait of its own before a staged
    ``ds_write_b128`` in the loop (the edit that drops those waits finds none; with them
    dropped a write before its load is a pending register: test_tails_masked)."""
    _, dropped = drop_loop_vmcnt_before_lds_writes(staged_asm.read_text())
    assert dropped == 0


@pytest.mark.parametrize("value", ["2", "0,2"])
def test_a_force_sources_naming_no_source_is_one_located_error(kernel, value, capsys,
                                                                tmp_path):
    """Alone or in a list (the documented ``force-sources=0,1`` form: source 0 exists)."""
    lowered = tmp_path / "k.mlir"
    assert main(["--pipeline=4wave", str(kernel), "-o", str(lowered)]) == 0
    capsys.readouterr()
    rc = main([str(lowered), "--pass-pipeline=builtin.module(sched-stage-copies"
                             f"{{force-sources={value}}})"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err and err.count("error:") == 1, err
    assert ("k.mlir:4:1: error: sched-stage-copies: option 'force-sources' names source 2, "
            "but the module's copies read 2 global source(s)") in err, err


@pytest.mark.parametrize("value", ["0;1", "x", "-1", "0,-1", "+1",
                                   "\u00b2", "\uff11"])  # digits int() refuses or reads
@pytest.mark.parametrize("text", ["", "module {}\n"])
def test_a_malformed_force_sources_is_an_error_of_the_option(capsys, tmp_path, value, text):
    """A value that is not a list of numbers is wrong whatever the module holds: one error
    at the option (the command line), not at the module (``FILE:0:0`` for an empty file)."""
    src = tmp_path / "empty.mlir"
    src.write_text(text)
    rc = main([str(src), f"--pass-pipeline=builtin.module(sched-stage-copies"
                         f"{{force-sources={value}}})"])
    err = capsys.readouterr().err
    assert rc == 1 and err == (
        f"pipeline-opt: error: pass 'sched-stage-copies': option 'force-sources' must be a "
        f"comma-separated list of source numbers (0, 1, ...), got '{value}'\n"), err


def test_a_source_named_twice_is_an_error_of_the_option(capsys, tmp_path):
    src = tmp_path / "empty.mlir"
    src.write_text("")
    rc = main([str(src), "--pass-pipeline=builtin.module(sched-stage-copies"
                         "{force-sources=1,0,1})"])
    assert (rc, capsys.readouterr().err) == (1, (
        "pipeline-opt: error: pass 'sched-stage-copies': option 'force-sources' names source 1 "
        "twice, got '1,0,1'\n"))


def _verify(text: str, tmp_path: Path, capsys) -> tuple[int, str]:
    path = tmp_path / "v.mlir"
    path.write_text(text)
    rc = main([str(path), "--pass-pipeline=builtin.module(sched-verify)", "-o", "/dev/null"])
    return rc, capsys.readouterr().err




def test_sched_verify_checks_the_staged_form(staged, capsys, tmp_path):
    """The emitted MLIR (no sched op left) verifies: its staged stores, copies and reads
    are ordered by the waits and barriers it issues."""
    rc, err = _verify(staged.read_text(), tmp_path, capsys)
    assert rc == 0 and not err, err


@pytest.mark.parametrize("pattern, count, hazard", [
    (r"rocdl\.s\.barrier", 1, "may overwrite LDS"),
    (r"rocdl\.s\.waitcnt 49279", 0, "staged LDS store")])
def test_sched_verify_catches_a_staged_mutant(staged, capsys, tmp_path, pattern, count, hazard):
    """The loop's first barrier dropped, or every lgkmcnt(0) after the staged stores: each a
    located error of sched-verify."""
    mutant = _edit_loop(staged.read_text(), lambda loop: re.sub(
        r"\n[^\n]*" + pattern + r"[^\n]*", "", loop, count=count))
    rc, err = _verify(mutant, tmp_path, capsys)
    assert rc == 1 and "Traceback" not in err, err
    assert "v.mlir:" in err and "sched-verify: the register-staged form: " in err, err
    assert hazard in err, err


@pytest.mark.parametrize("stream, k, want", [
    # the vdi8ab one-trip loop's shape: 4 A DMAs, then staged B loads, then DMAs; the wait
    # requires the second A DMA: 2 DMAs and the 4 loads after it, of which only the DMAs count
    (["dma"] * 4 + ["staged"] * 4 + ["dma"] * 2, 8, 4),
    (["dma", "staged", "staged", "dma"], 2, 1),
    (["dma", "staged", "dma", "staged"], 3, 1),
    (["staged", "dma", "staged"], 3, VMCNT_MAX),      # it requires no DMA: no vmcnt
])
def test_a_wait_counts_the_dma_copies_only(stream, k, want):
    """The re-derived count: the DMA copies issued after the youngest one ``vmcnt(k)``
    requires; the staged loads (plain loads, which LLVM deletes when it removes a loop of
    one trip and their values are used nowhere) are not counted."""
    from pipeline_mlir.passes._stage_mixed import _count

    assert _count(stream, len(stream) - k) == want     # vmcnt(k): all but the k last



def test_the_count_is_the_weakest_that_holds_without_the_staged_loads():
    """Every stream of up to 8 copies and every schedule count ``k``: the re-derived ``n``
    is never above ``k``; with the staged loads gone (LLVM deleted or moved them) ``vmcnt(n)``
    completes every DMA copy ``vmcnt(k)`` required, and ``vmcnt(n + 1)`` leaves the youngest
    of them in flight (one weaker is wrong); a wait that required no DMA copy: no vmcnt."""
    from itertools import product

    from pipeline_mlir.passes._stage_mixed import _count

    for length in range(1, 9):
        for stream in product(("dma", "staged"), repeat=length):
            dmas = [i for i, kind in enumerate(stream) if kind == "dma"]
            for k in range(length):
                n = _count(list(stream), length - k)
                required = [i for i in dmas if i < length - k]
                if not required:
                    assert n == VMCNT_MAX, (stream, k)
                    continue
                assert n <= k, (stream, k, n)
                assert not set(dmas[len(dmas) - n:]) & set(required), (stream, k, n)
                assert required[-1] in dmas[len(dmas) - n - 1:], (stream, k, n)
