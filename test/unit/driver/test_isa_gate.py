"""The ISA check on a code build of a pipelined kernel (``pipeline_mlir/driver/isa_gate.py``):
an error finding refuses ``--emit=asm`` (and an ``obj`` or ``hsaco`` build that makes the
assembly) at the kernel, exit 1, nothing written; a note does not.

The mutant is the build's own assembly with the main loop's ``s_waitcnt`` deleted, handed
to the driver in place of LLVM's (``compile_llvm_ir`` patched for the one build): the
code the ISA check is then run on.  Before the gate, ``--emit=asm`` wrote it, exit 0; a
plain ``--emit=hsaco`` wrote its code object unchecked.
"""

from __future__ import annotations

import re

import pytest

from build_cache import share_code_objects
from kernel_builds import build
from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.driver.isa_gate import check_built, checked
from pipeline_mlir.isa import codegen
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.built_check import errors, pipelined_check
from pipeline_mlir.isa.which_loop import IR_FENCE, ir_loops
from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE
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


def test_the_report_says_whether_a_code_build_is_refused():
    """``--emit=report`` (exit 0 whatever it finds) says whether the gate refuses a code
    build of the kernel, and names the flag: the shipped 4-wave kernel passes; with its
    main loop's waits deleted, the refusing kinds are named."""
    from pipeline_mlir.isa.report import kernel_report

    built = build("4wave-bf16")
    ok = kernel_report(built.asm, built.hsaco, built.plan, ll_text=built.ll).format()
    assert "ISA gate: no finding refuses a code build of this kernel (--no-isa-check " \
        "skips the check)\n" in ok
    bad = kernel_report(_without_loop(built.asm, "wait"), built.hsaco, built.plan,
                        ll_text=built.ll).format()
    line = next(ln for ln in bad.splitlines() if ln.startswith("ISA gate: "))
    assert line.startswith("ISA gate: a code build of this kernel (--emit=asm, obj, hsaco) "
                           "is refused: ") and "wait-short" in line and \
        "frag-wait-missing" in line and line.endswith("(--no-isa-check writes it)"), line


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
    barriers in the loop (moved: ``barrier-extra`` beside it) refuses it too, its loads all
    DMAs (``test_a_dma_kernels_barrier_or_wait_changed_anywhere_is_refused``); without the
    comparison's skeletons to count (nor to tell a DMA loop) it is a note."""
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
    assert errors(moved, ran.isa) == moved[:1] and errors(moved) == []


@pytest.mark.parametrize("how", ["raised", "dropped"])
def test_a_dma_loops_weakened_vmcnt_wait_is_refused(how):
    """The shipped 4-wave kernel (its loop's global loads all DMAs to LDS) with one loop
    wait's ``vmcnt`` raised by one or dropped, its ``lgkmcnt`` kept: no register rule sees
    it (the DMA writes LDS), the emulator finds an ``lds-race``; the check's
    ``wait-weakened`` / ``wait-missing`` in such a loop refuses it, and the LDS rule, which
    reads each DMA's bytes from ``M0``, finds the race itself: a DMA still in flight at the
    barrier after that wait, writing bytes another wave reads after it; and the wave's own
    read of bytes its DMA still writes is ``lds-wait-short`` at that wait."""
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
    assert kinds in (["wait-weakened", "lds-wait-short", "lds-race"],
                     ["wait-missing", "lds-wait-short", "lds-race"]), \
        [d.message for d in e.value.diags]
    # raised, the wait named is that one; dropped, the waits of vmcnt before it on each path
    assert how == "dropped" or f"(line {line}) leaves" in e.value.diags[1].message, \
        e.value.diags[1].message
    race = e.value.diags[2].message
    assert "buffer_load_dwordx4" in race and "still in flight at the s_barrier" in race, race


def _dma_mutant(asm: str, how: str) -> str:
    """The 4-wave kernel's assembly (all its global loads DMAs to LDS) mutated outside its
    loop or with a loop barrier moved, as many left: ``prologue-barrier`` deletes the
    prologue's first ``s_barrier`` (after the wait for the first stage's DMAs);
    ``epilogue-vmcnt`` drops the ``vmcnt`` of the epilogue's first wait, its ``lgkmcnt``
    kept;
    ``loop-barrier-up`` moves the loop's second barrier above the ``ds_read`` before it;
    ``loop-barrier-down`` moves its first barrier below the ``ds_read`` after it;
    ``prologue-dma-down`` moves the prologue's last DMA below its first barrier;
    ``loop-m0-swap`` gives the loop's first ``s_mov_b32 m0`` the source of the next
    (:func:`_m0_swapped`); ``loop-m0-outside`` adds the kernel's LDS size to it."""
    import re

    fn = parse_asm(asm).function()
    phases = fn.main_loop_phases()
    lines = asm.split("\n")
    if how in ("loop-m0-swap", "loop-m0-outside"):
        moves = [i.line for i in fn.instrs() if i.text.strip().startswith("s_mov_b32 m0,")]
        first = next(i.line for i in phases["loop"] if i.line in moves)
        if how == "loop-m0-swap":
            return _m0_swapped(asm, moves.index(first))
        size = re.search(r"\.amdhsa_group_segment_fixed_size (\d+)", asm).group(1)
        lines[first - 1] = lines[first - 1].replace("s_mov_b32 m0, ", "s_add_i32 m0, ") + \
            f", {size}"
        return "\n".join(lines)
    if how == "prologue-barrier":
        bar = next(i for i in phases["prologue"] if i.kind == "barrier")
        lines[bar.line - 1] = ""
    elif how == "prologue-dma-down":
        dma = [i for i in phases["prologue"] if i.kind == "vmem_load_lds"][-1]
        bar = next(i for i in phases["prologue"] if i.kind == "barrier" and i.line > dma.line)
        lines.insert(bar.line, lines[dma.line - 1])
        lines[dma.line - 1] = None
    elif how == "epilogue-vmcnt":
        wait = next(i for i in phases["epilogue"] if i.kind == "wait" and "vmcnt" in i.text)
        lines[wait.line - 1] = re.sub(r"\s*vmcnt\(\d+\)", "", lines[wait.line - 1])
    else:
        loop = phases["loop"]
        bars = [k for k, i in enumerate(loop) if i.kind == "barrier"]
        k = bars[1] if how == "loop-barrier-up" else bars[0]
        step = -1 if how == "loop-barrier-up" else 1
        to = next(loop[j] for j in range(k + step, len(loop) if step > 0 else -1, step)
                  if loop[j].kind == "ds_read")
        text = lines[loop[k].line - 1]
        lines[loop[k].line - 1] = None
        lines.insert(to.line - 1 if step < 0 else to.line, text)
    return "\n".join(x for x in lines if x is not None)


def _m0_swapped(asm: str, n: int) -> str:
    """``asm`` with its ``n``-th ``s_mov_b32 m0, sX`` given the source of the next of its
    ``s_mov_b32 m0`` sources in name order (``s2`` -> ``s23``, as the mutation campaign of
    ``docs/kernels.md`` swaps them)."""
    import re

    lines = asm.split("\n")
    moves = [k for k, x in enumerate(lines) if re.match(r"^\ts_mov_b32 m0, s\d+$", x)]
    sources = sorted({lines[k].split(", ")[1] for k in moves})
    old = lines[moves[n]].split(", ")[1]
    lines[moves[n]] = f"\ts_mov_b32 m0, {sources[(sources.index(old) + 1) % len(sources)]}"
    return "\n".join(lines)


@pytest.mark.parametrize("how, kind", [
    ("loop-m0-swap", "lds-race in the loop"),
    ("loop-m0-outside", "lds-outside in the loop"),
    ("prologue-barrier", "barrier-missing in the prologue"),
    ("epilogue-vmcnt", "wait-missing in the epilogue"),
    ("loop-barrier-up", "barrier-missing in the loop"),
    ("loop-barrier-down", "barrier-missing in the loop"),
    ("prologue-dma-down", "load-lds-moved in the prologue")])
