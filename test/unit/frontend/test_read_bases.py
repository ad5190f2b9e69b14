"""Fragment reads sharing one address base (``pipeline_mlir/frontend/read_bases.py``).

An index that is, for every thread, an earlier one's plus a non-negative constant becomes
that sum; one that differs per thread, depends on the workgroup or on a kernel argument,
or lies below every earlier index keeps its own arithmetic; kernels of at most one wave per
SIMD, and the ping-pong schedule's, are not changed.  A DMA copy's LDS index that is one
value per wave goes through ``rocdl.readfirstlane`` before the loop, its ops with it.  (That the 8- and 16-wave kernels so
built stay exact: ``test/unit/tools/test_iree_config_waves.py``.)
"""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.analysis.loop_eval import Evaluator, Unevaluable
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.adopt import Ix
from pipeline_mlir.frontend.read_bases import ReadBases
from pipeline_mlir.schedules.registry import parse_pipeline

@pytest.fixture(scope="module")
def ctx():
    """One MLIR context for the module's tests (each parses its own module in it)."""
    with new_context() as c, ir.Location.unknown(c):
        yield c


KERNEL = """
gpu.module @m {
  gpu.func @k(%n: index) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %w = gpu.block_id x
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c7 = arith.constant 7 : index
    %base = arith.muli %t, %c8 : index
    %far = arith.addi %base, %c64 : index
    %mixed = arith.xori %t, %c7 : index
    %wg = arith.addi %base, %w : index
    %arg = arith.addi %base, %n : index
    %below = arith.subi %far, %c64 : index
    gpu.return
  }
}
"""


def test_reads_a_constant_apart_share_their_base(ctx):
    m = ir.Module.parse(KERNEL, ctx)
    (fn,) = walk_ops(m.operation, lambda o: o.name == "gpu.func")
    names = ("%t", "%w", "%c8", "%c64", "%c7", "%base", "%far", "%mixed", "%wg", "%arg",
             "%below")      # the ops' results in KERNEL's order
    ops = walk_ops(fn, lambda o: o.name.startswith(("arith.", "gpu.thread", "gpu.block")))
    v = {n: o.results[0] for n, o in zip(names, ops, strict=True)}
    ret = walk_ops(fn, lambda o: o.name == "gpu.return")[0]
    ix = Ix(ir.InsertionPoint(ret))
    with ir.InsertionPoint(ret):
        four = parse_pipeline("4wave")
        bases = ReadBases((512, 1, 1), four)
        assert bases.index(v["%base"], ix) == v["%base"]
        shared = bases.index(v["%far"], ix)       # %base + 64 for every thread
        assert shared != v["%far"] and shared.owner.name == "arith.addi"
        assert list(shared.owner.operands)[0] == v["%base"]
        for own in ("%mixed", "%wg", "%arg"):      # per thread / workgroup / argument
            assert bases.index(v[own], ix) == v[own], own
        # equal to the first base: the base itself, no arithmetic
        assert bases.index(v["%below"], ix) == v["%base"]
        low = ReadBases((512, 1, 1), four)     # below the only base: its own
        low.index(v["%far"], ix)
        assert low.index(v["%base"], ix) == v["%base"]
        for spec, block in (("4wave", (256, 1, 1)), ("pingpong", (512, 1, 1))):
            off = ReadBases(block, parse_pipeline(spec))
            off.index(v["%base"], ix)
            assert off.index(v["%far"], ix) == v["%far"], spec
        # the evaluator's thread-only mode is what refuses them, at the op that is more
        # than the thread (the workgroup id, the kernel argument's block)
        for own, at in (("%wg", "gpu.block_id"), ("%arg", "gpu.func")):
            with pytest.raises(Unevaluable) as e:
                Evaluator((512, 1, 1), thread_only=True).value(v[own])
            assert e.value.op.name == at, own
    _wave_uniform_copy_indices(ctx)


LOOP = """
gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c1 {
      %w = arith.divui %t, %c64 : index
      %uniform = arith.muli %w, %c64 : index
      %lane = arith.remui %t, %c64 : index
      %iv = arith.addi %w, %i : index
    }
    gpu.return
  }
}
"""


