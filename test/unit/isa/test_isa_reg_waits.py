"""The ISA check's register-level wait rule (``pipeline_mlir/isa/reg_waits.py``, findings
``wait-short``): each instruction that reads or overwrites a register a load may still be
writing on some path is reported with the load and the count it needs, whoever placed the
waits.  Hand-written assembly for each part of the rule; then the shipped ping-pong kernel's
own waits mutated, each mutant judged by the emulator."""

from __future__ import annotations

import random
import re

import pytest

from asm_loops import main_loop
from kernel_builds import build
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.hazard_paths import path_violations
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.findings import explain_outside
from pipeline_mlir.isa.reg_waits import reg_waits, short_waits
from pipeline_mlir.isa.skeleton import Outside

LOAD = "\tbuffer_load_dword v{r}, v1, s[0:3], 0 offen\n"
DS = "\tds_read_b32 v{r}, v2\n"
USE = "\tv_add_u32_e32 v40, v{r}, v{r}\n"


def _short(body: str) -> list[tuple]:
    """(instruction line, load line, register, counter, need, reads) of each finding."""
    return [(s.instr.line, s.load.line, s.register, s.counter, s.need, s.reads)
            for s in short_waits(parse_asm(f"kernel:\n{body}\ts_endpgm\n").function())]


@pytest.mark.parametrize("wait, need", [
    ("", 1), ("\ts_waitcnt vmcnt(2)\n", 1), ("\ts_waitcnt vmcnt(1)\n", None),
    ("\ts_waitcnt vmcnt(63)\n", 1),                  # the encoded maximum waits for nothing
    ("\ts_waitcnt_vscnt null, 0x0\n", 1),            # no vscnt on gfx950: waits for nothing
    ("\ts_waitcnt_vmcnt null, 0x1\n", None), ("\ts_waitcnt lgkmcnt(0)\n", 1),
    ("\ts_waitcnt vmcnt(1) lgkmcnt(0)\n", None)])
def test_an_in_order_load_needs_the_count_of_those_issued_after_it(wait, need):
    """vmcnt counts loads and stores in issue order: after the load of v10, one store."""
    body = LOAD.format(r=10) + "\tbuffer_store_dword v11, v1, s[0:3], 0 offen\n" + wait \
        + USE.format(r=10)
    want = [] if need is None else [(5 if wait else 4, 2, "v10", "vmcnt", need, True)]
    assert _short(body) == want


def test_a_scalar_load_needs_lgkmcnt_0_and_lds_reads_their_own_count():
    """An LDS read needs the count of LDS instructions after it (a scalar load after it does
    not count: it may complete first); a scalar load needs lgkmcnt(0)."""
    body = DS.format(r=10) + "\ts_load_dwordx2 s[8:9], s[0:1], 0x0\n" + DS.format(r=11) \
        + "\ts_waitcnt lgkmcnt(1)\n" + USE.format(r=10) + "\ts_add_u32 s10, s8, 1\n"
    assert _short(body) == [(7, 3, "s8", "lgkmcnt", 0, True)]
    assert _short(body.replace("lgkmcnt(1)", "lgkmcnt(2)")) == [
        (6, 2, "v10", "lgkmcnt", 1, True), (7, 3, "s8", "lgkmcnt", 0, True)]


def test_overwriting_a_register_in_flight_is_reported_unless_ordered():
    """A VALU write or a load on the other counter overwrites a register a load still
    writes; a later load of the same in-order counter completes after it: no conflict."""
    assert _short(LOAD.format(r=10) + "\tv_mov_b32_e32 v10, 0\n") == \
        [(3, 2, "v10", "vmcnt", 0, False)]
    assert _short(LOAD.format(r=10) + DS.format(r=10)) == [(3, 2, "v10", "vmcnt", 0, False)]
    assert _short(LOAD.format(r=10) + LOAD.format(r=10)) == []