def test_a_dma_kernels_barrier_or_wait_changed_anywhere_is_refused(tmp_path, capsys, how,
                                                                  kind):
    """The 4-wave kernel's prologue or epilogue barriers and waits guard LDS the way its
    loop's do: each mutant here races on the emulator (``lds-race``: a fragment read of a
    stage another wave's DMA is still writing, or a DMA overwriting a stage a wave still
    reads; ``--emulate=256,256,512 --emulate-mode=late``, 2 workgroups) and passed the gate
    before, its findings notes (the rules held only the loop, and only a loop short of
    barriers).  Now, in a kernel whose pipelined loop's global loads are all DMAs to LDS,
    ``wait-weakened``, ``wait-missing``, ``barrier-missing`` refuse in every phase, and so
    does an LDS access the comparison finds moved across an ``s_barrier`` (emulated here
    for the moves): earlier anywhere, later in the loop or the prologue.  (A prologue DMA
    moved below a barrier passed when the move later was held to the loop alone, every one
    of the 16 racing or WRONG on the emulator.)  The loop's first ``s_mov_b32 m0`` given
    another DMA's LDS base (a stage a wave reads in that interval) races too (the
    emulator's ``lds-race``, 2 workgroups) and passed the gate: the comparison does not
    read ``M0``; the LDS rule now reads each DMA's bytes from ``M0`` and the barriers it
    may be in flight at (``lds-race``).  Moved past the kernel's LDS (its group segment),
    the emulator's ``out-of-range``, which the gate passed: ``lds-outside``.  A loop barrier
    moved below the next read crosses the fences around it, which are paired in order
    (finding 39): ``barrier-missing`` where the schedule has it (``ds-read-moved`` when the
    alignment paired the barrier and shifted the fences)."""
    built = build("4wave-bf16")
    bad = _dma_mutant(built.asm, how)
    with pytest.raises(Failure) as e:
        check_built(bad, [built.plan], built.ll, None, "k.mlir")
    assert any(f"ISA check: {kind}" in d.message for d in e.value.diags), \
        [d.message for d in e.value.diags]
    if how in ("loop-barrier-down", "prologue-dma-down"):
        src = tmp_path / "k.s"
        src.write_text(bad)
        assert main(["--emulate=256,256,512", str(src), "--pipeline=4wave",
                     "--emulate-workgroups=2", "--emulate-mode=late",
                     "--emulate-jobs=1"]) == 1
        assert "lds-race" in capsys.readouterr().err


@pytest.fixture(scope="module")
def staged() -> tuple[str, object]:
    """(the assembly, the kernel plan) of IREE's 2048x2048x1023 BF16 kernel at the prefetch
    point under ``4wave``: its loop's copies register-staged (``buffer_load`` into
    registers, ``ds_write`` to LDS), four ``s_barrier`` s in the loop, each after an
    ``s_waitcnt lgkmcnt(0)``."""
    import sys
    from pathlib import Path

    from pipeline_mlir.driver import CompileOptions, compile

    sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))
    import generate as G

    text = G.prefetch_point(G.matmul_source(dtype="bf16", m=2048, n=2048, k=1023), ())
    result = compile(CompileOptions(schedule="4wave", text=text, emit="asm"))
    return result.checked_output(), result.plans[0]


def _barrier_moved(asm: str, n: int, above: str) -> str:
    """``asm`` with the ``n``-th ``s_barrier`` of its main loop moved above the last
    instruction of kind ``above`` before it."""
    loop = [i for b in parse_asm(asm).function().main_loop() for i in b.instrs]
    bars = [k for k, i in enumerate(loop) if i.kind == "barrier"]
    bar = loop[bars[n]]
    to = next(loop[k] for k in range(bars[n] - 1, -1, -1) if loop[k].kind == above)
    lines = asm.split("\n")
    lines.insert(to.line - 1, lines.pop(bar.line - 1))
    return "\n".join(lines)


@pytest.mark.parametrize("n, above", [(0, "wait"), (3, "ds_write")])
def test_a_register_staged_loops_moved_barrier_is_refused(staged, tmp_path, capsys, n,
                                                          above):
    """A barrier of the register-staged loop moved, as many left (the comparison's
    ``barrier-missing`` with ``barrier-extra`` beside it, a note): above the
    ``lgkmcnt(0)`` before it, the wave's LDS reads are still in flight when the other waves
    pass it and overwrite their stage with their ``ds_write`` s; above the last
    ``ds_write`` before it, past the wait and the LDS read before that write, likewise.  The
    emulator finds an ``lds-race`` in both (a ``ds_write`` racing a read not yet waited
    for; emulated here for the first); the check's register rule now tracks an LDS read in flight at a barrier after
    which an LDS write may follow, a ``wait-short`` at the barrier.  Before, both passed
    the gate.  A barrier moved below the next LDS read instead is exact on the emulator, a
    note the rule refused too, blind to addresses, and passes now that the LDS rule's
    addresses show the read apart from the writes after the barrier
    (``test_a_register_staged_kernels_lds_race_is_refused``)."""
    asm, plan = staged
    check_built(asm, [plan], "", None, "k.mlir")
    moved = _barrier_moved(asm, n, above)
    with pytest.raises(Failure) as e:
        check_built(moved, [plan], "", None, "k.mlir")
    kinds = [x.message.split("ISA check: ")[1].split(" ")[0] for x in e.value.diags]
    d = e.value.diags[0]
    assert set(kinds) <= {"wait-short", "lds-race"}, kinds
    assert "ISA check: wait-short in the loop at 's_barrier'" in d.message and \
        "may still be reading LDS on some path: the other waves may overwrite it" in \
        d.message, d.message
    if n == 0:
        src = tmp_path / "k.s"
        src.write_text(moved)
        assert main(["--emulate=2048,2048,1023", str(src), "--emulate-workgroups=1",
                     "--emulate-mode=late"]) == 1
        err = capsys.readouterr().err
        assert "lds-race" in err and "ds_write_b128" in err and "not yet waited for" in err, err


@pytest.mark.parametrize("name", ["fp8_abt_2048x2048x1028", "bf16_abt_300x500x200"])
def test_iree_kernels_the_comparison_misreads_pass(name):
    """IREE kernels, late form, that the emulator runs exact (``test_iree_configurations.py``)
    and the comparison finds a barrier short or moved in: FP8 2048x2048x1028
    (register-staged copies, which the skeleton does not model: one ``s_barrier`` fewer in
    its prologue than the schedule's; only a DMA kernel's prologue and epilogue barriers are
    held); BF16 300x500x200 (DMAs; LLVM moved LDS reads of the epilogue later across its
    barriers, no DMA after them: only a move earlier, or later where DMAs follow, refuses).
    Their ``--emit=asm`` builds pass the gate; counting every phase's barriers, or refusing
    every move across a barrier, refused them."""
    import iree_configs as C
    from pipeline_mlir.driver import CompileOptions, compile

    args, flags, _ = C.CONFIGS[name]
    text = C.G.forms(C.G.matmul_source(**args), tuple(flags))["late"]
    compile(CompileOptions(schedule="4wave", text=text, emit="asm")).checked_output()


def test_an_iree_kernel_whose_lds_offsets_fold_onto_a_base_below_zero_passes():
    """IREE's E5M2 ``A^T x B^T`` 7x20x1906 (late form), its index arithmetic narrowed to
    i32 in the LLVM step: LLVM folds 60864 into the offset of a transposing read whose
    base register is a difference, below zero in some lanes (``ds_read_b64_tr_b8 v[82:83],
    v29 offset:60864``).  The hardware adds them modulo 2^32, as the emulator does, which
    runs it exact; the LDS rule added them unbounded and refused the build as reading past
    the kernel's LDS (``lds-outside``)."""
    from pathlib import Path

    from pipeline_mlir.driver import CompileOptions, compile

    path = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / \
        "iree-fp8e5m2-atbt-7x20x1906.late.mlir"
    out = compile(CompileOptions(schedule="4wave", text=path.read_text(),
                                 emit="asm")).checked_output()
    assert "ds_read_b64_tr_b8" in out


#: IREE's fp8 ``A x B`` 64x64x1000, late form: its pipelined loop folded away, IREE's
#: remainder loop kept (:func:`kept_loop`)
KEPT_LOOP = (dict(dtype="fp8", m=64, n=64, k=1000, transpose_b=False), "late")


@pytest.fixture(scope="module")
def kept_loop():
    """(the assembly, the kernel plan, the LLVM IR) of IREE's fp8 ``A x B`` 64x64x1000,
    late form (a 64x64 tile, K steps of 128, B read with 8-bit transposing reads): its
    pipelined loop runs 0 trips (its K steps all in the prologue and epilogue) and folds
    away in MLIR; the assembly's only loop is IREE's remainder loop (masked byte loads, 8
    MFMAs as the plan's 8 MMA entries, 2 ``s_barrier`` to the pipelined loop's 4).  Built
    once per run (``kernel_builds.built_iree``; about 10 s of CPU)."""
    from kernel_builds import built_iree

    b = built_iree(*KEPT_LOOP)
    return b.asm, b.plan, b.ll


