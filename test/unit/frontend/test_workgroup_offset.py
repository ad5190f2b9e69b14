"""The structural check that a copy's indices move with the workgroup only as an offset
(``pipeline_mlir/frontend/workgroup_offset.py``), on buffers of static strides: IREE's bf16
``A x B^T`` 4096 (``test/data/iree/matmul_bf16_abt_4096.{prefetch,late}.mlir``) with B's
two copies, their global rows and their LDS rows, swapped in the workgroups of column tile
21 only (the kernel still computes ``A x B^T``).  No sampled workgroup (0, 1, 2, 1023) has
that tile: before the check both forms were pipelined with exit 0 and came out WRONG on
the emulator (``--emulate --emulate-workgroups 4``, workgroup 341 of tile 21: C[1280][2688]
= 501, expected -74); now the LDS index's ``select`` on the tile is refused at the copy."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
import pytest

from pipeline_mlir.tools.pipeline_opt import main

DATA = Path(__file__).resolve().parents[2] / "data" / "iree"


def _late_swapped(text: str) -> str:
    """The late form, B's copies swapped where the column tile (``%59``) is 21."""
    anchor = "          %71 = arith.index_cast %70 : i32 to index\n"
    swap = ("          %c21x = arith.constant 21 : i32\n"
            "          %m21 = arith.cmpi eq, %59, %c21x : i32\n"
            "          %b1r = arith.select %m21, %71, %69 : index\n"
            "          %b2r = arith.select %m21, %69, %71 : index\n"
            "          %b1l = arith.select %m21, %56, %54 : index\n"
            "          %b2l = arith.select %m21, %54, %56 : index\n")
    edits = [(anchor, anchor + swap),
             ("gather_to_lds %3[%69, %298], %alloc_0[%54]", "gather_to_lds %3[%b1r, %298], %alloc_0[%b1l]"),
             ("gather_to_lds %3[%71, %300], %alloc_0[%56]", "gather_to_lds %3[%b2r, %300], %alloc_0[%b2l]")]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _prefetch_swapped(text: str) -> str:
    """The prefetch point, B's copies swapped where the ``scf.forall``'s column tile
    (``%arg1``) is 21."""
    first = "gather_to_lds %subview_11[%33#0, %33#1], %subview_8[%c0, %c0]"
    ind = " " * 14
    swap = "".join(f"{ind}{x}\n" for x in (
        "%c21x = arith.constant 21 : index", "%m21 = arith.cmpi eq, %arg1, %c21x : index",
        "%p0 = arith.select %m21, %45#0, %33#0 : index",
        "%p1 = arith.select %m21, %45#1, %33#1 : index",
        "%q0 = arith.select %m21, %33#0, %45#0 : index",
        "%q1 = arith.select %m21, %33#1, %45#1 : index",
        "%lp = arith.select %m21, %c16, %c0 : index",
        "%lq = arith.select %m21, %c0, %c16 : index"))
    edits = [(f"{ind}amdgpu.{first}", f"{swap}{ind}amdgpu.gather_to_lds %subview_11[%p0, %p1], "
                                      f"%subview_8[%lp, %c0]"),
             ("gather_to_lds %subview_11[%45#0, %45#1], %subview_8[%c16, %c0]",
              "gather_to_lds %subview_11[%q0, %q1], %subview_8[%lq, %c0]")]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_the_prefetch_points_lds_index_moving_with_the_forall_is_refused(tmp_path, capsys):
    """The prefetch point's mutant (module docstring) refused at B's first copy, naming
    the ``select`` of its LDS row (adopt only, no emulation)."""
    src = tmp_path / "k.mlir"
    text = _prefetch_swapped((DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text())
    src.write_text(text)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "%lp = arith.select" in x)
    rc = main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "out.mlir")])
    err = capsys.readouterr().err
    assert rc == 1 and "'amdgpu.gather_to_lds' op: the LDS elements it writes move with the " \
        f"workgroup ('arith.select' op at line {line}:" in err, err


def test_the_late_forms_lds_index_moving_with_the_workgroup_id_is_named():
    """``check_lds_workgroup_free`` on the late form's loop (its workgroup id, no
    workgroup loop): IREE's own copies and reads pass; the mutant's B copy is refused,
    naming the ``select`` of its LDS row."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops
    from pipeline_mlir.frontend.workgroup_offset import check_lds_workgroup_free

    for mutate in (lambda t: t, _late_swapped):
        text = mutate((DATA / "matmul_bf16_abt_4096.late.mlir").read_text())
        with new_context() as ctx:
            module = ir.Module.parse(text, ctx)
            ops = [as_operation(o) for o in walk_ops(module.operation, lambda o: o.name in (
                "amdgpu.gather_to_lds", "vector.load"))]
            copies = [SimpleNamespace(op=o, view=o.operands[3], indices=list(o.operands[4:5]))
                      for o in ops if o.name == "amdgpu.gather_to_lds"]
            reads = [SimpleNamespace(op=o, view=o.operands[0], indices=list(o.operands[1:]))
                     for o in ops if o.name == "vector.load"]
            assert len(copies) == 4 and reads
            scan = SimpleNamespace(loop=as_operation(ops[0].parent), copies=copies, reads=reads)
            if mutate is _late_swapped:
                line = next(i for i, x in enumerate(text.splitlines(), 1)
                            if "%b1l = arith.select" in x)
                with pytest.raises(IRError) as e:
                    check_lds_workgroup_free(scan)
                assert f"move with the workgroup ('arith.select' op at line {line}:" in \
                    str(e.value), str(e.value)
            else:
                check_lds_workgroup_free(scan)
