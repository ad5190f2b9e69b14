"""The ISA check: the final assembly of the shipped kernels against their schedules.

Every finding on a shipped kernel must be listed below with the reason LLVM did it and
why it is harmless; any other finding fails.  The negative tests mutate real assembly
(a dropped wait, a changed count, two ds_reads merged, an MFMA moved across a barrier,
...) and check that each mutation is reported where it was made.
"""

from __future__ import annotations

import re
from collections import Counter
from types import SimpleNamespace

import pytest

from kernel_builds import KERNEL_SPECS, build
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.report import kernel_report
from pipeline_mlir.target.gfx950 import MFMA_BY_DTYPE
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.isa.check import (Expansion, IsaCheckError, check_kernel_asm,
                                     expected_skeleton, rules_without_schedule)
from pipeline_mlir.isa import which_loop
from pipeline_mlir.isa.which_loop import IR_FENCE, not_the_pipelined_loop
from pipeline_mlir.isa.skeleton import DS_READ, LOAD_LDS
from pipeline_mlir.kernel.plan import kernel_plan, kernel_shape
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.schedule.types import (BARRIER, SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc, OpRole,
                                 Phase, ScheduleEntry)

ZERO_TRIP = ("lowering:zero-trip-fence", "lowering:zero-trip-fence")

# (kind, asm phase, schedule entries, instructions): why LLVM did it / why it is harmless
FOUR_WAVE_COMMON = {
    ("wait-merged", "prologue", ZERO_TRIP, 1):
        "LLVM merges the zero-trip fence's adjacent vmcnt(0) and lgkmcnt(0) into one "
        "s_waitcnt; the merged wait is exactly both",
    ("wait-merged", "epilogue", ("EPI[29]", "EPI[31]"), 1):
        "EPI[30]'s fragment load is dead (nothing after it reads it: the MMA it was for is the "
        "next K tile's) and the lowering does not emit it (nor EPI[34]), so the two waits "
        "around it are adjacent and merge; both counts are kept",
    ("wait-merged", "epilogue", ("EPI[0]", "EPI[1]"), 1):
        "the loop's last WAIT_VM, moved to the epilogue's start by sched-fix-hazards, and the "
        "epilogue's WAIT_LGKM are adjacent; LLVM merges them with both counts (and adds no "
        "wait of its own for the LDS DMA before EPI[4]'s reads: this one covers it)",
}
LOOP_MERGES = {  # per 4-wave kernel: the WAIT_VM + WAIT_LGKM pairs at the top of each block
    "4wave-bf16": [("KRN[1]", "KRN[2]"), ("KRN[17]", "KRN[18]"), ("KRN[33]", "KRN[34]"),
                   ("KRN[49]", "KRN[50]")],
    "4wave-fp8-128": [("KRN[0]", "KRN[1]"), ("KRN[12]", "KRN[13]"), ("KRN[24]", "KRN[25]"),
                      ("KRN[36]", "KRN[37]")],
    "4wave-fp8-64": [("KRN[0]", "KRN[1]"), ("KRN[12]", "KRN[13]"), ("KRN[24]", "KRN[25]"),
                     ("KRN[36]", "KRN[37]")],
    "4wave-bf16-256": [("KRN[1]", "KRN[2]"), ("KRN[17]", "KRN[18]"), ("KRN[33]", "KRN[34]"),
                       ("KRN[49]", "KRN[50]")],
    "4wave-fp8-256": [("KRN[0]", "KRN[1]"), ("KRN[12]", "KRN[13]"), ("KRN[24]", "KRN[25]"),
                      ("KRN[36]", "KRN[37]")],
}


#: per 4-wave kernel whose epilogue is shorter before its dead reads: by how many entries
#: (the dword BF16 256x256 kernel: sched-fix-hazards puts no fenced lgkmcnt(0) pair into
#: its epilogue's first blocks, so EPI[28] / EPI[32] are the dead reads)
EPILOGUE_SHIFT = {"4wave-bf16-256": -2}


def _shifted(entries: tuple, by: int) -> tuple:
    """Epilogue entry names from the dead reads on moved by ``by`` (EPI[0] and EPI[1] stay)."""
    out = []
    for e in entries:
        n = int(e[4:-1]) if e.startswith("EPI[") else -1
        out.append(f"EPI[{n + by}]" if n >= 20 else e)
    return tuple(out)


