"""The emulator's poison: the byte every register, LDS byte, private byte and poisoned
global buffer holds until something writes it (an undefined value in LLVM).

It is ``0xFF`` (:data:`DEFAULT`: an all-ones word, a NaN no float operation returns);
:func:`poisoned_with` runs a block with another, so that a caller can tell a result that
depends on what nothing wrote (it changes with the poison) from one that holds the poison's
value by computing it (``-1`` of an ``i32``, the low byte of a bf16 510).
"""

from __future__ import annotations

import contextlib

#: the poison byte of every run not in :func:`poisoned_with`
DEFAULT = 0xFF
_now = [DEFAULT]


def byte() -> int:
    """The poison byte of the runs made now."""
    return _now[0]


def word() -> int:
    """The poison as a 32-bit word (four poison bytes)."""
    return _now[0] * 0x01010101


@contextlib.contextmanager
def poisoned_with(value: int):
    """Runs made in the block poison with byte ``value`` (0..255)."""
    if not 0 <= value <= 0xFF:
        raise ValueError(f"a poison byte is 0..255, not {value}")
    before, _now[0] = _now[0], value
    try:
        yield
    finally:
        _now[0] = before
