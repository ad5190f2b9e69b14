"""LLVM 22's own hazard recognizer as an oracle for the emulator's wait-state rules.

``llc-22 -run-pass=post-RA-hazard-rec`` runs the pass that inserts gfx950's ``s_nop`` on a
MIR function and leaves everything else alone.  Its ``s_nop`` already in the input count
(``S_NOP n`` is ``n + 1`` wait states), so the wait states it adds to a MIR body are the
ones missing in it: 0 means LLVM finds the code safe.  Nothing here shares code with
``pipeline_mlir/emu``; the tests that use it skip when ``llc-22`` (Debian's ``llvm-22``)
is not on ``PATH``.
"""

from __future__ import annotations

import re
import shutil
import subprocess

from pipeline_mlir.isa.codegen import llvm_options

LLC = shutil.which("llc-22")
OPT = shutil.which("opt-22")
TARGET = ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950"]
_NOP = re.compile(r"^\s*S_NOP (\d+)", re.M)


def nop_wait_states(mir: str) -> int:
    """The wait states of the ``S_NOP`` in a MIR text's function bodies."""
    return sum(int(n) + 1 for n in _NOP.findall(mir.split("\nbody:", 1)[-1]))


def hazard_rec(mir: str) -> str:
    """``mir`` after LLVM's post-RA hazard recognizer."""
    done = subprocess.run([LLC, *TARGET, "-run-pass=post-RA-hazard-rec", "-x", "mir", "-o",
                           "-", "-"], input=mir, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"llc-22 failed: {done.stderr.strip()[-400:]}")
    return done.stdout


def missing_wait_states(mir: str) -> int:
    """The wait states LLVM inserts into ``mir`` (0: it needs none)."""
    return nop_wait_states(hazard_rec(mir)) - nop_wait_states(mir)


#: the end of a MIR text's LLVM IR document, and a machine function's name in its own
_IR_END = "\n...\n"
_MF_NAME = re.compile(r"^name:\s+(\S+)\n", re.M)


def missing_wait_states_each(mirs: list[str]) -> list[int]:
    """:func:`missing_wait_states` of each of ``mirs`` (one machine function each, on one
    LLVM IR document that they share), from one ``llc-22`` run: each machine function
    renamed to one of its own, on a copy of its IR function of that name (the recognizer
    runs per function), so that a few dozen mutants pay ``llc-22``'s start (about 50 ms of
    CPU, most of a run) once."""
    if not mirs:
        return []
    ir = mirs[0][:mirs[0].index(_IR_END)]
    name = _MF_NAME.search(mirs[0]).group(1)
    define = re.search(rf"^  define [^\n]* @{re.escape(name)}\(.*?^  }}\n", ir,
                       re.M | re.S)
    copies, bodies = [], []
    for k, mir in enumerate(mirs):
        head, body = mir[:mir.index(_IR_END)], mir[mir.index(_IR_END) + len(_IR_END):]
        assert head == ir and _MF_NAME.search(body).group(1) == name, k
        copies.append(define.group(0).replace(f"@{name}(", f"@{name}.m{k}(", 1))
        bodies.append(_MF_NAME.sub(f"name: {name}.m{k}\n", body, count=1))
    batch = ir[:define.end()] + "".join(copies) + ir[define.end():] + _IR_END + \
        "".join(bodies)
    done = hazard_rec(batch).split("\n---\n")
    after = {m.group(1): doc for doc in done if (m := _MF_NAME.search(doc))}
    return [nop_wait_states(after[f"{name}.m{k}"]) - nop_wait_states(mir)
            for k, mir in enumerate(mirs)]


def pair_mir(lines: list[str]) -> str:
    """A MIR function whose straight-line body is ``lines`` (physical registers)."""
    body = "\n".join(f"    {ln}" for ln in lines)
    return (f"---\nname: f\ntracksRegLiveness: false\nmachineFunctionInfo:\n"
            f"  isEntryFunction: true\nbody: |\n  bb.0:\n{body}\n    S_ENDPGM 0\n...\n")


def compile_with_llc(ll_text: str) -> tuple[str, str]:
    """(assembly, MIR after the hazard recognizer) of LLVM IR, built as the project builds
    it (the O3 IR pipeline, then O3 code generation, PIC, with the LLVM options the IR asks
    for: ``codegen.llvm_options``)."""
    opt = subprocess.run([OPT, "-O3", *TARGET, "-o", "-", "-"], input=ll_text.encode(),
                         capture_output=True, timeout=600)
    if opt.returncode:
        raise RuntimeError(f"opt-22 failed: {opt.stderr.decode()[-400:]}")
    out = []
    for extra in ([], ["-stop-after=post-RA-hazard-rec"]):
        done = subprocess.run([LLC, "-O3", *TARGET, "-relocation-model=pic",
                               *llvm_options(ll_text), *extra, "-o", "-"],
                              input=opt.stdout, capture_output=True, timeout=600)
        if done.returncode:
            raise RuntimeError(f"llc-22 failed: {done.stderr.decode()[-400:]}")
        out.append(done.stdout.decode())
    return out[0], out[1]
