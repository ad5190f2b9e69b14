"""The seven shipped GEMM kernels, compiled once per test run (assembly + code object).

Shared by test_asm.py, test_check.py and test_report.py; each kernel is
built through ``pipeline-opt --emit=llvm`` (in process, keeping the kernel plan the
lowering used) and compiled by LLVM once per run: the run's build cache
(:mod:`build_cache`) shares it between pytest-xdist's workers.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from build_cache import cached, share_code_objects

KERNEL_SPECS = {
    "pingpong-bf16": "pingpong{is_fp8=false}",
    "pingpong-fp8": "pingpong{is_fp8=true}",
    "4wave-bf16": "4wave{dtype=bf16 BM=128 BN=128 BK=64}",
    "4wave-fp8-128": "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
    "4wave-fp8-64": "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
    # one wave per SIMD, the accumulators in AGPRs (GemmKernel.agpr_accumulators); the
    # BF16 one issues dword DMAs (dma=auto; test_dword_kernel.py)
    "4wave-bf16-256": "4wave{dtype=bf16 BM=256 BN=256 BK=64}",
    "4wave-fp8-256": "4wave{dtype=fp8 BM=256 BN=256 BK=128}",
}
#: built on demand, not shipped: the ping-pong BF16 kernel with the reference's block waits
EXTRA_SPECS = {"pingpong-bf16-block": "pingpong{is_fp8=false waits=block}",
               # the ping-pong FP8 kernel with its reads moved over the back edge too
               # (test_frags_ahead_emu.py)
               "pingpong-fp8-across": "pingpong{is_fp8=true frags_ahead=across}",
               # ... only the early reads inside one iteration, and balanced inside one
               # iteration (the default, balanced-across, moves them over the back edge too)
               "pingpong-fp8-within": "pingpong{is_fp8=true frags_ahead=within}",
               "pingpong-fp8-balanced": "pingpong{is_fp8=true frags_ahead=balanced}",
               # ... and without it (the FP8 default before frags_ahead=within)
               "pingpong-fp8-none": "pingpong{is_fp8=true frags_ahead=none}",
               # the MXFP4 4-wave 256x256 kernel (test_mx256.py)
               "4wave-mxfp4-256": "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}",
               # the 128x128 MX kernels whose scale waits are mutated (test_mx_scale_waits.py)
               "4wave-mxfp4-128": "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}",
               "4wave-mxfp8-128": "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}",
               # the MXFP8 256x256 kernel with and without loop_once (test_loop_once.py)
               "4wave-mxfp8-256-once": "4wave{dtype=mxfp8 BM=256 BN=256 BK=128 loop_once=true}",
               "4wave-mxfp8-256": "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}"}


@dataclass(frozen=True)
class Built:
    spec: str
    kernel: object      # GemmKernel
    ll: str             # the LLVM IR LLVM compiled
    asm: str
    hsaco: bytes
    plan: object        # the KernelPlan sched-lower-to-rocdl lowered the kernel with


def main_loop(asm: str) -> tuple[list[str], range]:
    """The lines and the line range of the main loop (the loop holding the MFMAs)."""
    lines = asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln)
    end = next(i for i in range(start + 1, len(lines))
               if re.match(r"^\s*s_cbranch\w* \.LBB", lines[i]))
    return lines, range(start + 1, end + 1)


@functools.lru_cache(maxsize=None)
def build(key: str) -> Built:
    spec = {**KERNEL_SPECS, **EXTRA_SPECS}[key]
    return cached("kernel", spec, lambda: _build(spec))


def _build(spec: str, shared: bool = True) -> Built:
    """The complete kernel of ``spec``, built (``shared``: through the run's code-object
    store; a test that patches the compile passes False, so that it neither reads
    another test's build nor leaves its own for others)."""
    from pipeline_mlir.isa.codegen import compile_llvm_ir, link_hsaco
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.driver import CompileOptions, compile

    # the build of ``pipeline-opt --pipeline=SPEC --emit=llvm``, shared with the run's other
    # plain builds of it (the behaviour snapshot's ``.llvm`` cases)
    from pipeline_mlir.driver.code_cache import sharing

    # (not shared: no store at all, not even one a test module installed around its tests)
    with share_code_objects(emits=("llvm",), own_kernels=True) if shared else sharing(None):
        result = compile(CompileOptions(schedule=spec, emit="llvm"))
    ll, plans = result.checked_output(), result.plans
    assert len(plans) == 1
    asm, obj = compile_llvm_ir(ll, kind="both")
    return Built(spec, gemm_kernel(parse_pipeline(spec)), ll, asm, link_hsaco(obj), plans[0])


def built_input(spec: str, path) -> Built:
    """The kernel of the input file ``path`` under ``spec``, built as :func:`build` builds
    a complete kernel (its LLVM IR, assembly, code object and kernel plan), once per run:
    IREE Wave's GEMM at K = 256, whose loop LLVM unrolls, for the report's and the ISA
    gate's tests of such a kernel (``test_report.py``, ``test_isa_gate.py``)."""
    from pathlib import Path

    return cached("kernel-input", (spec, Path(path).read_text()),
                  lambda: _build_input(spec, str(path)))


def _build_input(spec: str, path: str) -> Built:
    from pathlib import Path

    return built_kept(spec, Path(path).read_text(), input=path)


def built_kept(spec: str, text: str, **source) -> Built:
    """The kernel of the input ``text`` (``source``: ``CompileOptions``' ``input=`` its
    path, else ``text=`` it) under ``spec`` as :func:`build` builds one (its LLVM IR,
    assembly, code object and kernel plan), from one ``--emit=hsaco`` build keeping the
    LLVM IR and the assembly on the way (the ISA check off, as the store's builds: the
    tests that read it run the check themselves), kept as the run's code-object store's
    build of ``text`` (``build_cache.keep_built``): an ``--emulate`` of the same input
    inside ``share_code_objects`` reads its code object instead of building it again (the
    same LLVM IR, assembly, code object and plan as an ``--emit=llvm`` build compiled by
    ``compile_llvm_ir``, compared on IREE Wave's GEMM at K = 256)."""
    from build_cache import KEPT_STAGES, keep_built
    from pipeline_mlir.driver import CompileOptions, compile

    result = compile(CompileOptions(schedule=spec, emit="hsaco", isa_check=False,
                                    stages=("llvm", "asm") + KEPT_STAGES,
                                    **(source or {"text": text})))
    hsaco, (plan,) = result.checked_output(), result.plans
    keep_built(spec, text, result)
    return Built(spec, None, result.stages["llvm"], result.stages["asm"], hsaco, plan)


def i8_ping_pong_late(tmp_path) -> tuple[object, Built]:
    """IREE's i8 ``A x B^T`` 1024x1024x768 in 4x2 waves of 64x128 (a 256x256 tile forced, K
    step 128), its late form at IREE's prefetch of 2 stages, written to ``tmp_path /
    "k.mlir"``, and its ``pingpong`` build: finding 36 of ``docs/iree-audits.md``, whose B
    reads' LDS addresses LLVM computes with 16-bit adds and shifts (``test_isa_gate.py``,
    ``test_frag_addresses.py``).  (The path, the build.)"""
    from iree_configs import G

    src = tmp_path / "k.mlir"
    config = G.compilation_info("i8", (256, 256), (4, 8), 2, 512)
    src.write_text(G.forms(G.matmul_source("i8", 1024, 1024, 768, config=config),
                           ("--iree-llvmgpu-prefetch-num-stages=2",))["late"])
    return src, built_input("pingpong", src)


def built_iree(args: dict, form: str, spec: str = "4wave") -> Built:
    """IREE's matmul of ``args`` (``iree_configs.G.matmul_source``'s keywords) in ``form``
    (``prefetch`` or ``late``) under ``spec``, built as :func:`build` builds a complete
    kernel, once per run: the ISA gate's tests of kernels whose pipelined loop LLVM
    unrolled, or ran 0 times, beside a loop it kept (``test_isa_gate.py``)."""
    return cached("kernel-iree", (spec, sorted(args.items()), form),
                  lambda: _build_iree(spec, args, form))


def _build_iree(spec: str, args: dict, form: str) -> Built:
    import iree_configs as C

    return built_kept(spec, C.G.forms(C.G.matmul_source(**args), ())[form])


@functools.lru_cache(maxsize=None)
def pipeline_opt_hsaco(spec: str, source: str | None = None) -> bytes:
    """The code object ``pipeline-opt --pipeline=SPEC [FILE] --emit=hsaco`` writes for the
    input text ``source`` (None: the generator's complete kernel), built once per run: the
    build itself goes through the run's code-object store (``share_code_objects``), so a
    test that runs ``pipeline-opt`` on the same text and spec there (``--emit=hsaco`` or
    ``--emulate``) does not build it again."""
    return cached("pipeline-opt-hsaco", (spec, source),
                  lambda: _pipeline_opt_hsaco(spec, source))


def hsaco_and_lowered(spec: str, source: str) -> tuple[bytes, str]:
    """(the code object ``pipeline-opt --pipeline=SPEC FILE --emit=hsaco`` writes for the
    input text ``source``, the MLIR ``--emit=mlir`` writes for it) from one run of the
    passes (the compile API's ``stages``), once per run; the build fills the code-object
    store's plain ``--emit=hsaco`` key too (``share_code_objects``)."""
    return cached("hsaco-and-lowered", (spec, source),
                  lambda: _hsaco_and_lowered(spec, source))


def _hsaco_and_lowered(spec: str, source: str) -> tuple[bytes, str]:
    from pipeline_mlir.driver import CompileOptions, compile

    with share_code_objects(own_kernels=True):
        result = compile(CompileOptions(schedule=spec, text=source, emit="hsaco",
                                        stages=("mlir",)))
    return result.checked_output(), result.stages["mlir"]


def built_schedule(spec: str, source: str) -> str:
    """The schedule (JSON) ``pipeline-opt --pipeline=SPEC FILE --emit=schedule-json`` prints
    for the input text ``source``, kept on the way by the run's shared ``--emit=hsaco``
    build of it (:func:`shared_build`): no passes run again for a kernel the run builds
    anyway (:func:`hsaco_and_lowered`, ``--emulate`` inside ``share_code_objects``); a
    kernel no other test builds is built whole here."""
    return shared_build(spec, text=source).stages["schedule-json"]


def shared_build(spec: str, stages: tuple[str, ...] = ("schedule-json",), **source):
    """The ``CompileResult`` of ``pipeline-opt --pipeline=SPEC --emit=hsaco`` of ``source``
    (``text=`` the input's text or ``input=`` its path: ``CompileOptions``' own fields)
    through the run's code-object store (built once per run, ``share_code_objects``), the
    ``stages`` of :data:`build_cache.KEPT_STAGES` it keeps on the way in its ``stages``
    (the schedule, ``schedule-json``, by default; ``mlir``: what ``--emit=mlir`` or
    ``-o out.mlir`` writes); a ``PipelineError`` with the diagnostics if the build
    failed."""
    from pipeline_mlir.driver import CompileOptions, compile

    with share_code_objects():
        result = compile(CompileOptions(schedule=spec, emit="hsaco", stages=stages,
                                        **source))
    result.checked_output()
    return result


def _pipeline_opt_hsaco(spec: str, source: str | None) -> bytes:
    import tempfile
    from pathlib import Path

    from pipeline_mlir.tools.pipeline_opt import main

    with tempfile.TemporaryDirectory() as d, share_code_objects(own_kernels=True):
        out = Path(d) / "k.hsaco"
        args = [f"--pipeline={spec}", "--emit=hsaco", "-o", str(out)]
        if source is not None:
            src = Path(d) / "k.mlir"
            src.write_text(source)
            args.insert(1, str(src))
        rc = main(args)
        assert rc == 0, f"pipeline-opt {' '.join(args)} failed"
        return out.read_bytes()


def gated_kept(spec: str, text: str):
    """The ``CompileResult`` of ``pipeline-opt --pipeline=SPEC --emit=hsaco`` of the input
    ``text`` with the ISA gate on (outside the run's code-object store, whose builds skip
    it), the LLVM IR, the assembly and ``build_cache.KEPT_STAGES`` kept on the way, once per
    run, and kept as the store's build of it too (``build_cache.keep_built``: an
    ``--emulate`` of it in the store reads this code object): the one-wave i8 kernels of
    ``test_isa_one_wave_epilogue.py``, whose lowered MLIR and plan
    ``test_dead_epilogue_reads.py`` reads."""
    return cached("gated-hsaco", (spec, text), lambda: _gated_kept(spec, text))


def _gated_kept(spec: str, text: str):
    from build_cache import KEPT_STAGES, keep_built
    from pipeline_mlir.driver import CompileOptions, compile

    built = compile(CompileOptions(schedule=spec, text=text, emit="hsaco",
                                   stages=("llvm", "asm") + KEPT_STAGES))
    built.checked_output()
    keep_built(spec, text, built)
    return built


#: the options the front end writes on the loop it adopts (``sched.options``)
ADOPTED_OPTIONS = re.compile(r"sched\.options = \{([^}]*)\}")


def gated_build(path, spec: str = "4wave"):
    """(the ``CompileResult`` of ``pipeline-opt --pipeline=SPEC PATH --emit=hsaco``, the
    options of the spec the front end adopted for its one loop, its schedule JSON): built
    outside the run's code-object store, whose builds skip the ISA gate, so that the gate
    runs; kept as the store's build of it too (``build_cache.keep_built``: an ``--emulate``
    of it in the store reads this code object)."""
    from pathlib import Path

    from build_cache import KEPT_STAGES, keep_built
    from pipeline_mlir.driver import CompileOptions, compile

    built = compile(CompileOptions(schedule=spec, input=str(path), emit="hsaco",
                                   stages=KEPT_STAGES))
    built.checked_output()
    keep_built(spec, Path(path).read_text(), built)
    return built, adopted_options(built.stages["adopted"]), built.stages["schedule-json"]


def adopted_options(adopted: str) -> dict:
    """The options of the spec the front end adopted for the one loop of ``adopted`` (the
    module after ``sched-adopt-loop``)."""
    found = ADOPTED_OPTIONS.findall(adopted)
    assert len(found) == 1, found
    return dict(re.findall(r'(\w+) = "?([\w-]+)"?(?: : i64)?', found[0]))


def scheduled_only(path, spec: str = "4wave") -> tuple[dict, str, str]:
    """(the adopted spec's options, the schedule JSON, the module after
    ``sched-adopt-loop``) of ``pipeline-opt --pipeline=SPEC PATH --emit=schedule-json``: the
    front end and the scheduler only, no lowering, no LLVM; what :func:`gated_build` gives
    beside its code object, for a form that the
    default run takes to its schedule only (its build and run exact in the long tier:
    docs/testing.md, "The long tier")."""
    from pipeline_mlir.driver import CompileOptions, compile

    result = compile(CompileOptions(schedule=spec, input=str(path), emit="schedule-json",
                                    stages=("adopted",)))
    schedule = result.checked_output()
    return adopted_options(result.stages["adopted"]), schedule, result.stages["adopted"]
