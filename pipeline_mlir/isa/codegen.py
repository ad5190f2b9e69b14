"""LLVM IR text -> gfx950 assembly / relocatable object (llvmlite), and -> ``.hsaco``.

No MLIR here: the input is the LLVM IR text ``pipeline_mlir.passes.translate``
prints (LLVM 24's dialect of it); llvmlite 0.50 brings LLVM 22.

LLVM reports many errors (``Cannot select``, a broken module, bad metadata) by
printing ``LLVM ERROR: ...`` and aborting the process, so the compilation runs
in a child process (:mod:`pipeline_mlir.isa.worker`: ``python -m
pipeline_mlir.isa.codegen --worker`` takes a JSON job on stdin and writes the
assembly and/or object).  A failure of any kind becomes a :class:`CodegenError`
carrying LLVM's message, never a core dump of the caller.  The worker imports
only llvmlite.

Linking uses ``iree-lld`` from the iree-base-compiler wheel (located without
importing MLIR), else ``ld.lld-22`` / ``ld.lld`` on PATH.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa import alloc_retry, worker
from pipeline_mlir.isa.natural_loops import natural_loops
from pipeline_mlir.target import DEFAULT_CHIP, gfx950

__all__ = ["CodegenError", "CodegenStepError", "compile_llvm_ir", "link_hsaco", "find_linker", "apply_skew_shims",
           "llvm_options", "unrotated_loop", "KINDS", "TRIPLE"]

TRIPLE = gfx950.TRIPLE
KINDS = ("asm", "obj", "both")

#: seconds before a worker or the linker is killed (``--codegen-timeout``)
DEFAULT_TIMEOUT = worker.DEFAULT_TIMEOUT
#: the worker: this module run as ``python -m``
_MODULE = "pipeline_mlir.isa.codegen"


class CodegenError(PipelineError):
    """LLVM could not compile or link the code; the message is LLVM's (one or a few lines)."""

    @property
    def function(self) -> str | None:
        """The function LLVM's message names (``... in function 'NAME'``, or ``in function
        NAME TYPE: ...`` of an unsupported operation), if any."""
        m = _IN_FUNCTION.search(str(self))
        return (m.group(1) or m.group(2)) if m else None


class CodegenStepError(CodegenError):
    """A child step of the build (code generation, the link) did not finish in its time,
    could not start, or ended with its reply cut short: an error of the whole kernel, not
    of a function."""


#: the head of an LLVM diagnostic printed without a source location (LLVM's
#: ``DiagnosticInfo`` of a function, e.g. a resource limit): ``error: <unknown>:0:0: ``
_UNLOCATED = re.compile(r"^error: (?:<unknown>:0:0: )?")
_IN_FUNCTION = re.compile(r"(?:^|\s)in function (?:'([^']+)'|([\w.$]+) )")


# ---- LLVM 24 -> 22 skew ---------------------------------------------------------------------

# LLVM 24 overloads make.buffer.rsrc on its record-count type too
# (``.p8.p1.i64``); LLVM 22 knows only ``.p<rsrc>.p<base>`` with an i64 count.
# ``sched-rocdl-to-llvm-intrinsics`` zero-extends the count to i64; the name's third
# suffix goes here.
_MAKE_BUFFER_RSRC = re.compile(r"(@llvm\.amdgcn\.make\.buffer\.rsrc\.p\d+\.p\d+)\.i(?:32|64)\b")


