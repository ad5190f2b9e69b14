"""Odd trip counts: the pipelined loop runs the even part, a remainder loop the rest.

The example natural kernel (``examples/natural_kernel.py``) at K tiles of an odd count,
and with a trip count known only at run time, is pipelined, compiled and run on the
emulator (the first tile of C, memory completing as late as allowed, or at random): C is
exact, remainder included.  IREE's own kernels with an odd trip count are in
``test_tails_iree.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from kernel_builds import hsaco_and_lowered, pipeline_opt_hsaco
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.frontend.marks import ALIAS_ATTR, OWN_ATTR
from pipeline_mlir.frontend.partition import BufferLayout
from pipeline_mlir.frontend.remainder_plan import place as place_remainder
from pipeline_mlir.frontend.shared_remainder import untag as untag_remainder
from pipeline_mlir.frontend.tails import split_tail
from pipeline_mlir.frontend.tail_swizzle import resolve_swizzles, unswizzled_clone
from test_natural import run_text
from test_natural_emu import first_tile

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
from natural_kernel import kernel_text  # noqa: E402


@pytest.mark.parametrize("variant,tiles,mode", [
    ({}, 5, "late"),
    ({"swizzle": True}, 3, "random"),
    ({"func": "func", "lds": "alloc", "iv": "i32", "step": 2}, 7, "late"),
], ids=["default-5", "swizzle-3", "func-alloc-i32-step2-7"])
def test_odd_trip_count_is_exact(variant, tiles, mode):
    hsaco = pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=32 * tiles, **variant))
    C, ref = first_tile(hsaco, "bf16", mode, k=32 * tiles)
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"


@pytest.mark.parametrize("trips,mode", [
    (7, "late"), (6, "late"), (3, "late"), (2, "late"), (1, "late"), (0, "late"),
    (3, "random"), (2, "random"), (1, "random")])
def test_dynamic_trip_count_is_exact(trips, mode):
    """One code object, trip counts given at run time: odd, even, and below the
    schedule's pair (1 and 0: the pipelined loop is skipped, the remainder runs all)."""
    hsaco = pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=32 * 7, dynamic=True))
    C, ref = first_tile(hsaco, "bf16", mode, k=32 * 7, k_arg=32 * trips)
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"


#: a run-time trip count's bound made of a value that may differ between the waves: (the
#: lines defining %kthr, what the refusal says it depends on)
NOT_SHARED = (
    ("%kthr = arith.addi %K, %tid : index", "the thread ('gpu.thread_id' op at line"),
    ("%gid = gpu.global_id x\n    %kthr = arith.addi %K, %gid : index",
     "an op the rule does not know ('gpu.global_id' op at line"),
    ("%kthr = func.call @opaque() : () -> index",
     "an op the rule does not know ('func.call' op at line"))


def test_a_trip_count_the_waves_may_not_share_is_refused(capsys, tmp_path):
    """From the thread id, and from ops the workgroup-uniform rule does not know (a global
    thread id, a call's result): exit 1, the message at the loop naming the op (before the
    rule was an allow-list the address evaluator refused these two later, at the op)."""
    for lines, says in NOT_SHARED:
        text = kernel_text(k=32 * 7, dynamic=True).replace(
            "%kq = arith.divui %K, %c32 : index",
            lines + "\n    %kq = arith.divui %kthr, %c32 : index").replace(
            "  gpu.module @kernels {",
            "  gpu.module @kernels {\n    func.func private @opaque() -> index")
        assert "%kq = arith.divui %kthr" in text and "@opaque" in text
        rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
        assert rc == 1 and out == "" and "Traceback" not in err, err
        assert "has a trip count known only at run time that depends on " + says in err, err
        line = int(err.split(":")[1])
        assert "scf.for" in text.splitlines()[line - 1]


def test_dynamic_trip_count_guards_the_pipelined_loop(capsys, tmp_path):
    """The pipelined loop (prologue, loop, epilogue) runs inside ``scf.if (split > lb)``,
    the remainder loop after it from the ``scf.if``'s results, and no trap is left."""
    rc, out, err = run_text(capsys, tmp_path, kernel_text(k=32 * 7, dynamic=True),
                            "--pipeline=4wave")
    assert rc == 0, err
    guard = re.search(r"(%\S+) = arith\.cmpi sgt, (%\S+), (%\S+) : index", out)
    assert guard, out
    head = out[:out.index(f"scf.if {guard.group(1)} ->")]
    assert "scf.for" not in head and "llvm.intr.trap" not in out
    body = out[out.index(f"scf.if {guard.group(1)} ->"):]
    then, rest = body.split("} else {", 1)
    assert then.count("amdgpu.mfma") > 16 and "sched.remainder" not in then
    other, after = rest.split("}", 1)
    assert "amdgpu.mfma" not in other and "scf.yield" in other
    assert "sched.remainder" in after and after.count("amdgpu.mfma") == 16


