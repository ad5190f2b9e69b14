"""``pipeline-opt --emulate[=M,N,K] [FILE] [--pipeline=SPEC] [--emulate-mode=MODE]
[--emulate-workgroups=N] [--emulate-launch=FILE] [--emulate-strict] [--emulate-jobs=N]``: the emulator's command line (:mod:`pipeline_mlir.driver.emulate`
builds and runs the kernel).

Prints the run's summary line (max error, workgroups, instructions, time) and exits 0 when C
is exact and nothing racy was seen; exits 1 with the first finding (or the first wrong
element) otherwise.
"""

from __future__ import annotations

from pipeline_mlir.driver.base import UsageError
from pipeline_mlir.tools.argv import given, parse_sizes


def check_args(args) -> None:
    flags = given(args)
    if args.emulate is None:
        for o in ("--emulate-mode", "--emulate-workgroups", "--emulate-launch", "--emulate-jobs"):
            if o in flags:
                raise UsageError(f"{o} goes with --emulate")
        if args.emulate_strict:
            raise UsageError("--emulate-strict goes with --emulate")
        return
    if args.pipeline is None and args.input is None:
        raise UsageError("--emulate needs --pipeline=NAME{...} (the project's GEMM kernel to "
                         "build and run, e.g. --pipeline='4wave{dtype=bf16 BM=128 BN=128 "
                         "BK=64}') or a FILE to run: an IREE dispatch (.mlir, with "
                         "--pipeline), a code object or its assembly")
    clash = [o for o in ("--emit", "--pass-pipeline", "--launch", "--simulate", "-o")
             if o in flags]
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise UsageError(f"--emulate cannot be combined with {', '.join(clash)}")
    if args.emulate:
        if args.emulate_launch is not None:
            raise UsageError(f"--emulate={args.emulate} with --emulate-launch: the launch "
                             f"description gives the sizes; give --emulate alone")
        parse_sizes("--emulate", args.emulate, zero_k=True)
    if args.emulate_workgroups is not None and args.emulate_workgroups < 1:
        raise UsageError(f"--emulate-workgroups={args.emulate_workgroups}: run at least one "
                         f"workgroup")
    if args.emulate_launch == "-" and args.input == "-":
        raise UsageError("--emulate-launch=- and INPUT - cannot both be standard input")
    from pipeline_mlir.driver.emulate import check_jobs, check_mode

    if args.emulate_jobs is not None:
        check_jobs(args.emulate_jobs)
    check_mode(args.emulate_mode)


def options(args, build):
    """The :class:`~pipeline_mlir.driver.emulate.EmulateOptions` of the command line;
    ``build``: its :class:`~pipeline_mlir.driver.arguments.CompileOptions`."""
    from pipeline_mlir.driver.emulate import EmulateOptions

    sizes = parse_sizes("--emulate", args.emulate, zero_k=True) if args.emulate else None
    return EmulateOptions(build, sizes, args.emulate or None, args.emulate_mode,
                          args.emulate_workgroups, args.emulate_jobs,
                          launch=args.emulate_launch, strict=args.emulate_strict)