def expected_findings(key: str) -> dict:
    if key == "pingpong-fp8":
        # the epilogue's fragment reads of the addresses the loop rotates (its reads moved
        # over the back edge): left out of the LDS rules, and named
        return {("lds-unknown", "epilogue", (), None):
                "the LDS rules cannot read an address a loop rotates",
                ("lds-read-unheld", "-", (), None):
                "nor can the read rule hold those reads against the plan's addresses"}
    if key.startswith("pingpong"):
        return {}   # ping-pong: the assembly is the schedule, entry for entry
    by = EPILOGUE_SHIFT.get(key, 0)
    out = {(k[0], k[1], _shifted(k[2], by), k[3]): v for k, v in FOUR_WAVE_COMMON.items()}
    for pair in LOOP_MERGES[key]:
        out[("wait-merged", "loop", pair, 1)] = (
            "the block's WAIT_VM and WAIT_LGKM are adjacent; LLVM merges them into one "
            "s_waitcnt vmcnt(a) lgkmcnt(b) with both counts")
    return out


@pytest.fixture(scope="session", params=sorted(KERNEL_SPECS))
def kernel(request):
    """(key, build, the ISA check of its assembly): each kernel checked once for the tests
    that read the check's findings and its lists."""
    b = build(request.param)
    return request.param, b, check(b)


def check(b, asm: str | None = None):
    fn = parse_asm(b.asm if asm is None else asm).function()
    dword = b.kernel.geometry.dma_pieces > 1      # dword DMAs (dma=auto, BF16 256x256)
    return check_kernel_asm(fn, b.plan, b.kernel.mfmas_per_mma,
                            MFMA_BY_DTYPE[b.kernel.dtype].mnemonic,
                            load_name="buffer_load_dword" if dword else LOAD_LDS,
                            ds_name=DS_READ)


def test_shipped_kernels_have_only_explained_findings(kernel):
    key, b, res = kernel
    want = expected_findings(key)
    got = Counter()
    for f in res.findings:
        k = f.key() if (f.kind, f.phase, f.entries, None) not in want else \
            (f.kind, f.phase, f.entries, None)
        got[k] += 1
    unexplained = [str(f) for f in res.findings if f.key() not in want
                   and (f.kind, f.phase, f.entries, None) not in want]
    assert not unexplained, "findings without an explanation:\n" + "\n".join(unexplained)
    assert set(got) == set(want), f"explained findings that no longer occur: " \
                                  f"{set(want) - set(got)}"
    assert all(n == 1 for n in got.values())


def test_outside_the_schedule_is_listed_not_dropped(kernel):
    key, b, res = kernel
    fn = parse_asm(b.asm).function()
    lines = {o.line for o in res.outside}
    # every scalar load and vector store of the kernel is listed, and nothing that the
    # schedule issues
    for i in fn.instrs():
        if i.kind in ("smem", "vmem_store"):
            assert i.line in lines
        if i.kind in ("mfma", "ds_read", "vmem_load_lds", "barrier", "setprio"):
            assert i.line not in lines
    waits = [o for o in res.outside if o.text.startswith("s_waitcnt")]
    assert waits and all("kernel-argument s_load" in o.reason for o in waits)
    # both sides agree on the data volume the schedule accounts for
    for ph in ("prologue", "loop", "epilogue"):
        assert sum(t.kind == "mfma" for t in res.actual[ph]) == \
            sum(t.kind == "mfma" for t in res.expected[ph])


# ---- negative tests: mutations of the ping-pong BF16 assembly ------------------------------
# (its block form, whose every wait is the schedule's; the fragment waits' own checks are in
# test_frag_waits.py)

@pytest.fixture(scope="module")
def pp():
    return build("pingpong-bf16-block")


def _loop_lines(b):
    fn = parse_asm(b.asm).function()
    return [i for blk in fn.main_loop() for i in blk.instrs]


def _mutate(text: str, line: int, new: list[str] | None) -> str:
    lines = text.split("\n")
    lines[line - 1:line] = [] if new is None else new
    return "\n".join(lines)


def _kinds(res):
    return [(f.kind, f.phase) for f in res.findings]


