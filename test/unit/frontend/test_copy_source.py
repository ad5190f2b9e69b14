"""The front end's copies index their global buffer per dimension (frontend/copy_source.py):
through same-rank unit-stride subviews and casts the index of each dimension is the sum of
the views' offsets and the copy's index, with no linear offset split back by division."""

from __future__ import annotations

import re

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.copy_source import dim_indices

KERNEL = """
func.func @f(%buf: memref<1000x1000xbf16>, %r: index, %k: index, %i: index, %j: index) {
  %c = memref.cast %buf : memref<1000x1000xbf16> to memref<1000x1000xbf16>
  %s1 = memref.subview %c[%r, 8] [64, 16] [1, 1]
      : memref<1000x1000xbf16> to memref<64x16xbf16, strided<[1000, 1], offset: ?>>
  %s2 = memref.subview %s1[2, %k] [8, 8] [1, 1]
      : memref<64x16xbf16, strided<[1000, 1], offset: ?>>
        to memref<8x8xbf16, strided<[1000, 1], offset: ?>>
  %strided = memref.subview %c[%r, 0] [64, 16] [2, 1]
      : memref<1000x1000xbf16> to memref<64x16xbf16, strided<[2000, 1], offset: ?>>
  %reduced = memref.subview %c[%r, 0] [1, 16] [1, 1]
      : memref<1000x1000xbf16> to memref<16xbf16, strided<[1], offset: ?>>
  %flat = memref.collapse_shape %buf [[0, 1]] : memref<1000x1000xbf16> into memref<1000000xbf16>
  return
}
"""


class _Ix:
    """Index arithmetic as text: constants are ints, sums are ``(a + b)``."""

    def c(self, v):
        return v

    def add(self, a, b):
        return b if a is None else a if b is None else f"({a} + {b})"

    def mul(self, a, k):
        return a if k == 1 else f"({a} * {k})"


class _Names:
    """A Cloner stand-in: every value is its block argument's name."""

    def __init__(self, fn) -> None:
        self.names = {a: n for a, n in zip(fn.arguments, ("buf", "r", "k", "i", "j"))}

    def get(self, v):
        return self.names[v]


_VIEWS = ("cast", "s1", "s2", "strided", "reduced", "flat")


def _check(body) -> None:
    with new_context() as ctx:
        module = ir.Module.parse(KERNEL, ctx)
        block = module.body.operations[0].regions[0].blocks[0]
        views = {n: op.results[0] for n, op in zip(_VIEWS, block.operations)}
        body(_Names(block), block.arguments, views)


def test_subviews_and_casts_add_their_offsets_per_dimension():
    def body(names, args, views):
        buf, i, j = args[0], args[3], args[4]
        got = dim_indices(_Ix(), names, views["s2"], [i, j], buf)
        assert got == ["((i + 2) + r)", "((j + k) + 8)"]
        assert dim_indices(_Ix(), names, views["cast"], [i, j], buf) == ["i", "j"]
        assert dim_indices(_Ix(), names, buf, [i, j], buf) == ["i", "j"]
    _check(body)


def test_other_views_fall_back_to_the_linear_offset():
    def body(names, args, views):
        buf, i, j = args[0], args[3], args[4]
        assert dim_indices(_Ix(), names, views["strided"], [i, j], buf) is None
        assert dim_indices(_Ix(), names, views["reduced"], [j], buf) is None
        assert dim_indices(_Ix(), names, views["flat"], [i], buf) is None
        # a view of another buffer never reaches ``base``
        assert dim_indices(_Ix(), names, buf, [i, j], views["flat"]) is None
    _check(body)


def test_unaligned_iree_kernel_copies_need_no_division():
    """IREE's 300x500x200 kernel (rows of 200 elements): the front end's own copies'
    addresses in the K-loops take no division (no ``s_mul_hi_u32`` of a magic reciprocal,
    no 64-bit ``s_lshr_b64``, no ``v_mul_hi_u32``).  Read from the code object the run
    builds anyway for ``iree_configs``' configuration of those sizes (the run's code-object
    store), decoded by the emulator's decoder: each backward branch's body that holds an
    MFMA is a K-loop."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data" / "iree"))
    import generate as G
    from build_cache import share_code_objects
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.emu.inputs import load_kernel

    text = G.forms(G.matmul_source(dtype="bf16", m=300, n=500, k=200), ())["prefetch"]
    with share_code_objects():
        code = compile(CompileOptions(schedule="4wave", text=text, emit="hsaco"))
    instrs = load_kernel(code.checked_output()).instrs
    loops = [[x.name for x in instrs if i.target <= x.addr <= i.addr] for i in instrs
             if i.target is not None and i.target < i.addr]
    loops = [names for names in loops if any(n.startswith("v_mfma") for n in names)]
    assert loops and all("buffer_load_dword" in names for names in loops), loops
    assert not [n for names in loops for n in names
                if re.fullmatch(r"s_mul_hi_u32|s_lshr_b64|v_mul_hi_u32", n)]
