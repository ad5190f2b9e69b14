"""A remainder loop whose own LDS fits in no schedule buffer moves to the schedule's buffers.

``remainder_plan.place`` (the planner's last decision, at adoption): when an allocation of the remainder's own has no free
schedule buffer large enough, remainder loops without masked copies (marked shareable by
``tails``) that step like the pipelined loop are marked to be rebuilt on the schedule's
stage-0 buffers (``shared_remainder``); a masked one, or one with another step, is refused
at the loop, the message saying why neither outcome (alias its buffers, rebuild on stage
0) applies.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.marks import ALIAS_ATTR, SHAREABLE_ATTR, SHARED_ATTR
from pipeline_mlir.frontend.partition import BufferLayout
from pipeline_mlir.frontend.remainder_plan import place as place_remainder

#: a pipelined loop (step %c1), its remainder (attributes ``{attrs}``, step ``{step}``)
#: using a buffer of its own of 8192 x bf16 that no schedule buffer (4096 x bf16, 16384 x
#: f16) holds; the kernel's other LDS (``{other}`` bytes) leaves 122880 - ``{other}`` bytes
#: to grow a schedule buffer by
TEXT = """
func.func @f(%n: index) {{
  %a = memref.alloc() {{sched.remainder_aliased}} : memref<8192xbf16, #gpu.address_space<workgroup>>
  %s = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
  %t = memref.alloc() : memref<16384xf16, #gpu.address_space<workgroup>>
  %o = memref.alloc() : memref<{other}xi8, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : bf16
  scf.for %i = %c0 to %c2 step %c1 {{
  }}
  scf.for %j = %c2 to %c3 step {step} {{
    memref.store %z, %a[%j] : memref<8192xbf16, #gpu.address_space<workgroup>>
  }} {{sched.remainder{attrs}}}
  return
}}"""


def _alias(attrs: str, step: str = "%c1", other: int = 122880, how: str = "alloc"):
    """(the remainders ``place`` moved, the allocations it left, the remainder loop);
    ``how``: the other LDS is an allocation or (``global``) a workgroup global."""
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        text = TEXT.format(attrs=attrs, step=step, other=other)
        if how == "global":
            t = f"memref<{other}xi8, #gpu.address_space<workgroup>>"
            text = f'memref.global "private" @o : {t}\n' + text.replace(
                f"%o = memref.alloc() : {t}", f"%o = memref.get_global @o : {t}")
        m = ir.Module.parse(text, ctx)
        allocs = walk_ops(m.operation, lambda o: o.name == "memref.alloc")
        loop, rem = walk_ops(m.operation, lambda o: o.name == "scf.for")
        buffers = {0: BufferLayout(0, (0,), None, new={(0, 0): allocs[1].results[0],
                                                      (0, 1): allocs[2].results[0]})}
        shared, unused = place_remainder(loop, buffers)
        return shared, unused, rem, ctx, m


def test_an_unmasked_remainder_moves_to_the_schedule_buffers():
    shared, unused, rem, _ctx, _m = _alias(f", {SHAREABLE_ATTR}")
    assert shared == [rem] and SHARED_ATTR in rem.attributes
    assert len(unused) == 1 and ALIAS_ATTR not in unused[0].attributes


@pytest.mark.parametrize("attrs, step, what, why", [
    ("", "%c1", "masked", "its copies are masked"),
    (f", {SHAREABLE_ATTR}", "%c2", "unmasked", "it steps by 2, the pipelined loop by 1"),
    (f", {SHAREABLE_ATTR}", "%n", "unmasked", "it steps by a value known only at run "
                                              "time, the pipelined loop by 1")])
def test_a_remainder_that_cannot_move_is_refused(attrs, step, what, why):
    """The message says what the remainder is: masked (no shareable mark) or not."""
    with pytest.raises(IRError, match=f"^'scf.for' op: the {what} remainder loop \\(the K "
                                      "tiles after the pipelined loop\\) "
                                      "needs an LDS buffer of 8192 x bf16 .* and neither "
                                      "it nor a free buffer of the schedule that large.*"
                                      "\\(the largest free buffer of the schedule holds "
                                      "4096 x bf16, and growing it to 8192 needs 8192 bytes more "
                                      "than the 0 the kernel leaves unused\\); "
                                      "nor can it be rebuilt on the schedule's stage-0 "
                                      f"buffers: {why}"):
        _alias(attrs, step)


def test_a_masked_remainder_grows_a_schedule_buffer_in_the_lds_left():
    """With 8192 bytes of LDS left unused the masked remainder's buffer goes onto the
    largest free schedule buffer of its element type, grown from 4096 to 8192 elements;
    with 8190 left (2 too few) it is refused (above)."""
    shared, unused, rem, _ctx, m = _alias("", other=122880 - 8192)
    assert shared == [] and unused == []
    allocs = walk_ops(m.operation, lambda o: o.name == "memref.alloc")
    assert [str(a.results[0].type).split(",")[0] for a in allocs] == [
        "memref<8192xbf16", "memref<16384xf16", f"memref<{122880 - 8192}xi8"]
    with pytest.raises(IRError, match="growing it to 8192 needs 8192 bytes more than the "
                                      "8190 the kernel leaves unused"):
        _alias("", other=122880 - 8190)


def test_the_lds_left_counts_a_workgroup_global():
    """The kernel's other LDS a workgroup global (``memref.get_global``), not an
    allocation: counted the same, so 8190 bytes are left and the growth is refused."""
    assert _alias("", other=122880 - 8192, how="global")[:2] == ([], [])
    with pytest.raises(IRError, match="growing it to 8192 needs 8192 bytes more than the "
                                      "8190 the kernel leaves unused"):
        _alias("", other=122880 - 8190, how="global")


def test_one_fitting_serves_the_plan_and_the_merge():
    """``aliased_remainder.fit``, which ``assign`` (the plan) and ``all_held`` (the merge's
    look-ahead) both call: the smallest free buffer of the element type that holds each
    need, each taken once; the largest of the type grown within the spare bytes, which
    the growth uses up; the first need left over named with the bytes it lacks."""
    from pipeline_mlir.frontend.aliased_remainder import all_held, fit

    frees = [("bf16", 100), ("f16", 150), ("bf16", 200), ("bf16", 300)]
    assert fit([("bf16", 250), ("bf16", 150), ("bf16", 50)], frees) == ([3, 2, 0], None)
    two = lambda i: 2                                           # noqa: E731
    assert fit([("bf16", 250), ("bf16", 250)], frees, 100, two) == ([3, 2], None)
    assert fit([("bf16", 400), ("bf16", 350)], frees, 300, two) == (None, (1, 200, 300, 100))
    assert fit([("f32", 1)], frees) == (None, (0, None, 0, 0))
    assert all_held([("bf16", 50), ("bf16", 250), ("bf16", 150)], frees[::-1])
    assert not all_held([("bf16", 250), ("bf16", 250)], frees)
