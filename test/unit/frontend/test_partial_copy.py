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
    # (the late form's build is the one emulated; the prefetch point's up to its MLIR)
    builds = {"late": shared_build("4wave", ("schedule-json", "mlir"),
                                   input=str(forms["late"])).stages,
              "prefetch": build(CompileOptions(schedule="4wave", emit="mlir",
                                                 stages=("schedule-json",),
                                                 input=str(forms["prefetch"])))}
    builds["prefetch"] = dict(builds["prefetch"].stages, mlir=builds["prefetch"].output)
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
