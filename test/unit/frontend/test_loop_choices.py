"""pipeline_mlir/frontend/loop_choices.py on a small hand-written loop.

A loop of 4 K steps of 8 rows over K = 28 (the last step partial, as IREE's padded
``A^T x B`` at K = 200 and 100): each thread's row is clamped to 27 (``affine.min``) and
pointed past the buffer's end where it lies outside K (``arith.select``, as
``frontend/kept_rows.py`` makes it).  Over the first 3 iterations (the pipelined loop's)
both take their first operand on every thread and are put in its place; over all 4 neither
does, and both are left; the last iteration is told a K tail.  A choice that moves with the
workgroup, or whose integers wrap, is left however it evaluates.  IREE's kernels (both
forms, exact on the emulator) are in ``test/unit/frontend/test_edge_version.py``.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.loop_choices import last_is_tail, settle_choices

G = "memref<64x16xi8>"
LDS = "memref<32x16xi8, #gpu.address_space<workgroup>>"

#: the row clamp and the select past the end, of the loop's ``%i`` and the thread's ``%row``
CHOICES = """    %k0 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %row)
    %k = affine.min affine_map<(d0, d1) -> (d0 * 8 + d1, 27)>(%i, %row)
    %in = arith.cmpi ult, %k0, %c28 : index
    %r = arith.select %in, %k, %c64 : index"""


def _loop(choices: str = CHOICES) -> str:
    return f"""
func.func @f(%g: {G}, %l: {LDS}) attributes {{gpu.known_block_size = array<i32: 64, 1, 1>}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c28 = arith.constant 28 : index
  %c64 = arith.constant 64 : index
  %t = gpu.thread_id x
  %wg = gpu.block_id x
  %row = arith.divui %t, %c8 : index
  scf.for %i = %c0 to %c4 step %c1 {{
{choices}
    %v = vector.load %g[%r, %c0] : {G}, vector<16xi8>
    vector.store %v, %l[%row, %c0] : {LDS}, vector<16xi8>
  }}
  return
}}
"""


def _settle(text: str, trips: int) -> tuple[int, bool, str]:
    """(the choices settled over the first ``trips`` iterations, whether the last of the 4
    was told a K tail first, the module's loop after)."""
    with new_context():
        m = ir.Module.parse(text)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        tail = last_is_tail(loop, range(4))
        before = str(m)
        n = settle_choices(loop, range(trips))
        assert m.operation.verify()
        return n, tail, str(loop) if n else (before == str(m) and str(loop))


def test_the_choices_of_full_k_steps_are_settled():
    n, tail, loop = _settle(_loop(), 3)
    assert n == 2 and tail, loop
    assert "affine.min" not in loop and "arith.select" not in loop and "cmpi" not in loop
    # the row read is the clamp's first map result, the select's true operand
    assert "affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%arg2, %0)\n" \
           "  %2 = vector.load %arg0[%1, %c0]" in loop, loop


def test_the_choices_of_the_partial_k_step_are_left():
    """Over the 4 iterations the clamp takes 27 on rows 28 to 31 and the select 64: both
    left, nothing changed (the candidates it built erased)."""
    n, tail, loop = _settle(_loop(), 4)
    assert n == 0 and loop and "affine.min" in loop and "arith.select" in loop, loop


@pytest.mark.parametrize("choices", [
    # the clamp moves with the workgroup: one workgroup's evaluation covers no other
    CHOICES.replace("(%i, %row)", "(%i, %wg)"),
    # an i8 product that wraps at iteration 2 of 3 (2 x 100 = 200): the evaluator's
    # integers are not exact there, and the front end reasons with exact ones
    """    %i8 = arith.index_cast %i : index to i8
    %c100i = arith.constant 100 : i8
    %c120i = arith.constant 120 : i8
    %p = arith.muli %i8, %c100i : i8
    %q = arith.minsi %p, %c120i : i8
    %r = arith.index_cast %q : i8 to index""",
], ids=["workgroup", "wraps"])
def test_a_choice_the_evaluation_does_not_cover_is_left(choices):
    n, tail, loop = _settle(_loop(choices), 3)
    assert n == 0 and loop and not tail, loop


#: a mask of the K left of the same loop (a run of 16 along K, K = 56: 8 left in the last
#: step)
K_MASK = """    %r = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %row)
    %left = affine.apply affine_map<(d0) -> (56 - d0 * 16)>(%i)
    %n = arith.minsi %left, %c16 : index
    %m = vector.create_mask %n : vector<16xi1>"""


def _masked_loop(clamped: bool = True) -> str:
    """The loop of :data:`K_MASK`; not ``clamped``: its mask sized by the K left alone (no
    ``minsi`` with 16, so no choice tells the partial step: only the mask short in it)."""
    mask = K_MASK if clamped else K_MASK.replace(
        "    %n = arith.minsi %left, %c16 : index\n    %m = vector.create_mask %n",
        "    %m = vector.create_mask %left")
    assert clamped or mask != K_MASK
    return _loop(mask).replace(
        "vector.load %g[%r, %c0] : {G}, vector<16xi8>".replace("{G}", G),
        f"vector.maskedload %g[%r, %c0], %m, %z : {G}, vector<16xi1>, vector<16xi8> "
        f"into vector<16xi8>").replace("  %t = gpu.thread_id x\n",
                                       "  %t = gpu.thread_id x\n  %c16 = arith.constant 16 : "
                                       "index\n  %z = arith.constant dense<0> : vector<16xi8>\n")


@pytest.mark.parametrize("clamped", [True, False], ids=["clamped", "k-left-alone"])
@pytest.mark.parametrize("trips", [3, 4])
def test_a_versioned_loops_k_masks_are_proven_over_its_kept_iterations(trips, clamped):
    """The loop to pipeline of a loop versioned on the workgroup's tile (``masks.py``'s
    ``_interior_k_masks``): its mask of the K left proven full over the iterations it keeps
    and dropped (the load a plain one), refused at the read when one of them is the partial
    last K tile; ``_k_tail`` tells that tile by its clamp (``last_is_tail``) or, with a
    mask sized by the K left alone, by the mask short in it."""
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import masks as MS

    with new_context():
        m = ir.Module.parse(_masked_loop(clamped))
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        assert last_is_tail(loop, range(4)) == clamped
        assert MS._k_tail(loop, range(4)) and not MS._k_tail(loop, range(3))
        if trips == 4:
            with pytest.raises(IRError, match="is masked to 8 of 16 elements in thread 0 in "
                                              "iteration 3"):
                MS._interior_k_masks(loop, range(trips))
            return
        MS._interior_k_masks(loop, range(trips))
        text = str(loop)
        assert "maskedload" not in text and "vector.load %arg0" in text, text