def test_dropped_wait_is_reported(pp):
    w = next(i for i in _loop_lines(pp) if i.text == "s_waitcnt lgkmcnt(8)")
    res = check(pp, _mutate(pp.asm, w.line, None))
    # the reads it waited for are in flight at the barrier after it, whose bytes the other
    # group's DMAs overwrite (the LDS rule's lds-race; the emulator's too, raised by one:
    # test_lds_waits.py)
    kinds = _kinds(res)
    assert kinds[0] == ("wait-missing", "loop") and kinds[1:] and \
        {k for k, _ in kinds[1:]} == {"lds-race"}, kinds
    assert res.findings[0].entries == ("KRN[3]",)


@pytest.mark.parametrize("new, kind", [("vmcnt(9)", "wait-weakened"),
                                       ("vmcnt(2)", "wait-tightened"),
                                       ("vmcnt(6) lgkmcnt(3)", "wait-tightened")])
def test_changed_wait_count_is_reported(pp, new, kind):
    w = next(i for i in _loop_lines(pp) if i.text == "s_waitcnt vmcnt(6)")
    res = check(pp, _mutate(pp.asm, w.line, [f"\ts_waitcnt {new}"]))
    # vmcnt(9) also leaves one of the two DMAs of one entry in flight: an order no fence
    # pins, and a DMA still in flight at the barrier after it whose bytes other waves read
    # (the LDS rule's lds-race, one per DMA), and the wave's own read of its bytes while it
    # is in flight (lds-wait-short)
    unpinned = [("wait-unpinned", "loop")] if new == "vmcnt(9)" else []
    kinds = _kinds(res)
    races = [k for k in kinds if k[0] in ("lds-wait-short", "lds-race")]
    assert kinds == [(kind, "loop")] + unpinned + races and bool(races) == (new == "vmcnt(9)")
    f = res.findings[0]
    assert f.entries == ("KRN[29]",) and f.lines == (w.line,)


def test_merged_ds_reads_are_reported(pp):
    loop = _loop_lines(pp)
    k = next(n for n, i in enumerate(loop) if i.kind == "ds_read")
    a, b2 = loop[k], loop[k + 1]
    dst = a.operands[0].split("[")[1].split(":")[0]
    merged = f"\tds_read2_b64 v[{dst}:{int(dst) + 7}], {a.operands[1]} offset1:8"
    text = _mutate(_mutate(pp.asm, b2.line, None), a.line, [merged])
    res = check(pp, text)
    # (the read rule holds no read of a phase with a merged read: the note)
    assert _kinds(res) == [("ds-merged", "loop"), ("lds-read-unheld", "-")]
    # KRN[0] and KRN[1] share one gap (no separator between them): either may be named
    assert res.findings[0].entries in (("KRN[0]",), ("KRN[1]",))
    assert res.findings[0].lines == (a.line,)
    assert "2 x ds_read_b128 became 1 x ds_read2_b64" in res.findings[0].message


def test_mfma_moved_across_a_barrier_is_reported(pp):
    loop = _loop_lines(pp)
    k = next(n for n, i in enumerate(loop) if i.text == "s_setprio 0")
    mfma, barrier = loop[k - 1], loop[k + 1]
    assert mfma.kind == "mfma" and barrier.kind == "barrier"
    text = _mutate(pp.asm, barrier.line, [barrier.text, mfma.text])
    text = _mutate(text, mfma.line, None)
    res = check(pp, text)
    assert _kinds(res) == [("mfma-moved", "loop")]
    f = res.findings[0]
    assert f.entries == ("KRN[7]",) and f.lines == (barrier.line,)
    assert "s_setprio 0" in f.message and "s_barrier" in f.message


def test_load_moved_across_a_wait_is_reported(pp):
    loop = _loop_lines(pp)
    k = next(n for n, i in enumerate(loop) if i.text == "s_waitcnt vmcnt(6)")
    load = next(i for i in reversed(loop[:k]) if i.kind == "vmem_load_lds")
    text = _mutate(pp.asm, loop[k].line, [loop[k].text, load.text])
    res = check(pp, _mutate(text, load.line, None))
    # with one DMA fewer before it, vmcnt(6)'s cut falls between the two DMAs of one entry;
    # the DMA moved is in flight at the barrier after the wait (the LDS rule's lds-race) and
    # at the wave's own read of its bytes (lds-wait-short)
    assert [f.kind for f in res.findings] == ["load-lds-moved", "wait-unpinned",
                                              "lds-wait-short", "lds-race"]
    assert res.findings[0].entries == ("KRN[28]",)