def test_dynamic_trip_count_has_no_trap_in_code(capsys, tmp_path):
    out = tmp_path / "k.s"
    rc, _, err = run_text(capsys, tmp_path, kernel_text(k=32 * 7, dynamic=True),
                          "--pipeline=4wave", "--emit=asm", "-o", str(out))
    assert rc == 0, err
    asm = out.read_text()
    assert "s_trap" not in asm and "s_cbranch" in asm


def test_remainder_loop_follows_the_pipelined_loop(capsys, tmp_path):
    """127 K tiles: the schedule's loop runs 126 of them (prologue, 62 iterations,
    epilogue), a remainder loop the last, as written, on LDS buffers of its own, its
    accumulators from the epilogue; its 4 copies issued before the pipelined loop, beside
    the prologue's 8 (frontend/remainder_dma.py)."""
    rc, out, err = run_text(capsys, tmp_path, kernel_text(k=32 * 127), "--pipeline=4wave")
    assert rc == 0, err
    loops = re.findall(r"scf\.for (?:unsigned )?%\S+ = (%\S+) to (%\S+) step", out)
    assert len(loops) == 2, loops
    rem = out[out.rindex("scf.for"):]
    assert "sched.remainder" in rem and rem.count("amdgpu.mfma") == 16
    assert "sched.copies_ahead" in rem and "gpu.barrier" in rem
    assert rem.count("amdgpu.gather_to_lds") == 0
    assert out[:out.index("scf.for")].count("amdgpu.gather_to_lds") == 8 + 4
    consts = dict(re.findall(r"(%\S+) = arith\.constant (\d+) : index", out))
    assert consts[loops[1][0]] == "126" and consts[loops[1][1]] == "127", loops
    assert len(re.findall(r"memref\.alloc\(\)", out)) == 8 + 2   # the schedule's and its own


def test_remainder_loop_compiles_to_its_own_loop():
    """Every K tile's 16 MFMAs in the code object, the remainder's too: the 5-tile kernel
    ``test_odd_trip_count_is_exact[default-5]`` runs (one build per run), decoded."""
    kernel = load_kernel(pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=32 * 5)))
    assert sum(i.text.startswith("v_mfma") for i in kernel.instrs) == 16 * 5


@pytest.mark.parametrize("step", ["0", "-1"])
def test_step_not_positive_is_refused(capsys, tmp_path, step):
    text = kernel_text(k=32 * 5).replace("%st0 = arith.constant 1 : index",
                                         f"%st0 = arith.constant {step} : index")
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err
    assert f"has step {step}; the front end pipelines loops with a positive constant step" \
        in err, err
    line = int(err.split(":")[1])
    assert "scf.for" in text.splitlines()[line - 1]


BIG = ("memref<4096xbf16, #gpu.address_space<workgroup>>",
       "memref<16384xbf16, #gpu.address_space<workgroup>>")


def _big_kernel(**kw) -> str:
    """The natural kernel on LDS buffers of 32 KiB: two stages of each for the schedule
    (128 KiB) fit, a third copy for the remainder loop does not."""
    return kernel_text(src="buffer", **kw).replace(*BIG)


def test_remainder_shares_the_schedules_lds():
    """5 K tiles: the remainder runs the 5th on the schedule's stage-0 buffers (no LDS of
    its own), barrier, copies, vmcnt(0), barrier, reads, MFMAs, none of them tagged.  (The
    MLIR of the build ``test_shared_remainder_is_exact[5-late-variant0]`` runs, kept on
    the way: one build per run.)"""
    _, out = hsaco_and_lowered("4wave", _big_kernel(k=32 * 5))
    assert len(re.findall(r"memref\.alloc\(\)", out)) == 8   # the schedule's only
    end = out.index("sched.remainder")
    rem = out[out.rindex("scf.for", 0, end):end]
    assert rem.count("gpu.barrier") == 2 and rem.count("rocdl.s.waitcnt") == 1, rem
    assert rem.count("amdgpu.mfma") == 16 and rem.count("amdgpu.gather_to_lds") == 4, rem
    assert "sched.global_load" not in rem and "sched.frag_load" not in rem
    assert "sched.mma" not in rem and "sched.remainder_shared" not in out
    # its copies stay in their iteration (frontend/remainder_dma.py: the buffers are the
    # schedule's, which the pipelined loop still reads)
    said = out[out.rindex("}", 0, end):end + 200]
    assert ('sched.copies_in_place = "its copies stay in their iteration: a copy writes an '
            'LDS buffer that is not the remainder\'s own"') in said, said


