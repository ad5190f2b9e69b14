"""Every ``s_nop`` of the shipped kernels deleted, shortened or moved up: the emulator's
wait-state check catches exactly the mutants LLVM 22's own hazard recognizer rejects.

The check runs on the instruction traces of one emulated workgroup (each wave's executed
instructions, in order, recorded once per kernel): a mutation of an ``s_nop`` changes no
branch, so the mutant's trace is the original's with that one edit, and the tracker the
machine runs (``emu/hazards.py``) decides it in milliseconds.  A few mutants also run
end to end through the machine.

The independent judge is LLVM (``llvm_hazards.py``): the kernel's IR compiled by ``opt-22``
and ``llc-22`` gives the assembly and the MIR after the hazard recognizer; the same
mutation is made on both, the recognizer is run again on the MIR, and a mutant is unsafe
exactly when it inserts wait states.  LLVM places the minimum, so every deletion and every
shortening is unsafe; moves are unsafe or safe depending on what they cross.
"""

from __future__ import annotations

import functools
import os
import re

import pytest

from campaign_sample import Case, default_ids, uncovered
from emu_helpers import guard_nops
from campaign_sample import params as sample_params
from kernel_builds import KERNEL_SPECS, build
from llvm_hazards import LLC, OPT, compile_with_llc, missing_wait_states_each
from pipeline_mlir.emu.codeobj import Kernel
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.hazard_paths import path_violations
from pipeline_mlir.emu.hazards import Info, WaitStates, infos
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.machine import Machine

#: the shipped kernels that have s_nop (LLVM puts none in the 4-wave ones whose accumulators
#: are VGPRs; AGPR accumulators need wait states between an MFMA and the v_accvgpr_read of
#: its result in the epilogue)
NOP_KERNELS = ("pingpong-bf16", "pingpong-fp8", "4wave-bf16-256", "4wave-fp8-256")


#: the campaign (``campaign_sample.py``): each check of mutated s_nops on each kernel it
#: judges, with what it holds: the kernel's schedule and element type (their MFMAs' wait-state
#: rules), the mutations, and who catches them.  The default run keeps the first item of each
#: kind in this order, the long tier the rest: the deletions and shortenings on a kernel of
#: each schedule and of each type (LLVM places the minimum, so each is unsafe): the ping-pong
#: BF16 kernel and the 4-wave FP8 256x256 one (:data:`DELETIONS_ORDER`: the 4-wave BF16
#: kernel's are the dearest, hundreds of mutants in 30% more time than the FP8 one's); the
#: moves, which LLVM alone judges, on the cheaper ping-pong kernel (the type is not a kind
#: of theirs: which moves are safe depends on what they cross, the rules' table on the
#: deletions)
DELETIONS_ORDER = ("pingpong-bf16", "4wave-fp8-256", "pingpong-fp8", "4wave-bf16-256")
CAMPAIGN = [
    *(Case(k, (("schedule", k.split("-")[0]), ("type", k.split("-")[1]),
               ("mutation", "delete"), ("mutation", "shorten"), ("caught by", "tracker")),
           (k,), "test_every_deleted_or_shortened_nop_is_caught") for k in DELETIONS_ORDER),
    *(Case(k, (("schedule", "pingpong"), ("mutation", "epilogue s_nop deleted"),
               ("caught by", "path check")), (k,), "test_the_path_check_finds_the_deleted_"
           "epilogue_nop") for k in ("pingpong-bf16", "pingpong-fp8")),
    *(Case(f"{k}-{mode}", (("schedule", "pingpong"), ("mutation", "epilogue s_nop deleted"),
                           ("caught by", "the machine")), (k, mode),
           "test_the_machine_finds_the_deleted_epilogue_nop")
      for k, mode in (("pingpong-bf16", "late"), ("pingpong-fp8", "random"))),
    *(Case(k, (("schedule", "pingpong"), ("mutation", "move"), ("caught by", "LLVM")), (k,),
           "test_caught_exactly_when_llvm_rejects_the_mutant")
      for k in ("pingpong-bf16", "pingpong-fp8"))]


def campaign(test: str) -> list:
    """The ``pytest.param``s of ``test``'s kernels (:data:`CAMPAIGN`)."""
    return sample_params(CAMPAIGN, test)


