"""The target description (pipeline_mlir/target): lookup by name, the gfx950 facts agree with
each other and with what the rest of the tree used to write itself, and the chip's name is
written only there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pipeline_mlir import target
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.target import gfx950

PACKAGE = Path(__file__).resolve().parents[3] / "pipeline_mlir"

#: files allowed to write the chip's name for now (none: every file reads
#: pipeline_mlir.target.DEFAULT_CHIP or pipeline_mlir.target.gfx950)
PENDING: set[str] = set()


def test_lookup_by_name():
    t = target.lookup("gfx950")
    assert t is gfx950.TARGET and t.name == target.DEFAULT_CHIP == "gfx950"
    assert target.names() == ("gfx950",)
    assert t.wave_size == 64 and t.lds_bytes == 160 * 1024 and t.simds_per_cu == 4
    assert t.counter("vmcnt").max == 63 and t.counter("lgkmcnt").max == 15
    assert t.counter("expcnt").max == 7


@pytest.mark.parametrize("name", ["gfx942", "GFX950", "", "mi355x"])
def test_an_unknown_chip_names_the_known_ones(name):
    with pytest.raises(ConfigError, match=rf"unknown processor '{name}' \(known: gfx950\)") as e:
        target.lookup(name)
    assert isinstance(e.value, target.UnknownTarget) and e.value.known == ("gfx950",)


def _old_imm(v, e, lg):
    """The immediate as the tree computed it before the counters were described."""
    return 0xCF7F & ((v & 0xF) | ((v & 0x30) << 10)) | (e << 4) | (lg << 8)


def test_waitcnt_fields_encode_and_decode():
    vm, exp, lg = gfx950.VMCNT, gfx950.EXPCNT, gfx950.LGKMCNT
    for v in range(vm.max + 1):
        for e in (0, 3, exp.max):
            for g in range(lg.max + 1):
                imm = vm.encode(v) | exp.encode(e) | lg.encode(g)
                assert imm == _old_imm(v, e, g)
                assert (vm.decode(imm), exp.decode(imm), lg.decode(imm)) == (v, e, g)
    # the fields do not overlap, and bits 7, 12 and 13 belong to no counter
    assert vm.encode(vm.max) | exp.encode(exp.max) | lg.encode(lg.max) == 0xCF7F


def test_mfma_table():
    # the matrix unit's cycles follow from the peak rates (what the measured table prices)
    cycles = {m.mnemonic: m.xdl_cycles for m in gfx950.MFMAS}
    assert cycles["v_mfma_f32_16x16x32_bf16"] == cycles["v_mfma_f32_16x16x32_f16"] == 16
    assert cycles["v_mfma_f32_16x16x128_f8f6f4"] == cycles["v_mfma_f32_32x32x16_bf16"] == 32
    assert cycles["v_mfma_f32_32x32x64_f8f6f4"] == 64
    assert cycles["v_mfma_i32_16x16x64_i8"] == 16        # INT8 at the FP8 rate
    # gfx942's 32x32x8 at its old rate: the 32x32x16's time for half the K
    assert cycles["v_mfma_f32_32x32x8_bf16"] == cycles["v_mfma_f32_32x32x8_f16"] == 32
    for m in gfx950.MFMAS:
        assert f"{m.m}x{m.n}x{m.k}" in m.mnemonic
        formats = gfx950.fp8_mnemonic_formats(m.mnemonic)
        assert m.mnemonic.endswith(m.operands) if formats is None else m.operands == "fp8"
        assert gfx950.TARGET.mfma(m.mnemonic) is m
    # gfx942's 16x16x32 and 32x32x16 FP8 MFMAs: the formats their mnemonic names (E4M3 0,
    # E5M2 1), at the 16-bit 16x16x32's and 32x32x8's rates (llvm-mca-22: 4 and 8 passes);
    # FP8 kernels may issue them besides the f8f6f4 ones
    assert {m.mnemonic: gfx950.fp8_mnemonic_formats(m.mnemonic) for m in gfx950.MFMAS
            if m.operands == "fp8"} == {
        f"v_mfma_f32_{shape}_{a}_{b}": (fa, fb) for shape in ("16x16x32", "32x32x16")
        for a, fa in (("fp8", 0), ("bf8", 1)) for b, fb in (("fp8", 0), ("bf8", 1))}
    assert cycles["v_mfma_f32_16x16x32_fp8_bf8"] == 16
    assert cycles["v_mfma_f32_32x32x16_bf8_fp8"] == cycles["v_mfma_f32_32x32x8_f16"] == 32
    assert gfx950.fp8_mnemonic_formats("v_mfma_f32_16x16x128_f8f6f4") is None
    assert list(gfx950.dtype_mfmas("fp8")) == ["16x16x128", "32x32x64", "16x16x32",
                                               "32x32x16"]
    assert list(gfx950.dtype_mfmas("bf16")) == ["16x16x32", "32x32x16", "32x32x8", "16x16x16"]
    assert gfx950.TARGET.mfma("v_mfma_f32_4x4x4_16b_f16") is None
    # one MFMA per element type of the kernels, the 16x16 one
    from pipeline_mlir.schedules.geometry import DTYPES, MX_DTYPES

    assert set(gfx950.MFMA_BY_DTYPE) == set(DTYPES) | set(MX_DTYPES)
    assert {d: m.shape for d, m in gfx950.MFMA_BY_DTYPE.items()} == {
        "bf16": (16, 16, 32), "f16": (16, 16, 32), "fp8": (16, 16, 128), "i8": (16, 16, 64),
        "mxfp4": (16, 16, 128), "mxfp8": (16, 16, 128), "f32": (16, 16, 4)}
    # the f32 MFMA at the FP32 matrix rate (8 passes), not an XDL one
    assert cycles["v_mfma_f32_16x16x4_f32"] == 32
    assert gfx950.mfma_passes("v_mfma_f32_16x16x4_f32") == (8, False)


def chip_literals(source: str) -> list[int]:
    """Lines of ``source`` with the string constant ``"gfx950"`` (the chip's name written as
    a value, not prose that mentions it)."""
    return [n.lineno for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Constant) and n.value == gfx950.NAME]


def test_the_chip_name_is_written_only_in_target():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        # (a literal of the name ends with it and its closing quote in the source, short of
        # escapes or implicit concatenation inside the name: only the few modules with such
        # text are parsed, parsing the whole package being most of the suite's cost here)
        if rel.startswith("target/") or rel in PENDING or not re.search(
                re.escape(gfx950.NAME) + "['\"]", text):
            continue
        found += [f"{rel}:{line}" for line in chip_literals(text)]
    assert not found, "the chip's name outside pipeline_mlir/target: " + ", ".join(found)


def test_the_literal_scan_finds_a_literal():
    assert chip_literals('def f(chip="gfx950"):\n    return f"{chip} is gfx950"\n') == [1]
    assert chip_literals('"""gfx950 docs."""\nCHIP = NAME\n') == []


def test_target_imports_nothing_of_the_project_but_errors_and_records():
    """The layer sits below the scheduling core: plain facts, no project code above errors
    (and the records its descriptions are, the lowest layer)."""
    for path in sorted((PACKAGE / "target").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("pipeline_mlir"):
                    assert name in ("pipeline_mlir.errors", "pipeline_mlir.records") or \
                        name.startswith("pipeline_mlir.target"), f"{path.name} imports {name}"
