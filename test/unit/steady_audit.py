"""A pytest plugin listing, per test item, how many iterations of the pipelined main loop
its emulator runs made: ``PYTHONPATH=test/unit python -m pytest -p steady_audit FILES``.

Each item runs inside :func:`steady_loop.counting_loops`; after the session one line per
item that ran the emulator in its process: the fewest iterations any wave of any run made,
the most a run made (:func:`steady_loop.most`: an item may run several sizes), and per kernel (its name) the fewest; ``no MFMA loop`` for a kernel with none (0
iterations by the counter: LLVM removed or unrolled the loop), with the MFMAs a wave ran.  Runs in ``pipeline-opt`` subprocesses are
not seen.  An audit tool, not a check: the checks are :func:`steady_loop.assert_steady` calls in the tests.
"""

from __future__ import annotations

import pytest

from steady_loop import counting_loops, most

_LINES: list[str] = []


def _per_kernel(record) -> dict[str, object]:
    """Per kernel name: the fewest iterations of its main loop any wave made, or ``no MFMA
    loop`` with the fewest MFMAs a wave of a run executed (LLVM may have unrolled the loop:
    :func:`steady_loop.unrolled_iterations` measures it against the lowering)."""
    out: dict[str, object] = {}
    for (name, heads), mfmas in zip(record.runs, record.mfmas):
        fewest = f"no MFMA loop ({min(mfmas.values())} MFMAs a wave)" if heads is None \
            else min(heads.values())
        prior = out.get(name, fewest)
        out[name] = min(prior, fewest) if isinstance(fewest, int) else fewest
    return out


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    with counting_loops() as record:
        yield
    if record.runs:
        kernels = _per_kernel(record)
        fewest = min(v if isinstance(v, int) else 0 for v in kernels.values())
        detail = ", ".join(f"{k}: {v}" for k, v in kernels.items())
        _LINES.append(f"{item.nodeid}\tfewest={fewest}\tmost={most(record)}\t"
                      f"{len(record.runs)} runs\t{detail}")


def pytest_terminal_summary(terminalreporter):
    terminalreporter.section("main-loop back edges taken per item (steady_audit)")
    for line in _LINES:
        terminalreporter.write_line(line)
