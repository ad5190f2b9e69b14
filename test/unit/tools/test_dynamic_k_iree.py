"""What ``iree-compile`` 3.13 writes for gfx950 when K is known only at run time.

A ``linalg.matmul`` of ``tensor<4096x?xbf16>`` operands (``C = A x B^T``, M = N = 4096, K
dynamic) is not IREE's MFMA kernel at all: its default configuration multiplies with
per-thread ``vector.contract``s of 1x1 by 8x1 elements, no LDS and no MFMA (64x16 threads),
refused at the contract at the prefetch point and, with the same reason, at the FMA it is
lowered to in the late form (before the twelfth sweep: nothing to pipeline, at the module).
Forcing IREE's default MFMA configuration (a ``compilation_info``) gives a K-loop of run-time
trip count ``ceildiv(K, 32)`` whose copies are per-thread loops of element copies through
registers, masked by the K left, into LDS allocated inside the loop with the K left as
its size.  The front end allocates that LDS once at its bound (``affine.min(K - 32 iv,
32)``: 32 columns, ``frontend/lds_bounds.py``; checked here on IREE's kernel: the rewritten
IR verifies and the allocations are gone from the loop), and in the loop to pipeline (its masked
last K tile peeled, the masks proven full for every K) the K left is pinned to 32, so
the per-thread copy loops have one trip count in every thread and are unrolled into
copies through registers (``frontend/thread_loops.py``).  Each whole LDS tile IREE copies
into private memory to read its fragments from is read in place
(``frontend/private_stage.py``).  Each thread's accumulators, kept in LDS across
iterations, are carried in registers (``frontend/lds_accumulators.py``, one ``iter_arg``
per MFMA: ``frontend/carried_pieces.py``).  Each fragment read needs the data of two
copies, so the front end makes the copies itself; the row stride (K) is proven a multiple
of one element only, so they stay copies through registers (a buffer load of any
alignment) from a fat raw buffer of each binding, and the kernel is pipelined, IREE's
loop running the K tiles after the pipelined one.  That loop stages each tile in private
memory through a mask of the K left; it too reads its fragments from the LDS tile, each
read selected by the mask (``frontend/masked_stage.py``), so the kernel has no scratch.  The late form (from the same
``iree-compile`` run) gets the same schedule: there the copy loops copy element by element
(each made one load and store of 8 elements), the LDS tiles are staged into private memory
row by row with ``vector.maskedload`` (the masked tile peeled, the masks proven full, the
K left pinned to 32 in the copy loops' bounds), and each accumulator element kept in LDS is
one ``vector<1xf32>`` load and store (carried, then regrouped per MFMA); mutants of each
of those idioms are refused at the op.  Mutants
of the copy loops (threads with different trip counts, a step other than the workgroup's
threads, a bound of the workgroup or of K) are refused at the loop; so are mutants of the private
staging (the tile written between its copy and a read, no barrier after the reads) and of the
LDS accumulators (written back elsewhere, shared between threads, at an address of the
workgroup), and so is the barrier before the K-loop, which orders IREE's zeroing of those
accumulators against their reads the front end moves to the loop's entry, when it is not
an ordering point (bare with no ``lgkmcnt(0)`` before it, fenceless, removed).  Each refusal is located, exit 1, no traceback.  (The front
end's run-time trip-count path, with its guard, is tested on the natural kernel:
``test_tails.py``, and with masked copies of the K left: ``test_masked_dynamic_k.py``.)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.driver.emulate import read_dispatch
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_steady, counting_loops

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
sys.path.insert(0, str(ROOT / "test" / "unit"))
import generate as G  # noqa: E402
from dynamic import dynamic_k_source  # noqa: E402
from kernel_builds import built_schedule, hsaco_and_lowered  # noqa: E402

@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return G.form_files(tmp_path_factory.mktemp("iree_dynk"),
                        lambda name: dynamic_k_source(name == "forced"))


def _refusal(tmp_path, capsys, text: str) -> tuple[str, str]:
    """(the error, the line it points at) of ``text`` refused by ``--pipeline=4wave``."""
    src = tmp_path / "m.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), "-o", "-"])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and "Traceback" not in err, err
    m = re.match(rf"{re.escape(str(src))}:(\d+):\d+: error: sched-adopt-loop: ", err)
    assert m, err
    return err, text.splitlines()[int(m.group(1)) - 1]


@pytest.mark.parametrize("name,form,op,reason", [
    ("default", "prefetch", "vector.contract",
     "multiplies in registers inside the K-loop, with no amdgpu.mfma and no LDS in the "
     "kernel: its matmul was compiled without an MFMA configuration"),
    ("default", "late", "math.fma",
     "multiplies in registers inside the K-loop, with no amdgpu.mfma and no LDS in the "
     "kernel: its matmul was compiled without an MFMA configuration"),
])
def test_dynamic_k_kernel_is_refused_at_the_op(kernels, name, form, op, reason, capsys):
    src = kernels(name, form)
    text = src.read_text()
    assert "amdgpu.mfma" in text if name == "forced" else "amdgpu.mfma" not in text
    rc = main(["--pipeline=4wave", str(src), "-o", "-"])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and "Traceback" not in err, err
    m = re.match(rf"{re.escape(str(src))}:(\d+):\d+: error: sched-adopt-loop: ", err)
    assert m and reason in err and f"'{op}' op" in err, err
    assert op in text.splitlines()[int(m.group(1)) - 1]


def test_dynamic_k_kernel_is_pipelined_at_the_prefetch_point(kernels):
    """IREE's forced kernel at the prefetch point: the front end's copies of A and B (rows
    of K elements, K proven a multiple of 1 only) are staged through registers from a fat
    raw buffer of each binding (16-byte loads of any alignment, then LDS stores), the
    pipelined loop's loads issued an iteration ahead (its trip count known only at run
    time: the first loads guarded by ``lb < ub``); IREE's loop runs the K tiles after the
    pipelined one with its LDS allocated once, in the kernel's entry block, and its
    ``memref.copy`` left for IREE's lowering.  (``--emit=mlir``'s output, kept by the
    build ``pipelined`` makes.)"""
    out = hsaco_and_lowered("4wave", kernels("forced", "prefetch").read_text())[1]
    casts = re.findall(r"(%\w+) = amdgpu\.fat_raw_buffer_cast %\w+ resetOffset : "
                       r"memref<4096x\?xbf16, #hal\.descriptor_type<storage_buffer>>", out)
    assert len(casts) == 2, out
    for c in casts:   # 4 loads per K tile and operand: the prologue's, the first
        # iteration's (before the loop, guarded) and the loop's (for the next iteration)
        assert len(re.findall(rf"vector\.load {c}\[.*vector<8xbf16>", out)) == 12
    (loop,) = [ln for ln in out.splitlines() if " = scf.for " in ln and "bf16>" in ln
               and "to %c" not in ln]
    assert loop.split("-> (")[1].count("vector<8xbf16>") == 8, loop   # carried ahead
    assert out.count("vector.store %arg") == 8
    assert "gather_to_lds" not in out and "sched.register_staged" not in out
    assert "memref.alloc(%" not in out and out.count("memref.copy") == 2
    assert out.count("memref.alloc() : memref<128x32xbf16, #gpu.address_space<workgroup>>") == 2
    # IREE's loop after it reads its fragments from LDS too, masked by the K left
    assert "#gpu.address_space<private>" not in out
    rem = out[out.rindex(" = scf.for "):out.index("sched.remainder}")]
    assert len(re.findall(r"= vector\.create_mask %\w+ : vector<8xi1>", rem)) == 2
    assert len(re.findall(r"= arith\.select %\w+, %\w+, %\w+ : vector<4x1x1x8xi1>, "
                          r"vector<4x1x1x8xbf16>", rem)) == 2


@pytest.fixture(scope="module")
def pipelined(kernels):
    """``get(form)``: (IREE's forced kernel in ``form``, its code object pipelined by
    ``--pipeline=4wave``), built once per run (with its schedule: ``built_schedule``)."""
    def get(form: str) -> tuple[str, bytes]:
        text = kernels("forced", form).read_text()
        return text, hsaco_and_lowered("4wave", text)[0]
    return get


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_dynamic_k_kernel_needs_no_scratch(pipelined, form):
    """IREE's loop kept as the remainder reads the masked last K tile from LDS, not
    through private memory: the code object has no scratch (it had 16 KiB per lane, 1024
    ``scratch_store_dwordx4`` and 256 VGPRs) and fewer than 256 VGPRs."""
    from pipeline_mlir.isa.codeobject import read_code_object
    _text, code = pipelined(form)
    co = read_code_object(code)
    (k,) = co.kernels.values()
    assert k.fields["private_segment_fixed_size"] == 0
    (meta,) = co.metadata["amdhsa.kernels"]
    assert meta[".private_segment_fixed_size"] == 0 and meta[".vgpr_count"] < 256, meta
    assert not any(i.name.startswith("scratch_") for i in load_kernel(code).instrs)


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_dynamic_k_main_loop_counts_on_32_bits(pipelined, form):
    """The split of the run-time trip count is clamped to the positions a 32-bit counter
    reaches (``tails.clamp_split``; the K tiles past it, for a K above 2**37, run in the
    remainder loop), so the pipelined loop runs on an unsigned ``i32`` counter: its exit
    test and the clamp of the staged loads' next position are scalar 32-bit compares.
    Before, the bound sat in a VGPR pair and each iteration ran ``s_add_u32``,
    ``s_addc_u32`` and a ``v_cmp_lt_u64``."""
    from steady_loop import main_back_edge
    _text, code = pipelined(form)
    kernel = load_kernel(code)
    edge, header = main_back_edge(kernel)
    loop = [i.name for i in kernel.instrs[header:edge + 1]]
    assert sum(n.startswith("v_mfma") for n in loop) == 32, loop
    assert not [n for n in loop if re.match(r"v_cmp|s_addc|s_cmp\w*_u64", n)], loop
    assert any(re.fullmatch(r"s_cmp_\w+_[iu]32", n) for n in loop), loop


@pytest.mark.parametrize("form,break_it", [
    ("prefetch", ("= vector.create_mask %c128, ", "= vector.create_mask %c64, ")),
    ("late", ("vector.maskedload %alloc[%c1, %c0]", "vector.maskedload %alloc[%c2, %c0]")),
])
def test_campaign_reference_copies_private_tiles_by_rows(kernels, form, break_it):
    """The mutation campaign's unpipelined reference (``mutants.rolled``,
    ``test/data/iree/staging_loops.py``): each LDS tile IREE copies whole into private
    memory is copied by a loop of 128 rows (an unmasked load of the row of the 128x32 LDS
    buffer, selected by the row mask), which LLVM builds in about a second of CPU where the
    128 rows as written took ten; the module still verifies.  A copy made irregular (a
    mask that cuts rows, one row read from another) is left as written, and so is the
    other tile's copy only when it shares the change.  The row's select by the K-left mask
    (pass-through +0.0) is an AND of its words with the mask's bits, made once before the
    loop, which LLVM does not fold back into a select per element.  (Exact: the rolled
    reference's C equals the pipelined build's at K = 260 in both forms, run by hand, and
    at K = 197 and 203 in the late form, equal to A x B^T too: odd K left, a word's two
    halves masked apart; the campaign's dynk items compare it at K = 196.)"""
    import mutants as M
    text = kernels("forced", form).read_text()
    text = M.hoisted(text) if M.DYNAMIC_LDS.search(text) else text     # as the verdict
    out = M.rolled(text)
    assert out.count("scf.for %r_roll") == 2 and M.PRIVATE in out
    assert len(re.findall(r"= vector\.load %alloc\w*\[%si_roll\d, %c_roll\d\] : "
                          r"memref<128x32xbf16, #gpu\.address_space<workgroup>>", out)) == 2
    assert "vector.maskedload %alloc[%c5, %c0]" not in out
    assert len(re.findall(r"= arith\.andi %li_roll\d, %mb_roll\d : vector<16xi32>", out)) == 2
    assert not re.search(r"arith\.select %m\w*, %l_roll", out)
    with new_context() as ctx:
        ir.Module.parse(out, ctx).operation.verify()
    old, new = break_it
    assert old in text
    broken = M.rolled(text.replace(old, new, 1))
    assert broken.count("scf.for %r_roll") == (0 if form == "prefetch" else 1), form


def test_dynamic_k_late_form_gets_the_prefetch_forms_schedule(kernels):
    """The late form (element copy loops, LDS tiles read row by row with
    ``vector.maskedload`` into private memory, one ``vector<1xf32>`` load and store per
    accumulator element kept in LDS) is pipelined with the prefetch point's schedule
    (``--emit=schedule-json``'s, kept by the build ``pipelined`` makes of each form)."""
    schedules = [built_schedule("4wave", kernels("forced", form).read_text())
                 for form in ("prefetch", "late")]
    assert schedules[0] == schedules[1] and "\"phases\"" in schedules[0]


@pytest.mark.parametrize("form,k,mode", [
    ("prefetch", 256, "late"),  # 8 whole K tiles: the pipelined loop's body runs twice
    ("prefetch", 7, "random:3"),  # below one K tile: IREE's loop alone, masked
    ("prefetch", 260, "random:5"),  # the body runs, then a partial K tile, masked
    ("late", 260, "late"),  # 8 whole K tiles (the body runs twice), a partial one
    # the body runs, its waves in random order
    pytest.param("late", 256, "random:3", marks=pytest.mark.long(
        "the late form's body at K = 260 in late mode; this kernel at random: prefetch-260")),
])   # (also exact, run by hand: K = 160, 128, 100, 96, 64, 33, 32, 7 and 0, 100 at random;
#      late form: 160, 128, 100, 96, 64, 32, 7, 0 (late), 100 and 7 (random))
def test_dynamic_k_kernel_is_exact_at_run_time(pipelined, form, k, mode):
    """The pipelined kernel on the emulator as IREE launches it with K pushed at launch
    (the first workgroup; ``--emulate=4096,4096,K`` runs the same)."""
    text, code = pipelined(form)
    with new_context() as ctx:
        d, _ = read_dispatch(ir.Module.parse(text, ctx), "k.mlir", (4096, 4096, k))
    mode, _, seed = mode.partition(":")
    matmul = Matmul(4096, 4096, k, "bf16", True, d.constants)
    with counting_loops() as loops:
        run = emulate_matmul(load_kernel(code), matmul, d.grid, 1, mode, int(seed or 0))
    assert run.exact and run.contract == "memref", run.summary()
    if k >= 32:     # a whole K tile: the run goes round the steady loop
        assert_steady(loops)


def test_dynamic_k_lds_is_allocated_once_at_its_bound(kernels):
    """IREE's forced kernel at the prefetch point: both tiles sized by the K left in the
    iteration become views of one 128x32 buffer each, allocated before the loop."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.frontend.lds_hoist import hoist_iteration_lds
    from pipeline_mlir.frontend.scan import find_natural_loops
    text = kernels("forced", "prefetch").read_text()
    assert text.count("memref.alloc(%") == 2
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(text)
        (loop,) = find_natural_loops(m.operation)
        assert hoist_iteration_lds(loop) == 2
        assert m.operation.verify()
        body = str(loop)
        out = str(m)
    assert "memref.alloc" not in body and body.count("memref.reinterpret_cast") == 2
    assert out.count("memref.alloc() : memref<128x32xbf16, #gpu.address_space<workgroup>>") == 2
    assert "strides: [32, 1]" in body


@pytest.mark.parametrize("old,new,message", [
    ("((d0 ceildiv 8) * 128)", "((d0 ceildiv 8) * 96)",
     "whose threads run different numbers of iterations (thread 0: 2, thread 128: 1, of "
     "384 in steps of 256)"),
    ("to %32 step %c256", "to %32 step %c128", "of step 128, not the workgroup's 256 threads"),
    ("to %32 step %c256", "to %23 step %c256",
     "whose upper bound the front end cannot evaluate as one value for every thread "
     "(depends on the workgroup)"),
    ("to %32 step %c256", "to %19 step %c256",
     "whose upper bound the front end cannot evaluate as one value for every thread "
     "('hal.interface.constant.load' op: a value known only at launch"),
], ids=["uneven trips", "step", "workgroup bound", "launch bound"])
def test_copy_loop_mutants_are_refused_at_the_loop(kernels, tmp_path, capsys, old, new,
                                                   message):
    text = kernels("forced", "prefetch").read_text()
    assert old in text
    err, line = _refusal(tmp_path, capsys, text.replace(old, new, 1))
    assert re.search(r"sched-adopt-loop: 'scf.for' op at line \d+:\d+ is a per-thread loop in "
                     r"the K-loop", err) and message in err, err
    assert "scf.for %arg3 = %thread_id_x" in line


def _write_between(text: str) -> str:
    """The second copy loop writes the first operand's tile (read from private after)."""
    i = text.index("%subview_12 = memref.subview %alloc_9[")
    return text[:i] + text[i:].replace("memref.subview %alloc_9[", "memref.subview %alloc_10[", 1)


BARRIER = "gpu.barrier memfence [#gpu.address_space<workgroup>]\n"


def _no_body_barrier(text: str, start: str, end: str) -> str:
    """Every barrier of the K-loop's body (from ``start`` to ``end``) dropped."""
    i = text.index(start)
    j = text.index(end, i)
    return text[:i] + text[i:j].replace(BARRIER, "") + text[j:]


def _no_last_barrier(text: str) -> str:
    """The prefetch point's K-loop with no barrier in its body."""
    return _no_body_barrier(text, "scf.for %arg2 = %c0 to %25 step %c1 {",
                            "scf.for %arg2 = %c0 to %c4096 step %c256 {")


@pytest.mark.parametrize("mutate,op,message", [
    (_write_between, "memref.copy", "writes the LDS tile that a private copy stages, between "
                                    "that copy and a read of it"),
    (_no_last_barrier, "vector.transfer_read", "reads a private copy of an LDS tile with no "
                                               "barrier after it in the K-loop, whose body has "
                                               "none"),
], ids=["write between", "no barrier"])
def test_private_staging_mutants_are_refused_at_the_op(kernels, tmp_path, capsys, mutate, op,
                                                       message):
    err, line = _refusal(tmp_path, capsys, mutate(kernels("forced", "prefetch").read_text()))
    assert message in err and op in line, err


ACC_VIEW = "%subview = memref.subview %alloc[%38, %37, %45, %41]"
ACC_READ = "vector.transfer_read %alloc[%38, %37, %45, %41]"


@pytest.mark.parametrize("view,read,op,message", [
    ("%37, %38, %45, %41", "%38, %37, %45, %41", "vector.transfer_write",
     "writes an accumulator kept in LDS back to other elements than 'vector.transfer_read' "
     "op at line"),
    ("%38, %37, %45, %c0", "%38, %37, %45, %c0", "vector.transfer_read",
     "reads an accumulator kept in LDS of which two threads (or two elements) share an "
     "element"),
    ("%38, %37, %45, %24", "%38, %37, %45, %24", "vector.transfer_read",
     "accesses an accumulator kept in LDS at an address that depends on the workgroup"),
], ids=["written elsewhere", "shared", "workgroup"])
def test_lds_accumulator_mutants_are_refused_at_the_op(kernels, tmp_path, capsys, view, read,
                                                       op, message):
    text = kernels("forced", "prefetch").read_text()
    assert ACC_VIEW in text and ACC_READ in text
    err, line = _refusal(tmp_path, capsys, text.replace(
        ACC_VIEW, f"%subview = memref.subview %alloc[{view}]").replace(
        ACC_READ, f"vector.transfer_read %alloc[{read}]"))
    assert message in err and op in line, err


@pytest.mark.parametrize("old,new,op,message", [
    ("%166 = vector.insert_strided_slice %150, %165 offsets = [3, 3, 0, 0]",
     "%166 = vector.insert_strided_slice %150, %165 offsets = [3, 2, 0, 0]", "amdgpu.mfma",
     "its accumulator is neither an iter_arg of the loop nor the result of an earlier MFMA"),
    ("%172 = arith.cmpi sgt, %169, %c0 : index", "%172 = arith.cmpi sgt, %169, %c128 : index",
     "scf.if", "this one, on the condition of the 'arith.cmpi' op at line 98:24, is not: it "
     "yields nothing, and its condition is not true for every thread"),
], ids=["a piece not yielded", "a guard not always true"])
def test_what_is_not_proven_is_left_for_the_scan(kernels, tmp_path, capsys, old, new, op,
                                                 message):
    """A carried vector whose yield leaves a piece as it was is carried whole, and a copy
    guard false for some thread stays an ``scf.if``: the scan refuses each at its op."""
    text = kernels("forced", "prefetch").read_text()
    assert old in text
    err, line = _refusal(tmp_path, capsys, text.replace(old, new, 1))
    assert f"sched-adopt-loop: '{op}' op" in err and message in err and op in line, err


def _late_no_barrier(text: str) -> str:
    """The late form's K-loop with no barrier in its body."""
    return _no_body_barrier(text, "scf.for %arg0 = %c0 to %26 step %c1 {",
                            "scf.for %arg0 = %c0_i32 to %c4096_i32")


ACC_STORE = "vector.store %524, %alloc_5[%316, %337, %38, %34]"
ACC_LOAD = "%357 = vector.load %alloc_5[%316, %337, %38, %34]"


@pytest.mark.parametrize("edits,op,message", [
    ([(ACC_STORE, ACC_STORE.replace("%34]", "%c0]"))], "vector.store",
     "writes an accumulator kept in LDS back to other elements than 'vector.load' op"),
    ([(ACC_STORE, ACC_STORE.replace("%34]", "%c0]")), (ACC_LOAD, ACC_LOAD.replace("%34]", "%c0]"))],
     "vector.load", "reads an accumulator kept in LDS of which two threads (or two elements) "
                    "share an element"),
    ([("%58 = vector.create_mask %48", "%58 = vector.create_mask %c16")], "vector.maskedload",
     "may be masked to fewer than 32 elements in thread 0 in an iteration before the last"),
    ([("%21 = arith.subi %14#0, %c1 : index", "%21 = arith.subi %14#0, %c2 : index")],
     "vector.maskedload", "has a mask the front end cannot prove full where the pipelined "
                          "loop runs, for every K (a launch value other than the one the trip "
                          "count comes from)"),
    ([("memref.store %669, %alloc[%651, %670]", "memref.store %669, %alloc[%651, %666]")],
     "scf.for", "with regions inside the K-loop"),
    pytest.param([("%669 = memref.load %assume_align_7[%664, %668] : memref<4096x?xbf16, "
                   "#gpu.address_space<global>>", "%669 = memref.load %alloc_4[%651, %668] : "
                   "memref<128x32xbf16, #gpu.address_space<workgroup>>")], "scf.for",
                 "with regions inside the K-loop", marks=pytest.mark.long(
                     "the same refusal at the same loop: element copy not contiguous")),
    ([("vector.store %60, %alloca_6[%c1, %c0]", "vector.store %60, %alloca_6[%c2, %c0]")],
     "vector.store", "has side effects the pipeliner cannot move (writes private)"),
    (_late_no_barrier, "vector.load", "reads a private copy of an LDS tile with no barrier "
                                      "after it in the K-loop, whose body has none"),
    ([("memref.store %669, %alloc_4[%651, %670]", "memref.store %669, %alloc[%651, %670]")],
     "memref.store", "writes the LDS tile that a private copy stages, between that copy and "
                     "a read of it"),
], ids=["accumulator written elsewhere", "accumulator shared", "mask short", "not a ceildiv",
        "element copy not contiguous", "element copy within LDS", "a row staged twice",
        "no barrier", "a tile written between"])
def test_late_form_mutants_are_refused_at_the_op(kernels, tmp_path, capsys, edits, op,
                                                 message):
    """Mutants of the late form's idioms: the accumulator pieces (written back elsewhere,
    shared), the LDS rows' mask (short before the last K tile; K's ceildiv not IREE's, so
    the mask's K is not the trip count's), an element copy loop whose elements are not
    contiguous or that copies within LDS (left a loop), a private tile not staged whole
    (left a private write), a body with no barrier to order the forwarded reads: each
    refused at its op."""
    text = kernels("forced", "late").read_text()
    if callable(edits):
        new = edits(text)
    else:
        new = text
        for old, rep in edits:
            assert old in new
            new = new.replace(old, rep, 1)
    assert new != text
    err, line = _refusal(tmp_path, capsys, new)
    assert message in err and op in line, err


#: the K-loop's first line in each form (the barrier before it orders IREE's zeroing of the
#: accumulators it keeps in LDS against their reads)
K_LOOP = {"late": "scf.for %arg0 = %c0 to %26 step %c1 {",
          "prefetch": "scf.for %arg2 = %c0 to %25 step %c1 {"}
LGKM0, VM0 = "rocdl.s.waitcnt 49279", "rocdl.s.waitcnt 3952"   # lgkmcnt(0); vmcnt(0)


def _entry_barrier(text: str, form: str, lines: list) -> str:
    """``text`` with the barrier just before the K-loop replaced by ``lines``."""
    rows = text.splitlines()
    at = next(i for i, r in enumerate(rows) if r.strip() == K_LOOP[form])
    assert rows[at - 1].strip() == "gpu.barrier memfence [#gpu.address_space<workgroup>]"
    pad = rows[at - 1][:len(rows[at - 1]) - len(rows[at - 1].lstrip())]
    return "\n".join(rows[:at - 1] + [pad + x for x in lines] + rows[at:]) + "\n"


@pytest.mark.parametrize("form,lines,op,message", [
    ("late", ["rocdl.s.barrier"], "rocdl.s.barrier",
     "waits for none of the wave's memory operations (gfx950's s_barrier does not drain the "
     "wave's counters), and it is the only barrier between 'vector.store' op"),
    ("prefetch", ["rocdl.s.barrier"], "rocdl.s.barrier", "an LDS write before the K-loop, "
     "and 'vector.transfer_read' op"),
    ("late", [VM0, "rocdl.s.barrier"], "rocdl.s.barrier",
     "no rocdl.s.waitcnt with lgkmcnt(0) comes between them"),
    ("late", ["gpu.barrier memfence []"], "gpu.barrier",
     "'gpu.barrier' op (memfence []) fences no workgroup memory"),
    ("late", [], "vector.load", "with no barrier between them on the way into the loop"),
], ids=["bare", "bare prefetch", "bare after vmcnt", "no fence", "removed"])
def test_entry_barrier_mutants_are_refused_at_the_barrier(kernels, tmp_path, capsys, form,
                                                          lines, op, message):
    """The barrier before the K-loop orders IREE's zeroing of the accumulators it keeps in
    LDS against their reads, which the front end moves to the loop's entry (inside the
    loop the kernel's own barriers ordered them): a bare one with no wait for the zeroing
    stores, one that fences no workgroup memory, or none, is refused (the mutation
    campaign's dynk seed 3 mutant 3 was taken and raced)."""
    new = _entry_barrier(kernels("forced", form).read_text(), form, lines)
    err, line = _refusal(tmp_path, capsys, new)
    assert message in err and op in line and "a read of LDS that the front end moves to " \
        "the loop's entry" in err, err


def test_entry_barrier_behind_its_wait_is_taken(kernels, tmp_path, capsys):
    """A bare barrier before the K-loop behind ``lgkmcnt(0)`` orders the zeroing stores: the
    kernel pipelines (run exact on the emulator by the mutation campaign, docs)."""
    src = tmp_path / "m.mlir"
    src.write_text(_entry_barrier(kernels("forced", "late").read_text(), "late",
                                  [LGKM0, "rocdl.s.barrier"]))
    rc = main(["--pipeline=4wave", str(src), "-o", "-"])
    out, err = capsys.readouterr()
    assert rc == 0 and "sched.group" in out, err   # the schedule's groups: pipelined


def test_a_batch_with_k_at_launch_is_pipelined_and_exact(tmp_path, capsys):
    """IREE's bf16 batch 2 x 128x128xK, K known at launch (the fourth audit's,
    docs/iree-audits.md): the front end's own copies of its rows of launch-time stride,
    checked per dimension against the kernel's, the batch's index one number for every
    lane (an internal error before, from both forms); the prefetch point exact (late mode,
    K = 160: the pipelined loop, then the remainder; the late form, with the same
    schedule, by hand)."""
    (tmp_path / "k.mlir").write_text(G.prefetch_point(dynamic_k_source(batch=2, size=128)))
    rc = main(["--pipeline=4wave", "--emulate=128,128,160", str(tmp_path / "k.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out and "A 2x128x160xbf16" in out, out + err
