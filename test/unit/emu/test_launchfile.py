"""Launch descriptions: reading and checking the TOML (every check with its located
message), the expressions of [[check]] and the element types' rounding."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import buffer_arg, launch_toml
from pipeline_mlir.emu.expect import (cast, decode, encode, evaluate, evaluate_at, exact_range,
                                      parse_expect)
from pipeline_mlir.emu.launchfile import LaunchFileError, read_launch

GOOD = launch_toml(
    dict(grid=[2, 2], block=[16, 5]),
    [buffer_arg("A", "bf16", [4, 8]), buffer_arg("B", "bf16", [6, 8], **{"pass": "resource"}),
     buffer_arg("C", "f32", [4, 6]), dict(name="M", kind="scalar", dtype="i32", value=4),
     dict(kind="null")],
    [dict(output="C", expect="A @ B.T")])


def test_a_description_is_read_with_its_defaults():
    spec = read_launch("l.toml", GOOD)
    assert spec.grid == (2, 2, 1) and spec.block == (16, 5, 1) and spec.grid_dims == 2
    A, B, C, M, null = spec.args
    assert (A.passing, A.init.how, B.passing, C.init.how) == ("pointer", "random", "resource",
                                                              "poison")
    assert (M.kind, M.value, null.kind) == ("scalar", 4, "null")
    assert spec.checks[0].expect.shape == (4, 6) and A.where == "l.toml:4"


def _edit(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


BAD = [
    (_edit("grid = [2, 2]", "grid = [2, 2"), r"l\.toml:2:1: not TOML: Unclosed array"),
    # an error at the end of the text: tomllib says "at end of document", the message its
    # last line and column
    (GOOD.rstrip("\n")[:-1], r"^l\.toml:34:18: not TOML: Unterminated string$"),
    (GOOD + "seed = [1,", r"^l\.toml:35:11: not TOML: Invalid value$"),
    (_edit("grid = [2, 2]", "grid = [2, 2]\nwaves = 4"), r"l\.toml:2: waves: unknown field"),
    (_edit("grid = [2, 2]\n", ""), r"l\.toml: grid: missing"),
    (_edit("grid = [2, 2]", "grid = [0]"), r"l\.toml:1: grid: must be a list of 1 to 3 posi"),
    (_edit("grid = [2, 2]", "grid = [1, 1, 1, 1]"), r"l\.toml:1: grid: must be a list of 1 "),
    (_edit("block = [16, 5]", "block = [64, 32]"), r"l\.toml:2: block: \[64, 32\] is 2048 "
                                                   r"work-items; a workgroup has at most 1024"),
    (_edit("grid = [2, 2]", "grid = [2, 2]\ndynamic_lds = -1"),
     r"l\.toml:2: dynamic_lds: must be an integer 0\.\.163840"),
    (_edit('kind = "null"', 'kind = "nul"'), r"l\.toml:30: arg\[4\]\.kind: must be one of "),
    (_edit('dtype = "bf16"', 'dtype = "bf17"'), r"l\.toml:7: arg\[0\]\.dtype: must be one of"),
    (_edit("shape = [4, 8]", "shape = [4, -8]"), r"l\.toml:8: arg\[0\]\.shape: must be a list"),
    (_edit('pass = "resource"', 'pass = "handle"'), r"l\.toml:15: arg\[1\]\.pass: must be one"),
    (_edit("shape = [4, 8]", "shape = [4, 8]\nrecords = 16"),
     r"l\.toml:9: arg\[0\]\.records: goes with pass = \"resource\""),
    (_edit("shape = [4, 8]", "shape = [4, 8]\ninit = {random = [-300, 3]}"),
     r"l\.toml:9: arg\[0\]\.init: random = \[-300, 3\]: bf16 holds the integers -256\.\.256"),
    (_edit("shape = [4, 8]", "shape = [4, 8]\ninit = {value = 257}"),
     r"l\.toml:9: arg\[0\]\.init: value = 257 is not exact in bf16"),
    (_edit("shape = [4, 8]", "shape = [4, 8]\ninit = {copy = \"Z\"}"),
     r"arg\[0\]\.init: copies 'Z', which is no other buffer"),
    (_edit("shape = [4, 8]", "shape = [4, 8]\ninit = {copy = \"C\"}"),
     r"arg\[0\]\.init: copies 'C' \(4x6xf32\), which is not of its type 4x8xbf16"),
    (_edit("shape = [4, 8]", "shape = [4, 8]\ninit = \"ones\""), r"arg\[0\]\.init: must be"),
    (_edit("value = 4", "value = 4.5"), r"l\.toml:27: arg\[3\]\.value: must be a number of "
                                        r"type i32"),
    (_edit("value = 4", "value = 4294967296"), r"arg\[3\]\.value: 4294967296 does not fit"),
    (_edit('name = "B"', 'name = "A"'), r"l\.toml:11: arg\[1\]\.name: 'A' is the name of "
                                        r"arg\[0\] too"),
    (_edit('name = "B"', 'name = "2B"'), r"arg\[1\]\.name: must be an identifier"),
    (_edit('kind = "null"', 'kind = "null"\ndtype = "i32"'),
     r"l\.toml:31: arg\[4\]\.dtype: unknown field"),
    (_edit('output = "C"', 'output = "D"'), r"l\.toml:33: check\[0\]\.output: must name a "
                                            r"buffer argument"),
    (_edit('expect = "A @ B.T"', 'expect = "A @ Q.T"'),
     r"l\.toml:34: check\[0\]\.expect: 'Q' is no buffer"),
    (_edit('expect = "A @ B.T"', 'expect = "A @ B"'),
     r"check\[0\]\.expect: cannot multiply shapes \[4, 8\] @ \[6, 8\]"),
    (_edit('expect = "A @ B.T"', 'expect = "A @ B.T + A"'),
     r"check\[0\]\.expect: cannot add shapes \[4, 6\] and \[4, 8\]"),
    (_edit('expect = "A @ B.T"', 'expect = "A * B"'),
     r"check\[0\]\.expect: cannot multiply shapes \[4, 8\] \* \[6, 8\] element by element"),
    (_edit('expect = "A @ B.T"', 'expect = "(A @ B.T"'), r"check\[0\]\.expect: the expression"),
    (_edit('expect = "A @ B.T"', 'expect = "A @ B.T / 2"'), r"check\[0\]\.expect: cannot read"),
    (_edit('expect = "A @ B.T"', 'expect = "B @ A.T"'),
     r"check\[0\]\.expect: 'B @ A.T' has the shape \[6, 4\], the output 'C' \[4, 6\]"),
    (_edit('expect = "A @ B.T"', 'expect = "A @ B.T + C"'),
     r"check\[0\]\.expect: reads 'C', which starts as poison"),
    (GOOD + '\n[[check]]\noutput = "C"\nexpect = "A @ B.T"\n',
     r"l\.toml:37: check\[1\]\.output: 'C' is checked twice"),
    (GOOD.split("[[check]]")[0], r"l\.toml: check: missing"),
    ("grid = [1]\nblock = [64]\n", r"arg: missing"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_a_bad_description_is_one_located_message(text, message):
    with pytest.raises(LaunchFileError, match=message):
        read_launch("l.toml", text)


def test_an_unreadable_file_is_named(tmp_path):
    with pytest.raises(LaunchFileError, match="cannot read the launch description"):
        read_launch(str(tmp_path / "none.toml"))


def test_a_byte_that_is_not_utf8_is_located(tmp_path):
    """TOML is UTF-8: a Latin-1 byte is an error at its line and column, not a codec's
    message."""
    path = tmp_path / "l.toml"
    path.write_bytes(b"grid = [1]\n# caf\xe9\n")
    with pytest.raises(LaunchFileError) as err:
        read_launch(str(path))
    assert str(err.value) == (f"{path}:2:6: byte 0xe9 is not UTF-8 text: a launch "
                              f"description is TOML, which is UTF-8")


def test_expressions_broadcast_like_numpy():
    shapes = {"A": (2, 3, 4), "B": (2, 5, 4), "bias": (5,), "C0": (2, 3, 5)}
    e = parse_expect("C0 + A @ B.T - -bias", shapes)
    assert e.shape == (2, 3, 5) and e.names == {"A", "B", "bias", "C0"}
    rng = np.random.default_rng(1)
    v = {k: rng.integers(-3, 4, size=s).astype(np.float64) for k, s in shapes.items()}
    want = v["C0"] + np.einsum("bik,bjk->bij", v["A"], v["B"]) + v["bias"]
    assert np.array_equal(evaluate(e, v), want)
    with pytest.raises(Exception, match=r"\.T of a 1-D value"):
        parse_expect("bias.T", shapes)


@pytest.mark.parametrize("text, shapes", [
    ("A @ B.T", {"A": (6, 4), "B": (7, 4)}),
    ("((A @ B.T).T + bias).T", {"A": (6, 4), "B": (7, 4), "bias": (6,)}),
    ("relu(A @ B.T + bias)", {"A": (6, 4), "B": (7, 4), "bias": (7,)}),
    ("C0 + A @ B.T - -bias", {"A": (2, 6, 4), "B": (2, 7, 4), "bias": (7,), "C0": (2, 6, 7)}),
    ("A @ B.T + row - col", {"A": (6, 4), "B": (7, 4), "row": (1, 7), "col": (6, 1)}),
    ("A @ B", {"A": (2, 6, 4), "B": (4, 7)}),
    ("bias", {"bias": (7,)}),
])
def test_an_expression_is_evaluated_within_a_mask(text, shapes):
    """Where the mask marks (rows and columns of a few tiles, a batch, everything, nothing),
    the restricted evaluation is the whole one's, in row-major order."""
    e = parse_expect(text, shapes)
    rng = np.random.default_rng(3)
    v = {k: rng.integers(-3, 4, size=s).astype(np.float64) for k, s in shapes.items()}
    whole = evaluate(e, v)
    masks = [rng.random(e.shape) < 0.2, np.ones(e.shape, bool), np.zeros(e.shape, bool)]
    if len(e.shape) >= 2:
        tile = np.zeros(e.shape, bool)
        tile[..., 2:4, 5:7] = True
        masks.append(tile)
    for mask in masks:
        got = evaluate_at(e, v, mask)
        assert got.shape == (mask.sum(),) and np.array_equal(got, whole[mask])


