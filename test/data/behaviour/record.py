"""Record the pinned outputs: ``python test/data/behaviour/record.py``; only the cases whose
names start with one of some prefixes: ``python test/data/behaviour/record.py --only PREFIX...``
(``--only iree-``: IREE's committed kernels).  The code kinds and the report of one spec and
input are one build (``pipeline_mlir/driver/code_cache.py``'s ``together``), as in the test.

``python test/data/behaviour/record.py --show NAME`` prints instead the canonical text of a
code case (what its recorded ``.meaning`` digests), e.g. to diff it against another tree's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import OUTPUTS, cases, emit_kind  # noqa: E402
from meaning import CODE_KINDS, canonical, summary  # noqa: E402
from run import run_case  # noqa: E402


def one_build():
    """A context manager: inside it the plain builds of one spec and input (its code kinds
    and report) are one build, kept in memory for the process."""
    from pipeline_mlir.driver.code_cache import sharing

    kept: dict = {}

    def store(kind, key, build):
        if (kind, key) not in kept:
            kept[kind, key] = build()
        return kept[kind, key]
    return sharing(store, emits=(*CODE_KINDS, "report"), own_kernels=True, together=True)


def record(only: tuple[str, ...] = ("",)) -> None:
    OUTPUTS.mkdir(exist_ok=True)
    with one_build():
        for name, args in cases():
            if name.startswith(only):
                _record(name, args)


def _record(name: str, args: list[str]) -> None:
    data, err, rc = run_case(args)
    kind = emit_kind(args)
    if kind in CODE_KINDS:
        (OUTPUTS / f"{name}.meaning").write_text(
            json.dumps(summary(kind, data), indent=1) + "\n", encoding="utf-8")
        (OUTPUTS / f"{name}.out").unlink(missing_ok=True)
    else:
        (OUTPUTS / f"{name}.out").write_bytes(data)
    (OUTPUTS / f"{name}.err").write_text(err, encoding="utf-8")
    (OUTPUTS / f"{name}.rc").write_text(f"{rc}\n", encoding="utf-8")
    print(f"{rc} {name} {len(data)}")


def show(name: str) -> int:
    args = dict(cases()).get(name)
    if args is None or emit_kind(args) not in CODE_KINDS:
        print(f"record.py: {name!r} is not a code case (kinds {', '.join(CODE_KINDS)})",
              file=sys.stderr)
        return 1
    sys.stdout.write(canonical(emit_kind(args), run_case(args)[0])[0])
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--show"] and len(sys.argv) == 3:
        sys.exit(show(sys.argv[2]))
    if sys.argv[1:2] == ["--only"] and len(sys.argv) > 2:
        record(tuple(sys.argv[2:]))
        sys.exit(0)
    if sys.argv[1:]:
        sys.exit(__doc__)
    record()
