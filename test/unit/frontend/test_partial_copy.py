"""A tile copied by part of the workgroup, spread over every thread (frontend/partial_copy.py).

IREE's f16 ``A x B^T`` 100x17x520 copies B's 32x8 tile with threads 0 to 127 of 256, 4
bytes each: at the prefetch point under ``scf.if %tid < 128``, in the late form in a
per-thread loop ``scf.for %j = %tid to 128 step 256`` that threads 128 and up never run.
Both forms spread it (a 2-byte register copy in every thread, which the front end's own
copies of channel B replace: 4 K steps merged) and give one schedule, exact on the
emulator (one workgroup: the grid; late mode here, random mode by hand).  Mutants of the
guard that the spread cannot take are refused at the guarding op; one of the workgroup
keeps the scan's refusal (lit cases of the same in ``test/lit/passes/sched-adopt-loop.mlir``).
The proof that the spread copy moves what the copy did is checked on its own
(``_differs``) with the lanes mutated.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from kernel_builds import shared_build
from pipeline_mlir.driver import CompileOptions
from pipeline_mlir.driver import compile as build
from pipeline_mlir.frontend.partial_copy import _differs
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))
import generate as G  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")

SOURCE = dict(dtype="f16", m=100, n=17, k=520)
#: the guards in each form
GUARD = {"prefetch": "arith.cmpi slt, %thread_id_x, %c128 : index",
         "late": "to %c128_i32 step %c256_i32"}


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    d = tmp_path_factory.mktemp("partial_copy")
    out = {}
    for form, text in G.forms(G.matmul_source(**SOURCE)).items():
        if form in GUARD:
            assert GUARD[form] in text, form
            out[form] = d / f"{form}.mlir"
            out[form].write_text(text)
    return out


def test_both_forms_spread_the_copy_into_one_schedule_exact(forms, capsys):
    """One schedule and trip counts from both forms (K steps 0 to 63 merged 4 by 4, the
    65th the remainder loop's, B copied there by every thread in both), exact on the
    emulator (the late form here)."""
    # (the late form's build is the one emulated; the prefetch point's up to its schedule,
    # its loops read off the adopted kernel, as the remainder loop is there already)
    builds = {"late": shared_build("4wave", ("schedule-json", "mlir"),
                                   input=str(forms["late"])).stages,
              "prefetch": build(CompileOptions(schedule="4wave", emit="schedule-json",
                                                 stages=("adopted",),
                                                 input=str(forms["prefetch"])))}
    builds["prefetch"] = dict(mlir=builds["prefetch"].stages["adopted"],
                              **{"schedule-json": builds["prefetch"].output})
    assert builds["prefetch"]["schedule-json"] == builds["late"]["schedule-json"]
    for form, stages in builds.items():
        assert re.search(r"scf\.for %\w+ = %c64\w* to %c65\w* step %c1\w* ",
                         stages["mlir"]), form
        # (the remainder loop copies with every thread too: the late form's per-thread
        # loop spread before the tail's cut, as the prefetch point's 'scf.if')
        assert not re.search(r"step %c256\w*\s", stages["mlir"]), form
    rc = main(["--pipeline=4wave", "--emulate", str(forms["late"]), "--emulate-workgroups=1",
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def test_a_staged_register_copy_by_half_the_threads_both_forms_one_schedule():
    """IREE's f16 ``A x B`` 100x24x520: B's 8x32 ``K x N`` tile copied by threads 0 to 127,
    two 2-byte elements each, through private buffers between two guards at the prefetch
    point, in one per-thread loop in the late form.  Both spread (the guards fused, the
    values forwarded, the copies spread in lane order) into one schedule (4 K steps
    merged, the 65th in the remainder loop); before, refused at the guard (``... only
    when its region is one 'amdgpu.gather_to_lds' and side-effect free ops``).  Exact on
    the emulator from both forms, late and random mode, by hand (its one workgroup)."""
    schedules = {}
    for form in ("prefetch", "late"):       # (generate.py's LIT_INPUTS)
        src = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / \
            f"iree-f16-ab-100x24x520.{form}.mlir"
        assert ("memref.alloca(" in src.read_text()) == (form == "prefetch"), form
        schedules[form] = build(CompileOptions(schedule="4wave", emit="schedule-json",
                                               input=str(src))).output
    assert schedules["prefetch"] == schedules["late"]


@pytest.mark.parametrize("stages", [2, 3])
def test_a_staged_copy_in_one_guard_of_iree_prefetch_stages_gives_the_same_schedule(
        stages, tmp_path, capsys):
    """The same kernel built with IREE's 2 prefetch stages (its default build) or 3: IREE
    leaves the loop unpipelined, and its late form holds B's copy as one guard that still
    stages the values through the private buffers (loads, stores to the buffers, reads
    back, stores into LDS).  The values forwarded in that guard too (guarded_pairs.py),
    both forms give one schedule; before, the late form was refused at the guard (``...
    runs the tile's copy ... in 128 of the workgroup's 256 threads``) while the prefetch
    point pipelined.  The late form exact on the emulator (late mode, its one
    workgroup)."""
    source = G.matmul_source(dtype="f16", m=100, n=24, k=520, transpose_b=False)
    schedules = {}
    for form, text in G.forms(source, (f"--iree-llvmgpu-prefetch-num-stages={stages}",)).items():
        path = tmp_path / f"{form}.mlir"
        path.write_text(text)
        schedules[form] = build(CompileOptions(schedule="4wave", emit="schedule-json",
                                               input=str(path))).output
    late = (tmp_path / "late.mlir").read_text()
    assert re.search(r"vector\.load %alloca\w*\[", late) and "step %c256" not in late, \
        "the late form reads no private buffer back, or copies in a per-thread loop"
    assert schedules["prefetch"] == schedules["late"]
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


#: the LDS rows of B's copy at the prefetch point, 16 per wave
ROWS = "%60 = affine.apply #map2(%59#0)"


@pytest.mark.parametrize("form,old,new,message", [
    # a mutated bound: 100 threads, no whole fraction of the workgroup
    ("prefetch", GUARD["prefetch"], "arith.cmpi slt, %thread_id_x, %c100 : index",
     "'scf.if' op at line {} runs the tile's copy 'amdgpu.gather_to_lds' op at line {} in "
     "100 of the workgroup's 256 threads (thread 0: 1 time(s), thread 100: 0): a copy made "
     "by part of the workgroup, which the front end spreads over every thread only where n "
     "divides the workgroup's 256 threads"),
    # a guard of the workgroup (the forall's variable): not of the threads alone
    ("prefetch", GUARD["prefetch"], "arith.cmpi slt, %arg0, %c128 : index",
     "'scf.if' op with regions inside the K-loop: the pipeliner moves the loop's ops one by "
     "one and cannot move nested regions"),
    # a quarter of the workgroup: B's rows 16 to 31 dropped, each 2-element run in 4
    ("late", GUARD["late"], "to %c64_i32 step %c256_i32",
     "'scf.for' op at line {} runs the tile's copy 'amdgpu.gather_to_lds' op at line {} in "
     "64 of the workgroup's 256 threads (thread 0: 1 time(s), thread 64: 0): a copy made "
     "by part of the workgroup, which the front end spreads over every thread only where "
     "each lane's 2 elements split into the 4 pieces of 256 / 64 threads"),
    # both waves' copies into B's rows 0 to 15, rows 16 to 31 dropped: spread, refused at
    # the copy (its spread register copy) for the elements it writes twice
    ("prefetch", ROWS, "%60 = affine.apply #map2(%c0)",
     "'vector.store' op at line {}: the register copies into memref<32x8xf16, "
     "#gpu.address_space<workgroup>> write 128 elements twice"),
], ids=["bound 100", "of the workgroup", "a quarter", "rows dropped"])
def test_guards_it_cannot_spread_are_refused_at_the_op(forms, tmp_path, capsys, form, old,
                                                       new, message):
    src = tmp_path / "k.mlir"
    text = forms[form].read_text()
    assert old in text
    src.write_text(text.replace(old, new, 1))
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    want = re.escape(message).replace(re.escape("{}"), r"\d+:\d+")
    assert rc == 1 and re.search(want, err) and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err


def test_the_proof_refuses_a_spread_copy_that_moves_other_elements():
    """``_differs`` on the lanes of the 100x17x520's copy: 128 of 256 threads, 2 elements
    each, spread in pieces of one; each mutation of the spread copy's lanes is refused."""
    t = np.arange(256)
    runs = (t < 128).astype(np.int64)
    src = 520 * (t // 4) + 2 * (t % 4)
    dst = 128 * (t // 64)                      # the wave's first LDS element
    o, h = t // 2, t % 2
    good = (src[o] + h, dst[o] + (o % 64) * 2 + h, ("g", "l"))
    old = (src, dst, ("g", "l"))
    assert _differs(old, good, runs, 2, 1, 2) is None
    for got in ((good[0] + (t == 7), good[1], good[2]),           # a source moved
                (good[0], good[1] + (t == 255), good[2]),         # an LDS element moved
                (good[0], good[1], ("g", "other"))):              # another buffer
        assert _differs(old, got, runs, 2, 1, 2) is not None
    skew = (src, dst + (t % 64 == 5), ("g", "l"))      # the copy's own LDS index not uniform
    assert "the same in every running lane of a wave" in _differs(skew, good, runs, 2, 1, 2)


#: a copy by threads 0 to 127 whose global index is computed before the K-loop by a chain
#: of two ops of the thread id (IDX: how the guarded copy indexes; the chain is cloned)
CHAIN = """gpu.module @m {
  gpu.func @k(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %w = arith.muli %tid, %c4 : index
    %off = arith.muli %w, %c2 : index
    %part = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      scf.if %part {
        %o = arith.addi %off, %c0 : index
        amdgpu.gather_to_lds %g[%o], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}"""


def test_a_spread_copy_clones_the_thread_ids_chain_in_order():
    """The ops outside the guard that compute the copy's index from the thread id are
    cloned at ``t' div f`` before their users (the IR verifies), each piece proven."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.partial_copy import spread_guarded_copies

    with new_context() as ctx:
        module = ir.Module.parse(CHAIN, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        assert spread_guarded_copies(loop) == 1
        module.operation.verify()
        names = [o.operation.name for o in loop.regions[0].blocks[0].operations]
        assert "scf.if" not in names and names.count("vector.load") == 1, names
        assert names.index("vector.load") > names.index("arith.muli"), names


#: threads 0 to 127 copy a 256-element tile through registers, 2 elements each (thread t:
#: elements 128 (t div 64) + t mod 64 and that plus 64, IREE's f16 ``A x B`` 100x24x520's
#: B), staged through private buffers between two guards of one condition (its prefetch
#: point; the late form has the loads and stores in one per-thread loop)
STAGED = """gpu.module @m {
  gpu.func @k(%g: memref<4096xf16, #gpu.address_space<global>>, %l: memref<256xf16, #gpu.address_space<workgroup>>, %a: vector<4xf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %tid = gpu.thread_id x
    %z = arith.constant dense<0.0> : vector<16xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<16xf32>) {
      %p0 = memref.alloca() : memref<2xf16, #gpu.address_space<private>>
      %p1 = memref.alloca() : memref<2xf16, #gpu.address_space<private>>
      %in0 = arith.cmpi ult, %tid, %c128 : index
      scf.if %in0 {
        %hi = arith.divui %tid, %c64 : index
        %lo = arith.remui %tid, %c64 : index
        %row = arith.muli %hi, %c128 : index
        %e0 = arith.addi %row, %lo : index
        %e1 = arith.addi %e0, %c64 : index
        %k = arith.muli %i, %c256 : index
        %s0 = arith.addi %e0, %k : index
        %s1 = arith.addi %e1, %k : index
        %v0 = vector.load %g[%s0] : memref<4096xf16, #gpu.address_space<global>>, vector<1xf16>
        vector.store %v0, %p0[%c0] : memref<2xf16, #gpu.address_space<private>>, vector<1xf16>
        %v1 = vector.load %g[%s1] : memref<4096xf16, #gpu.address_space<global>>, vector<1xf16>
        vector.store %v1, %p1[%c0] : memref<2xf16, #gpu.address_space<private>>, vector<1xf16>
      }
      %in1 = arith.cmpi ult, %tid, %c128 : index
      scf.if %in1 {
        %hi = arith.divui %tid, %c64 : index
        %lo = arith.remui %tid, %c64 : index
        %row = arith.muli %hi, %c128 : index
        %e0 = arith.addi %row, %lo : index
        %e1 = arith.addi %e0, %c64 : index
        %w0 = vector.load %p0[%c0] : memref<2xf16, #gpu.address_space<private>>, vector<1xf16>
        vector.store %w0, %l[%e0] : memref<256xf16, #gpu.address_space<workgroup>>, vector<1xf16>
        %w1 = vector.load %p1[%c0] : memref<2xf16, #gpu.address_space<private>>, vector<1xf16>
        vector.store %w1, %l[%e1] : memref<256xf16, #gpu.address_space<workgroup>>, vector<1xf16>
      }
      %m = amdgpu.mfma 32x32x8 %a * %a + %acc : vector<4xf16>, vector<4xf16>, vector<16xf32>
      scf.yield %m : vector<16xf32>
    }
    gpu.return
  }
}"""


def _spread_staged(text: str):
    """(spread_guarded_copies' count, the loop's op names, per thread the global and LDS
    element of each spread copy at K step 1), of ``text``'s K-loop."""
    from pipeline_mlir.analysis.loop_eval import Evaluator
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.partial_copy import spread_guarded_copies

    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        n = spread_guarded_copies(loop)
        module.operation.verify()
        ops = [o.operation for o in loop.regions[0].blocks[0].operations]
        ev = Evaluator((256, 1, 1))
        ev.where = loop
        ev.bind(loop.regions[0].blocks[0].arguments[0], 1)
        moved = [(ev.view(o.operands[0]).element([ev.value(x) for x in o.operands[1:]])
                  if o.name == "vector.load" else
                  ev.view(o.operands[1]).element([ev.value(x) for x in o.operands[2:]]))
                 for o in ops if o.name in ("vector.load", "vector.store")]
        return n, [o.name for o in ops], moved


def test_a_staged_buffer_written_twice_forwards_its_last_write():
    """Two writes of one private buffer in the first guard (the twelfth audit's mutant of
    IREE's 100x24x520, which crashed pipeline-opt: the buffer's writes were erased with
    it while the walk still held the second): the guards fused, the read given the last
    write's value, the buffer and both its writes erased."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.guarded_pairs import fuse_staged_guards

    old = ("        vector.store %v1, %p1[%c0] : memref<2xf16, #gpu.address_space<private>>, "
           "vector<1xf16>\n")
    assert old in STAGED
    twice = STAGED.replace(old, old + old.replace("%v1", "%v0"), 1)
    with new_context() as ctx:
        module = ir.Module.parse(twice, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        assert fuse_staged_guards(loop) == 1
        module.operation.verify()
        assert not walk_ops(loop, lambda o: o.name == "memref.alloca")
        stores = walk_ops(loop, lambda o: o.name == "vector.store")
        assert len(stores) == 2 and stores[0].operands[0] == stores[1].operands[0], \
            [str(o) for o in stores]


#: ``STAGED`` as IREE's late form of a 2- or 3-stage build holds it: one guard, the values
#: staged through the private buffers and read back in it
ONE_GUARD = re.sub(r"      \}\n      %in1 = .*?%e1 = arith\.addi %e0, %c64 : index\n", "", STAGED,
                   count=1, flags=re.S)


@pytest.mark.parametrize("guards", ["two", "one"])
def test_a_copy_through_registers_staged_in_guards_is_spread_in_lane_order(guards):
    """The copy staged through private memory between two guards (``STAGED``: the guards
    made one, guarded_pairs.py) or within one (``ONE_GUARD``, IREE's late form of a 2- or
    3-stage build): the private values forwarded (no alloca left), the two register copies
    of threads 0 to 127 spread over 256 threads: thread t' copies element t' of the tile, K
    step 1's global element 256 + t', so each wave's lanes write LDS in order (the block of
    64 threads, not t' div 2)."""
    assert ONE_GUARD != STAGED and ONE_GUARD.count("scf.if") == 1
    n, names, moved = _spread_staged(STAGED if guards == "two" else ONE_GUARD)
    assert n == 1 and "scf.if" not in names and "memref.alloca" not in names, names
    (src, dst) = moved
    t = np.arange(256)
    assert np.array_equal(dst, t) and np.array_equal(src, 256 + t), (src, dst)


def test_a_value_read_back_from_another_element_in_one_guard_is_refused():
    """``ONE_GUARD`` with the second value read back from another element of its buffer:
    not forwarded, the guard keeps its private accesses and is refused at it."""
    from pipeline_mlir.dialect.ir_io import IRError
    old = "%w1 = vector.load %p1[%c0]"
    assert old in ONE_GUARD
    with pytest.raises(IRError, match=re.escape(
            "only when its region is one 'amdgpu.gather_to_lds' and side-effect free ops, "
            "or copies through registers")):
        _spread_staged(ONE_GUARD.replace(old, "%w1 = vector.load %p1[%c1]", 1))



@pytest.mark.parametrize("old,new,message", [
    # the second guard of another condition: not fused; its region's reads are private
    ("%in1 = arith.cmpi ult, %tid, %c128", "%in1 = arith.cmpi ult, %tid, %c64",
     "only when its region is one 'amdgpu.gather_to_lds' and side-effect free ops, or "
     "copies through registers"),
    # a staged value read back from another element of its buffer: not forwarded
    ("%w1 = vector.load %p1[%c0]", "%w1 = vector.load %p1[%c1]",
     "only when its region is one 'amdgpu.gather_to_lds' and side-effect free ops, or "
     "copies through registers"),
    # three copies a thread for the 2 threads that share each copying thread's
    ("        vector.store %w1, %l[%e1]", "        vector.store %w1, %l[%e1] : memref<256xf16, "
     "#gpu.address_space<workgroup>>, vector<1xf16>\n        %v2 = vector.load %g[%c0] : "
     "memref<4096xf16, #gpu.address_space<global>>, vector<1xf16>\n        vector.store %v2, "
     "%l[%c0]",
     "where its 3 copies through registers a thread (of one source and LDS buffer, vector "
     "type and attributes) are a multiple of the 2 threads"),
    # a zero written through a view of the buffer after the staged value: the value is
    # not the read's (forwarded, the buffer and its writes stay in the region: refused)
    ("        vector.store %v1, %p1[%c0] : memref<2xf16, #gpu.address_space<private>>, "
     "vector<1xf16>\n",
     "        vector.store %v1, %p1[%c0] : memref<2xf16, #gpu.address_space<private>>, "
     "vector<1xf16>\n        %q1 = memref.subview %p1[0] [2] [1] : memref<2xf16, "
     "#gpu.address_space<private>> to memref<2xf16, strided<[1]>, "
     "#gpu.address_space<private>>\n        %zz = arith.constant dense<0.0> : vector<1xf16>\n"
     "        vector.store %zz, %q1[%c0] : memref<2xf16, strided<[1]>, "
     "#gpu.address_space<private>>, vector<1xf16>\n",
     "only when its region is one 'amdgpu.gather_to_lds' and side-effect free ops, or "
     "copies through registers"),
], ids=["other-condition", "other-element", "three-copies", "written-through-a-view"])
def test_staged_copies_it_cannot_spread_are_refused_at_the_guard(old, new, message):
    from pipeline_mlir.dialect.ir_io import IRError
    assert old in STAGED
    with pytest.raises(IRError, match=re.escape(message)):
        _spread_staged(STAGED.replace(old, new, 1))


def test_the_proof_refuses_spread_register_copies_that_move_other_elements():
    """``_taken`` on the accesses of the tile above: the shares of 64-thread blocks taken;
    a moved index, another view or another buffer refused, and so is the div-mod share
    (block 1) of what the blocks of 64 spread."""
    from pipeline_mlir.frontend.partial_copy import _lane_order, _taken, shares
    t = np.arange(256)
    base = np.zeros(256, dtype=np.int64)
    copy = [(np.stack([e]), base, e, "g") for e in (128 * (t // 64) + t % 64,
                                                   128 * (t // 64) + t % 64 + 64)]
    assert _lane_order(copy, 2, 128, 1) == 64
    s, h = shares(t, 2, 64)
    e = np.where(h == 0, copy[0][2][s], copy[1][2][s])
    good = (np.stack([e]), base, e, "g")
    assert np.array_equal(e, t) and _taken(good, copy, 2, 64)
    assert not _taken(good, copy, 2, 1)
    for bad in ((good[0] + (t == 9), good[1], good[2] + (t == 9), "g"),    # an index moved
                (good[0], good[1] + 1, good[2] + 1, "g"),                  # another view
                (good[0], good[1], good[2], "other")):                     # another buffer
        assert not _taken(bad, copy, 2, 64)


def test_one_copy_a_thread_of_2_byte_elements_is_refused_at_the_guard():
    """``STAGED`` with one copy a thread (its second dropped from both guards): 2 threads
    share each copying thread's one 2-byte element, which only a spread of one element a
    thread of 4-byte elements takes (``frontend/partial_elements.py``): refused at the
    guard, saying so."""
    from pipeline_mlir.dialect.ir_io import IRError
    one = STAGED
    for line in ("        %v1 = vector.load %g[%s1] : memref<4096xf16, "
                 "#gpu.address_space<global>>, vector<1xf16>\n",
                 "        vector.store %v1, %p1[%c0] : memref<2xf16, "
                 "#gpu.address_space<private>>, vector<1xf16>\n",
                 "        %w1 = vector.load %p1[%c0] : memref<2xf16, "
                 "#gpu.address_space<private>>, vector<1xf16>\n",
                 "        vector.store %w1, %l[%e1] : memref<256xf16, "
                 "#gpu.address_space<workgroup>>, vector<1xf16>\n"):
        assert line in one
        one = one.replace(line, "", 1)
    with pytest.raises(IRError, match=re.escape(
            "only where its elements are of 4 bytes, the narrowest a direct-to-LDS copy "
            "moves, when a lane's 1 elements do not split into the 2 threads that share it")):
        _spread_staged(one)


#: IREE's f16 ``A x B^T`` 17x100x520 (the ``pc17`` mutants' kernel): A's 16x8 tile copied
#: by threads 0 to 127, a ``vector<2xf16>`` run (4 bytes) each
A_SOURCE = dict(dtype="f16", m=17, n=100, k=520)
#: A's copy, its source ``A[row, column]``
A_COPY = re.compile(r"(amdgpu\.gather_to_lds %\w+\[%[\w#]+, )(%[\w#]+)(\], %\w+\[%\w+, %c0\] "
                    r": vector<2xf16>, memref<(?:\?x8|17x520)xf16)")


@pytest.fixture(scope="module")
def a_forms(tmp_path_factory):
    d = tmp_path_factory.mktemp("partial_copy_a")
    out = {}
    for form, text in G.forms(G.matmul_source(**A_SOURCE)).items():
        if form in GUARD:
            out[form] = d / f"{form}.mlir"
            out[form].write_text(text)
    return out


def _column_moved(text: str) -> str:
    """``text`` with the column of A's copy (the one copy that only part of the workgroup
    runs, after its guard) moved by one element: each run then starts at an odd element,
    off a 4-byte boundary (``pc17`` mutant 0 of seed 84, finding 84)."""
    guard = min(i for i in (text.find("scf.if %"), text.find("step %c256_i32")) if i >= 0)
    m = A_COPY.search(text, guard)
    assert m, "A's copy"
    line = text.rfind("\n", 0, m.start()) + 1
    indent = text[line:m.start()]
    moved = (f"{indent}%mut_c1 = arith.constant 1 : index\n"
             f"{indent}%mut_col = arith.addi {m.group(2)}, %mut_c1 : index\n")
    return text[:line] + moved + text[line:m.start()] + m.group(1) + "%mut_col" + \
        m.group(3) + text[m.end():]


def test_a_copy_by_part_of_the_workgroup_whose_runs_start_on_dwords_is_spread(a_forms):
    """A's copy by threads 0 to 127, each run proven to start on a 4-byte boundary of
    A's 17x520 buffer (17680 bytes) in every workgroup and K step (its column ``(2 t)
    mod 8`` plus ``8 k``, its row times 520): spread, both forms one schedule."""
    schedules = {form: build(CompileOptions(schedule="4wave", emit="schedule-json",
                                            input=str(path))).output
                 for form, path in a_forms.items()}
    assert schedules["prefetch"] == schedules["late"]


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_a_run_that_starts_off_a_dword_is_refused_at_the_guard(a_forms, tmp_path, capsys,
                                                               form):
    """The column of A's copy moved by one element (``pc17`` mutant 0 of seed 84 was WRONG:
    the last run of A's last row crosses the buffer's end inside a dword, which the
    kernel's copy reads as zeros whole and the spread's 2-byte pieces element by element):
    refused at the guard, naming the copy and the index that is not proven a multiple of
    4 bytes."""
    src = tmp_path / "k.mlir"
    src.write_text(_column_moved(a_forms[form].read_text()))
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    want = (r"'scf\.(if|for)' op at line \d+:\d+ runs the tile's copy 'amdgpu\.gather_to_lds' "
            r"op at line \d+:\d+ in 128 of the workgroup's 256 threads .*: a copy made by "
            r"part of the workgroup, which the front end spreads over every thread only "
            r"where each lane's 4-byte run starts on a 4-byte boundary of a buffer of whole "
            r"dwords in every workgroup and K step \(its 2-byte pieces are range-checked one "
            r"by one, the copy's dwords whole\): a run that starts off a 4-byte boundary is "
            r"not excluded \(the value of 'arith\.addi' op at line \d+:\d+ times the stride "
            r"1 is a multiple of 2 byte\(s\) only\)")
    assert rc == 1 and re.search(want, err) and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err
    assert err.count("error:") == 1, err


def test_the_own_copies_of_spread_pieces_are_held_to_dwords_too(a_forms, monkeypatch, capsys):
    """The front end's own 4-byte copies of channel A replace the spread's 2-byte pieces in
    the loop (``layout.py``'s emitter): their runs must start on dwords too, proven as
    emitted.  With that proof made to fail (the spread's own left as it is), the prefetch
    point is refused at A's copy (the spread's load, at the copy's line), saying so."""
    import pipeline_mlir.frontend.dword_runs as D
    calls = []

    def fail(src, indices, block, run_bytes, note, iv=None):
        calls.append(note)
        return f"where a test says no ({note})"
    monkeypatch.setattr(D, "dword_refusal", fail)
    rc = main(["--pipeline=4wave", str(a_forms["prefetch"]), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and calls and "Traceback" not in err, err
    assert re.search(r"error: .*'vector\.load' op at line \d+:\d+: the front end's "
                     r"own copies of channel \d replace it only where a test says no \(the "
                     r"front end's own copies read it 4 bytes a lane, each dword "
                     r"range-checked whole, where the kernel's copies read 2 bytes a lane",
                     err), err