@pytest.mark.parametrize("target, replacement, kind", [
    ("s_setprio 1", None, "setprio-missing"),
    ("s_setprio 1", ["\ts_setprio 2"], "setprio-changed"),
    ("s_barrier", None, "barrier-missing"),
    ("s_barrier", ["\ts_barrier", "\ts_barrier"], "barrier-extra"),
    ("; sched_barrier mask(0x00000000)", None, "fence-missing"),
    ("ds_read_b128", None, "ds-read-missing"),
    ("buffer_load_dwordx4", None, "load-lds-missing"),
    ("v_mfma_f32_16x16x32_bf16", None, "mfma-missing"),
    ("v_mfma_f32_16x16x32_bf16", "dup", "mfma-extra"),
    ("v_mfma_f32_16x16x32_bf16", ["\tv_mfma_f32_16x16x32_f16 v[10:13], v[174:177], "
                                  "v[158:161], v[10:13]"], "mfma-changed"),
])
def test_other_mutations_are_reported(pp, target, replacement, kind):
    ins = next(i for i in _loop_lines(pp) if i.text.startswith(target))
    new = [ins.text, ins.text] if replacement == "dup" else replacement
    res = check(pp, _mutate(pp.asm, ins.line, new))
    # a barrier deleted: the waves' accesses it ordered race (the LDS rule's lds-race); a
    # loop DMA deleted: the loop reads bytes it never refills (lds-stale), and the epilogue
    # bytes no write fills after the prologue on the zero-trip path (lds-unwritten); a
    # fragment read deleted: bytes of the plan's reads no ds_read reads (lds-unread), and
    # the read before it into the same registers now reaching its MFMAs too, of another
    # place of their chains than that read's (lds-misread), and nothing writing them on
    # the first trip's path (operand-unwritten); an
    # MFMA added: the read rule holds no read of that phase (its note), and the copy
    # multiplies the fragments the first multiplied into the same accumulator
    # (fragment-reused); an MFMA made one of
    # f16 reading other registers: reads whose registers it reads in part fill slices of
    # its operands with other bytes than the plan's reads fill them with, each slice held
    # on its own (lds-misread), and the start of the accumulator chain it breaks is not
    # held (the acc-init rule's note), nor its chain (the read rule's note)
    races = {"barrier-missing": ["lds-race"],
             "load-lds-missing": ["lds-stale", "lds-unwritten"],
             "ds-read-missing": ["lds-unread", "lds-misread", "operand-unwritten"],
             "mfma-extra": ["lds-read-unheld", "fragment-reused"],
             "mfma-changed": ["lds-read-unheld", "acc-init-unheld", "lds-misread"]
             }.get(kind, [])
    if kind == "ds-read-missing":
        mis = next(f.message for f in res.findings if f.kind == "lds-misread")
        assert "other ds_read reaching its accumulator chain" in mis, mis
    if kind == "mfma-changed":
        mis = [f.message for f in res.findings if f.kind == "lds-misread"]
        assert {re.search(r"fills bytes (\d+\.\.\d+ of [AB]) of v_mfma_f32_16x16x32_f16 "
                          rf"\(line {ins.line}\)", m).group(1) for m in mis} == \
            {"0..7 of A", "8..15 of A", "0..7 of B", "8..15 of B"}, mis
    assert [f.kind for f in res.findings][:1] == [kind] and \
        set(f.kind for f in res.findings[1:]) == set(races)
    assert res.findings[0].phase == "loop"


def test_ping_pong_counts_match_the_schedule(pp):
    res = check(pp)
    loop = res.expected["loop"]
    assert sum(t.kind == "mfma" for t in loop) == 8 * pp.kernel.mfmas_per_mma
    assert sum(t.kind == "ds_read" for t in loop) == 4 * (8 + 4)   # lgkm 8/4 per A/B load
    assert sum(t.kind == "vmem_load_lds" for t in loop) == 8 * 2   # vm 2 per global load


# ---- the expected skeleton and its helpers -------------------------------------------------

def _e(tag, phase=Phase.KERNEL, role=OpRole.SYNC, wait=0, channel=-1):
    return ScheduleEntry(OpDesc(tag=tag, role=role, wait_value=wait, channel=channel), 0, phase)


