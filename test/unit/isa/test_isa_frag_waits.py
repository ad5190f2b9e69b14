"""The fragment waits of the ping-pong kernels' assembly: each ``s_waitcnt lgkmcnt`` LLVM puts
before an MFMA is exactly what its operands need, and a wait one too weak (or missing, or
stronger than needed) is reported by the ISA check and, when it is a race, by the emulator
in its late and random modes."""

from __future__ import annotations

import pytest

from kernel_builds import build
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.frag_waits import check_fragment_waits
from pipeline_mlir.isa.skeleton import DS_READ, LOAD_LDS
from pipeline_mlir.target.gfx950 import MFMA_BY_DTYPE
from pipeline_mlir.tools.pipeline_opt import main


def _check(b, asm: str):
    return check_kernel_asm(parse_asm(asm).function(), b.plan, b.kernel.mfmas_per_mma,
                            MFMA_BY_DTYPE[b.kernel.dtype].mnemonic, load_name=LOAD_LDS,
                            ds_name=DS_READ)


def _frag_waits(asm: str):
    fn = parse_asm(asm).function()
    phases = fn.main_loop_phases()
    lines, found = check_fragment_waits(phases)
    loop = {i.line: i for i in phases["loop"]}
    return [loop[n] for n in sorted(lines) if n in loop], found


def _mutate(asm: str, line: int, new: list[str]) -> str:
    rows = asm.split("\n")
    rows[line - 1:line] = new
    return "\n".join(rows)


@pytest.mark.parametrize("key", ["pingpong-bf16", "pingpong-fp8"])
def test_the_kernels_fragment_waits_are_exact(key):
    b = build(key)
    loop_waits, found = _frag_waits(b.asm)
    assert len(loop_waits) >= 12 and found == []
    # (the FP8 kernel's notes naming the epilogue reads the LDS rules cannot read)
    assert [f.kind for f in _check(b, b.asm).findings] == \
        (["lds-unknown", "lds-read-unheld"] if key == "pingpong-fp8" else [])


def test_the_block_form_has_no_fragment_waits():
    assert _frag_waits(build("pingpong-bf16-block").asm) == ([], [])


@pytest.fixture(scope="module")
def pp():
    b = build("pingpong-bf16")
    waits, _ = _frag_waits(b.asm)
    return b, next(w for w in waits if w.lgkm == 0)


def test_a_wait_one_too_weak_is_a_race_in_the_isa_check_and_the_emulator(pp, tmp_path, capsys):
    b, w = pp
    weak = _mutate(b.asm, w.line, ["\ts_waitcnt lgkmcnt(1)"])
    kinds = {(f.kind, f.lines) for f in _check(b, weak).findings}
    assert ("frag-wait-weak", (w.line,)) in kinds
    # in late mode (in process) by test_isa_reg_waits.py, whose first chosen mutant this is
    (tmp_path / "k.s").write_text(weak)
    rc = main(["--pipeline=pingpong", "--emulate=256,256,512", str(tmp_path / "k.s"),
               "--emulate-mode=random:3", "--emulate-workgroups=1"])
    _, err = capsys.readouterr()
    assert rc == 1 and "pending-register" in err and "is not waited for" in err


def test_a_missing_or_too_strong_wait_is_reported(pp):
    b, w = pp
    gone = {f.kind for f in _check(b, _mutate(b.asm, w.line, [])).findings}
    assert "frag-wait-missing" in gone
    waits, _ = _frag_waits(b.asm)
    w7 = next(x for x in waits if x.lgkm > 0)
    strong = _check(b, _mutate(b.asm, w7.line, [f"\ts_waitcnt lgkmcnt({w7.lgkm - 1})"]))
    assert [(f.kind, f.lines) for f in strong.findings] == [("frag-wait-strong", (w7.line,))]


def test_the_block_form_mfmas_operands_are_checked_too():
    """A schedule without ``WAIT_FRAG`` leaves the waits for the fragments its block waits do
    not cover to LLVM too (the 4-wave blocks; LLVM 22 counted them short after global LDS
    DMAs): the ISA check walks its MFMAs as well and reports a race (a wait stronger than
    needed is the schedule's there, and no finding)."""
    b = build("pingpong-bf16-block")
    assert not [f for f in _check(b, b.asm).findings if f.kind.startswith("frag-wait")]
    loop = parse_asm(b.asm).function().main_loop_phases()["loop"]
    # the loop's first lgkmcnt(0) made lgkmcnt(15): the MFMAs after it read registers in flight
    w = next(i for i in loop if i.kind == "wait" and i.lgkm == 0)
    weak = _mutate(b.asm, w.line, ["\ts_waitcnt lgkmcnt(15)" if w.vm is None else
                                   f"\ts_waitcnt vmcnt({w.vm}) lgkmcnt(15)"])
    races = {f.kind for f in _check(b, weak).findings if f.kind.startswith("frag-wait")}
    assert races == {"frag-wait-missing"}, races


