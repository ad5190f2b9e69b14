"""The suite's long tier: items that ``.ci/run`` leaves out and ``PIPELINE_TEST_LONG=1`` runs.

An item goes to the long tier when the default run already checks each property it checks on
another instance of the same family (the same front-end path, schedule and form on another
size, type or epilogue): a second IREE configuration of one row of the configurations' table,
the rest of a mutation campaign whose sample the default run keeps, and so on.  Such an item
is marked ``@pytest.mark.long("why the default run does not need it")``; the reason is
required, so that each one says which item of the default run stands for it
(docs/testing.md, "The long tier").
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pytest

#: the environment variable that runs the long tier too: ``1`` runs it, ``0`` or unset not
ENV = "PIPELINE_TEST_LONG"
#: the marker's name
MARKER = "long"
#: the marker's line for ``pytest --markers``
MARKER_HELP = (f"{MARKER}(reason): an item of the long tier, run only with {ENV}=1; the "
               "reason says which item of the default run checks what it checks")
#: how the reason of an item the function rule moved starts (docs/testing.md, "The long
#: tier"; coverage.py per item), the default item that stands for it said after it
FUNCTIONS_RUN = "every function of pipeline_mlir it runs is run by the default run's items left"


def marked(values, long: dict) -> list:
    """``values`` as a ``parametrize`` list, those ``long`` gives a reason marked for the
    long tier with it (a tuple value: the arguments of a several-name parametrize)."""
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)),
                         marks=pytest.mark.long(long[v])) if v in long else v
            for v in values]


def runs_long(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` asks for the long tier; any value but ``1``, ``0`` or empty is an
    error (a typo must not run a shorter suite than asked)."""
    value = environ.get(ENV, "")
    if value not in ("", "0", "1"):
        raise pytest.UsageError(f"{ENV}={value!r}: give 1 (run the long tier too) or 0 (not)")
    return value == "1"


def reason_of(item) -> str | None:
    """The reason of ``item``'s ``long`` marker, None if it has none; a marker with no
    reason, or one that is not a non-empty string, is an error naming the item."""
    mark = item.get_closest_marker(MARKER)
    if mark is None:
        return None
    reason = mark.kwargs.get("reason", mark.args[0] if mark.args else None)
    if not isinstance(reason, str) or not reason.strip():
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{MARKER} needs a reason: which "
                                "item of the default run checks what this one checks")
    return reason


def split(items: Sequence, run_long: bool) -> tuple[list, list]:
    """``items`` -> (the items to run, the long-tier items left out): every item when
    ``run_long``; each marker's reason is checked either way."""
    kept, held = [], []
    for item in items:
        (held if reason_of(item) is not None and not run_long else kept).append(item)
    return kept, held