@pytest.mark.parametrize("trips,mode,variant", [
    (5, "late", {}), (5, "random", {"swizzle": True}),
    (5, "late", {"func": "func", "lds": "alloc", "iv": "i32", "step": 2}), (None, "late", {})])
def test_shared_remainder_is_exact(trips, mode, variant):
    """A constant 5 K tiles, and (None) one code object with run-time trip counts 0, 1, 3
    and 7 (the pipelined loop skipped, or not, the remainder on its buffers)."""
    dyn = trips is None
    hsaco = pipeline_opt_hsaco("4wave", _big_kernel(k=32 * (7 if dyn else 5), dynamic=dyn,
                                                    **variant))
    for k_arg in ([0, 32, 96, 224] if dyn else [None]):
        C, ref = first_tile(hsaco, "bf16", mode, k=32 * (7 if dyn else 5), k_arg=k_arg)
        assert np.array_equal(C, ref), f"K {k_arg}: max error {np.nanmax(np.abs(C - ref))}"


def test_masked_remainder_lds_is_left_to_the_partition():
    """A remainder with masked copies keeps IREE's layout on buffers of its own: three
    copies of the 32 KiB buffers would not fit, so they are marked for the partition to
    count beside the schedule's or put on them (``aliased_remainder``), not refused here."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(kernel_text(k=32 * 5).replace(*BIG), ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        rem = split_tail(loop, peel_last=True)
        own = walk_ops(m.operation, lambda o: o.name == "memref.alloc"
                       and OWN_ATTR in o.attributes)
        assert rem is not None and len(own) == 2, str(m)


def test_an_aliased_buffer_no_schedule_buffer_holds_is_refused():
    """A remainder buffer larger than every free schedule buffer of its element type, with
    no LDS left to grow one (``%o``): an error at the loop naming the buffer."""
    text = """
func.func @f() {
  %a = memref.alloc() {sched.remainder_aliased} : memref<8192xbf16, #gpu.address_space<workgroup>>
  %s = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
  %t = memref.alloc() : memref<16384xf16, #gpu.address_space<workgroup>>
  %o = memref.alloc() : memref<122880xi8, #gpu.address_space<workgroup>>
  return
}"""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        func = walk_ops(m.operation, lambda o: o.name == "func.func")[0]
        news = [o.results[0] for o in walk_ops(m.operation, lambda o: o.name == "memref.alloc")
                if ALIAS_ATTR not in o.attributes]
        buffers = {0: BufferLayout(0, (0,), None, new={(0, 0): news[0], (0, 1): news[1]})}
        inner = list(func.regions[0].blocks[0].operations)[0]
        with pytest.raises(IRError, match="needs an LDS buffer of 8192 x bf16 .* and neither "
                                          "it nor a free buffer of the schedule that large.*"
                                          "no remainder loop uses the buffer"):
            place_remainder(inner, buffers)


def test_shared_remainder_refuses_a_register_staged_copy():
    text = """
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    arith.addi %i, %i {sched.register_staged, sched.global_load = {}} : index
  }
  return
}
"""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        with pytest.raises(IRError, match="the remainder loop on the schedule's LDS buffers "
                                          "takes direct-to-LDS copies"):
            untag_remainder(loop, {"sched.global_load"})


SWIZZLED = """
func.func @f(%i: index, %v: vector<8xbf16>) -> vector<{n}xbf16> {{
  %a = memref.alloc() {{iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>}}
      : memref<4096xbf16, #gpu.address_space<workgroup>>
  %x = {op}
  return %x : vector<{n}xbf16>
}}
"""


@pytest.mark.parametrize("n,op,message", [
    (8, "memref.load %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>\n"
        "  %y = vector.broadcast %x : bf16 to vector<8xbf16>",
     "applies the swizzle to vector loads, stores and transfers only"),
    (4, "memref.subview %a[0] [2048] [2] : memref<4096xbf16, #gpu.address_space<workgroup>> "
        "to memref<2048xbf16, strided<[2]>, #gpu.address_space<workgroup>>\n"
        "  %p = arith.constant 0.0 : bf16\n"
        "  %y = vector.transfer_read %x[%i], %p {in_bounds = [true]} : memref<2048xbf16, "
        "strided<[2]>, #gpu.address_space<workgroup>>, vector<4xbf16>",
     "accesses an XOR-swizzled LDS buffer with rows that are not contiguous"),
])
def test_swizzled_remainder_buffer_refusals(n, op, message):
    text = SWIZZLED.format(n=n, op=op)
    if "broadcast" in op or "subview" in op:
        text = text.replace("return %x", "return %y")
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        alloc = next(o for o in m.body.operations[0].regions[0].blocks[0].operations
                     if o.operation.name == "memref.alloc").operation
        new, sw = unswizzled_clone(alloc)
        assert sw == (64, 8) and "iree_codegen.swizzle" not in new.owner.attributes
        alloc.results[0].replace_all_uses_with(new)
        with pytest.raises(IRError, match=re.escape(message)):
            resolve_swizzles({new: sw})


def _resolved(text: str) -> str:
    """``text`` with its one swizzled alloc cloned without the swizzle and every access of it
    swizzled explicitly (:func:`resolve_swizzles`)."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        ops = m.body.operations[0].regions[0].blocks[0].operations
        alloc = next(o for o in ops if o.operation.name == "memref.alloc").operation
        new, sw = unswizzled_clone(alloc)
        alloc.results[0].replace_all_uses_with(new)
        resolve_swizzles({new: sw})
        return str(m)


