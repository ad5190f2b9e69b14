"""pipeline_mlir/frontend/masked_rows_late.py: IREE's row-masked copies in the late form of
its padded dynamic-M kernel (an ``scf.if`` around a ``vector.load``, a private row, a loop
storing it into the 1-D swizzled LDS tile) made direct-to-LDS copies of a range-checked
buffer.

IREE's own dispatch (``test/data/iree/dynamic.py`` ``padded_source``, K of 256; exact at
several M and N in ``test/unit/tools/test_dynamic_shapes.py``, its schedule the prefetch
form's there too); each property the replacement relies on, broken in IREE's text, is
refused at the ``scf.if``, saying which.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli_text

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402

sys.path.insert(0, str(ROOT / "test" / "unit"))
from masked_rows_helpers import ADOPT, in_window  # noqa: E402


@pytest.fixture(scope="module")
def late() -> str:
    """IREE's padded dynamic-M dispatch in its late form (the iree-compile run of the
    prefetch form's, from the build cache)."""
    return G.late_form(D.padded_source(False, 256))


def _run(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    return run_cli_text(capsys, tmp_path, text, ADOPT)


def test_the_guarded_copy_becomes_direct_to_lds_copies_of_the_buffer(late, tmp_path, capsys):
    assert re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", late)
    rc, out, err = _run(tmp_path, capsys, late)
    assert rc == 0, err
    fat = "memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>"
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", out)
    a = sum(f"vector<8xbf16>, {fat}," in c for c in copies)
    assert a > 0 and a == sum("memref<4096x256xbf16, #amdgpu" in c for c in copies), copies
    assert "scf.if" not in out and "memref.alloca() : memref<1x16xbf16" not in out


def _text(old: str, new: str):
    def mutate(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return mutate


def _regex(old: str, new: str):
    def mutate(text: str) -> str:
        out, n = re.subn(old, new, text, count=1)
        assert n == 1, old
        return out
    return mutate


@pytest.mark.parametrize("mutate,message", [
    (_text("%cst_0 = arith.constant dense<0.000000e+00> : vector<16xbf16>",
           "%cst_0 = arith.constant dense<-0.000000e+00> : vector<16xbf16>"),
     "pads masked rows with a value other than zero; a range-checked read past the end "
     "returns zero, every bit clear (+0.0, not -0.0)"),
    (_regex(r"(vector\.load %alloca\[%c0, )%\d+(\] : memref<1x16xbf16)", r"\1%c0\2"),
     "one row of W elements read or zero"),
    (_regex(r"(vector\.store %\d+, %alloc\[%\d+\] : memref<4096xbf16, #gpu\.address_space"
            r"<workgroup>>, vector<8xbf16>\n)", r"\1                gpu.barrier\n"),
     "its store loop does more than address and store the row"),
    (_regex(r"(vector\.load %assume_align_5\[)%\d+, (%\d+)\]", r"\1\2, \2]"),
     "its guard or row changes with the K-loop"),
    (_regex(r"(%\d+) = arith\.addi (%\d+), (%\d+) : index\n(\s+%\d+ = arith\.addi %\d+, "
            r"%\d+ : i32\n)", r"\1 = arith.addi \2, %c1 : index\n\4"),
     "or a row past the size, at a size of 1 "),
    # the thread's index read from another op than gpu.thread_id: the clones would not
    # substitute it
    (_text("%13 = arith.index_castui %thread_id_x : index to i32",
           "%13 = rocdl.workitem.id.x : i32"),
     "its threads do not write distinct runs of the LDS tile"),
    (_regex(r"(scf\.for %arg0 = %workgroup_id_x to %\d+ step )%workgroup_count_x",
            r"\1%c1"), "no linearised workgroup loop runs over the size it masks by"),
    (_regex(r"(%\d+) = arith\.muli (%\d+), %c32 overflow<nsw> : index\n(\s+)%workgroup_id_x",
            r"\1 = arith.addi \2, %c32 : index\n\3%workgroup_id_x"),
     "the workgroup loop's bound is not a multiple of ceildiv(the size, a tile)"),
], ids=["padding", "staged row read elsewhere", "store loop side effect", "row moves with K",
        "row past the size", "thread id not gpu.thread_id", "not a grid-stride loop",
        "bound not tiles"])
def test_what_the_replacement_relies_on_is_checked(late, tmp_path, capsys, mutate, message):
    text = mutate(late)
    rc, _out, err = _run(tmp_path, capsys, text)
    guard = re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", text).start()
    line = 1 + text[:guard].count("\n")
    assert rc == 1 and message in err and f"k.mlir:{line}:" in err, err
    assert "Traceback" not in err


def _row_past_the_size_in_a_window(text: str) -> str:
    """The row read one further where the size is ``T g + d``, ``20 <= d <= 40``: sizes
    none of the sampled ones reaches (their ``d mod T`` are 0-3, 64 and 127)."""
    d = re.search(r"(%\d+) = arith\.addi %\d+, %8 : index\n", text).group(1)
    window = (f"%w_lo = arith.constant 20 : index\n%w_hi = arith.constant 40 : index\n"
              f"%w_a = arith.cmpi sge, {d}, %w_lo : index\n"
              f"%w_b = arith.cmpi sle, {d}, %w_hi : index\n"
              f"%w_in = arith.select %w_a, %w_b, %w_a : i1\n"
              f"%w_off = arith.select %w_in, %c1, %c0 : index\n")
    return _regex(r"(%\d+) = arith\.addi (%\d+), (%\d+) : index\n(\s+%\d+ = arith\.addi "
                  r"%\d+, %\d+ : i32\n)",
                  window.replace("\\", "\\\\") + r"%w_row = arith.addi \3, %w_off : index\n"
                  r"\1 = arith.addi \2, %w_row : index\n\4")(text)


def test_a_row_past_the_size_at_unsampled_sizes_is_refused(late, tmp_path, capsys):
    """The sampled sizes pass this mutant (the evaluation alone took it); the proof for
    every size (frontend/row_proof_late.py) finds the sizes where a guarded row is L."""
    text = _row_past_the_size_in_a_window(late)
    rc, _out, err = _run(tmp_path, capsys, text)
    guard = re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", text).start()
    assert rc == 1 and f"k.mlir:{1 + text[:guard].count(chr(10))}:" in err, err
    assert "reads a row outside the buffer's L rows where its guard holds, on thread " in err, err
    lo, hi = map(int, re.search(r"at sizes T g \+ d for d in (\d+) \.\. (\d+) \(T = 128, "
                                r"any g\)", err).groups())
    assert 20 <= lo <= hi <= 40, err



#: IREE's thread row ``%129`` (``T g + %130`` read where the guard ``%133`` holds) and the
#: rows the workgroup's tile has below the size (``%126``, 1 to 128)
ROW, GUARD = ("%130 = arith.minsi %129, %126 : index\n",
              "%133 = arith.cmpi sgt, %132, %c0 : index\n")


def _rows_reversed_at_the_edge(text: str) -> str:
    """The tile's rows read in reverse order (thread row ``r`` reads ``127 - r``, its
    guard ``127 - r`` below the size) where the tile is partial: every row read still lies
    in the buffer where its guard holds, but at the sampled size (4096, no partial tile)
    each thread reads its own row."""
    return _text(ROW, "%c127o = arith.constant 127 : index\n"
                      "%c128o = arith.constant 128 : index\n"
                      "%edge = arith.cmpi slt, %126, %c128o : index\n"
                      "%rev = arith.subi %c127o, %129 : index\n"
                      "%x129 = arith.select %edge, %rev, %129 : index\n"
                      "%130 = arith.minsi %x129, %126 : index\n")(text)


def _row_guarded_out_at_one_size(text: str) -> str:
    """Thread row 5's guard false where 73 of the tile's rows lie below the size (M = 128
    g + 73), its row in the buffer: IREE's read gives zeros there."""
    return _text(GUARD, "%x133 = arith.cmpi sgt, %132, %c0 : index\n"
                        "%c73g = arith.constant 73 : index\n"
                        "%c5g = arith.constant 5 : index\n"
                        "%is73 = arith.cmpi eq, %126, %c73g : index\n"
                        "%rne5 = arith.cmpi ne, %130, %c5g : index\n"
                        "%fls = arith.cmpi ne, %c5g, %c5g : index\n"
                        "%y133 = arith.select %rne5, %x133, %fls : i1\n"
                        "%133 = arith.select %is73, %y133, %x133 : i1\n")(text)


@pytest.mark.parametrize("mutate,message", [
    (_rows_reversed_at_the_edge, "reads the tile's row 126 on thread 2 at sizes T g + d for d "
                                 "in 127 .. 127 and its row 1 at other sizes"),
    (_row_guarded_out_at_one_size, "guards out its row T g + 5 on thread 10 at sizes T g + d "
                                   "for d in 73 .. 73, where that row lies below the size"),
], ids=["rows reversed in the edge tile", "a row guarded out at one size"])
def test_a_row_that_moves_with_the_size_is_refused(late, tmp_path, capsys, mutate, message):
    """The proof for every size took only ``0 <= row < L`` where the guard holds; the front
    end's copies read, at every size and workgroup, each thread's row of the sampled launch
    moved with the tile (the row's select is left out of the launch and workgroup checks
    of ``every_workgroup.py``: ``sched.proven_row``).  Both mutants were pipelined with
    exit 0 and WRONG against their unpipelined builds (test/data/iree/mutants.py's builds
    at 201x4096x256, late mode, workgroups 0 and 37: 2285 and 126 elements of C differ); a
    guarded row is now proven ``T g + c`` with one ``c`` per thread at every size, and
    guarded out only at or past the size."""
    text = mutate(late)
    rc, _out, err = _run(tmp_path, capsys, text)
    guard = re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", text).start()
    assert rc == 1 and f"k.mlir:{1 + text[:guard].count(chr(10))}:" in err, err
    assert message in err and "Traceback" not in err, err


#: the LDS index of IREE's row store: the thread row times 32 (``%187``) plus the column
STORE = "%237 = arith.addi %187, %236 overflow<nsw> : i32\n"


def test_an_lds_index_computed_inside_the_store_loop_is_cloned(late, tmp_path, capsys):
    """The thread row's stride a constant defined inside the row's store loop (which the
    rewrite erases): the copies' LDS index took it as it was, a use of an erased op (a
    segmentation fault, or ``std::bad_alloc`` as an internal error); now cloned with the
    rest, the kernel pipelined (exact against its unpipelined build at 201x4096x256,
    workgroups 0 and 37, run by hand)."""
    text = _text(STORE, "%c32l = arith.constant 32 : i32\n"
                        "%x187 = arith.muli %21, %c32l : i32\n"
                        "%237 = arith.addi %x187, %236 overflow<nsw> : i32\n")(late)
    rc, out, err = _run(tmp_path, capsys, text)
    assert rc == 0 and "scf.if" not in out, err


def test_an_lds_index_that_moves_with_the_size_is_refused(late, tmp_path, capsys):
    """The tile's rows stored to LDS in reverse where the tile is partial (its rows read
    as IREE reads them): pipelined with exit 0 and WRONG against its unpipelined build
    (test/data/iree/mutants.py's builds at 201x4096x256, late mode, workgroups 0 and 37:
    9291 elements of C differ), the front end's copies placing each lane's elements as at
    the sampled launch; now refused at the ``scf.if``."""
    text = _text(STORE, "%c127l = arith.constant 127 : i32\n"
                        "%c128l = arith.constant 128 : index\n"
                        "%edgel = arith.cmpi slt, %126, %c128l : index\n"
                        "%revl = arith.subi %c127l, %21 : i32\n"
                        "%rowl = arith.select %edgel, %revl, %21 : i32\n"
                        "%x187 = arith.muli %rowl, %c32_i32 : i32\n"
                        "%237 = arith.addi %x187, %236 overflow<nsw> : i32\n")(late)
    rc, _out, err = _run(tmp_path, capsys, text)
    guard = re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", text).start()
    assert rc == 1 and f"k.mlir:{1 + text[:guard].count(chr(10))}:" in err, err
    assert "the LDS index of its row's store ('vector.store' op at line " in err, err
    assert "moves with the workgroup or a value known only at launch" in err, err


def _bound_off_in_a_window(text: str) -> str:
    """The workgroup loop's bound one row of tiles (32) larger where the size is ``128 q +
    r``, ``20 <= r <= 40``: no size the evaluation samples (their ``r`` are 0-3, 64 and
    127, and the search for T meets none) reaches it."""
    m = re.search(r"(\s+)(%\d+) = arith\.muli (%\d+), %c32 overflow<nsw> : index\n"
                  r"((?:.*\n){0,3}?)(\s+scf\.for %arg0 = %workgroup_id_x to )\2 ", text)
    assert m, "IREE's workgroup loop changed shape"
    ind, ub = m.group(1), m.group(2)
    size = re.search(r"(%\d+) = util\.assume\.int", text).group(1)
    window = (f"{ind}%w_r = arith.remui {size}, %c128 : index" +
              "".join(f"{ind}{line}" for line in in_window("%w_r")) +
              f"{ind}%w_more = arith.addi {ub}, %c32 : index"
              f"{ind}%w_ub = arith.select %w_in, %w_more, {ub} : index")
    return (text[:m.start(4)] + window[1:] + "\n" + m.group(4) + m.group(5) + "%w_ub "
            + text[m.end():])


def test_a_workgroup_bound_off_at_unsampled_sizes_is_refused(late, tmp_path, capsys):
    """The relation of the workgroup loop's bound to the size is proven for every size
    (frontend/row_proof_late.py), no longer sampled: a bound that is ``32 ceildiv(L, 128)``
    at every sampled size but one row of tiles more at others is refused at the guard,
    naming the sizes."""
    text = _bound_off_in_a_window(late)
    assert "%w_ub step %workgroup_count_x" in text
    rc, _out, err = _run(tmp_path, capsys, text)
    guard = re.search(r"scf\.if %\d+ -> \(vector<16xbf16>\)", text).start()
    assert rc == 1 and f"k.mlir:{1 + text[:guard].count(chr(10))}:" in err, err
    found = re.search(
        r"'arith\.divui' op at line \d+:\d+ is not proven the workgroup's tile along the "
        r"size: the workgroup loop's bound over 32 is 32 q \+ 64 at the sizes 128 q \+ (\d+)"
        r"(?: \.\. 128 q \+ (\d+))? \(any q >= 0\), not 32 ceildiv\(the size, 128\) = "
        r"32 q \+ 32", err)
    assert found, err
    lo, hi = int(found.group(1)), int(found.group(2) or found.group(1))
    assert 20 <= lo <= hi <= 40, err


def test_a_varying_divisor_is_proven_through_the_bounds_product(tmp_path, capsys):
    """M and N known at launch: A's tile is ``v floordiv X``, ``X = ceildiv(N, 128)`` a
    launch value, the bound ``X * ceildiv(M, 128)``; the proof takes the product's other
    factor, so that factor made one larger where ``20 <= M mod 128 <= 40`` (no sample
    reaches it) is refused, naming a size (the kernel itself, unmutated, runs exact in
    test_dynamic_shapes.py)."""
    text = G.late_form(D.padded_source(True, 256))
    m = re.search(r"(\s+)(%\d+) = arith\.muli (%\d+), (%\d+) overflow<nsw> : index\n"
                  r"(\s+%workgroup_id_x)", text)
    assert m, "IREE's workgroup loop changed shape"
    ind, c = m.group(1), m.group(4)
    size = re.search(r"(%\d+):2 = util\.assume\.int", text).group(1) + "#0"
    window = (f"{ind}%w_r = arith.remui {size}, %c128 : index" +
              "".join(f"{ind}{line}" for line in in_window("%w_r")) +
              f"{ind}%w_more = arith.addi {c}, %c1 : index"
              f"{ind}%w_c = arith.select %w_in, %w_more, {c} : index")
    text = (text[:m.start()] + window + f"{ind}{m.group(2)} = arith.muli {m.group(3)}, %w_c "
            f"overflow<nsw> : index\n" + m.group(5) + text[m.end():])
    rc, _out, err = _run(tmp_path, capsys, text)
    assert rc == 1 and "Traceback" not in err, err
    found = re.search(
        r"'arith\.floordivsi' op at line \d+:\d+ is not proven the workgroup's tile along "
        r"the size: the workgroup loop's bound over its divisor is q \+ 2 at the sizes 128 q "
        r"\+ (\d+)(?: \.\. 128 q \+ (\d+))? \(any q >= 0\), not ceildiv\(the size, 128\) = "
        r"q \+ 1", err)
    assert found, err
    assert 20 <= int(found.group(1)) <= int(found.group(2) or found.group(1)) <= 40, err
