"""The wave's index in ``pipeline_mlir/analysis/uniformity.py``: ``workitem.id.x`` divided
by a multiple of 64 is the same in every lane of a wave, through the casts that keep the
id's value.

IREE's ``iree-util-optimize-int-arithmetic{narrow-to-i32=true}`` (run by the LLVM step's
tail of IREE's passes) leaves the thread id as ``trunc (sext id to i64) to i32``; IREE's
8-wave kernels branch on ``that / 256`` (which half of the workgroup a wave is in).  Read
as varying, that branch made every block argument of the function varying, the K-loop's
counter among them, and ``sched-buffer-soffset`` left the copies addressed with it in
``voffset`` (IREE's 256x128 8-wave kernel: 2 of its 24 copies).  A truncation narrower
than the id may change its value: that quotient stays varying.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.uniformity import Uniformity
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.passes._common import collect_ops

#: a loop whose counter is uniform unless the branch before it depends on the lane:
#: ``{cast}`` turns the i32 id ``%t`` into ``%x``, of type ``{ty}``
_KERNEL = """
llvm.func @f() attributes {{rocdl.kernel, gpu.known_block_size = array<i32: 512, 1, 1>}} {{
  %tid = rocdl.workitem.id.x range <i32, 0, 512> : i32
  %t = llvm.sext %tid : i32 to i64
  {cast}
  %d = llvm.mlir.constant(256 : {ty}) : {ty}
  %one = llvm.mlir.constant(1 : {ty}) : {ty}
  %half = llvm.udiv %x, %d : {ty}
  %second = llvm.icmp "eq" %half, %one : {ty}
  %k0 = llvm.mlir.constant(0 : i32) : i32
  %k4 = llvm.mlir.constant(4 : i32) : i32
  %k16 = llvm.mlir.constant(16 : i32) : i32
  llvm.cond_br %second, ^pre, ^head(%k0 : i32)
^pre:
  llvm.br ^head(%k0 : i32)
^head(%k: i32):
  %more = llvm.icmp "ult" %k, %k16 : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %next = llvm.add %k, %k4 : i32
  llvm.br ^head(%next : i32)
^done:
  llvm.return
}}
"""

#: name -> (the cast of the id, its type, whether the quotient is the wave's index)
CASTS = {
    "i64": ("%x = llvm.add %t, %t : i64", "i64", False),      # 2 * id: not the id
    "sext": ("%x = llvm.sext %tid : i32 to i64", "i64", True),
    "narrowed": ("%x = llvm.trunc %t : i64 to i32", "i32", True),
    "trunc-zext": ("%z = llvm.zext %tid : i32 to i64\n  %x = llvm.trunc %z : i64 to i32",
                   "i32", True),
    "narrower": ("%x = llvm.trunc %t : i64 to i16", "i16", False),
    "narrower-then-wide": ("%n = llvm.trunc %t : i64 to i16\n  %x = llvm.zext %n : i16 to i32",
                           "i32", False),
}


@pytest.mark.parametrize("name", list(CASTS))
def test_the_wave_index_through_casts_that_keep_the_id(name):
    cast, ty, wave = CASTS[name]
    with new_context():
        module = ir.Module.parse(_KERNEL.format(cast=cast, ty=ty))
        (func,) = collect_ops(module.operation, lambda o: o.name == "llvm.func")
        fn = Uniformity(func, True, [512, 1, 1])
        fn.analyse()
        (half,) = collect_ops(func, lambda o: o.name == "llvm.udiv")
        head = list(func.regions[0].blocks)[2]
        assert fn.uniform(half.result) is wave
        assert fn.divergent_branch is not wave
        assert fn.uniform(head.arguments[0]) is wave     # the loop's counter