def test_a_pipelined_loop_folded_away_is_not_held_against_irees_remainder_loop(kept_loop):
    """The gate compared IREE's remainder loop (:func:`kept_loop`) with the schedule and
    refused the kernel (``barrier-missing in the loop (schedule entries KRN[26])``), which
    the emulator runs exact; no loop of the LLVM IR compiled holds a fence now, so the
    build passes, the code in front of that loop compared with the schedule's run.  The
    same code with a fence put in that IR loop (the pipelined loop, as far as the check
    can tell) is compared again and refused."""
    asm, plan, ll = kept_loop
    check_built(asm, [plan], ll, None, "k.mlir")
    (loop,) = list(ir_loops(ll))
    lines = ll.split("\n")
    back = max(n for n, line in enumerate(lines) if line == loop[-1])
    lines.insert(back, f"  {IR_FENCE}i32 0)")
    with pytest.raises(Failure) as e:
        check_built(asm, [plan], "\n".join(lines), None, "k.mlir")
    assert any("ISA check: barrier-missing in the loop (schedule entries KRN[26])" in d.message
               for d in e.value.diags), [d.message for d in e.value.diags]


def test_a_remainder_loop_beside_the_unrolled_pipelined_loop_is_not_compared(tmp_path,
                                                                             capsys):
    """IREE's E5M2 ``A x B^T`` 256x64x1954 at its prefetch point (a 4-wave 256x64 tile, K
    steps of 128, copies through registers, the masked last K tile): LLVM unrolls the
    pipelined loop (2 trips) and keeps the remainder loop (2 K steps, 8 MFMAs: the plan's 8
    MMA entries, a whole iteration, no fence).  The gate compared that loop with the
    schedule and refused the build (``barrier-missing in the loop``, a sixteenth-sweep draw
    of IREE's default build); the code around it holds the unrolled loop's fences, so it is
    another loop now (``isa/which_loop.py``; the rule's edges in ``test_check.py``), and
    the kernel builds, exact on the emulator."""
    from iree_configs import G

    src = tmp_path / "k.mlir"
    src.write_text(G.forms(G.matmul_source("fp8e5m2", 256, 64, 1954))["prefetch"])
    rc = main([str(src), "--pipeline=4wave", "--emulate", "--emulate-mode=late",
               "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def test_a_read_feeding_two_mfmas_is_held_slice_by_slice():
    """IREE's f16 ``A x B^T`` 192x256x48 with a 32x32x16 MFMA forced (64x128 tile, 2x1
    waves): its MFMAs halved along K, B's fragment read whole, 16 bytes, each half MFMA
    taking 8 of them (``frontend/half_k.py``).  The fragment-read rule held a ``ds_read``
    only where one operand part held all of it, and said this one unheld; it now holds
    each slice against the plan: the kernel as built passes, and the two MFMAs of one
    accumulator given each other's half of B (the products of K 0..7 of A with K 8..15 of
    B: a wrong C, which passed the gate before) are refused, ``lds-misread``."""
    from kernel_builds import built_iree

    b = built_iree(dict(dtype="f16", m=192, n=256, k=48, mma="MFMA_F32_32x32x16_F16",
                        tile=(64, 128, 16), waves=(2, 1)), "prefetch")
    check_built(b.asm, [b.plan], b.ll, None, "k.mlir")
    lines = b.asm.split("\n")
    first, then = _b_halves_to_swap(b.asm)
    b0, b1 = (lines[i].split()[3].rstrip(",") for i in (first, then))
    lines[first], lines[then] = lines[first].replace(b0, b1), lines[then].replace(b1, b0)
    with pytest.raises(Failure) as e:
        check_built("\n".join(lines), [b.plan], b.ll, None, "k.mlir")
    assert any("ISA check: lds-misread in the prologue" in d.message and
               "fills bytes 0..7 of B of v_mfma_f32_32x32x8_f16" in d.message
               for d in e.value.diags), [d.message for d in e.value.diags]


def _b_halves_to_swap(asm: str) -> tuple[int, int]:
    """The 0-based lines of the first two ``v_mfma_f32_32x32x8_f16`` of one accumulator
    whose B operands differ and stay in their registers from the first to the second (no
    instruction between writes them): swapped, each MFMA reads the other's half of B, as
    loaded (LLVM may reuse a register the first MFMA read last, as an address after the
    pass narrowing the index arithmetic to 32 bits; a swap onto it would feed the second
    MFMA an address, a register the rule does not follow, not the other half)."""
    instrs = parse_asm(asm).function().instrs()
    for k, mfma in enumerate(instrs):
        if mfma.mnemonic != "v_mfma_f32_32x32x8_f16":
            continue
        acc = mfma.operands[0]
        nxt = next((j for j in range(k + 1, len(instrs)) if instrs[j].kind == "mfma" and
                    instrs[j].operands[0] == acc), None)
        if nxt is None or instrs[nxt].operands[2] == mfma.operands[2]:
            continue
        regs = {f"v{r}" for i in (mfma, instrs[nxt])
                for lo, hi in [re.fullmatch(r"v\[(\d+):(\d+)\]", i.operands[2]).groups()]
                for r in range(int(lo), int(hi) + 1)}
        if not any(regs & set(i.defs) for i in instrs[k + 1:nxt]):
            return mfma.line - 1, instrs[nxt].line - 1
    raise AssertionError("no two MFMAs of one accumulator whose B operands stay loaded")


def _staged_mutant(asm: str, how: str) -> str:
    """IREE's register-staged kernel's assembly (:func:`staged`) with one barrier deleted or
    moved, as the campaign of ``docs/kernels.md`` mutates it: ``prologue-deleted``, the
    prologue's barrier after its ``ds_write`` s (the first stage's, then read);
    ``loop-below-wait``, the loop's third barrier moved below the next ``s_waitcnt``, past
    a ``ds_read`` and a ``ds_write``; ``epilogue-deleted``, the last barrier of the
    epilogue between an LDS read and an LDS write (IREE's last, masked K step staged in
    the stage the epilogue's reads just read); ``epilogue-below-read``, the epilogue's
    first barrier moved below the LDS read after it; ``loop-below-read``, the loop's first
    barrier moved below the LDS read after it."""
    phases = parse_asm(asm).function().main_loop_phases()
    lines = asm.split("\n")

    def bars(phase):
        return [k for k, i in enumerate(phases[phase]) if i.kind == "barrier"]

    def lds(phase, k, step):     # the kind of the nearest LDS access from k on, ``step`` away
        code = phases[phase]
        return next((code[j].kind for j in range(k + step, len(code) if step > 0 else -1, step)
                     if code[j].kind in ("ds_read", "ds_write")), None)

    if how == "prologue-deleted":
        code = phases["prologue"]
        bar = next(code[k] for k in bars("prologue") if lds("prologue", k, -1) ==
                   "ds_write")
        lines[bar.line - 1] = None
    elif how == "epilogue-deleted":
        code = phases["epilogue"]
        bar = [code[k] for k in bars("epilogue") if k + 1 < len(code) and
               lds("epilogue", k, -1) == "ds_read" and lds("epilogue", k, 1) == "ds_write"][-1]
        lines[bar.line - 1] = None
    else:
        phase, kind, n = {"loop-below-wait": ("loop", "wait", 2),
                          "loop-below-read": ("loop", "ds_read", 0),
                          "epilogue-below-read": ("epilogue", "ds_read", 0)}[how]
        code = phases[phase]
        k = bars(phase)[n]
        to = next(code[j] for j in range(k + 1, len(code)) if code[j].kind == kind)
        lines.insert(to.line, lines[code[k].line - 1])
        lines[code[k].line - 1] = None
    return "\n".join(x for x in lines if x is not None)


@pytest.mark.parametrize("how, phase", [("prologue-deleted", "prologue"),
                                        ("loop-below-wait", "loop"),
                                        pytest.param("epilogue-deleted", "epilogue",
                                                     marks=pytest.mark.long(
                                            "the LDS rule's lds-race in a third phase of the "
                                            "same kernel: [prologue-deleted-prologue] and "
                                            "[loop-below-wait-loop] refuse by it")),
                                        ("epilogue-below-read", None),
                                        ("loop-below-read", None)])
def test_a_register_staged_kernels_lds_race_is_refused(staged, how, phase):
    """The barriers of IREE's register-staged kernel that no rule reading the waits catches
    (no wait is short there; the comparison, not modelling the copies, counts the prologue
    and epilogue barriers as extra): each of the first three mutants races on the emulator
    (``lds-race``, ``--emulate=2048,2048,1023 --emulate-mode=late``, 1 workgroup) and
    passed the gate; the LDS rule (``pipeline_mlir/isa/lds_ranges.py``) evaluates each
    access's lane addresses and finds a write and another wave's access of its bytes with
    no barrier between.  The epilogue's first barrier moved below the LDS read after it
    runs exact (that read's bytes no write of the interval touches) and passes; so does the
    loop's first moved below the LDS read after it, which the register rule, blind to
    addresses, refused (that read in flight at the barrier, ``ds_write`` s after it: of
    bytes no other wave's write touches, :meth:`LdsMap.apart`)."""
    asm, plan = staged
    bad = _staged_mutant(asm, how)
    if phase is None:
        check_built(bad, [plan], "", None, "k.mlir")
        return
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], "", None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert [m.split("ISA check: ")[1].split(" ")[0] for m in messages] == ["lds-race"], \
        messages
    assert f"lds-race in the {phase} at 'ds_" in messages[0] and "of wave " in \
        messages[0] and "with no s_barrier between them" in messages[0], messages


@pytest.mark.parametrize("first", [True, pytest.param(False, marks=pytest.mark.long(
    "the second lone barrier moved is the same rule's refusal (barrier-mismatch, each "
    "wave's exec at the branches) as the first's: "
    "test_a_ping_pong_barrier_moved_out_of_its_branch_is_refused[True]"))])
def test_a_ping_pong_barrier_moved_out_of_its_branch_is_refused(first):
    """The ping-pong kernel's two barriers that one group of waves each runs (before the
    main loop the second group's, after it the first's, ``s_cbranch_execz`` around each):
    the first moved above the nearest wait before its branch, or the second below the
    nearest wait after it, and every wave runs it; the other group's stays.  The emulator
    stops at ``barrier-mismatch`` (the waves executed different numbers of ``s_barrier``;
    ``--emulate=512,512,512 --emulate-mode=late``, 2 workgroups) and the gate passed both;
    the check evaluates each wave's ``exec`` at the branches from its thread ids and
    refuses the build (``barrier-mismatch``)."""
    built = build("pingpong-bf16")      # passes the gate: the pingpong report snapshot
    code = parse_asm(built.asm).function().instrs()
    lone = [k for k, i in enumerate(code) if i.kind == "barrier" and
            code[k - 1].mnemonic == "s_cbranch_execz"]
    assert len(lone) == 2
    k = lone[0] if first else lone[1]
    step = -1 if first else 1
    to = next(code[j] for j in range(k + step, len(code) if step > 0 else -1, step)
              if code[j].kind == "wait")
    lines = built.asm.split("\n")
    text = lines[code[k].line - 1]
    lines[code[k].line - 1] = None
    lines.insert(to.line - 1 if first else to.line, text)
    bad = "\n".join(x for x in lines if x is not None)
    with pytest.raises(Failure) as e:
        check_built(bad, [built.plan], built.ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert any("ISA check: barrier-mismatch in the " in m and
               "the waves pass different numbers of the s_barrier" in m for m in messages), \
        messages


@pytest.mark.parametrize("n, kinds", [(2, ["lds-race"]), (8, ["lds-race", "lds-unwritten"])])
def test_a_ping_pong_dmas_lds_base_swapped_is_refused(n, kinds):
    """The ping-pong kernel's barriers are not the same for every wave (one before the
    main loop only the second group of waves runs, one after it only the first), so the
    LDS rule did not run on it.  It now pairs each group's intervals with the other's in
    lockstep (a wave's n-th barrier meets every other wave's n-th: the second group a
    barrier ahead from the first of those to the second) and finds races across the
    groups.  The prologue's third ``s_mov_b32 m0`` given the next LDS base (two waves'
    DMAs writing one stage's bytes) and its ninth (between the two groups' barriers: a
    DMA writing bytes another group's wave reads): the emulator's ``lds-race``
    (``--emulate=512,512,512 --emulate-mode=late``, 2 workgroups), passed by the gate
    before, refused now; the kernel itself passes (no race across the groups).  The ninth
    leaves the stage it should fill unfilled before the loop reads it, too (``lds-unwritten``)."""
    built = build("pingpong-bf16")
    check_built(built.asm, [built.plan], built.ll, None, "k.mlir")
    with pytest.raises(Failure) as e:
        check_built(_m0_swapped(built.asm, n), [built.plan], built.ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert [m.split("ISA check: ")[1].split(" ")[0] for m in messages] == kinds, \
        messages


@pytest.mark.parametrize("phase, kind", [("loop", "lds-stale"),
                                         ("prologue", "lds-unwritten")])
def test_a_dma_given_another_stages_m0_is_refused(phase, kind):
    """The 4-wave FP8 64x64 kernel's loop with its first DMA given the ``M0`` of the second
    (the B tile's stage for the A tile's): one wave's two DMAs fill the same bytes, the A
    stage the loop reads is never refilled.  No two waves race (no ``lds-race``); the
    emulator finds C WRONG (``--emulate=128,128,1024 --emulate-mode=late``, 2 workgroups)
    and the gate passed it.  The loop's reads of bytes no LDS write of the loop writes are
    ``lds-stale``.  The prologue's fourth DMA given the third's ``M0`` leaves the stage the
    loop's first iteration reads unfilled (the loop refills it after: no ``lds-stale``):
    WRONG on the emulator, passed by the gate; a read of bytes no write fills on some path
    before it is ``lds-unwritten``."""
    built = build("4wave-fp8-64")
    fn = parse_asm(built.asm).function()
    moves = [i for i in fn.main_loop_phases()[phase] if i.text.startswith("s_mov_b32 m0,")]
    first = moves[0] if phase == "loop" else moves[3]
    lines = built.asm.split("\n")
    lines[first.line - 1] = "\t" + (moves[1] if phase == "loop" else moves[2]).text
    with pytest.raises(Failure) as e:
        check_built("\n".join(lines), [built.plan], built.ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert [m.split("ISA check: ")[1].split(" ")[0] for m in messages] == [kind], \
        messages


def test_a_ping_pong_wait_filling_an_mfma_gap_deleted_is_refused():
    """The ping-pong kernel's epilogue waits that LLVM counted as wait states between the
    last MFMAs and the address arithmetic of the C stores (an ``s_nop`` after each tops
    them up): each deleted leaves a ``v_or_b32`` writing a register an MFMA wrote 7 wait
    states before, of the 8 its result needs.  The emulator stops at ``wait-states``
    (``--emulate=512,512,512 --emulate-mode=late``) and the gate passed both; the check's
    MFMA wait-state rule (``pipeline_mlir/isa/mfma_gaps.py``) refuses them."""
    built = build("pingpong-bf16")
    code = [i for i in parse_asm(built.asm).function().instrs()
            if i.kind not in ("sched_barrier", "sched_group_barrier")]
    waits = [i for k, i in enumerate(code[:-1]) if i.kind == "wait" and
             code[k + 1].kind == "nop"]
    assert len(waits) == 2
    for wait in waits:
        lines = built.asm.split("\n")
        lines[wait.line - 1] = ""
        with pytest.raises(Failure) as e:
            check_built("\n".join(lines), [built.plan], built.ll, None, "k.mlir")
        (d,) = e.value.diags
        assert "ISA check: wait-states in the epilogue at 'v_or_b32_e32 " in d.message and \
            "7 wait states after v_mfma_f32_16x16x32_bf16" in d.message and \
            "needs 8" in d.message, d.message


def test_a_zero_trip_path_llvm_deleted_whole_is_no_error():
    """The lowering's zero-trip fence (the full wait and the barrier of the path that skips
    a loop run zero times) in a DMA kernel: its barrier missing alone is an error (deleted
    from a path that still runs); missing with its wait, the path is gone (LLVM proved the
    trip count positive: IREE's padded kernels of M known at launch, ``padm``, ``padkm``,
    ``padkmn`` and ``padmn`` of the mutation campaign, exact, which the gate refused).  On
    the 4-wave kernel's own assembly: the fence's block emptied passes (exact on the
    emulator, ``--emulate=256,256,K --emulate-mode=late`` at K 256, 384, 512), its barrier
    deleted alone is refused; a wait missing in another phase excuses nothing."""

    built = build("4wave-bf16")
    lines = built.asm.split("\n")
    # the fence's block: a full wait and a barrier alone between a branch and its target
    k = next(k for k, x in enumerate(lines) if x.strip() == "s_barrier" and
             lines[k - 1].strip() == "s_waitcnt vmcnt(0) lgkmcnt(0)" and
             lines[k + 1].split()[0] == lines[k - 3].split()[-1] + ":")
    check_built("\n".join(lines[:k - 1] + lines[k + 1:]), [built.plan], built.ll, None,
                "k.mlir")
    with pytest.raises(Failure) as e:
        check_built("\n".join(lines[:k] + lines[k + 1:]), [built.plan], built.ll, None,
                    "k.mlir")
    assert [d.message.split("ISA check: ")[1] for d in e.value.diags] == [
        f"barrier-missing in the prologue (schedule entries lowering:{ZERO_TRIP_FENCE}): "
        "s_barrier of the schedule is not in the assembly"]
    ran = pipelined_check(parse_asm(built.asm).function(), built.plan)
    fence = (f"lowering:{ZERO_TRIP_FENCE}",)
    barrier = Finding("barrier-missing", "prologue", fence, (), "m")
    wait = Finding("wait-missing", "prologue", fence + fence, (), "m")
    assert errors([barrier], ran.isa) == [barrier]
    assert errors([barrier, wait], ran.isa) == []
    assert errors([barrier, Finding("wait-missing", "epilogue", fence, (), "m")],
                  ran.isa) == [barrier]


@pytest.mark.parametrize("how", ["deleted", "weakened", "merged"])
def test_a_zero_trip_fence_wait_on_a_path_that_runs_is_held(how):
    """The 4-wave kernel's zero-trip fence (``s_waitcnt vmcnt(0) lgkmcnt(0)`` and
    ``s_barrier`` in a block the loop's path branches over): its wait deleted or weakened
    to ``vmcnt(4)``, its barrier kept, leaves the prologue's DMAs in flight at that barrier
    on the path that skips the loop.  The gate excused any missing or weakened fence wait
    (LLVM deletes it where an earlier wait covers it) and passed both; it refuses them now
    where a DMA to LDS may still be in flight at the fence's barrier
    (``pipeline_mlir/isa/fence_flight.py``).  (Both run exact on the emulator,
    ``--emulate=256,256,128 --emulate-mode=late``, 2 workgroups: the epilogue's own waits
    cover this kernel's zero-trip path; the rule keeps the schedule's waits, as the DMA
    kernel's rules do.)  The full wait moved in front of the branch (an earlier wait LLVM
    merged the fence's into) completes every DMA there: still excused."""
    built = build("4wave-bf16")
    lines = built.asm.split("\n")
    k = next(k for k, x in enumerate(lines) if x.strip() == "s_barrier" and
             lines[k - 1].strip() == "s_waitcnt vmcnt(0) lgkmcnt(0)" and
             lines[k + 1].split()[0] == lines[k - 3].split()[-1] + ":")
    if how == "merged":
        bad = lines[:k - 4] + [lines[k - 1]] + lines[k - 4:k - 1] + lines[k:]
        check_built("\n".join(bad), [built.plan], built.ll, None, "k.mlir")
        return
    bad = lines[:k - 1] + (["\ts_waitcnt vmcnt(4) lgkmcnt(0)"] if how == "weakened" else []) \
        + lines[k:]
    with pytest.raises(Failure) as e:
        check_built("\n".join(bad), [built.plan], built.ll, None, "k.mlir")
    kind = "wait-weakened" if how == "weakened" else "wait-missing"
    assert [d.message.split("ISA check: ")[1].split(" (")[0] for d in e.value.diags] == [
        f"{kind} in the prologue"], [d.message for d in e.value.diags]
    assert f"(schedule entries lowering:{ZERO_TRIP_FENCE}" in e.value.diags[0].message


@pytest.fixture(scope="module")
def unrolled():
    """(the assembly, the kernel plan, the LLVM IR) of IREE Wave's GEMM at K = 256 under
    ``4wave``, whose 2-trip K-loop LLVM unrolls: the straight code of the prologue, one copy
    of the loop phase (its pipelined loop runs once) and the epilogue, the loads all DMAs
    to LDS (the run's one build of it, ``kernel_builds.built_input``, which
    ``test_report.py`` reports on).  The gate passes it, comparing that code with the
    schedule (``pipeline_mlir/isa/unrolled.py``)."""
    from pathlib import Path

    from kernel_builds import built_input

    b = built_input("4wave", Path(__file__).parents[2] / "data" / "wave" /
                    "gemm_f16_128x128x256.mlir")
    return b.asm, b.plan, b.ll


def _unrolled_mutant(asm: str, plan, ll: str, how: str) -> str:
    """The unrolled kernel's assembly with its loop copy (as the comparison cuts it)
    mutated: ``wait-weakened``, the copy's first wait's ``vmcnt`` raised by one;
    ``mfma-moved``, its last MFMA moved above the fragment reads that fill its A and B
    registers (which the prologue's reads wrote); ``mfma-swapped``, its first MFMA swapped
    with the first MFMA after the next
    ``s_waitcnt lgkmcnt``, which reads a fragment read between the two; ``mfma-traded``,
    the same swap from the first MFMA after its last ``s_barrier`` but one (the one moved
    up then reads B registers an earlier read wrote); ``ds-read-moved``,
    the first ``ds_read`` after its first ``s_barrier`` moved above the wait before that
    barrier."""
    import re

    from pipeline_mlir.isa.report import unrolled_note
    from pipeline_mlir.isa.unrolled import unrolled_check

    fn = parse_asm(asm).function()
    assert unrolled_note(fn, ll)
    loop = unrolled_check(fn, plan).phases["loop"]
    lines = asm.split("\n")
    if how == "wait-weakened":
        w = next(i for i in loop if i.kind == "wait" and "vmcnt" in i.text)
        lines[w.line - 1] = re.sub(r"vmcnt\((\d+)\)", lambda m: f"vmcnt({int(m.group(1)) + 1})",
                                   lines[w.line - 1])
    elif how == "mfma-moved":
        _mfma_above_its_reads(lines, loop, max(k for k, i in enumerate(loop)
                                                if i.kind == "mfma"))
    elif how in ("mfma-swapped", "mfma-traded"):
        bar = [k for k, i in enumerate(loop) if i.kind == "barrier"][-2] \
            if how == "mfma-traded" else 0
        k = next(k for k, i in enumerate(loop) if i.kind == "mfma" and k > bar)
        w = next(j for j in range(k, len(loop)) if loop[j].kind == "wait" and
                 "lgkmcnt" in loop[j].text)
        b = next(i for i in loop[w:] if i.kind == "mfma")
        a = loop[k]
        lines[a.line - 1], lines[b.line - 1] = lines[b.line - 1], lines[a.line - 1]
    else:
        _read_above_its_wait(lines, loop)
    return "\n".join(x for x in lines if x is not None)


def _mfma_above_its_reads(lines: list, instrs: list, k: int) -> None:
    """The MFMA ``instrs[k]`` moved in ``lines`` (the assembly's, its own line left
    ``None``) above the earliest of the ``ds_read`` s before it in ``instrs`` that fill its A
    and B registers."""
    from pipeline_mlir.isa.asm_instr import registers

    need = {r for o in instrs[k].operands[1:3] for r in registers(o)}
    reads = []
    for j in range(k - 1, -1, -1):
        if instrs[j].kind == "ds_read" and need & set(instrs[j].defs):
            reads.append(j)
            need -= set(instrs[j].defs)
    text = lines[instrs[k].line - 1]
    lines[instrs[k].line - 1] = None
    lines.insert(instrs[min(reads)].line - 1, text)


def _read_above_its_wait(lines: list, instrs: list) -> None:
    """The first fragment read after the first barrier of ``instrs`` moved in ``lines``
    (the assembly's, its own line left ``None``) above the last wait before that barrier."""
    bar = next(k for k, i in enumerate(instrs) if i.kind == "barrier")
    read = next(i for i in instrs[bar:] if i.kind == "ds_read")
    wait = next(i for i in reversed(instrs[:bar]) if i.kind == "wait")
    text = lines[read.line - 1]
    lines[read.line - 1] = None
    lines.insert(wait.line - 1, text)


@pytest.mark.parametrize("how, kind", [
    ("wait-weakened", "wait-weakened in the loop"),
    ("mfma-swapped", "operand-unwritten in the function"),
    ("mfma-moved", "mfma-moved in the loop"),
    ("mfma-traded", "mfma-misplaced in the loop"),
    ("ds-read-moved", "ds-read-moved in the loop")])
def test_an_unrolled_loops_mutant_is_refused(unrolled, how, kind):
    """The unrolled kernel's straight code is held to the plan as a rolled loop is: a
    weakened wait of the loop copy (a DMA kernel: the wait that keeps the wave's fragment
    reads after the DMAs filling their stage), a fragment read moved above the wait and
    barrier before it, are refused (``wait-weakened``, ``ds-read-moved`` earlier across an
    ``s_barrier``); two MFMAs swapped across a wait, the one moved up reading its B operand
    before the read that fills it is issued, is refused by the operand rule
    (``operand-unwritten``).  Before, the gate held such code to the rules reading the
    assembly alone, which pass all three.  An MFMA moved above the reads that fill its
    registers, which earlier reads wrote (C WRONG on the emulator), is an MFMA in another
    gap than planned in a DMA kernel (``mfma-moved``): refused; before, a note.  Two MFMAs
    traded across those reads keep every gap's count of MFMAs, and the registers were
    written: each is in a gap that plans no MMA of its accumulator's tile
    (``mfma-misplaced``; C WRONG on the emulator), refused; before, the gate passed it."""
    asm, plan, ll = unrolled
    _refused_by_the_comparison_alone(asm, _unrolled_mutant(asm, plan, ll, how), plan, ll, kind)


def _refused_by_the_comparison_alone(asm: str, bad: str, plan, ll: str, kind: str) -> None:
    """``bad``, a mutant of ``asm``, passes the rules that read the assembly alone and is
    refused by the gate's comparison with ``plan`` with a finding of ``kind``."""
    from pipeline_mlir.isa.check import check_without_schedule

    assert bad != asm
    assert errors(check_without_schedule(parse_asm(bad).function())) == []
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert any(f"ISA check: {kind}" in m for m in messages), messages


def test_a_remainder_after_an_unrolled_loop_is_not_counted_in_its_mfmas(unrolled):
    """The MFMAs per MMA entry of an unrolled loop (the plan of an adopted kernel does not
    give them) are counted in the pipelined code, up to its last ``sched_barrier``: a
    remainder of MFMAs of the same kind after it may make the whole function's count divide
    evenly too.  Here 16 MFMAs appended after the Wave GEMM's 128 (16 MMA entries of 8):
    144 would read as 9 per entry, every MMA entry short of one (``mfma-missing``: IREE's
    fp8 ``A^T x B^T`` 128x384x768, 3 K steps, whose third is the remainder's, exact on the
    emulator, was refused so by the twelfth sweep)."""
    from pipeline_mlir.isa.unrolled import unrolled_check

    asm, plan, _ll = unrolled
    lines = asm.split("\n")
    end = max(k for k, x in enumerate(lines) if x.strip() == "s_endpgm")
    assert max(k for k, x in enumerate(lines) if "sched_barrier" in x) < end
    mfma = "\tv_mfma_f32_16x16x32_f16 v[8:11], v[28:31], v[48:51], v[8:11]"
    mutant = "\n".join(lines[:end] + [mfma] * 16 + lines[end:])
    for text in (asm, mutant):
        ran = unrolled_check(parse_asm(text).function(), plan)
        assert ran.isa.mfmas_per_mma == 8, ran.isa.mfmas_per_mma
        assert not [f for f in ran.isa.findings if f.kind == "mfma-missing"], ran.isa.findings


def test_an_unrolled_loops_fragment_waits_are_walked_once(unrolled, monkeypatch):
    """The fragment waits of unrolled code are walked as it runs, each phase once
    (``isa/frag_waits.py``'s ``straight``; the walk itself in ``test_isa_frag_waits.py``):
    the rule the comparison of an unrolled kernel runs is told so."""
    from pipeline_mlir.isa import check as isa_check
    from pipeline_mlir.isa.unrolled import unrolled_check

    asm, plan, _ll = unrolled
    told = []
    walk = isa_check.check_fragment_waits
    monkeypatch.setattr(isa_check, "check_fragment_waits",
                        lambda phases, straight=False: told.append(straight) or
                        walk(phases, straight))
    assert unrolled_check(parse_asm(asm).function(), plan).isa is not None and told == [True]


def test_an_unrolled_loop_the_check_cannot_count_is_said_so(unrolled):
    """The unrolled kernel as built passes the gate.  Where the copies of the loop phase cannot be counted (a trip count the lowering did
    not know as a constant), the comparison is not made and the report says why, the rules
    reading the assembly alone run on the whole function (never silently)."""
    import dataclasses

    from pipeline_mlir.isa.report import unrolled_note

    asm, plan, ll = unrolled
    check_built(asm, [plan], ll, None, "k.mlir")      # the build as LLVM made it passes
    fn = parse_asm(asm).function()
    ran = pipelined_check(fn, dataclasses.replace(plan, trips=None), unrolled_note(fn, ll), ll)
    assert ran.isa is None and ran.note == (
        "the comparison with the schedule and its order rule not run on the unrolled loop "
        "(main loop above): the pipelined loop's trip count was no constant the lowering "
        "knew, so the copies of its loop phase are not counted"), ran.note
    ran = pipelined_check(fn, plan, unrolled_note(fn, ll), ll)
    assert ran.isa is not None and ran.note.startswith("the pipelined loop unrolled")


def _phases(asm: str, plan, ll: str) -> dict:
    """The phases (prologue, loop copies, epilogue) the gate cuts a kernel's straight code
    into: the whole function's where LLVM kept no loop, else the code's in front of the
    loop it kept (``pipelined_check``)."""
    from pipeline_mlir.isa.report import unrolled_note
    from pipeline_mlir.isa.unrolled import unrolled_check

    fn = parse_asm(asm).function()
    if unrolled_note(fn, ll):
        return unrolled_check(fn, plan).phases
    first = fn.main_loop()[0].instrs[0].line
    return unrolled_check(fn, plan, kept=(first, "kept")).phases


def test_the_run_in_front_of_a_kept_loop_is_compared(kept_loop):
    """The kernel of :func:`kept_loop` is compared with the schedule's run in front of the
    remainder loop LLVM kept (the report says so), and held to the rules that need the
    plan: its epilogue's first fragment read given another offset (the bytes of no read
    the plan makes there) is refused (``lds-misread``).  Before, the gate held this kernel
    to the rules reading the assembly alone, which pass it."""
    import re

    from pipeline_mlir.isa.check import check_without_schedule
    from pipeline_mlir.isa.report import unrolled_note

    asm, plan, ll = kept_loop
    fn = parse_asm(asm).function()
    ran = pipelined_check(fn, plan, unrolled_note(fn, ll), ll)
    assert ran.isa is not None and ran.note.startswith(
        "the pipelined loop unrolled in front of the main loop (the main loop of the "
        "assembly (8 MFMAs) is another loop of the kernel"), ran.note
    read = next(i for i in _phases(asm, plan, ll)["epilogue"]
                if i.kind == "ds_read" and "offset:" in i.text)
    lines = asm.split("\n")
    lines[read.line - 1] = re.sub(r"offset:(\d+)", lambda m: f"offset:{int(m.group(1)) + 64}",
                                  lines[read.line - 1])
    bad = "\n".join(lines)
    assert errors(check_without_schedule(parse_asm(bad).function())) == []
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert any("ISA check: lds-misread in the epilogue" in m for m in messages), messages


@pytest.fixture(scope="module")
def zero_trips():
    """(the assembly, the kernel plan, the LLVM IR) of IREE's fp8 ``A x B^T`` 64x31x96,
    late form: its pipelined loop runs 0 trips (MLIR folded it), the prologue's global
    loads DMAs to LDS, and IREE's remainder code after the epilogue.  Built once per run
    (``kernel_builds.built_iree``; about 5 s of CPU)."""
    from kernel_builds import built_iree

    b = built_iree(dict(dtype="fp8", m=64, n=31, k=96), "late")
    return b.asm, b.plan, b.ll


def _epilogue_mutant(asm: str, plan, ll: str, how: str) -> str:
    """The zero-trip kernel's assembly with its epilogue mutated: its first wait on
    ``vmcnt`` (the one derived for K tile 0's copies, merged with an ``lgkmcnt`` wait)
    raised by one (``raised``) or deleted (``dropped``); its first ``ds_read`` after its
    first ``s_barrier`` moved above the wait before that barrier (``read-moved``)."""
    import re

    epi = _phases(asm, plan, ll)["epilogue"]
    lines = asm.split("\n")
    if how in ("raised", "dropped"):
        w = next(i for i in epi if i.kind == "wait" and re.match(r"s_waitcnt vmcnt\(\d+\)",
                                                                 i.text.strip()))
        lines[w.line - 1] = None if how == "dropped" else re.sub(
            r"vmcnt\((\d+)\)", lambda m: f"vmcnt({int(m.group(1)) + 1})", lines[w.line - 1])
    else:
        _read_above_its_wait(lines, epi)
    return "\n".join(x for x in lines if x is not None)


@pytest.mark.parametrize("how, kind", [("raised", "wait-weakened in the epilogue"),
                                       ("dropped", "wait-missing in the epilogue"),
                                       ("read-moved", "ds-read-moved in the epilogue")])
def test_a_zero_trip_runs_waits_are_held(zero_trips, how, kind):
    """A pipelined loop run 0 times has no loop phase, so whether its global loads are all
    DMAs is read off the run (its phases issue a DMA for every load of the plan; IREE's
    register loads beside them are not the plan's): the DMA kernel's rules then hold its
    prologue's and epilogue's waits.  A ``vmcnt`` wait of the epilogue raised or dropped,
    a fragment read moved above the wait and barrier before it, are refused; before, the
    loop phase being empty, they were notes and the gate passed all three.  The pair runs
    as straight code now (no zero-trip fence, its epilogue's waits derived for the
    prologue's copies: docs/kernels.md, "No trip"), so each mutant of the derived wait is a
    race that the rules reading the assembly alone find too; with the fence, whose full
    wait covered the epilogue's, all three ran exact and only the comparison refused them."""
    from pipeline_mlir.isa.check import check_without_schedule

    asm, plan, ll = zero_trips
    check_built(asm, [plan], ll, None, "k.mlir")      # the build as LLVM made it passes
    bad = _epilogue_mutant(asm, plan, ll, how)
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert any(f"ISA check: {kind}" in m for m in messages), messages
    alone = {f.kind for f in errors(check_without_schedule(parse_asm(bad).function()))}
    # another wave's read of the DMA's bytes (lds-race), and the wave's own
    # (lds-wait-short)
    assert alone == {"lds-race", "lds-wait-short"}, alone


def test_a_barrier_across_a_cut_seam_is_no_barrier_missing():
    """IREE's fp8 ``A x B^T`` 129x64x1000, late form: two trips of its pipelined loop
    unrolled, its copies register-staged (which the skeleton does not model): its prologue
    holds one ``s_barrier`` more than the plan's, so the seam the comparison cuts after
    it falls one barrier late and the loop's copies hold one fewer than the plan's.  The
    gate refused it (``barrier-missing in the loop``), which the emulator runs exact
    (late, 2 workgroups); straight code's barriers are counted over the whole run now, and
    it passes.  A barrier deleted from a loop copy is still refused.  Built once per run
    (``kernel_builds.built_iree``; about 10 s of CPU)."""
    from kernel_builds import built_iree

    b = built_iree(dict(dtype="fp8", m=129, n=64, k=1000), "late")
    check_built(b.asm, [b.plan], b.ll, None, "k.mlir")
    bar = next(i for i in _phases(b.asm, b.plan, b.ll)["loop"] if i.kind == "barrier")
    bad = "\n".join(x for n, x in enumerate(b.asm.split("\n"), start=1) if n != bar.line)
    with pytest.raises(Failure) as e:
        check_built(bad, [b.plan], b.ll, None, "k.mlir")
    assert any("ISA check: barrier-missing in the loop" in d.message for d in e.value.diags), \
        [d.message for d in e.value.diags]


def test_mfmas_after_the_last_fence_are_not_counted_per_mma_entry(unrolled):
    """The MFMAs per MMA entry of unrolled code are counted before its last fence (IREE's
    remainder code follows it) where those divide evenly.  The whole function's count came
    first: the Wave GEMM with 16 MFMAs after its last fence (128 + 16, each of the plan's
    16 MMA entries then 9 MFMAs for 8) had its loop copy's MFMAs found missing and was
    refused, as IREE's fp8 ``A x B^T`` 1024x1024x1536 (vector distribute, late form: 96
    MFMAs, 64 of them before the last fence) was."""
    asm, plan, ll = unrolled
    bad = _after_the_last_fence(asm, 16)
    fn = parse_asm(bad).function()
    assert sum(i.kind == "mfma" for i in fn.instrs()) == 144
    check_built(bad, [plan], ll, None, "k.mlir")


def test_an_mfma_deleted_outside_the_loop_of_a_dma_kernel_is_refused(unrolled):
    """Every accumulator the loop yields is kept alive after the epilogue
    (``lowering/keep_alive.py``), so LLVM deletes none of the schedule's MFMAs: in a kernel
    whose copies are all DMAs (the skeleton models each, the seams are where the plan
    puts them) an MFMA missing from the prologue or the epilogue is one deleted, C wrong,
    and refused (``mfma-missing``) as in the loop (the Wave GEMM's run has no MFMA in its
    prologue; its 127 MFMAs left are read as 8 per entry, the count that aligns best).
    Before, only the loop's refused, and
    IREE's bf16 ``A x B`` 32x32x64 (a forced 32x32 tile in 2 waves, the pipelined loop
    run no trip) with an epilogue MFMA deleted passed the gate, C wrong on the emulator."""
    from pipeline_mlir.isa.unrolled import unrolled_check

    asm, plan, ll = unrolled
    ran = unrolled_check(parse_asm(asm).function(), plan)
    gone = next(i for i in ran.phases["epilogue"] if i.kind == "mfma")
    bad = "\n".join(x for n, x in enumerate(asm.split("\n"), start=1) if n != gone.line)
    assert unrolled_check(parse_asm(bad).function(), plan).isa.mfmas_per_mma == 8
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], ll, None, "k.mlir")
    assert any("ISA check: mfma-missing in the epilogue" in d.message
               for d in e.value.diags), [d.message for d in e.value.diags]


def _after_the_last_fence(asm: str, n: int, fences: int = 0) -> str:
    """``asm`` (the Wave GEMM's unrolled code) with ``n`` MFMAs of its kind after its last
    ``sched_barrier``, and ``fences`` more after them (a remainder that ends in fences)."""
    lines = asm.split("\n")
    last = max(k for k, x in enumerate(lines) if "sched_barrier" in x)
    mfma = next(x for x in reversed(lines) if "v_mfma" in x).split()
    extra = [f"\t{mfma[0]} v[{240 + 4 * (k % 4)}:{243 + 4 * (k % 4)}], {mfma[2]} {mfma[3]} 0"
             for k in range(n)]
    return "\n".join(lines[:last + 1] + extra + [lines[last]] * fences + lines[last + 1:])


def test_mfmas_per_mma_entry_are_those_whose_run_aligns(unrolled):
    """Where the MFMAs before the last fence (a remainder's after the run, then fences)
    divide evenly by the run's MMA entries to another count than the run's, the count whose
    expected fences and MFMAs align with the code is taken: the Wave GEMM's 128 MFMAs (16
    entries of 8) and 32 of a remainder followed by two fences, 160 before the last fence,
    were read as 10 per entry, the loop copy's MFMAs missing, the epilogue's moved later
    (IREE's fp8 ``A^T x B`` 384x768x640 in one wave with 32x32x64 MFMAs, one trip
    unrolled and its fifth K step after it, exact on the emulator: the twenty-fourth
    sweep's finding 62).  The gate passes it; with one of the loop copy's MFMAs deleted it
    is refused still (``mfma-missing``)."""
    from pipeline_mlir.isa.unrolled import unrolled_check

    asm, plan, ll = unrolled
    good = _after_the_last_fence(asm, 32, fences=2)
    ran = unrolled_check(parse_asm(good).function(), plan)
    assert ran.isa.mfmas_per_mma == 8, ran.isa.mfmas_per_mma
    check_built(good, [plan], ll, None, "k.mlir")
    loop = ran.phases["loop"]
    gone = next(i for i in loop if i.kind == "mfma").line
    bad = "\n".join(x for n, x in enumerate(good.split("\n"), start=1) if n != gone)
    with pytest.raises(Failure) as e:
        check_built(bad, [plan], ll, None, "k.mlir")
    assert any("ISA check: mfma-missing" in d.message for d in e.value.diags), \
        [d.message for d in e.value.diags]


@pytest.mark.parametrize("phase, n, kind", [("loop", 8, "fragment-reused"),
                                           ("loop", 1, "operand-accumulator"),
                                           ("epilogue", 1, "operand-loaded")])
def test_an_mfma_moved_above_its_reads_among_moved_mfmas_is_refused(phase, n, kind):
    """IREE's fp8 ``A x B^T`` 129x64x1000, late form (two trips unrolled, its copies
    register-staged, which the skeleton does not model: the comparison finds the MFMAs of
    its loop copies astray as built, so ``mfma-moved`` stays a note there and
    ``mfma-misplaced`` does not vote).  Its ``n``-th MFMA of the loop copies or the
    epilogue moved above the ``ds_read`` s that fill its registers reads what they held:
    the fragment an earlier read of the same accumulator chain left there (one K slice
    multiplied twice into C, another left out: ``fragment-reused``), the registers the
    moved MFMA's own result then overwrites before the next MFMA reads them as A
    (``operand-accumulator``), or a register-staged copy's ``buffer_load`` data
    (``operand-loaded``).  The gate passed 14 of the kernel's 22 such moves, each C WRONG
    on the emulator (``--emulate=129,64,1000 --emulate-mode=late``) or, the
    second, a wait-state hazard there; all 22 are refused now
    (``pipeline_mlir/isa/fragment_reuse.py``).  The kernel is built once per run
    (``kernel_builds.built_iree``, shared with the seam test); each check about 1 s."""
    from kernel_builds import built_iree

    b = built_iree(dict(dtype="fp8", m=129, n=64, k=1000), "late")
    code = _phases(b.asm, b.plan, b.ll)[phase]
    k = [j for j, i in enumerate(code) if i.kind == "mfma"][n]
    lines = b.asm.split("\n")
    _mfma_above_its_reads(lines, code, k)
    bad = "\n".join(x for x in lines if x is not None)
    _refused_by_the_comparison_alone(b.asm, bad, b.plan, b.ll, f"{kind} in the {phase}")


@pytest.mark.parametrize("n, kind", [(0, "operand-accumulator"), (2, None)])
def test_two_chains_mfmas_swapped_across_a_separator(zero_trips, n, kind):
    """IREE's fp8 ``A x B^T`` 64x31x96 (:func:`zero_trips`): two accumulator chains of two
    MFMAs in its epilogue.  Its ``n``-th MFMA swapped with the first after the next
    ``lgkmcnt`` wait (the other chain's) puts each chain's MFMA in a gap planning the
    other's tile only: a tie in ``mfma-misplaced`` 's vote, which gives the chain no tile,
    and the gate passed both swaps.  The first with the second (two chain starts) has the
    one moved up write the registers the other reads as A: the emulator stops at the
    wait-state hazard of an MFMA reading another's fresh result
    (``--emulate=64,31,96 --emulate-mode=late``), and ``operand-accumulator`` refuses it.
    The third with the fourth, both operands ready, computes what the plan's order does
    (exact on the emulator) and passes: a tie resolved refused real kernels
    (``pipeline_mlir/isa/mfma_places.py``).  (Its pair runs as straight code now, docs/
    kernels.md "No trip": in that epilogue the first swap's moved MFMA also reads a fragment
    the ``lgkmcnt(1)`` before it leaves in flight, which the rules reading the assembly alone
    find too, ``wait-short``; the comparison still names ``operand-accumulator``.)"""
    asm, plan, ll = zero_trips
    code = _phases(asm, plan, ll)["epilogue"]
    k = [j for j, i in enumerate(code) if i.kind == "mfma"][n]
    w = next(j for j in range(k, len(code)) if code[j].kind == "wait" and
             "lgkmcnt" in code[j].text)
    other = next(i for i in code[w:] if i.kind == "mfma")
    lines = asm.split("\n")
    lines[code[k].line - 1], lines[other.line - 1] = lines[other.line - 1], \
        lines[code[k].line - 1]
    if kind is None:
        check_built("\n".join(lines), [plan], ll, None, "k.mlir")
        return
    with pytest.raises(Failure) as e:
        check_built("\n".join(lines), [plan], ll, None, "k.mlir")
    messages = [d.message for d in e.value.diags]
    assert any(f"ISA check: {kind} in the epilogue" in m for m in messages), messages


def _kernarg_mutant(asm: str, how: str) -> str:
    """``asm`` with the kernel-argument wait before the first DMA to LDS undone:
    ``reloaded``, the last kernel-argument ``s_load`` before that DMA issued again after the
    last ``lgkmcnt`` wait before it; ``deleted``, every ``lgkmcnt`` wait between that
    ``s_load`` and the DMA deleted."""
    lines = asm.split("\n")
    dma = next(k for k, x in enumerate(lines) if x.rstrip().endswith(" lds"))
    load = max(k for k in range(dma) if lines[k].strip().startswith("s_load"))
    waits = [k for k in range(load, dma) if lines[k].strip().startswith("s_waitcnt")
             and "lgkmcnt" in lines[k]]
    assert waits, lines[load:dma]
    if how == "reloaded":
        return "\n".join(lines[:waits[-1] + 1] + [lines[load]] + lines[waits[-1] + 1:])
    return "\n".join(x for k, x in enumerate(lines) if k not in waits)


def test_llvms_wait_for_the_kernel_arguments_amid_code_before_the_loop_holds(tmp_path,
                                                                             capsys):
    """IREE's fused ``accumulate_bias`` bf16 ``A x B`` 77x76x640 at its prefetch point (its
    default build, an eighteenth-sweep neighbour): the kernel reads C0 before the loop, and
    LLVM put its own ``lgkmcnt(0)`` for the kernel arguments' scalar loads there, among
    that read's ``vmcnt`` waits, with no fence beside it; the alignment took it for LLVM's
    own and the gate refused the build (``wait-missing in the prologue (schedule entries
    lowering:kernarg-wait)``), which runs exact.  The lowering's wait is held where an
    earlier wait with no counter instruction since holds it at the first separator
    matched after it (``_Phase.kernarg_wait_held``): the build passes, exact.  An
    ``s_load`` issued again after that wait, or the waits deleted, is refused."""
    from iree_configs import G
    from kernel_builds import built_input

    import epilogues as E     # (test/data/iree, which iree_configs puts on the path)

    src = tmp_path / "k.mlir"
    src.write_text(G.forms(E.epilogue_source("accumulate_bias", "bf16", 77, 76, 640,
                                             b_kxn=True),
                           ("--iree-llvmgpu-prefetch-num-stages=2",))["prefetch"])
    b = built_input("4wave", src)
    check_built(b.asm, [b.plan], b.ll, None, "k.mlir")
    for how in ("reloaded", "deleted"):
        with pytest.raises(Failure) as e:
            check_built(_kernarg_mutant(b.asm, how), [b.plan], b.ll, None, "k.mlir")
        assert any("ISA check: wait-missing in the prologue (schedule entries "
                   "lowering:kernarg-wait)" in d.message for d in e.value.diags), \
            (how, [d.message for d in e.value.diags])
    with share_code_objects():      # (that build's code object: built_input kept it)
        rc = main([str(src), "--pipeline=4wave", "--emulate", "--emulate-mode=late",
                   "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def _dests_swapped(asm: str, first: int, second: int) -> str:
    """``asm`` with the destination registers of its main loop's ``first``-th and
    ``second``-th ``ds_read`` swapped (each then fills the other's MFMA operands)."""
    reads = [i.line for b in parse_asm(asm).function().main_loop() for i in b.instrs
             if i.kind == "ds_read"]
    lines = asm.split("\n")
    a, b = (lines[reads[k] - 1] for k in (first, second))
    da, db = (x.split()[1].rstrip(",") for x in (a, b))
    assert da != db
    lines[reads[first] - 1], lines[reads[second] - 1] = a.replace(da, db), b.replace(db, da)
    return "\n".join(lines)


def test_an_i8_ping_pong_late_forms_b_reads_are_placed_where_they_read(tmp_path, capsys):
    """IREE's i8 ``A x B^T`` 1024x1024x768 in 4x2 waves of 64x128 (a 256x256 tile forced,
    K step 128), its late form at IREE's prefetch of 2 stages, under ``pingpong``
    (finding 36 of ``docs/iree-audits.md``): LLVM computes 6 of every 8 B reads' LDS
    addresses with 16-bit adds and shifts, ``v_bfe_i32`` and ``v_alignbit_b32``, which the
    lane values did not evaluate; the fragment-read rule placed the second stage's B
    buffer on a tied vote of the two reads it knew, 6 KiB short, took each read of it for
    another column's and refused the build (``lds-misread in the loop``), which runs
    exact.  The addresses are evaluated now (``isa/lane_values.py``): the build passes,
    exact; two B reads of the loop given each other's destination registers (each column's
    bytes in the other's MFMAs: a wrong C on the emulator, run from the mutated assembly)
    are refused, ``lds-misread``."""
    from kernel_builds import i8_ping_pong_late
    from pipeline_mlir.emu.asmtext import kernels_from_asm
    from pipeline_mlir.emu.iree import Matmul, emulate_matmul

    src, b = i8_ping_pong_late(tmp_path)
    check_built(b.asm, [b.plan], b.ll, None, "k.mlir")
    with pytest.raises(Failure) as e:
        check_built(_dests_swapped(b.asm, 0, 2), [b.plan], b.ll, None, "k.mlir")
    assert any("ISA check: lds-misread in the loop" in d.message and
               "fills bytes 0..15 of B of v_mfma_i32_16x16x64_i8" in d.message
               for d in e.value.diags), [d.message for d in e.value.diags]
    (mutant,) = kernels_from_asm(_dests_swapped(b.asm, 0, 2)).values()
    run = emulate_matmul(mutant, Matmul(1024, 1024, 768, "i8"), workgroups=[0], mode="late")
    assert not run.exact, run.summary()
    with share_code_objects():      # (that build's code object: built_input kept it)
        rc = main([str(src), "--pipeline=pingpong", "--emulate", "--emulate-mode=late",
                   "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
