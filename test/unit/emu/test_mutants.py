"""Mutants of the final assembly are caught: every deleted or weakened wait and every deleted
barrier of a main loop, swapped MFMA operands, wrong ds_read offsets; and the 4-wave kernels
built without ``sched-fix-hazards`` show the races the simulator reports for the reference
schedule (a fragment read in flight when the next tile's DMA overwrites it; epilogue reads
of slots other waves loaded with no barrier after the wait).

Caught means: a finding (pending register, LDS race, ...) or C different from the reference.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from campaign_sample import Case, default_ids, uncovered
from campaign_sample import params as sample_params
from kernel_builds import build, main_loop
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.tools.pipeline_opt import main

#: the kernels whose main loops are mutated (the cheapest BF16 and FP8 ones)
KEYS = ("4wave-fp8-64", "4wave-bf16")

#: the campaign (``campaign_sample.py``): each mutation (a test of its own) on each kernel of
#: :data:`KEYS`, with how it is caught (``finding``: a finding of any kind or a wrong C); the
#: default run keeps the first item of each kernel, mutation and verdict in this order (the
#: cheapest mutation first, so that it holds the second kernel; the cheaper kernel first),
#: the long tier the rest
CAMPAIGN = [Case(key, (("kernel", key), ("mutation", test.removeprefix("test_")),
                       ("verdict", verdict)), (key,), test)
            for test, verdict, keys in [
                ("test_the_vmcnt_moved_to_the_loop_exit_is_needed", "finding", KEYS),
                ("test_every_deleted_wait_of_the_main_loop_is_caught", "finding", KEYS),
                ("test_every_weakened_wait_of_the_main_loop_is_caught", "finding", KEYS),
                ("test_every_deleted_barrier_of_the_main_loop_is_caught", "lds-race", KEYS),
                ("test_swapped_mfma_operands_are_caught", "wrong result", KEYS),
                ("test_wrong_ds_read_offsets_are_caught", "lds-race or wrong result", KEYS),
                ("test_without_fix_hazards_the_4wave_races_show", "lds-race", KEYS)]
            for key in keys]


def campaign(test: str) -> list:
    """The ``pytest.param``s of mutation ``test``'s kernels (:data:`CAMPAIGN`)."""
    return sample_params(CAMPAIGN, test)


def caught(text_or_kernel, key: str, iterations: int = 1, mode: str = "late") -> str | None:
    """How a mutant is caught (the finding kind, 'wrong result'), or None: the first
    workgroup of a 2 x 2 grid run (a main-loop mutant changes every workgroup alike: LDS,
    waits and barriers are a workgroup's own, and the others' tiles of A, B and C are the
    same code at other offsets)."""
    b = build(key)
    k = load_kernel(text_or_kernel) if isinstance(text_or_kernel, str) else text_or_kernel
    g = b.kernel.geometry
    try:
        run = emulate_gemm(k, b.kernel, 2 * g.BM, 2 * g.BN, 2 * g.BK * (iterations + 1), mode,
                           count=1)
    except Finding as e:
        return e.kind
    return None if run.exact else "wrong result"


def mutants(key: str, pattern: str, edit, skip_equivalent: bool = False):
    """(line, text, mutated assembly) of each main-loop line matching ``pattern``."""
    lines, loop = main_loop(build(key).asm)
    for i in loop:
        if re.match(pattern, lines[i].strip()):
            new = edit(lines[i])
            if new is None or (skip_equivalent and equivalent(lines, loop, i, new)):
                continue
            yield i, lines[i].strip(), "\n".join(lines[:i] + [new] + lines[i + 1:])


_MEMORY = re.compile(r"^(s_barrier|ds_|buffer_|global_|flat_|s_load|s_buffer_load)")


def _counts(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"(vmcnt|lgkmcnt)\((\d+)\)", line)}


def equivalent(lines: list[str], loop: range, i: int, new: str) -> bool:
    """Is replacing wait ``i`` by ``new`` not a change of behaviour?  True when the next wait
    (following the loop's back edge) waits for every counter at least as strictly as the
    original, and nothing in between depends on the difference: no barrier or memory access,
    and for an lgkmcnt wait no vector instruction either (those read fragment registers)."""
    old, kept = _counts(lines[i]), _counts(new)
    weaker = [c for c in old if kept.get(c, 99) > old[c]]
    order = list(range(i + 1, loop.stop)) + list(loop)
    for j in order:
        t = lines[j].split(";")[0].strip()
        if not t:
            continue
        if t.startswith("s_waitcnt"):
            nxt = _counts(t)
            return all(nxt.get(c, 99) <= old[c] for c in weaker)
        if _MEMORY.match(t) or ("lgkmcnt" in weaker and t.startswith("v_")):
            return False
    return False