# LLVM 24 prints a floating-point constant as the shortest decimal that reads back as it
# (``fmul float %x, 1.000000e-01``); LLVM 22 reads a decimal only when its type holds it
# exactly, else wants its hexadecimal form (``0x3FB99999A0000000``: the value as a
# double; ``0xH``/``0xR`` and the bits for half/bfloat).  LLVM 24 spells a value no decimal
# gives by name: ``+inf``/``-inf``, ``+qnan``/``-qnan``, ``+nan(0xP)`` (a quiet NaN with
# payload P), ``+snan(0xP)`` (a signalling one), or by its bits, ``f0x00400000`` (a
# denormal); LLVM 22 reads none of them, so they too are written in its hexadecimal form.
# A literal's type is the last floating-point type named before it on its line (an
# instruction names its operands' type before them, or once before both of a binary op's).
# A quoted string (a symbol's name ``@"float +inf"``, a ``c"..."`` array, an attribute) and
# a comment hold no literal and name no type: they are kept as they are (the last group).
_FP_LITERAL = re.compile(r"\b(double|float|half|bfloat)\b"
                         r"|(?<![\w.$%@\"-])(-?\d+\.\d+(?:e[-+]?\d+)?)\b"
                         r"|(?<![\w.$%@\"])(?:([-+])(inf|qnan|nan|snan)(?:\(0x([0-9A-Fa-f]+)\))?"
                         r"|f0x([0-9A-Fa-f]+))(?![\w.$])"
                         r'|("[^"]*"|;.*)')
#: a floating-point type: (exponent bits, mantissa bits)
_FP_FIELDS = {"double": (11, 52), "float": (8, 23), "half": (5, 10), "bfloat": (8, 7)}


def _fp_hex(text: str, fp_type: str) -> str:
    """``text`` (a decimal constant of ``fp_type``) as LLVM 22 reads it: unchanged when the
    type holds it exactly, else the type's hexadecimal form of it rounded to the type."""
    import struct

    x = float(text)
    try:
        if fp_type == "float":
            f = struct.unpack("<f", struct.pack("<f", x))[0]
            return text if f == x else _hex_of_bits(struct.unpack("<I", struct.pack("<f", x))[0],
                                                    fp_type)
        if fp_type == "half":
            h = struct.unpack("<e", struct.pack("<e", x))[0]
            return text if h == x else _hex_of_bits(struct.unpack("<H", struct.pack("<e", x))[0],
                                                    fp_type)
    except OverflowError:           # beyond the type: left as it is (LLVM 22 says so)
        return text
    if fp_type == "bfloat":
        u = struct.unpack("<I", struct.pack("<f", x))[0]
        b = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF
        exact = struct.unpack("<f", struct.pack("<I", b << 16))[0] == x
        return text if exact else _hex_of_bits(b, fp_type)
    return text                     # a double reads any decimal


def _special_bits(sign: str, kind: str, payload: str | None, fp_type: str) -> int:
    """The bits in ``fp_type`` of LLVM 24's ``<sign><kind>[(0x<payload>)]`` (``+inf``,
    ``-qnan``, ``+nan(0x1)``, ``-snan(0x200001)``): all-ones exponent; the mantissa is the
    payload, with the quiet bit (its top bit) set for ``qnan``/``nan``."""
    ebits, mbits = _FP_FIELDS[fp_type]
    mantissa = int(payload, 16) if payload else 0
    if kind in ("qnan", "nan"):
        mantissa |= 1 << (mbits - 1)
    return (sign == "-") << (ebits + mbits) | ((1 << ebits) - 1) << mbits | mantissa


