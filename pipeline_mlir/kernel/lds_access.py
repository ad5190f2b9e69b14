"""Per-lane LDS byte addresses of a complete kernel's DS accesses, from its own index math.

:func:`lds_accesses` evaluates the i32 index arithmetic of the MLIR text
:func:`pipeline_mlir.kernel.gemm.kernel_mlir` writes, for every thread of the
workgroup at once (numpy vectors indexed by thread id), and returns one
:class:`LdsAccess` per tagged LDS access of the K-loop body:

* a fragment read (``vector.load`` of a workgroup buffer tagged
  ``sched.frag_load``): one ``ds_read`` per load, lane ``l`` reading
  ``width`` bytes at its own address;
* a global->LDS load (``amdgpu.gather_to_lds`` tagged ``sched.global_load``):
  one ``buffer_load ... lds``.  The hardware writes lane ``l``'s ``width`` bytes
  at ``M0 + l * width``, M0 being the wave-uniform LDS address (LLVM takes lane 0's
  value), so its addresses are lane 0's plus ``l * width``.

Addresses are bytes from the start of the kernel's LDS: the workgroup buffers are
laid out in declaration order, each at the sum of the sizes before it.  LLVM may
place them differently; banks only see an address modulo 256 bytes (64 banks of
4 bytes), so the layout does not change any bank as long as every buffer size is
a multiple of 256 bytes, which :func:`lds_accesses` checks (a buffer of another
size is named in the result's ``notes``).

Only what the address computation needs is evaluated (``arith`` integer ops,
``arith.index_cast*``, ``gpu.thread_id``, ``gpu.block_id`` (0), the function's
index arguments (the problem size, which does not reach an LDS address) and
``rocdl.readfirstlane``); an LDS address that depends on anything else (the loop
variable, a loaded value) is an error naming the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.errors import PipelineError

WAVE = 64

_DEF = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*([\w.]+)\s*(.*)$")
_WG = re.compile(r"(%[\w.$-]+):\s*memref<(\d+)x(\w+),\s*#gpu\.address_space<workgroup>>")
_LOAD = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*vector\.load\s+(%[\w.$-]+)\[(%[\w.$-]+)\]\s*"
                   r"\{sched\.frag_load\s*=\s*\{([^}]*)\}\}.*vector<(\d+)x(\w+)>\s*$")
_GATHER = re.compile(r"^\s*amdgpu\.gather_to_lds\s+%[\w.$-]+\[[^\]]*\],\s*(%[\w.$-]+)\[(%[\w.$-]+)\]"
                     r"\s*\{sched\.global_load\s*=\s*\{([^}]*)\}\}\s*:\s*vector<(\d+)x(\w+)>")
_ATTR = re.compile(r"(\w+)\s*=\s*(-?\d+)\s*:\s*i64")
_ELEM_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "i32": 4, "i8": 1, "f8E4M3FN": 1, "f8E5M2": 1,
               "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1}
_BIN = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b, "arith.divui": lambda a, b: a // b,
    "arith.remui": lambda a, b: a % b, "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b, "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: a << b, "arith.shrui": lambda a, b: a >> b,
}
_CAST = ("arith.index_castui", "arith.index_cast")
_MASK = 0xFFFFFFFF
#: an op that passes its i32 operand on unchanged but that LLVM cannot see through: an empty
#: inline asm whose result is tied to its operand's VGPR (the kernels pin an LDS base in a
#: register with it; ``pipeline_mlir/lowering/materialize.py``, ``pinned_values``)
OPAQUE_ASM, OPAQUE_CONSTRAINTS = "", "=v,0"
OPAQUE_IDENTITY = f'llvm.inline_asm "{OPAQUE_ASM}", "{OPAQUE_CONSTRAINTS}"'
_OPAQUE_OPERAND = re.escape(f'"{OPAQUE_ASM}", "{OPAQUE_CONSTRAINTS}"') + r"\s+%[\w.$-]+\s*:"


class LdsAccessError(PipelineError):
    """The kernel's LDS addresses cannot be evaluated (names the value)."""


@dataclass(frozen=True)
class LdsAccess:
    """One LDS access of the loop body, as one instruction of every wave issues it.

    ``kind``: ``read`` (fragment read, ``ds_read``) or ``dma`` (global->LDS write).
    ``channel``/``stage``/``subtile``/``op_id``: the ``sched.*`` tag of its group;
    ``part``: its index in the group (the ``part``-th instruction the group issues).
    ``width``: bytes per lane.  ``addresses[t]``: the byte address thread ``t`` of the
    workgroup accesses (wave ``t // 64``, lane ``t % 64``)."""

    kind: str
    channel: int
    stage: int
    subtile: int
    op_id: int
    part: int
    buffer: str
    width: int
    addresses: np.ndarray = field(compare=False, repr=False)

    def wave(self, w: int) -> list[int]:
        """The 64 lane addresses of wave ``w``."""
        return [int(a) for a in self.addresses[w * WAVE:(w + 1) * WAVE]]

    @property
    def key(self) -> tuple[str, int, int, int, int]:
        return (self.kind, self.channel, self.stage, self.subtile, self.part)