def _weaken(line: str) -> str | None:
    def bump(m):
        name, v = m.group(1), int(m.group(2))
        top = 63 if name == "vmcnt" else 15
        return f"{name}({min(v + 1, top)})"
    new = re.sub(r"(vmcnt|lgkmcnt)\((\d+)\)", bump, line)
    return None if new == line else new


@pytest.mark.parametrize("key", KEYS)
def test_unmutated_main_loop_is_clean(key):
    assert caught(build(key).asm, key) is None


@pytest.mark.parametrize("key", KEYS)
def test_no_main_loop_wait_can_go(key):
    """No wait of the main loop is one whose deletion changes nothing (a vmcnt wait that the
    next wait, across the back edge too, repeats with only MFMAs between): the lowering
    drops the first half's (``schedule/fences.py``, ``repeated_waits``) and
    ``sched-fix-hazards`` moves the loop's last one to the loop's exit
    (``schedule/loop_waits.py``), where the epilogue's reads need it."""
    lines, loop = main_loop(build(key).asm)
    waits = [i for i in loop if lines[i].strip().startswith("s_waitcnt")]
    assert waits
    assert [lines[i].strip() for i in waits if equivalent(lines, loop, i, "")] == []


@pytest.mark.parametrize("key", campaign("test_every_deleted_wait_of_the_main_loop_is_caught"))
def test_every_deleted_wait_of_the_main_loop_is_caught(key):
    found = list(mutants(key, r"s_waitcnt", lambda ln: "", skip_equivalent=True))
    assert len(found) >= 4
    missed = [(i, text) for i, text, asm in found if caught(asm, key) is None]
    assert not missed


@pytest.mark.parametrize("key", campaign("test_every_weakened_wait_of_the_main_loop_is_caught"))
def test_every_weakened_wait_of_the_main_loop_is_caught(key):
    found = list(mutants(key, r"s_waitcnt", _weaken, skip_equivalent=True))
    assert len(found) >= 4
    missed = [(i, text) for i, text, asm in found if caught(asm, key) is None]
    assert not missed


@pytest.mark.parametrize("key", campaign("test_the_vmcnt_moved_to_the_loop_exit_is_needed"))
def test_the_vmcnt_moved_to_the_loop_exit_is_needed(key):
    """The loop's last vmcnt wait opens the epilogue (``sched-fix-hazards`` moved it out of
    the loop): without it the epilogue reads LDS before the last DMAs have written it."""
    lines = build(key).asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if "%._crit_edge" in ln)
    i = next(j for j in range(start, len(lines)) if lines[j].strip().startswith("s_waitcnt"))
    assert "vmcnt" in lines[i] and "lgkmcnt(0)" in lines[i]
    new = re.sub(r"vmcnt\(\d+\)\s*", "", lines[i])
    for n in (1, 2):
        assert caught("\n".join(lines[:i] + [new] + lines[i + 1:]), key, iterations=n) \
            is not None, n


@pytest.mark.parametrize("key", campaign("test_every_deleted_barrier_of_the_main_loop_is_caught"))
def test_every_deleted_barrier_of_the_main_loop_is_caught(key):
    found = list(mutants(key, r"s_barrier$", lambda ln: ""))
    assert len(found) >= 2
    for i, text, asm in found:
        assert caught(asm, key) == "lds-race", (i, text)


@pytest.mark.parametrize("key", campaign("test_swapped_mfma_operands_are_caught"))
def test_swapped_mfma_operands_are_caught(key):
    def swap(line):
        m = re.match(r"^(\s*v_mfma\w+ \S+, )(\S+), (\S+), (.*)$", line)
        return f"{m.group(1)}{m.group(3)}, {m.group(2)}, {m.group(4)}" if m else None
    found = list(mutants(key, r"v_mfma", swap))[:3]
    assert found
    for i, text, asm in found:
        assert caught(asm, key) == "wrong result", (i, text)


