"""UTF-8 input text, with a byte that is not UTF-8 named at its line and column.

Every reader of a text input decodes it here: the compiler's input (``driver/inputs.py``),
``--simulate``'s and ``--emulate``'s files (``driver/simulate.py``, ``driver/emulate.py``)
and the emulator's launch description (``emu/launchfile.py``).  Each caller words the one
error for its input (what the input must be); the position and the byte are found once.

No MLIR here; it sits with the other text helpers of ``isa`` (``commas.py``), below the
emulator and the driver, so a compilation that never emulates loads no ``emu`` module.
"""

from __future__ import annotations

from pipeline_mlir.errors import PipelineError

__all__ = ["NotUtf8", "line_col", "utf8_text"]


class NotUtf8(PipelineError):
    """The first byte of an input that is not UTF-8: ``line`` and ``col`` (from 1; the
    column counts bytes) and the ``byte``; its text is ``byte 0xNN is not UTF-8 text``."""

    def __init__(self, line: int, col: int, byte: int) -> None:
        super().__init__(f"byte 0x{byte:02x} is not UTF-8 text")
        self.line, self.col, self.byte = line, col, byte

    def at(self, path: str) -> str:
        """``path:line:col``."""
        return f"{path}:{self.line}:{self.col}"


def utf8_text(data: bytes, newlines: bool = False) -> str:
    """``data`` decoded as UTF-8; with ``newlines`` they are translated as text mode does
    (``\\r\\n`` and ``\\r`` become ``\\n``).  :class:`NotUtf8` at the first byte that is
    not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotUtf8(*line_col(data, e.start), data[e.start]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if newlines else text


def line_col(text, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of ``offset`` in ``text`` (str or bytes; a column counts
    characters or bytes from the start of its line)."""
    nl = "\n" if isinstance(text, str) else b"\n"
    return text.count(nl, 0, offset) + 1, offset - (text.rfind(nl, 0, offset) + 1) + 1
