"""``pipeline-opt --pipeline=SPEC --tune``: the tuner's command line
(:mod:`pipeline_mlir.driver.tune` searches).

Every candidate spec is compiled to assembly through the named pipeline (as ``--emit=asm``:
the kernel the user would get; a candidate that does not build is refused), simulated as
``--simulate --pipeline=SPEC --report`` (hazards, both cost tables: columns ``measured``,
``llvm``) and its assembly timed as ``--simulate kernel.s`` (columns ``asm-measured``,
``asm-llvm``). Prints the table of the candidates tried (the spec's changes, the four
columns, the registers the kernel spills (a kernel that spills ranks below every one that
does not), MFMA busy, verdict: chosen, ok, the reason a candidate was refused, or "same kernel
as #n" for a spec that builds a tried kernel: the same assembly without its comments, byte
for byte; it costs no budget), the chosen spec and its gain over the given spec. ``-o FILE``
writes the chosen pipeline's output of the ``--emit`` kind (default ``schedule``, e.g.
``--emit=hsaco`` for the kernel); ``--tune-spec=FILE`` writes the chosen spec, one line. ``--tune-size=M,N,K`` also chooses
the kernel's grid order (``xcd_remap``, ``group_m``) for that problem size with the device
model (:mod:`pipeline_mlir.sim.device`) and adds it to the chosen spec.

Options: ``--tune-budget=N`` candidates evaluated (default 24; never wall time),
``--tune-knobs=all|KEY[=V1:V2...],...`` (default: the catalogue without the counts the
kernel fixes; ``loop_once``, which narrows the launch contract, is a knob only with
``--tune-size``, and every candidate must run that size), ``--tune-objective=asm-measured|asm-llvm|measured|llvm``: what is minimised,
the other table of the same level breaking ties. The default, ``asm-measured``, ranks the
built kernels' assembly; ``measured`` / ``llvm`` rank the schedule's simulation but never
choose a kernel slower than the given spec's on its assembly. The search is
:func:`pipeline_mlir.sim.tune.tune` (its docstring has the rules).
"""

from __future__ import annotations

from pipeline_mlir.driver.base import UsageError
from pipeline_mlir.options import decimal
from pipeline_mlir.tools.argv import given, parse_sizes

OPTIONS = ("--tune-budget", "--tune-knobs", "--tune-objective", "--tune-spec", "--tune-size")


def check_args(args) -> None:
    flags = given(args)
    if not args.tune:
        stray = [o for o in OPTIONS if o in flags]
        if stray:
            raise UsageError(f"{stray[0]} goes with --tune")
        return
    if args.pipeline is None:
        raise UsageError("--tune needs --pipeline=NAME{...}: the kernel pipeline to tune, e.g. "
                         "--pipeline=pingpong")
    clash = [o for o in ("--pass-pipeline", "--launch", "--simulate", "--emulate") if o in flags]
    if args.input is not None:
        clash.append(f"the input '{args.input}' (--tune builds the pipeline's own kernel)")
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise UsageError(f"--tune cannot be combined with {', '.join(clash)}")
    if "--emit" in flags and args.output == "-":
        raise UsageError("--tune prints its table on standard output: give -o FILE for the "
                         f"chosen pipeline's --emit={args.emit} output")
    from pipeline_mlir.driver.tune import settings

    settings(options(args))


def options(args):
    """The :class:`~pipeline_mlir.driver.tune.TuneOptions` of the command line."""
    from pipeline_mlir.driver.tune import TuneOptions

    size = None if args.tune_size is None else parse_sizes("--tune-size", args.tune_size)
    return TuneOptions(args.pipeline, args.tune_knobs, _budget(args.tune_budget),
                       args.tune_objective, size)


def _budget(text: str | None) -> int | None:
    if text is None:
        return None
    n = decimal(text)
    if n is None:
        raise UsageError(f"--tune-budget={text}: must be a number of candidates >= 1")
    return n
