"""A code object or assembly text loaded again is read and compiled once per process
(``codeobj.prepared``), and every load is a kernel of its own: editing one (as the mutation
tests do) compiles it alone and leaves the others as they were read.  The compiled steps are
kept by the instructions' records (``codeobj.compiled_steps``): one compilation for every
workgroup count and every kernel of the same instructions, another for other instructions."""

from __future__ import annotations

import dataclasses
import pickle
from collections import OrderedDict

import numpy as np

from emu_helpers import LDS_WAR, snippet_kernel

from pipeline_mlir.emu.asmline import parse_instruction
from pipeline_mlir.emu import codeobj
from pipeline_mlir.emu.codeobj import PREPARED_SOURCES, prepared
from pipeline_mlir.emu.machine import GlobalMemory, Machine

SOURCE = "s_mov_b32 s4, 1\ns_endpgm"


def _reader(calls: list):
    def read(data):
        calls.append(data)
        return {"snippet": snippet_kernel(SOURCE)}
    return read


def _s4(kernel) -> int:
    m = Machine(kernel, GlobalMemory(), [0], 1)
    m.run()
    return int(m.waves[0].S[4, 0])


def test_a_source_loaded_twice_is_read_once_into_two_kernels():
    calls: list = []
    a = prepared("loaded twice", _reader(calls))["snippet"]
    b = prepared("loaded twice", _reader(calls))["snippet"]
    assert calls == ["loaded twice"]
    assert a is not b and all(x is not y for x, y in zip(a.instrs, b.instrs))
    assert a.launch is not b.launch
    assert a.steps() is b.steps()                                  # compiled once
    made = []
    assert a.memo("m", lambda k: made.append(k) or 7) == b.memo("m", lambda k: 8) == 7
    assert len(made) == 1
    assert _s4(a) == _s4(b) == 1


def test_an_edited_kernel_is_compiled_alone():
    """In place or by another instruction object: the edited kernel runs its edit, the
    other loads and the next one run what was read."""
    calls: list = []
    a, b = (prepared("edited", _reader(calls))["snippet"] for _ in range(2))
    a.instrs[0].f.update(parse_instruction("s_mov_b32 s4, 2", 0)[0].f)
    assert a.steps() is not b.steps()
    assert (_s4(a), _s4(b)) == (2, 1)
    a.instrs[0] = parse_instruction("s_mov_b32 s4, 3", 0)[0]
    assert (_s4(a), _s4(b), _s4(prepared("edited", _reader(calls))["snippet"])) == (3, 1, 1)
    assert (_s4(a.copy()), _s4(b.copy())) == (3, 1)        # a copy is of what it copies
    assert len(calls) == 1


def test_a_replaced_kernel_pickles_and_runs_the_steps_of_its_instructions():
    """``dataclasses.replace`` (another launch, the pool's copy for its processes) makes a
    kernel that shares no memo with the load it came from; its steps are those of its
    instructions (the same records: the same steps)."""
    a = prepared("replaced", _reader([]))["snippet"]
    a.steps()
    r = dataclasses.replace(a, _compiled={})
    assert pickle.loads(pickle.dumps(r)).instrs[0].text == a.instrs[0].text
    assert r.steps() is a.steps() and _s4(r) == 1


def test_only_the_last_sources_are_kept():
    calls: list = []
    for k in range(PREPARED_SOURCES + 1):
        prepared(f"kept {k}", _reader(calls))
    prepared(f"kept {PREPARED_SOURCES}", _reader(calls))     # the newest: kept
    assert len(calls) == PREPARED_SOURCES + 1
    prepared("kept 0", _reader(calls))                       # the oldest: read again
    assert len(calls) == PREPARED_SOURCES + 2