def test_casts_round_to_nearest_even():
    assert list(cast(np.array([257.0, 259.0, 258.0, -257.0]), "bf16")) == [256, 260, 258, -256]
    assert list(cast(np.array([2049.0, 2051.0]), "f16")) == [2048, 2052]
    assert list(cast(np.array([17.0, 19.0, 1.0]), "fp8")) == [16, 20, 1]
    # E5M2: 8 (code 0x48) and 10 (0x49) around 9, 10 and 12 (0x4a) around 11
    assert list(cast(np.array([9.0, 11.0, 17.0, -3.0]), "fp8e5m2")) == [8, 12, 16, -3]
    assert encode(np.array([1.0, 2.0, -1.0]), "fp8e5m2") == bytes([0x3C, 0x40, 0xBC])
    # beyond the largest value once rounded, as gfx950 converts without saturation: E5M2's
    # infinity, E4M3FN's NaN (460 rounds to 448, 470 beyond it)
    assert list(cast(np.array([1e6, -1e6]), "fp8e5m2")) == [np.inf, -np.inf]
    assert cast(np.array([460.0]), "fp8")[0] == 448 and np.isnan(cast(np.array([470.0]), "fp8")[0])
    assert list(cast(np.array([130.0, -129.0]), "i8")) == [-126, 127]
    # the 64-bit integers wrap too (their span is no int64: no OverflowError)
    assert list(cast(np.array([5.0, -3.0, 2.0 ** 63]), "i64")) == [5, -3, -2.0 ** 63]
    assert list(cast(np.array([5.0, -2.0 ** 12, 2.0 ** 64 + 2 ** 12]), "u64")) == \
        [5, 2.0 ** 64 - 2 ** 12, 2.0 ** 12]
    for dtype in ("bf16", "f16", "fp8", "fp8e5m2", "f32", "i8", "u16", "i64"):
        lo, hi = exact_range(dtype)
        vals = np.array([lo, -1 if lo < 0 else 0, hi], dtype=np.float64)
        assert np.array_equal(decode(encode(vals, dtype), dtype), vals), dtype