def _hex_of_bits(bits: int, fp_type: str) -> str:
    """LLVM 22's hexadecimal literal of the ``fp_type`` value with these bits: the bits for
    a double, ``0xH``/``0xR`` and the bits for half/bfloat; a float is written as the double
    holding it (exponent re-biased, mantissa shifted up; a NaN keeps its payload and its
    quiet bit, which LLVM 22 reads back bit for bit)."""
    if fp_type == "double":
        return f"0x{bits:016X}"
    if fp_type in ("half", "bfloat"):
        return f"0x{'H' if fp_type == 'half' else 'R'}{bits:04X}"
    sign, exp, mantissa = bits >> 31, (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if exp == 0xFF:
        exp = 0x7FF
    elif exp:
        exp += 1023 - 127
    elif mantissa:                  # a denormal: normal in a double
        shift = 24 - mantissa.bit_length()
        exp, mantissa = 1023 - 126 - shift, (mantissa << shift) & 0x7FFFFF
    return f"0x{sign << 63 | exp << 52 | mantissa << 29:016X}"


def _fp_literals(line: str) -> str:
    fp_type = None

    def sub(m):
        nonlocal fp_type
        if m.group(1):
            fp_type = m.group(1)
            return m.group(0)
        if fp_type is None or m.group(7):
            return m.group(0)
        if m.group(2):
            return _fp_hex(m.group(2), fp_type)
        if m.group(6):
            return _hex_of_bits(int(m.group(6), 16), fp_type)
        return _hex_of_bits(_special_bits(m.group(3), m.group(4), m.group(5), fp_type), fp_type)
    return _FP_LITERAL.sub(sub, line)


#: a line that may hold a literal :func:`_fp_literals` rewrites
_MAY_HOLD_FP = re.compile(r"\.|inf|nan|f0x")


def apply_skew_shims(ll_text: str) -> str:
    """Rewrite LLVM 24 spellings LLVM 22 rejects: the make.buffer.rsrc name, decimal
    floating-point constants their type does not hold exactly (:func:`_fp_hex`), and the
    named or bit-pattern spellings of infinities, NaNs and denormals (:func:`_hex_of_bits`)."""
    text = _MAKE_BUFFER_RSRC.sub(r"\1", ll_text)
    return "\n".join(_fp_literals(ln) if not ln.startswith(("!", ";")) and _MAY_HOLD_FP.search(ln)
                     else ln for ln in text.split("\n"))


# ---- LLVM options the IR asks for ------------------------------------------------------------

# a function keeping AGPRs for its MFMAs: ``"amdgpu-agpr-alloc"="N"`` or ``="N,M"``, N > 0
_AGPR_ALLOC = re.compile(r'"amdgpu-agpr-alloc"="0*[1-9]\d*(?:,\d+)?"')
#: LLVM's AMDGPUCodeGenPrepare splits vector PHIs wider than 32 bits into 32-bit pieces
#: when an incoming value is a constant (a zero accumulator is); an AGPR-form MFMA's
#: loop-carried <4 x float> accumulator then crosses the back edge as four 32-bit copies
#: (v_accvgpr_read/write), and with every AGPR taken the copies spill
KEEP_VECTOR_PHIS = "-amdgpu-codegenprepare-break-large-phis=false"
#: the LLVM options a compilation may set: llvmlite passes an unknown or malformed option to
#: LLVM without reporting it (LLVM prints a warning and ignores it), so only these, whose
#: effect the tests check, are accepted
#: LLVM's greedy register allocator assigns the live ranges inside one block in instruction
#: order (long ones by size, as global ranges); reversed, shorter ones first and long ones
#: among them.  A kernel whose MMAs interleave the K steps of its AGPR accumulators needs it:
#: in the default order LLVM 22 finds some K step's result no free AGPR and copies
#: accumulators around (``GemmKernel.k_outer_mfmas``)
REVERSE_LOCAL = "-greedy-reverse-local-assignment=true"
KNOWN_OPTIONS = {o.partition("=")[0]: ("true", "false") for o in (KEEP_VECTOR_PHIS, REVERSE_LOCAL)}
_K_OUTER = re.compile(f'"{gfx950.K_OUTER_MFMAS_LLVM}"="true"')


def llvm_options(ll_text: str) -> tuple[str, ...]:
    """The LLVM command-line options the code generation of ``ll_text`` runs with.

    A module whose function reserves AGPRs for its MFMA accumulators
    (``"amdgpu-agpr-alloc"`` above 0, which LLVM honours by selecting AGPR-form MFMAs)
    keeps its vector PHIs whole (:data:`KEEP_VECTOR_PHIS`); any other module compiles with
    LLVM's defaults.  One whose MMAs interleave their AGPR accumulators' K steps (the
    function attribute ``gfx950.K_OUTER_MFMAS_LLVM``) also reverses the allocator's order of local
    live ranges (:data:`REVERSE_LOCAL`).
    """
    if not _AGPR_ALLOC.search(ll_text):
        return ()
    return (KEEP_VECTOR_PHIS, REVERSE_LOCAL) if _K_OUTER.search(ll_text) else (KEEP_VECTOR_PHIS,)


# ---- the parent side ------------------------------------------------------------------------

# stderr lines of a worker that are noise, not the message
_NOISE = re.compile(r"^(PLEASE submit a bug report|Stack dump:|Program arguments:|\s*#\d+ |"
                    r"\s*\d+\.\s|Aborted)")
# LLVM warns and carries on for an unknown processor or feature: make those errors
_BAD_TARGET = re.compile(r"is not a recognized (processor|feature) for this target")


def compile_llvm_ir(ll_text: str, mcpu: str = DEFAULT_CHIP, kind: str = "asm", opt: int = 3, *,
                    features: str = gfx950.LLVM_FEATURES, timeout: float = DEFAULT_TIMEOUT,
                    options: tuple[str, ...] | None = None, said: list[str] | None = None):
    """Compile LLVM IR text for ``amdgcn-amd-amdhsa`` / ``mcpu`` in a child process.

    ``kind``: ``"asm"`` -> str (verbose assembly: ``; sched_barrier mask(...)``
    comments and the ``; Kernel info`` block are kept), ``"obj"`` -> bytes
    (relocatable ELF), ``"both"`` -> (str, bytes) from one compilation.
    ``opt`` (0-3) is both the IR pipeline level and the codegen level.  ``options``: LLVM
    command-line options for this compilation (None: those the IR asks for,
    :func:`llvm_options`, and a module that reserves AGPRs whose build spills is built
    again in the other order of the allocator's local live ranges, the build that spills
    less kept: :func:`_kept`; given, exactly those, once).  ``said``: a list the line
    saying which build was kept is appended to, for a module built twice.

    Raises :class:`CodegenError` with LLVM's message when the IR does not parse
    or verify, LLVM aborts, or ``mcpu``/``features`` is unknown to LLVM.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if opt not in (0, 1, 2, 3):
        raise ValueError(f"opt must be 0, 1, 2 or 3, got {opt!r}")
    asked = options is None
    if asked:
        options = llvm_options(ll_text)
    for o in options:
        name, _, value = o.partition("=") if isinstance(o, str) else (o, "", "")
        if value not in KNOWN_OPTIONS.get(name, ()):
            known = ", ".join(f"{n}={'|'.join(v)}" for n, v in KNOWN_OPTIONS.items())
            raise ValueError(f"LLVM option {o!r} is not one this code generation sets "
                             f"(known: {known})")
    job = {"ir": apply_skew_shims(ll_text), "mcpu": mcpu, "features": features, "kind": kind,
           "opt": opt, "options": list(options)}
    built = _compiled(job, timeout)
    if asked and _AGPR_ALLOC.search(ll_text):
        return _kept(job, timeout, built, said)
    return built


def _kept(job: dict, timeout: float, built, said: list[str] | None):
    """The build ``built`` of ``job`` (a module reserving AGPRs, with the options its IR
    asks for), or, where it spills VGPRs or SGPRs, that of ``job`` in the allocator's other
    order of local live ranges (:data:`REVERSE_LOCAL` dropped or added) if that spills
    less (:mod:`pipeline_mlir.isa.alloc_retry`; ``said`` is told which), the first where
    that build fails.  A build that spills nothing is never built again, so a module that
    does not spill compiles as it did before the rule."""
    first = alloc_retry.spills_of(job["kind"], built)
    if first == (0, 0):
        return built
    reversed_first = REVERSE_LOCAL in job["options"]
    options = [o for o in job["options"] if o != REVERSE_LOCAL] + \
        ([] if reversed_first else [REVERSE_LOCAL])
    try:
        other = _compiled({**job, "options": options}, timeout)
    except CodegenError as e:       # (the first build stands: it built)
        if said is not None:
            said.append(alloc_retry.failed_note(first, reversed_first, REVERSE_LOCAL, str(e)))
        return built
    again = alloc_retry.spills_of(job["kind"], other)
    take = alloc_retry.better(first, again)
    if said is not None:
        said.append(alloc_retry.retry_note(first, again, reversed_first, REVERSE_LOCAL, take))
    return other if take else built


def _compiled(job: dict, timeout: float):
    """The output of one worker's compilation of ``job`` (:func:`compile_llvm_ir`'s)."""
    mcpu, features, kind = job["mcpu"], job["features"], job["kind"]
    done = worker.run(_MODULE, json.dumps(job).encode(), timeout=timeout, error=CodegenStepError,
                      doing=f"LLVM code generation for {mcpu}", starting="LLVM code generation",
                      parts=2 if kind == "both" else 1)
    if done.status != 0:
        raise CodegenError(_failure_message(done.stderr, done.status))
    for line in done.stderr.splitlines():
        if _BAD_TARGET.search(line):
            raise CodegenError(f"LLVM: {line.strip()} (mcpu={mcpu!r}, features={features!r})")
    parts = done.parts
    if kind == "asm":
        return parts[0].decode()
    if kind == "obj":
        return parts[0]
    return parts[0].decode(), parts[1]


def _failure_message(stderr: str, returncode: int) -> str:
    """LLVM's message from a failed worker's stderr: the ``LLVM ERROR`` line first, then context."""
    lines = [ln.rstrip() for ln in stderr.splitlines() if ln.strip()]
    if any(ln.startswith("Traceback") for ln in lines):  # a bug in the worker, not LLVM
        return f"the codegen worker failed: {lines[-1].strip()}"
    kept = []
    for ln in lines:
        if _NOISE.match(ln):
            break
        kept.append(ln.strip())
    if not kept:
        how = (f"was killed by signal {-returncode}" if returncode < 0
               else f"exited with status {returncode}")
        return f"LLVM code generation {how} without a message"
    errors = [ln for ln in kept if ln.startswith("LLVM ERROR:")]
    context = [ln for ln in kept if not ln.startswith("LLVM ERROR:")]
    head = errors[0] if errors else _UNLOCATED.sub("LLVM: ", context.pop(0), count=1)
    if context:
        detail = "; ".join(context[:4])
        head = f"{head} ({detail[:400]}{'...' if len(detail) > 400 else ''})"
    return head


# ---- the worker -----------------------------------------------------------------------------

def _one_line(text: str) -> str:
    """llvmlite's multi-line error text without caret lines, joined into one line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip() != "^"]
    return "; ".join(lines)


