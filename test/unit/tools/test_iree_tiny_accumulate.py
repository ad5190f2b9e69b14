"""IREE's tiny ``C += A x B^T`` (bf16 20x20x200: one workgroup of 2x2 waves over a 32x32
tile) stages C through an LDS tile of C's own shape that the K-loop never touches: the
threads below 100 copy a row segment of 4 into it (an ``scf.if`` of the thread id), each
thread's accumulators go in by ``memref.copy`` of per-thread sizes (the rows and columns of
C left past its own), and the late form copies it out in a loop from the thread id in steps
of the workgroup.  ``frontend/lds_extent.py`` now evaluates those accesses as they run
(only the threads a guard lets through, a copy's per-thread extent, a loop's per-thread
iterations) and the epilogue reader ties the guarded staging read of C (inside the binding
exactly where the guard holds) and the late form's strided one; before, refused from both
forms at the staging (``... in a way the front end does not evaluate`` at the prefetch
point's ``memref.copy``; ``... whose bounds are not constants`` in the late form).  Both
forms: one schedule, exact in late mode (C checked against C + A x B^T).  The guard let
one thread further stages a row past the tile: refused at the write, naming the thread."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact, _refused

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import epilogues as E  # noqa: E402
import mutants as M  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")


@pytest.fixture(scope="module")
def forms():
    return G.forms(E.epilogue_source("accumulate", "bf16", m=20, n=20, k=200))


@needs_iree
@pytest.mark.parametrize("m,n,k", [(20, 20, 200), (18, 17, 417)])
def test_a_tiny_accumulate_staged_through_lds_is_pipelined_from_both_forms(m, n, k, forms,
                                                                           tmp_path, capsys):
    """20x20x200, and 18x17x417, whose prefetch point LLVM builds with
    ``v_cmp_gt_u16_sdwa`` (an SDWA comparison the emulator decodes now) and whose late form
    stages C's rows in a loop from the thread id around a loop over the columns left in
    the row (both tied per thread)."""
    if (m, n, k) != (20, 20, 200):
        forms = G.forms(E.epilogue_source("accumulate", "bf16", m=m, n=n, k=k))
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "prefetch.mlir"),
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out and "C = C + A @ B.T" in out, out + err


@needs_iree
def test_a_tiny_accumulate_staged_past_its_tile_is_refused(forms, tmp_path, capsys):
    text = forms["prefetch"]
    guard = re.findall(r"arith\.cmpi slt, %thread_id_x, %c100 : index", text)
    assert len(guard) >= 2, "IREE's staging guards changed"
    bad = text.replace("%c100 = arith.constant 100 : index",
                       "%c100 = arith.constant 100 : index\n%c101 = arith.constant 101 : index",
                       1)
    at = bad.index(guard[1], bad.index(guard[0]) + 1)      # the guard of the LDS write
    bad = bad[:at] + guard[1].replace("%c100", "%c101") + bad[at + len(guard[1]):]
    err = _refused(tmp_path, bad, "past", capsys)
    assert re.search(r"'vector.transfer_write' op at line \d+:\d+ accesses memref<20x20xf32, "
                     r"#gpu.address_space<workgroup>> at elements 400\.\.403 in thread 100, "
                     r"outside its 400 elements", err), err


#: mutants of the campaign's ``acctiny`` family (seed 1, with ``mutants.m_staged_guard``; 30
#: of them: 9 exact, 15 refused, 5 invalid, 1 input-broken), as recorded: the guard of the
#: threads putting the accumulators in made the whole workgroup (refused at the copy past
#: the tile), a copy's row count one more through its map (refused at the copy), the late
#: form's C-loop lower bound made 1 and the prefetch point's staging of C into LDS turned
#: off (its guard made false: that C is overwritten by the results before it is read):
#: exact, the pipelined kernel computing what the mutant computes
TINY = [(22, "refused", "'memref.copy' op at line"),
        (19, "refused", "'memref.copy' op at line"),
        (1, "exact", ""),
        (2, "exact", "")]


@needs_iree
@pytest.mark.parametrize("index, want, detail", TINY)
def test_mutants_of_a_tiny_accumulate_are_refused_or_exact(index, want, detail):
    M.check_recorded(1, index, ["acctiny"], want, detail)


@needs_iree
@pytest.mark.parametrize("m,n", [(33, 9), pytest.param(40, 12, marks=pytest.mark.long(
    "[33-9] checks the same staging at another size (IREE's one workgroup, each thread's "
    "private 64x16 buffer holding C's rows, zero rows past C's last and then its results, "
    "4 result stores): both forms one schedule, exact in late mode, a result store removed "
    "refused at the read"))])
def test_results_staged_over_c_in_one_private_buffer_are_read_element_by_element(
        m, n, tmp_path, capsys):
    """bf16 33x9x417 and 40x12x417: each thread's private 64x16 buffer first holds C's rows
    (and zero rows past C's last), then the thread's results over its own elements, which
    the epilogue copies out (the late form a load per element in loops from the thread id,
    the prefetch point a ``memref.copy`` of a per-thread view).  The epilogue reader took
    the buffer's writes as one value and refused (``... fill with different values``);
    ``frontend/private_provenance.py`` finds, thread by thread, the last write of each
    element read: the results alone.  Both forms one schedule, exact in late mode.  The
    late form with one row of a thread's results not stored reads C's row there: refused
    at the read as before."""
    forms = G.forms(E.epilogue_source("accumulate", "bf16", m=m, n=n, k=417))
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "prefetch.mlir"),
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out and "C = C + A @ B.T" in out, out + err
    rows = re.findall(r"\n *vector\.store %\d+, (%alloca_\d+)\[%\d+, %\d+\] : "
                      r"memref<64x16xf32, #gpu\.address_space<private>>, vector<1xf32>",
                      forms["late"])
    assert len(rows) == 4, "IREE's stores of a thread's results changed"
    store = re.search(r"\n *vector\.store %\d+, %alloca_\d+\[%\d+, %\d+\] : memref<64x16xf32, "
                      r"#gpu\.address_space<private>>, vector<1xf32>", forms["late"]).group(0)
    fewer = tmp_path / "fewer.mlir"
    fewer.write_text(forms["late"].replace(store, "", 1))
    rc = main(["--pipeline=4wave", "--emulate", str(fewer), "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    assert re.search(r"fewer\.mlir:\d+:\d+: error: --emulate: 'memref\.load' op at line "
                     r"\d+:\d+ reads private memory that the writes before it fill with "
                     r"different values", err), err
