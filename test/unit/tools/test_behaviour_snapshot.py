"""Every emit kind of every named pipeline and of the committed IREE inputs, ``--simulate``,
``--launch`` and ``--emit=report``, against outputs recorded before the package layout changed.

The schedule, report, simulation and launch outputs are compared byte for byte; the code kinds
(mlir, llvm, asm, obj, hsaco) by meaning (``test/data/behaviour/meaning.py``: SSA names,
label numbers and ELF layout are not compared; every op, instruction and metadata value is).
A difference here is a change of behaviour; if it is intended, re-record with
``python test/data/behaviour/record.py`` and say why in the commit.
"""

from __future__ import annotations

import functools
import io
import json
import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects

DATA = Path(__file__).resolve().parents[2] / "data" / "behaviour"
sys.path.insert(0, str(DATA))

from cases import OUTPUTS, cases, emit_kind  # noqa: E402
from meaning import CODE_KINDS, canonical, summary  # noqa: E402
from run import run_case  # noqa: E402

CASES = dict(cases())


#: the emit kinds whose builds the cases share with the run's other builds of the same
#: spec and input (``build_cache.share_code_objects``): a named schedule's own kernel
#: (``kernel_builds``, the documents' commands) and IREE's committed kernels
#: (test_iree_emulate.py, test_iree_round_trip.py, test_buffer_soffset.py)
SHARED_EMITS = (*CODE_KINDS, "report")


@functools.cache
def _output(name: str) -> tuple[bytes, str, int]:
    """run_case of a case, once per session (the normaliser tests reuse the outputs).  A
    plain build (a spec, an input, ``--emit``, nothing else) is the same compilation as the
    run's other builds of that spec and input and kind: it is made once per run, whichever
    test asks first (``pipeline_mlir/driver/code_cache.py``), and the code kinds and the
    report of one spec and input are one build (``together``: one run of the passes and of
    LLVM); only a build that succeeded without a diagnostic is kept, and what the case
    writes, its stderr and its exit status are compared all the same."""
    with share_code_objects(emits=SHARED_EMITS, own_kernels=True, together=True):
        return run_case(CASES[name])


#: the code kinds another kept kind of the same build stands for (the ``together`` build
#: above: one run of the passes and of LLVM): ``llvm`` is the translation of the LLVM
#: dialect ``mlir`` pins, ``obj`` the assembled code ``asm`` pins (LLVM emits both from one
#: code generation), ``hsaco`` that object linked.  A case of these kinds that builds code
#: runs in the long tier; one refused (its recorded exit status 1) stays, its message its own.
DERIVED = {"llvm": "mlir", "obj": "asm", "hsaco": "asm"}


#: committed IREE kernels' late forms whose schedule is their prefetch point's (the one-form
#: rule, docs/testing.md "The long tier"), by the prefetch point's case prefix: the default
#: run pipelines the late form once (its ``schedule-json``, equal to the prefetch point's:
#: :func:`test_one_schedule_for_both_forms`) and compares the prefetch point's every kind;
#: the late form's other kinds are the long tier's
ONE_FORM = {"iree-matmul_bf16_abt_4096-late": "iree-matmul_bf16_abt_4096-prefetch"}
#: the kind of the late form of :data:`ONE_FORM` the default run compares
ONE_FORM_KIND = "schedule-json"


def _param(name: str):
    """``name`` as a parameter of :func:`test_output_unchanged`, in the long tier when
    another kept kind of its build stands for it (:data:`DERIVED`), or the other form's
    build (:data:`ONE_FORM`)."""
    kind = emit_kind(CASES[name])
    stem = name[:-len(kind) - 1] if kind else name
    if stem in ONE_FORM and kind != ONE_FORM_KIND:
        return pytest.param(name, marks=pytest.mark.long(
            f"{stem}'s schedule is {ONE_FORM[stem]}'s (test_one_schedule_for_both_forms): "
            f"the default run pipelines it ({stem}.{ONE_FORM_KIND}) and compares "
            f"{ONE_FORM[stem]}.{kind}"))
    if kind not in DERIVED or (OUTPUTS / f"{name}.rc").read_text().strip() != "0":
        return name
    kept = name[:-len(kind)] + DERIVED[kind]
    return pytest.param(name, marks=pytest.mark.long(
        f"{name} is derived from the code of {kept} (the same build), which the default "
        "run compares"))


@pytest.mark.parametrize("name", [_param(name) for name in CASES])
def test_output_unchanged(name):
    data, err, rc = _output(name)
    kind = emit_kind(CASES[name])
    recorded = OUTPUTS / f"{name}.{'meaning' if kind in CODE_KINDS else 'out'}"
    assert recorded.exists(), f"no recorded output for {name}: python {DATA / 'record.py'}"
    assert rc == int((OUTPUTS / f"{name}.rc").read_text())
    assert err == (OUTPUTS / f"{name}.err").read_text(encoding="utf-8")
    if kind not in CODE_KINDS:
        assert data == recorded.read_bytes()
        return
    want, got = json.loads(recorded.read_text(encoding="utf-8")), summary(kind, data)
    # the counts first: their difference says roughly what changed
    assert got["counts"] == want["counts"]
    assert got["sha256"] == want["sha256"], (
        f"the {kind} output of {name} means something else than recorded; "
        f"python {DATA / 'record.py'} --show {name} prints its canonical text")


