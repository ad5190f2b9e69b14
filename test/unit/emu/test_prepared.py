"""A code object or assembly text loaded again is read and compiled once per process
(``codeobj.prepared``), and every load is a kernel of its own: editing one (as the mutation
tests do) compiles it alone and leaves the others as they were read."""

from __future__ import annotations

import dataclasses
import pickle

from emu_helpers import snippet_kernel

from pipeline_mlir.emu.asmline import parse_instruction
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
    assert a.steps(1) is b.steps(1) and a.steps(2) is b.steps(2)   # compiled once
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
    assert a.steps(1) is not b.steps(1)
    assert (_s4(a), _s4(b)) == (2, 1)
    a.instrs[0] = parse_instruction("s_mov_b32 s4, 3", 0)[0]
    assert (_s4(a), _s4(b), _s4(prepared("edited", _reader(calls))["snippet"])) == (3, 1, 1)
    assert (_s4(a.copy()), _s4(b.copy())) == (3, 1)        # a copy is of what it copies
    assert len(calls) == 1


def test_a_replaced_kernel_compiles_its_own_and_pickles():
    """``dataclasses.replace`` (another launch, the pool's copy for its processes) makes a
    kernel that shares nothing compiled with the load it came from."""
    a = prepared("replaced", _reader([]))["snippet"]
    a.steps(1)
    r = dataclasses.replace(a, _compiled={})
    assert pickle.loads(pickle.dumps(r)).instrs[0].text == a.instrs[0].text
    assert r.steps(1) is not a.steps(1) and _s4(r) == 1


def test_only_the_last_sources_are_kept():
    calls: list = []
    for k in range(PREPARED_SOURCES + 1):
        prepared(f"kept {k}", _reader(calls))
    prepared(f"kept {PREPARED_SOURCES}", _reader(calls))     # the newest: kept
    assert len(calls) == PREPARED_SOURCES + 1
    prepared("kept 0", _reader(calls))                       # the oldest: read again
    assert len(calls) == PREPARED_SOURCES + 2
