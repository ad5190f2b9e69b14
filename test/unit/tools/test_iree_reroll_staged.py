"""IREE's prefetch pipelining through registers of a copy staged through private memory
between two guards, rolled back (``pipeline_mlir/frontend/reroll_staged.py``, finding 87 of
docs/iree-audits.md).

Built with IREE's 2 prefetch stages (its default build), f32 ``A^T x B`` 94x1826x2660 copies
B's 4 x 16 tile one element a thread into padding rows with threads 0 to 15 of 128, in two
guards of one condition split across the loop IREE pipelines: the first (a guarded load of
global memory stored to a private buffer) before the body's first barrier, the second (the
read back, the select of the K rows, the store into LDS) after its second, the prologue
the same pair at K tile 0 through another private buffer.  The roll-back takes the pair as
a load and its store, the prologue's proven the body's at tile 0: one schedule from both
forms, the late form exact on the emulator.  Mutants of the pairs are refused.
"""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from test_iree_emulate import needs_iree
from test_iree_reroll import DEFAULT_BUILD, _forms_agree_exact, _one_workgroup_exact, \
    _refused

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: the guards' condition, the thread id below 16 (32 in ``A x B^T`` 920x91x36), in the late
#: form
CONDITION = re.compile(r"(%\w+) = arith\.cmpi slt, (%\w+), (%c(?:16|32)_i32) : i32\n")


def _forms(m: int, n: int, k: int, transpose_a: bool = True,
           transpose_b: bool = False) -> dict:
    forms = G.forms(G.matmul_source("f32", m, n, k, transpose_a=transpose_a,
                                    transpose_b=transpose_b), DEFAULT_BUILD)
    cond = CONDITION.search(forms["late"])
    assert cond and forms["late"].count(f"scf.if {cond.group(1)} {{") in (3, 4), \
        "IREE no longer stages the copy between two guards in the prologue and the body"
    return forms


@needs_iree
def test_a_staged_copy_rolled_back_gives_the_prefetch_points_schedule(tmp_path, capsys):
    """f32 ``A^T x B`` 94x1826x2660, IREE's default build: one schedule from both forms,
    the late form exact on the emulator (late mode, 3 of its 345 workgroups).  Before, the
    late form was refused at the body's first guard (``... 'scf.if' op (before the first
    barrier of a loop pipelined through registers) is neither a load of global memory nor
    free of memory effects ...``), and ``--emulate`` did not find B's copy, a guarded load
    inside the guard, in the rolled loop (``... the K-loop copies nothing of B``)."""
    _forms_agree_exact(tmp_path, _forms(94, 1826, 2660), capsys, "late",
                       "--emulate-workgroups=3")


@needs_iree
@pytest.mark.long("test_a_staged_copy_rolled_back_gives_the_prefetch_points_schedule rolls "
                  "the same staged pair back in the default run")
@pytest.mark.parametrize("m,n,k,transpose_a,transpose_b", [
    (123, 48, 153, True, False), (17, 164, 4066, True, False), (21, 44, 1962, True, False),
    (621, 1724, 1099, True, True), (380, 857, 26, True, True), (920, 91, 36, False, True)])
def test_staged_copies_of_the_same_family(m, n, k, transpose_a, transpose_b, tmp_path,
                                          capsys):
    """f32 ``A^T x B`` 123x48x153 (the draw: a plain load in the first guard),
    17x164x4066, 21x44x1962, ``A^T x B^T`` 621x1724x1099 (the prologue's pair in one
    guard), 380x857x26 (the prologue's load folded at tile 0 into a load and a select) and
    ``A x B^T`` 920x91x36: one schedule, exact (late mode)."""
    _forms_agree_exact(tmp_path, _forms(m, n, k, transpose_a, transpose_b), capsys, "late",
                       "--emulate-workgroups=3")


@needs_iree
def test_a_prologue_load_of_every_lane_against_a_mask_true_at_tile_0(tmp_path, capsys):
    """f32 ``A^T x B^T`` 28x1104x625, IREE's default build: the body copies B's K tile
    through IREE's guarded load (a mask of the K left, cut at the last tile), the prologue
    through a plain load (IREE folded the mask, all true at tile 0).  The mask is evaluated
    at tile 0 in each workgroup: every lane kept, so the two load alike; one schedule from
    both forms, the late form exact (late mode).  Before, the late form was refused at the
    prologue's load (``... one of the two loads every lane, the other keeps lanes by a
    mask``)."""
    forms = _forms(28, 1104, 625, transpose_b=True)
    loop = forms["late"].index(" scf.for ")
    assert "vector.create_mask" not in forms["late"][:loop]     # the prologue's folded
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=3")