@pytest.mark.parametrize("late", sorted(ONE_FORM))
def test_one_schedule_for_both_forms(late):
    """The late form of :data:`ONE_FORM` pipelines to the schedule of its prefetch point
    (``--emit=schedule-json``, byte for byte: the outputs the default run compares anyway),
    which is what lets the default run build code from the prefetch point alone."""
    kind = ONE_FORM_KIND
    assert _output(f"{late}.{kind}") == _output(f"{ONE_FORM[late]}.{kind}")


def test_a_changed_output_is_caught(tmp_path):
    """The comparison is not vacuous: a recorded output that differs by one byte fails."""
    name = "4wave.schedule"
    data, _, _ = _output(name)
    recorded = (OUTPUTS / f"{name}.out").read_bytes()
    assert data == recorded and data != recorded[:-1] + b"X"


# ---------------------------------------------------------------------------
# the normalisers: a renaming or a change of layout is the same meaning, a changed
# instruction, a dropped op or a changed metadata value is not


def _sub(text: str, pattern: str, repl: str, count: int = 0) -> str:
    out, n = re.subn(pattern, repl, text, count=count, flags=re.MULTILINE)
    assert n, f"{pattern!r} is not in the output: the test's example is stale"
    return out


def _drop_line(text: str, pattern: str) -> str:
    return _sub(text, rf"^.*{pattern}.*\n", "", count=1)


# kind -> (the case, edits that keep the meaning, edits that change it)
_TEXT_EDITS = {
    "mlir": ("4wave.mlir",
             {"an SSA value renamed": lambda t: _sub(t, r"%alloc_0\b", "%lds_buffer"),
              "a block argument renamed": lambda t: _sub(t, r"%arg3\b", "%m"),
              "indentation": lambda t: _sub(t, r"^      ", "  ")},
             {"a constant changed": lambda t: _sub(t, r"constant 16 : i32", "constant 17 : i32"),
              "an op dropped": lambda t: _drop_line(t, r"rocdl\.s\.barrier")}),
    "llvm": ("4wave.llvm",
             {"a value named": lambda t: _sub(t, r"%19\b", "%tid"),
              "every value and block named": lambda t: _sub(_sub(t, r"%(\d+)\b", r"%v\1"),
                                                            r"^(\d+):", r"v\1:")},
             {"an operand changed": lambda t: _sub(t, r"urem i32 %23, 64", "urem i32 %23, 32"),
              "a call dropped": lambda t: _drop_line(t, r"call void @llvm\.amdgcn\.s\.barrier")}),
    "asm": ("4wave.asm",
            {"labels renamed": lambda t: _sub(t, r"\.LBB0_(\d+)\b", r".Lblock_\1_x"),
             "comments dropped": lambda t: _sub(t, r"^\s*;(?!\s*sched_).*\n", "")},
            {"an instruction changed": lambda t: _sub(t, r"lgkmcnt\(0\)", "lgkmcnt(1)", 1),
             "an instruction dropped": lambda t: _drop_line(t, r"\ts_barrier\b"),
             "a metadata value changed": lambda t: _sub(t, r"\.vgpr_count:(\s+)(\d+)",
                                                        lambda m: f".vgpr_count:{m[1]}"
                                                                  f"{int(m[2]) + 1}")}),
}


@pytest.mark.parametrize("kind", _TEXT_EDITS)
def test_text_meaning_ignores_names_and_catches_changes(kind):
    name, same, different = _TEXT_EDITS[kind]
    text = _output(name)[0].decode()
    reference = canonical(kind, text.encode())[0]
    for what, edit in same.items():
        edited = edit(text)
        assert edited != text and canonical(kind, edited.encode())[0] == reference, what
    for what, edit in different.items():
        assert canonical(kind, edit(text).encode())[0] != reference, what


def _elf_places(data: bytes) -> dict[str, int]:
    """File offsets in a code object: the kernel's first instruction, its descriptor, the
    .sgpr_count value of the metadata note and the padding after the kernel's code."""
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(data))
    symbols = {s.name: s for s in elf.get_section_by_name(".symtab").iter_symbols()}
    kernel = next(s for s in symbols.values() if s["st_info"]["type"] == "STT_FUNC")

    def offset(sym) -> int:
        sec = elf.get_section(sym["st_shndx"])
        return sec["sh_offset"] + sym["st_value"] - sec["sh_addr"]

    text = elf.get_section(kernel["st_shndx"])
    assert text["sh_size"] > kernel["st_size"] + 4, "no padding after the kernel's code"
    return {"code": offset(kernel), "descriptor": offset(symbols[kernel.name + ".kd"]),
            "sgpr_count": data.index(b"\xab.sgpr_count") + 12,
            "padding": text["sh_offset"] + text["sh_size"] - 4}


def _flip(data: bytes, at: int, bits: int = 0xFF) -> bytes:
    """``data`` with the byte at ``at`` xor ``bits``."""
    return data[:at] + bytes([data[at] ^ bits]) + data[at + 1:]


@pytest.mark.parametrize("kind", ["obj", "hsaco"])
def test_code_object_meaning_ignores_layout_and_catches_changes(kind):
    data = _output(f"4wave.{kind}")[0]
    places = _elf_places(data)
    reference = canonical(kind, data)[0]
    # layout: the padding after the kernel's code is not part of it
    assert canonical(kind, _flip(data, places["padding"]))[0] == reference
    # an instruction: the first one's offset byte (s_load_dwordx2 ... 0x88)
    assert canonical(kind, _flip(data, places["code"] + 4, 0x40))[0] != reference
    # metadata values: the descriptor's LDS size, the note's .sgpr_count
    assert canonical(kind, _flip(data, places["descriptor"] + 1, 0x11))[0] != reference
    assert canonical(kind, _flip(data, places["sgpr_count"], 1))[0] != reference