@dataclass
class KernelLds:
    accesses: list[LdsAccess]
    buffers: dict[str, tuple[int, int]]      # name -> (base byte, size in bytes)
    threads: int
    notes: list[str] = field(default_factory=list)


class _Evaluator:
    def __init__(self, lines: list[str], threads: int):
        self.defs: dict[str, tuple[str, str]] = {}
        for line in lines:
            m = _DEF.match(line)
            if m:
                self.defs[m[1]] = (m[2], m[3])
        self.tid = np.arange(threads, dtype=np.int64)
        self.values: dict[str, np.ndarray] = {}
        self.lane0: dict[str, np.ndarray] = {}

    def value(self, name: str, first_lane: bool = False) -> np.ndarray:
        cache = self.lane0 if first_lane else self.values
        if name in cache:
            return cache[name]
        if name not in self.defs:
            raise LdsAccessError(f"LDS address: value {name} has no definition the address "
                                 f"evaluation knows (a function argument or loop variable)")
        op, rest = self.defs[name]
        args = re.findall(r"%[\w.$-]+", rest.split(":", 1)[0])
        if op == "arith.constant":
            m = re.match(r"\s*(-?\d+)\s*:", rest)
            if not m:
                raise LdsAccessError(f"LDS address: {name} is a non-integer constant")
            v = np.full_like(self.tid, int(m[1]))
        elif op in _BIN:
            a, b = (self.value(x, first_lane) for x in args[:2])
            v = _BIN[op](a, b) & _MASK
        elif op in _CAST:
            v = self.value(args[0], first_lane)
        elif op == "gpu.thread_id":
            v = (self.tid // WAVE) * WAVE if first_lane else self.tid
        elif op == "gpu.block_id":
            v = np.zeros_like(self.tid)
        elif op == "rocdl.readfirstlane":
            v = self.value(args[0], True)
        elif op == "llvm.inline_asm" and re.match(_OPAQUE_OPERAND, rest):
            v = self.value(args[0], first_lane)
        else:
            raise LdsAccessError(f"LDS address: {name} is defined by '{op}', which the address "
                                 f"evaluation does not model")
        cache[name] = v
        return v


def _attrs(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in _ATTR.findall(text)}


def lds_accesses(mlir_text: str, threads: int) -> KernelLds:
    """Every tagged LDS access of the kernel in ``mlir_text`` (see the module doc)."""
    buffers: dict[str, tuple[int, int]] = {}
    elem: dict[str, int] = {}
    base = 0
    notes: list[str] = []
    for name, n, et in _WG.findall(mlir_text):
        if name in buffers:
            continue
        if et not in _ELEM_BYTES:
            raise LdsAccessError(f"LDS buffer {name}: element type {et} has no known size")
        size = int(n) * _ELEM_BYTES[et]
        buffers[name] = (base, size)
        elem[name] = _ELEM_BYTES[et]
        if size % 256:
            notes.append(f"LDS buffer {name} is {size} bytes, not a multiple of 256: the "
                         f"buffers' real placement may shift its banks")
        base += size
    lines = mlir_text.splitlines()
    ev = _Evaluator(lines, threads)
    out: list[LdsAccess] = []
    parts: dict[tuple, int] = {}
    lane = ev.tid % WAVE
    for line in lines:
        m = _LOAD.match(line)
        if m:
            _res, buf, idx, tag, n, et = m.groups()
            kind, width = "read", int(n) * _ELEM_BYTES.get(et, 0)
            addr = buffers[buf][0] + ev.value(idx) * elem[buf]
        else:
            m = _GATHER.match(line)
            if not m:
                continue
            buf, idx, tag, n, et = m.groups()
            kind, width = "dma", int(n) * _ELEM_BYTES.get(et, 0)
            addr = buffers[buf][0] + ev.value(idx, True) * elem[buf] + lane * width
        if buf not in buffers:
            raise LdsAccessError(f"LDS access of {buf}, which is not a workgroup buffer")
        a = _attrs(tag)
        key = (kind, a.get("id", -1))
        part = parts.get(key, 0)
        parts[key] = part + 1
        out.append(LdsAccess(kind, a.get("channel", -1), a.get("stage", -1),
                             a.get("subtile", -1), a.get("id", -1), part, buf, width,
                             np.asarray(addr, dtype=np.int64)))
    return KernelLds(out, buffers, threads, notes)