#: straight code (a pipelined loop LLVM unrolled, one copy of its phase): the prologue's
#: reads fill the first MFMA's A, the copy's last read fills it again for the epilogue
STRAIGHT = """\t.text
\t.globl k
\t.type k,@function
k:
\tds_read_b64 v[0:1], v10
\tds_read_b64 v[4:5], v10 offset:64
\ts_waitcnt lgkmcnt(1)
\tv_mfma_f32_16x16x32_bf16 v[20:23], v[0:3], v[8:11], 0
\tds_read_b64 v[0:1], v10 offset:128
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[20:23], v[0:3], v[4:7], v[20:23]
\ts_endpgm
"""


def test_straight_code_runs_its_phases_once():
    """An unrolled loop's straight code runs the loop's phase once, after the prologue:
    the read at its end is not in flight at its first MFMA, whose lgkmcnt(1) is exact
    (walked as a loop, entered from its own end, it would be a race: IREE's bf16 batch
    ``A^T x B`` 2x100x100x518, unrolled to one copy, was refused so while it runs exact)."""
    ins = parse_asm(STRAIGHT).function().instrs()
    phases = {"prologue": ins[:2], "loop": ins[2:5], "epilogue": ins[5:]}
    assert check_fragment_waits(phases, straight=True)[1] == []
    [weak] = check_fragment_waits(phases)[1]
    assert weak.kind == "frag-wait-weak" and (weak.line, weak.got, weak.need) == (7, 1, 0)


#: a loop whose MFMA reads a register the prologue's read fills: in flight when the loop is
#: entered, complete (lgkmcnt(0) at the loop's end) when it goes round
ENTERED = """\t.text
\t.globl k
\t.type k,@function
k:
\tds_read_b64 v[0:1], v10
\tds_read_b64 v[4:5], v10 offset:64
\tds_read_b64 v[12:13], v10 offset:128
\ts_waitcnt lgkmcnt(WAIT)
\tv_mfma_f32_16x16x32_bf16 v[20:23], v[0:3], v[8:11], v[20:23]
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[24:27], v[4:7], v[12:15], v[24:27]
\tds_read_b64 v[0:1], v10 offset:192
\ts_waitcnt lgkmcnt(0)
\ts_endpgm
"""


@pytest.mark.parametrize("wait, weak", [(2, False), (3, True)])
def test_a_way_with_no_operand_in_flight_bounds_nothing(wait, weak):
    """The first MFMA needs lgkmcnt(2) when the loop is entered (the prologue's read of
    v0 in flight, two reads after it); going round, none of its reads is in flight, and
    any count is right there. lgkmcnt(2) is exact (before, the way round counted as
    needing lgkmcnt(1) and the wait was called a race: IREE's f16 ``A^T x B`` 201x659x232,
    exact on the emulator, refused by the gate); lgkmcnt(3) is still the entry's race."""
    ins = parse_asm(ENTERED.replace("WAIT", str(wait))).function().instrs()
    phases = {"prologue": ins[:2], "loop": ins[2:9], "epilogue": ins[9:]}
    found = check_fragment_waits(phases)[1]
    if weak:
        assert [(f.kind, f.got, f.need) for f in found] == [("frag-wait-weak", 3, 2)], found
    else:
        assert found == [], found


#: a loop whose second MFMA reads only registers complete on every way (the first MFMA's
#: lgkmcnt(0) completes the prologue's reads and the way round's): LLVM's lgkmcnt(WAIT)
#: before it, with one read in flight (of v12, which no MFMA reads) on every way
COMPLETE = """\t.text
\t.globl k
\t.type k,@function
k:
\tds_read_b64 v[0:1], v10
\tds_read_b64 v[4:5], v10 offset:64
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[20:23], v[0:3], v[4:7], v[20:23]
\tds_read_b64 v[12:13], v10 offset:128
\ts_waitcnt lgkmcnt(WAIT)
\tv_mfma_f32_16x16x32_bf16 v[24:27], v[0:3], v[4:7], v[24:27]
\ts_waitcnt lgkmcnt(0)
\ts_endpgm
"""


@pytest.mark.parametrize("wait, kind", [(1, None), (9, None), (0, "frag-wait-strong")])
def test_a_wait_for_more_than_is_in_flight_is_no_race(wait, kind):
    """No way has a read the second MFMA reads in flight, so a count of at least the reads
    in flight on every way (one) waits for nothing and is right; LLVM's
    lgkmcnt(9) where 7 were in flight was called a race (IREE's i8 ``A x B^T``
    896x1280x1152, one wave's 128x128 tiles of 32x32x32 MFMAs, its prefetch point refused
    by the gate while exact with the check off). lgkmcnt(0) waits for the read of v12,
    which the MFMA does not read."""
    ins = parse_asm(COMPLETE.replace("WAIT", str(wait))).function().instrs()
    phases = {"prologue": ins[:2], "loop": ins[2:7], "epilogue": ins[7:]}
    found = check_fragment_waits(phases)[1]
    assert [(f.kind, f.got, f.need) for f in found] == \
        ([] if kind is None else [(kind, wait, 1)]), found
