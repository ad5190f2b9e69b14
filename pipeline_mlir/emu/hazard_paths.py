"""The matrix wait states on every path of a kernel, not only on the paths a run takes.

The machine checks wait states on the instructions a wave executes (:mod:`.hazards`), so a
path no launch of a run takes (a zero-trip loop, a branch on the thread id, the
``s_cbranch_execz`` that skips a block when no lane is active) is not checked.  For the
MFMA rules that matters: LLVM 22's hazard recognizer looks back only 19 wait states for
the MFMA that wrote a register, so a reader of a 16-pass XDL MFMA's result that issues
exactly 19 wait states after it gets no ``s_nop`` (20 needed), and which path puts it there
depends on branches.  :func:`matrix_path_violations` walks the control-flow graph of the
code from every MFMA along every path (fall-through, branch targets, LLVM's long branches)
for as many wait states as its rules can need (``passes + 4``) and reports each reader of
its D (VALU, VMEM, DS, another MFMA's A/B or C operand) or writer of its C that issues
too early on some path, with the same rules and counts as the machine's tracker (the
instruction's :class:`~pipeline_mlir.emu.hazards.Info`).  A later instruction that
overwrites a register ends its hazard on that path, as in the tracker.  The walk visits
each (instruction, wait states since the MFMA, registers still tracked) once, so loops
end; the shipped kernels take 0.002 to 0.12 s of CPU each (16 to 512 MFMAs).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.emu.hazards import RULES, Violation, infos, reg_name
from pipeline_mlir.emu.instr import BRANCHES
from pipeline_mlir.emu.long_branch import long_branch_targets

#: the producer tables an MFMA leaves entries in (its D; C read by an XDL MFMA)
MATRIX_TABLES = ("v_mfma", "v_srcc")
#: the wait states after which no matrix rule can still apply, beyond the MFMA's passes
_MOST_EXTRA = 4
_ENDS = ("s_endpgm", "s_trap", "s_setpc_b64")


@dataclass(frozen=True)
class PathViolation:
    """A reader issued too few wait states after an MFMA on some path."""

    violation: Violation
    reader: object                # the Instr that issues too early


def successors(instrs: list) -> list[tuple[int, ...]]:
    """Per instruction index, the indices of the instructions that may issue next."""
    at = {ins.addr: i for i, ins in enumerate(instrs)}
    far = long_branch_targets(instrs)
    out = []
    for i, ins in enumerate(instrs):
        nxt = (i + 1,) if i + 1 < len(instrs) else ()
        if ins.name == "s_setpc_b64" and ins.addr in far:
            out.append((at[far[ins.addr]],))
        elif ins.name in _ENDS:
            out.append(())
        elif ins.name in BRANCHES and ins.target in at:
            target = (at[ins.target],)
            out.append(target if ins.name == "s_branch" else nxt + target)
        else:
            out.append(nxt)
    return out


def _from_mfma(i: int, info: list, succ: list) -> PathViolation | None:
    """The first reader too early on a path from the MFMA at ``i`` (depth-first)."""
    source = info[i]
    tracked = {t: frozenset(r) for t, r, _ in source.records if t in MATRIX_TABLES}
    entries = {t: (0, source.ins, p) for t, _, p in source.records if t in MATRIX_TABLES}
    horizon = source.records[0][2][0] + _MOST_EXTRA     # the D record's passes
    seen = set()
    todo = [(j, 0, tuple(sorted(tracked.items()))) for j in succ[i]]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        j, have, live = state
        step = info[j]
        regs = dict(live)
        for table, rs, rule, need in step.checks:
            hit = regs.get(table, frozenset()).intersection(rs)
            if hit:
                req = need if isinstance(need, int) else need(entries[table])
                if have < req:
                    return PathViolation(Violation(RULES[rule], reg_name(table, min(hit)),
                                                   source.ins, req, have), step.ins)
        for table, rs, _ in step.records:
            if table in regs:
                regs[table] = regs[table] - frozenset(rs)
        have += step.ws
        if have >= horizon or not any(regs.values()):
            continue
        live = tuple(sorted(regs.items()))
        todo.extend((k, have, live) for k in succ[j])
    return None


def first_path_violation(kernel, info: list | None = None) -> PathViolation | None:
    """The first of :func:`matrix_path_violations`, computed once per kernel's instructions."""
    return kernel.memo("matrix paths",
                       lambda k: next(iter(matrix_path_violations(k, info)), None))


def matrix_path_violations(kernel, info: list | None = None) -> list[PathViolation]:
    """Every MFMA of ``kernel`` (a :class:`~pipeline_mlir.emu.codeobj.Kernel`) with a reader
    too few wait states after it on some path: the first such reader found per MFMA.
    ``info``: the instructions' :class:`~pipeline_mlir.emu.hazards.Info` if the caller has
    them (they do not depend on the workgroup count the steps were compiled for)."""
    info = infos(kernel.steps(1)) if info is None else info
    succ = successors(kernel.instrs)
    out = []
    for i, step in enumerate(info):
        if step.records and step.records[0][0] == "v_mfma":
            bad = _from_mfma(i, info, succ)
            if bad is not None:
                out.append(bad)
    return out
