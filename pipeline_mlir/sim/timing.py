"""Glue between gfx950 assembly (:mod:`pipeline_mlir.isa.asm`) and the timing models.

* :func:`from_asm` turns :class:`~pipeline_mlir.isa.asm.AsmInstr` records into
  :class:`AsmTimedInstr` (an :class:`~pipeline_mlir.sim.instr.Instr` that also
  names an MFMA's srcA registers, which LLVM's model reads 4 units late);
* :func:`asm_main_loop` finds a kernel's main K-loop body in assembly text;
* :func:`replicate` repeats a body for N iterations with schedule-style origins;
* :func:`simulate_asm_loop` runs a kernel's main loop on the CU model for a number
  of waves and iterations and returns the run with its bounds
  (:func:`simulate_loop_body`: the same for a main loop already read).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline_mlir.isa.asm import AsmInstr, parse_asm
from pipeline_mlir.isa.asm_instr import registers
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.bounds import LoopAnalysis, analyze_loop
from pipeline_mlir.sim.costs import CostTable, get_table
from pipeline_mlir.sim.cu_model import CUOptions, simulate_cu
from pipeline_mlir.sim.inner_loops import executed_iteration
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.target.gfx950 import F8F6F4_FORMATS


class TimingInputError(PipelineError):
    """Bad input to the timing glue (names the argument)."""


@dataclass(frozen=True)
class AsmTimedInstr(Instr):
    """An :class:`Instr` from assembly; ``src_a`` = an MFMA's srcA registers."""

    src_a: tuple[str, ...] | None = None


def from_asm(instrs: list[AsmInstr]) -> list[Instr]:
    """Timing-model instructions of assembly instructions, origin ``("asm", line)``."""
    out: list[Instr] = []
    for a in instrs:
        sa = None
        if a.kind == "mfma":
            if len(a.operands) < 4:
                raise TimingInputError(f"line {a.line}: MFMA {a.mnemonic!r} has "
                                       f"{len(a.operands)} operands, expected dst, srcA, srcB, srcC")
            sa = registers(a.operands[1], a.line)
        out.append(AsmTimedInstr(a.kind, a.mnemonic, a.defs, a.uses, a.vm, a.lgkm, a.value,
                                 ("asm", a.line), formats=f8f6f4_formats(a), src_a=sa))
    return out


def f8f6f4_formats(a: AsmInstr) -> tuple[int, int] | None:
    """(cbsz, blgp) operand format codes of an ``f8f6f4`` MFMA line (0, the FP8 E4M3
    format, where a modifier is absent, as LLVM prints it); None for anything else."""
    if a.kind != "mfma" or not a.mnemonic.endswith("_f8f6f4"):
        return None
    codes = dict.fromkeys(("cbsz", "blgp"), 0)
    for m in a.modifiers:
        key, _, val = m.partition(":")
        if key in codes:
            if not (val.isascii() and val.isdigit()) or int(val) not in F8F6F4_FORMATS:
                raise TimingInputError(f"line {a.line}: {a.mnemonic} {m!r}: the operand format "
                                       f"codes are {sorted(F8F6F4_FORMATS)}")
            codes[key] = int(val)
    return codes["cbsz"], codes["blgp"]


def asm_main_loop(asm_text: str, function: str | None = None,
                  said: list | None = None, measured: dict | None = None) -> list[AsmInstr]:
    """The steady-state iteration of the main K-loop of the kernel in ``asm_text``.

    That is ``main_loop_phases()['loop']`` up to and including the branch back to
    the loop header: instructions after it (the loop exit's ``s_branch`` that LLVM
    puts in the latch block) run only when the loop ends.  An inner loop of known trip
    count is repeated that many times; one of unknown count is an
    :class:`~pipeline_mlir.sim.inner_loops.InnerLoopError`
    (:mod:`pipeline_mlir.sim.inner_loops`) unless ``measured`` gives its counts (measured
    on the emulator: :mod:`pipeline_mlir.emu.trips`); ``said`` gets a line per inner loop
    repeated.
    """
    return function_main_loop(parse_asm(asm_text).function(function), said, measured)


def function_main_loop(fn, said: list | None = None,
                       measured: dict | None = None) -> list[AsmInstr]:
    """:func:`asm_main_loop` of a function already parsed (``parse_asm(...).function()``),
    for a caller that reads more of it."""
    blocks = fn.main_loop()
    loop = executed_iteration(fn, blocks, said, measured)
    head = blocks[0].label
    back = [k for k, a in enumerate(loop) if a.kind == "branch" and a.operands[:1] == (head,)]
    return loop[:back[-1] + 1] if back else loop


def asm_body(asm_text: str) -> list[Instr]:
    """All instructions of an assembly snippet (one function, layout order) as timing
    instructions.  A snippet may start with a block label (``.LBB0_7:``): a function
    label is put in front of it, as :func:`pipeline_mlir.isa.asm.parse_asm` needs one to
    keep the block label."""
    mod = parse_asm("snippet_body:\n" + asm_text)
    return from_asm(mod.function().instrs())


