"""The order in which the schedule's trace (``pipeline_mlir/sim/trace.py``) issues a fragment
load that follows an MMA of its block: after the MMA's last MFMA, in entry order.

The ping-pong FP8 kernel with ``frags_ahead=balanced`` puts A1's reads (``KRN[16]``) right
behind the MMA ``KRN[15]``.  LLVM moves them up among that MMA's MFMAs in the assembly.
The trace keeps them after the MMA.  That is why the schedule-level llvm table gives
781 cycles where the assembly's gives 721 (``docs/schedules.md``, ``frags_ahead``).  If
the trace learns the lowering's blocks and interleaves such reads, this test and that
paragraph change together."""

from __future__ import annotations

from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.repair import repair
from pipeline_mlir.sim.trace import kernel_shape, wave_streams


def test_a_fragment_load_behind_an_mma_is_traced_after_its_mfmas():
    spec = parse_pipeline("pingpong{is_fp8=true frags_ahead=balanced}")
    shape = kernel_shape(spec)
    fixed = repair(spec.compile(), shape, range(0, 7))
    (_, stream), *_ = wave_streams(fixed, shape, 2)
    at = {}
    for k, ins in enumerate(stream):
        if ins.origin[:2] == ("kernel", 1):
            at.setdefault(ins.origin[2], []).append((k, ins.kind))
    ops = [e.op for e in fixed.kernel]
    assert ops[15].role.name == "COMPUTE" and ops[16].role.name == "FRAGMENT_LOAD"
    mfmas = [k for k, kind in at[15] if kind == "mfma"]
    reads = [k for k, kind in at[16] if kind == "ds_read"]
    barrier = min(k for e in range(17, len(ops)) for k, kind in at.get(e, ())
                  if kind == "barrier")
    assert len(mfmas) == 8 and len(reads) == 8
    assert max(mfmas) < min(reads) and max(reads) < barrier