#: the check of the unmutated kernels on their runs' traces, a table of its own
#: (``campaign_sample.py``): each shipped kernel with its schedule, element type and where
#: its accumulators live (the AGPRs of the kernels with ``s_nop``, whose epilogue reads them
#: back; VGPRs); first the kernels whose traces the deletions' sample records, then the
#: others cheapest first, so the default run keeps a kernel of each kind and the long tier
#: the rest.  Every shipped kernel's code is checked on every path (``path_violations``,
#: before a wave runs) by each of its emulations in test_kernels.py as well
UNMUTATED_TEST = "test_the_shipped_kernels_have_no_violation"
UNMUTATED = [Case(k, (("schedule", k.split("-")[0]), ("type", k.split("-")[1]),
                      ("accumulators", "AGPR" if k in NOP_KERNELS else "VGPR")), (k,),
                  UNMUTATED_TEST)
             for k in (*DELETIONS_ORDER, "4wave-fp8-64", "4wave-bf16", "4wave-fp8-128")]


#: the module's items in one worker: the traces of a kernel (an emulated run) are recorded
#: once and read by the several items that judge it
pytestmark = pytest.mark.xdist_group(__name__)


@functools.lru_cache(maxsize=None)
def traces(asm: str, key: str, clean: bool = True):
    """(kernel, per wave the executed instruction indices, the instructions'
    :class:`~pipeline_mlir.emu.hazards.Info`) of one workgroup, one main-loop iteration,
    recorded once per process (read them only); with ``clean`` the run itself must be exact
    and find nothing, else its findings are collected (and the run goes on)."""
    kernel = load_kernel(asm)
    g = build(key).kernel.geometry
    seen: dict[int, list[int]] = {}
    original = Machine.step

    def step(self, w):
        seen.setdefault(w.index, []).append(w.pc)
        return original(self, w)
    Machine.step = step
    try:
        run = emulate_gemm(kernel, build(key).kernel, g.BM, g.BN, 4 * g.BK, collect=not clean)
    finally:
        Machine.step = original
    assert not clean or run.exact
    return kernel, list(seen.values()), infos(kernel.steps())


def nop_indices(kernel) -> list[int]:
    return [i for i, ins in enumerate(kernel.instrs) if ins.name == "s_nop"]


def llvm_nop_indices(kernel, asm: str) -> set[int]:
    """:func:`nop_indices` less the ``s_nop`` of the lowering's wait-state guards
    (``lowering/xdl_window.py``: fenced, after the ping-pong stagger's join), which are
    there whether or not LLVM's own count suffices in the build (in these kernels it does:
    deleting one breaks nothing; ``test_xdl_guard.py`` and ``test_llvm_join.py`` check
    them).  The kernel's ``s_nop`` are the assembly's, in order."""
    lines = asm.split("\n")
    guards = set(guard_nops(lines))
    own = [j not in guards for j, ln in enumerate(lines) if re.match(r"\s*s_nop \d", ln)]
    nops = nop_indices(kernel)
    assert len(own) == len(nops)
    return {p for p, llvm in zip(nops, own) if llvm}


def mutants(kernel, waves, info, moves: bool = True):
    """(description, per wave the Info sequence) of every deletion, shortening and (with
    ``moves``) move up by one or two instructions of each executed s_nop (``info``: the
    kernel's, :func:`traces`)."""
    for p in nop_indices(kernel):
        if not any(p in t for t in waves):
            continue
        imm = kernel.instrs[p].f["imm"]
        yield (p, "delete"), [[info[i] for i in t if i != p] for t in waves]
        if imm:
            short = Info(info[p].ins, info[p].ws - 1)
            yield (p, "shorten"), [[short if i == p else info[i] for i in t] for t in waves]
        for up in (1, 2) if moves else ():
            moved = [_move(t, p, up) for t in waves]
            if all(m is not None for m in moved):
                yield (p, f"up{up}"), [[info[i] for i in m] for m in moved]


def _move(trace: list[int], p: int, up: int) -> list[int] | None:
    """The trace with each occurrence of ``p`` moved ``up`` places earlier, when the ``up``
    instructions before it are always the ones before it in the program (no label between)."""
    out = list(trace)
    for k, i in enumerate(trace):
        if i == p:
            if k < up or out[k - up:k] != list(range(p - up, p)):
                return None
            out[k - up + 1:k + 1] = out[k - up:k]
            out[k - up] = p
    return out


def caught(waves) -> bool:
    for seq in waves:
        ws = WaitStates()
        if any(ws.step(i) is not None for i in seq):
            return True
    return False


