"""Every emit kind of every named pipeline, ``--simulate``, ``--launch`` and ``--emit=report``,
byte for byte against outputs recorded before the package layout changed.

A difference here is a change of behaviour; if it is intended, re-record with
``python test/data/behaviour/record.py`` and say why in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "behaviour"
sys.path.insert(0, str(DATA))

from cases import OUTPUTS, cases  # noqa: E402
from run import run_case  # noqa: E402


@pytest.mark.parametrize("name,args", cases(), ids=[n for n, _ in cases()])
def test_output_unchanged(name, args):
    data, err, rc = run_case(args)
    assert rc == int((OUTPUTS / f"{name}.rc").read_text())
    assert err == (OUTPUTS / f"{name}.err").read_text(encoding="utf-8")
    assert data == (OUTPUTS / f"{name}.out").read_bytes()


def test_a_changed_output_is_caught(tmp_path):
    """The comparison is not vacuous: a recorded output that differs by one byte fails."""
    name, args = next(c for c in cases() if c[0] == "4wave.schedule")
    data, _, _ = run_case(args)
    recorded = (OUTPUTS / f"{name}.out").read_bytes()
    assert data == recorded and data != recorded[:-1] + b"X"