PART_CHUNK = """
func.func @f(%i: index, %v: vector<4xbf16>) -> vector<8xbf16> {
  %a = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>}
      : memref<4096xbf16, #gpu.address_space<workgroup>>
  vector.store %v, %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
  %x = vector.load %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %x : vector<8xbf16>
}
"""


def test_a_part_chunk_access_leaves_the_buffer_plain():
    """A buffer written 4 elements at a time into 8-element chunks (IREE's register copies of
    a skinny tile at an unaligned K) is not swizzled by IREE, nor by the remainder loop:
    its whole-chunk read stays at its own address too; with the write widened to a whole
    chunk both are swizzled."""
    body = _resolved(PART_CHUNK)
    assert "arith.xori" not in body and "extract_strided_metadata" not in body, body
    assert "vector<4xbf16>" in body and body.count("vector.load") == 1, body
    whole = _resolved(PART_CHUNK.replace("%v: vector<4xbf16>", "%v: vector<8xbf16>")
                      .replace("vector<4xbf16>\n  %x", "vector<8xbf16>\n  %x"))
    assert whole.count("arith.xori") == 2, whole


PART_DMA = """
func.func @f(%v: vector<4xbf16>, %arg: index) -> vector<4xbf16>
    attributes {known_block_size = array<i32: 64, 1, 1>} {
  %c8 = arith.constant 8 : index
  %cat = arith.constant AT : index
  %t = gpu.thread_id x
  %r = arith.muli %t, %c8 : index
  %i = arith.addi %r, %cat : index
  %a = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>}
      : memref<4096xbf16, #gpu.address_space<workgroup>>
  %g = memref.alloc() : memref<4096xbf16>
  amdgpu.gather_to_lds %g[%r], %a[%r] : vector<8xbf16>, memref<4096xbf16>,
      memref<4096xbf16, #gpu.address_space<workgroup>>
  %x = vector.load %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
  return %x : vector<4xbf16>
}
"""


@pytest.mark.parametrize("at", [0, 2, 4])
def test_a_part_chunk_read_of_a_dma_filled_buffer_is_swizzled_inside_its_chunk(at):
    """A buffer a direct-to-LDS copy fills from swizzled source addresses is laid out
    swizzled whatever reads it: a read of 4 elements of its 8-element chunks (a read the
    front end halved along K) that stays inside one chunk in every thread is one load at
    the swizzled element (the XOR moves whole chunks)."""
    body = _resolved(PART_DMA.replace("AT", str(at)))
    assert body.count("arith.xori") == 1 and "vector<4xbf16>" in body, body
    assert body.count("vector.load") == 1 and "extract_strided_metadata" in body, body