def tracked(waves) -> set:
    """(producer address, reader address, rule, required, present) of every violation the
    machine's per-wave tracker finds on ``waves`` (per wave, the Info sequence)."""
    out = set()
    for seq in waves:
        ws = WaitStates()
        for info in seq:
            v = ws.step(info)
            if v is not None:
                out.add((v.first.addr, info.ins.addr, v.rule.name, v.required, v.present))
    return out


def path_check_agrees(kernel, info: list, p: int, ws: int, waves) -> None:
    """The s_nop at ``p`` issuing ``ws`` wait states (0: deleted) in the code: the check on
    every path reports every producer the tracker finds too early on the runs' traces of
    that mutant (``waves``), at the reader the tracker names when it names one.  The
    machine runs the tracker only when it collects findings (``Machine.__init__``): this
    is what makes that sound."""
    info = info[:p] + [Info(info[p].ins, ws)] + info[p + 1:]
    # a kernel object of its own: the path check is kept per kernel (Kernel.memo)
    paths = {v.violation.first.addr: v
             for v in path_violations(Kernel(kernel.name, kernel.instrs, kernel.launch,
                                             kernel.source), info)}
    tracker = tracked(waves)
    assert tracker, p
    for first, reader, rule, required, present in tracker:
        assert first in paths, (p, hex(first), rule)
        if len({r for f, r, *_ in tracker if f == first}) == 1:
            v = paths[first]
            assert (v.reader.addr, v.violation.rule.name, v.violation.required) == \
                (reader, rule, required) and v.violation.present <= present, (p, hex(first))


@pytest.mark.parametrize("key", campaign("test_every_deleted_or_shortened_nop_is_caught"))
def test_every_deleted_or_shortened_nop_is_caught(key):
    """Each caught on the traces by the tracker; in the ping-pong kernels by the check on
    every path too (the 256x256 kernels' hundreds of mutants would take it seconds more)."""
    kernel, waves, info = traces(build(key).asm, key)
    own = llvm_nop_indices(kernel, build(key).asm)
    found = [m for m in mutants(kernel, waves, info, moves=False) if m[0][0] in own]
    assert len(found) >= 8  # the M0 writes' slots are filled: 9 s_nop mutants a kernel
    assert [what for what, w in found if not caught(w)] == []
    for (p, what), w in found if key.startswith("pingpong") else ():
        path_check_agrees(kernel, info, p, 0 if what == "delete" else
                          kernel.instrs[p].f["imm"] & 0xF, w)


@pytest.mark.parametrize("key", sample_params(UNMUTATED, UNMUTATED_TEST))
def test_the_shipped_kernels_have_no_violation(key):
    """The kernels LLVM built, unmutated: no rule broken in any wave (the 4-wave kernels with
    VGPR accumulators, which have no s_nop at all, included)."""
    kernel, waves, info = traces(build(key).asm, key)
    assert not caught([[info[i] for i in t] for t in waves])
    assert (key in NOP_KERNELS) == bool(nop_indices(kernel))
    assert path_violations(kernel) == []     # on the paths not run either


def _last_llvm_nop(lines: list[str]) -> int:
    """The line of the kernel's last ``s_nop`` that LLVM put (before the epilogue's reads),
    not one of a wait-state guard of the lowering (``lowering/xdl_window.py``: after the
    ping-pong stagger's join, where LLVM's own count already suffices in these kernels)."""
    guards = set(guard_nops(lines))
    return max(j for j, ln in enumerate(lines) if re.match(r"\s*s_nop \d", ln) and
               j not in guards)


@pytest.mark.parametrize("key", campaign("test_the_path_check_finds_the_deleted_epilogue_nop"))
def test_the_path_check_finds_the_deleted_epilogue_nop(key):
    """The last s_nop deleted from the assembly (as in the test below, which runs it): the
    path check of the code, without running it, reports the MFMA rule it breaks."""
    lines = build(key).asm.split("\n")
    i = _last_llvm_nop(lines)
    found = path_violations(load_kernel("\n".join(lines[:i] + lines[i + 1:])))
    assert found and all(v.violation.rule.name.startswith("mfma-") for v in found)