#: :data:`emu_helpers.LDS_WAR` with each lane's dword its workgroup's id, and wave 0's
#: v12 the dword read plus 7 (an LDS race when ``{wait}`` is empty; in late mode the read
#: sees the write)
RACY = LDS_WAR.replace("v_mov_b32_e32 v4, 1", "v_mov_b32_e32 v4, s2").replace(
    "v_mov_b32_e32 v12, v8", "v_add_u32_e32 v12, 7, v8")


def _verdict(kernel, workgroups) -> tuple:
    """The findings, the instruction count and wave 0's v12 of a late run on 2 waves."""
    m = Machine(kernel, GlobalMemory(), list(workgroups), 2, "late", collect=True)
    m.lds[:] = 0
    m.run()
    return [(f.kind, str(f)) for f in m.findings], m.count, m.waves[0].V[12].tolist()


def _compilations(monkeypatch) -> list:
    """The instructions compiled from now on (the kept steps of earlier tests set aside)."""
    monkeypatch.setattr(codeobj, "_STEPS", OrderedDict())
    made: list = []
    real = codeobj.compile_instr
    monkeypatch.setattr(codeobj, "compile_instr", lambda *a: made.append(a[0]) or real(*a))
    return made


def test_one_compilation_serves_every_batch_and_gives_a_fresh_compilation_s_verdict(
        monkeypatch):
    """The racy kernel on 1 and on 3 workgroups in lockstep, loaded again and as another
    load of its text: compiled once, and each run's findings, count and registers are
    those of a run compiled afresh (the kept steps emptied first)."""
    made = _compilations(monkeypatch)
    text = RACY.format(wait="")
    runs = [_verdict(snippet_kernel(text), wgs) for wgs in ((0,), (0, 1, 2), (5,))]
    runs.append(_verdict(prepared(text, lambda t: {"snippet": snippet_kernel(t)})["snippet"],
                         (0, 1, 2)))
    assert len(made) == len(snippet_kernel(text).instrs)          # one compilation
    fresh = []
    for wgs in ((0,), (0, 1, 2), (5,), (0, 1, 2)):
        codeobj._STEPS.clear()
        fresh.append(_verdict(snippet_kernel(text), wgs))
    assert runs == fresh
    kinds = [[k for k, _ in r[0]] for r in runs]
    assert kinds == [["lds-race"]] * 4                    # the verdict: the race, found
    assert runs[1][2][0][0] == 7 and runs[1][2][2][0] == 9    # the write seen, per workgroup
    ordered = _verdict(snippet_kernel(RACY.format(wait="s_waitcnt lgkmcnt(0)")), (0, 1, 2))
    assert ordered[0] == [] and not np.any(np.array(ordered[2]) - 7)


def test_other_instructions_are_not_served_the_kept_steps(monkeypatch):
    """A kernel differing from a compiled one in one field (the wait that orders the read),
    in a literal or in its text alone has steps of its own, and runs its own instructions."""
    made = _compilations(monkeypatch)
    ordered, racy = (snippet_kernel(RACY.format(wait="s_waitcnt lgkmcnt(0)")) for _ in "ab")
    k = next(k for k, ins in enumerate(racy.instrs) if ins.name == "s_waitcnt")  # {wait}
    wait = racy.instrs[k]
    wait.f.update(parse_instruction("s_waitcnt lgkmcnt(1)", wait.addr)[0].f)   # its text kept
    assert wait.text == ordered.instrs[k].text and wait.f != ordered.instrs[k].f
    assert racy.steps() is not ordered.steps()
    assert [k for k, _ in _verdict(racy, (0,))[0]] == ["lds-race"]
    assert _verdict(ordered, (0,))[0] == []
    other = snippet_kernel(RACY.format(wait="s_waitcnt lgkmcnt(0)").replace(" 7,", " 9,"))
    assert _verdict(other, (0,))[2][0][0] == 9
    texts = snippet_kernel(RACY.format(wait=""))
    texts.instrs[0].text += " ; another text"
    assert texts.steps()[0].ins.text.endswith("another text")
    assert len(made) == sum(len(k.instrs) for k in (ordered, racy, other, texts))
