"""``examples/embed_passes.py``: sched passes in a user's own PassManager, mixed with
upstream ``canonicalize,cse``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pipeline_mlir.dialect.bindings import ir, new_context, passmanager
from pipeline_mlir.passes import registry
from script_loader import load_script

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "embed_passes.py"


def _load_example():
    return load_script(EXAMPLE, "embed_passes_example")


def test_example_runs_and_prints_lowered_ir():
    proc = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert out.startswith("module {")
    for needle in ('"sched.prologue"', '"sched.kernel"', '"sched.epilogue"', "rocdl.s.waitcnt",
                   "rocdl.s.barrier", "rocdl.sched.barrier none", 'state = "lowered"',
                   'schedule = "4wave"'):
        assert needle in out, needle
    # control ops are lowered; the body and the program are gone
    for gone in ('"sched.wait_vm"', '"sched.wait_lgkm"', '"sched.barrier"', '"sched.program"',
                 '"sched.block"'):
        assert gone not in out, gone
    kernel = out.split('"sched.kernel"')[1].split('"sched.epilogue"')[0]
    assert len(re.findall(r'tag = "MMA"', kernel)) == 8
    assert len(re.findall(r'tag = "(LOAD_A|LOAD_B)"', kernel)) == 8
    # every waitcnt immediate is a valid gfx950 encoding
    for imm in map(int, re.findall(r"rocdl\.s\.waitcnt (\d+)", out)):
        assert imm & ~0xCF7F == 0
    with new_context():
        ir.Module.parse(out)  # the printed IR parses back


def test_upstream_passes_do_not_change_the_result():
    """The example's pipeline gives what the sched passes alone give."""
    example = _load_example()
    with new_context(), ir.Location.unknown():
        module = ir.Module.parse(example.MODULE)
        pm, keep = example.build_pass_manager()
        pm.run(module.operation)
        with_upstream = str(module)
        del keep
        module = ir.Module.parse(example.MODULE)
        pm = passmanager.PassManager("builtin.module")
        keep = [registry.add(pm, n) for n in registry.SCHEDULE_PASSES]
        keep.append(registry.add(pm, "sched-lower-to-rocdl"))
        pm.run(module.operation)
        assert str(module) == with_upstream
