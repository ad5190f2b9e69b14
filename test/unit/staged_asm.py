"""Assembly edits for the register-staged copy tests (shared by test_tails_masked and
test_stage_mixed)."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline_mlir.tools.pipeline_opt import main


def drop_loop_vmcnt_before_lds_writes(asm: str) -> tuple[str, int]:
    """``asm`` without the vmcnt-only waits right before a ds_write_b128 inside the loop
    (from a label to the first branch back to it), and how many were dropped."""
    lines = asm.splitlines()
    labels = {m.group(1): i for i, ln in enumerate(lines)
              if (m := re.match(r"(\.LBB\d+_\d+):", ln))}
    end, label = next((i, m.group(1)) for i, ln in enumerate(lines)
                      if (m := re.search(r"s_cbranch_\w+ (\.LBB\d+_\d+)", ln))
                      and labels.get(m.group(1), i) < i)
    drop = {i for i in range(labels[label], end)
            if re.fullmatch(r"\s*s_waitcnt vmcnt\(\d+\)", lines[i])
            and "ds_write_b128" in lines[i + 1]}
    return "\n".join(ln for i, ln in enumerate(lines) if i not in drop) + "\n", len(drop)


def force_staged(kernel: Path, out: Path, sources: str, ahead: bool = True,
                 emit: str = "mlir") -> Path:
    """``kernel`` compiled by ``--pipeline=4wave``, then the copies of global ``sources``
    register-staged by ``sched-stage-copies``'s public options (``emit="asm"``: through the
    LLVM step to assembly) into ``out``."""
    lowered = out.with_suffix(".lowered.mlir")
    assert main(["--pipeline=4wave", str(kernel), "-o", str(lowered)]) == 0
    opts = f"force-sources={sources} ahead={'true' if ahead else 'false'}"
    tail = ",sched-to-llvm" if emit == "asm" else ""
    assert main([str(lowered), f"--pass-pipeline=builtin.module(sched-stage-copies{{{opts}}}"
                 f"{tail})", f"--emit={emit}", "-o", str(out)]) == 0
    return out


def emulate_without_staged_write_waits(kernel: Path, size: str, tmp_path: Path) -> int:
    """``kernel`` compiled by ``--pipeline=4wave`` to assembly, the loop's vmcnt-only waits
    before its LDS writes dropped, run on the emulator (one workgroup, late mode) as an
    ``M,N,K`` dispatch; the exit code."""
    asm = tmp_path / "k.s"
    assert main(["--pipeline=4wave", str(kernel), "--emit=asm", "-o", str(asm)]) == 0
    return emulate_asm_without_staged_write_waits(asm, size)


def emulate_asm_without_staged_write_waits(asm: Path, size: str) -> int:
    """Assembly ``asm`` with the loop's vmcnt-only waits before its LDS writes dropped, run
    on the emulator (one workgroup, late mode) as an ``M,N,K`` dispatch; the exit code."""
    text, dropped = drop_loop_vmcnt_before_lds_writes(asm.read_text())
    assert dropped >= 1
    asm.write_text(text)
    return main([f"--emulate={size}", str(asm), "--emulate-workgroups=1",
                 "--emulate-mode=late"])