def test_one_finding_per_load_names_its_first_reader():
    (s,) = short_waits(parse_asm("kernel:\n" + LOAD.format(r=10) + USE.format(r=10)
                                 + "\tv_mov_b32_e32 v41, v10\n\ts_endpgm\n").function())
    assert (s.instr.line, s.others) == (3, 1) and "(1 more instruction after it too)" in \
        s.message()


@pytest.mark.parametrize("more, found", [(14, True), (15, False)])
def test_a_full_counter_stalls_until_the_oldest_completes(more, found):
    """lgkmcnt holds 15: the 16th LDS read issued waits for the oldest (no wait needed)."""
    body = "".join(DS.format(r=10 + k) for k in range(more + 1)) + USE.format(r=10)
    assert bool(_short(body)) == found
    assert not found or _short(body)[0][3:5] == ("lgkmcnt", 14)


def test_a_load_late_in_a_loop_is_in_flight_at_its_top():
    """The loop walked to its fixpoint: the first iteration reads v12 before any load of it,
    the next ones while the load of the previous iteration is in flight (the back edge)."""
    asm = main_loop(USE.format(r=12) + LOAD.format(r=12))
    (s,) = short_waits(parse_asm(asm).function())
    assert (s.instr.mnemonic, s.load.mnemonic, s.register, s.need) == \
        ("v_add_u32_e32", "buffer_load_dword", "v12", 0)
    assert short_waits(parse_asm(main_loop(USE.format(r=12) + LOAD.format(r=12)
                                           + "\ts_waitcnt vmcnt(0)\n")).function()) == []


def test_a_wait_on_one_branch_only_is_short_on_the_other():
    body = (LOAD.format(r=10) + "\ts_cbranch_scc1 .LBB0_2\n; %bb.1:\n\ts_waitcnt vmcnt(0)\n"
            ".LBB0_2:\n" + USE.format(r=10))
    assert _short(body) == [(7, 2, "v10", "vmcnt", 0, True)]


WRITE = "\tds_write_b32 v2, v{r}\n"


#: (wait after two LDS writes, what follows the barrier, the findings)
BARRIER_CASES = [
    ("\ts_waitcnt lgkmcnt(1)\n", DS.format(r=20), [(5, 3, "LDS", "lgkmcnt", 0, False)]),
    ("\ts_waitcnt lgkmcnt(0)\n", DS.format(r=20), []),
    ("", DS.format(r=20), [(4, 2, "LDS", "lgkmcnt", 1, False),
                           (4, 3, "LDS", "lgkmcnt", 0, False)]),
    # no LDS read before the next barrier: the write lands before any wave reads it
    ("\ts_waitcnt lgkmcnt(1)\n", "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n" + DS.format(r=20), []),
    ("\ts_waitcnt lgkmcnt(1)\n", "\ts_barrier\n" + DS.format(r=20),
     [(6, 3, "LDS", "lgkmcnt", 0, False)])]


def test_an_lds_write_in_flight_at_a_barrier_before_an_lds_read_is_reported():
    """A register-staged copy's ``ds_write`` must land before the ``s_barrier`` after which
    the other waves read LDS (the emulator's ``lds-race`` of IREE's kernels with the
    ``lgkmcnt(0)`` before the barrier raised): the count the oldest write in flight needs,
    at the first barrier an LDS read follows (or the second, when only it is)."""
    for wait, after, found in BARRIER_CASES:
        body = WRITE.format(r=10) + WRITE.format(r=11) + wait + "\ts_barrier\n" + after
        assert _short(body) == found, (wait, after)
        if found:
            assert "may still be writing LDS" in short_waits(parse_asm(
                f"kernel:\n{body}\ts_endpgm\n").function())[0].message()


