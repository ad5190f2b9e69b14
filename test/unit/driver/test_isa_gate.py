"""The ISA check on a code build of a pipelined kernel (``pipeline_mlir/driver/isa_gate.py``):
an error finding refuses ``--emit=asm`` (and an ``obj`` or ``hsaco`` build that makes the
assembly) at the kernel, exit 1, nothing written; a note does not.

The mutant is the build's own assembly with the main loop's ``s_waitcnt`` deleted, handed
to the driver in place of LLVM's (``compile_llvm_ir`` patched for the one build): the
code the ISA check is then run on.  Before the gate, ``--emit=asm`` wrote it, exit 0; a
plain ``--emit=hsaco`` wrote its code object unchecked.
"""

from __future__ import annotations

import pytest

from kernel_builds import build
from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.driver.isa_gate import check_built, checked
from pipeline_mlir.isa import codegen
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.built_check import errors, pipelined_check
from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.tools.pipeline_opt import main


def _without_loop(asm: str, kind: str, count: int | None = None,
                  function: str | None = None) -> str:
    """``asm`` with the main loop's instructions of ``kind`` deleted (the first ``count``)
    (of ``function``'s main loop: the only function's by default)."""
    loop = [i.line for b in parse_asm(asm).function(function).main_loop() for i in b.instrs
            if i.kind == kind][:count]
    assert loop
    return "\n".join("" if n in loop else text
                     for n, text in enumerate(asm.split("\n"), start=1))