def test_expected_skeleton_lowering_additions():
    load = _e(0, Phase.PROLOGUE, OpRole.GLOBAL_LOAD, channel=0)
    frag = _e(4, Phase.KERNEL, OpRole.FRAGMENT_LOAD, channel=1)
    mma = _e(5, Phase.KERNEL, OpRole.COMPUTE)
    sched = SimpleNamespace(prologue=[load, _e(WAIT_VM, Phase.PROLOGUE, wait=0), load],
                            kernel=[frag, _e(WAIT_VM, wait=3), _e(WAIT_LGKM, wait=1), mma,
                                    _e(SCHEDULE_BARRIER), _e(BARRIER)],
                            epilogue=[mma], warp_stagger_index=2)
    x = Expansion(vm=(2, 1), lgkm=(8, 4), mfmas_per_mma=3, mfma_name="v_mfma_x",
                  load_name=LOAD_LDS, ds_name=DS_READ)

    def show(toks):
        out = []
        for t in toks:
            if t.kind == "wait":
                out.append(f"W{t.vm},{t.lgkm}x{t.parts}")
            else:
                out.append({"vmem_load_lds": "G", "ds_read": "D", "mfma": "M", "barrier": "B",
                            "sched_barrier": "F"}[t.kind])
        return " ".join(out)
    pp = expected_skeleton(kernel_plan(sched, kernel_shape(parse_pipeline("pingpong")),
                                       {"kernel": [0, 0, 0, 1, 1, 1]}), x)
    # kernarg wait; stagger barrier after prologue[0:2]; all-warps barrier; group-0 barrier
    assert show(pp["prologue"]) == "WNone,0x1 G G F W0,Nonex1 F B G G B"
    assert show(pp["loop"]) == "D D D D F W3,1x2 F M M M F B"
    assert show(pp["epilogue"]) == "M M M B"
    four = expected_skeleton(kernel_plan(SimpleNamespace(**{**vars(sched),
                                                            "warp_stagger_index": 99}),
                                         kernel_shape(parse_pipeline("4wave")),
                                         {"kernel": [0, 0, 0, 0, 0, 0]}), x)
    assert show(four["prologue"]) == "WNone,0x1 G G F W0,Nonex1 F G G W0,0x2 B"
    assert show(four["loop"]) == "D D D D F W3,1x2 F M M M F B"
    assert show(four["epilogue"]) == "M M M"


def test_not_checkable_is_an_error(pp):
    # a schedule without a kernel has no kernel plan to check against
    with pytest.raises(ConfigError, match="single-buffer"):
        kernel_shape(parse_pipeline("single-buffer"))
    no_loop = parse_asm("f:\n  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n")
    with pytest.raises(IsaCheckError, match="no loop holding MFMA"):
        check_kernel_asm(no_loop.function(), pp.plan, 16)
    with pytest.raises(IsaCheckError, match="not a multiple"):
        text = _mutate(pp.asm, next(i for i in _loop_lines(pp) if i.kind == "mfma").line, None)
        check_kernel_asm(parse_asm(text).function(), pp.plan)


