"""Running the ``sched-*`` passes from tests: pass by pass, with the module printed and
re-parsed between passes, and the diagnostics they report (shared by the pass and
simulator tests)."""

from __future__ import annotations

import functools
import re

import pytest
from pipeline_mlir.dialect.bindings import build_context, ir, passmanager
from pipeline_mlir.dialect.ir_io import compiled_from_ir, pipeline_ops, read_pipeline
from pipeline_mlir.passes import registry

from pipeline_mlir.schedule.printing import format_schedule
from pipeline_mlir.schedules.registry import parse_pipeline

# ---- running passes ----------------------------------------------------------------------------------

#: the passes from a logical body to the phases, in order
STEPS = ("sched-annotate", "sched-reorder", "sched-derive-edges", "sched-schedule",
         "sched-derive-waits", "sched-explicit-blocks", "sched-expand-phases")

_LOC = re.compile(r'^loc\("-":(\d+):(\d+)\)$')


def run(text: str, *items) -> str:
    """Parse ``text``, run the passes (names or (name, options)) in one PassManager, print.

    An MLIR failure propagates as ``ir.MLIRError``.  In a context a run before handed back
    (``build_context``: a new one loads every dialect, more CPU than most runs here).
    """
    with build_context():
        module = ir.Module.parse(text)
        pm = passmanager.PassManager("builtin.module")
        keep = []  # the bindings do not keep Python passes alive
        for item in items:
            name, opts = (item, {}) if isinstance(item, str) else item
            if name.startswith("sched-"):
                keep.append(registry.add(pm, name, **opts))
            else:
                pm.add(name)
        pm.run(module.operation)
        return str(module)


def errors(text: str, *items) -> list[tuple[int, str]]:
    """The (line, message) of every error diagnostic of a run that must fail."""
    with pytest.raises(ir.MLIRError) as info:
        run(text, *items)
    out = []
    for d in info.value.error_diagnostics:
        m = _LOC.match(str(d.location))
        assert m, f"diagnostic without a file location: {d.location}: {d.message}"
        out.append((int(m.group(1)), d.message))
    assert out, "the run failed without an error diagnostic"
    return out


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based line number of the ``nth`` line of ``text`` containing ``needle``."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    assert len(hits) > nth, f"{needle!r} occurs {len(hits)} times"
    return hits[nth]


def import_text(spec: str) -> str:
    """``sched-import`` of ``spec`` on an empty module: the schedule's default logical body."""
    schedule = parse_pipeline(spec)
    opts = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in schedule.items()}
    return run("module {\n}", ("sched-import", dict(schedule=schedule.name, **opts)))


@functools.lru_cache(maxsize=None)
def stepwise(spec: str) -> tuple[str, ...]:
    """Module text after sched-import and after each of STEPS, every pass run on its own."""
    texts = [import_text(spec)]
    for name in STEPS:
        texts.append(run(texts[-1], name))
    return tuple(texts)


def phases_text(spec: str) -> str:
    return stepwise(spec)[-1]


def schedule_of(text: str) -> str:
    with build_context():
        module = ir.Module.parse(text)
        (pop,) = pipeline_ops(module.operation)
        return format_schedule(compiled_from_ir(read_pipeline(pop)))




def assert_named_and_hazard_free(src, spec: str, tmp_path, capsys) -> None:
    """The schedule ``pipeline-opt --pipeline=KIND`` derives from the kernel file ``src``
    (``KIND`` the name in ``spec``) prints as the named ``spec``'s, and the simulator finds
    that schedule's kernel hazard-free for main loops of 0..6 iterations."""
    from pipeline_mlir.tools.pipeline_opt import main

    kind = spec.split("{")[0]
    dump, named = tmp_path / "derived.txt", tmp_path / "named.txt"
    assert main([f"--pipeline={kind}", str(src), "--emit=schedule", "-o", str(dump)]) == 0
    assert main([f"--pipeline={spec}", "--emit=schedule", "-o", str(named)]) == 0
    assert dump.read_text() == named.read_text()
    rc = main(["--simulate", f"--pipeline={spec}"])
    out, err = capsys.readouterr()
    assert rc == 0 and "safe for main loops of 0..6 iterations: no hazard" in out, out + err
