"""All passes by name, the named pipelines' pass lists, and pipeline-text parsing.

The pipeline order is :data:`pipeline_mlir.dialect.ops.STATES`: each stage pass
declares the state it produces (``passes/_common.py``), and :data:`STAGE_PASS`,
:data:`SCHEDULE_PASSES` and :func:`named_pipeline` follow from it.

Python passes cannot be named in MLIR's textual pipeline parser, so a
``--pass-pipeline`` string is split here: ``sched-*`` names become our pass
objects (with ``{key=value ...}`` options, :mod:`pipeline_mlir.options`),
everything else goes to MLIR as text (upstream and IREE passes, nested
``func.func(...)`` pipelines).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ensure_gpu_target, ir, passmanager
from pipeline_mlir.passes._common import as_operation
from pipeline_mlir.passes.catalogue import LLVM_STEP, PASS_CLASSES, PASS_NAMES, STAGE_PASS
from pipeline_mlir.target import DEFAULT_CHIP, IREE_GPU_CHIPS

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.isa.commas import Unbalanced
from pipeline_mlir.isa.commas import split_top as split_top_commas
from pipeline_mlir.options import Option, OptionTable, split_spec, suggest


class _Passes(Mapping):
    """Pass name -> pass class, in :data:`PASS_NAMES` order; a pass's module is imported
    when its class is first asked for (most pass modules import the front end, and with it
    numpy: a pipeline of other passes starts without them).  A class that does not carry
    the name, or a stage pass the state, the catalogue gives it is an error then."""

    def __init__(self) -> None:
        self._loaded: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        cls = self._loaded.get(name)
        if cls is None:
            module, attr = PASS_CLASSES[name].rsplit(".", 1)
            cls = getattr(importlib.import_module(f"pipeline_mlir.passes.{module}"), attr)
            # (a stage pass's state is checked against STAGE_PASS as its class is made:
            # SchedPass.__init_subclass__)
            if cls.name != name:
                raise AssertionError(f"passes/catalogue.py: {name} is {cls.__name__} "
                                     f"(named {cls.name}); update the catalogue")
            self._loaded[name] = cls
        return cls

    def __contains__(self, name) -> bool:  # without importing the pass
        return name in PASS_CLASSES

    def __iter__(self):
        return iter(PASS_NAMES)

    def __len__(self) -> int:
        return len(PASS_NAMES)


PASSES = _Passes()
if tuple(PASS_CLASSES) != PASS_NAMES:  # pragma: no cover - a pass was added or renamed
    raise AssertionError(f"passes/catalogue.py lists {PASS_NAMES} but has classes for "
                         f"{tuple(PASS_CLASSES)}")

#: the pass that takes a pipeline to each state, in pipeline order
if tuple(STAGE_PASS) != S.STATES[1:]:  # pragma: no cover
    raise AssertionError(f"every state needs one stage pass, in state order: {STAGE_PASS} vs "
                         f"{S.STATES}")

#: a named pipeline checks the IR before its first stage and after these states
VERIFY_AFTER = ("blocks", "phases")
VERIFY = "sched-verify"


def stage_passes(first: str, last: str) -> list[str]:
    """The stage passes taking a pipeline to the states ``first`` .. ``last``, in order."""
    return [STAGE_PASS[s] for s in S.STATES[S.state_index(first):S.state_index(last) + 1]]


def _verified(states: list[str]) -> tuple[str, ...]:
    """The stage passes to ``states`` with ``sched-verify`` first and after
    :data:`VERIFY_AFTER`."""
    out = [VERIFY]
    for state in states:
        out.append(STAGE_PASS[state])
        if state in VERIFY_AFTER:
            out.append(VERIFY)
    return tuple(out)


#: the sched passes of a named pipeline, up to phase expansion
SCHEDULE_PASSES = _verified(list(S.STATES[1:S.state_index("phases") + 1]))

#: how far a named pipeline goes: the front end alone (the loop adopted), the expanded
#: schedule, the lowered IR, LLVM
PIPELINE_ENDS = ("adopted", "phases", "lowered", "llvm")


def named_pipeline(schedule, end: str = "lowered", chip: str = DEFAULT_CHIP) -> list:
    """The passes of ``--pipeline=NAME{...}`` as :func:`pipeline_elements` returns them.

    ``sched-adopt-loop`` (alone for ``end="adopted"``) and ``sched-import`` of the
    schedule ``schedule`` (a :class:`~pipeline_mlir.schedules.named.NamedSchedule`),
    :data:`SCHEDULE_PASSES`;
    then, unless ``end`` is ``"phases"``, ``sched-fix-hazards`` for a schedule with a
    complete kernel (the printed schedule stays as derived; an option that changes the
    schedule but never the kernel is a ConfigError here), ``sched-lower-to-rocdl``,
    ``sched-stage-copies`` and ``sched-unit-masks``; for ``end="llvm"`` also the LLVM step for ``chip``.
    """
    if end not in PIPELINE_ENDS:
        raise ConfigError(f"named pipeline: unknown end '{end}' (one of "
                          f"{', '.join(PIPELINE_ENDS)})")
    if end == "adopted":
        return [("sched-adopt-loop", PASSES["sched-adopt-loop"](schedule))]
    items = [(n, PASSES[n](schedule)) for n in ("sched-adopt-loop", "sched-import")] + \
        [(n, create(n)) for n in SCHEDULE_PASSES]
    if end == "phases":
        return items
    if schedule.has_kernel:
        schedule.check_kernel_options()
        items.append(("sched-fix-hazards", create("sched-fix-hazards")))
    items += [(n, create(n)) for n in stage_passes("lowered", "lowered")]
    # register-staged copies in the emitted MLIR too (an executable handed back to
    # iree-compile would otherwise lower them as DMA)
    items.append(("sched-stage-copies", create("sched-stage-copies")))
    # masks' unit-dimension tests explicit in the emitted MLIR (iree-compile given it back
    # runs the folds that drop them)
    items.append(("sched-unit-masks", create("sched-unit-masks")))
    if end == "llvm":
        items += llvm_step(chip)
    return items


def create(name: str, **options):
    """A pass object ready for ``PassManager.add(obj, name=name, argument=name)``."""
    if name not in PASS_CLASSES:
        raise ConfigError(f"unknown pass '{name}'{suggest(name, list(PASSES))}")
    return PASSES[name](**options)


def add(pm, name: str, **options):
    """Create pass ``name`` and add it to the PassManager ``pm``; returns the pass object.

    Keep the returned object alive as long as ``pm`` (the bindings do not).
    """
    obj = create(name, **options)
    pm.add(obj, name=name, argument=name)
    return obj


def add_elements(pm, items) -> list:
    """Add ``items`` (``(text, pass object or None)`` pairs, as :func:`named_pipeline` and
    :func:`llvm_step` give them: None, an MLIR pass given by its text) to the PassManager
    ``pm``, in order; returns the pass objects, to keep alive as long as ``pm``."""
    keep = []
    for name, obj in items:
        if obj is None:
            pm.add(name)
        else:
            keep.append(obj)
            pm.add(obj, name=name, argument=name, description=obj.summary)
    return keep


def split_top(text: str) -> list[str]:
    """Split at top-level commas (not inside (), {} or []); no empty last part."""
    try:
        parts = split_top_commas(text, "({[", strict=True)
    except Unbalanced as e:
        raise ConfigError(f"unbalanced ')' or '}}' in pass pipeline '{text}'" if e.closed else
                          f"unbalanced brackets in pass pipeline '{text}'") from None
    return parts[:-1] if parts and not parts[-1] else parts


def strip_module(text: str) -> str:
    m = re.fullmatch(r"\s*builtin\.module\s*\((.*)\)\s*", text, re.S)
    return m.group(1) if m else text


# ---- the LLVM step ---------------------------------------------------------------------------

#: IREE's integer range optimisation as its LLVMGPU lowering runs it: index arithmetic
#: whose values provably fit 32 bits done in ``i32``, signed division and remainder of
#: values proven non-negative made unsigned, conditions the ranges decide folded.  Without
#: it, the tail's affine lowering leaves ``floordiv``/``mod`` as ``divsi``/``remsi`` with
#: their sign fix-ups and the address arithmetic in 64 bits (``docs/iree-audits.md``,
#: finding 100).
NARROW_INDEX = "iree-util-optimize-int-arithmetic{index-is-i64=true narrow-to-i32=true}"

#: What IREE's own codegen runs on a kernel between the point where it pipelines the K-loop
#: (``iree-llvmgpu-prefetch-shared-memory``) and its ROCDL conversion, for a kernel that
#: comes inside an IREE ``hal.executable`` (iree-base-compiler 3.13's TileAndFuse and
#: LLVMGPU lowering passes, less those that re-tile, re-schedule or reconcile the
#: executable): IREE's ``iree_linalg_ext`` ops (an epilogue's ``map_load``) and
#: ``memref.copy`` as loops, n-D vector lowering, memref alias folding, affine lowering and,
#: right after the first ``iree-lower-affine`` as in IREE, :data:`NARROW_INDEX`.  Nested
#: under ``hal.executable``, so it touches nothing else.
IREE_TAIL = ("iree-linalg-ext-to-loops,iree-codegen-memrefcopy-to-linalg,convert-linalg-to-loops,"
             "iree-codegen-fold-memref-alias-ops,canonicalize,cse,"
             "iree-codegen-optimize-vector-transfer,canonicalize,cse,"
             "iree-codegen-remove-index-hints,"
             "iree-codegen-convert-hal-descriptor-type-to-gpu-address-space,canonicalize,cse,"
             "iree-llvmgpu-vector-lowering,iree-llvmgpu-vector-flattening,"
             "iree-llvmgpu-legalize-nd-vectors,canonicalize,cse,"
             "iree-codegen-fold-memref-alias-ops,iree-codegen-expand-strided-metadata,"
             "iree-codegen-decompose-affine-ops,cse,iree-affine-expand-index-ops,iree-lower-affine,"
             + NARROW_INDEX + ","
             "cse,iree-llvmgpu-1d-vector-canonicalizations,iree-codegen-fold-memref-alias-ops,"
             "iree-codegen-expand-strided-metadata{allow-subview-expansion=true},"
             "iree-amdgpu-emulate-narrow-type,iree-affine-expand-index-ops,iree-lower-affine,"
             "iree-convert-unsupported-float-arith")
IREE_TAIL_PIPELINE = ("hal.executable(hal.executable.variant(builtin.module(func.func("
                      + IREE_TAIL + "))))")

#: The LLVM step in order, (pass name, textual pipeline element or Python pass): a
#: kernel (IREE's, a ``func.func`` or a ``gpu.module``'s, made a ``gpu.module`` kernel by
#: ``sched-gpu-kernel``) using the ops ``sched-lower-to-rocdl`` produces (``amdgpu``,
#: ``rocdl``, ``vector``, ``memref``, ``arith``, ``scf``) -> the LLVM dialect, ready for
#: ``translate.translate_to_llvm_ir``.  The separate upstream conversions are not
#: registered in iree-base-compiler; IREE's one pass does gpu/amdgpu/vector/memref/arith/
#: cf -> llvm + rocdl (it needs a GPU target, set by :func:`add_to_llvm`).
_TO_LLVM = ("sched-check-divisors", "sched-stage-copies", "sched-unit-masks", "sched-cancel-deltas",
            ("iree-codegen-tail", IREE_TAIL_PIPELINE),
            "sched-unmask-loads", "sched-fold-mask-guards", "sched-word-masks", "sched-gpu-kernel",
            "sched-check-device-input", "sched-xdl-guard", "lower-affine", "sched-order-copies",
            "convert-scf-to-cf",
            "iree-convert-to-rocdl", "canonicalize", "cse", "reconcile-unrealized-casts",
            "sched-buffer-soffset", "sched-rocdl-to-llvm-intrinsics",
            "sched-extract-device-module")


def _to_llvm_passes() -> list:
    """:data:`TO_LLVM_PASSES`, made on first use (our passes' modules load then): (name,
    text) for an upstream or IREE element, (name, pass object) for ours."""
    made = globals().get("TO_LLVM_PASSES")
    if made is None:
        made = []
        for entry in _TO_LLVM:
            name, text = entry if isinstance(entry, tuple) else (entry, entry)
            made.append((name, create(name) if name in PASS_CLASSES else text))
        globals()["TO_LLVM_PASSES"] = made
    return made


def __getattr__(name: str):
    if name == "TO_LLVM_PASSES":
        return _to_llvm_passes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def llvm_step(chip: str = DEFAULT_CHIP) -> list:
    """The LLVM step for ``chip`` as :func:`pipeline_elements` returns them.

    Sets the process-wide IREE GPU target to ``chip`` first (it cannot change later in
    the same process); a chip outside :data:`IREE_GPU_CHIPS` is a :class:`ToLLVMError`.
    """
    # (the LLVM step's modules, and the ISA worker they start, only for a pipeline with it)
    from pipeline_mlir.passes.translate import ToLLVMError

    if chip not in IREE_GPU_CHIPS:
        raise ToLLVMError(f"unknown GPU chip '{chip}' for the step to LLVM (known: "
                          f"{', '.join(IREE_GPU_CHIPS)})")
    try:
        ensure_gpu_target(chip)
    except (ValueError, RuntimeError) as e:  # another chip already set; bindings without IREE
        raise ToLLVMError(str(e)) from None
    return [(entry, None) if isinstance(entry, str) else (name, entry)
            for name, entry in _to_llvm_passes()]


def add_to_llvm(pm, chip: str = DEFAULT_CHIP) -> list:
    """Append the LLVM step (:data:`TO_LLVM_PASSES`) to a ``builtin.module`` PassManager;
    returns the Python pass objects added (see :func:`llvm_step`)."""
    return add_elements(pm, llvm_step(chip))


def run_to_llvm(module, chip: str = DEFAULT_CHIP):
    """Run the LLVM step on ``module`` (an ``ir.Module``) in place and return it.

    Raises :class:`ToLLVMError` with the located diagnostics on failure.
    """
    from pipeline_mlir.passes.translate import ToLLVMError, diagnostics_text

    op = as_operation(module)
    with op.context:
        pm = passmanager.PassManager("builtin.module")
        add_to_llvm(pm, chip)
        try:
            pm.run(op)
        except ir.MLIRError as e:
            raise ToLLVMError(diagnostics_text(e)) from None
    return module


def module_to_llvm_ir(module, chip: str = DEFAULT_CHIP) -> str:
    """:func:`run_to_llvm` then ``translate.translate_to_llvm_ir``."""
    from pipeline_mlir.passes.translate import translate_to_llvm_ir

    return translate_to_llvm_ir(run_to_llvm(module, chip))


_LLVM_STEP_OPTIONS = OptionTable([Option("chip", "str", DEFAULT_CHIP, "target processor")])


def pipeline_elements(text: str) -> list:
    """The elements of a pipeline text: (name, pass object) for our Python passes,
    (text, None) for upstream pipeline elements handed to MLIR as text."""
    items = []
    for it in split_top(strip_module(text)):
        name = it.split("{", 1)[0].strip()
        if name in PASSES:
            items.append((name, PASSES[name].from_text(split_spec(it, "pass")[1])))
        elif name == LLVM_STEP:
            pairs = split_spec(it, "pass")[1]
            options = _LLVM_STEP_OPTIONS.read_pairs(f"pass '{LLVM_STEP}'", pairs)
            items += llvm_step(options.get("chip", DEFAULT_CHIP))
        else:
            items.append((it, None))
    return items