def _wave_uniform_copy_indices(ctx) -> None:
    """A copy's LDS index one value per wave: read through ``readfirstlane`` before the
    loop, its ops moved there; one per lane, or of the loop's counter, or in a kernel of
    one wave per SIMD, as it is."""
    m = ir.Module.parse(LOOP, ctx)
    (loop,) = walk_ops(m.operation, lambda o: o.name == "scf.for")
    v = {n: o.results[0] for n, o in zip(("%w", "%uniform", "%lane", "%iv"),
                                          walk_ops(loop, lambda o: o.name.startswith("arith.")),
                                          strict=True)}
    for block, spec in (((256, 1, 1), "4wave"), ((512, 1, 1), "pingpong")):
        off = ReadBases(block, parse_pipeline(spec))
        assert off.wave_uniform(v["%uniform"], loop) == v["%uniform"], spec
    bases = ReadBases((512, 1, 1), parse_pipeline("4wave"))
    for own in ("%lane", "%iv"):
        assert bases.wave_uniform(v[own], loop) == v[own], own
    read = bases.wave_uniform(v["%uniform"], loop)
    first = read.owner.operands[0].owner
    assert read.owner.name == "arith.index_cast" and first.name == "rocdl.readfirstlane"
    outside = [o.name for o in loop.parent.regions[0].blocks[0].operations]
    i = outside.index("scf.for")
    assert outside[i - 5:i] == ["arith.divui", "arith.muli", "arith.index_cast",
                                "rocdl.readfirstlane", "arith.index_cast"], outside
    assert [o.name for o in loop.regions[0].blocks[0].operations] == \
        ["arith.remui", "arith.addi", "scf.yield"]
    assert loop.verify()


WRAPPING = """
gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %c60 = arith.constant 60 : index
    %big = arith.constant 2147483647 : i32
    %t8 = arith.index_cast %t : index to i8
    %narrow = arith.index_castui %t8 : i8 to index
    %neg = arith.subi %t, %c512 : index
    %shr = arith.shrui %neg, %c60 : index
    %far = arith.addi %t, %c64 : index
    %unsigned = arith.addi %far, %shr : index
    %t32 = arith.index_cast %t : index to i32
    %wide = arith.addi %t32, %big : i32
    %wrapped = arith.index_cast %wide : i32 to index
    gpu.return
  }
}
"""


def test_an_index_the_machine_would_wrap_keeps_its_own_arithmetic(ctx):
    """The evaluator computes exact, signed integers; an index whose machine value differs
    (a narrowing cast, an unsigned shift of a negative value, a sum that wraps i32) is
    equal to ``%t``-plus-a-constant only on paper, and keeps its own arithmetic."""
    m = ir.Module.parse(WRAPPING, ctx)
    names = ("%t", "%c64", "%c512", "%c60", "%big", "%t8", "%narrow", "%neg", "%shr",
             "%far", "%unsigned", "%t32", "%wide", "%wrapped")   # WRAPPING's order
    ops = walk_ops(m.operation, lambda o: o.name.startswith(("arith.", "gpu.thread")))
    values = {n: o.results[0] for n, o in zip(names, ops, strict=True)}
    ret = walk_ops(m.operation, lambda o: o.name == "gpu.return")[0]
    ix = Ix(ir.InsertionPoint(ret))
    with ir.InsertionPoint(ret):
        bases = ReadBases((512, 1, 1), parse_pipeline("4wave"))
        assert bases.index(values["%t"], ix) == values["%t"]
        for own in ("%narrow", "%unsigned", "%wrapped"):
            assert bases.index(values[own], ix) == values[own], own
        shared = bases.index(values["%far"], ix)      # the same sum, exact: shared
        assert shared != values["%far"] and shared.owner.name == "arith.addi"


FLAT = """
gpu.module @m {
  gpu.func @k(%g: memref<512x64xbf16, #gpu.address_space<global>>, %n: index)
      kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %w = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %wave = arith.divui %t, %c64 : index
    %lane = arith.remui %t, %c64 : index
    %row = arith.muli %wave, %c8 : index
    %wrow = arith.addi %row, %w : index
    %trow = arith.addi %t, %w : index
    %arow = arith.addi %row, %n : index
    %r = arith.divui %lane, %c8 : index
    %r8 = arith.addi %r, %c8 : index
    %r8a = arith.addi %r, %c8 : index
    %rw = arith.subi %r8a, %wave : index
    %k = arith.remui %lane, %c8 : index
    %col = arith.muli %k, %c8 : index
    %wave32 = arith.index_cast %wave : index to i32
    %c1_32 = arith.constant 1 : i32
    %c64_32 = arith.constant 64 : i32
    %moved32, %valid = gpu.shuffle xor %wave32, %c1_32, %c64_32 : i32
    %moved = arith.index_cast %moved32 : i32 to index
    %rl32 = rocdl.readlane %wave32, %c1_32 : (i32, i32) -> i32
    %rl = arith.index_cast %rl32 : i32 to index
    %loaded = affine.load %g[%w, 0] : memref<512x64xbf16, #gpu.address_space<global>>
    %fat = amdgpu.fat_raw_buffer_cast %g resetOffset : memref<512x64xbf16, #gpu.address_space<global>> to memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>>
    %s = memref.subview %fat[%wrow, 0] [16, 64] [1, 1] : memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x64xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    %st = memref.subview %fat[%trow, 0] [16, 64] [1, 1] : memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x64xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    %sa = memref.subview %fat[%arow, 0] [16, 64] [1, 1] : memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x64xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    %sr = memref.subview %fat[%rl, 0] [16, 64] [1, 1] : memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x64xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    scf.for %i = %c0 to %n step %c1 {
      %ki = arith.muli %i, %c8 : index
      %sk = memref.subview %fat[%wrow, %ki] [16, 8] [1, 1] : memref<512x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x8xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    }
    scf.forall (%fx, %fy) in (4, 64) {
      %sf = arith.addi %fx, %fy : index
    } {mapping = [#iree_codegen.workgroup_mapping<x>, #gpu.thread<x>]}
    gpu.return
  }
}
"""


