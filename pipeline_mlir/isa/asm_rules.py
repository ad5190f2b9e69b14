"""The ISA check's rules that read the assembly alone (no plan, no phases): one table,
:data:`ASSEMBLY_RULES`, of each rule's name (the kind of its findings) and the finder that
makes them, which both the comparison with the schedule
(:func:`~pipeline_mlir.isa.check.check_kernel_asm`) and the check without it
(:func:`~pipeline_mlir.isa.check.check_without_schedule`) run, and which names the rules
the report says ran.

* ``wait-short``: an instruction touches a register a load may still be writing, on some
  path (:mod:`pipeline_mlir.isa.reg_waits`);
* ``lds-wait-short``: a wait leaves a wave's LDS access in flight where its own later access
  of the other counter touches the same bytes, one writing (an LDS DMA overwriting what a
  ``ds_read`` still reads), counted in the instructions emitted
  (:mod:`pipeline_mlir.isa.lds_waits`);
* ``waterfall``: a memory instruction in a waterfall loop (:mod:`pipeline_mlir.isa.waterfall`);
* ``lds-race``, ``lds-outside``, ``lds-stale``, ``lds-unwritten``, ``lds-unknown``: the
  LDS rules (:mod:`pipeline_mlir.isa.lds_ranges`);
* ``wait-states``: an MFMA's result touched too early (:mod:`pipeline_mlir.isa.mfma_gaps`);
* ``barrier-mismatch``: waves passing different numbers of barriers
  (:mod:`pipeline_mlir.isa.wave_groups`).

Each finder takes ``(kind, fn, rw, lds, at)``: the rule's name, the function, its
register dataflow (:func:`~pipeline_mlir.isa.reg_waits.reg_waits`), its LDS map (or None)
and ``at(line)``, the phase a line is in (``-`` without phases).

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.isa.lds_ranges import lds_accesses, left_out
from pipeline_mlir.isa.lds_waits import lds_wait_shorts
from pipeline_mlir.isa.mfma_gaps import mfma_gaps
from pipeline_mlir.isa.waterfall import waterfall_loops
from pipeline_mlir.isa.wave_groups import barrier_mismatch


def _wait_short(kind, fn, rw, lds, at) -> list[Finding]:
    return [Finding(kind, at(s.instr.line), (), (s.instr.line, s.load.line), s.message(),
                    1 + s.others) for s in rw.short]


def _lds_wait_short(kind, fn, rw, lds, at) -> list[Finding]:
    if not any(i.kind in ("ds_write", "vmem_load_lds") for i in fn.instrs()):
        return []       # no LDS write: no read to overwrite, no write to wait for
    accesses = lds.accesses if lds is not None else lds_accesses(fn)
    return [Finding(kind, at(s.lines()[0]), (), s.lines(), s.message(), 1 + s.others)
            for s in lds_wait_shorts(fn, accesses)]


def _waterfall(kind, fn, rw, lds, at) -> list[Finding]:
    return [Finding(kind, w.phase, (), w.lines, w.message(), len(w.memory))
            for w in waterfall_loops(fn)]


def _lds_races(kind, fn, rw, lds, at) -> list[Finding]:
    return [Finding(kind, at(r.first.line), (), (r.first.line, r.second.line), r.message(),
                    1 + r.others) for r in (lds.races() if lds is not None else [])]


def _lds_lines(field: str):
    """The finder of the LDS map's ``field`` (line -> what is wrong there)."""
    def find(kind, fn, rw, lds, at) -> list[Finding]:
        wrong = getattr(lds, field) if lds is not None else {}
        return [Finding(kind, at(line), (), (line,), o.message())
                for line, o in sorted(wrong.items())]
    return find


def _lds_unknown(kind, fn, rw, lds, at) -> list[Finding]:
    unknown = left_out(fn, lds)
    return [] if unknown is None else [Finding(kind, at(unknown[0][0]), (), unknown[0],
                                               unknown[1])]


def _wait_states(kind, fn, rw, lds, at) -> list[Finding]:
    return [Finding(kind, at(g.reader.line), (), (g.reader.line, g.mfma.line), g.message())
            for g in mfma_gaps(fn)]


def _barrier_mismatch(kind, fn, rw, lds, at) -> list[Finding]:
    shifted = barrier_mismatch(fn)
    if shifted is None:
        return []
    return [Finding(kind, at(shifted.barriers[0].line), (),
                    tuple(b.line for b in shifted.barriers), shifted.message(),
                    len(shifted.barriers))]


#: the rules that read the assembly alone, in the order their findings are listed: each
#: rule's name (the kind of its findings) and its finder
ASSEMBLY_RULES = (("wait-short", _wait_short), ("lds-wait-short", _lds_wait_short),
                  ("waterfall", _waterfall),
                  ("lds-race", _lds_races), ("lds-outside", _lds_lines("outside")),
                  ("lds-stale", _lds_lines("stale")),
                  ("lds-unwritten", _lds_lines("unwritten")), ("lds-unknown", _lds_unknown),
                  ("wait-states", _wait_states), ("barrier-mismatch", _barrier_mismatch))


def assembly_findings(fn: AsmFunction, rw, lds, phase_of: dict | None = None
                      ) -> list[Finding]:
    """The findings of every rule of :data:`ASSEMBLY_RULES` on ``fn``, ungrouped (``rw``:
    its register dataflow, ``lds``: its LDS map or None); ``phase_of`` (line -> phase)
    names a finding's phase, ``-`` without it."""
    phases = phase_of or {}

    def at(line) -> str:
        return phases.get(line, "-")
    return [f for kind, find in ASSEMBLY_RULES for f in find(kind, fn, rw, lds, at)]
