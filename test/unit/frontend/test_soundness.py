"""The front end's soundness checks on their own (the located refusals of whole kernels are
in ``test/lit/passes/sched-adopt-loop-soundness.mlir``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.edges import check_in_global
from pipeline_mlir.frontend.soundness import overlapping_copies


class _Op:
    name = "amdgpu.gather_to_lds"
    location = None


def test_the_copies_a_read_overlaps_are_those_sharing_an_element():
    """``overlapping_copies`` (one table per buffer) against the definition, pair by pair:
    same buffer and a common element; random buffers, sizes and elements, empty ones too."""
    rng = np.random.default_rng(7)
    for _ in range(60):
        def accesses(n):
            return [(int(rng.integers(3)), rng.integers(-5, int(rng.integers(1, 60)),
                                                        size=int(rng.integers(0, 9))))
                    for _ in range(n)]
        copies, reads = accesses(int(rng.integers(0, 6))), accesses(int(rng.integers(0, 6)))
        want = [[k for k, (cb, cel) in enumerate(copies)
                 if cb == rb and np.intersect1d(rel, cel).size] for rb, rel in reads]
        assert overlapping_copies(copies, reads) == want


def test_reads_inside_the_buffer_pass():
    check_in_global(_Op(), np.arange(0, 100), 100, 0)


@pytest.mark.parametrize("workgroup", [0, 1, 7])
@pytest.mark.parametrize("when", ["first", "last"])
def test_a_read_before_the_buffer_is_refused(workgroup, when):
    with pytest.raises(IRError, match=rf"outside its buffer in the loop's {when} iteration "
                                      rf".*element -8 of 100.*workgroup id {workgroup}"):
        check_in_global(_Op(), np.arange(-8, 8), 100, workgroup, when)


def test_a_read_past_the_end_is_refused_only_in_workgroup_0():
    """Workgroup 0 must read inside; another workgroup, at the edge of C, may point rows
    past the end (IREE's kernels for sizes their tiles do not divide)."""
    with pytest.raises(IRError, match=r"element 120 of 100"):
        check_in_global(_Op(), np.arange(90, 121), 100, 0)
    with pytest.raises(IRError, match=r"last iteration \(element 120 of 100"):
        check_in_global(_Op(), np.arange(90, 121), 100, 0, "last")
    check_in_global(_Op(), np.arange(90, 121), 100, 1)


def test_whole_runs_past_a_range_checked_end_pass_in_workgroup_0():
    """A buffer range-checked by its own static shape (``zero``: its elements and the
    elements a 32-bit offset reaches) reads zero past its end: workgroup 0 may point whole
    runs of a lane there (IREE's tile cut by C's edge in every workgroup), not a run
    across the end, not past the offset's reach, not past a shorter extent."""
    runs = np.array([[88, 89, 90, 91], [96, 97, 98, 99], [196, 197, 198, 199]])
    check_in_global(_Op(), runs, 100, 0, zero=(100, 1 << 30))
    with pytest.raises(IRError, match=r"element 199 of 100"):
        check_in_global(_Op(), runs, 100, 0)                     # no range-checked end
    with pytest.raises(IRError, match=r"element 101 of 100"):
        check_in_global(_Op(), runs[:2] + 2, 100, 0, zero=(100, 1 << 30))  # across
    with pytest.raises(IRError, match=r"element 199 of 100"):
        check_in_global(_Op(), runs, 100, 0, zero=(100, 199))   # past the offset's reach
    with pytest.raises(IRError, match=r"element 199 of 100"):
        check_in_global(_Op(), runs, 100, 0, zero=(200, 1 << 30))  # a shorter extent


def _iree_bare_barrier(form: str, which: int, wait: str | None = None) -> tuple[str, int]:
    """IREE's committed bf16 kernel (``form``: ``late`` or ``prefetch``) with barrier
    ``which`` of its K-loop a bare ``rocdl.s.barrier`` (a ``rocdl.s.waitcnt WAIT`` before
    it when ``wait``), and the barrier's line."""
    import re
    from pathlib import Path

    path = Path(__file__).parents[2] / "data" / "iree" / f"matmul_bf16_abt_4096.{form}.mlir"
    lines = path.read_text().split("\n")
    start = next(i for i, s in enumerate(lines) if re.search(r"\bscf\.for\b", s))
    i = [j for j in range(start, len(lines)) if "gpu.barrier" in lines[j]][which]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + "rocdl.s.barrier"
    if wait is not None:
        lines.insert(i, f"{indent}rocdl.s.waitcnt {wait}")
    return "\n".join(lines), i + 1 + (wait is not None)


@pytest.mark.parametrize("form,which,what", [
    ("late", 0, "overwrites in the next iteration the LDS it reads"),
    ("late", 1, "writes the LDS it reads"),
    ("prefetch", 1, "writes the LDS it reads")])
def test_an_iree_kernel_with_a_bare_barrier_is_refused_at_it(capsys, tmp_path, form, which,
                                                             what):
    """IREE's ``gpu.barrier`` replaced by a bare ``rocdl.s.barrier`` (which waits for none of
    the wave's LDS and DMA operations): its unpipelined build races on the emulator, and the
    front end, which took it before, refuses it at the barrier; with a wait for vmcnt(0)
    and lgkmcnt(0) before the barrier, the one it relies on, it is taken (both builds exact on the
    emulator, docs/iree-soundness.md)."""
    from pipeline_mlir.tools.pipeline_opt import main

    text, line = _iree_bare_barrier(form, which)
    src = tmp_path / "k.mlir"
    src.write_text(text)
    assert main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "o.mlir")]) == 1
    err = capsys.readouterr().err
    assert f"k.mlir:{line}:" in err and "'rocdl.s.barrier' op waits for none of the wave's " \
        "memory operations" in err and what in err and "Traceback" not in err, err
    text, line = _iree_bare_barrier(form, which, "112")
    src.write_text(text)
    assert main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "o.mlir")]) == 0