#: (wait after two LDS reads, what follows the barrier, the findings)
READ_BARRIER_CASES = [
    ("\ts_waitcnt lgkmcnt(1)\n", WRITE.format(r=20), [(5, 3, "LDS", "lgkmcnt", 0, True)]),
    ("\ts_waitcnt lgkmcnt(0)\n", WRITE.format(r=20), []),
    # no LDS write before the next barrier: the other waves overwrite nothing yet
    ("\ts_waitcnt lgkmcnt(1)\n", DS.format(r=21), []),
    ("\ts_waitcnt lgkmcnt(1)\n", "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n" + WRITE.format(r=20),
     []),
    # an LDS DMA after the barrier is the schedule's to order (below)
    ("\ts_waitcnt lgkmcnt(1)\n", "\tbuffer_load_dword v1, s[4:7], 0 offen lds\n", [])]


def test_an_lds_read_in_flight_at_a_barrier_before_an_lds_write_is_reported():
    """A wave's LDS reads must complete before the ``s_barrier`` after which the other
    waves overwrite LDS with a register-staged copy's ``ds_write`` (the emulator's
    ``lds-race`` of IREE's register-staged kernel with a loop barrier moved above the
    ``lgkmcnt(0)`` before it: ``test/unit/driver/test_isa_gate.py``)."""
    for wait, after, found in READ_BARRIER_CASES:
        body = DS.format(r=10) + DS.format(r=11) + wait + "\ts_barrier\n" + after
        assert [f for f in _short(body) if f[2] == "LDS"] == found, (wait, after)
        if found:
            assert "may still be reading LDS" in next(
                s for s in short_waits(parse_asm(f"kernel:\n{body}\ts_endpgm\n").function())
                if s.register == "LDS").message()


def test_an_lds_dma_in_flight_at_a_barrier_is_left_to_the_schedule():
    """A multi-buffered schedule keeps the next stages' LDS DMAs in flight across barriers;
    their order is the schedule's rules' (the comparison, the order rule), not this one."""
    assert _short("\tbuffer_load_dword v1, s[4:7], 0 offen lds\n\ts_barrier\n"
                  + DS.format(r=20)) == []


#: (a memory instruction that returns a register, the register, its counter)
RETURNING = [
    ("global_atomic_add v10, v[2:3], v4, off sc0", "v10", "vmcnt"),       # gfx950's return bit
    ("buffer_atomic_add v10, v1, s[0:3], 0 offen glc", "v10", "vmcnt"),   # gfx9's
    ("s_atomic_add s10, s[0:1], 0x0 glc", "s10", "lgkmcnt"),
    ("ds_append v10", "v10", "lgkmcnt"),
    ("ds_consume v10", "v10", "lgkmcnt"),
    ("tbuffer_load_format_x v10, v1, s[0:3], 0 offen", "v10", "vmcnt")]


def test_every_memory_instruction_that_returns_a_register_is_tracked():
    for load, reg, counter in RETURNING:
        body = f"\t{load}\n\tv_mov_b32_e32 v40, {reg}\n"
        assert [f[2:5] for f in _short(body)] == [(reg, counter, 0)], load
        if "atomic" in load:   # without the return bit the operand is the data: no finding
            assert _short(body.replace(" sc0", "").replace(" glc", "")) == [], load


def test_flat_completes_out_of_order_with_the_other_vector_memory():
    """gfx9 orders a flat access with neither the vector-memory nor the LDS instructions:
    ``vmcnt(1)`` after a buffer load and a flat load completes neither; ``vmcnt(0)`` both."""
    body = LOAD.format(r=10) + "\tflat_load_dword v11, v[2:3]\n\ts_waitcnt vmcnt(1)\n" \
        + USE.format(r=10)
    assert [f[2:5] for f in _short(body)] == [("v10", "vmcnt", 0)]
    assert _short(body.replace("vmcnt(1)", "vmcnt(0) lgkmcnt(0)")) == []


def test_an_image_instruction_is_refused_at_its_line():
    with pytest.raises(PipelineError, match=r"line 3: image_load: image instructions are not"):
        parse_asm("kernel:\n\ts_nop 0\n\timage_load v[10:13], v1, s[0:7] dmask:0xf\n")


