"""The regrouping of IREE's transposing B reads (``pipeline_mlir/frontend/transpose.py``).

IREE's plain ``A x B`` kernel (bf16, 2048x2048x1024), generated with ``iree-compile``
(skipped without it), is mutated once per check the rewrite makes: each mutant is refused
at the op with the check's reason, no traceback.  The kernels themselves are pipelined
and exact in ``test/unit/tools/test_iree_configurations.py`` and
``test_iree_config_layouts.py``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main

pytest.importorskip("iree.compiler")
ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

SOURCE = dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False)
READ = re.compile(r"^(\s*)(%\w+) = amdgpu\.transpose_load (%\w+)\[(%\w+), (%\w+)\](.*)$", re.M)
JOIN = re.compile(r"^(\s*)(%\w+) = vector\.from_elements (%\w+), (.*)$", re.M)


@pytest.fixture(scope="module")
def forms():
    src = G.matmul_source(**SOURCE)
    return {"late": G.late_form(src), "prefetch": G.prefetch_point(src)}


def _first_read_column(text: str, lines: list[str], column: str) -> str:
    """``text`` with ``lines`` inserted before the first transposing read, whose column
    index becomes ``column`` (which ``lines`` define; ``{col}`` is the old one)."""
    m = READ.search(text)
    ind, res, mem, row, col, rest = m.groups()
    new = "".join(f"{ind}{x.format(col=col)}\n" for x in lines)
    new += f"{ind}{res} = amdgpu.transpose_load {mem}[{row}, {column}]{rest}"
    return text[:m.start()] + new + text[m.end():]


def _first_join_operand(text: str, lines: list[str], value: str) -> str:
    """``text`` with ``lines`` inserted before the first ``vector.from_elements`` of
    transposed elements, whose first operand becomes ``value`` (``{x}``: the old one)."""
    m = JOIN.search(text)
    ind, res, first, rest = m.groups()
    new = "".join(f"{ind}{x.format(x=first)}\n" for x in lines)
    new += f"{ind}{res} = vector.from_elements {value.format(x=first)}, {rest}"
    return text[:m.start()] + new + text[m.end():]


def _iv(text: str) -> str:
    return re.search(r"scf\.for (%\w+) = .* step %c1_i32 iter_args", text).group(1)


MUTANTS = {
    # an operand element that no transposing read gives
    "constant_element": (lambda t: _first_join_operand(
        t, ["%mut_c = arith.constant 1.0 : bf16"], "%mut_c"),
        "is built from amdgpu.transpose_load elements but is not 8 of them"),
    # an element computed with an op the tracer does not model
    "computed_element": (lambda t: _first_join_operand(
        t, ["%mut_n = arith.negf {x} : bf16"], "%mut_n"),
        "'arith.negf' op computes with elements of an amdgpu.transpose_load"),
    # an element an MFMA uses and another op too
    "other_use": (lambda t: _first_join_operand(t, ["%mut_u = arith.negf {x} : bf16"], "{x}"),
                  "its elements are also used by vector.extract"),
    # a transposing read no MFMA uses
    "unused_read": (lambda t: READ.sub(
        lambda m: m.group(0) + "\n" + m.group(0).replace(m.group(2), "%mut_r", 1), t, 1),
        "op feeds no MFMA operand"),
    # a read address that moves with the K step
    "moving_address": (lambda t: _first_read_column(
        t, [f"%mut_i = arith.index_cast {_iv(t)} : i32 to index",
            "%mut_j = arith.addi {col}, %mut_i : index"], "%mut_j"),
        "its LDS address moves with the K step or the workgroup"),
    # a read one element off: the K values a group wants are not 8-byte aligned
    "misaligned": (lambda t: _first_read_column(
        t, ["%mut_1 = arith.constant 1 : index",
            "%mut_j = arith.addi {col}, %mut_1 : index"], "%mut_j"),
        "are not 4 consecutive, 8-byte aligned LDS elements"),
    # odd 16-lane groups of the first read swap their 4-column chunks: no strided block
    "xor_address": (lambda t: _first_read_column(
        t, ["%mut_16 = arith.constant 16 : index", "%mut_1 = arith.constant 1 : index",
            "%mut_4 = arith.constant 4 : index", "%mut_tid = gpu.thread_id x",
            "%mut_q = arith.divui %mut_tid, %mut_16 : index",
            "%mut_b = arith.andi %mut_q, %mut_1 : index",
            "%mut_s = arith.muli %mut_b, %mut_4 : index",
            "%mut_j = arith.xori {col}, %mut_s : index"], "%mut_j"),
        "the regrouped reads' addresses are not a strided block of the thread id"),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutant_refused_at_the_op(forms, name, tmp_path, capsys):
    mutate, reason = MUTANTS[name]
    src = tmp_path / f"{name}.mlir"
    text = mutate(forms["late"])
    assert text != forms["late"]
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and reason in err and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err


def test_swizzled_view_refused(forms, tmp_path, capsys):
    """B's LDS tile given an XOR swizzle (IREE swizzles only A's): refused at the read."""
    text = forms["prefetch"]
    alloc = re.search(r"(%\w+) = memref\.alloc\(\) : memref<32x128xbf16", text)
    assert alloc, "B's LDS tile not found"
    text = text.replace(alloc.group(0), alloc.group(0).replace(
        "memref.alloc() :",
        "memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<128, 8>} :"), 1)
    src = tmp_path / "swizzled.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and "reads a swizzled LDS view" in err and "Traceback" not in err, err


def test_strided_buffer_refused():
    """A buffer that is not dense row-major cannot take the new reads' indices; the one
    predicate of it (``ir_facts.dense_row_major``, which the front end's other checks of
    a row-major buffer ask too) on the layouts it tells apart."""
    from pipeline_mlir.analysis.ir_facts import dense_row_major
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.transpose import dense_root

    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        for text, launch, dense in [
                ("4x64xf16", False, True), ("?x64xf16", False, True),
                ("?x64xf16, strided<[64, 1]>", False, True),
                ("4x64xf16, strided<[64, 1], offset: 8>", False, False),
                ("4x64xf16, strided<[128, 1]>", False, False),
                ("4x?xf16", False, False), ("4x?xf16", True, True), ("?x?xf16", True, True),
                ("4x?xf16, strided<[?, 1]>", True, False)]:
            t = ir.Type.parse(f"memref<{text}>")
            assert dense_row_major(t, launch_sizes=launch) == dense, (text, launch)
        m = ir.Module.parse('%0 = "test.buf"() : () -> memref<32x128xbf16, strided<[256, 1]>>\n'
                            '%1 = "test.buf"() : () -> memref<32x128xbf16>\n')
        ops = list(m.body.operations)
        assert dense_root(ops[1].results[0], ops[1]) == ops[1].results[0]
        with pytest.raises(IRError, match="not a dense row-major LDS buffer"):
            dense_root(ops[0].results[0], ops[0])


def test_new_addresses_leave_the_main_loop(forms, tmp_path, capsys):
    """The regrouped reads' addresses are computed before the loop: the compiled main
    loop has no VALU instruction but the unproven copies' (counted as ``--emit=report``
    counts it, on the one compilation's assembly), and each wave issues 8 transposing reads per K step of IREE's,
    as IREE's kernel does (32 per iteration of two K tiles, each two K steps merged by
    default, merge_k=auto)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.report import loop_counts

    src = tmp_path / "late.mlir"
    src.write_text(forms["late"])
    asm = tmp_path / "k.s"
    rc = main(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(asm)])
    assert rc == 0, capsys.readouterr().err
    fn = next(f for f in parse_asm(asm.read_text()).functions
              if any(i.kind == "mfma" for i in f.instrs()))
    # the only vector ALU work left is the copies' whose range sched-buffer-soffset cannot
    # prove (their K column added to voffset, their LDS address read into M0)
    loop = fn.main_loop_phases()["loop"]
    unproven = sum(1 for i in loop if i.mnemonic == "buffer_load_dwordx4"
                   and ", 0 offen" in i.text)
    valu = Counter(i.mnemonic for i in loop if i.kind == "valu")
    assert set(valu) <= {"v_add_u32_e32", "v_or_b32_e32", "v_lshlrev_b32_e32",
                         "v_readfirstlane_b32"}, valu
    assert loop_counts(fn)["VALU"] == sum(valu.values()) <= 6 * unproven, (unproven, valu)
    reads = Counter(i.mnemonic for i in fn.main_loop_phases()["loop"] if i.kind == "ds_read")
    assert reads == {"ds_read_b64_tr_b16": 32, "ds_read_b128": 16}, reads


