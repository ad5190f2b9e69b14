"""Upstream MLIR's ``#gpu.block<x|y|z>`` on the loop over workgroups: IREE's kernel with its
``#iree_codegen.workgroup_mapping`` rewritten to it pipelines and computes exactly (the
same ids, in upstream's terms); a forall that mixes the two, or maps to threads, is refused
at it; the address evaluator refuses the induction variables of any other forall."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_cache import share_code_objects
from steady_loop import assert_steady, counting_loops
from pipeline_mlir.analysis.loop_eval import Evaluator, Unevaluable
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.tools.pipeline_opt import main

PREFETCH = Path(__file__).parents[2] / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir"
IREE_MAPPING = "#iree_codegen.workgroup_mapping<"


def _mapped(old: str, new: str) -> str:
    text = PREFETCH.read_text()
    assert text.count(old) == 2 if old == IREE_MAPPING else text.count(old) == 1
    return text.replace(old, new)


def test_a_kernel_over_gpu_block_ids_is_pipelined_and_exact(tmp_path):
    """The prefetch-point kernel's workgroup forall mapped with ``#gpu.block<y>, <x>``:
    pipelined with ``4wave``, run (late mode) at workgroup (x, y) = (2, 1) of its 2-D grid
    (ids read in the wrong order, or as IREE's linear id, would put the tile elsewhere), C
    exact and the steady loop run."""
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul, emulate_matmul

    src, hsaco = tmp_path / "k.mlir", tmp_path / "k.hsaco"
    src.write_text(_mapped(IREE_MAPPING, "#gpu.block<"))
    with share_code_objects():
        assert main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(hsaco)]) == 0
    with counting_loops() as record:
        run = emulate_matmul(load_kernel(hsaco.read_bytes()), Matmul(4096, 4096, 4096, "bf16"),
                             mode="late", workgroups=[(2, 1)])
    assert run.exact and run.grid == 32 * 32, run.summary()
    assert_steady(record)


@pytest.mark.parametrize("old,new,why", [
    ("#iree_codegen.workgroup_mapping<x>", "#gpu.block<x>",
     "which mixes IREE's #iree_codegen.workgroup_mapping and upstream's #gpu.block"),
    ("#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>",
     "#gpu.block<y>, #gpu.block<y>", "maps two of its dimensions to the same workgroup id"),
    ("#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>",
     "#gpu.block<y>, #gpu.block<linear_dim_0>", "not to workgroups"),
])
def test_a_mixed_or_unknown_mapping_is_refused_at_the_forall(capsys, tmp_path, old, new, why):
    src = tmp_path / "k.mlir"
    src.write_text(_mapped(old, new))
    assert main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "o.mlir")]) == 1
    err = capsys.readouterr().err
    assert "k.mlir:44:11: error: " in err and "'scf.forall' op" in err and why in err \
        and "Traceback" not in err, err


@pytest.mark.parametrize("mapping,ok", [
    ("{mapping = [#gpu.block<y>, #gpu.block<x>]}", True),
    ("{mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}",
     True),
    ("", False),
    ("{mapping = [#gpu.thread<y>, #gpu.thread<x>]}", False),
    ("{mapping = [#gpu.block<y>, #iree_codegen.workgroup_mapping<x>]}", False),
])
def test_the_evaluator_reads_only_a_workgroup_forall_as_workgroup_ids(mapping, ok):
    """:class:`Evaluator` itself checks the mapping: the induction variable of a forall that
    is not over workgroups is refused at the forall, whoever asks."""
    text = ("func.func @f() {\n  scf.forall (%i, %j) in (4, 8) {\n"
            "    %k = arith.addi %i, %j : index\n  } " + mapping + "\n  return\n}\n")
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (add,) = walk_ops(module.operation, lambda o: o.name == "arith.addi")
        ev = Evaluator((64, 1, 1), workgroup_id=3)
        if ok:
            assert (ev.value(add.results[0]) == 6).all()
            return
        with pytest.raises(Unevaluable, match=r"'scf.forall' op (has no mapping|maps to)"):
            ev.value(add.results[0])
