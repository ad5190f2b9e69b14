"""``merge_k=auto``'s occupancy rule confirmed on the kernel LLVM built.

The front end decides a merge for time before any code exists
(``pipeline_mlir/frontend/kmerge_auto.py``): it declines where a floor of the VGPRs a wave
holds (its accumulators and one merged K tile of fragments) already leaves fewer than
:data:`~pipeline_mlir.schedules.fourwave.MIN_WAVES_PER_SIMD` waves per SIMD.  LLVM
allocates more than the floor (addresses, loop control, copies: IREE's bf16 kernel merged,
floor 128, 150 built), so a merge the floor allows may still cost the occupancy.  Where
pipeline-opt builds machine code (``--emit=asm``, ``obj``, ``hsaco``, ``report``, and the
build ``--emulate`` runs), :func:`unconfirmed` reads the kernel's allocation from that code
(``.amdhsa_next_free_vgpr`` or the descriptor's allocated VGPRs, its LDS, SGPRs and
workgroup size) through the report's occupancy model
(:func:`~pipeline_mlir.isa.report.occupancy_gfx950`); when a loop ``auto`` merged for time
leaves fewer waves than that, the driver builds the input again with ``merge_k=false``
(:func:`unmerged`) and the new kernel's plan says why (:func:`declined_note`).  Only such
kernels pay the second build; the others pay reading the metadata of code they built (for
``--emit=obj``, a link).  ``--emit=mlir``, ``llvm`` and the schedule kinds build no
machine code: for a loop ``auto`` merged for time they take a copy of the run's own module
on through the rest of the pipeline and the LLVM step to assembly (``driver/merge_ask.py``'s
``continued``: no pass run again) and judge that, or, where a build store holds the
input's ``--emit=hsaco`` build already, read that (:func:`held_by_store`,
:func:`confirmed_by_build`);
and give the unmerged kernel where it runs too few waves, so every emit of an input gives
the one kernel (the MLIR handed back to iree-compile is the kernel ``--emulate`` checks).
Either verdict is kept for the process (:func:`verdict`).  The build again asking LLVM for
the waves is judged first on the run's own module with the ask set (``merge_ask.py``): run
from the input only where it is kept and its MLIR is printed.  A merge the pipeline asked for (``merge_k=true``, a
``BK`` that names it) is the pipeline's, and kept.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline_mlir.schedules.fourwave import (MERGE_AUTO, MERGE_K_OPTION, MERGE_OFF,
                                              MERGED_BY_AUTO, MIN_WAVES_PER_SIMD,
                                              merged_for_time)

__all__ = ["MERGED_BY_AUTO", "asked_note", "confirmed_by_build", "declined_note",
           "held_by_store", "merged_by_auto", "module_notes", "unasked", "unconfirmed",
           "unmerged", "verdict", "wants_ask"]

#: :func:`verdict`'s verdicts in this process, by (spec text, chip, the rule's
#: minimum, the input text's hash): an input given several emits is built once; the oldest
#: of more than :data:`_KEPT_VERDICTS` is dropped
_VERDICTS: dict = {}
_KEPT_VERDICTS = 64
#: how the reason of a kernel built again unmerged starts, and ends (:func:`unconfirmed`)
_REBUILT = "merged, the kernel LLVM built"
_AGAIN = ", so it was built again unmerged"
#: in the note of a kernel merged asking LLVM for the waves (:func:`asked_note`): then the
#: reason, of the kernel built without the ask
_ASKED = " (without the ask, the kernel LLVM built"


def merged_by_auto(plans: list) -> bool:
    """Whether a loop of ``plans`` (the run's kernel plans, or the merge notes of its
    adopted loops: :func:`module_notes`) was merged by ``auto`` for time."""
    return any(merged_for_time(p if isinstance(p, str) else p.merge_note) for p in plans)


def module_notes(module) -> list[str]:
    """The merge notes the front end left on the adopted loops of ``module`` (an
    ``ir.Module``; ``frontend/kmerge.py``'s ``MERGE_NOTE_ATTR``): what a run that lowers
    no loop to a kernel plan (``--emit=schedule``) says of its merges."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.frontend.marks import MERGE_NOTE_ATTR

    notes: list[str] = []

    def visit(op):
        if MERGE_NOTE_ATTR in op.attributes:
            notes.append(ir.StringAttr(op.attributes[MERGE_NOTE_ATTR]).value)
        return ir.WalkResult.ADVANCE
    module.operation.walk(visit)
    return notes


def verdict(options, text: str, confirm, asking: bool = False) -> str | None:
    """Why the input ``text``'s kernel of a loop ``auto`` merged for time is built again
    unmerged, or None: ``confirm()`` gives it and whether the build it read succeeded; the
    verdict of one that did is kept for the process (:data:`_VERDICTS`) for a schedule
    given as text, so an input given several emits is confirmed once (``asking``: of the
    build that asks LLVM for the waves, :func:`wants_ask`, kept apart)."""
    import hashlib

    key = (options.schedule, options.chip, MIN_WAVES_PER_SIMD, asking,
           hashlib.sha256(text.encode()).hexdigest()) \
        if isinstance(options.schedule, str) else None
    if key in _VERDICTS:
        return _VERDICTS[key]
    why, built = confirm()
    if key is not None and built:
        if len(_VERDICTS) >= _KEPT_VERDICTS:
            _VERDICTS.pop(next(iter(_VERDICTS)))
        _VERDICTS[key] = why
    return why


def confirmed_by_build(options, text: str, build, asking: bool = False) -> str | None:
    """For a run whose emit builds no machine code (``mlir``, ``llvm``, the schedule kinds)
    and whose loop ``auto`` merged for time, where a build store holds the input's
    ``--emit=hsaco`` build (:func:`held_by_store`): why the hsaco build of the same input
    ``text`` with the same schedule did not keep the kernel as this run built it, or None.  The hsaco build's plan says it: built
    again unmerged (that reason), or merged asking LLVM for the waves (:func:`asked_note`:
    the reason it asked, unless this run asks too, ``asking``).  Through ``build``
    (:func:`~pipeline_mlir.driver.api.compile`, handed down by the job), so the store
    (:mod:`~pipeline_mlir.driver.code_cache`) shares it with the input's own hsaco build;
    the verdict is kept for the process (:func:`verdict`)."""
    def confirm() -> tuple[str | None, bool]:
        built = build(_hsaco_options(options, text))
        if built.failed:
            return None, False
        said = declined_note(_REBUILT)
        for p in built.plans:
            note = p.merge_note or ""
            if note.startswith(said):
                return note[len(declined_note("")):], True
            if _ASKED in note and not asking:
                return _asked_reason(note), True
        return None, True
    return verdict(options, text, confirm, asking)


def _hsaco_options(options, text: str):
    """The options of the ``--emit=hsaco`` build of the input ``text`` that
    :func:`confirmed_by_build` asks for a run of ``options``."""
    from pipeline_mlir.driver.arguments import CompileOptions

    return CompileOptions(schedule=options.schedule, text=text, emit="hsaco",
                          filename=options.filename, chip=options.chip,
                          disable_threading=options.disable_threading,
                          codegen_timeout=options.codegen_timeout)


def held_by_store(options, text: str) -> bool:
    """Whether the installed build store holds the ``--emit=hsaco`` build of the input
    ``text`` :func:`confirmed_by_build` would ask of it (built already, by this process or
    another sharing the store): a run whose emit builds no machine code confirms its merge
    on that build only then, and otherwise on its own module taken on to LLVM's code
    (``merge_ask.continued``: the passes not run again, where the hsaco build from the
    input would run them all)."""
    from pipeline_mlir.driver.code_cache import stored

    return stored(_hsaco_options(options, text)) is not None


def wants_ask(why: str) -> bool:
    """Whether the kernel :func:`unconfirmed` judged (``why``) is built again merged, asking
    LLVM for :data:`MIN_WAVES_PER_SIMD` waves per SIMD (``frontend/kmerge.py``'s
    ``ask_merged_waves``), before it is built unmerged: it ran too few waves for its VGPRs
    alone (not its LDS or SGPRs, which no allocation changes; not spilling)."""
    return why.startswith(f"{_REBUILT} runs ") and "(fewer than " in why and \
        "; limited by vgpr: " in why


def asked_note(note: str, why: str) -> str:
    """The merge note ``note`` of a kernel built again merged, asking LLVM for the waves,
    because ``why`` (:func:`wants_ask`); :func:`_asked_reason` reads ``why`` back."""
    return (f"{note}; the kernel asks LLVM for {MIN_WAVES_PER_SIMD} waves per SIMD"
            f"{_ASKED}{unasked(why)[len(_REBUILT):]})")


def _asked_reason(note: str) -> str:
    """The reason :func:`asked_note` wrote into ``note``."""
    return _REBUILT + note.split(_ASKED, 1)[1].removesuffix(")") + _AGAIN


def unasked(why: str) -> str:
    """:func:`unconfirmed`'s reason ``why`` without its end (``, so it was built again
    unmerged``): what the kernel built without the ask did."""
    return why.removesuffix(_AGAIN)


def _built(emit: str, output, report,
           timeout: float) -> list[tuple[tuple[int, int, int, int], int]]:
    """((allocated VGPRs, SGPRs for waves, LDS bytes, workgroup size), VGPRs spilled) of
    each kernel in the built ``output`` of kind ``emit`` (``report``: its
    ``--emit=report``)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.codegen import link_hsaco
    from pipeline_mlir.isa.codeobject import read_code_object
    from pipeline_mlir.isa.report import resources_from_asm

    if report is not None:
        r = report.resources
        return [((r.vgpr_alloc, r.sgprs_for_waves, r.lds_bytes, r.workgroup_size),
                 r.vgpr_spills)]
    if emit == "asm":
        module = parse_asm(output)
        return [((r.vgpr_alloc, r.sgprs_for_waves, r.lds_bytes, r.workgroup_size),
                 r.vgpr_spills) for r in (resources_from_asm(module, name)
                          for name in module.metadata["amdhsa_kernel"])]
    code = read_code_object(output if emit == "hsaco" else link_hsaco(output, timeout=timeout))
    kernels = code.metadata.get("amdhsa.kernels", []) if isinstance(code.metadata, dict) \
        else []
    built = []
    for md in kernels:
        kd = code.kernels[md[".name"]].fields
        reqd = md.get(".reqd_workgroup_size")
        wg = reqd[0] * reqd[1] * reqd[2] if reqd else md[".max_flat_workgroup_size"]
        built.append(((kd["allocated_vgprs"], md[".sgpr_count"],
                       kd["group_segment_fixed_size"], wg), md.get(".vgpr_spill_count", 0)))
    return built


def unconfirmed(emit: str, output, report, plans: list, timeout: float) -> str | None:
    """Why the kernel built with a loop ``auto`` merged for time (:func:`merged_by_auto`)
    runs fewer than :data:`MIN_WAVES_PER_SIMD` waves per SIMD or spills VGPRs, or None (it
    does neither, or nothing was merged by ``auto``).  A kernel built again asking LLVM for
    those waves (:func:`wants_ask`, ``frontend/kmerge.py``'s ``ask_merged_waves``) may meet
    the ask by spilling: a merge for time is not worth scratch traffic in the loop.  Code of several
    kernels (a module of several ``gpu.func``) is judged by its kernel of the fewest waves,
    then of the most spills: the plans do not say which kernel each loop is in, and
    building them all unmerged costs no kernel its waves."""
    from pipeline_mlir.isa.occupancy import occupancy_gfx950

    if not merged_by_auto(plans):
        return None
    judged = [(occupancy_gfx950(*b), b, spills)
              for b, spills in _built(emit, output, report, timeout)]
    if not judged:
        return None
    (waves, limits), (vgprs, _, lds, threads), spills = \
        min(judged, key=lambda j: (j[0][0], -j[2]))
    if waves >= MIN_WAVES_PER_SIMD:
        if not spills:
            return None
        return (f"{_REBUILT} spills {spills} VGPR{'s' * (spills != 1)} to scratch to run "
                f"{waves} waves per SIMD{_AGAIN}")
    by = " and ".join(k for k in ("vgpr", "lds", "sgpr") if limits[k] == waves)
    return (f"{_REBUILT} runs {waves} wave{'s' * (waves != 1)} per SIMD "
            f"(fewer than {MIN_WAVES_PER_SIMD}; limited by {by}: {vgprs} VGPRs allocated a "
            f"wave, {lds} bytes of LDS per workgroup of {threads} threads){_AGAIN}")


def unmerged(schedule):
    """``schedule`` with ``merge_k=false``."""
    return replace(schedule, **{MERGE_K_OPTION: MERGE_OFF})


def declined_note(why: str) -> str:
    """The merge note of a kernel built again unmerged because ``why``."""
    return f"{MERGE_K_OPTION}={MERGE_AUTO} leaves its K steps as they are: {why}"