@pytest.mark.parametrize("key,mode", campaign("test_the_machine_finds_the_deleted_epilogue_nop"))
def test_the_machine_finds_the_deleted_epilogue_nop(key, mode):
    """End to end: the last s_nop of the kernel (before the epilogue's reads, which
    overwrite an MFMA's C or D) deleted from the assembly.  The machine reports it from the
    check on every path, before any wave runs, so the memory mode does not matter: one
    mode per kernel."""
    lines = build(key).asm.split("\n")
    i = _last_llvm_nop(lines)
    asm = "\n".join(lines[:i] + lines[i + 1:])
    g = build(key).kernel.geometry
    with pytest.raises(Finding, match=r"wait-states: .* required \(mfma-.* on some path"):
        emulate_gemm(load_kernel(asm), build(key).kernel, g.BM, g.BN, 4 * g.BK, mode)


# ---- LLVM as the judge -------------------------------------------------------------------

_META = re.compile(r"^\s*(SCHED_BARRIER|SCHED_GROUP_BARRIER|INLINEASM|KILL|IMPLICIT_DEF|"
                   r"CFI_INSTRUCTION|DBG_)")


def _mir_mutant(mir_lines: list[str], nop_lines: list[int], k: int, what: str) -> str:
    lines = list(mir_lines)
    at = nop_lines[k]
    if what == "delete":
        del lines[at]
    elif what == "shorten":
        n = int(lines[at].split()[-1])
        lines[at] = lines[at].replace(f"S_NOP {n}", f"S_NOP {n - 1}")
    else:
        j, left = at, int(what[2:])
        while left:
            j -= 1
            s = lines[j].strip()
            assert s and not s.startswith("bb.") and not s.endswith(":"), "a label crossed"
            if not _META.match(lines[j]):
                left -= 1
        lines.insert(j, lines.pop(at))
    return "\n".join(lines)


#: the kernels LLVM judges in the default run: the 4-wave 256x256 ones take about a minute
#: each on a loaded machine (a few hundred llc runs), so ``PIPELINE_EMU_FULL=1`` adds them
LLVM_JUDGED = NOP_KERNELS if os.environ.get("PIPELINE_EMU_FULL") == "1" else \
    tuple(k for k in NOP_KERNELS if k.startswith("pingpong"))


@pytest.mark.skipif(LLC is None or OPT is None, reason="llc-22 / opt-22 (LLVM 22) missing")
@pytest.mark.parametrize("key", campaign("test_caught_exactly_when_llvm_rejects_the_mutant") +
                         [k for k in LLVM_JUDGED if not k.startswith("pingpong")])
def test_caught_exactly_when_llvm_rejects_the_mutant(key):
    # the kernel's ``--emit=llvm`` output: the run's build of it (the same compilation)
    asm, mir = compile_with_llc(build(key).ll)
    kernel, waves, info = traces(asm, key, clean=False)
    mir_lines = mir.split("\n")
    nop_lines = [i for i, ln in enumerate(mir_lines) if re.match(r"^\s*S_NOP \d", ln)]
    nops = nop_indices(kernel)
    assert len(nops) == len(nop_lines)
    found = list(mutants(kernel, waves, info))
    # LLVM's verdicts on the mutants' MIR, from one llc-22 run (one function a mutant)
    missing = missing_wait_states_each([_mir_mutant(mir_lines, nop_lines, nops.index(p), what)
                                        for (p, what), _ in found])
    verdicts = {m: (caught(w), n > 0) for (m, w), n in zip(found, missing)}
    wrong = {m: v for m, v in verdicts.items() if v[0] != v[1]}
    assert not wrong
    unsafe = sum(v[1] for v in verdicts.values())
    assert unsafe >= 15 and len(verdicts) - unsafe >= 1, (unsafe, len(verdicts))


def test_the_sample_holds_every_schedule_type_mutation_and_check():
    """The default run's items of :data:`CAMPAIGN` (those not marked ``long``) hold each of
    its schedules, element types, mutations and checks, and those of :data:`UNMUTATED`
    (every shipped kernel) each schedule, type and place of the accumulators
    (``campaign_sample.py``; the check fails on a sample that misses one:
    test_campaign_sample.py)."""
    kept = set().union(*(default_ids(campaign(t), t) for t in {c.test for c in CAMPAIGN}))
    assert uncovered(CAMPAIGN, kept) == set()
    assert {c.id for c in UNMUTATED} == set(KERNEL_SPECS)
    assert uncovered(UNMUTATED, default_ids(sample_params(UNMUTATED, UNMUTATED_TEST),
                                            UNMUTATED_TEST)) == set()
