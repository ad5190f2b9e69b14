"""``sched-adopt-loop``'s walk over the natural K-loops (``frontend/adopt_walk.py``): an
adoption that puts another kernel in the place of its loop's (as
``natural._short_as_written`` and ``kept_tail.kept_or_peeled`` do, the kernel they had
erased) leaves the kernel's next loop to be found again in the kernel in its place, never
read through the loop found before (an op of the erased kernel)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.adopt_walk import adopt_each
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.marks import REMAINDER_ATTR
from pipeline_mlir.frontend.scan import find_natural_loops

_LOOP = """  scf.for %i{n} = %c0 to %c4 step %c1 {{
    %r{n} = amdgpu.mfma 16x16x32 %a * %a + %z : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  }} {{test.n = {n} : i64}}
"""
_KERNEL = """func.func @{name}(%a: vector<8xbf16>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
{loops}  return
}}
"""
#: a kernel of two natural K-loops between two of one
_MODULE = (_KERNEL.format(name="first", loops=_LOOP.format(n=0))
           + _KERNEL.format(name="two", loops=_LOOP.format(n=1) + _LOOP.format(n=2))
           + _KERNEL.format(name="last", loops=_LOOP.format(n=3)))


def _name(op) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def _replacing(calls: list, replace: bool = True, mark: bool = True):
    """An adoption that records ``(its loop's kernel, the loop's test.n)``, puts
    a copy of the kernel in the kernel's place with the loop's copy marked a remainder (as
    a loop run as written is), and erases the kernel; with ``replace`` false it marks the
    loop in place; with ``mark`` false it leaves it natural (a bug the walk refuses)."""
    def adopt(loop):
        kernel = kernel_of(loop)
        at = walk_ops(kernel, lambda o: o.name == "scf.for").index(loop)
        calls.append((_name(kernel), ir.IntegerAttr(loop.attributes["test.n"]).value))
        if replace:
            copy = kernel.clone()
            ir.InsertionPoint(kernel).insert(copy)
            kernel.erase()
            loop = walk_ops(copy, lambda o: o.name == "scf.for")[at]
        if mark:
            loop.attributes[REMAINDER_ATTR] = ir.UnitAttr.get()
        return len(calls)
    return adopt


@pytest.mark.parametrize("replace", [True, False])
def test_a_kernels_next_loop_is_found_in_the_kernel_in_its_place(replace):
    """Each of the 4 loops adopted once, in order, the second of @two read in the kernel the
    first's adoption put in its place; the module valid after."""
    calls: list = []
    with new_context() as ctx:
        module = ir.Module.parse(_MODULE, ctx)
        loops = find_natural_loops(module.operation)
        assert adopt_each(loops, _replacing(calls, replace)) == [1, 2, 3, 4]
        assert calls == [("first", 0), ("two", 1), ("two", 2), ("last", 3)]
        assert module.operation.verify()
        assert find_natural_loops(module.operation) == []
        assert [_name(f) for f in walk_ops(module.operation,
                                           lambda o: o.name == "func.func")] == \
            ["first", "two", "last"]


def test_an_adoption_that_leaves_its_loop_natural_is_an_internal_error():
    """The walk takes the first natural loop left in the kernel: an adoption that leaves
    its own loop natural would have it adopted again, which the count refuses, at the
    kernel."""
    calls: list = []
    with new_context() as ctx:
        module = ir.Module.parse(_MODULE, ctx)
        loops = find_natural_loops(module.operation)
        with pytest.raises(IRError, match=r"'func.func' op: internal error: 2 natural K-loops "
                                          r"of @two are left after 1 of its 2 were adopted, "
                                          r"not 1; please report it"):
            adopt_each(loops, _replacing(calls, mark=False))
        assert calls == [("first", 0), ("two", 1)]