def test_a_main_loop_without_the_pipelined_fences_is_not_checked(pp):
    """LLVM unrolls a pipelined loop of a small constant trip count fully and may keep a
    remainder loop beside it (IREE's f16 A^T x B^T 1000x600x1020 at its prefetch point:
    4 MFMAs and no fence in the loop left): that loop, the main loop of the assembly, holds
    none of the pipelined loop's sched_barrier fences and not a whole number of its
    iterations, and the check says so instead of comparing it (or miscounting its MFMAs).
    The pipelined loop itself with its fences lost is no such loop: it is compared, and
    the check fails (the report must not say "not run" of it)."""
    fn = parse_asm(pp.asm).function()
    assert not_the_pipelined_loop(fn, pp.plan) == ""
    text = pp.asm
    for i in reversed([i for i in _loop_lines(pp) if i.kind == "sched_barrier"]):
        text = _mutate(text, i.line, None)
    fn = parse_asm(text).function()
    assert not_the_pipelined_loop(fn, pp.plan) == ""        # whole iterations: compared
    assert not_the_pipelined_loop(fn, pp.plan, None, pp.ll) == ""   # a fenced loop in the IR
    ir = [ln for ln in pp.ll.split("\n") if IR_FENCE not in ln]
    assert not_the_pipelined_loop(fn, pp.plan, None, "\n".join(ir)) == ""  # no fence: no word
    entry = next(n for n, ln in enumerate(ir) if ln.startswith("define ")) + 1
    ir.insert(entry, f"  {IR_FENCE}i32 0)")       # fences, none in a loop
    why = not_the_pipelined_loop(parse_asm(pp.asm).function(), pp.plan, None, "\n".join(ir))
    assert "is another loop of the kernel: the LLVM IR compiled holds sched_barrier fences, " \
        "none in a loop" in why, why                         # another loop, fences or not
    w = next(i for i in fn.main_loop()[0].instrs if i.text == "s_waitcnt lgkmcnt(8)")
    res = check_kernel_asm(parse_asm(_mutate(text, w.line, None)).function(), pp.plan)
    assert ("wait-missing", "loop") in _kinds(res)          # a dropped wait: still found
    mfma = next(i for b in fn.main_loop() for i in b.instrs if i.kind == "mfma")
    fewer = parse_asm(_mutate(text, mfma.line, None)).function()
    why = not_the_pipelined_loop(fewer, pp.plan)
    assert re.search(r"holds none of the \d+ sched_barrier fences of the pipelined loop and "
                     r"not a whole number of its iterations", why), why
    assert "LLVM unrolled it fully" in why
    with pytest.raises(IsaCheckError, match="holds none of the"):
        check_kernel_asm(fewer, pp.plan)
    # the report says why and still runs the rules that read the assembly alone
    rep = kernel_report(_mutate(text, mfma.line, None), pp.hsaco, pp.plan)
    assert rep.isa is None and rep.isa_plain == [], rep.isa_plain
    assert "comparison with the schedule and its order rule not run (the main loop" \
        in rep.format(), rep.format()
    ran = re.search(r"without the schedule, on the whole function \(([^)]*)\): 0 findings",
                    rep.format())
    assert ran is not None, rep.format()
    named = ran.group(1).split(", ")   # the rules run, the operand rules among them
    assert named == list(rules_without_schedule(pipelined=True)), named
    assert {"wait-short", "waterfall", "lds-race", "wait-states", "fragment-reused",
            "operand-accumulator", "operand-loaded"} <= set(named), named
    fenced = parse_asm(_mutate(pp.asm, next(i for i in _loop_lines(pp)
                                            if i.kind == "mfma").line, None)).function()
    assert not_the_pipelined_loop(fenced, pp.plan) == ""    # a fence: compared
    unfenced = SimpleNamespace(kernel=pp.plan.kernel, shape=pp.plan.shape)
    with pytest.MonkeyPatch.context() as mp:       # a plan fencing nothing: MFMAs tell
        mp.setattr(which_loop, "expected_skeleton", lambda plan, x: {"loop": []})
        assert not_the_pipelined_loop(fn, unfenced) == ""
        why = not_the_pipelined_loop(fewer, unfenced)
        assert re.search(r"\(\d+ MFMAs\) holds not a whole number of its iterations", why)
        assert not_the_pipelined_loop(fewer, unfenced, 2) == ""     # known: compared


def test_a_main_loop_of_whole_iterations_beside_the_unrolled_fences_is_another(pp):
    """A remainder loop of a whole number of the plan's iterations, no fence in it, beside
    the pipelined loop LLVM unrolled (IREE's E5M2 ``A x B^T`` 256x64x1954 at its prefetch
    point: 8 MFMAs, 8 MMA entries; the gate compared it and refused the kernel,
    ``barrier-missing in the loop``): the code around it holds the pipelined loop's fences
    of at least one iteration more than its prologue and epilogue, and the check says it
    is another loop.  The pipelined loop stripped of its fences (only the prologue's and
    epilogue's left around it) is still compared, as is one a fence short of an
    iteration's more."""
    fences = [i for i in _loop_lines(pp) if i.kind == "sched_barrier"]
    text = pp.asm
    for i in reversed(fences):
        text = _mutate(text, i.line, None)
    assert not_the_pipelined_loop(parse_asm(text).function(), pp.plan) == ""
    first = parse_asm(text).function().blocks[0].instrs[0].line     # the kernel's first
    fence = fences[0].text if fences[0].text.startswith(";") else f"; {fences[0].text}"
    for n, want in ((len(fences) - 1, ""), (len(fences), "is another loop of the kernel")):
        moved = _mutate(text, first, [text.split("\n")[first - 1]] + [f"\t{fence}"] * n)
        why = not_the_pipelined_loop(parse_asm(moved).function(), pp.plan)
        assert (want in why) if want else why == "", (n, why)
    assert f"holds none of the {len(fences)} sched_barrier fences of the pipelined loop, " \
        "and the code around it holds" in why, why


