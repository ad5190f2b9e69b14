"""Re-record llvm-mca-22's cycle counts for the bodies in this folder.

    python test/unit/data/mca/record.py            # re-run llvm-mca-22 on every *.s here
    python test/unit/data/mca/record.py --kernels  # first re-extract kernel_*.s from the
                                                   # shipped kernels (pipeline-opt --emit=asm)

Writes ``expected.json``: the exact command, the tool version, and per body and
iteration count the ``Total Cycles`` and every instruction's ``CycleIssued``
(first iteration).  test_timing.py compares the timing model with it, and
re-runs llvm-mca-22 when it is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = "llvm-mca-22"
ARGS = ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950", "-timeline", "-timeline-max-cycles=0",
        "-json"]
ITERATIONS = (1, 3)
#: kernel loop bodies: file stem -> pipeline-opt --pipeline spec
KERNELS = {
    "kernel_pingpong_bf16": "pingpong{is_fp8=false}",
    "kernel_4wave_bf16": "4wave{dtype=bf16 BM=128 BN=128 BK=64}",
    "kernel_4wave_fp8": "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
}


def command(path: Path, iterations: int) -> list[str]:
    return [TOOL, *ARGS, f"-iterations={iterations}", str(path)]


def run_mca(path: Path, iterations: int) -> tuple[int, list[int]]:
    """(Total Cycles, CycleIssued of each instruction of the first iteration)."""
    out = subprocess.run(command(path, iterations), capture_output=True, text=True, check=True)
    region = json.loads(out.stdout)["CodeRegions"][0]
    n = len(region["Instructions"])
    issued = [t["CycleIssued"] for t in region["TimelineView"]["TimelineInfo"][:n]]
    return region["SummaryView"]["TotalCycles"], issued


def _kernel_loop_text(spec: str) -> str:
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.sim.timing import asm_main_loop
    exe = Path(sys.executable).with_name("pipeline-opt")
    opt = str(exe) if exe.exists() else shutil.which("pipeline-opt")
    if not opt:
        raise SystemExit("pipeline-opt not found")
    asm = subprocess.run([opt, f"--pipeline={spec}", "--emit=asm"], capture_output=True,
                         text=True, check=True).stdout
    head = parse_asm(asm).function().main_loop()[0].label
    return f"{head}:\n" + "".join("\t" + i.text + "\n" for i in asm_main_loop(asm))


def main(argv: list[str]) -> int:
    if "--kernels" in argv:
        for stem, spec in KERNELS.items():
            text = _kernel_loop_text(spec)
            (HERE / f"{stem}.s").write_text(f"; main loop of pipeline-opt --pipeline='{spec}' "
                                            f"--emit=asm\n" + text)
    version = subprocess.run([TOOL, "--version"], capture_output=True, text=True).stdout
    version = next((ln.strip() for ln in version.splitlines() if "version" in ln), "?")
    bodies = {}
    for path in sorted(HERE.glob("*.s")):
        entry = {}
        for n in ITERATIONS:
            total, issued = run_mca(path, n)
            entry[str(n)] = {"total": total, **({"issued": issued} if n == 1 else {})}
        bodies[path.name] = entry
    doc = {"tool": version,
           "command": " ".join([TOOL, *ARGS, "-iterations=N", "FILE.s"]),
           "bodies": bodies}
    (HERE / "expected.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"recorded {len(bodies)} bodies with {version}")
    return 0


if __name__ == "__main__":
    os.chdir(HERE)
    sys.exit(main(sys.argv[1:]))
