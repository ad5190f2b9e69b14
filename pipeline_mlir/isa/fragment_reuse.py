"""``fragment-reused``: one execution of a fragment read multiplied into one accumulator
twice; ``operand-accumulator``, ``operand-loaded``: an MFMA's A or B that is no
fragment read from LDS.

Each MFMA of an accumulator chain (:func:`~pipeline_mlir.isa.read_places.mfma_chains`)
adds the product of another K slice: the A and B fragments it multiplies are read for it
alone in that chain (the other chains of its row or column read the same registers).  Two
MFMAs of one chain that read the same bytes of one ``ds_read`` result as the same
operand, on one path from the read with no back edge crossed (the value of one
execution of the read: :attr:`~pipeline_mlir.isa.read_places.ReadPlaces.ahead`, the
two MFMAs' blocks one dominating the other, or in one block), count one K slice twice
and leave another out.  That is what an MFMA moved above the reads that fill its
registers does where the registers it then reads hold the same chain's previous
fragment: the comparison with the plan misses it where it finds the phase's MFMAs astray
anyway (IREE's register-staged fp8 ``A x B^T`` 129x64x1000, late form: 12 of the 14
single-MFMA moves the gate passed read so, each C WRONG on the emulator), and the
register rules see written registers.

Not held: a read whose registers the walk does not follow (``ReadPlaces.why``), an MFMA
of a chain not followed (``Chains.why``), stale registers another chain's read wrote.

An MFMA's A and B are fragments: an MFMA that reads another's result as its A or B, on
some path, through copies (:attr:`~pipeline_mlir.isa.read_places.Chains.operand_of`),
multiplies an accumulator.  Two MFMAs swapped where the one moved up writes the registers
the other reads as A (fp8 ``A x B^T`` 64x31x96's epilogue, its first two MFMAs, chain
starts), or an MFMA moved above the reads of its B where its result is the next MFMA's
A (129x64x1000's second loop MFMA): the emulator stops at the wait-state hazard of an
MFMA reading another's fresh result as A (``mfma-d-srcab``), which the wait-state rule
(:mod:`~pipeline_mlir.isa.mfma_gaps`) leaves to it; the gate passed both.  Nor is a
pipelined kernel's operand a global load's result: its copies go to LDS and its
fragments are read from there, and an MFMA reading a global load's registers as A or B,
on some path, through copies (:func:`~pipeline_mlir.isa.read_places.loaded_operands`),
multiplies a register-staged copy's data before its ``ds_write`` (129x64x1000's second
epilogue MFMA moved above the reads of its B, whose registers a ``buffer_load`` of the
last copy wrote last: C WRONG on the emulator; the gate passed it).

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.isa.natural_loops import dominators
from pipeline_mlir.isa.read_places import loaded_operands, mfma_chains, read_places

__all__ = ["reused_fragments", "accumulators_as_operands", "loaded_operands_found",
           "operand_findings", "OPERAND_RULES", "REUSED", "ACCUMULATOR", "LOADED"]

#: the rules' names (the kinds of their findings)
REUSED, ACCUMULATOR, LOADED = "fragment-reused", "operand-accumulator", "operand-loaded"


def reused_fragments(fn: AsmFunction, places: dict, chains,
                     phase_of: dict | None = None) -> list[Finding]:
    """The ``fragment-reused`` finding of ``fn`` (module docstring): ``places`` per
    ``ds_read`` line its :class:`~pipeline_mlir.isa.read_places.ReadPlaces`, ``chains``
    the MFMAs' accumulator chains, ``phase_of`` line -> phase; none when no read is."""
    block = {i.line: k for k, b in enumerate(fn.blocks) for i in b.instrs}
    dom = None
    bad = []
    for line, rp in sorted(places.items()):
        if rp.why:
            continue
        seen: dict = {}         # (operand, chain) -> [(start, end, MFMA line)]
        for operand, _, mfma, start, end in sorted(rp.ahead, key=lambda p: p[2]):
            c = chains.chain.get(mfma)
            if c is None or mfma in chains.why:
                continue
            for s, e, other in seen.get((operand, c), ()):
                if other == mfma or not (s < end and start < e):
                    continue
                if dom is None:
                    index = {b.label: k for k, b in enumerate(fn.blocks)}
                    dom, _ = dominators([[index[x] for x in b.succs] for b in fn.blocks])
                x, y = block[other], block[mfma]
                if x in dom[y] or y in dom[x]:
                    bad.append((line, operand, other, mfma))
            seen.setdefault((operand, c), []).append((start, end, mfma))
    if not bad:
        return []
    line, operand, first, second = bad[0]
    code = {i.line: i for i in fn.instrs()}
    where = (phase_of or {}).get(second, "-")
    return [Finding(REUSED, where, (), (second, first, line),
                    f"{code[second].mnemonic} (line {second}) and the MFMA at line {first}, of "
                    f"one accumulator chain, both multiply one result of "
                    f"{code[line].text.strip()} (line {line}) as their {operand}: one K slice "
                    f"counted twice, another left out (an MFMA moved above the read that "
                    f"fills its registers)", len(bad))]


