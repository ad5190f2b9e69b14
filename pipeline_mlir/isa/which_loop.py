"""Which loop of a built kernel's assembly the ISA check compares with the plan: the main
loop (the innermost loop with the most MFMAs) is the pipelined loop unless its MFMAs and
fences say it is another loop of the kernel (a remainder kept beside a pipelined loop LLVM
unrolled whole), read off the assembly and, when given, the LLVM IR handed to LLVM.

No MLIR here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.skeleton import Expansion, expected_skeleton
from pipeline_mlir.kernel.plan import KernelPlan
from pipeline_mlir.schedule.types import OpRole


def not_the_pipelined_loop(fn: AsmFunction, plan: KernelPlan,
                           mfmas_per_mma: int | None = None,
                           ll_text: str | None = None) -> str:
    """Why the main loop of ``fn`` (:meth:`~pipeline_mlir.isa.asm.AsmFunction.main_loop`: the
    innermost loop with the most MFMAs) cannot be the loop ``plan`` pipelined, else ``""``.

    The lowering fences the pipelined loop's phase with ``sched_barrier`` s where the plan
    says (:func:`~pipeline_mlir.isa.skeleton.expected_skeleton`), and LLVM keeps them (as
    comments of the assembly).  A main loop is another loop of the kernel (a remainder or
    tail loop kept beside the pipelined one) when its MFMAs are not a whole number of the
    plan's iterations (every MMA entry of the plan's kernel, ``mfmas_per_mma`` MFMAs each
    when known, else at least one) and, when the plan fences its loop, it holds none of
    those fences; a plan fencing nothing needs ``mfmas_per_mma`` not known (when it is,
    the check compares the loop and says what differs).  A loop of whole iterations that
    holds none of the fences is another loop too when the code around it holds the
    pipelined loop's fences for at least one iteration beyond its prologue and epilogue
    (:func:`_unrolled_beside`).  Any other loop of whole iterations, or one holding a
    fence, may be the pipelined loop (one that lost its fences among them): the check
    compares it.  The pipelined loop is then in no loop: LLVM unrolled it fully
    (its trip count is a small constant).  ``fn`` without a loop holding MFMAs gets the
    assembly reader's message.

    With ``ll_text``, the LLVM IR handed to LLVM (before its optimizations), a plan fencing
    its loop tells more: when that IR holds the lowering's ``sched_barrier`` fences but no
    loop of it holds one (:func:`fenced_ir_loop`), the pipelined loop was no loop before
    LLVM ran (a loop of a constant trip count of 0 or 1 folds away in MLIR, as IREE's fp8
    ``A x B`` 129x64x1000's, its K steps all in the prologue and epilogue), LLVM makes no
    loop of straight code, and the main loop is another loop whatever its MFMAs (IREE's
    remainder loop there: 8 MFMAs, as many as the plan's MMA entries, and 2 ``s_barrier``
    to the pipelined loop's 4).  A pipelined loop in the IR keeps the rules above: an assembly
    loop that lost its fences is still compared."""
    try:
        loop = [i for b in fn.main_loop() for i in b.instrs]
    except PipelineError as e:
        return str(e)
    n_mfma = sum(1 for i in loop if i.kind == "mfma")
    n_mma = sum(1 for e in plan.kernel if e.op.role == OpRole.COMPUTE)
    if n_mma == 0:
        return ""
    shape = plan.shape
    x = Expansion(shape.vm_per_load, shape.lgkm_per_load, mfmas_per_mma or 1)
    fences = sum(1 for t in expected_skeleton(plan, x)["loop"] if t.kind == "sched_barrier")
    if fences and ll_text and IR_FENCE in ll_text and not fenced_ir_loop(ll_text):
        return (f"the main loop of the assembly ({n_mfma} MFMAs) is another loop of the "
                f"kernel: the LLVM IR compiled holds sched_barrier fences, none in a loop, "
                f"and the pipelined loop holds {fences}: it was in no loop before LLVM ran "
                f"(a constant trip count of 0 or 1)")
    if n_mfma % (n_mma * (mfmas_per_mma or 1)) == 0:
        if fences and not any(i.kind == "sched_barrier" for i in loop):
            return _unrolled_beside(fn, loop, plan, x, fences, n_mfma)
        return ""
    if fences:
        if any(i.kind == "sched_barrier" for i in loop):
            return ""
        held = (f"none of the {fences} sched_barrier fences of the pipelined loop and not "
                f"a whole number of its iterations ({n_mma} MMA entries)")
    else:
        if mfmas_per_mma is not None:
            return ""
        held = f"not a whole number of its iterations ({n_mma} MMA entries)"
    return (f"the main loop of the assembly ({n_mfma} MFMAs) holds {held}: it is another "
            f"loop of the kernel (a remainder), and the pipelined loop is in no loop (LLVM "
            f"unrolled it fully: its trip count is a small constant)")


def _unrolled_beside(fn: AsmFunction, loop: list, plan: KernelPlan, x: Expansion,
                     fences: int, n_mfma: int) -> str:
    """Why a main loop of whole iterations that holds none of the pipelined loop's
    ``fences`` is another loop, else ``""``: the code outside it holds the fences of the
    pipelined loop's prologue and epilogue and of at least one more iteration (LLVM keeps
    every ``sched_barrier``; an iteration's worth more out of any loop is the pipelined
    loop unrolled, as IREE's E5M2 ``A x B^T`` 256x64x1954 at the prefetch point: 2 trips
    unrolled, its remainder loop of 2 K steps, 8 MFMAs, kept a loop).  Fewer: the
    pipelined loop itself, its fences lost, which the check compares and reports."""
    skeleton = expected_skeleton(plan, x)
    around = sum(1 for ph in ("prologue", "epilogue") for t in skeleton[ph]
                 if t.kind == "sched_barrier")
    passed = {id(i) for i in loop} | fn.guard_fences()     # the loop's, the guards'
    outside = sum(1 for b in fn.blocks for i in b.instrs
                  if i.kind == "sched_barrier" and id(i) not in passed)
    if outside < around + fences:
        return ""
    return (f"the main loop of the assembly ({n_mfma} MFMAs) holds none of the {fences} "
            f"sched_barrier fences of the pipelined loop, and the code around it holds "
            f"{outside}, {outside - around} more than the pipelined loop's prologue and "
            f"epilogue: it is another loop of the kernel (a remainder), and the pipelined "
            f"loop is in no loop (LLVM unrolled it fully: its trip count is a small "
            f"constant)")


_IR_LABEL = re.compile(r"^([\w.$-]+):")
_IR_TARGET = re.compile(r"label %([\w.$-]+)")
#: the call a ``rocdl.sched.barrier`` (a fence of the lowering) becomes in LLVM IR
IR_FENCE = "call void @llvm.amdgcn.sched.barrier("


def ir_loops(ll_text: str) -> Iterator[list[str]]:
    """The loops of LLVM IR text ``ll_text`` as laid out: for each branch back to a block
    laid out before it (the entry block has no predecessors), the lines from that block's
    label to the branch."""
    for fn in re.split(r"^define ", ll_text, flags=re.M)[1:]:
        lines = fn.splitlines()
        seen: dict[str, int] = {}
        for n, line in enumerate(lines):
            m = _IR_LABEL.match(line)
            if m:
                seen[m.group(1)] = n
            elif " br " in f" {line.strip()} ":
                for t in _IR_TARGET.findall(line):
                    if t in seen:
                        yield lines[seen[t]:n + 1]


def fenced_ir_loop(ll_text: str) -> bool:
    """Whether a loop of LLVM IR text ``ll_text`` (:func:`ir_loops`) holds a
    ``sched_barrier`` fence."""
    return any(IR_FENCE in line for lp in ir_loops(ll_text) for line in lp)