def test_copies_read_a_flat_view_only_at_offsets_one_per_wave(ctx):
    """A DMA copy of a subview whose offsets are one value per wave (the wave's index,
    the workgroup id) reads a one-dimensional view at its lane's index (a first copy's)
    plus ``readfirstlane`` of the offset and of its own difference (a constant here);
    an offset that differs per lane (the thread id, a value moved between lanes, one
    loaded from memory) or comes from an op the workgroup-uniform rule does not know
    (``rocdl.readlane``, though of one value per wave: it reads a lane the wave may not
    run) is not proven one per wave, and the copy is left as it is; nor is
    a kernel of one wave per SIMD changed.  (The 8-wave kernel so rewritten and handed back, exact:
    test_iree_config_waves.py.)"""
    m = ir.Module.parse(FLAT, ctx)
    (fn,) = walk_ops(m.operation, lambda o: o.name == "gpu.func")
    names = re.findall(r"^\s*(%\w+) =", FLAT, re.M)
    v = {n: o.results[0] for n, o in zip(
        names, walk_ops(fn, lambda o: len(o.results) == 1), strict=True)}
    (loop,) = walk_ops(fn, lambda o: o.name == "scf.for")
    ki = v["%ki"]
    bases = ReadBases((512, 1, 1), parse_pipeline("4wave"))
    # a kernel argument (%arow) is one value for the launch: the workgroup-uniform
    # rule's, which the per-wave question shares (analysis/wg_uniform.py)
    for name, uniform in (("%wave", True), ("%w", True), ("%wrow", True), ("%c8", True),
                          ("%arow", True), ("%lane", False), ("%trow", False),
                          ("%loaded", False), ("%moved", False), ("%rl", False)):
        assert bases.uniform(v[name]) is uniform, name
    assert bases.uniform(ki)                 # of the loop's variable
    (forall,) = walk_ops(fn, lambda o: o.name == "scf.forall")
    fx, fy = forall.regions[0].blocks[0].arguments   # a mapping that mixes threads in
    assert not bases.uniform(fx) and not bases.uniform(fy)
    with ir.InsertionPoint(ki.owner):
        assert bases.flat_source(v["%st"], [v["%r"], v["%col"]], loop) is None
        assert bases.flat_source(v["%sr"], [v["%r"], v["%col"]], loop) is None
        flat, (first,) = bases.flat_source(v["%s"], [v["%r"], v["%col"]], loop)
        assert str(flat.type) == "memref<32768xbf16, #amdgpu.address_space<fat_raw_buffer>>"
        flat2, (second,) = bases.flat_source(v["%s"], [v["%r8"], v["%col"]], loop)
        assert flat2 == flat
        off = ReadBases((256, 1, 1), parse_pipeline("4wave"))
        assert off.flat_source(v["%s"], [v["%r"], v["%col"]], loop) is None
    with ir.InsertionPoint.after(v["%sk"].owner):  # a K column of the loop's
        flat3, (third,) = bases.flat_source(v["%sk"], [v["%r"], v["%k"]], loop)
        # 8 - wave rows past the first copy's: one per wave, but negative in the last
        # waves, which readfirstlane would not read back: its own base, not an offset
        neg = ReadBases((512, 1, 1), parse_pipeline("4wave"))
        neg.flat_source(v["%s"], [v["%rw"], v["%col"]], loop)
        neg.flat_source(v["%s"], [v["%r"], v["%col"]], loop)
        assert len(neg.copy_bases) == 2
    text = str(m)
    # per copy one before the loop (the offset fixed there, the copy's constant) and
    # one in it (with the loop's terms: the K column)
    assert text.count("rocdl.readfirstlane") == 10 and "arith.constant 512 : index" in text
    assert flat3 == flat
    with ir.InsertionPoint(ki.owner):    # an offset of a kernel argument: one per wave, taken
        arg = ReadBases((512, 1, 1), parse_pipeline("4wave"))
        assert arg.flat_source(v["%sa"], [v["%r"], v["%col"]], loop) is not None
    assert m.operation.verify()