def test_a_wait_outside_the_schedule_is_named_by_what_it_waits_for():
    """LLVM's ``lgkmcnt(0)`` after a kernel-argument ``s_load`` is its wait; the one before a
    barrier after the loads completed is the LDS writes' (it was once named the s_load's)."""
    fn = parse_asm("kernel:\n\ts_load_dword s8, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n"
                   + WRITE.format(r=10) + "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n"
                   "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n\ts_endpgm\n").function()
    pending = reg_waits(fn).pending
    reasons = [explain_outside(Outside("prologue", ln, t, "?"), pending).reason
               for ln, t in ((3, "s_waitcnt lgkmcnt(0)"), (5, "s_waitcnt lgkmcnt(0)"),
                             (7, "s_waitcnt vmcnt(0) lgkmcnt(0)"))]
    assert reasons == ["LLVM's wait for the kernel-argument s_load at line 2",
                       "LLVM's wait for the LDS write at line 4", "?"]


# ---- the shipped ping-pong kernel's waits mutated --------------------------------------

#: the kinds of the ISA check that say a wait is short or missing
SHORT = {"wait-short", "wait-missing", "wait-weakened", "wait-unpinned", "wait-over-derived",
         "frag-wait-weak", "frag-wait-missing"}


def _mutants(asm: str) -> list[tuple[int, str, str]]:
    """(line, what, mutant text) of each s_waitcnt deleted and each of its counts raised
    by one."""
    lines = asm.split("\n")
    out = []
    for k, ln in enumerate(lines):
        if re.match(r"\s*s_waitcnt\b", ln):
            out.append((k + 1, "delete", "\n".join(lines[:k] + lines[k + 1:])))
            for m in re.finditer(r"(vmcnt|lgkmcnt)\((\d+)\)", ln):
                new = ln[:m.start(2)] + str(int(m.group(2)) + 1) + ln[m.end(2):]
                out.append((k + 1, f"raise {m.group(1)}", "\n".join(lines[:k] + [new]
                                                                    + lines[k + 1:])))
    return out


def _emulated(b, text: str) -> str:
    """What the emulator finds wrong running ``text`` as ``b``'s kernel (one workgroup, four
    K steps, late mode: each load completes at the wait that forces it); "" if nothing."""
    g = b.kernel.geometry
    try:
        run = emulate_gemm(load_kernel(text), b.kernel, g.BM, g.BN, 4 * g.BK, "late")
    except PipelineError as e:
        return str(e)
    return "" if run.exact else "wrong C"


def test_every_sampled_wait_mutant_the_emulator_rejects_is_reported():
    """Mutants of the ping-pong BF16 kernel's waits, emulated: each the emulator finds wrong
    or racy is reported statically, by a short-wait kind of the ISA check, or, when the
    deleted ``s_waitcnt`` only served as wait states, by the emulator's wait-state check on
    every path.  Two chosen (the loop's first fragment wait, ``lgkmcnt(0)`` before an MFMA,
    made ``lgkmcnt(1)``; the epilogue's ``lgkmcnt(0)`` for a kernel-argument load, no
    schedule wait, made ``lgkmcnt(1)``: the held rule leans on such waits), then two drawn
    by ``random.Random(5)`` from every deletion and every count raised by one (the full
    sweep of every shipped kernel, by hand, is docs/kernels.md's).  The unmutated kernel is
    exact and race-free the same way (the shipped order of ``test_isa_wait_order.py``)."""
    b = build("pingpong-bf16")
    assert _emulated(b, b.asm) == ""

    def findings(fn):
        return {f.kind for f in check_kernel_asm(fn, b.plan).findings if f.kind in SHORT}
    fn = parse_asm(b.asm).function()
    assert findings(fn) == set()
    muts = _mutants(b.asm)
    loop = fn.main_loop_phases()["loop"]
    frag = next(i for k, i in enumerate(loop) if i.kind == "wait" and i.lgkm == 0 and i.vm is None
                and loop[k + 1].kind == "mfma")
    last = max(k for k, (_, what, _) in enumerate(muts) if what == "raise lgkmcnt")
    chosen = [m for m in muts if m[:2] == (frag.line, "raise lgkmcnt")] + [muts[last]]
    rejected = 0
    for n, (line, what, text) in enumerate(chosen + random.Random(5).sample(muts, 2)):
        bad = _emulated(b, text)
        if n < 2:       # the two chosen: a register read before its LDS / scalar load
            assert "pending-register" in bad and "is not waited for" in bad, (line, bad)
            kinds = findings(parse_asm(text).function())
            assert "wait-short" in kinds and ("frag-wait-weak" in kinds) == (n == 0), kinds
        if not bad:
            continue
        rejected += 1
        if bad.startswith("wait-states"):
            assert path_violations(load_kernel(text)), (line, what)
        else:
            assert findings(parse_asm(text).function()), (line, what, bad[:200])
    assert rejected >= 2


