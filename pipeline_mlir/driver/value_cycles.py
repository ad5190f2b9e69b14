"""Refuse an input whose values form a cycle of definitions, before MLIR parses it.

A value used before its definition in the same block is an error MLIR's verifier reports
(``operand #0 does not dominate this use``), but where that use closes a cycle (``%a =
f(%b)`` before ``%b = g(%a)``) through an ``affine.apply`` or ``affine.delinearize_index``,
the affine ops' own verifier, which runs first, follows the operands' definitions to decide
whether each is a valid symbol and recurses around the cycle until the process overflows
its stack and dies (``iree-opt`` alike: ``mlir::affine::isValidSymbol`` thousands of frames
deep).  So the text is read first, line by line: each line that defines values (``%x =``,
``%x:2 =``, ``%x, %y =``) depends on the values its right-hand side names; a use of a value
that a later line of the same function defines, where that value depends in turn on the
using line's values, is one error at the use.  Only such lines are read (an op's operands
on a continuation line, a block's arguments and a region's are not), so a cycle through
them is left to MLIR; a value defined by a line that is not read is no edge.  Strings and
comments are skipped; the names are scoped per function (``func.func``, ``gpu.func``,
``llvm.func``, ``util.func``: each starts anew).
"""

from __future__ import annotations

import re

from pipeline_mlir.driver.diagnostics import Diag, Failure

#: a line that defines values: its results (``%x``, ``%x:2``, ``%x, %y``) and the rest
_DEFINES = re.compile(r"^\s*(%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)\s*=(?!=)(.*)$")
#: a value's name where it is used (``%x``, ``%x#1``), or defined
_NAME = re.compile(r"%([\w.$-]+)")
#: a line that starts a function, whose values' names are its own
_FUNCTION = re.compile(r"^\s*(?:[\w.]+\s*=\s*)?(?:func\.func|gpu\.func|llvm\.func|util\.func)\b")
#: a string or a comment, which the checks before parsing read past whole (these and
#: ``driver/inputs.py``'s)
STRING_OR_COMMENT = r'"(?:[^"\\\n]|\\.)*"|//[^\n]*'
_SKIPPED = re.compile(STRING_OR_COMMENT)


def check_value_cycles(text: str, filename: str, line_offset: int = 0) -> None:
    """Refuse ``text`` (module docstring) at the first use that closes a cycle of values;
    ``line_offset``: the lines before ``text`` in its file (a ``--split-input-file``
    chunk)."""
    scope: dict = {}        # name -> (its line, the names its line uses, where each is used)
    for k, raw in enumerate(text.split("\n")):
        line = _SKIPPED.sub(lambda m: " " * len(m.group()), raw)
        if _FUNCTION.match(line):
            _check(scope, filename, line_offset)
            scope = {}
        m = _DEFINES.match(line)
        if m is None:
            continue
        uses = {}
        for u in _NAME.finditer(line, m.start(2)):
            uses.setdefault(u.group(1), u.start() + 1)
        for d in _NAME.finditer(m.group(1)):
            scope.setdefault(d.group(1), (k, uses))
    _check(scope, filename, line_offset)


def _check(scope: dict, filename: str, line_offset: int) -> None:
    """The error at the first use, in line order, of a value defined on a later line whose
    definition depends on the using line's values (a cycle)."""
    for name, (k, uses) in sorted(scope.items(), key=lambda x: x[1][0]):
        for used, col in uses.items():
            if used in scope and scope[used][0] > k and _reaches(scope, used, name):
                later = scope[used][0]
                raise Failure([Diag(
                    "error", f"'%{used}' is used before its definition at line "
                             f"{later + 1 + line_offset}, and its value depends on this "
                             f"line's ('%{name}'): a cycle of values, which MLIR's verifier "
                             f"follows until the process dies", filename,
                    k + 1 + line_offset, col)])


def _reaches(scope: dict, start: str, goal: str) -> bool:
    """Whether the value ``start`` depends, through the lines read, on ``goal``."""
    seen, todo = {start}, [start]
    while todo:
        for u in scope[todo.pop()][1]:
            if u == goal:
                return True
            if u in scope and u not in seen:
                seen.add(u)
                todo.append(u)
    return False


__all__ = ["STRING_OR_COMMENT", "check_value_cycles"]
