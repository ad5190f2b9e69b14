"""The ISA check of one built kernel: which of its rules run, and which findings refuse it.

:func:`pipelined_check` picks what :func:`~pipeline_mlir.isa.report.kernel_report` prints and
what a code build (``--emit=asm``, ``obj``, ``hsaco``) of a pipelined kernel is held to
(:mod:`pipeline_mlir.driver.isa_gate`): the comparison with the kernel plan when the
assembly's main loop is the pipelined one, else (LLVM unrolled that loop fully, or kept
another loop as the main one) the rules that read the assembly alone, on the whole function.

:data:`ERROR_KINDS` are the findings that show a race in the code as built, whatever the
schedule: an instruction reading or overwriting a register a load may still be writing on
some path (``wait-short``), an MFMA whose operand reads may still be in flight
(``frag-wait-weak``, ``frag-wait-missing``), two waves touching one LDS byte, one writing,
with no barrier between (``lds-race``); and, in the pipelined loop, MFMAs of the schedule
LLVM deleted (``mfma-missing`` in the ``loop`` phase: code it found dead, the MFMAs of
unstored accumulators with their fragment reads, which the loop's counted waits count);
and ``barrier-missing`` in the pipelined loop when the loop holds fewer ``s_barrier``
than the schedule plans (in straight code whose seams the comparison cut, the whole
run's barriers counted: :func:`_barriers_short`): a wave then reads a stage of LDS another wave's copy may still be
writing, or overwrites one it may still be reading (the emulator's ``lds-race`` on the
4-wave kernel with its loop's barriers deleted; outside the loop of a kernel of
register-staged copies the skeleton, which does not model them, miscounts: IREE's
2048x2048x1028 FP8 kernel, late form, has one barrier fewer in the prologue than the
schedule's and runs exact).  In a kernel whose pipelined loop's
global loads are all DMAs to LDS (``buffer_load ... lds``, no load into registers; a run
of no loop copy: :func:`_all_dmas`), in every phase: ``mfma-moved`` earlier (the lowering fences
every MMA and the skeleton models every copy: an MFMA moved above the reads filling its
registers multiplies what they held), ``wait-weakened`` and ``wait-missing`` (such a wait is what keeps a wave's
fragment reads after the DMAs that fill their stage, and no register rule sees an LDS
write), ``barrier-missing`` however many barriers the phase keeps (a barrier moved), and an
LDS read, LDS write or DMA the comparison finds moved earlier across an ``s_barrier``, or
later across one in the prologue or the pipelined loop (a wait of the zero-trip fence
alone excepted where no DMA may be in flight at the fence's barrier, or no fence block is
left: :func:`_fence_wait_idle`; and its barrier where its wait is missing too: the
path LLVM deleted whole: IREE's padded kernels of M known at launch).  Measured on
the 4-wave kernel, one mutant per wait (a count raised by one, a counter dropped, deleted)
and per barrier (deleted; moved above or below the nearest wait, LDS read, DMA) of the
whole function, 122 mutants: the 38 the gate passed before that race on the emulator
(``lds-race``, ``--emulate=256,256,512`` late, 2 workgroups: weakened prologue and epilogue
waits, deleted or moved prologue and epilogue barriers, loop barriers moved as many left)
are all refused now; 14 mutants it passed that run exact are refused too (the last
epilogue waits and barrier: the rule keeps every wait and barrier
of the schedule, whatever the addresses).  Where the skeleton does not model the kernel
(IREE's register-staged copies, below) they stay notes.
In a kernel whose loop loads into registers (IREE's register-staged copies, which the
expected skeleton does not model) they stay notes, as does a
``barrier-missing`` with as many barriers: measured on IREE's register-staged
2048x2048x1023 BF16 kernel, each of its loop's waits with a count raised by one or a
counter dropped (24 mutants) is either refused by the register rules (``wait-short``,
``frag-wait-*``; the emulator's ``pending-register``) or exact on the emulator (the loop's
last ``lgkmcnt(0)``, before the back edge), and each loop barrier deleted is a
``barrier-missing`` with fewer barriers (refused; ``lds-race``).  A loop barrier moved, as
many left (15 mutants), races (``lds-race``) when it moves above the wait that completes
the wave's LDS reads, above the ``ds_write`` before it or below the one after it (11), and
is exact when it moves below the next LDS read only (4): the register rule refuses the
racing ones as a ``wait-short`` at the barrier (an LDS read
in flight there with an LDS write after it, :mod:`~pipeline_mlir.isa.reg_waits`), and,
blind to addresses, the exact ones too.  The ones no wait rule sees, racing on the
emulator (18 of the 273 mutants of the whole function's waits and barriers): a loop
barrier moved below the next wait past a ``ds_write`` and an LDS read (the write then
before the barrier the other waves' reads of that stage are ordered by; no wait is short),
and prologue and epilogue barriers deleted or moved where the comparison's skeleton, not
modelling the copies, counts them as extra, are ``lds-race`` s: two waves touching one LDS
byte, one writing, with no barrier between (:mod:`~pipeline_mlir.isa.lds_ranges`, from
every thread's LDS addresses; an error wherever it is).  An MFMA of an accumulator chain
reading, on some path, an unwritten register, a constant not zero, another chain's result or
another start than its chain's zero (``acc-init``, :mod:`~pipeline_mlir.isa.acc_inits`) is
an error wherever it is.  The other findings
are notes here.  Waits LLVM merged, tightened or added, instructions it
moved, merged (a ``ds_read2``: the reads then missing) or added.  And the comparison's
findings that IREE kernels the emulator runs exact give where the expected skeleton does not
model the kernel: ``wait-weakened``, ``wait-missing``, ``barrier-missing`` (as
many barriers in the loop) and ``load-lds-missing`` on IREE's run-time-K kernel of register-staged copies; ``wait-unpinned``
on a cut between a scratch store and a register load of IREE's 8-wave 1024x1024x384 kernel
under ``4wave``.  They stay findings of ``--emit=report``.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.check import (check_kernel_asm, check_without_schedule,
                                     rules_without_schedule)
from pipeline_mlir.isa.findings import Finding, IsaCheck
from pipeline_mlir.isa.frag_addresses import ERROR_KINDS as READ_ERROR_KINDS
from pipeline_mlir.isa.which_loop import not_the_pipelined_loop
from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE

__all__ = ["ERROR_KINDS", "LOOP_ERROR_KINDS", "DMA_ERROR_KINDS", "DMA_MFMA_MOVED", "DMA_MOVED_KINDS", "PipelinedCheck", "pipelined_check", "errors"]

#: findings that refuse a build wherever they are
ERROR_KINDS = frozenset({"wait-short", "lds-wait-short", "frag-wait-weak", "frag-wait-missing",
                         "lds-race",
                         "lds-outside", "lds-stale", "lds-unwritten", "barrier-mismatch",
                         "wait-states", "acc-init", "operand-unwritten",
                         "mfma-misplaced", "fragment-reused",
                         "operand-accumulator", "operand-loaded"}) | READ_ERROR_KINDS
#: findings that refuse a build in the pipelined loop (its waits count these instructions),
#: and in any phase of a kernel whose copies are all DMAs: every accumulator the loop yields
#: is kept alive after the epilogue (``lowering/keep_alive.py``), so no MFMA of the
#: schedule is dead code LLVM may delete, and the skeleton models every copy there, so the
#: seams are the plan's (an epilogue MFMA deleted from a bf16 ``A x B`` 32x32x64 kernel,
#: its loop run no trip, passed the gate, C wrong on the emulator)
LOOP_ERROR_KINDS = frozenset({"mfma-missing"})
#: findings that refuse a build, in any phase, of a kernel whose pipelined loop's global
#: loads are all DMAs to LDS (its waits guard LDS, which no register rule sees)
DMA_ERROR_KINDS = frozenset({"wait-weakened", "wait-missing"})
#: findings that refuse such a build wherever the MFMA moved earlier: the lowering fences
#: every MMA with ``sched_barrier`` s, which LLVM does not move it across, and the skeleton
#: models every copy (an MFMA moved above the fragment reads that fill it multiplies what
#: its registers held before); an MFMA moved later reads its registers after more waits,
#: and LLVM keeps them its own (``pingpong{minimal_barriers=true}``: 15 epilogue MFMAs
#: later across an ``s_barrier``, exact and race-free on the emulator, late mode)
DMA_MFMA_MOVED = frozenset({"mfma-moved"})
#: findings that refuse such a build when the instruction moved across an ``s_barrier``
DMA_MOVED_KINDS = frozenset({"ds-read-moved", "ds-write-moved", "load-lds-moved"})


@dataclass
class PipelinedCheck:
    """What :func:`pipelined_check` ran: the comparison with the plan (``isa``), or why not
    (``note``) with the findings of the rules that read the assembly alone (``plain``) and
    those rules' names (``plain_rules``)."""

    isa: IsaCheck | None = None
    note: str = ""
    plain: list[Finding] = field(default_factory=list)
    plain_rules: tuple[str, ...] = ()

    @property
    def findings(self) -> list[Finding]:
        return self.isa.findings if self.isa is not None else self.plain