def replicate(body: list[Instr], iterations: int, phase: str = "kernel") -> list[Instr]:
    """``body`` repeated ``iterations`` times; instruction ``k`` of iteration ``i`` gets
    origin ``(phase, i, line, 0)`` (``line`` from an ``("asm", line)`` origin, else ``k``)."""
    if iterations < 1:
        raise TimingInputError(f"iterations must be >= 1, got {iterations}")
    out: list[Instr] = []
    for i in range(iterations):
        for k, ins in enumerate(body):
            entry = ins.origin[1] if len(ins.origin) == 2 and ins.origin[0] == "asm" else k
            out.append(_with_origin(ins, (phase, i, entry, 0)))
    return out


def _with_origin(ins: Instr, origin: tuple) -> Instr:
    """``ins`` with ``origin``, every other field kept (an f8f6f4 MFMA's operand formats
    set its rate: a copy without them would price an FP4 MFMA at the FP8 rate)."""
    return replace(ins, origin=origin)


def wave_streams(body: list[Instr], waves: int, iterations: int, simds: int = 4,
                 stagger: bool = False) -> list[tuple[int, list[Instr]]]:
    """``(simd, stream)`` of ``waves`` waves each running ``body`` ``iterations`` times.

    Wave ``w`` runs on SIMD ``w % simds``.  ``stagger`` (the ping-pong kernel): the
    upper half of the waves executes one extra ``s_barrier`` before the loop (as the
    kernel's prologue does for warp group 1) and the lower half one after it (as its
    epilogue does), so that every wave reaches the same number of barriers.
    """
    if waves < 1:
        raise TimingInputError(f"waves must be >= 1, got {waves}")
    if stagger and waves % 2:
        raise TimingInputError(f"stagger needs an even number of waves, got {waves}")
    loop = replicate(body, iterations)
    out = []
    for w in range(waves):
        s = loop
        if stagger:
            if w >= waves // 2:
                s = [Instr("barrier", "s_barrier", origin=("stagger", 0, 0, 0))] + loop
            else:
                s = loop + [Instr("barrier", "s_barrier", origin=("stagger", 1, 0, 0))]
        out.append((w % simds, s))
    return out


def simulate_asm_loop(asm_text: str, waves: int, iterations: int,
                      table: CostTable | str = "measured", stagger: bool = False,
                      options: CUOptions | None = None,
                      function: str | None = None,
                      measured: tuple[dict, ...] | None = None) -> LoopAnalysis:
    """Run the main K-loop of the kernel in ``asm_text`` on the CU model.

    ``waves`` waves (ping-pong kernel: 8 with ``stagger=True``; 4-wave kernel: 4) run
    the loop body ``iterations`` times; the result holds the CU run and the loop's
    bounds and achieved cycles per iteration (:func:`pipeline_mlir.sim.bounds.analyze_loop`).
    ``measured``: per wave, the trip counts measured on the emulator of the inner loops
    whose count the assembly does not state (each wave runs its own).
    """
    if measured is None:
        return simulate_loop_body(from_asm(asm_main_loop(asm_text, function)), waves,
                                  iterations, table, stagger, options)
    if len(measured) != waves:
        raise TimingInputError(f"trip counts measured for {len(measured)} waves, the "
                               f"kernel runs {waves}")
    built: dict[str, list[Instr]] = {}
    for counts in measured:
        key = repr(sorted(counts.items()))
        if key not in built:
            built[key] = from_asm(asm_main_loop(asm_text, function, measured=counts))
    bodies = [built[repr(sorted(c.items()))] for c in measured]
    return simulate_loop_body(bodies[0], waves, iterations, table, stagger, options,
                              per_wave=bodies)


def simulate_loop_body(body: list[Instr], waves: int, iterations: int,
                       table: CostTable | str = "measured", stagger: bool = False,
                       options: CUOptions | None = None,
                       per_wave: list[list[Instr]] | None = None) -> LoopAnalysis:
    """:func:`simulate_asm_loop` of a main loop's iteration already read (``body``:
    :func:`from_asm` of :func:`asm_main_loop`), for a caller that runs it more than once;
    ``per_wave``: each wave's own iteration instead (inner loops timed with that wave's
    measured trip counts)."""
    if isinstance(table, str):
        table = get_table(table)
    bodies = per_wave if per_wave is not None else [body] * waves
    streams = [wave_streams(b, waves, iterations, stagger=stagger)[w]
               for w, b in enumerate(bodies)] if per_wave is not None else \
        wave_streams(body, waves, iterations, stagger=stagger)
    run = simulate_cu(streams, table, options)
    iter_streams = [(simd, b) for (simd, _), b in zip(streams, bodies)]
    return analyze_loop(run, iter_streams, table)