def test_inferred_mfma_count_gives_the_same_result(pp):
    fn = parse_asm(pp.asm).function()
    res = check_kernel_asm(fn, pp.plan)
    assert res.findings == [] and \
        re.search(r"loop\s+128 \(exp 128\)", res.format())


def test_interleaved_mma_expected_skeleton():
    """An MMA after its block's loads is interleaved with them: no schedule barrier between
    the loads (the pipeline keeps their order), a fence opening the region; an MMA of one
    MFMA is not interleaved and keeps its barrier."""
    frag = _e(4, Phase.KERNEL, OpRole.FRAGMENT_LOAD, channel=1)
    load = _e(0, Phase.KERNEL, OpRole.GLOBAL_LOAD, channel=0)
    mma = _e(5, Phase.KERNEL, OpRole.COMPUTE)
    sched = SimpleNamespace(prologue=[], kernel=[_e(BARRIER), frag, _e(SCHEDULE_BARRIER),
                                                 load, mma],
                            epilogue=[], warp_stagger_index=0)
    shape = kernel_shape(parse_pipeline("4wave"))
    show = {"vmem_load_lds": "G", "ds_read": "D", "mfma": "M", "barrier": "B",
            "sched_barrier": "F"}

    def loop(mfmas, interleave=True):
        x = Expansion(vm=(2, 1), lgkm=(2, 2), mfmas_per_mma=mfmas)
        plan = kernel_plan(sched, shape, {"kernel": [0] * 5}, interleave=interleave)
        return " ".join(show[t.kind] for t in expected_skeleton(plan, x)["loop"])
    assert loop(2) == "B F D D G G M M F"
    assert loop(1) == "B F D D F G G M F"
    assert loop(2, interleave=False) == "B D D F G G M M"


def test_interleave_pipeline_is_no_separator():
    """The lowering's interleave pipeline (sync id 1) is not part of the skeleton; a
    schedule's own sched_group_barrier (sync id 0) is, and one too many is reported."""
    b = build("4wave-fp8-128")
    loop = _loop_lines(b)
    assert any(i.kind == "sched_group_barrier" for i in loop)
    mfma = next(i for i in loop if i.kind == "mfma")
    base = {f.key() for f in check(b).findings}
    for sync, extra in ((1, set()), (0, {"sched-group-barrier-extra"})):
        text = _mutate(b.asm, mfma.line, [mfma.text, "\t; sched_group_barrier "
                                          f"mask(0x00000008) size(1) SyncID({sync})"])
        got = {f.kind for f in check(b, text).findings if f.key() not in base}
        assert got == extra, (sync, got)


def test_a_wait_llvm_put_inside_a_gap_does_not_shift_the_alignment():
    """A phase of fenced blocks (fence, wait, fence, barrier, fence, reads, fence, MFMA) with
    LLVM's own ``lgkmcnt(0)`` before the first block's MFMA (no fence beside it): the
    difflib alignment of the separators took the second block's for the first's, every
    later block shifted by one (IREE's fp8 64x31x160 unrolled: its reads and loads
    ``moved`` and its last block's wait and barrier ``missing``, which refused the build).
    Leaving the waits with no fence beside them out from the start (the unrolled
    comparison's ``own_waits``) pairs each block with its own: that wait is LLVM's added
    one, nothing moved."""
    from pipeline_mlir.isa.check import _Phase
    from pipeline_mlir.isa.findings import IsaCheck
    from pipeline_mlir.isa.skeleton import Token

    def block(n, own=False):
        fence = Token("sched_barrier")
        return [fence, Token("wait", vm=3, lgkm=0, origin=(f"KRN[{n}]",)), fence,
                Token("barrier", origin=(f"KRN[{n + 1}]",)), fence,
                Token("ds_read", origin=(f"KRN[{n + 2}]",)), fence] + \
            ([Token("wait", lgkm=0)] if own else []) + \
            [Token("mfma", origin=(f"KRN[{n + 3}]",))]

    exp = [t for n in range(4) for t in block(4 * n)] + [Token("sched_barrier")]
    kinds = {}
    for extra in (False, True):     # a fence more after the run: fences not paired in order
        act = [t for n in range(4) for t in block(4 * n, own=n in (0, 2))] + \
            [Token("sched_barrier")] * (1 + extra)
        act = [Token(t.kind, t.name, t.vm, t.lgkm, lines=(k + 1,)) for k, t in enumerate(act)]
        for own in (False, True):
            res = IsaCheck()
            _Phase("loop", exp, act, res, own_waits=own).run()
            kinds[extra, own] = sorted({f.kind for f in res.findings})
    assert "ds-read-moved" in kinds[True, False] and "wait-missing" in kinds[True, False], kinds
    assert kinds[True, True] == ["wait-added"], kinds
    # as many fences as the schedule's: paired in order (finding 39), each block its own
    assert kinds[False, False] == kinds[False, True] == ["wait-added"], kinds


