"""The lane moves between SGPRs and one lane of a VGPR (``v_readlane_b32``,
``v_readfirstlane_b32``, ``v_writelane_b32``).

LLVM spills SGPRs into lanes of a VGPR with ``v_writelane_b32`` and restores them with
``v_readlane_b32``.  ``v_readlane_b32 sdst, vsrc, lane``: the SGPR gets lane ``lane mod
64`` of the VGPR; ``v_readfirstlane_b32``: of the first lane EXEC enables (lane 0 when
none is).  ``v_writelane_b32 vdst, ssrc, lane``: lane ``lane mod 64`` of the VGPR gets the
scalar, whatever EXEC is, and its other lanes keep their value (the VGPR is read as well
as written, for the dependences).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import VGPR0, Instr
from pipeline_mlir.emu.operands import Reader
from pipeline_mlir.target.gfx950 import WAVE_SIZE


def readlane(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    f = ins.f
    s0 = rd.vector(f["src0"])
    d = f["dst"]
    sw.add(d)
    lane = rd.scalar(f["src1"]) if ins.base == "v_readlane_b32" else None

    def run(wv):
        v = s0(wv)
        if v.shape != wv.exec.shape:
            v = np.broadcast_to(v, wv.exec.shape)
        if lane is None:
            first = np.where(wv.exec.any(axis=1), wv.exec.argmax(axis=1), 0)
        else:
            first = lane(wv) & (WAVE_SIZE - 1)
        wv.S[d] = v[np.arange(v.shape[0]), first]
    return run


def writelane(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    f = ins.f
    value, lane = rd.scalar(f["src0"]), rd.scalar(f["src1"])
    d = f["dst"]
    rd.vector(VGPR0 + d)          # the other lanes are kept: a read of the register
    vw.add(d)

    def run(wv):
        wv.V[d][np.arange(wv.V[d].shape[0]), lane(wv) & (WAVE_SIZE - 1)] = value(wv)
    return run