@needs_iree
@pytest.mark.long("test_a_prologue_load_of_every_lane_against_a_mask_true_at_tile_0 takes "
                  "the same pair in the default run")
@pytest.mark.parametrize("m,n,k", [(28, 1104, 627), (20, 912, 625)])
def test_prologue_loads_of_every_lane_of_the_same_family(m, n, k, tmp_path, capsys):
    """f32 ``A^T x B^T`` 28x1104x627 and 20x912x625, built alike: one schedule, exact."""
    _forms_agree_exact(tmp_path, _forms(m, n, k, transpose_b=True), capsys, "late",
                       "--emulate-workgroups=3")


@needs_iree
def test_a_mask_dropping_a_lane_at_tile_0_is_refused(tmp_path, capsys):
    """The body's mask of 28x1104x625 made to keep 3 lanes in the last workgroup: the
    prologue's load of every lane is not the body's at tile 0 there, refused at the
    prologue's first guard."""
    late = _forms(28, 1104, 625, transpose_b=True)["late"]
    wg = re.search(r"(%\w+) = hal\.interface\.workgroup\.id\[0\] upper_bound (\d+) ", late)
    mask = re.search(r"\n( +)(%\w+) = vector\.create_mask (%\w+) : vector<4xi1>\n", late)
    assert wg and mask and late.count("vector.create_mask") == 1
    pad, name, size = mask.groups()
    cut = f"\n{pad}%lastc = arith.constant {int(wg.group(2)) - 1} : index\n" \
        f"{pad}%three = arith.constant 3 : index\n" \
        f"{pad}%last = arith.cmpi eq, {wg.group(1)}, %lastc : index\n" \
        f"{pad}%cut = arith.select %last, %three, {size} : index\n" \
        f"{pad}{name} = vector.create_mask %cut : vector<4xi1>\n"
    err = _refused(tmp_path, late.replace(mask.group(0), cut, 1), "dropped", capsys)
    assert re.search(r":\d+:\d+: error: .*'scf\.if' op \(before the loop pipelined "
                     r"through registers\) is not proven the body's copy staged through "
                     r"private memory at line \d+:\d+ at K tile 0: one of the two loads every "
                     rf"lane, the other keeps lanes by a mask that does not keep them all "
                     rf"\(workgroup {int(wg.group(2)) - 1}\)", err), err


def _guard_conditions(text: str, cond: str, new: str, which: list) -> str:
    """The guards ``which`` (0 and 1 the prologue's, 2 and 3 the body's) of ``cond`` made
    guards of ``new``."""
    spots = [m.start() for m in re.finditer(rf"scf\.if {cond} \{{", text)]
    for i in sorted(which, reverse=True):
        text = text[:spots[i]] + f"scf.if {new} {{" + text[spots[i] + len(f"scf.if {cond} {{"):]
    return text