#: one thread's copy through registers (a global load, its LDS store) and an LDS read of
#: what it stores; ``BARRIER`` where a barrier goes between them
REGISTER_COPY = """gpu.module @m {
  gpu.func @k(%g: memref<1024xf16, #gpu.address_space<global>>, %l: memref<256xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<1xf16>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<1xf16>) {
      %v = vector.load %g[%i] : memref<1024xf16, #gpu.address_space<global>>, vector<1xf16>
      vector.store %v, %l[%c0] : memref<256xf16, #gpu.address_space<workgroup>>, vector<1xf16>
      BARRIER
      %w = vector.load %l[%c0] : memref<256xf16, #gpu.address_space<workgroup>>, vector<1xf16>
      scf.yield %w : vector<1xf16>
    }
    gpu.return
  }
}"""


@pytest.mark.parametrize("barrier,message", [
    ("", "'vector.load' op reads LDS that the copy through registers from 'vector.load' op "
         "at line 8:12 writes, with no barrier between them"),
    ("gpu.barrier", "'vector.load' op reads LDS that the next iteration's copy through "
                    "registers from 'vector.load' op at line 8:12 overwrites"),
])
def test_a_race_with_a_copy_through_registers_names_the_copy(barrier, message):
    """A copy through registers is known by its global load, which writes no LDS itself:
    the race says it is that load's copy (the twelfth audit's mutants were told that a
    ``vector.transfer_read`` op writes the LDS a read reads)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.soundness import check_order

    with new_context() as ctx:
        module = ir.Module.parse(REGISTER_COPY.replace("BARRIER", barrier), ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        load, _, read = walk_ops(loop, lambda o: o.name in ("vector.load", "vector.store"))
        with pytest.raises(IRError, match=re.escape(message)):
            check_order(loop, [load], [(0, [0])], [read], [(0, [0])])
