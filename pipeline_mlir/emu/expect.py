"""What a launch description's outputs must equal: element types, their bytes, and the
expressions of a ``[[check]]`` (:mod:`pipeline_mlir.emu.launchfile`).

**Element types** (:data:`BUFFER_DTYPES`): ``f32``, ``f16``, ``bf16``, ``fp8`` (OCP E4M3FN,
gfx950's), ``fp8e5m2`` (OCP E5M2), and the integers ``i8`` .. ``u64``.  :func:`encode` writes
values as their bytes (little-endian, row-major; :func:`encoded` as an array of them),
:func:`decode` reads them back as float64; :func:`exact_range` says which integers a type
holds exactly (the inputs are drawn from them, so every product and sum of a matmul of small
integers is exact in f32).

**Expressions**: buffer names (their contents at the start of the run), ``X.T`` (the last two
dimensions swapped), ``X @ Y`` (numpy's matmul: the last two dimensions multiplied, the
ones before broadcast: a batch), ``+`` and ``-`` (numpy broadcasting: a bias of ``N``
elements is added to every row), unary ``-``, ``relu(X)`` (``max(X, 0)``), ``X * Y``
(element by element, numpy broadcasting: ``X * 0.5`` a scale by a number, ``X * s`` by a
scale per column of ``N`` elements; each operand rounded to f32, the product rounded to f32
as an f32 multiply rounds it) and parentheses.  The value is computed in
float64 (exact on the integer inputs), rounded to f32 as a kernel accumulating in f32
holds it, then to the output's type (:func:`cast`: round to nearest even, as ``arith.truncf``
and ``v_cvt_*`` do; the 8-bit float types as :func:`pipeline_mlir.emu.fp8cvt.f32_to_fp8`
converts without saturation, :func:`~pipeline_mlir.emu.fp8cvt.f32_to_fp8_bytes`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.fp8cvt import f32_to_fp8_bytes

_INTS = {"i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16, "i32": np.int32,
         "u32": np.uint32, "i64": np.int64, "u64": np.uint64}
_FLOATS = {"f32": np.float32, "f16": np.float16, "bf16": None, "fp8": None, "fp8e5m2": None}
#: the one-byte float types: their bytes' values (:mod:`pipeline_mlir.emu.mfma`'s tables)
_FP8 = {"fp8": "E4M3", "fp8e5m2": "E5M2"}
#: their formats' names in :mod:`pipeline_mlir.emu.fp8cvt`
_CVT_FORMATS = {"fp8": "fp8", "fp8e5m2": "bf8"}
BUFFER_DTYPES = tuple(_FLOATS) + tuple(_INTS)
SCALAR_DTYPES = ("i32", "u32", "i64", "u64", "f32")
#: the largest integer each float type holds with every integer below it (2^(mantissa+1))
_FLOAT_EXACT = {"f32": 1 << 24, "f16": 1 << 11, "bf16": 1 << 8, "fp8": 1 << 4,
                "fp8e5m2": 1 << 3}


_F64_EXACT = 1 << 53


def int_range(dtype: str) -> tuple[int, int]:
    """The lowest and highest value of the integer type ``dtype``."""
    info = np.iinfo(_INTS[dtype])
    return int(info.min), int(info.max)


def item_bytes(dtype: str) -> int:
    if dtype in _INTS:
        return np.dtype(_INTS[dtype]).itemsize
    return {"f32": 4, "f16": 2, "bf16": 2, "fp8": 1, "fp8e5m2": 1}[dtype]


def exact_range(dtype: str, value=None):
    """(lowest, highest) integer of the run of integers ``dtype`` holds exactly; with
    ``value``: whether it is held exactly."""
    if dtype in _INTS:          # the values pass through float64: 2^53 at most
        lo, hi = (max(b, -_F64_EXACT) if b < 0 else min(b, _F64_EXACT)
                  for b in int_range(dtype))
    else:
        lo, hi = -_FLOAT_EXACT[dtype], _FLOAT_EXACT[dtype]
    if value is None:
        return lo, hi
    if dtype in _INTS:
        return float(value).is_integer() and lo <= value <= hi
    return bool(decode(encode(np.array([value], dtype=np.float64), dtype), dtype)[0] == value)


def _fp8_table(dtype: str) -> np.ndarray:
    """The value of every byte of the one-byte float type ``dtype`` (:data:`_FP8`)."""
    from pipeline_mlir.emu import mfma

    return getattr(mfma, _FP8[dtype])


def encode(values: np.ndarray, dtype: str) -> bytes:
    """``values`` (held exactly by ``dtype``, or rounded: :func:`cast` first) as bytes."""
    return encoded(values, dtype).tobytes()


def encoded(values: np.ndarray, dtype: str) -> np.ndarray:
    """:func:`encode`'s bytes as an array of ``values``' shape and ``dtype``'s elements
    (integer, float or byte codes; no copy made to bytes: a launch copies it into its
    memory)."""
    v = np.asarray(values, dtype=np.float64)
    if dtype in _INTS:
        return v.astype(_INTS[dtype])
    if dtype == "bf16":         # cast's rounding on the f32 bits, in 32-bit arithmetic
        f = v.astype(np.float32)
        u = f.view(np.uint32)
        r = ((u + np.uint32(0x7FFF) + ((u >> 16) & np.uint32(1))) >> 16).astype(np.uint16)
        nan = np.isnan(f)       # (what cast's float64 round trip makes of a NaN's bits)
        if nan.any():
            r[nan] = (cast(v[nan], "bf16").astype(np.float32).view(np.uint32) >> 16).astype(
                np.uint16)
        return r
    if dtype in _FP8:           # the machine's conversion (:func:`cast` its values)
        f = v.astype(np.float32).view(np.uint32)
        return f32_to_fp8_bytes(f, _CVT_FORMATS[dtype])
    return v.astype(_FLOATS[dtype])


def decode(raw: bytes | np.ndarray, dtype: str, shape=None) -> np.ndarray:
    """The values of ``raw`` (bytes of ``dtype``) as float64, of ``shape``."""
    b = np.frombuffer(bytes(raw), dtype=np.uint8) if not isinstance(raw, np.ndarray) else \
        np.ascontiguousarray(raw).view(np.uint8).reshape(-1)
    if dtype in _INTS:
        out = b.view(_INTS[dtype]).astype(np.float64)
    elif dtype == "bf16":
        out = (b.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    elif dtype in _FP8:
        out = _fp8_table(dtype)[b]
    else:
        out = b.view(_FLOATS[dtype]).astype(np.float64)
    return out.reshape(shape) if shape is not None else out


def cast(values: np.ndarray, dtype: str) -> np.ndarray:
    """``values`` as a kernel computing in f32 stores them as ``dtype`` (float64 out):
    integers wrap; floats round to f32, then to nearest even in ``dtype``."""
    v = np.asarray(values, dtype=np.float64)
    if dtype in _INTS:
        info = np.iinfo(_INTS[dtype])
        span = float(int(info.max) - int(info.min) + 1)     # 2^bits, 2^64 too
        r = np.fmod(np.trunc(v), span)          # exact in float64, the sign of v's
        if info.min < 0:
            half = span / 2
            return np.where(r >= half, r - span, np.where(r < -half, r + span, r))
        return np.where(r < 0, r + span, r)     # rounded as decode reads those bytes
    f = v.astype(np.float32)
    if dtype == "f32":
        return f.astype(np.float64)
    if dtype == "f16":
        return f.astype(np.float16).astype(np.float64)
    if dtype == "bf16":
        u = f.view(np.uint32).astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16).astype(np.uint32)
        return r.view(np.float32).astype(np.float64)
    # as gfx950's v_cvt_pk_fp8_f32 / _bf8_f32 round (no saturation: a value rounding
    # beyond the largest is NaN in E4M3FN, infinity in E5M2)
    return _fp8_table(dtype)[f32_to_fp8_bytes(f.view(np.uint32), _CVT_FORMATS[dtype])]


@dataclass(frozen=True)
class Expr:
    node: tuple
    shape: tuple[int, ...]
    names: frozenset


_TOKEN = re.compile(r"\s*(?:([A-Za-z_]\w*)|(\.T\b)|([@*+\-()])|"
                    r"(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?))")
_NUMBER = re.compile(r"\d")


def parse_expect(text: str, shapes: dict[str, tuple[int, ...]]) -> Expr:
    """The expression ``text`` over the buffers of ``shapes`` (module docstring), its shape
    worked out; an :class:`EmuError` saying what is wrong."""
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise EmuError(f"cannot read {text[pos:].strip()[:20]!r} (expressions take "
                           f"buffer names, numbers, .T, @, *, +, -, relu( ) and "
                           f"parentheses)")
        tokens.append(m.group(1) or m.group(2) or m.group(3) or m.group(4))
        pos = m.end()
    p = _Parser(tokens, shapes)
    node, shape = p.sum()
    if p.i != len(tokens):
        raise EmuError(f"unexpected {tokens[p.i]!r}")
    return Expr(node, shape, frozenset(p.names))


def _broadcast(a: tuple, b: tuple, why: str) -> tuple:
    """The shape ``a`` and ``b`` broadcast to, else an :class:`EmuError` saying ``why``."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        raise EmuError(why) from None


