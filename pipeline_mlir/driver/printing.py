"""The text of the schedule emit kinds: ``schedule`` (the reference's debug format) and
``schedule-json`` (kept apart from :mod:`pipeline_mlir.driver.job` so that printing the default
body's schedule loads nothing of MLIR's path)."""

from __future__ import annotations


def format_schedule(compiled, emit: str) -> str:
    """A compiled schedule as ``--emit=schedule`` or ``--emit=schedule-json`` prints it."""
    from pipeline_mlir.schedule.printing import format_schedule as debug_text, schedule_to_json

    if emit == "schedule-json":
        import json

        return json.dumps(schedule_to_json(compiled), indent=2) + "\n"
    return debug_text(compiled)