_PARSE_ERROR = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


def _parse_error_message(text: str) -> str:
    """``<string>:2:3: error: msg`` + source line -> ``... at line 2:3: msg (in 'src')``."""
    text = text.removeprefix("LLVM IR parsing error").strip()
    m = _PARSE_ERROR.search(text)
    if m is None:
        return f"LLVM IR parsing error: {_one_line(text)}"
    rest = text[m.end():].splitlines()
    source = next((ln.strip() for ln in rest if ln.strip() and ln.strip() != "^"), "")
    near = f" (in '{source}')" if source else ""
    return f"LLVM IR parsing error at line {m.group(1)}:{m.group(2)}: {m.group(3)}{near}"


def _parsed(job: dict, tm, lb):
    """The job's IR parsed and checked, for the target."""
    try:
        mod = lb.parse_assembly(job["ir"])
    except RuntimeError as e:
        raise worker.WorkFailed(_parse_error_message(str(e))) from None
    if mod.triple and not mod.triple.startswith("amdgcn"):
        raise worker.WorkFailed(f"the module's target triple is '{mod.triple}', not {TRIPLE}")
    mod.triple = TRIPLE
    mod.data_layout = str(tm.target_data)
    try:
        mod.verify()
    except RuntimeError as e:
        raise worker.WorkFailed(f"LLVM IR verification failed: {_one_line(str(e))}") from None
    return mod


