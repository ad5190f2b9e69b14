"""Runs copied in pieces of another width start on a dword boundary (frontend/dword_runs.py).

A range-checked buffer access of 4 bytes or more reads a dword that straddles the buffer's
end as zeros whole; a piece of 1 or 2 bytes is checked on its own.  So where the front end
copies a run in pieces of another width (the spread of a copy by part of the workgroup,
its own copies of a channel), the wider runs must start on a dword of a buffer of whole
dwords in every workgroup and K step: proven from the index arithmetic
(``analysis/twos.py``, the thread ids evaluated), else the reason to refuse (finding 84
of ``docs/iree-audits.md``, ``pc17`` mutant 0 of seed 84).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.analysis.twos import DEPTH
from pipeline_mlir.frontend.dword_runs import (dword_refusal, regrouped_refusal, shared_starts,
                                              start_zeros)

FAT = "#amdgpu.address_space<fat_raw_buffer>"
BODY = f"""
func.func @f(%a0: memref<17x520xf16>, %b0: memref<17x519xf16>, %d0: memref<?x520xf16>,
             %g: memref<17x520xf16, #gpu.address_space<global>>, %n: index,
             %s: memref<17x?xf16, strided<[?, 1]>>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = amdgpu.fat_raw_buffer_cast %a0 resetOffset : memref<17x520xf16> to memref<17x520xf16, {FAT}>
  %b = amdgpu.fat_raw_buffer_cast %b0 resetOffset : memref<17x519xf16> to memref<17x519xf16, {FAT}>
  %d = amdgpu.fat_raw_buffer_cast %d0 resetOffset : memref<?x520xf16> to memref<?x520xf16, {FAT}>
  %t = gpu.thread_id x
  scf.for %i = %c0 to %n step %c1 {{
    %row = arith.divui %t, %c4 : index
    %q = arith.remui %t, %c4 : index
    %q2 = arith.muli %q, %c2 : index
    %k = arith.muli %i, %c8 : index
    %col = arith.addi %k, %q2 : index
    %odd = arith.addi %col, %c1 : index
    %q21 = arith.addi %q2, %c1 : index
    %sv = memref.subview %a[%row, %k] [1, 8] [1, 1] : memref<17x520xf16, {FAT}> to memref<1x8xf16, strided<[520, 1], offset: ?>, {FAT}>
    %sv1 = memref.subview %a[%row, %odd] [1, 4] [1, 1] : memref<17x520xf16, {FAT}> to memref<1x4xf16, strided<[520, 1], offset: ?>, {FAT}>
  }}
  return
}}"""
NAMES = ("c0", "c1", "c2", "c4", "c8", "a", "b", "d", "t", "row", "q", "q2", "k", "col", "odd",
         "q21", "sv", "sv1")
BLOCK = (256, 1, 1)


@pytest.fixture(scope="module")
def v():
    """:data:`BODY`'s values by name (each op's result; ``g`` the global argument)."""
    with new_context():
        m = ir.Module.parse(BODY)
        ops = walk_ops(m.operation, lambda o: len(o.results) == 1)
        assert len(ops) == len(NAMES)
        out = {n: o.results[0] for n, o in zip(NAMES, ops)}
        (fn,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        out["g"] = fn.regions[0].blocks[0].arguments[3]
        out["s"] = fn.regions[0].blocks[0].arguments[5]
        out["op"] = ops[NAMES.index("odd")]
        yield out


def refusal(v, src, *idx, run=4):
    return dword_refusal(v[src], [v[i] for i in idx], BLOCK, run, "a note")


def test_runs_on_dwords_of_a_buffer_of_whole_dwords_are_proven(v):
    """``A[t / 4, 8 i + 2 (t mod 4)]`` of 17x520 f16: every term a multiple of 4 bytes
    (the thread's part evaluated, the loop's from its step), as through a subview whose
    offsets are the row and ``8 i``."""
    assert refusal(v, "a", "row", "col") is None
    assert refusal(v, "sv", "c0", "q2") is None


@pytest.mark.parametrize("src,idx,part", [
    ("a", ("row", "odd"), "the value of 'arith.addi' op at line"),   # the column, + 1
    ("sv", ("c0", "q21"), "the value of 'arith.addi' op at line"),   # inside the view
    ("sv1", ("c0", "q2"), "the value of 'arith.addi' op at line"),   # the view's offset
])
def test_a_run_that_may_start_off_a_dword_is_refused(v, src, idx, part):
    why = refusal(v, src, *idx)
    assert why is not None and "a run that starts off a 4-byte boundary is not excluded" in why
    assert part in why and "times the stride 1 is a multiple of 2 byte(s) only" in why
    assert "(a note)" in why


def test_a_buffer_that_is_not_whole_dwords_or_of_no_static_size_is_refused(v):
    """17x519 f16 (17646 bytes): an aligned dword straddles its end; a buffer sized at
    launch tells nothing."""
    assert "is not whole dwords, so a dword of a run may straddle its end" in \
        refusal(v, "b", "row", "col")
    assert "is not of a static size" in refusal(v, "d", "row", "col")


def test_a_buffer_not_range_checked_needs_nothing(v):
    """A global memref reads past its end what memory holds, whatever the width."""
    assert refusal(v, "g", "row", "odd") is None


def test_regrouped_runs_prove_the_wider_side(v):
    """The kernel's 2-byte copies regrouped into 4-byte lanes: the front end's runs are
    proven; the kernel's 4-byte runs copied 2 bytes a lane: the kernel's are; the same
    side of the dword (both 4 bytes or more, both fewer) proves nothing."""
    op = v["op"]
    odd, col = [v["row"], v["odd"]], [v["row"], v["col"]]
    got = regrouped_refusal([(op, v["a"], col, 2)], v["a"], odd, BLOCK, 4)
    assert got is not None and got[0] == op and \
        "the front end's own copies read it 4 bytes a lane" in got[1]
    assert regrouped_refusal([(op, v["a"], odd, 2)], v["a"], col, BLOCK, 4) is None
    got = regrouped_refusal([(op, v["a"], odd, 4)], v["a"], col, BLOCK, 2)
    assert got is not None and got[0] == op and "where the kernel's copy reads 4" in got[1]
    assert regrouped_refusal([(op, v["a"], col, 4)], v["a"], odd, BLOCK, 2) is None
    assert regrouped_refusal([(op, v["a"], odd, 4)], v["a"], odd, BLOCK, 16) is None
    assert regrouped_refusal([(op, v["a"], odd, 2)], v["a"], odd, BLOCK, 2) is None


@pytest.mark.parametrize("src,idx,zeros,weakest", [
    ("a", ("row", "k"), 4, None),       # 520 t/4 + 8 i elements of 2 bytes: 16 bytes
    ("a", ("row", "col"), 2, "col"),    # + 2 (t mod 4): 4 bytes
    ("a", ("row", "odd"), 1, "odd"),    # + 1: 2 bytes
    ("sv1", ("c0", "c0"), 1, "odd"),    # a view's offset is a term
    ("g", ("c0", "c8"), 4, None),       # any buffer: no range check needed to be aligned
])
def test_start_zeros_are_the_weakest_terms(v, src, idx, zeros, weakest):
    """The byte offset's low zero bits, the fewest of its terms' (the thread's part
    evaluated, the loop's from its step), and the term that has them: the alignment a copy
    through registers needs to be a direct-to-LDS copy (frontend/regcopy.py)."""
    got, term = start_zeros(v[src], [v[i] for i in idx], BLOCK)
    assert got == zeros
    if weakest is not None:
        assert term[0] == v[weakest]


def test_start_zeros_of_a_stride_known_at_launch_are_unknown(v):
    assert start_zeros(v["s"], [v["row"], v["k"]], BLOCK) is None



def test_shared_starts_answer_as_each_call_does():
    """Within ``shared_starts`` (the front end's adoption of a loop) the zeros of each
    value are worked out once for every start asked, but only for starts whose every
    chain is shorter than ``low_zeros``' depth: below it, an answer depends on the path
    the value was reached by.  ``8 i`` under a chain of more sums than that depth is cut
    short in the first start (the sum 2 above ``8 i`` is met at depth 0: its zeros unknown
    there); a memo shared with it would then give that sum's own start the cut answer."""
    adds = "\n".join(f"    %d{j + 1} = arith.addi %d{j}, %c0 : index" for j in range(DEPTH + 2))
    text = f"""func.func @f(%a0: memref<17x520xf16>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = amdgpu.fat_raw_buffer_cast %a0 resetOffset : memref<17x520xf16> to memref<17x520xf16, {FAT}>
  scf.for %i = %c0 to %n step %c1 {{
    %d0 = arith.muli %i, %c8 : index
{adds}
  }}
  return
}}"""
    with new_context():
        m = ir.Module.parse(text)
        ops = walk_ops(m.operation, lambda o: o.name in ("arith.muli", "arith.addi"))
        a = walk_ops(m.operation, lambda o: o.name == "amdgpu.fat_raw_buffer_cast")[0]
        c0 = walk_ops(m.operation, lambda o: o.name == "arith.constant")[0].results[0]
        src, deep, k = a.results[0], ops[-1].results[0], ops[2].results[0]
        own = [start_zeros(src, [c0, x], BLOCK)[0] for x in (deep, k)]
        assert own[0] < own[1]          # (the deep chain cut short: the case that matters)
        with shared_starts():
            shared = [start_zeros(src, [c0, x], BLOCK)[0] for x in (deep, k)]
            again = [start_zeros(src, [c0, x], BLOCK)[0] for x in (k, deep)]
        assert shared == own and again == own[::-1]


GLOBAL = "#gpu.address_space<global>"
#: bindings as IREE states their start (``alignment``, ``offset``, ``memref.assume_alignment``),
#: one of rows K known at launch (``udiv = 32``), and a function argument that states nothing
BASES = f"""#pl = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @f(%arg: memref<16x64xi8>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %lo = hal.interface.constant.load layout(#pl) ordinal(0) : i32
  %i = arith.index_castui %lo : i32 to index
  %k = util.assume.int %i<umin = 0, umax = 4096, udiv = 32> : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) : memref<16x?xi8, {GLOBAL}>{{%k}}
  %ba = memref.assume_alignment %b, 64 : memref<16x?xi8, {GLOBAL}>
  %f = amdgpu.fat_raw_buffer_cast %ba resetOffset : memref<16x?xi8, {GLOBAL}> to memref<16x?xi8, {FAT}>
  %o = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c8) : memref<16x64xi8, {GLOBAL}>
  %oa = memref.assume_alignment %o, 16 : memref<16x64xi8, {GLOBAL}>
  %p = hal.interface.binding.subspan layout(#pl) binding(1) alignment(4) offset(%c0) : memref<16x64xi8, {GLOBAL}>
  %v = memref.subview %oa[0, 3] [16, 8] [1, 1] : memref<16x64xi8, {GLOBAL}> to memref<16x8xi8, strided<[64, 1], offset: 3>, {GLOBAL}>
  %vf = amdgpu.fat_raw_buffer_cast %v resetOffset : memref<16x8xi8, strided<[64, 1], offset: 3>, {GLOBAL}> to memref<16x8xi8, strided<[64, 1]>, {FAT}>
  %t = gpu.thread_id x
  scf.for %j = %c0 to %n step %c1 {{
    %col = arith.muli %j, %c16 : index
    %odd = arith.addi %col, %c8 : index
  }}
  return
}}"""
BASE_NAMES = ("c0", "c1", "c8", "c16", "lo", "i", "k", "b", "ba", "f", "o", "oa", "p", "v",
              "vf", "t", "col", "odd")


@pytest.fixture(scope="module")
def bases():
    """:data:`BASES`' values by name (``arg``: the function argument)."""
    with new_context() as ctx:
        m = ir.Module.parse(BASES, ctx)
        ops = walk_ops(m.operation, lambda o: len(o.results) == 1)
        assert len(ops) == len(BASE_NAMES)
        (fn,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        yield {"arg": fn.regions[0].blocks[0].arguments[0],
               **{n: o.results[0] for n, o in zip(BASE_NAMES, ops)}}


@pytest.mark.parametrize("name,zeros", [
    ("b", 6), ("ba", 6), ("f", 6),      # a binding aligned to 64 at offset 0, as cast
    ("o", 3),                           # aligned to 64, 8 bytes in
    ("oa", 4),                          # the same assumed aligned to 16 (at offset 0)
    ("p", 2),                           # aligned to 4
    ("v", 4),                           # a view keeps its source's start
    ("vf", 0),                          # the start reset 3 bytes in
    ("arg", 0),                         # a function argument: nothing stated
])
def test_base_zeros_are_what_the_kernel_states(bases, name, zeros):
    """The alignment of the start of a copy's buffer, which :func:`start_zeros` counts
    from (``dword_runs.base_zeros``; finding 93: assumed before)."""
    from pipeline_mlir.frontend.dword_runs import base_zeros
    assert base_zeros(bases[name]) == zeros


@pytest.mark.parametrize("idx,zeros", [
    (("t", "col"), 4),                  # t rows of K (32 | K), 16 j: 16 bytes
    (("t", "odd"), 3),                  # + 8
    (("c1", "c0"), 5),                  # one row: K itself
])
def test_start_zeros_follow_a_stride_known_at_launch_by_its_divisor(bases, idx, zeros):
    """``f[t, 16 j]`` of rows K known at launch (``udiv = 32``): the row's term counts
    K's stated divisor (``launch_stride.view_stride_divisors``, finding 93); without it
    the stride is not followed."""
    from pipeline_mlir.frontend.launch_stride import view_stride_divisors
    where = [bases[i] for i in idx]
    assert start_zeros(bases["f"], where, BLOCK, view_stride_divisors)[0] == zeros
    assert start_zeros(bases["f"], where, BLOCK) is None


@pytest.mark.parametrize("src,idx,run,why", [
    ("f", ("t", "col"), 16, None),            # 16 j from a start stated aligned to 64
    ("f", ("t", "odd"), 16, "a multiple of 8 byte(s) only"),     # + 8
    ("f", ("t", "col"), 32, "a multiple of 16 byte(s) only"),    # 32 bytes a lane
    ("p", ("c0", "c16"), 4, None),            # a start stated aligned to 4
    ("p", ("c0", "c16"), 16, "a multiple of 4 byte(s) only"),
    ("o", ("c0", "c16"), 16, "a multiple of 8 byte(s) only"),   # 8 bytes into 64
])
def test_unaligned_refusal_needs_the_start_and_its_buffer(bases, src, idx, run, why):
    """A direct-to-LDS copy of ``run`` bytes a lane starts at a multiple of them where both
    the byte offset (:func:`start_zeros`) and the buffer's start (``base_zeros``) are
    proven so (the front end's own copies, finding 95); else the reason names the weaker."""
    from pipeline_mlir.frontend.dword_runs import unaligned_refusal
    from pipeline_mlir.frontend.launch_stride import view_stride_divisors
    got = unaligned_refusal(bases[src], [bases[i] for i in idx], BLOCK, run,
                            view_stride_divisors)
    assert (got is None) == (why is None), got
    assert why is None or why in got, got


#: a function argument that states nothing of its start, copied direct-to-LDS by the kernel:
#: ``COPY`` at the column ``COL`` (16 bytes a lane), once with no guard around it
IMPLIED = """func.func @f(%a: memref<16x64xi8>, %n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %lds = memref.alloc() : memref<1024xi8, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  scf.for %j = %c0 to %n step %c1 {
    %col = arith.muli %j, %c16 : index
    %odd = arith.addi %col, %c8 : index
    GUARD amdgpu.gather_to_lds %a[%t, COL], %lds[%c0] : vector<WIDTHxi8>, memref<16x64xi8>, memref<1024xi8, #gpu.address_space<workgroup>> END
  }
  return
}"""


@pytest.mark.parametrize("edits,zeros", [
    ({}, 4),                                          # 16 bytes at 16 j: the start too
    ({"WIDTH": "4"}, 2),                              # 4 bytes a lane: a multiple of 4
    ({"COL": "%odd"}, 0),                             # 16 bytes at 16 j + 8: nothing
    ({"GUARD": "scf.if %cond {", "END": "}"}, 0),     # maybe never run: nothing
    ({"STAGED": True}, 0),                            # register-staged: a global load
])
def test_the_kernels_own_dma_copies_imply_their_buffers_start(edits, zeros):
    """A kernel that states nothing of its buffer's start (a function argument, Wave's
    ``stream.binding.subspan``) and copies it ``W`` bytes a lane direct-to-LDS at offsets
    proven multiples of ``W`` needs the start a multiple of ``W`` too
    (``dword_runs.implied_base_zeros``, what ``layout.py`` proves its own copies with beside
    ``base_zeros``; finding 95); a guarded, staged or misaligned copy implies nothing."""
    from pipeline_mlir.frontend.dword_runs import implied_base_zeros
    from pipeline_mlir.frontend.marks import STAGED
    text = IMPLIED
    for k, v in {"GUARD": "", "END": "", "COL": "%col", "WIDTH": "16", **edits}.items():
        if isinstance(v, str):
            text = text.replace(k, v)
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        (copy,) = walk_ops(m.operation, lambda o: o.name == "amdgpu.gather_to_lds")
        if edits.get("STAGED"):
            copy.attributes[STAGED] = ir.UnitAttr.get()
        src, row, col = list(copy.operands)[:3]
        width = int(edits.get("WIDTH", "16"))
        assert implied_base_zeros([(copy, src, [row, col], width)], BLOCK) == zeros