@needs_iree
def test_staged_copies_the_roll_back_does_not_take_are_refused(tmp_path, capsys):
    """Each refused at one located op: the prologue's guards of threads 0 to 16 (not the
    body's condition), the prologue's first guard alone of another condition (no pair),
    the body's second guard reading back another private buffer, the body's private
    buffer read by another op, the prologue's LDS row moved by one."""
    late = _forms(94, 1826, 2660)["late"]
    cond = CONDITION.search(late)
    sle = late[:cond.end()] + f"          %sle = arith.cmpi sle, {cond.group(2)}, " \
        f"{cond.group(3)} : i32\n" + late[cond.end():]
    err = _refused(tmp_path, _guard_conditions(sle, cond.group(1), "%sle", [0, 1]),
                   "prologue_sle", capsys)
    assert re.search(r":\d+:\d+: error: .*'scf\.if' op \(before the loop pipelined through "
                     r"registers\) is not proven the body's copy staged through private "
                     r"memory at line \d+:\d+ at K tile 0: its guards' conditions differ",
                     err), err
    err = _refused(tmp_path, _guard_conditions(sle, cond.group(1), "%sle", [0]),
                   "prologue_first", capsys)
    assert "'scf.if' op stores to LDS a value read back from private memory that no guard " \
        "of its condition stages there before the loop pipelined through registers (their " \
        "conditions are not one value)" in err, err
    # the body's read back of the prologue's private buffer
    buffers = re.findall(r"vector\.load (%alloca\w*)\[%c0, %c0, %c0\]", late)
    body = late.rindex(f"vector.load {buffers[-1]}[")
    other = late[:body] + late[body:].replace(buffers[-1], buffers[0], 1)
    err = _refused(tmp_path, other, "other_buffer", capsys)
    assert "'scf.if' op stores to LDS a value read back from private memory that no guard " \
        "of its condition stages there in the loop" in err, err
    # the body's private buffer read once more, before the loop
    alloca = re.search(rf"\n( +){buffers[-1]} = memref\.alloca\(\) : (memref<[^>]*>>)\n", late)
    extra = late[:alloca.end()] + f"{alloca.group(1)}%extra = vector.load {buffers[-1]}[%c0, " \
        f"%c0, %c0] : {alloca.group(2)}, vector<4xf32>\n" + late[alloca.end():]
    err = _refused(tmp_path, extra, "extra", capsys)
    assert "no guard of its condition stages there in the loop pipelined through registers " \
        "(another op accesses their private buffer)" in err, err
    # the prologue's LDS row moved by one
    at = late.index(f"vector.load {buffers[0]}[")
    store = re.compile(r"\n( +)vector\.store %\w+, (%alloc\w*)\[(%\w+), ").search(late, at)
    indent, lds, row = store.groups()
    moved = late[:store.start()] + f"\n{indent}%moved = affine.apply affine_map<(d0) -> " \
        f"(d0 + 1)>({row})" + late[store.start():].replace(f"{lds}[{row}, ", f"{lds}[%moved, ", 1)
    err = _refused(tmp_path, moved, "row", capsys)
    assert "is not proven the body's copy staged through private memory at line" in err and \
        "its LDS elements differ" in err, err


@needs_iree
def test_a_prologue_load_folded_at_tile_0_is_compared_lane_by_lane(tmp_path, capsys):
    """f32 ``A^T x B^T`` 380x857x26: IREE folds the prologue's guarded load, at K tile 0,
    into a plain load and a select by a broadcast row test; its lanes are compared with the
    body's mask at tile 0 in each workgroup.  Refused, each at one located op: the
    prologue keeping every lane (a constant mask: the rows past N of the last workgroups
    differ), a mask the roll-back does not evaluate (``vector.constant_mask``), the
    prologue's load stored unselected, and the body's guarded load half folded (its masked
    load not the prologue's plain load)."""
    late = _forms(380, 857, 26, transpose_b=True)["late"]
    mask = re.search(r"(%\w+) = vector\.broadcast (%\w+) : i1 to vector<4xi1>\n", late)
    select = re.search(rf"(%\w+) = arith\.select {mask.group(1)}, (%\w+), %\w+ : "
                       rf"vector<4xi1>, vector<4xf32>\n", late)
    assert mask and select and mask.start() < select.start() < late.index("scf.for")
    kept = late.replace(mask.group(0), f"{mask.group(1)} = arith.constant dense<true> : "
                                       f"vector<4xi1>\n", 1)
    err = _refused(tmp_path, kept, "every_lane", capsys)
    assert re.search(r"'scf\.if' op \(before the loop pipelined through registers\) is not "
                     r"proven the body's copy staged through private memory at line \d+:\d+ at "
                     r"K tile 0: its kept lanes differ \(workgroup \d+\)", err), err
    constant = late.replace(mask.group(0), f"{mask.group(1)} = vector.constant_mask [2] : "
                                           f"vector<4xi1>\n", 1)
    err = _refused(tmp_path, constant, "constant_mask", capsys)
    assert "keeps the lanes of its load by a mask the roll-back does not evaluate " \
        "('vector.constant_mask')" in err, err
    store = f"vector.store {select.group(1)}, "
    unselected = late.replace(select.group(0), "", 1).replace(
        store, f"vector.store {select.group(2)}, ", 1)
    err = _refused(tmp_path, unselected, "unselected", capsys)
    assert "one of the two loads every lane, the other keeps lanes by a mask" in err, err
    # the body's guarded load half folded (its mask false in every lane, its else region
    # the pass-through alone): an internal error before, located now
    masked = re.search(r"vector\.maskedload %\w+\[[^]]*\], (%\w+), (%\w+) ", late)
    made = re.search(rf"\n( +){masked.group(1)} = .*\n", late)
    other = re.search(rf"\n( +)%\w+ = vector\.load [^\n]*\n +(%\w+) = arith\.select "
                      rf"{masked.group(1)}, [^\n]*\n +scf\.yield (%\w+) : [^\n]*\n", late)
    assert made and other and other.group(2) == other.group(3)
    half = late.replace(other.group(0), f"\n{other.group(1)}scf.yield {masked.group(2)} : "
                                         f"vector<4xf32>\n", 1).replace(
        made.group(0), f"\n{made.group(1)}{masked.group(1)} = arith.constant dense<false> : "
                       f"vector<4xi1>\n", 1)
    err = _refused(tmp_path, half, "half_folded", capsys)
    assert "'vector.load' op (before the loop pipelined through registers) is not proven the " \
        "body's copy staged through private memory at line" in err and "it differs from " \
        "the body's load at line" in err, err