def _optimized(job: dict, tm, lb, rotate_first: bool = False):
    """The job's IR parsed, checked and run through the optimization pipeline (with every
    loop rotated first: the second try of a module it leaves a loop header-tested in,
    :func:`unrotated_loop`, kept only if it rotates them all)."""
    mod = _parsed(job, tm, lb)
    opt = job["opt"]
    pb = lb.create_pass_builder(tm, lb.create_pipeline_tuning_options(speed_level=opt))
    if rotate_first:
        rotate = lb.create_new_module_pass_manager()
        rotate.add_loop_rotate_pass()
        rotate.run(mod, pb)
    pb.getModulePassManager().run(mod, pb)
    if opt and not rotate_first and unrotated_loop(str(mod)):
        again = _optimized(job, tm, lb, rotate_first=True)
        if unrotated_loop(str(again)) is None:
            return again
    return mod


#: a block's label line, and a terminator: an unconditional branch / a conditional one
_BLOCK = re.compile(r"^([-\w.$]+):", re.M)
_JUMP = re.compile(r"^\s*br label %([-\w.$]+)\s*(?:,\s*!.*)?$")   # metadata after it too
_TARGET = re.compile(r"label %([-\w.$]+)")


def unrotated_loop(ll_text: str) -> str | None:
    """The header of a loop the optimization pipeline left header-tested in ``ll_text``
    (optimized LLVM IR), or None: the target of a back edge (a branch to a block that
    dominates it: :func:`~pipeline_mlir.isa.natural_loops.natural_loops`) that is an
    unconditional branch of its own block, the header ending in a conditional branch.

    MLIR lowers an ``scf.for`` to a header of its iter_args' PHIs and the exit compare,
    which LLVM's rotation (inside the pipeline, after passes that grow the header) may
    find too large to copy: the loop stays header-tested, its back edge a second block,
    and the AMDGPU back end keeps the counter in a VGPR, branches on ``exec`` and keeps
    the values of both blocks live (IREE's i8 ``A x B`` 64x128 K-loop: 480 registers,
    AGPRs taken as spill space, against 214 rotated).  :func:`_optimized` then compiles
    the module again with every loop rotated first, while its header is PHIs and a
    compare, and keeps that only if it rotates; a module whose loops the pipeline rotates
    is compiled as it always was."""
    for fn in re.split(r"^define ", ll_text, flags=re.M)[1:]:
        fn = fn.split("\n}", 1)[0]
        parts = _BLOCK.split(fn.split("\n", 1)[1] if "\n" in fn else "")
        names = ["<entry>"] + parts[1::2]      # the entry block may have no label
        last = [next((ln.strip() for ln in reversed(body.splitlines()) if ln.strip()), "")
                for body in parts[0::2]]
        if not last[0]:                         # it has one
            names, last = names[1:], last[1:]
        index = {n: i for i, n in enumerate(names)}
        succs = [[index[t] for t in _TARGET.findall(term) if t in index] for term in last]
        for loop in natural_loops(succs):
            h = loop.header
            if last[h].startswith("br i1") and any(
                    _JUMP.match(last[t]) for t in loop.latches):
                return names[h]
    return None