class _Parser:
    def __init__(self, tokens: list[str], shapes: dict) -> None:
        self.t, self.i, self.shapes, self.names = tokens, 0, shapes, set()

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self):
        tok = self.peek()
        if tok is None:
            raise EmuError("the expression ends early")
        self.i += 1
        return tok

    def sum(self):
        node, shape = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs, rshape = self.product()
            shape = _broadcast(shape, rshape, f"cannot {'add' if op == '+' else 'subtract'} "
                                              f"shapes {list(shape)} and {list(rshape)}")
            node = (op, node, rhs)
        return node, shape

    def product(self):
        node, shape = self.unary()
        while self.peek() in ("@", "*"):
            if self.take() == "*":
                rhs, rshape = self.unary()
                shape = _broadcast(shape, rshape, f"cannot multiply shapes {list(shape)} * "
                                                  f"{list(rshape)} element by element")
                node = ("*", node, rhs)
                continue
            rhs, rshape = self.unary()
            if len(shape) < 2 or len(rshape) < 2 or shape[-1] != rshape[-2]:
                raise EmuError(f"cannot multiply shapes {list(shape)} @ {list(rshape)} (the "
                               f"last dimension of the left must be the one before last of "
                               f"the right)")
            batch = _broadcast(shape[:-2], rshape[:-2], f"the batch dimensions of "
                                                        f"{list(shape)} @ {list(rshape)} do "
                                                        f"not broadcast")
            node, shape = ("@", node, rhs), batch + (shape[-2], rshape[-1])
        return node, shape

    def unary(self):
        if self.peek() == "-":
            self.take()
            node, shape = self.unary()
            return ("neg", node), shape
        tok = self.take()
        if tok == "(":
            node, shape = self.sum()
            if self.take() != ")":
                raise EmuError("a '(' is not closed")
        elif tok == "relu" and self.peek() == "(":
            self.take()
            node, shape = self.sum()
            if self.take() != ")":
                raise EmuError("relu( is not closed")
            node = ("relu", node)
        elif _NUMBER.match(tok):
            node, shape = ("num", float(tok)), ()
        elif re.fullmatch(r"[A-Za-z_]\w*", tok):
            if tok not in self.shapes:
                raise EmuError(f"{tok!r} is no buffer (buffers: {', '.join(self.shapes)})")
            self.names.add(tok)
            node, shape = ("name", tok), tuple(self.shapes[tok])
        else:
            raise EmuError(f"unexpected {tok!r}")
        while self.peek() == ".T":
            self.take()
            if len(shape) < 2:
                raise EmuError(f".T of a {len(shape)}-D value (it swaps the last two "
                               f"dimensions)")
            node, shape = ("T", node), shape[:-2] + (shape[-1], shape[-2])
        return node, shape