def _spill_blocks(reloads: dict, moved: bool = False, crowded: bool = False) -> list:
    """Expected and actual skeleton of an epilogue of 8 fenced blocks (fence, lgkmcnt(0),
    fence, 2 reads, fence, vmcnt(0), fence, 2 MFMAs), the actual one with ``reloads[n]``
    scratch reloads of spilled VGPRs, each followed by its ``vmcnt(0)`` (no fence beside
    it), before block ``n``'s reads; ``moved``: block 5's first MFMA moved up after the
    first reload; ``crowded``: block 6's schedule ``lgkmcnt(0)`` with a reload on
    each side instead of its fences."""
    from pipeline_mlir.isa.skeleton import Token

    fence = Token("sched_barrier")

    def block(n, actual):
        reload = [Token("vmem_load", "scratch_load_dword"), Token("wait", vm=0)] * \
            (reloads.get(n, 0) if actual else 0)
        wait = [Token("wait", lgkm=0, origin=(f"EPI[{4 * n}]",))]
        if actual and crowded and n == 6:
            wait = [Token("vmem_load", "scratch_load_dword")] + wait + \
                [Token("vmem_load", "scratch_load_dword")]
        else:
            wait = [fence] + wait + [fence]
        return wait + reload + [Token("ds_read", origin=(f"EPI[{4 * n + 1}]",))] * 2 + \
            [fence, Token("wait", vm=0, origin=(f"EPI[{4 * n + 2}]",)), fence] + \
            [Token("mfma", origin=(f"EPI[{4 * n + 3}]",))] * 2

    exp = [t for n in range(8) for t in block(n, False)] + [fence]
    act = [t for n in range(8) for t in block(n, True)] + [fence]
    if moved:
        k = next(k for k, t in enumerate(act) if t.origin == ("EPI[23]",))
        first = next(k for k, t in enumerate(act) if t.kind == "vmem_load")
        act.insert(first + 1, act.pop(k))
    act = [Token(t.kind, t.name, t.vm, t.lgkm, lines=(k + 1,)) for k, t in enumerate(act)]
    return exp, act


@pytest.mark.parametrize("reloads", [{3: 1}, {3: 3}, {1: 2, 4: 1}])
def test_waits_of_llvms_spill_reloads_do_not_shift_the_alignment(reloads):
    """LLVM's scratch reloads of spilled VGPRs between an epilogue's reads, each with its
    own ``s_waitcnt vmcnt`` and no fence beside it (IREE's i8 128x512x896, 32x32x32 MFMAs,
    late form, accumulators in AGPRs, 18 VGPRs spilled): the separators' alignment paired
    the later schedule waits with the next block's, the real ones were found foreign, and
    the build was refused (``mfma-moved``, ``wait-missing``, run exact on the emulator).
    The rolled comparison leaves a wait with a fence on neither side out of the alignment
    from the start: the reloads' waits are LLVM's added ones, nothing moved.  An MFMA
    moved up among those reloads is still ``mfma-moved``, and a schedule wait LLVM's
    reloads crowd on both sides (its fences gone) is missing, not taken for LLVM's own."""
    from pipeline_mlir.isa.check import _Phase
    from pipeline_mlir.isa.findings import IsaCheck

    def kinds(exp, act):
        res = IsaCheck()
        _Phase("epilogue", exp, act, res).run()
        return sorted({f.kind for f in res.findings})

    assert kinds(*_spill_blocks(reloads)) == ["load-extra", "wait-added"]
    got = kinds(*_spill_blocks(reloads, moved=True))
    assert "mfma-moved" in got and "wait-missing" not in got, got
    assert "wait-missing" in kinds(*_spill_blocks(reloads, crowded=True))