def _compile_job(payload: bytes) -> list[bytes]:
    """The worker's work: the JSON job -> [assembly] / [object] / [assembly, object]."""
    import llvmlite.binding as lb  # lazy: loads LLVM; only code emission needs it

    job = json.loads(payload)
    for option in job.get("options", ()):  # process-wide: this worker runs one job
        lb.set_option("", option)
    lb.initialize_all_targets()
    lb.initialize_all_asmprinters()
    tm = lb.Target.from_triple(TRIPLE).create_target_machine(
        cpu=job["mcpu"], features=job["features"], opt=job["opt"], reloc="pic")
    mod = _optimized(job, tm, lb)
    tm.set_asm_verbosity(True)
    if job["kind"] == "both":
        return _both(job, tm, lb, mod)
    return [tm.emit_assembly(mod).encode() if job["kind"] == "asm" else tm.emit_object(mod)]


def _both(job: dict, tm, lb, mod) -> list[bytes]:
    """[assembly, object] of the optimized module ``mod``, from one optimization.

    Code generation rewrites the module in place (e.g. the structurizer's
    ``llvm.amdgcn.if``), so the two code generations need two copies of it; a copy through
    IR text or a clone can differ in use-list order, which can change register allocation
    (the object would not be the assembly's).  The worker forks after the optimization:
    the child prints the assembly of its copy of the process, the worker emits the object
    of its own, the same module in the same memory.  Where there is no fork, the object's
    module is the input optimized again the same way (what every ``both`` job did before:
    0.05 s of CPU for the 4-wave BF16 kernel, against 0.06 to 0.07 s for each code
    generation)."""
    if not hasattr(os, "fork"):
        asm = tm.emit_assembly(mod).encode()
        return [asm, tm.emit_object(_optimized(job, tm, lb))]
    read, write = os.pipe()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                                # the child: the assembly, on the pipe
        os.close(read)
        status = 0
        try:
            with os.fdopen(write, "wb") as pipe:
                pipe.write(tm.emit_assembly(mod).encode())
        except BaseException:                   # noqa: BLE001 -- said, then the status
            import traceback

            traceback.print_exc()
            status = 1
        sys.stderr.flush()
        os._exit(status)
    os.close(write)
    try:
        obj = tm.emit_object(mod)
    finally:
        with os.fdopen(read, "rb") as pipe:     # the child blocks on a full pipe until read
            asm = pipe.read()
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if status != 0:
        how = f"crashed (signal {-status})" if status < 0 else f"failed (status {status})"
        raise worker.WorkFailed(f"LLVM code generation of the assembly {how}")
    return [asm, obj]


