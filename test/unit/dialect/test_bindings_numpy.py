"""The MLIR bindings load without numpy (``dialect/bindings.py``), with the same attribute
builders: the four numpy-backed ones the bindings register only when numpy imports are
registered by the project instead, and load numpy when first called."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

_PROBE = """
import json, sys
if sys.argv[1] == "numpy-first":
    import numpy  # the bindings then register their own builders
from pipeline_mlir.dialect.bindings import ir
before = "numpy" in sys.modules
built = {}
with ir.Context() as ctx, ir.Location.unknown():
    for kind, values in (("F64ElementsAttr", [1.5, -2.0]), ("I32ElementsAttr", [1, -7, 3]),
                         ("I64ElementsAttr", [2 ** 40]), ("IndexElementsAttr", [4, 5])):
        built[kind] = str(ir.AttrBuilder.get(kind)(values, ctx))
print(json.dumps({"numpy_at_import": before, "built": built}))
"""


def _probe(mode: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_bindings_load_without_numpy_and_build_what_their_own_builders_build():
    lazy, own = _probe("lazy"), _probe("numpy-first")
    assert lazy["numpy_at_import"] is False and own["numpy_at_import"] is True
    assert lazy["built"] == own["built"]
    assert lazy["built"]["I32ElementsAttr"] == "dense<[1, -7, 3]> : tensor<3xi32>"