def accumulators_as_operands(fn: AsmFunction, chains,
                             phase_of: dict | None = None) -> list[Finding]:
    """The ``operand-accumulator`` finding of ``fn`` (module docstring): an MFMA reading
    another MFMA's result as its A or B; none when no MFMA does."""
    if not chains.operand_of:
        return []
    code = {i.line: i for i in fn.instrs()}
    first = min(chains.operand_of, key=lambda ln: chains.operand_of[ln])
    reader, operand = chains.operand_of[first]
    return [Finding(ACCUMULATOR, (phase_of or {}).get(reader, "-"), (),
                    (reader, first),
                    f"{code[reader].mnemonic} (line {reader}) reads as its {operand} the "
                    f"result of {code[first].text.strip()} (line {first}) on some path: it "
                    f"multiplies an accumulator, not a fragment", len(chains.operand_of))]


def loaded_operands_found(fn: AsmFunction, loaded: dict,
                          phase_of: dict | None = None) -> list[Finding]:
    """The ``operand-loaded`` finding of ``fn`` (module docstring): ``loaded`` per global
    load line, the MFMA reading its result as A or B and the operand
    (:func:`~pipeline_mlir.isa.read_places.loaded_operands`); none when none is."""
    if not loaded:
        return []
    code = {i.line: i for i in fn.instrs()}
    first = min(loaded, key=lambda ln: loaded[ln])
    reader, operand = loaded[first]
    return [Finding(LOADED, (phase_of or {}).get(reader, "-"), (), (reader, first),
                    f"{code[reader].mnemonic} (line {reader}) reads as its {operand} the "
                    f"registers {code[first].text.strip()} (line {first}) loads from global "
                    f"memory, on some path: a fragment not read from LDS", len(loaded))]


def operand_findings(fn: AsmFunction) -> list[Finding]:
    """The three rules of this module on the whole of ``fn``, without a plan or phases (the
    rules that read the assembly alone,
    :func:`~pipeline_mlir.isa.check.check_without_schedule`, of a function holding a pipelined loop the comparison could not
    read: unrolled copies not counted, another loop kept as the main one).  Only there: in
    an MFMA function beside the pipelined one the operands may come from anywhere (an f32
    or f64 MFMA may take another's result, a kernel may multiply what it loads)."""
    chains = mfma_chains(fn)
    return [f for _, find in OPERAND_RULES for f in find(fn, chains)]


#: the rules :func:`operand_findings` runs, in the order it lists their findings: each
#: rule's name and how it runs on the whole function (its accumulator chains given)
OPERAND_RULES = (
    (ACCUMULATOR, lambda fn, chains: accumulators_as_operands(fn, chains)),
    (REUSED, lambda fn, chains: reused_fragments(fn, read_places(fn), chains)),
    (LOADED, lambda fn, chains: loaded_operands_found(fn, loaded_operands(fn))))