# ---- linking --------------------------------------------------------------------------------

def _iree_lld() -> str | None:
    """``iree-lld`` as ``iree.compiler.tools.binaries.find_tool`` finds it, without importing MLIR.

    Honours ``IREE_TOOL_PATH`` first, then the wheel's ``_mlir_libs`` directory.
    """
    for entry in os.environ.get("IREE_TOOL_PATH", "").split(os.pathsep):
        if entry and os.access(os.path.join(entry, "iree-lld"), os.X_OK):
            return os.path.join(entry, "iree-lld")

    try:
        spec = importlib.util.find_spec("iree.compiler")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        exe = Path(root) / "_mlir_libs" / "iree-lld"
        if os.access(exe, os.X_OK):
            return str(exe)
    return None


def find_linker() -> list[str]:
    """The command prefix of an LLD that links AMDGPU objects (``iree-lld -flavor gnu``, ...)."""
    exe = _iree_lld()
    if exe:
        return [exe, "-flavor", "gnu"]
    for name in ("ld.lld-22", "ld.lld"):
        path = shutil.which(name)
        if path:
            return [path]
    raise CodegenError("no AMDGPU linker found: install iree-base-compiler (iree-lld) or "
                       "lld-22 (ld.lld)")


def link_hsaco(obj_bytes: bytes, *, timeout: float = DEFAULT_TIMEOUT) -> bytes:
    """Link a relocatable object (:func:`compile_llvm_ir` ``kind="obj"``) into a ``.hsaco``.

    Raises :class:`CodegenError` with the linker's message on failure.
    """
    if not obj_bytes.startswith(b"\x7fELF"):
        raise CodegenError(f"the object to link into a code object is not an ELF object (it "
                           f"starts with {obj_bytes[:4]!r})")
    cmd = find_linker()
    with tempfile.TemporaryDirectory(prefix="pipeline-mlir-link-") as tmp:
        obj, out = Path(tmp) / "kernel.o", Path(tmp) / "kernel.hsaco"
        obj.write_bytes(obj_bytes)
        try:
            proc = subprocess.run(cmd + ["-shared", str(obj), "-o", str(out)],
                                  capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CodegenStepError(worker.timed_out(Path(cmd[0]).name, timeout)) from None
        except OSError as e:
            raise CodegenStepError(f"cannot start the linker {cmd[0]}: {e.strerror or e}") \
                from None
        if proc.returncode != 0 or not out.exists():
            msg = proc.stderr.decode(errors="replace").strip().replace(str(tmp) + os.sep, "")
            raise CodegenError(f"{Path(cmd[0]).name} failed: {msg or f'status {proc.returncode}'}")
        return out.read_bytes()


if __name__ == "__main__":
    sys.exit(worker.serve(_compile_job, _MODULE, "a JSON job"))