def pipelined_check(fn: AsmFunction, plan, loop_note: str = "", ll_text: str | None = None,
                    **isa_options) -> PipelinedCheck:
    """The ISA check of ``fn`` against the kernel plan it was lowered with; ``loop_note``:
    why ``fn`` has no main loop (:func:`~pipeline_mlir.isa.report.unrolled_note`), if so;
    ``ll_text``: the LLVM IR compiled (whether the pipelined loop was a loop in it,
    :func:`~pipeline_mlir.isa.which_loop.not_the_pipelined_loop`); ``isa_options`` go to
    :func:`~pipeline_mlir.isa.check.check_kernel_asm`."""
    if loop_note:
        from pipeline_mlir.isa.unrolled import unrolled_check

        ran = unrolled_check(fn, plan, **isa_options)
        if ran.isa is not None:
            return PipelinedCheck(isa=ran.isa, note=ran.note())
        return _without_schedule(fn, f"the comparison with the schedule and its order rule "
                                     f"not run on the unrolled loop (main loop above): "
                                     f"{ran.why}")
    why = not_the_pipelined_loop(fn, plan, isa_options.get("mfmas_per_mma") or
                                 plan.shape.mfmas_per_mma, ll_text)
    if why:
        ran = _in_front_of_kept_loop(fn, plan, why, isa_options)
        if ran is not None and ran.isa is not None:
            return PipelinedCheck(isa=ran.isa, note=ran.note())
        why = f"{why}; {ran.why}" if ran is not None else why
        return _without_schedule(fn, f"the comparison with the schedule and its order rule "
                                     f"not run ({why})")
    return PipelinedCheck(isa=check_kernel_asm(fn, plan, **isa_options))


