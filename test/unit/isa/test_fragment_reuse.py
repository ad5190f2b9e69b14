"""The rules of what a pipelined kernel's MFMAs multiply (``pipeline_mlir/isa/fragment_reuse.py``:
``fragment-reused``, ``operand-accumulator``, ``operand-loaded``) where the comparison with
the plan does not run: :func:`~pipeline_mlir.isa.check.check_without_schedule` of a
function holding a pipelined loop runs them too (its ``pipelined``), and the gate refuses
what they find; an MFMA function beside the pipelined one (no plan names it) is not held
to them.  Each snippet is a few lines of assembly (no build; well under 0.1 s each)."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.built_check import errors
from pipeline_mlir.isa.check import check_without_schedule

#: three reads, the first multiplied as A by both MFMAs of one chain
REUSED = """
\tds_read_b128 v[10:13], v40
\tds_read_b128 v[14:17], v41
\tds_read_b128 v[18:21], v42
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], 0
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[18:21], v[0:3]
\ts_endpgm
"""
#: ... each MFMA of the chain its own A
FRESH = REUSED.replace("v[10:13], v[18:21]", "v[22:25], v[18:21]").replace(
    "\ts_waitcnt", "\tds_read_b128 v[22:25], v43\n\ts_waitcnt")
#: an MFMA whose A is the first MFMA's result (wait states kept)
ACCUMULATOR = """
\tds_read_b128 v[10:13], v40
\tds_read_b128 v[14:17], v41
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], 0
\ts_nop 7
\ts_nop 7
\ts_nop 3
\tv_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[14:17], 0
\ts_endpgm
"""
#: an MFMA whose A is what a global load wrote
LOADED = """
\tbuffer_load_dwordx4 v[10:13], v40, s[0:3], 0 offen
\tds_read_b128 v[14:17], v41
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], 0
\ts_endpgm
"""


@pytest.mark.parametrize("asm, kind", [(REUSED, "fragment-reused"),
                                       (ACCUMULATOR, "operand-accumulator"),
                                       (LOADED, "operand-loaded")],
                         ids=["fragment-reused", "operand-accumulator", "operand-loaded"])
def test_a_pipelined_function_is_held_to_the_operand_rules_without_its_plan(asm, kind):
    """Held as a pipelined kernel's function (``pipelined``), each snippet is refused with
    its rule's finding; as an MFMA function beside it, nothing is found (an f32 or f64
    MFMA may take another's result, a kernel of its own may multiply what it loads)."""
    fn = parse_asm(asm).function()
    found = errors(check_without_schedule(fn, pipelined=True))
    assert [f.kind for f in found] == [kind], [(f.kind, f.message) for f in found]
    assert check_without_schedule(fn) == []


def test_the_rules_named_are_the_kinds_found():
    """What the report names as run without the schedule (``rules_without_schedule``) holds
    the kind of every finding ``check_without_schedule`` makes of the snippets, the
    operand rules only with ``pipelined`` (the report named ``wait-short, waterfall``
    alone)."""
    from pipeline_mlir.isa.check import rules_without_schedule

    short = REUSED.replace("\ts_waitcnt lgkmcnt(0)\n", "")
    for flag in (True, False):
        named = rules_without_schedule(pipelined=flag)
        assert len(set(named)) == len(named), named
        for asm in (REUSED, ACCUMULATOR, LOADED, short):
            found = check_without_schedule(parse_asm(asm).function(), pipelined=flag)
            assert {f.kind for f in found} <= set(named), (found, named)
    operand = {"fragment-reused", "operand-accumulator", "operand-loaded"}
    assert operand <= set(rules_without_schedule(pipelined=True))
    assert not operand & set(rules_without_schedule())
    assert {"wait-short", "waterfall", "lds-race", "wait-states"} <= \
        set(rules_without_schedule())


def test_a_chain_of_fresh_fragments_passes():
    """Each MFMA of the chain multiplying its own read: no finding."""
    assert check_without_schedule(parse_asm(FRESH).function(), pipelined=True) == []


@pytest.mark.long("the snippets above hold each rule in check_without_schedule; "
                  "test_isa_gate.py's moved-MFMA items hold this kernel's mutants by the "
                  "comparison")
@pytest.mark.parametrize("phase, n, kind", [("loop", 8, "fragment-reused"),
                                           ("loop", 1, "operand-accumulator"),
                                           ("epilogue", 1, "operand-loaded")])
def test_a_real_kernels_moved_mfma_is_refused_without_the_comparison(phase, n, kind):
    """IREE's fp8 ``A x B^T`` 129x64x1000, late form (two trips unrolled, register-staged
    copies): its ``n``-th MFMA of the loop copies or the epilogue moved above the
    ``ds_read`` s that fill its registers (C WRONG on the emulator, test_isa_gate.py), held
    to the rules that read the assembly alone (its plan without a trip count: the
    comparison is not made), is refused by the operand rule; before, those rules passed
    all three.  The kernel is built once per run (``kernel_builds.built_iree``, shared with
    test_isa_gate.py; about 10 s of CPU alone), each check under 0.1 s."""
    import dataclasses

    from kernel_builds import built_iree
    from pipeline_mlir.isa.asm_instr import registers
    from pipeline_mlir.isa.built_check import pipelined_check
    from pipeline_mlir.isa.report import unrolled_note
    from pipeline_mlir.isa.unrolled import unrolled_check

    b = built_iree(dict(dtype="fp8", m=129, n=64, k=1000), "late")
    code = unrolled_check(parse_asm(b.asm).function(), b.plan).phases[phase]
    k = [j for j, i in enumerate(code) if i.kind == "mfma"][n]
    need = {r for o in code[k].operands[1:3] for r in registers(o)}
    first = k
    for j in range(k - 1, -1, -1):
        if code[j].kind == "ds_read" and need & set(code[j].defs):
            first, need = j, need - set(code[j].defs)
    lines = b.asm.split("\n")
    moved = lines[code[k].line - 1]
    lines[code[k].line - 1] = None
    lines.insert(code[first].line - 1, moved)
    fn = parse_asm("\n".join(x for x in lines if x is not None)).function()
    ran = pipelined_check(fn, dataclasses.replace(b.plan, trips=None),
                          unrolled_note(fn, b.ll), b.ll)
    assert ran.isa is None, ran.note
    assert kind in {f.kind for f in errors(ran.findings)}, [f.kind for f in ran.findings]
