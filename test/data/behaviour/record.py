"""Record the pinned outputs: ``python test/data/behaviour/record.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import OUTPUTS, cases  # noqa: E402
from run import run_case  # noqa: E402

if __name__ == "__main__":
    OUTPUTS.mkdir(exist_ok=True)
    for name, args in cases():
        data, err, rc = run_case(args)
        (OUTPUTS / f"{name}.out").write_bytes(data)
        (OUTPUTS / f"{name}.err").write_text(err, encoding="utf-8")
        (OUTPUTS / f"{name}.rc").write_text(f"{rc}\n", encoding="utf-8")
        print(f"{rc} {name} {len(data)}")
