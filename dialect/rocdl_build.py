"""Creating the ``rocdl`` control ops of the lowering contract (SPEC 4.7, DESIGN.md)."""

from __future__ import annotations

from pipeline_mlir.targets import HINT_GROUP_MASKS
from pipeline_mlir.types import (BARRIER, SCHED_GROUP_BARRIER, SCHEDULE_BARRIER, SET_PRIO,
                                 WAIT_LGKM, WAIT_VM, OpDesc)
from pipeline_mlir.waitcnt import waitcnt_imm

from . import bindings as B
from .bindings import ir

# #rocdl.sched_group_mask bit values (checked against LLVM's i32 in notes/mlir-stack.md)
MASK_BITS = {"non_mem_non_sideeffect": 0x1, "valu": 0x2, "salu": 0x4, "mfma_wmma": 0x8,
             "all_vmem": 0x10, "vmem_read": 0x20, "vmem_write": 0x40, "all_ds": 0x80,
             "ds_read": 0x100, "ds_write": 0x200, "transcendental": 0x400, "ldsdma": 0x800}
MASK_ALL = 0xFFF


def mask_attr(mask: int):
    """``#rocdl.sched_group_mask<...>`` for an integer mask (0 is ``none``)."""
    if not 0 <= mask <= MASK_ALL:
        raise ValueError(f"sched group mask 0x{mask:x} has bits outside 0xFFF")
    if mask == 0:
        text = "none"
    elif mask == MASK_ALL:
        text = "all"
    else:
        text = "|".join(n for n, b in MASK_BITS.items() if mask & b)
    return ir.Attribute.parse(f"#rocdl.sched_group_mask<{text}>")


def sched_barrier_none():
    return B.rocdl.sched_barrier(mask_attr(0))


def waitcnt_of(desc: OpDesc) -> int:
    if desc.tag == WAIT_VM:
        return waitcnt_imm(vmcnt=desc.wait_value)
    return waitcnt_imm(lgkmcnt=desc.wait_value)


def create_control(desc: OpDesc) -> None:
    """Create the rocdl op for a framework control entry at the current insertion point.

    Raises ConfigError for a wait count over the gfx950 limits (never clamped).
    """
    if desc.tag in (WAIT_VM, WAIT_LGKM):
        B.rocdl.s_waitcnt(waitcnt_of(desc))
    elif desc.tag == BARRIER:
        B.rocdl.s_barrier()
    elif desc.tag == SET_PRIO:
        B.rocdl.s_setprio(desc.wait_value)
    elif desc.tag == SCHEDULE_BARRIER:
        sched_barrier_none()
    elif desc.tag == SCHED_GROUP_BARRIER:
        B.rocdl.sched_group_barrier(mask_attr(HINT_GROUP_MASKS[desc.subtile]), desc.wait_value, 0)
    else:  # pragma: no cover - callers pass control entries only
        raise ValueError(f"tag {desc.tag} is not a control entry")


def is_wait(desc: OpDesc) -> bool:
    return desc.tag in (WAIT_VM, WAIT_LGKM)


def fenced_sequence(descs: list[OpDesc], blocks: list[int | None] | None,
                    fence_waits: bool, fence_blocks: bool) -> list[OpDesc | None]:
    """The entries with ``None`` where a ``sched.barrier(0)`` fence must go.

    A run of adjacent waits gets one fence before and one after; each change of
    block index gets one fence between the blocks; no fence is added next to an
    existing SCHEDULE_BARRIER or another fence.
    """
    out: list[OpDesc | None] = []

    def fence() -> None:
        if out and (out[-1] is None or out[-1].tag == SCHEDULE_BARRIER):
            return
        out.append(None)

    n = len(descs)
    for i, d in enumerate(descs):
        if (fence_blocks and blocks and 0 < i < len(blocks) and blocks[i] != blocks[i - 1]
                and d.tag != SCHEDULE_BARRIER):
            fence()
        if fence_waits and is_wait(d) and (i == 0 or not is_wait(descs[i - 1])):
            fence()
        out.append(d)
        if (fence_waits and is_wait(d) and (i + 1 == n or not is_wait(descs[i + 1]))
                and not (i + 1 < n and descs[i + 1].tag == SCHEDULE_BARRIER)):
            out.append(None)
    return out