def _reads(types: list[str]) -> tuple:
    """(a context, accesses of transposing reads of the result ``types``: stand-ins that
    carry only the op, as :func:`~pipeline_mlir.frontend.transpose.read_width` reads them)."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.bindings import ir

    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    with ctx, ir.Location.unknown():
        m = ir.Module.parse("".join(f'%r{k} = "test.read"() : () -> {t}\n'
                                    for k, t in enumerate(types)))
    return ctx, m, [SimpleNamespace(op=o) for o in m.body.operations]


@pytest.mark.parametrize("types,per", [(["vector<4xbf16>", "vector<4xf16>"], 4),
                                       (["vector<8xf8E4M3FN>"], 8),
                                       (["vector<8xf8E5M2>", "vector<8xi8>"], 8)])
def test_read_widths_regrouped(types, per):
    """ds_read_b64_tr_b16 (4 16-bit elements) and ds_read_b64_tr_b8 (8 8-bit ones)."""
    from pipeline_mlir.frontend.transpose import read_width

    ctx, _m, reads = _reads(types)
    with ctx:
        assert read_width(reads) == per


@pytest.mark.parametrize("types,reason", [
    # another transposing read: ds_read_b64_tr_b4 (16 4-bit elements), b96_tr_b6 (16 6-bit)
    (["vector<16xi4>"], "reads vector<16xi4>; the front end regroups transposing reads of 4 "
                        "16-bit elements (ds_read_b64_tr_b16) or 8 8-bit elements"),
    (["vector<16xf6E3M2FN>"], "reads vector<16xf6E3M2FN>"),
    # the right element type, another width
    (["vector<4xf8E4M3FN>"], "reads vector<4xf8E4M3FN>"),
    (["vector<8xbf16>"], "reads vector<8xbf16>"),
    (["vector<2xf32>"], "reads vector<2xf32>"),
    # both kinds in one loop
    (["vector<4xbf16>", "vector<8xi8>"], "mixes transposing reads of 16-bit and 8-bit"),
])
def test_other_read_widths_refused_at_the_read(types, reason):
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.transpose import read_width

    ctx, _m, reads = _reads(types)
    with ctx, pytest.raises(IRError, match=re.escape(reason)):
        read_width(reads)


@pytest.fixture(scope="module")
def fp8_late():
    return G.late_form(G.matmul_source(dtype="fp8", m=2048, n=2048, k=1024, transpose_b=False))


@pytest.mark.parametrize("shift,reason", [
    # one byte off: the 8 K values a lane pair wants are not 8-byte aligned
    (1, "are not 8 consecutive, 8-byte aligned LDS elements"),
    # 8 columns on: aligned, but the read's lanes then hold other columns than the other
    # reads' and the regrouped addresses are no program of the thread id the front end emits
    (8, "the regrouped reads' addresses are not a strided block of the thread id"),
])
def test_fp8_read_moved_refused_at_the_op(fp8_late, shift, reason, tmp_path, capsys):
    """IREE's fp8 A x B kernel (ds_read_b64_tr_b8) with its first read moved along N."""
    text = _first_read_column(fp8_late, [f"%mut_1 = arith.constant {shift} : index",
                                         "%mut_j = arith.addi {col}, %mut_1 : index"],
                              "%mut_j")
    assert text != fp8_late
    src = tmp_path / "fp8.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and reason in err and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err
