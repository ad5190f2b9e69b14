"""The launch description ``--emulate`` makes of an IREE dispatch that is not the plain one
(``pipeline_mlir/driver/dispatch_launch.py``): every element type of an 8-bit ``A^T x B``
(fp8 E4M3FN and E5M2, i8 with an i32 C) has a launch element type; a binding of another
type is refused with its name and the types taken."""

from __future__ import annotations

import pytest

from pipeline_mlir.driver.dispatch_launch import dispatch_spec
from pipeline_mlir.emu.codeobj import Kernel
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.expect import BUFFER_DTYPES
from pipeline_mlir.frontend.dispatch import Binding, MatmulDispatch


class _Kernel:
    """A code object's kernel as far as the launch reads one: its metadata."""

    meta = {".reqd_workgroup_size": [256, 1, 1]}
    explicit_args = Kernel.explicit_args


def _dispatch(element: str, out: str) -> MatmulDispatch:
    bindings = (Binding("A", (64, 32), element, "loc(unknown)"),
                Binding("B", (64, 32), element, "loc(unknown)"),
                Binding("C", (32, 32), out, "loc(unknown)"))
    return MatmulDispatch("k", 32, 32, 64, "i8", False, (1, 1), bindings, out_dtype=out,
                          expect="A.T @ B")


@pytest.mark.parametrize("element, out, want", [("i8", "i32", ("i8", "i32")),
                                                ("f8E5M2", "f32", ("fp8e5m2", "f32")),
                                                ("f8E4M3FN", "f32", ("fp8", "f32"))])
def test_8_bit_bindings_launch(element, out, want):
    spec = dispatch_spec(_dispatch(element, out), _Kernel(), "k.mlir")
    assert tuple(a.dtype for a in spec.args) == (want[0], want[0], want[1])
    assert set(want) <= set(BUFFER_DTYPES)


def test_a_binding_of_another_type_is_refused():
    with pytest.raises(EmuError, match=r"binding A is f64; the launch of a dispatch with an "
                                       r"epilogue takes f32, bf16, f16, f8E4M3FN, f8E5M2, i8"):
        dispatch_spec(_dispatch("f64", "f32"), _Kernel(), "k.mlir")


def _args(*fields) -> list[dict]:
    return [{".value_kind": kind, ".size": size} for kind, size in fields]


@pytest.mark.parametrize("args, want", [
    # IREE's own build: a pointer a binding, the launch's words after them
    (_args(("global_buffer", 8), ("global_buffer", 8), ("global_buffer", 8)),
     ("pointer",) * 3),
    # pipeline-opt's build: a memref descriptor (3 + 2 x rank fields) a binding
    (_args(*[("global_buffer", 8)] * 2 + [("by_value", 8)] * 5) * 3, ("memref",) * 3),
    # a pointer too few, or one of another size: not IREE's launch
    (_args(("global_buffer", 8), ("global_buffer", 8)), ("memref",) * 3),
    (_args(("global_buffer", 8), ("global_buffer", 4), ("global_buffer", 8)),
     ("memref",) * 3)])
def test_irees_own_build_is_launched_with_a_pointer_a_binding(args, want):
    """The whole-kernel timer launches IREE's own build of a dispatch with an epilogue or a
    batch (``bench_iree.py``): its kernel takes IREE's HAL launch, one pointer a binding
    (``hal_pointers``), where pipeline-opt's takes memref descriptors.  With the hidden
    arguments after them left out."""
    kernel = _Kernel()
    kernel.meta = {**_Kernel.meta, ".args": args + _args(("hidden_block_count_x", 4))}
    spec = dispatch_spec(_dispatch("i8", "i32"), kernel, "k.mlir")
    assert tuple(a.passing for a in spec.args) == want