def evaluate(expr: Expr, values: dict[str, np.ndarray]) -> np.ndarray:
    """The float64 value of ``expr`` on ``values`` (name -> float64 array)."""
    return np.asarray(_value(expr.node, values, None, None), dtype=np.float64)


def evaluate_at(expr: Expr, values: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
    """:func:`evaluate`'s value at the elements ``mask`` (a bool array of ``expr``'s shape)
    marks, row-major: a 1-D float64 array of ``mask.sum()`` values.  Only the rows and
    columns (the last two dimensions) holding a marked element are computed: a run of a
    few workgroups checks a few tiles of a large C, and those rows and columns of a
    product need only those rows of its left operand and columns of its right.  The values
    are :func:`evaluate`'s (the inputs' products and sums are exact in float64, in any
    order)."""
    shape = expr.shape
    if len(shape) < 2 or mask.shape != shape or mask.all():
        return np.broadcast_to(evaluate(expr, values), mask.shape)[mask]
    if not mask.any():
        return np.zeros(0)
    flat = mask.reshape(-1, shape[-2], shape[-1])
    rows, cols = np.nonzero(flat.any(axis=(0, 2)))[0], np.nonzero(flat.any(axis=(0, 1)))[0]
    block = np.broadcast_to(np.asarray(_value(expr.node, values, rows, cols), dtype=np.float64),
                            shape[:-2] + (len(rows), len(cols)))
    b, r, c = np.nonzero(flat)                  # row-major, as ``mask``'s elements
    return block.reshape(-1, len(rows), len(cols))[b, np.searchsorted(rows, r),
                                                   np.searchsorted(cols, c)]


def _value(node: tuple, values: dict[str, np.ndarray], rows, cols) -> np.ndarray:
    """``node``'s value at ``rows`` and ``cols`` of its last two dimensions (index arrays;
    None: all of them).  A value whose dimension there is one keeps it (it broadcasts)."""
    op = node[0]
    if op == "name":
        v = values[node[1]]
        if cols is not None and v.ndim >= 1 and v.shape[-1] != 1:
            v = v[..., cols]
        if rows is not None and v.ndim >= 2 and v.shape[-2] != 1:
            v = v[..., rows, :]
        return v
    if op == "T":
        return np.swapaxes(_value(node[1], values, cols, rows), -1, -2)
    if op == "neg":
        return -_value(node[1], values, rows, cols)
    if op == "relu":
        return np.maximum(_value(node[1], values, rows, cols), 0.0)
    if op == "@":
        return _value(node[1], values, rows, None) @ _value(node[2], values, None, cols)
    if op == "num":
        return np.float64(node[1])
    if op == "*":           # f32 operands: their product is exact in float64, then rounded
        a = np.float32(_value(node[1], values, rows, cols))
        b = np.float32(_value(node[2], values, rows, cols))
        return (a.astype(np.float64) * b).astype(np.float32).astype(np.float64)
    a, b = _value(node[1], values, rows, cols), _value(node[2], values, rows, cols)
    return a + b if op == "+" else a - b
