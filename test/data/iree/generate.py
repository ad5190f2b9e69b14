"""Produce IREE's gfx950 matmul kernels as pipeline-opt input, and hand results back.

Uses ``iree-compile`` / ``iree-opt`` of the iree-base-compiler the project depends on.

* :func:`matmul_source` writes a ``linalg.matmul`` (``C = A x B^T`` with
  ``transpose_b``, else ``C = A x B``; A given as ``K x M`` with ``transpose_a``) as an
  MLIR function.
* :func:`prefetch_point` compiles it with IREE's own shared-memory pipelining off
  (``--iree-llvmgpu-prefetch-num-stages=1``), takes the ``hal.executable`` after the
  first ``iree-codegen-hoist-statically-bound-allocations`` and runs the three passes
  that IREE runs before its prefetch pass: the kernel exactly as
  ``iree-llvmgpu-prefetch-shared-memory`` would receive it.
* :func:`late_form` takes the ``hal.executable`` after ``iree-codegen-math-transform``,
  the last stage of IREE's codegen that still has the ``scf.for``.
* :func:`forms` gives both from one ``iree-compile`` run stopped after codegen (what the
  two functions above return), kept for the process and, in a test run, in its build cache.
* :func:`substitute` compiles the matmul to a ``.vmfb`` with an executable replaced by a
  (pipelined) ``hal.executable`` file (``--iree-hal-substitute-executable-configuration``).
* :func:`iree_prefetch_asm` is IREE's own 2-stage prefetch-pipelined kernel (assembly).
* :func:`compilation_info` is the lowering a user sets on the matmul to get tiles IREE
  does not pick by itself (:data:`EIGHT_WAVE`: its 8-wave kernels); :func:`form_files`
  generates a test session's kernels on demand.

Run as a script to regenerate the inputs committed next to it::

    python test/data/iree/generate.py            # writes test/data/iree/*.mlir (and the
                                                 # lit inputs of LIT_INPUTS)

Each IREE tool run takes seconds to minutes; on a terminal (stderr a TTY) a line says what
runs and another how long it took. In a pipe, a log or pytest's capture nothing is printed.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

try:                # a test run's build cache (test/unit is on pytest's pythonpath)
    from build_cache import cached as _cached
except ImportError:
    def _cached(kind, inputs, build):
        return build()

HERE = Path(__file__).resolve().parent
TARGET = ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx950"]
#: the passes IREE's TileAndFuse pipeline runs between its first
#: hoist-statically-bound-allocations and iree-llvmgpu-prefetch-shared-memory
PREPARE = ("iree-codegen-absorb-swizzle-hint-to-alloc,"
           "iree-codegen-fission-transfer-ops-in-control-flow{fission-multi-trip=false},"
           "iree-codegen-remove-single-iteration-loop")
TYPES = {"bf16": "bf16", "f16": "f16", "fp8": "f8E4M3FN", "fp8e5m2": "f8E5M2", "i8": "i8",
         "f32": "f32"}


def tool(name: str) -> str:
    """Path of an IREE tool shipped with the iree-base-compiler wheel."""
    from iree.compiler.tools.binaries import find_tool

    return find_tool(name)


#: IREE's MFMA intrinsic per element type, for the lowering configs of :func:`compilation_info`
MMA_KINDS = {"bf16": "MFMA_F32_16x16x32_BF16", "f16": "MFMA_F32_16x16x32_F16",
             "fp8": "MFMA_F32_16x16x128_F8E4M3FN", "fp8e5m2": "MFMA_F32_16x16x128_F8E5M2",
             "i8": "MFMA_I32_16x16x64_I8"}
#: bytes per element of the types of :data:`MMA_KINDS`
_ELEM_BYTES = {"bf16": 2, "f16": 2, "fp8": 1, "fp8e5m2": 1, "i8": 1}


def dma_operand(dtype: str) -> str:
    """IREE's promotion of an operand of ``dtype`` to an XOR-swizzled LDS tile filled by DMA
    (``use_global_load_dma``): rows of 128 bytes in 16-byte chunks, each chunk what one lane
    copies (``xor_shuffle<64, 8>`` for 2-byte elements, ``<128, 16>`` for 1-byte ones; with
    ``<64, 8>`` IREE 3.13 copies fp8 one byte per lane through registers)."""
    per = 16 // _ELEM_BYTES[dtype]
    return ("#iree_gpu.swizzle_operand<copy_config = #iree_gpu.use_global_load_dma, "
            f"swizzle = #iree_codegen.xor_shuffle<{8 * per}, {per}>>")


def _lowering_config(mma: str, swizzled: str, k_major: tuple[bool, bool], k_steps: int,
                     wave_tiles: tuple[int, int], tile: tuple[int, int]) -> str:
    """IREE's TileAndFuse lowering config: MFMA ``mma``, A and B promoted as ``swizzled``
    (:func:`dma_operand`) or, each one ``k_major`` marks (A ``K x M``, B ``K x N``), with DMA
    copies into an unswizzled tile (IREE 3.13 refuses a swizzle hint on such a tile: "all
    swizzle hints must resolve"), a K step of ``k_steps`` MFMAs, ``wave_tiles`` MFMA tiles
    per wave (M, N) in a ``tile`` (M, N) workgroup tile."""
    a, b = ("#iree_gpu.use_global_load_dma" if plain else swizzled for plain in k_major)
    return (f"#iree_gpu.lowering_config<{{mma_kind = #iree_gpu.mma_layout<{mma}>, "
            f"promote_operands = [0, 1], promotion_types = [{a}, {b}], "
            f"reduction = [0, 0, {k_steps}], subgroup = [{wave_tiles[0]}, {wave_tiles[1]}, 0], "
            f"workgroup = [{tile[0]}, {tile[1]}, 0]}}>")


def _translation_info(threads: int, stages: int | None) -> str:
    """TileAndFuse with ``threads`` threads; ``stages``: IREE's own prefetch stages (None:
    not named, so ``--iree-llvmgpu-prefetch-num-stages`` decides)."""
    prefetch = "" if stages is None else f"prefetch_num_stages = {stages}, "
    return ("#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> "
            f"workgroup_size = [{threads}, 1, 1] subgroup_size = 64, "
            f"{{gpu_pipeline_options = #iree_gpu.pipeline_options<{prefetch}"
            "no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>")


def compilation_info(dtype: str, tile: tuple[int, int], wave_tiles: tuple[int, int],
                     k_steps: int, threads: int,
                     k_major: tuple[bool, bool] = (False, False)) -> str:
    """An ``#iree_codegen.compilation_info`` that makes IREE 3.13 build the matmul with a
    ``tile`` (M, N) workgroup tile of ``threads`` threads, each wave multiplying
    ``wave_tiles`` (M, N) 16x16 MFMA tiles, a K step of ``k_steps`` MFMAs (of the dtype's
    :data:`MMA_KINDS`: K 32 for bf16/f16, 64 for i8, 128 for fp8): its TileAndFuse pipeline
    as it configures its default kernel (DMA copies, XOR-swizzled LDS: :func:`dma_operand`),
    with sizes of the user's choosing.  The translation_info names no prefetch stage
    count, so ``--iree-llvmgpu-prefetch-num-stages`` still decides (1: the natural loop).
    ``k_major`` (A, B): the operand is given K-major (A ``K x M``, B ``K x N``), so IREE
    reads it with transposing reads and promotes it unswizzled, as its own default
    configuration does (:func:`_lowering_config`)."""
    lowering = _lowering_config(MMA_KINDS[dtype], dma_operand(dtype), k_major, k_steps,
                                wave_tiles, tile)
    return (f"#iree_codegen.compilation_info<lowering_config = {lowering}, "
            f"translation_info = {_translation_info(threads, None)}>")


def forced_config(mma: str, stages: int = 1, tile: tuple[int, int, int] = (128, 128, 32),
                  waves: tuple[int, int] = (2, 2),
                  k_major: tuple[bool, bool] = (False, False)) -> str:
    """Attribute aliases ``#config``, ``#tr``, ``#ci``: IREE's default gfx950 TileAndFuse
    configuration (``tile`` = M x N x K step, ``waves`` in M x N, DMA copies into an
    XOR-swizzled LDS) with the MFMA ``mma`` (IREE's name, e.g. ``MFMA_F32_32x32x16_BF16``)
    forced, as an IREE user forces one: a ``compilation_info`` on the ``linalg.matmul``.
    ``stages``: IREE's own prefetch stages (the attribute overrides the command line's).
    ``k_major`` (A, B): the operand is K-major (A ``K x M``, B ``K x N``) and is promoted
    with DMA copies into an unswizzled LDS tile, as IREE 3.13's own default ``A x B``
    kernel promotes its B (it refuses a swizzle hint on such a tile)."""
    mm, mn, mk = _mma_shape(mma)
    per_wave = (tile[0] // (waves[0] * mm), tile[1] // (waves[1] * mn))
    one_byte = "_F8" in mma or mma.endswith("_I8")   # the swizzle of the operands' bytes
    lowering = _lowering_config(mma, dma_operand("i8" if one_byte else "bf16"), k_major,
                                tile[2] // mk, per_wave, tile[:2])
    translation = _translation_info(waves[0] * waves[1] * 64, stages)
    return (f"#config = {lowering}\n#tr = {translation}\n"
            "#ci = #iree_codegen.compilation_info<lowering_config = #config, "
            "translation_info = #tr>\n")


def matmul_source(dtype: str = "bf16", m: int = 4096, n: int = 4096, k: int = 4096,
                  transpose_b: bool = True, transpose_a: bool = False,
                  config: str | None = None, mma: str | None = None, stages: int = 1,
                  tile: tuple[int, int, int] = (128, 128, 32),
                  waves: tuple[int, int] = (2, 2), b_dtype: str | None = None) -> str:
    """The matmul as an MLIR function (``C = op(A) x op(B)``, A given K x M with
    ``transpose_a``, B N x K with ``transpose_b``; B of ``b_dtype`` if given, another 8-bit
    float format than A's, say); ``config`` (:func:`compilation_info`) is set
    as the ``compilation_info`` of its ``linalg.matmul``; with ``mma``, IREE's default
    configuration forced with that MFMA instead (:func:`forced_config`, ``stages`` its prefetch
    stages, ``tile`` and ``waves`` its tile and waves, a K-major A or B promoted unswizzled)."""
    if config is not None and mma is not None:
        raise ValueError("give a compilation_info or an MFMA to force, not both")
    et = TYPES[dtype]
    bt = TYPES[b_dtype or dtype]
    acc = "i32" if dtype == "i8" else "f32"
    zero = "0" if acc == "i32" else "0.0"
    a_shape = f"{k}x{m}" if transpose_a else f"{m}x{k}"
    b_shape = f"{n}x{k}" if transpose_b else f"{k}x{n}"
    a_map = "(k, m)" if transpose_a else "(m, k)"
    b_map = "(n, k)" if transpose_b else "(k, n)"
    maps = (f"indexing_maps = [affine_map<(m, n, k) -> {a_map}>, affine_map<(m, n, k) -> "
            f"{b_map}>, affine_map<(m, n, k) -> (m, n)>]\n      "
            if transpose_a or transpose_b else "")
    attrs = "" if config is None else f"{{compilation_info = {config}}} "
    forced = "" if mma is None else " {compilation_info = #ci}"
    forced_text = "" if mma is None else forced_config(mma, stages, tile, waves,
                                                       (transpose_a, not transpose_b))
    return forced_text + (
            f"func.func @matmul(%a: tensor<{a_shape}x{et}>, %b: tensor<{b_shape}x{bt}>) "
            f"-> tensor<{m}x{n}x{acc}> {{\n"
            f"  %zero = arith.constant {zero} : {acc}\n"
            f"  %e = tensor.empty() : tensor<{m}x{n}x{acc}>\n"
            f"  %c = linalg.fill ins(%zero : {acc}) outs(%e : tensor<{m}x{n}x{acc}>) "
            f"-> tensor<{m}x{n}x{acc}>\n"
            f"  %r = linalg.matmul {maps}{attrs}ins(%a, %b : tensor<{a_shape}x{et}>, "
            f"tensor<{b_shape}x{bt}>)"
            f" outs(%c : tensor<{m}x{n}x{acc}>){forced} -> tensor<{m}x{n}x{acc}>\n"
            f"  return %r : tensor<{m}x{n}x{acc}>\n}}\n")


def _progress(message: str) -> None:
    """A line of progress on stderr when it is a terminal; nothing otherwise."""
    if sys.stderr.isatty():
        print(f"generate: {message}", file=sys.stderr, flush=True)


def _run(cmd: list[str], stdin: str | None = None, what: str = "") -> subprocess.CompletedProcess:
    """Run an IREE tool (``what`` says for what, in the progress lines)."""
    name = Path(cmd[0]).name
    _progress(f"{name}: {what} ...")
    start = time.monotonic()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    _progress(f"{name}: {what}: {time.monotonic() - start:.1f} s")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:2])} failed ({proc.returncode}):\n"
                           f"{proc.stderr[-4000:]}")
    return proc


#: the passes after whose first run the two forms are dumped (one ``iree-compile`` run)
PREFETCH_DUMP = "iree-codegen-hoist-statically-bound-allocations"
LATE_DUMP = "iree-codegen-math-transform"


def _dump_after(source: str, pass_arg: str | tuple[str, ...], extra: list[str],
                when: str = "after", missing_ok: bool = False) -> str | dict[str, str]:
    """The first module-scope IR dump after (``when``: or before) ``pass_arg`` while
    compiling ``source``; given several passes, a dict of the first dump of each, from one
    ``iree-compile`` run.  Compilation stops after codegen (``executable-targets``): the
    dumps are made before it, and the host code and serialisation after it are not
    needed.  ``missing_ok``: a pass that printed nothing is left out of the dict."""
    passes = (pass_arg,) if isinstance(pass_arg, str) else pass_arg
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "matmul.mlir"
        src.write_text(source)
        proc = _run([tool("iree-compile"), str(src), *TARGET, *extra,
                     "--compile-to=executable-targets",
                     f"--mlir-print-ir-{when}={','.join(passes)}",
                     "--mlir-print-ir-module-scope",
                     "--mlir-disable-threading", "-o", str(Path(d) / "out.mlir")],
                    what=f"the matmul up to {' and '.join(passes)}")
    first: dict[str, str] = {}
    for dump in proc.stderr.split(f"// -----// IR Dump {when.capitalize()} ")[1:]:
        header, _, body = dump.partition("\n")
        name = re.match(r"[^:]*: ([\w.-]+)", header)
        if name and name.group(1) in passes:
            first.setdefault(name.group(1), body)
    missing = [p for p in passes if p not in first]
    if missing and not missing_ok:
        raise RuntimeError(f"iree-compile printed no IR {when} {', '.join(missing)}")
    return first[pass_arg] if isinstance(pass_arg, str) else first


def _executable(module_text: str) -> str:
    """The attribute aliases and the (only) ``hal.executable`` of a dumped module."""
    lines = module_text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.strip().startswith("hal.executable "))
    header = [ln for ln in lines[:start] if ln.startswith("#")]
    depth, end = 0, None
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        if depth == 0:
            end = i
            break
    body = [ln[2:] if ln.startswith("  ") else ln for ln in lines[start:end + 1]]
    return "\n".join(header + body) + "\n"


def forms(source: str, flags: tuple[str, ...] = ()) -> dict[str, str]:
    """Both forms of ``source``'s kernel, ``{"prefetch": prefetch_point, "late":
    late_form}``, from one ``iree-compile`` run (``flags``: further iree-compile options)."""
    return {form: _form(source, tuple(flags), form) for form in ("prefetch", "late")}


@functools.lru_cache(maxsize=32)
def _dumps(source: str, flags: tuple[str, ...]) -> dict[str, str]:
    """The ``hal.executable`` after each form's pass (those printed), from one run: kept for
    the process and, in a test run, in its build cache (``test/unit/build_cache.py``)."""
    def build() -> dict[str, str]:
        dumps = _dump_after(source, (PREFETCH_DUMP, LATE_DUMP),
                            ["--iree-llvmgpu-prefetch-num-stages=1", *flags], missing_ok=True)
        return {name: _executable(text) for name, text in dumps.items()}
    return _cached("iree-dumps", (source, flags), build)


@functools.lru_cache(maxsize=64)
def _form(source: str, flags: tuple[str, ...], form: str) -> str:
    """One form, made from :func:`_dumps` on request (a kernel may have one form only)."""
    def build() -> str:
        name = PREFETCH_DUMP if form == "prefetch" else LATE_DUMP
        exe = _dumps(source, flags).get(name)
        if exe is None:
            raise RuntimeError(f"iree-compile printed no IR after {name}")
        if form == "late":
            return _run([tool("iree-opt"), "-"], exe, what="the late form").stdout
        pipeline = ("builtin.module(hal.executable(hal.executable.variant(builtin.module("
                    f"func.func({PREPARE})))))")
        return _run([tool("iree-opt"), f"--pass-pipeline={pipeline}", "-"], exe,
                    what="the passes before IREE's prefetch").stdout
    return _cached(f"iree-{form}", (source, flags), build)


def prefetch_point(source: str, flags: tuple[str, ...] = ()) -> str:
    """The kernel as IREE's ``iree-llvmgpu-prefetch-shared-memory`` would receive it
    (``flags``: further iree-compile options, e.g. ones that change IREE's tiles)."""
    return _form(source, tuple(flags), "prefetch")


def prefetch_input(source: str, flags: tuple[str, ...] = ()) -> str:
    """The kernel exactly as IREE's ``iree-llvmgpu-prefetch-shared-memory`` receives it when
    IREE pipelines (2 stages), dumped before that pass.  For TileAndFuse kernels this is
    :func:`prefetch_point`; IREE's VectorDistribute pipeline runs the pass later, after
    its vector distribution (:func:`prefetch_point` gives those kernels undistributed)."""
    exe = _executable(_dump_after(source, "iree-llvmgpu-prefetch-shared-memory",
                                  ["--iree-llvmgpu-prefetch-num-stages=2", *flags], "before"))
    return _run([tool("iree-opt"), "-"], exe, what="IREE's prefetch input").stdout


def late_form(source: str, flags: tuple[str, ...] = ()) -> str:
    """The kernel after ``iree-codegen-math-transform`` (the last stage with ``scf.for``)."""
    return _form(source, tuple(flags), "late")


def form_files(directory: Path, source_of) -> Callable[[str, str], Path]:
    """``get(name, form)``: the file in ``directory`` holding IREE's kernel of the matmul
    ``source_of(name)`` (its MLIR source) at the prefetch point (``form`` "prefetch") or in
    the late form ("late"), generated on the first request (a test session's cache)."""
    cache: dict = {}

    def get(name: str, form: str) -> Path:
        if (name, form) not in cache:
            fn = prefetch_point if form == "prefetch" else late_form
            path = directory / f"{name}.{form}.mlir"
            path.write_text(fn(source_of(name)))
            cache[name, form] = path
        return cache[name, form]
    return get


def executable_name(text: str) -> str:
    m = re.search(r"hal\.executable (?:private |public )?@([\w$.]+)", text)
    if m is None:
        raise ValueError("no hal.executable in the text")
    return m.group(1)


def substitute(source: str, executable: str, out_vmfb: Path, dump_dir: Path | None = None) -> str:
    """Compile ``source`` to ``out_vmfb`` with its executable replaced by the file
    ``executable``; returns iree-compile's stderr (it notes the substitution).  ``dump_dir``
    receives the executable files iree-compile dumps (its assembly, code object, ...)."""
    done = _substituted(source, Path(executable).read_text())
    Path(out_vmfb).write_bytes(done["vmfb"])
    if dump_dir is not None:
        Path(dump_dir).mkdir(parents=True, exist_ok=True)
        for name, data in done["dump"].items():
            (Path(dump_dir) / name).write_bytes(data)
    return done["note"]


def _substituted(source: str, executable: str) -> dict:
    """What ``iree-compile`` makes of ``source`` with its executable replaced by the text
    ``executable``: {"note": its stderr, "vmfb": the module, "dump": the executable files it
    dumps, by name}; once per run for one source and executable (a test run's build cache:
    a round trip's ``.vmfb`` and the code object emulated from it come from one run)."""
    def build() -> dict:
        with tempfile.TemporaryDirectory() as d:
            src, exe = Path(d) / "matmul.mlir", Path(d) / "executable.mlir"
            src.write_text(source)
            exe.write_text(executable)
            name = executable_name(executable)
            dump, vmfb = Path(d) / "dump", Path(d) / "out.vmfb"
            cmd = [tool("iree-compile"), str(src), *TARGET,
                   f"--iree-hal-substitute-executable-configuration={name}={exe}",
                   f"--iree-hal-dump-executable-files-to={dump}", "-o", str(vmfb)]
            note = _run(cmd, what=f"the matmul with {name} substituted").stderr
            return {"note": note, "vmfb": vmfb.read_bytes(),
                    "dump": {p.name: p.read_bytes() for p in dump.iterdir() if p.is_file()}}
    return _cached("iree-substituted", (source, executable), build)


def iree_prefetch_asm(source: str, flags: tuple[str, ...] = ()) -> str:
    """gfx950 assembly of IREE's own kernel, pipelined by IREE (2-stage prefetch;
    ``flags``: further iree-compile options)."""
    return iree_prefetch_files(source, flags)[0]


def iree_prefetch_files(source: str, flags: tuple[str, ...] = ()) -> tuple[str, bytes]:
    """(the gfx950 assembly, the code object) of IREE's own kernel, pipelined by IREE
    (2-stage prefetch; ``flags``: further iree-compile options), from one run."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "matmul.mlir"
        src.write_text(source)
        _run([tool("iree-compile"), str(src), *TARGET, "--iree-llvmgpu-prefetch-num-stages=2",
              *flags, f"--iree-hal-dump-executable-files-to={d}", "-o", str(Path(d) / "out.vmfb")],
             what="IREE's own prefetch-pipelined kernel")
        (asm,) = Path(d).glob("*.rocmasm")
        (hsaco,) = Path(d).glob("*.hsaco")
        return asm.read_text(), hsaco.read_bytes()


def iree_hsaco(source: str, stages: int = 2, executable: str | None = None) -> bytes:
    """The gfx950 code object ``iree-compile`` builds for ``source``'s kernel: IREE's own,
    with its shared-memory prefetch of ``stages`` (1: none), or, given ``executable``, the
    file that replaces IREE's executable (a pipelined kernel handed back: the code object of
    :func:`substitute`'s run, whose ``stages`` would not apply to it)."""
    if executable is not None:
        dump = _substituted(source, Path(executable).read_text())["dump"]
        (hsaco,) = (data for name, data in dump.items() if name.endswith(".hsaco"))
        return hsaco
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "matmul.mlir"
        src.write_text(source)
        cmd = [tool("iree-compile"), str(src), *TARGET,
               f"--iree-llvmgpu-prefetch-num-stages={stages}",
               f"--iree-hal-dump-executable-binaries-to={d}", "-o", str(Path(d) / "out.vmfb")]
        _run(cmd, what=f"the code object of IREE's kernel ({stages} stages)")
        (hsaco,) = Path(d).glob("*.hsaco")
        return hsaco.read_bytes()


#: The committed inputs: file stem -> matmul_source arguments.
CONFIGS = {
    "matmul_bf16_abt_4096": dict(dtype="bf16", m=4096, n=4096, k=4096, transpose_b=True),
}
#: the committed inputs of lit tests (file stem in ``test/lit/passes/Inputs`` -> matmul_source
#: arguments; not behaviour-snapshot cases): f16 A^T x B 1000x600x1030, a 16x32 tile in 2
#: waves cut at M, N and K, one MFMA per wave and K step (sched-adopt-loop-transpose.mlir),
#: and the others below
LIT_INPUTS = {
    "iree-f16-atb-1000x600x1030": dict(dtype="f16", m=1000, n=600, k=1030, transpose_a=True,
                                       transpose_b=False),
    # one wave of a 16x128 tile, 8 accumulators sharing one A fragment (frontend/kmerge.py)
    "iree-f16-atbt-200x1000x1030": dict(dtype="f16", m=200, n=1000, k=1030, transpose_a=True,
                                        transpose_b=True),
    # 3 K steps of one MFMA per accumulator, halved along K (frontend/half_k.py), and a
    # skinny tile whose B is copied 4 elements a lane into 8-element swizzle chunks at an
    # unaligned K (frontend/tail_swizzle.py): sched-adopt-loop-skinny-k.mlir
    "iree-f16-abt-32x512x96": dict(dtype="f16", m=32, n=512, k=96),
    "iree-f16-abt-2048x32x1030": dict(dtype="f16", m=2048, n=32, k=1030),
    # N = 100, one 128-wide tile: C's N edge cuts every workgroup's B tile, whose rows past
    # it are read past the buffer's end in workgroup 0 too (frontend/edges.py):
    # sched-adopt-loop-one-tile-edge.mlir
    "iree-f16-abt-300x100x1030": dict(dtype="f16", m=300, n=100, k=1030),
    # fp8 A^T x B at K = 288: 9 K steps of gfx942's 16x16x32 FP8 MFMA (test_iree_fp8_mfma16.py)
    "iree-fp8-atb-256x512x288": dict(dtype="fp8", m=256, n=512, k=288, transpose_a=True,
                                     transpose_b=False),
    # M = 17, one 32-row tile: A's rows 17 to 31 pointed past the end of A in workgroup 0,
    # free in the front end's fit of the block (frontend/block_fit.py):
    # sched-adopt-loop-one-tile-edge.mlir
    "iree-bf16-abt-17x1024x512": dict(dtype="bf16", m=17, n=1024, k=512),
    # N = 17, one 32-wide tile: B (K x N) copied one element per lane, kept by its column's
    # select; the front end's own runs of 2 cut at 1 by the row's end, copied in pieces of
    # one element (frontend/layout.py): test_cut_runs.py
    "iree-f16-ab-100x17x520": dict(dtype="f16", m=100, n=17, k=520, transpose_b=False),
    # N = 24: B (K x N) copied through registers by threads 0 to 127, staged through
    # private buffers between two guards at the prefetch point (frontend/guarded_pairs.py,
    # frontend/partial_copy.py): test_partial_copy.py
    "iree-f16-ab-100x24x520": dict(dtype="f16", m=100, n=24, k=520, transpose_b=False),
    # N = 129 = 16 x 8 + 1 bf16 (8 x 16 + 1 fp8): B's (K x N) run at column 128 cut to one
    # element in the last workgroup, copied in pieces whose ends are the cut
    # (frontend/layout.py): test_cut_runs.py
    "iree-bf16-ab-64x129x1024": dict(dtype="bf16", m=64, n=129, k=1024, transpose_b=False),
    "iree-fp8-ab-64x129x1024": dict(dtype="fp8", m=64, n=129, k=1024, transpose_b=False),
    # M = 28, one 32-row tile: A's (K x M) runs of 4 past M padded whole by a select of the
    # threads alone, kept in the copy (frontend/kept_masks.py): test_cut_runs.py
    "iree-bf16-atb-28x64x160": dict(dtype="bf16", m=28, n=64, k=160, transpose_a=True,
                                    transpose_b=False),
    # M = 2: IREE's VectorDistribute without an MFMA (a per-thread vector.contract, FMAs in
    # the late form), refused from both forms for want of MFMAs (test_vector_distribute.py)
    "iree-bf16-abt-2x364x1024": dict(dtype="bf16", m=2, n=364, k=1024),
    # a 16x16 tile in one wave, A and B copied through registers in narrow pieces (16 and
    # 20 vmcnt instructions per load): the derived waits leave vmcnt(72) in flight, lowered
    # to what the counter holds (schedule/stages.py's input_counts):
    # sched-expand-phases-input-vm-cap.mlir
    "iree-bf16-atb-522x653x704": dict(dtype="bf16", m=522, n=653, k=704, transpose_a=True,
                                      transpose_b=False),
    # M = 7 of a 16-element run of a K x M A (A^T x B^T, K unaligned): the late form masks
    # each run by vector.constant_mask [7], selected by the K row against all-false
    # (frontend/constant_masks.py): sched-adopt-loop-constant-mask.mlir
    "iree-fp8e5m2-atbt-7x20x1906": dict(dtype="fp8e5m2", m=7, n=20, k=1906, transpose_a=True,
                                        transpose_b=True),
    # f32: scalar operands of MFMA_F32_16x16x4_F32, K step 4 (one MFMA per accumulator and
    # K step), copies of 1 and 2 elements masked at C's edges: sched-adopt-loop-f32.mlir
    "iree-f32-abt-300x200x500": dict(dtype="f32", m=300, n=200, k=500),
}
#: the committed inputs of lit tests built from ``dynamic.padded_source`` (file stem ->
#: its arguments): bf16 A^T x B^T with M known only at launch and IREE's ``padding``, A's
#: runs masked by the M left along its contiguous dimension (sched-adopt-loop-kxm-edge.mlir);
#: bf16 A x B with M and N known only at launch, B's runs masked by the N left, A's rows
#: guarded by M (its late form: test_dynamic_shapes.py, test_edge_version.py,
#: test_direct_rows_late.py); bf16 A x B^T with M known only at launch plus a bias of N,
#: its read tied to C's tiles over the grid launched (test_launch_sizes.py); bf16 A^T x B
#: with M and N known only at launch, A's runs masked by the M left, B's by the N left
#: (sched-adopt-loop-kxm-edge.mlir, test_edge_version.py)
PADDED_LIT_INPUTS = {
    "iree-bf16-atbt-padded-m": dict(k=256, transpose_a=True),
    "iree-bf16-ab-padded-mn": dict(n=True, k=256, transpose_b=False),
    "iree-bf16-abt-padded-m-bias": dict(k=256, bias=True),
    "iree-bf16-atb-padded-mn": dict(n=True, k=256, transpose_a=True, transpose_b=False),
}


#: the committed inputs of lit tests built from ``epilogues.epilogue_source`` with further
#: ``iree-compile`` flags (file stem -> (its arguments, the flags)): IREE's bf16 batch 2 x
#: 267x969x192 at 4 prefetch stages, the pair run as straight code and the third K tile in
#: the remainder loop, whose stores go before the pair's last MMA block
#: (lowering/remainder_stores.py): sched-lower-to-rocdl.mlir; IREE's i8 batch 2 x 547x183x142
#: with B ``K x N`` at 4 prefetch stages, its three K tiles left straight, the last one's
#: guarded copy of B at the constant row 142 (its distance's map folded):
#: sched-adopt-loop-straight-guards.mlir
EPILOGUE_LIT_INPUTS = {
    "iree-bf16-batch-267x969x192": (dict(kind="batch", dtype="bf16", m=267, n=969, k=192),
                                    ("--iree-llvmgpu-prefetch-num-stages=4",)),
    "iree-i8-batch-547x183x142": (dict(kind="batch", dtype="i8", m=547, n=183, k=142,
                                       b_kxn=True),
                                  ("--iree-llvmgpu-prefetch-num-stages=4",)),
}


#: IREE's 8-wave (512-thread) bf16 kernels, which ``--pipeline=pingpong`` takes: file stem
#: -> matmul_source arguments (a compilation_info on the matmul: IREE does not pick these
#: tiles by itself).  Not committed: the tests generate them (small sizes, seconds each).
def steady_k(k_step: int, steps: int = 6) -> int:
    """The K of an 8-wave kernel of K step ``k_step``: ``steps`` K steps.  The ping-pong
    loop runs two K steps an iteration after a prologue and before a drain of one each, so
    6 K steps are 2 iterations of it, the fewest that take its back edge (at 4 its one trip
    is unrolled away by LLVM and an emulated run would prove the prologue and the drain
    only); more would only lengthen every emulated run (IREE's kernel differs in its sizes
    and trip count alone).  A kernel whose iteration is small (a 128x128 tile of 8-bit
    MFMAs, the tiles of K step 32, a K step of 128 split in two) LLVM unrolls whole at 2
    trips too: 8 K steps (3 trips) keep its loop (``steady_loop.assert_steady`` finds no
    loop otherwise)."""
    return steps * k_step


def _mma_shape(mma: str) -> tuple[int, int, int]:
    """M, N and K of IREE's MFMA ``mma`` (``MFMA_F32_16x16x32_BF16``: 16, 16, 32)."""
    shape = re.fullmatch(r"MFMA_[A-Z0-9]+_(\d+)x(\d+)x(\d+)_[A-Z0-9]+", mma)
    if shape is None:
        raise ValueError(f"not an IREE MFMA name: {mma!r}")
    return tuple(map(int, shape.groups()))


def _eight_wave(dtype: str, tile: tuple[int, int], wave_tiles: tuple[int, int],
                k_steps: int, transpose_a: bool = False, transpose_b: bool = True,
                split: int = 1, steps: int = 6) -> dict:
    """The ``matmul_source`` arguments of an 8-wave (512-thread) kernel at 1024x1024xK
    (:func:`steady_k`; A ``K x M`` with ``transpose_a``, B ``K x N`` without
    ``transpose_b``: each such operand read with transposing reads).  ``split``: the front
    end splits the K step into that many sub-steps (``frontend/ksplit.py``), each a K step
    of the ping-pong loop.  ``steps``: :func:`steady_k`'s."""
    config = compilation_info(dtype, tile, wave_tiles, k_steps, 512,
                              k_major=(transpose_a, not transpose_b))
    k_step = k_steps * _mma_shape(MMA_KINDS[dtype])[2] // split
    return dict(dtype=dtype, m=1024, n=1024, k=steady_k(k_step, steps), transpose_a=transpose_a,
                transpose_b=transpose_b, config=config)


def _forced_eight_wave(dtype: str, mma: str, tile: tuple[int, int, int],
                      waves: tuple[int, int] = (2, 4), steps: int = 6) -> dict:
    """The ``matmul_source`` arguments of an 8-wave kernel at 1024x1024xK (:func:`steady_k`;
    ``A x B^T``) with IREE's default configuration and the MFMA ``mma`` forced
    (:func:`forced_config`)."""
    return dict(dtype=dtype, m=1024, n=1024, k=steady_k(tile[2], steps), transpose_b=True, mma=mma,
                tile=tile, waves=waves)


EIGHT_WAVE = {
    "matmul_bf16_abt_256x256_8wave": _eight_wave("bf16", (256, 256), (8, 4), 2),
    # (at 8 K steps: the mutation campaign's 8-wave family, whose loop 0..16 step 2 a test
    # of test_iree_mutants.py mutates)
    "matmul_bf16_abt_256x128_8wave": _eight_wave("bf16", (256, 128), (4, 4), 2, steps=8),
    # K step 32: B's copies do not split into subtiles as IREE distributes them; the front
    # end re-distributes them (frontend/layout.py); its small iteration LLVM unrolls whole
    # at 2 trips: 8 K steps
    "matmul_bf16_abt_256x128_k32_8wave": _eight_wave("bf16", (256, 128), (4, 4), 1, steps=8),
    "matmul_f16_abt_256x256_8wave": _eight_wave("f16", (256, 256), (8, 4), 2),
    "matmul_fp8_abt_256x256_8wave": _eight_wave("fp8", (256, 256), (8, 4), 1),
    "matmul_fp8e5m2_abt_256x256_8wave": _eight_wave("fp8e5m2", (256, 256), (8, 4), 1),
    "matmul_i8_abt_256x256_8wave": _eight_wave("i8", (256, 256), (8, 4), 2),
    "matmul_fp8_abt_256x128_8wave": _eight_wave("fp8", (256, 128), (4, 4), 1),
    "matmul_i8_abt_256x128_8wave": _eight_wave("i8", (256, 128), (4, 4), 2),
    # K step 128 (4 MFMAs): 16 transposing reads per B subtile (A x B; 4x2 waves of 32x64)
    # or A subtile (A^T x B^T; 2x4 waves of 64x32), more than lgkmcnt holds
    # (schedule/long_loads.py)
    "matmul_bf16_ab_128x128_k128_8wave": _eight_wave("bf16", (128, 128), (2, 4), 4,
                                                     transpose_b=False),
    "matmul_f16_ab_128x128_k128_8wave": _eight_wave("f16", (128, 128), (2, 4), 4,
                                                    transpose_b=False),
    "matmul_bf16_atbt_128x128_k128_8wave": _eight_wave("bf16", (128, 128), (4, 2), 4,
                                                       transpose_a=True),
    # 32x32x16 MFMAs (2x4 waves of 128x64, 4x2 MFMAs each, K step 64): the ping-pong
    # geometry of that MFMA (pingpong{mfma=32x32x16}), read from the kernel
    "matmul_bf16_abt_256x256_32x32_8wave": _forced_eight_wave(
        "bf16", "MFMA_F32_32x32x16_BF16", (256, 256, 64)),
    # 8-bit 32x32 MFMAs (2x4 waves of 128x64, 4x2 MFMAs each, K step 128): i8's 32x32x32
    # (4 per K step) and FP8's 32x32x64 (2), the geometry read from the kernel
    # (pingpong{mfma=32x32x32}, {mfma=32x32x64})
    "matmul_i8_abt_256x256_32x32_8wave": _forced_eight_wave(
        "i8", "MFMA_I32_32x32x32_I8", (256, 256, 128)),
    "matmul_fp8_abt_256x256_32x32_8wave": _forced_eight_wave(
        "fp8", "MFMA_F32_32x32x64_F8E4M3FN", (256, 256, 128)),
    # i8's 32x32x32 at 256x128 in 2x4 waves of 128x32: one 32-column fragment of B per
    # wave, so B's subtiles are its K halves (frontend/k_subtiles.py; waits=block)
    "matmul_i8_abt_256x128_2x4_32x32_8wave": _forced_eight_wave(
        "i8", "MFMA_I32_32x32x32_I8", (256, 128, 128)),
    # K step 128 at 256 rows (4 MFMAs): two stages of the 2-byte tile need more LDS than a
    # workgroup has; the front end splits the K step into two sub-steps of 64, IREE's XOR
    # swizzle (xor_shuffle<64, 8>) kept (frontend/ksplit.py); at 6 sub-steps (3 of IREE's K
    # steps) LLVM unrolls the loop's 2 trips whole: 8 sub-steps
    "matmul_bf16_abt_256x256_k128_8wave": _eight_wave("bf16", (256, 256), (8, 4), 4,
                                                      split=2, steps=8),
    "matmul_bf16_abt_256x128_k128_8wave": _eight_wave("bf16", (256, 128), (4, 4), 4,
                                                      split=2, steps=8),
    # fp8 A x B: B read with 8-bit transposing reads (ds_read_b64_tr_b8), regrouped 4 per
    # 32-byte MFMA operand (frontend/transpose.py)
    "matmul_fp8_ab_128x128_8wave": _eight_wave("fp8", (128, 128), (2, 4), 2,
                                               transpose_b=False),
    # i8 A x B: the same 8-bit transposing reads, 2 per 16-byte MFMA operand; K step 128
    # (two 16x16x64 MFMAs)
    "matmul_i8_ab_128x128_8wave": _eight_wave("i8", (128, 128), (2, 4), 2, transpose_b=False,
                                              steps=8),
}

#: further 8-wave configurations ``--pipeline=pingpong`` takes, checked more cheaply than
#: :data:`EIGHT_WAVE` (the same schedule from both forms, exact from one form in the late
#: and the random mode): other element types, wave grids and K steps of the ones above
EIGHT_WAVE_VARIANTS = {
    # 32x32x16 MFMAs: f16; bf16 in 4x2 waves of 64x128 (2x4 MFMAs each), 256x128 in 4x2
    # waves of 64x64, and a K step of 32 (2 MFMAs; 8 K steps, LLVM unrolls 2 trips whole)
    "matmul_f16_abt_256x256_32x32_8wave": _forced_eight_wave(
        "f16", "MFMA_F32_32x32x16_F16", (256, 256, 64)),
    "matmul_bf16_abt_256x256_32x32_4x2_8wave": _forced_eight_wave(
        "bf16", "MFMA_F32_32x32x16_BF16", (256, 256, 64), (4, 2)),
    "matmul_bf16_abt_256x128_32x32_8wave": _forced_eight_wave(
        "bf16", "MFMA_F32_32x32x16_BF16", (256, 128, 64), (4, 2)),
    "matmul_bf16_abt_256x256_32x32_k32_8wave": _forced_eight_wave(
        "bf16", "MFMA_F32_32x32x16_BF16", (256, 256, 32), steps=8),
    # f16 at K step 128: split into two sub-steps of 64 as bf16 (frontend/ksplit.py)
    "matmul_f16_abt_256x256_k128_8wave": _eight_wave("f16", (256, 256), (8, 4), 4,
                                                     split=2, steps=8),
    # the 8-bit 32x32 MFMAs at 256x128 (4x2 waves of 64x64: 2x2 MFMAs each)
    "matmul_i8_abt_256x128_32x32_8wave": _forced_eight_wave(
        "i8", "MFMA_I32_32x32x32_I8", (256, 128, 128), (4, 2)),
    "matmul_fp8_abt_256x128_32x32_8wave": _forced_eight_wave(
        "fp8", "MFMA_F32_32x32x64_F8E4M3FN", (256, 128, 128), (4, 2)),
    # i8's 32x32x32 at 128x128 in 4x2 waves of 32x64: one fragment of A per wave, A split
    # along K (frontend/k_subtiles.py)
    "matmul_i8_abt_128x128_32x32_8wave": _forced_eight_wave(
        "i8", "MFMA_I32_32x32x32_I8", (128, 128, 128), (4, 2), steps=8),
    # i8's 32x32x32 at 64x128 in 2x4 waves of 32x32: one fragment of A and one of B per
    # wave, both split along K crosswise (A's K halves, B's alternate K steps), two of
    # IREE's K steps merged into each K tile (frontend/kmerge.py); 19 K steps: the last in
    # the remainder loop (tails.py), 2 left over after the 8 merged ones in the old loop
    "matmul_i8_abt_64x128_2x4_32x32_8wave": _forced_eight_wave(
        "i8", "MFMA_I32_32x32x32_I8", (64, 128, 128), steps=19),
    # FP8's 32x32x64 likewise at K step 128 (2 MFMAs: too few to split crosswise until two
    # K steps are merged): its epilogue store read the last 16-pass MFMA's result 19 wait
    # states after it, one short, until the lowering put in the 20 (lowering/xdl_window.py)
    "matmul_fp8_abt_64x128_2x4_32x32_8wave": _forced_eight_wave(
        "fp8", "MFMA_F32_32x32x64_F8E4M3FN", (64, 128, 128), steps=16),
}


def main() -> int:
    lit = HERE.parents[1] / "lit" / "passes" / "Inputs"
    import dynamic
    todo = [(HERE, stem, matmul_source, cfg) for stem, cfg in CONFIGS.items()] + \
        [(lit, stem, matmul_source, cfg) for stem, cfg in LIT_INPUTS.items()] + \
        [(lit, stem, dynamic.padded_source, cfg) for stem, cfg in PADDED_LIT_INPUTS.items()]
    for i, (where, stem, source, cfg) in enumerate(todo, 1):
        _progress(f"[{i}/{len(todo)}] {stem}")
        src = source(**cfg)
        (where / f"{stem}.prefetch.mlir").write_text(prefetch_point(src))
        (where / f"{stem}.late.mlir").write_text(late_form(src))
        print(f"wrote {stem}.prefetch.mlir, {stem}.late.mlir in {where}")
    import epilogues
    for stem, (cfg, flags) in EPILOGUE_LIT_INPUTS.items():
        _progress(f"{stem}")
        args = dict(cfg)
        for form, text in forms(epilogues.epilogue_source(args.pop("kind"), **args),
                                flags).items():
            (lit / f"{stem}.{form}.mlir").write_text(text)
        print(f"wrote {stem}.prefetch.mlir, {stem}.late.mlir in {lit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