@pytest.mark.parametrize("edit,why", [
    (("AT", "6"), "a row starts at element 6 of a chunk"),
    (("%i = arith.addi %r, %cat", "%i = arith.addi %r, %arg"),
     "its address is not one of the thread ids alone"),
    (("known_block_size = array<i32: 64, 1, 1>", "foo"),
     "the kernel states no workgroup size"),
], ids=["crosses", "argument", "no-size"])
def test_a_part_chunk_read_of_a_dma_filled_buffer_that_may_cross_is_refused(edit, why):
    """The same read 6 elements into its chunk crosses into the next one, and one at an
    address of a function argument, or in a kernel that states no workgroup size, may: IREE
    would leave the buffer plain and its reads would miss the copy's layout, so the
    remainder refuses it at the read, saying why it could not swizzle it itself.  The
    buffer's whole-chunk accesses alone are swizzled."""
    text = PART_DMA.replace(*edit).replace("AT", "4")
    with pytest.raises(IRError, match=re.escape(
            "accesses 4 elements per row of an XOR-swizzled LDS buffer whose chunks are 8 "
            "elements, which IREE then leaves unswizzled, but 'amdgpu.gather_to_lds' op")
            + ".*" + re.escape(why)):
        _resolved(text)
    whole = PART_DMA.replace("AT", "0").replace("vector<4xbf16>", "vector<8xbf16>")
    assert _resolved(whole).count("arith.xori") == 1


def test_swizzled_read_is_rewritten():
    """A read of two chunks from a 2-D view: one swizzled vector.load per chunk."""
    text = """
func.func @f(%r: index) -> vector<2x8xbf16> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : bf16
  %a = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>}
      : memref<4096xbf16, #gpu.address_space<workgroup>>
  %e = memref.expand_shape %a [[0, 1]] output_shape [64, 64]
      : memref<4096xbf16, #gpu.address_space<workgroup>>
        into memref<64x64xbf16, #gpu.address_space<workgroup>>
  %x = vector.transfer_read %e[%r, %c0], %p {in_bounds = [true, true]}
      : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2x8xbf16>
  return %x : vector<2x8xbf16>
}
"""
    body = _resolved(text)
    assert "vector.transfer_read" not in body and body.count("vector.load") == 2
    assert body.count("arith.xori") == 2 and "extract_strided_metadata" in body
    # a swizzled buffer of two dimensions, read twice: one 1-D view of it for both reads,
    # right after the buffer (kernel_ir.collapsed), before the reads that use it
    two_d = text.replace("memref<4096xbf16, #gpu.address_space<workgroup>>\n  %e",
                         "memref<64x64xbf16, #gpu.address_space<workgroup>>\n  %e")
    two_d = re.sub(r"%e = memref.expand_shape .*?into (memref<64x64xbf16, [^>]*>>)",
                   r"%e = memref.cast %a : \1 to \1", two_d, flags=re.S)
    two_d = two_d.replace("return %x : vector<2x8xbf16>",
                          "%y = vector.load %e[%r, %c0] : memref<64x64xbf16, "
                          "#gpu.address_space<workgroup>>, vector<8xbf16>\n"
                          "  return %x : vector<2x8xbf16>")
    assert "memref.cast" in two_d and two_d != text
    body = _resolved(two_d)
    lines = [ln.strip() for ln in body.splitlines()]
    at = [i for i, ln in enumerate(lines) if "memref.collapse_shape" in ln]
    assert len(at) == 1 and "memref.alloc()" in lines[at[0] - 1], body
    assert "4096xbf16" in lines[at[0]] and body.count("vector.load") == 3, body


WIDE = """
func.func @f(%i: index, %v: vector<16xbf16>) -> vector<16xbf16> {
  %a = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>}
      : memref<4096xbf16, #gpu.address_space<workgroup>>
  vector.store %v, %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<16xbf16>
  %x = vector.load %a[%i] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<16xbf16>
  return %x : vector<16xbf16>
}
"""


def test_an_access_of_two_chunks_is_swizzled_per_chunk():
    """A read and a write of 16 elements over chunks of 8 (IREE's fp8 reads of 32 over 16):
    one swizzled access per chunk, the second at the element after the first chunk, each
    chunk's address swizzled on its own; the read's chunks put back in order."""
    body = _resolved(WIDE)
    assert body.count("vector.load") == 2 and body.count("vector.store") == 2, body
    assert body.count("arith.xori") == 4 and "vector<16xbf16>, vector<8xbf16>" not in body
    assert body.count("vector.extract_strided_slice") == 2, body
    assert re.search(r"insert_strided_slice %\w+, %\w+ offsets = \[8\]", body), body
    assert re.search(r"extract_strided_slice %\w+ offsets = \[8\], sizes = \[8\]", body), body