def _without_schedule(fn: AsmFunction, note: str) -> PipelinedCheck:
    """The rules that read the assembly alone run on the whole of ``fn``, a function holding
    a pipelined loop the comparison could not read (``note`` says why), and their names."""
    return PipelinedCheck(note=note, plain=check_without_schedule(fn, pipelined=True),
                          plain_rules=rules_without_schedule(pipelined=True))


def _in_front_of_kept_loop(fn: AsmFunction, plan, why: str, isa_options: dict):
    """The comparison of the unrolled run in front of the main loop of ``fn``, another loop
    of the kernel LLVM kept (``why`` says so: IREE's remainder loop beside a pipelined loop
    run 0 times or unrolled), as :func:`~pipeline_mlir.isa.unrolled.unrolled_check` makes
    it; None when ``fn`` has no main loop (``why`` is then the assembly reader's)."""
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.isa.unrolled import unrolled_check

    try:
        first = next(i.line for b in fn.main_loop() for i in b.instrs)
    except (PipelineError, StopIteration):
        return None
    return unrolled_check(fn, plan, kept=(first, why), **isa_options)


def errors(findings: list[Finding], isa: IsaCheck | None = None) -> list[Finding]:
    """The findings of ``findings`` that refuse a build: those some row of :data:`_RULES`
    refuses (module docstring); ``isa``: the comparison they come from, if any (its loop's
    barriers counted against the plan's, its phases' global loads)."""
    c = _Context.of(findings, isa)
    return [f for f in findings if any(rule.refuses(f, c) for rule in _RULES)]