@pytest.mark.parametrize("key", campaign("test_wrong_ds_read_offsets_are_caught"))
def test_wrong_ds_read_offsets_are_caught(key):
    def shift(delta):
        def edit(line):
            m = re.search(r"offset:(\d+)", line)
            if m:
                return line.replace(m.group(0), f"offset:{int(m.group(1)) + delta}")
            return line + f" offset:{delta}"
        return edit
    for delta in (16, 1024):
        found = list(mutants(key, r"ds_read_b128", shift(delta)))[:3]
        assert found
        for i, text, asm in found:
            assert caught(asm, key) in ("lds-race", "wrong result"), (delta, i, text)


def test_mutating_the_decoded_code_object():
    """The same mutations on the instructions decoded from the .hsaco (no assembler)."""
    key = "4wave-fp8-64"
    k = load_kernel(build(key).hsaco)
    mfma = next(i for i in k.instrs if i.name.startswith("v_mfma"))
    mfma.f["src0"], mfma.f["src1"] = mfma.f["src1"], mfma.f["src0"]
    mfma.text = format_instr(mfma)
    assert caught(k, key) == "wrong result"
    k = load_kernel(build(key).hsaco)
    # the wait at the top of the main loop's first block (vmcnt for the DMA, lgkmcnt)
    wait = next(i for i in k.instrs if i.text == "s_waitcnt vmcnt(4) lgkmcnt(0)")
    wait.f["imm"] = 0xCF7F                       # no counter waited for
    wait.text = format_instr(wait)
    assert caught(k, key) in ("lds-race", "pending-register", "wrong result")


def _no_fix_hazards(spec: str) -> bytes:
    """The complete kernel of ``spec`` compiled without sched-fix-hazards (driver only),
    without the ISA check of the build (``--no-isa-check``: it refuses the BF16 kernel's,
    a ``frag-wait-weak`` in the loop; the emulator's findings are what is tested here)."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.gemm_mlir import kernel_mlir
    from pipeline_mlir.schedules.registry import parse_pipeline

    gemm = gemm_kernel(parse_pipeline(spec))
    name, _, rest = gemm.schedule.spec().partition("{")
    opts = f"schedule={name} {rest.rstrip('}')}".strip()
    passes = ["sched-verify", "sched-annotate", "sched-reorder", "sched-derive-edges",
              "sched-schedule", "sched-derive-waits", "sched-verify", "sched-explicit-blocks",
              "sched-expand-phases", "sched-verify", "sched-lower-to-rocdl"]
    pipeline = f"builtin.module(sched-import{{{opts}}},{','.join(passes)})"
    with tempfile.TemporaryDirectory() as d:          # pipeline-opt in this process
        src, out = Path(d, "k.mlir"), Path(d, "k.hsaco")
        src.write_text(kernel_mlir(gemm))
        assert main([str(src), f"--pass-pipeline={pipeline}", "--emit=hsaco",
                     "--no-isa-check", "-o", str(out)]) == 0
        return out.read_bytes()


@pytest.mark.parametrize("key", campaign("test_without_fix_hazards_the_4wave_races_show"))
def test_without_fix_hazards_the_4wave_races_show(key):
    b = build(key)
    k = load_kernel(_no_fix_hazards(b.spec))
    g = b.kernel.geometry
    M, N = 2 * g.BM, 2 * g.BN
    clean = emulate_gemm(k, b.kernel, M, N, 2 * g.BK, collect=True)     # zero-trip: fenced
    assert clean.exact and not clean.findings
    run = emulate_gemm(k, b.kernel, M, N, 4 * g.BK, collect=True)
    texts = [str(f) for f in run.findings]
    assert all(f.kind == "lds-race" for f in run.findings)
    # WAR: the next tile's DMA overwrites a slot whose fragment read is still in flight
    assert any("buffer_load_dwordx4" in t.split("races")[0] and "races the read" in t
               and "not yet waited for" in t for t in texts)
    # RAW in the epilogue: a fragment read of a slot another wave loaded, no barrier since
    assert any(t.split("races")[0].count("ds_read_b128") and "races the write" in t
               for t in texts)
    fixed = emulate_gemm(load_kernel(b.hsaco), b.kernel, M, N, 4 * g.BK, collect=True)
    assert fixed.exact and not fixed.findings


def test_the_sample_holds_every_kernel_mutation_and_verdict():
    """The default run's items of :data:`CAMPAIGN` (those not marked ``long``) hold each of
    its kernels, mutations and verdicts (``campaign_sample.py``; the check fails on a sample
    that misses one: test_campaign_sample.py)."""
    kept = set().union(*(default_ids(campaign(t), t) for t in {c.test for c in CAMPAIGN}))
    assert uncovered(CAMPAIGN, kept) == set()
