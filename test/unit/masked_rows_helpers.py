"""What the tests of the row-masked copies of IREE's padded kernels share
(``test/unit/frontend/test_masked_rows*.py``): IREE's padded dispatch at the prefetch point,
``sched-adopt-loop`` run on a text, and the text mutations a test breaks a property with."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402
from build_cache import cached  # noqa: E402

#: the 4-wave schedule's adoption alone (what the tests check happens there)
ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"


def padded_prefetch(k: int) -> str:
    """IREE's padded dynamic-M dispatch of K = ``k`` at the prefetch point (the build
    cache's, shared with test_dynamic_shapes)."""
    source = D.padded_source(False, k)
    return cached("iree-prefetch-padded", (source,), lambda: G.prefetch_point(source))


def padded_late(k: int) -> str:
    """The same dispatch in IREE's late form."""
    return G.late_form(D.padded_source(False, k))


def adopt(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``sched-adopt-loop`` (the 4-wave schedule) on
    ``text``."""
    (tmp_path / "k.mlir").write_text(text)
    return (main([ADOPT, str(tmp_path / "k.mlir")]), *capsys.readouterr())


def text_mutation(old: str, new: str):
    """A mutation replacing the one occurrence of ``old`` by ``new``."""
    def mutate(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return mutate


def map_mutation(name: str, old: str, new: str):
    """A mutation making affine map ``#name`` ``new`` (it must be ``old``)."""
    return text_mutation(f"#{name} = affine_map<{old}>", f"#{name} = affine_map<{new}>")


def assert_refused_at(tmp_path, capsys, text: str, at: str, message: str) -> None:
    """``text`` is refused by the adoption with ``message``, located at the line holding
    ``at`` (its first occurrence), with no traceback."""
    rc, _out, err = adopt(tmp_path, capsys, text)
    line = 1 + text[:text.index(at)].count("\n")
    assert rc == 1 and message in err and f"k.mlir:{line}:" in err, err
    assert "Traceback" not in err


def in_window(value: str) -> list[str]:
    """IR lines (unindented) defining ``%w_in``: is ``value`` (an ``index``) within 20..40,
    sizes the old sampled row checks never reached (the late-form row proof's mutants)."""
    return ["%w_lo = arith.constant 20 : index", "%w_hi = arith.constant 40 : index",
            f"%w_a = arith.cmpi sge, {value}, %w_lo : index",
            f"%w_b = arith.cmpi sle, {value}, %w_hi : index",
            "%w_in = arith.select %w_a, %w_b, %w_a : i1"]


def row_mutations(rows: str, row: str) -> list:
    """(mutation, message) of IREE's row arithmetic broken three ways, in any of its padded
    dispatches: the row mask (affine map ``#rows``) made 2, the row read (``#row``) one
    further, the rows left in the tile (``#map2``) one fewer."""
    return [
        (map_mutation(rows, "(d0, d1) -> (1, d0 - d1)", "(d0, d1) -> (2, d0 - d1)"),
         "a row-masked copy reads one row or none"),
        (map_mutation(row, "(d0)[s0, s1] -> (d0 * 128 + s0 + s1)",
                      "(d0)[s0, s1] -> (d0 * 128 + s0 + s1 + 1)"),
         "reads a row other than the one its LDS row holds"),
        (map_mutation("map2", "(d0)[s0] -> (d0 * -128 + s0, 128)",
                      "(d0)[s0] -> (d0 * -128 + s0 - 1, 128)"),
         "masks a row below the size at a size of 1")]