def _i8_barrier_wait(asm: str, edit) -> str:
    """IREE's i8 batch kernel's assembly with ``edit`` applied to its first wait that
    completes an LDS write just before it (``lgkmcnt(0)`` right after a ``ds_write``: the
    copy's last write to its B tile, then the barrier of the reads)."""
    lines = asm.split("\n")
    code = [k for k, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith(";")]
    k = next(b for a, b in zip(code, code[1:]) if lines[a].strip().startswith("ds_write")
             and re.match(r"\s*s_waitcnt .*lgkmcnt\(0\)", lines[b]))
    return "\n".join(lines[:k] + [edit(lines[k])] + lines[k + 1:])


def test_an_lds_write_in_flight_at_a_barrier_whose_reads_go_elsewhere_is_no_error():
    """IREE's i8 batch 2 x 547x183x142 (late form) with that wait's ``lgkmcnt(0)`` made
    ``lgkmcnt(1)``: the copy's last ``ds_write2st64_b32`` is in flight at the barrier, and
    none of the transposing reads after it reads its bytes (exact and race-free on the
    emulator, late and random mode, all 36 workgroups: finding 103 of
    ``docs/iree-audits.md``).  Their addresses LLVM computes with SDWA forms of a word;
    before the lane values read them, the reads' bytes were unknown and the barrier rule
    refused the mutant (``wait-short``).  With the count dropped, every write of the copy
    is in flight there, and reads race them: refused, and an ``lds-race`` on the emulator
    (both run here as the dispatch launches them, late mode, its whole grid)."""
    from pathlib import Path

    from kernel_builds import built_input
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.dispatch_launch import run_dispatch
    from pipeline_mlir.driver.isa_gate import check_built
    from pipeline_mlir.emu.errors import Finding
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    path = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / \
        "iree-i8-batch-547x183x142.late.mlir"
    b = built_input("4wave", path)
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(path.read_text(), ctx), None)

    def emulated(asm: str) -> str:
        """The finding's kind, what is wrong, or ``exact``."""
        try:
            _summary, problem = run_dispatch(d, load_kernel(asm), "i8", ("late", 0), None,
                                             None, False)
        except Finding as e:
            return e.kind
        return problem or "exact"
    check_built(b.asm, [b.plan], b.ll, None, "k.mlir")
    raised = _i8_barrier_wait(b.asm, lambda ln: ln.replace("lgkmcnt(0)", "lgkmcnt(1)"))
    check_built(raised, [b.plan], b.ll, None, "k.mlir")
    assert emulated(raised) == "exact"
    dropped = _i8_barrier_wait(b.asm, lambda ln: re.sub(r"\s*lgkmcnt\(0\)", "", ln))
    with pytest.raises(Failure) as e:
        check_built(dropped, [b.plan], b.ll, None, "k.mlir")
    assert any("wait-short" in d.message for d in e.value.diags), \
        [d.message for d in e.value.diags]
    assert emulated(dropped) == "lds-race"
