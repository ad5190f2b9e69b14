"""The inputs of an emulated IREE matmul problem (A and B, as integers and as the kernel's
elements), made once and kept for the next runs of the same problem
(:mod:`pipeline_mlir.emu.iree` runs a dispatch on them)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from pipeline_mlir.emu.gemm import encode, random_inputs


#: the bytes of problems' inputs :func:`problem_data` keeps for their next runs (the most recently
#: used first; the last one asked for is kept whatever its size)
DATA_BYTES = 256 << 20
_DATA: OrderedDict = OrderedDict()


def problem_data(M: int, N: int, K: int, dtype: str, transpose_b: bool, data_seed: int):
    """:func:`new_data`, kept for the next runs of the same problem: the runs of a session
    come in runs of one problem with a few small ones between (IREE's 4096^3 inputs, 96 MB,
    took 0.2 to 0.3 s of CPU to make, and two entries by count let a small problem between
    two runs of it drop them)."""
    key = (M, N, K, dtype, transpose_b, data_seed)
    hit = _DATA.get(key)
    if hit is None:
        hit = _DATA[key] = new_data(*key)
        while len(_DATA) > 1 and sum(_bytes(v) for v in _DATA.values()) > DATA_BYTES:
            _DATA.popitem(last=False)
    else:
        _DATA.move_to_end(key)
    return hit


def _bytes(data: tuple) -> int:
    return sum(x.nbytes if isinstance(x, np.ndarray) else len(x) for x in data)


def new_data(M: int, N: int, K: int, dtype: str, transpose_b: bool, data_seed: int):
    """(A, B as N x K, both integers: int8 in -3..3, or for i8 int64 over the whole signed
    range, A's even (:func:`~pipeline_mlir.emu.gemm.random_inputs`), and A and B as the
    kernel's elements: bytes or arrays of them)."""
    if dtype == "i8":
        A, Bt = random_inputs(M, N, K, data_seed, dtype)
        B = Bt if transpose_b else Bt.astype(np.int8).T     # transposed as bytes
        return A, Bt, encode(A, dtype), encode(np.ascontiguousarray(B), dtype)
    rng = np.random.default_rng(data_seed)
    A = rng.integers(-3, 4, size=(M, K), dtype=np.int8)
    Bt = rng.integers(-3, 4, size=(N, K), dtype=np.int8)
    B = Bt if transpose_b else np.ascontiguousarray(Bt.T)
    # the seven values' encodings looked up per element (encode is element-wise), by the
    # elements' bytes: a uint8 index array is read as it is (an int8 sum would be cast to
    # intp first: 9x slower on IREE's 4096^3 inputs)
    values = np.arange(-3, 4)
    codes = encode(values, dtype)
    table = np.zeros(256, dtype=f"<u{len(codes) // 7}")
    table[values.astype(np.int8).view(np.uint8)] = np.frombuffer(codes, dtype=table.dtype)
    A_code, B_code = table[A.view(np.uint8)], table[B.view(np.uint8)]  # GlobalMemory.add copies
    A_code.flags.writeable = B_code.flags.writeable = False
    return A, Bt, A_code, B_code