@pytest.mark.parametrize("emit", ["asm", "hsaco"])
def test_a_build_whose_code_the_isa_check_flags_is_refused(monkeypatch, tmp_path, capsys,
                                                           emit):
    """``--emit=asm`` and a plain ``--emit=hsaco`` (whose code issues no 16-pass XDL MFMA:
    before, it asked LLVM for the object alone and wrote it, exit 0) are refused alike;
    ``--no-isa-check`` writes the code object."""
    built = codegen.compile_llvm_ir
    kinds = []

    def mutated(ll_text, **kw):
        kinds.append(kw.get("kind"))
        if kw.get("kind") != "both":
            out = built(ll_text, **kw)
            return _without_loop(out, "wait") if kw.get("kind") == "asm" else out
        asm, obj = built(ll_text, **kw)
        return _without_loop(asm, "wait"), obj

    monkeypatch.setattr(codegen, "compile_llvm_ir", mutated)
    out = tmp_path / f"k.{emit}"
    rc = main(["--pipeline=4wave", f"--emit={emit}", "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and not out.exists(), err
    assert kinds == [emit if emit == "asm" else "both"]
    lines = err.strip().splitlines()
    assert all("kernel 'gemm_4wave_bf16_128x128x64': ISA check: " in ln for ln in lines), err
    # one error per rule: the first finding (phase, entries, instruction), the others counted
    rules = [ln.split("ISA check: ")[1].split(" ")[0] for ln in lines]
    assert len(rules) == len(set(rules)) and {"frag-wait-missing", "wait-short"} <= set(rules)
    assert any("wait-short in the loop at 'v_mfma" in ln and "(assembly line " in ln and
               " more wait-short findings)" in ln for ln in lines), err
    assert "Traceback" not in err
    if emit == "hsaco":
        assert main(["--pipeline=4wave", "--emit=hsaco", "--no-isa-check", "-o", str(out)]) \
            == 0 and out.read_bytes()[:4] == b"\x7fELF"
        assert kinds[1:] == ["obj"]


def test_each_kernel_of_a_module_is_checked():
    """A module of two pipelined MFMA kernels (the shipped 4-wave BF16 and FP8 64x64
    kernels' assembly, one after the other), each plan naming its function: each kernel
    is held against its own plan, so the pair passes (before, the gate refused any module
    of two MFMA kernels, the kernel unknown; a build of two pipelined loops was not
    checked), and with the second kernel's main-loop waits deleted it is refused at that
    kernel alone.  An MFMA kernel with no plan gets the rules that read the assembly alone;
    a plan whose function the assembly lacks is refused, saying so."""
    one, two = build("4wave-bf16"), build("4wave-fp8-64")
    asm, plans, ll = one.asm + "\n" + two.asm, [one.plan, two.plan], one.ll + two.ll
    assert checked("hsaco", plans) and not checked("report", plans)
    check_built(asm, plans, ll, None, "k.mlir")
    check_built(asm, [one.plan], ll, None, "k.mlir")
    bad = _without_loop(asm, "wait", function=two.plan.function)
    for own in (plans, [one.plan]):
        with pytest.raises(Failure) as e:
            check_built(bad, own, ll, None, "k.mlir")
        messages = [d.message for d in e.value.diags]
        assert messages and all(m.startswith(f"kernel '{two.plan.function}': ISA check: ")
                                for m in messages), messages
    with pytest.raises(Failure) as e:
        check_built(one.asm, plans, one.ll, None, "k.mlir")
    assert f"no function '{two.plan.function}' of the pipelined loops in the assembly" in \
        e.value.diags[0].message


def test_which_findings_refuse_a_build():
    def f(kind, phase="loop"):
        return Finding(kind, phase, (), (1,), "m")

    notes = [f("wait-merged"), f("wait-tightened"), f("wait-added"), f("ds-merged"),
             f("mfma-moved"), f("ds-read-missing"), f("frag-wait-strong"), f("load-extra"),
             f("mfma-missing", "epilogue"), f("wait-weakened"), f("wait-unpinned")]
    bad = [f("wait-short", "-"), f("wait-short", "prologue"), f("frag-wait-weak"),
           f("frag-wait-missing", "epilogue"), f("mfma-missing")]
    assert errors(notes + bad) == bad


def test_mfmas_llvm_deleted_from_the_pipelined_loop_are_an_error():
    """The shipped 4-wave kernel (the run's build of it): its code passes; with two MFMAs of
    the main loop deleted (what LLVM does to the MFMAs of accumulators nothing stores, with
    their reads, which the loop's counted waits count) it is refused: its 62 MFMAs are no
    whole number per MMA entry of the plan (the plan of the own kernel leaves the MFMAs per
    MMA to the assembly)."""
    built = build("4wave-bf16")
    check_built(built.asm, [built.plan], built.ll, None, "k.mlir")
    # beside a function with no MFMA (a helper of the module), the kernel is the one checked
    helper = "\t.type\thelper,@function\nhelper:\n\ts_endpgm\n.Lfunc_end9:\n"
    check_built(built.asm + helper, [built.plan], built.ll, None, "k.mlir")
    with pytest.raises(Failure):
        check_built(_without_loop(built.asm, "mfma", 2) + helper, [built.plan], built.ll, None,
                    "k.mlir")
    with pytest.raises(Failure) as e:
        check_built(_without_loop(built.asm, "mfma", 2), [built.plan], built.ll, None, "k.mlir")
    (d,) = e.value.diags
    assert d.where == "k.mlir" and "the build is refused: ISA check: the main loop has 62 " \
        "MFMAs, not a multiple of the kernel's 8 MMA entries" in d.message, d.message


def test_a_pipelined_loop_short_of_its_barriers_is_refused():
    """The shipped 4-wave kernel with its main loop's ``s_barrier`` deleted (one or all):
    the emulator finds an ``lds-race`` (a wave's fragment read of a stage another wave's
    DMA is still writing); the check's ``barrier-missing`` in the loop refuses it, the loop
    holding fewer barriers than the schedule plans.  A ``barrier-missing`` with as many
    barriers in the loop (moved: ``barrier-extra`` beside it) is a note."""
    built = build("4wave-bf16")
    for count in (1, None):
        with pytest.raises(Failure) as e:
            check_built(_without_loop(built.asm, "barrier", count), [built.plan], built.ll, None,
                        "k.mlir")
        assert any("ISA check: barrier-missing in the loop" in d.message
                   for d in e.value.diags), [d.message for d in e.value.diags]
    moved = [Finding("barrier-missing", "loop", (), (1,), "m"),
             Finding("barrier-extra", "loop", (), (2,), "m")]
    ran = pipelined_check(parse_asm(built.asm).function(), built.plan)
    assert errors(moved, ran.isa) == [] and errors(moved) == []


@pytest.mark.parametrize("how", ["raised", "dropped"])
def test_a_dma_loops_weakened_vmcnt_wait_is_refused(how):
    """The shipped 4-wave kernel (its loop's global loads all DMAs to LDS) with one loop
    wait's ``vmcnt`` raised by one or dropped, its ``lgkmcnt`` kept: no register rule sees
    it (the DMA writes LDS), the emulator finds an ``lds-race``; the check's
    ``wait-weakened`` / ``wait-missing`` in such a loop refuses it."""
    import re

    built = build("4wave-bf16")
    (line, text), *_ = [(i.line, i.text) for b in parse_asm(built.asm).function().main_loop()
                        for i in b.instrs if i.kind == "wait" and "vmcnt" in i.text]
    new = re.sub(r"vmcnt\((\d+)\)", lambda m: f"vmcnt({int(m.group(1)) + 1})", text) \
        if how == "raised" else re.sub(r"\s*vmcnt\(\d+\)", "", text)
    assert new != text and "lgkmcnt" in new
    lines = built.asm.split("\n")
    lines[line - 1] = lines[line - 1].replace(text.strip(), new.strip())
    with pytest.raises(Failure) as e:
        check_built("\n".join(lines), [built.plan], built.ll, None, "k.mlir")
    kinds = [d.message.split("ISA check: ")[1].split(" ")[0] for d in e.value.diags]
    assert kinds in (["wait-weakened"], ["wait-missing"]), [d.message for d in e.value.diags]
