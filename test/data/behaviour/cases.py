"""The commands whose outputs are pinned (see test_behaviour_snapshot.py).

Each case is a name and the pipeline-opt arguments; the recorded stderr and exit status live
in ``outputs/<name>.{err,rc}``, the stdout (or -o file) in ``outputs/<name>.out`` byte for
byte, except for the code kinds (``meaning.CODE_KINDS``: mlir, llvm, asm, obj, hsaco), whose
meaning is pinned instead: ``outputs/<name>.meaning`` holds :func:`meaning.summary`.
``record.py`` rewrites them: run it only when a change of behaviour is intended, and say so
in the commit.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
OUTPUTS = HERE / "outputs"
DUMPS = HERE.parent / "reference"
IREE = HERE.parent / "iree"

NAMED = {
    "4wave": "4wave",
    "pingpong": "pingpong",
    "single-buffer": "single-buffer",
    "pingpong-fp8": "pingpong{is_fp8=true}",
    "4wave-fp8-128": "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
    "4wave-fp8-64": "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
    # a bf16 C (the schedule and simulator kinds: the option's error)
    "pingpong-cbf16": "pingpong{c_dtype=bf16}",
}
EMITS = ("schedule", "schedule-json", "mlir", "llvm", "asm", "obj", "hsaco", "report")


def cases() -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for name, spec in NAMED.items():
        for emit in EMITS:
            out.append((f"{name}.{emit}", [f"--pipeline={spec}", f"--emit={emit}"]))
        out.append((f"{name}.simulate", ["--simulate", f"--pipeline={spec}"]))
        out.append((f"{name}.simulate-report", ["--simulate", f"--pipeline={spec}", "--report"]))
        out.append((f"{name}.launch", [f"--pipeline={spec}", "--launch=4096,4096,4096"]))
    for dump, spec in (("pingpong_bf16_l2_2", "pingpong{vm_per_load_a=4 vm_per_load_b=4 "
                                              "lgkm_per_load_a=2 lgkm_per_load_b=2}"),
                       ("4wave_bf16_128x128x64", "4wave{dtype=bf16 BM=128 BN=128 BK=64}")):
        out.append((f"dump-{dump}.simulate-report",
                    ["--simulate", str(DUMPS / f"{dump}.txt"), f"--pipeline={spec}", "--report"]))
    for path in sorted(IREE.glob("*.mlir")):
        for emit in EMITS:
            out.append((f"iree-{path.stem.replace('.', '-')}.{emit}",
                        [str(path), "--pipeline=4wave", f"--emit={emit}"]))
    return out


def emit_kind(args: list[str]) -> str | None:
    """The ``--emit`` kind of a case's arguments (None for --simulate / --launch)."""
    return next((a.split("=", 1)[1] for a in args if a.startswith("--emit=")), None)
