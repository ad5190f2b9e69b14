"""An IREE dispatch's launch as a launch description (``--emulate FILE.mlir``).

A matmul dispatch whose launch is not the plain one (:attr:`~pipeline_mlir.frontend.
dispatch.MatmulDispatch.plain`: bindings A, B, f32 C, ``C = A x B^T``) runs as a launch
description (:mod:`pipeline_mlir.emu.launchfile`) made from what the dispatch says
(:mod:`pipeline_mlir.frontend.dispatch`): every binding, in binding order, a memref
descriptor of its shape (the launch ``sched-gpu-kernel`` gives the kernel pipeline-opt
builds; a binding slot of the pipeline layout nothing uses, a null pointer), then the push
constants (``i32``); A, B and the epilogue inputs random integers in -3..3; C random too when the
kernel reads it first (``C += A x B^T``), else poison (NaN: an element the kernel does not
write is wrong); the dispatch's grid (1 to 3 dimensions) of workgroups of the size the
kernel requires; one check: C equals the dispatch's expression (``relu(A @ B.T + bias)``,
``C + A @ B.T``, ...) cast to C's element type.  The emulator and its launch descriptions
are imported by the functions that use them.
"""

from __future__ import annotations

from pipeline_mlir.frontend.dispatch import ELEMENTS

#: the MLIR element types of the bindings -> the launch descriptions' names: the operands'
#: (:data:`~pipeline_mlir.frontend.dispatch.ELEMENTS`; i8 A and B with an i32 C, fp8 E5M2 A
#: and B: an 8-bit ``A^T x B`` dispatch) and C's f32 and i32
DTYPES = {"f32": "f32", **ELEMENTS, "i32": "i32"}


def dispatch_spec(d, kernel, path: str):
    """The launch description of dispatch ``d`` (module docstring) for ``kernel`` (its
    required workgroup size); an :class:`~pipeline_mlir.emu.errors.EmuError` when the
    dispatch says too little to launch it."""
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.expect import parse_expect
    from pipeline_mlir.emu.launchfile import Arg, Check, Init, LaunchSpec

    if d.grid is None:
        raise EmuError(f"kernel {d.kernel}: a workgroup id it reads has no upper bound, and "
                       f"the grid of a dispatch with an epilogue, a batch or a {d.out_dtype} "
                       f"C must be stated by the dispatch")
    missing = [b for b in d.bindings if b.element not in DTYPES]
    if missing:
        raise EmuError(f"kernel {d.kernel}: binding {missing[0].name} is {missing[0].element}; "
                       f"the launch of a dispatch with an epilogue takes "
                       f"{', '.join(DTYPES)}")
    reads_c = "C" in parse_expect(d.expect, {b.name: b.shape for b in d.bindings}).names
    if hal_pointers(kernel, len(d.bindings) + len(d.unused), len(d.constants)):
        passing = ["pointer"] * len(d.bindings)     # (IREE's own build)
    else:
        passing = ["memref-flat" if f else "memref" for f in flattened(
            kernel, [len(b.shape) for b in d.bindings], len(d.constants))]
    args = [Arg("buffer", b.name, DTYPES[b.element], b.shape, how,
                Init("poison") if b.name == "C" and not reads_c else Init("random"),
                where=b.where) for b, how in zip(d.bindings, passing)]
    for i in d.unused:             # IREE's ABI: a pointer for a binding nothing uses
        args.insert(i, Arg("null", f"binding{i}"))
    args = tuple(args) + tuple(Arg("scalar", f"constant{i}", "i32", value=c)
                               for i, c in enumerate(d.constants))
    shapes = {b.name: b.shape for b in d.bindings}
    check = Check("C", parse_expect(d.expect, shapes), d.expect, path)
    need = (kernel.meta or {}).get(".reqd_workgroup_size") or [256]
    block = tuple(need) + (1,) * (3 - len(need))
    grid = tuple(d.grid) + (1,) * (3 - len(d.grid))
    return LaunchSpec(path, None, grid, block, len(d.grid), 0, 0, args, (check,))


def hal_pointers(kernel, bindings: int, constants: int) -> bool:
    """Whether ``kernel`` takes IREE's HAL launch (a build of IREE's own): a pointer for each
    of the ``bindings`` (used or not), then the ``constants`` push constants, as its
    metadata lists its arguments (the build pipeline-opt makes takes memref descriptors)."""
    if kernel.meta is None:
        return False
    args = kernel.explicit_args()
    return len(args) == bindings + constants and all(
        (a.get(".value_kind"), a.get(".size")) == ("global_buffer", 8) for a in args[:bindings])


def flattened(kernel, ranks: list[int], constants: int) -> list[bool]:
    """Per used binding of ``ranks`` (in order), whether ``kernel`` takes it as the rank-1
    descriptor of its row-major bytes (IREE's ``collapse_shape`` for its ``vector.scatter``
    folded into the subspan, as :func:`~pipeline_mlir.emu.iree.launch_contract` passes
    it): its metadata's descriptor has 5 fields where the binding's rank needs more.  All
    False when the metadata does not split into one descriptor per binding (``constants``:
    the push constants after them)."""
    from pipeline_mlir.emu.iree import memref_groups

    if kernel.meta is None:
        return [False] * len(ranks)
    args = kernel.explicit_args()
    groups = memref_groups(args[:len(args) - constants])
    groups = [g for g in groups or () if len(g) > 1]
    if len(groups) != len(ranks):
        return [False] * len(ranks)
    return [len(g) == 5 and r > 1 for g, r in zip(groups, ranks)]


def run_dispatch(d, kernel, path: str, mode: tuple, workgroups: int | None, progress,
                 strict: bool, tiles=None) -> tuple[str, str | None]:
    """(the run's summary line, what is wrong or None) of ``kernel`` launched as dispatch
    ``d`` says; ``tiles``: a partial run's tiles of C
    (:class:`~pipeline_mlir.driver.dispatch_tiles.PartialTiles`)."""
    from pipeline_mlir.driver.dispatch_tiles import mask_of, with_note
    from pipeline_mlir.emu.described import emulate_described

    spec = dispatch_spec(d, kernel, path)
    mask = mask_of(tiles)
    run = emulate_described(kernel, spec, mode[0], mode[1], count=workgroups, strict=strict,
                            progress=progress, footprint=None if mask is None else {"C": mask})
    problem = run.problem()
    summary = (f"{run.summary()}; {d.describe()}, C = {d.expect}"
               f"{' as ' + d.out_dtype if d.out_dtype != 'f32' else ''}\n")
    return with_note(summary, tiles), None if problem is None else f"{path}: error: {problem}"
