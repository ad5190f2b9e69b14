"""The schedule form of a loop the front end split along K: its one writer and one reader.

The front end (``frontend/k_subtiles.py``) may split an operand's fragment reads into the
schedule's subtiles along K rather than by accumulator, and may merge several of the
kernel's K steps into each K tile (``frontend/kmerge.py``).  The adopted loop records that
as the text of its ``sched.subtiles`` attribute; the lowering reads it back into the kernel
plan (``KernelPlan.form``), where ``--emit=report`` takes its facts from the fields.

The text is ``"B along K"``, or ``"A, B along K, crosswise"`` for both operands split (A's K
halves, B's alternate K quarters), or ``"A, B along K, diagonal (...)"`` for both split into
the same K halves (``k_subtiles=ab_diagonal``: MMAs (0, 0) and (1, 1) only); with ``merged`` K steps of the kernel in each K tile,
``"; N of the kernel's K steps merged into each K tile"`` after it; with the kernel's MFMAs
halved along K (``frontend/half_k.py``), ``"; each of the kernel's MFMAs halved along K"``
before that (``"; each of the kernel's MFMAs cut into 4 along K"`` for the 8-bit floats'
16x16x128, cut into 4 of 16x16x32).  :func:`parse_form`
accepts exactly the texts :meth:`SubtileForm.text` writes.

No MLIR here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline_mlir.errors import ConfigError

__all__ = ["SubtileForm", "parse_form"]

_OPERANDS = ("A", "B", "A, B")


@dataclass(frozen=True)
class SubtileForm:
    """``operands``: those split along K (``"A"``, ``"B"`` or ``"A, B"``); ``merged``: the
    kernel's K steps in each K tile (1: none merged); ``halved``: each of the kernel's
    MFMAs made ``pieces`` (2 or 4) of that part of its K (``frontend/half_k.py``)."""

    operands: str
    merged: int = 1
    halved: bool = False
    pieces: int = 2
    #: both operands split into the same K halves (``k_subtiles=ab_diagonal``), not crosswise
    diagonal: bool = False
    #: ``operands`` held whole in each stage rather than split along K (``whole=a`` /
    #: ``whole=b``: one load and one fragment of it per stage, the other operand's two
    #: subtiles by MFMA rows or columns against it)
    whole: bool = False

    def __post_init__(self) -> None:
        if self.operands not in _OPERANDS:
            raise ConfigError(f"subtile form: the operands split along K must be one of "
                              f"{', '.join(repr(o) for o in _OPERANDS)}, got {self.operands!r}")
        if isinstance(self.merged, bool) or not isinstance(self.merged, int) or \
                self.merged < 1:
            raise ConfigError(f"subtile form: the merged K steps must be an integer >= 1, "
                              f"got {self.merged!r}")
        if not isinstance(self.halved, bool):
            raise ConfigError(f"subtile form: halved must be a bool, got {self.halved!r}")
        if self.pieces not in _PIECES or isinstance(self.pieces, bool) or \
                (self.pieces != 2 and not self.halved):
            raise ConfigError(f"subtile form: the pieces of a cut MFMA must be 2 or 4 (2 "
                              f"where none is cut), got {self.pieces!r}")
        if not isinstance(self.diagonal, bool) or (self.diagonal and self.operands != "A, B"):
            raise ConfigError(f"subtile form: the diagonal form splits A, B along K (a bool), "
                              f"got diagonal={self.diagonal!r} of {self.operands!r}")
        if not isinstance(self.whole, bool) or (self.whole and "," in self.operands):
            raise ConfigError(f"subtile form: the whole-operand stage form holds one operand "
                              f"whole (a bool), got whole={self.whole!r} of "
                              f"{self.operands!r}")

    @property
    def crosswise(self) -> bool:
        """Both operands split along K, B's into alternate K quarters."""
        return "," in self.operands and not self.diagonal

    @property
    def split(self) -> str:
        """The split alone: ``"B along K"``, ``"A, B along K, crosswise"`` (or
        :data:`DIAGONAL_TEXT`)."""
        if self.whole:
            return whole_text(self.operands)
        return f"{self.operands} along K" + (", crosswise" if self.crosswise else
                                             f", {DIAGONAL_TEXT}" if self.diagonal else "")

    @property
    def merged_text(self) -> str:
        """``"N of the kernel's K steps merged into each K tile"``, or ``""``."""
        return (f"{self.merged} of the kernel's K steps merged into each K tile"
                if self.merged > 1 else "")

    @property
    def halved_text(self) -> str:
        """``"each of the kernel's MFMAs halved along K"`` (``"cut into 4"``), or ``""``."""
        if not self.halved:
            return ""
        return HALVED_TEXT if self.pieces == 2 else \
            HALVED_TEXT.replace("halved", f"cut into {self.pieces}")

    def text(self) -> str:
        """The attribute's text (module docstring)."""
        return self.split + (f"; {self.halved_text}" if self.halved else "") + \
            (f"; {self.merged_text}" if self.merged > 1 else "")

    def __str__(self) -> str:
        return self.text()


#: what the text says of MFMAs halved along K
HALVED_TEXT = "each of the kernel's MFMAs halved along K"
#: what the text says of both operands split into the same K halves
DIAGONAL_TEXT = "diagonal (both the same K halves, MFMAs in the MMAs (0, 0) and (1, 1) only)"


def whole_text(operand: str) -> str:
    """What the text says of ``operand`` (``"A"`` or ``"B"``) held whole in each stage."""
    other, by, mmas = ("B", "columns", "(0, 0) and (0, 1)") if operand == "A" else \
        ("A", "rows", "(0, 0) and (1, 0)")
    return (f"stage form: {operand} whole (one load and one fragment of it per stage, "
            f"{other}'s two subtiles by MFMA {by} against it: the MMAs {mmas} only)")


#: the pieces a cut MFMA may make (halves; the 8-bit floats' quarters)
_PIECES = (2, 4)
_TEXT = re.compile(r"(?:(?P<ops>A|B|A, B) along K(?P<how>, crosswise|, " +
                   re.escape(DIAGONAL_TEXT) + r")?|stage form: (?P<whole>A|B) whole \(.*\))"
                   r"(?P<halved>; each of the kernel's MFMAs "
                   r"(?:halved|cut into (?P<pieces>[0-9]+)) along K)?"
                   r"(?:; (?P<merged>[0-9]+) of the kernel's K steps merged into each K tile)?")


def parse_form(text: str) -> SubtileForm:
    """The form whose :meth:`SubtileForm.text` is ``text``; :class:`ConfigError` naming the
    text for any other."""
    m = _TEXT.fullmatch(text)
    form = None
    if m:
        try:
            whole = m["whole"] is not None
            form = SubtileForm(m["whole"] if whole else m["ops"], int(m["merged"] or 1),
                               m["halved"] is not None, int(m["pieces"] or 2),
                               m["how"] == f", {DIAGONAL_TEXT}", whole)
        except ConfigError:
            form = None
    if form is None or form.text() != text:
        raise ConfigError(f"subtile form {text!r} is none the front end writes (expected "
                          f"e.g. 'B along K' or \"A, B along K, crosswise; 2 of the kernel's "
                          f"K steps merged into each K tile\")")
    return form