@dataclass(frozen=True)
class _Context:
    """What a rule reads besides the finding: the comparison (``isa``, None: none ran), the
    phases whose zero-trip fence wait is missing (:func:`_fence_path_deleted`), and, counted
    once, whether the loop's barriers are fewer than the plan's and its global loads all
    DMAs (:func:`_loop_barriers_short`, :func:`_dma_kernel`)."""

    isa: IsaCheck | None
    fence_gone: frozenset[str]
    short: bool
    dma: bool

    @classmethod
    def of(cls, findings: list[Finding], isa: IsaCheck | None) -> _Context:
        gone = frozenset(f.phase for f in findings
                         if f.kind == "wait-missing" and _zero_trip_fence(f))
        if isa is None:
            return cls(isa, gone, False, False)
        return cls(isa, gone, _barriers_short(isa), _all_dmas(isa))


@dataclass(frozen=True)
class _Rule:
    """One row of the gate: a finding of ``kinds`` refuses a build when each predicate of
    ``when`` holds and none of ``unless`` does (each a function of the finding and the
    :class:`_Context`, its reason in its docstring)."""

    kinds: frozenset[str]
    when: tuple = ()
    unless: tuple = ()

    def refuses(self, f: Finding, c: _Context) -> bool:
        return f.kind in self.kinds and all(p(f, c) for p in self.when) and \
            not any(p(f, c) for p in self.unless)


def _in_loop(f: Finding, c: _Context) -> bool:
    """In the pipelined loop: the phase whose counted waits count the schedule's MFMAs (one
    LLVM deleted, code it found dead, leaves them counting others) and whose barriers the
    plan's are counted against."""
    return f.phase == "loop"


def _loop_barriers_short(f: Finding, c: _Context) -> bool:
    """The pipelined loop holds fewer ``s_barrier`` than the schedule plans: a wave then
    reads a stage of LDS another wave's copy may still be writing, or overwrites one it may
    still be reading.  As many barriers (one moved) is left to the other rules where the
    skeleton does not model the copies (module docstring)."""
    return c.short


def _dma_kernel(f: Finding, c: _Context) -> bool:
    """The pipelined loop's global loads are all DMAs to LDS (``buffer_load ... lds``, no
    load into registers): its waits and barriers guard LDS, which no register rule sees, and
    the expected skeleton models every copy."""
    return c.dma


def _fence_path_deleted(f: Finding, c: _Context) -> bool:
    """``f`` concerns only the zero-trip fence of a phase whose fence wait is missing too:
    LLVM deleted the zero-trip path whole, wait and barrier (it proved the trip count
    positive: IREE's padded kernels of M known at launch)."""
    return _zero_trip_fence(f) and f.phase in c.fence_gone


def _fence_wait_idle(f: Finding, c: _Context) -> bool:
    """``f`` concerns only the zero-trip fence's wait, and no DMA to LDS may still be in
    flight at the fence's barrier (an earlier wait LLVM merged it into completes them), or
    the assembly has no fence block (LLVM deleted the path, proving the trip count
    positive).  Where DMAs may be in flight
    there, the wait missing or weakened leaves the epilogue's reads on the path that skips
    the loop to waits counted for the loop's path."""
    return _zero_trip_fence(f) and not (c.isa is not None and
                                        any(c.isa.fence_dmas.values()))


def _moved_earlier(f: Finding, c: _Context) -> bool:
    """The instruction moved earlier: it may run before the other waves' accesses the
    barrier it crossed orders it after."""
    return "moved earlier" in f.message


def _not_in_epilogue(f: Finding, c: _Context) -> bool:
    """Not in the epilogue: LLVM moves the epilogue's LDS reads later across its barriers,
    and unrolls IREE's remainder loop into what the comparison reads as the epilogue."""
    return f.phase != "epilogue"


def _phase_issues_dmas(f: Finding, c: _Context) -> bool:
    """The finding's phase issues DMAs to LDS: an instruction moved later across a barrier
    may then run after the DMAs the barrier lets the other waves issue (in the prologue a
    DMA moved below a barrier fills its stage after the waves passed it to read that stage:
    the 4-wave kernel's ``lds-race``)."""
    return c.isa is not None and _count(c.isa.actual, "vmem_load_lds", f.phase) > 0


