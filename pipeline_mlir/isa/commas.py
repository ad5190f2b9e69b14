"""Text split at its top-level commas: the one splitter of the project's small syntaxes.

An assembly instruction's operands (``pipeline_mlir/isa/asm_instr.py``: ``[]`` and ``()``
nest), the fields of an attribute's text (``pipeline_mlir/dialect/attrs.py``: ``<>`` nest
too, and strings), the elements of a pass pipeline (``pipeline_mlir/passes/registry.py``:
``(){}[]``, unbalanced text refused).  No imports: the driver's fast paths load it.
"""

from __future__ import annotations

__all__ = ["Unbalanced", "split_top"]

_PARTNER = {"(": ")", "[": "]", "{": "}", "<": ">"}


class Unbalanced(ValueError):
    """``text`` closes a bracket it did not open (``closed``) or ends inside one."""

    def __init__(self, closed: bool) -> None:
        super().__init__("a bracket closes that was not opened" if closed else
                         "the text ends inside a bracket")
        self.closed = closed


def split_top(text: str, brackets: str = "([", strings: bool = False,
              strict: bool = False) -> list[str]:
    """``text`` split at its commas outside the ``brackets`` (their opening characters, of
    ``([{<``) and, with ``strings``, outside double-quoted strings (a backslash escapes the
    next character); each part stripped.  No part for an empty ``text``; a comma at the end
    leaves an empty last part.  ``strict``: :class:`Unbalanced` where a bracket closes that
    was not opened, or at the end inside one (the caller words the error)."""
    opens = set(brackets)
    closes = {_PARTNER[b] for b in brackets}
    parts, depth, start, quoted, i = [], 0, 0, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            i += c == "\\"
            quoted = c != '"'
        elif c == '"' and strings:
            quoted = True
        elif c in opens:
            depth += 1
        elif c in closes:
            depth -= 1
            if depth < 0 and strict:
                raise Unbalanced(True)
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    if depth and strict:
        raise Unbalanced(False)
    last = text[start:].strip()
    return parts + [last] if last or parts else parts