@needs_iree
def test_both_operands_staged_in_one_guard(tmp_path, capsys):
    """f32 ``A^T x B`` 17x28x27, IREE's default build (finding 96: seed 99, draw 3 of the
    thirty-seventh sweep's small-f32 family): both A and B are copied by threads 0 to 31
    of 256, and IREE's canonicalizer merges their guards, so the body loads both copies in
    one guard and stores both in another (the prologue: A's load alone, then B's load and
    both stores in one guard).  Each such guard is split into one per half
    (``split_staged_guards``): one schedule from both forms, the late form exact (late and
    random mode, the grid's one workgroup).  Before, the roll-back did not see the loop as
    IREE's (no LDS store outside a guard) and the late form was refused at the body's first
    guard (``... a copy made by part of the workgroup ...``).  B's copy staged through A's
    private buffer in the body pairs with no guard that stores it: not IREE's loop, refused
    as before at the body's first guard.  The body's two guards are split; with a ``gpu.barrier``
    in the first (which each clone would run again: an op of no half), only the second."""
    forms = _forms(17, 28, 27)
    late = forms["late"]
    body = late.index(" scf.for ")
    first = re.search(r"\n( +)scf\.if %\w+ \{\n(.*?)\n\1\}\n", late[body:], re.S)
    private = re.findall(r"vector\.store %\w+, (%alloca\w*)\[", first.group(2))
    assert len(private) == 2, "IREE no longer stages both copies in one guard"
    _one_workgroup_exact(tmp_path, forms, capsys)
    at = body + first.start(2)
    crossed = late[:at] + first.group(2).replace(f", {private[1]}[", f", {private[0]}[") + \
        late[at + len(first.group(2)):]
    err = _refused(tmp_path, crossed, "crossed", capsys)
    assert re.search(r":\d+:\d+: error: .*'scf\.if' op at line \d+:\d+ runs the tile's copy "
                     r"'vector\.store' op at line \d+:\d+ in 32 of the workgroup's 256 threads",
                     err), err
    stored = re.search(r"\n( +)vector\.store %\w+, %alloca\w*\[[^\n]*\n", first.group(2))
    barrier = late[:at + stored.end()] + f"{stored.group(1)}gpu.barrier\n" + \
        late[at + stored.end():]
    assert (_body_splits(late), _body_splits(barrier)) == (2, 1)


def _body_splits(text: str) -> int:
    """``split_staged_guards`` of the body of ``text``'s loop with MFMAs."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import ops_of, walk_ops
    from pipeline_mlir.frontend.reroll_staged import split_staged_guards

    with new_context():
        module = ir.Module.parse(text)
        loop = next(o for o in walk_ops(module.operation, lambda o: o.name == "scf.for")
                    if any(x.name == "amdgpu.mfma" for x in ops_of(o.regions[0])))
        return split_staged_guards(ops_of(loop.regions[0]))