def _zero_trip_fence(f: Finding, c: _Context | None = None) -> bool:
    """Whether ``f`` concerns only the lowering's zero-trip fence: the full wait of the path
    that skips a loop run zero times, which LLVM deletes or merges where it proves the trip
    count positive (IREE's f16 100x1000x1030 prefetch point, a natural kernel's guarded
    run-time trip count; both exact on the emulator)."""
    return bool(f.entries) and all(e.endswith(ZERO_TRIP_FENCE) for e in f.entries)


def _barriers_short(isa: IsaCheck) -> bool:
    """Whether the pipelined loop holds fewer ``s_barrier`` than the schedule plans: the
    loop phase's; in straight code whose seams the comparison cut (``isa.seams_cut``: no
    loop to cut at) the whole run's, a barrier on the other side of a seam counting too
    (IREE's fp8 ``A x B^T`` 129x64x1000, two trips unrolled: one barrier more in its
    prologue than the plan's, whose register-staged copies the skeleton does not model,
    put the first seam one barrier late, and the loop's copies one barrier short; exact on
    the emulator)."""
    phases = isa.expected if isa.seams_cut else ("loop",)
    return sum(_count(isa.actual, "barrier", ph) for ph in phases) < \
        sum(_count(isa.expected, "barrier", ph) for ph in phases)


def _all_dmas(isa: IsaCheck) -> bool:
    """Whether the pipelined loop's global loads are all DMAs to LDS: the loop phase's (it
    issues some, and no load into registers); in a run of no loop copy (a pipelined loop
    run 0 times, ``isa.expected`` holding no loop phase) the run's: its phases issue at
    least as many DMAs as the plan's loads (IREE's register loads beside them, outside the
    plan, count for nothing; a DMA deleted leaves LDS unwritten, an error of its own)."""
    if isa.expected.get("loop"):
        return _count(isa.actual, "vmem_load_lds") > 0 and _count(isa.actual, "vmem_load") == 0
    planned = sum(_count(isa.expected, "vmem_load_lds", ph) for ph in isa.expected)
    return 0 < planned <= sum(_count(isa.actual, "vmem_load_lds", ph) for ph in isa.actual)


def _count(skeleton: dict, kind: str, phase: str = "loop") -> int:
    """The tokens of ``kind`` in ``phase`` of a skeleton (expected or actual)."""
    return sum(t.parts if kind == "barrier" else 1
               for t in skeleton.get(phase, []) if t.kind == kind)


def _across_barrier(f: Finding, c: _Context | None = None) -> bool:
    """The moved instruction of ``f`` crossed an ``s_barrier`` (the comparison names the
    separators crossed after ``across``): the barrier that orders it against the other
    waves' LDS accesses and DMAs."""
    return "s_barrier" in f.message.partition(", across ")[2]


_BARRIER_MISSING = frozenset({"barrier-missing"})

#: the gate's truth table: a finding refuses a build when some row refuses it (a new rule:
#: a new row); the module docstring says why, and what each row was measured on
_RULES = (
    _Rule(ERROR_KINDS),
    _Rule(LOOP_ERROR_KINDS, when=(_in_loop,)),
    _Rule(LOOP_ERROR_KINDS, when=(_dma_kernel,)),
    _Rule(_BARRIER_MISSING, when=(_in_loop, _loop_barriers_short),
          unless=(_fence_path_deleted,)),
    _Rule(_BARRIER_MISSING, when=(_dma_kernel,), unless=(_fence_path_deleted,)),
    _Rule(DMA_ERROR_KINDS, when=(_dma_kernel,), unless=(_fence_wait_idle,)),
    _Rule(DMA_MFMA_MOVED, when=(_dma_kernel, _moved_earlier)),
    _Rule(DMA_MOVED_KINDS, when=(_dma_kernel, _across_barrier, _moved_earlier)),
    _Rule(DMA_MOVED_KINDS, when=(_dma_kernel, _across_barrier, _not_in_epilogue,
                                 _phase_issues_dmas)),
)
