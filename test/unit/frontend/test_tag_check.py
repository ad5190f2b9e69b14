"""Hand-written tags are checked against the addresses their payload touches.

Two tagged 4-wave kernels are mutated: the project's own complete BF16 kernel and IREE's
kernel as ``sched-adopt-loop`` tags it.  Every payload op moved to another LDS buffer of
its operand under an unchanged tag (each buffer the destination of one load of each kind),
and every tag field changed both ways under an unchanged op (in two groups of each kind
whose fields differ), is a located error of ``sched-import`` naming the tag; the
unmutated kernels pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context, passmanager
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir
from pipeline_mlir.passes import registry
from pipeline_mlir.schedules.registry import parse_pipeline

ROOT = Path(__file__).parents[3]
PREFETCH = ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir"

_OURS = None
_IREE = None


def ours() -> str:
    global _OURS
    if _OURS is None:
        _OURS = kernel_mlir(gemm_kernel(parse_pipeline("4wave")))
    return _OURS


def iree_tagged() -> str:
    """IREE's kernel after sched-adopt-loop: the tagged loop, generic form."""
    global _IREE
    if _IREE is None:
        with new_context() as ctx:
            m = ir.Module.parse(PREFETCH.read_text(), ctx)
            pm = passmanager.PassManager("builtin.module", ctx)
            keep = [registry.add(pm, "sched-adopt-loop", schedule="4wave")]
            pm.run(m.operation)
            _IREE = m.operation.get_asm(print_generic_op_form=False)
            del keep
    return _IREE


def import_errors(text: str, spec: dict, ctx=None) -> list[str]:
    """The diagnostics of sched-import on ``text`` (empty: accepted), parsed in ``ctx``
    (None: a new context; a test of many variants parses them all in one, each a module
    of its own: a context costs more to make than most variants to check)."""
    if ctx is None:
        with new_context() as ctx:
            return import_errors(text, spec, ctx)
    with ctx:
        m = ir.Module.parse(text, ctx)
        pm = passmanager.PassManager("builtin.module", ctx)
        keep = [registry.add(pm, "sched-import", **spec)]
        try:
            pm.run(m.operation)
        except ir.MLIRError as e:
            return [str(d.message) for d in e.error_diagnostics]
        finally:
            del keep
    return []


OURS_SPEC = {"schedule": "4wave"}
IREE_SPEC = {}  # the loop carries the spec sched-adopt-loop inferred

_TAG = re.compile(r"\{sched\.(global_load|frag_load|mma) = \{([^{}]*)\}\}")


def groups(text: str) -> dict[int, tuple[str, dict, list[int]]]:
    """id -> (kind, fields, line numbers) of the tagged payload ops."""
    out = {}
    for n, line in enumerate(text.splitlines()):
        m = _TAG.search(line)
        if not m:
            continue
        fields = dict(re.findall(r"(\w+) = (\"\w+\"|\d+)", m.group(2)))
        gid = int(fields["id"])
        out.setdefault(gid, (m.group(1), fields, []))[2].append(n)
    return out


def buffer_of(line: str, kind: str) -> str:
    """The LDS buffer operand of a payload line (the DMA destination / the read source)."""
    if kind == "global_load":
        return re.search(r"\], (%[\w.]+)\[", line).group(1)
    return re.search(r"= vector\.load (%[\w.]+)\[", line).group(1)


def mutate(text: str, lines: list[int], fn) -> str:
    out = text.splitlines()
    for n in lines:
        out[n] = fn(out[n])
    return "\n".join(out) + "\n"


#: the buffer (by sorted position) each of a channel's 4 LDS buffers moves to: each one a
#: source and a destination once, moved 1, 2 and 3 places on
MOVE_TO = (1, 3, 0, 2)


def move_variants(text: str):
    """(label, text): every global/fragment load group moved to another LDS buffer of its
    operand (same memref type; :data:`MOVE_TO`: each buffer of a channel the destination
    of one load of each kind), tags unchanged."""
    g = groups(text)
    lines = text.splitlines()
    by_type = {}
    for gid, (kind, fields, ns) in g.items():
        if kind == "mma":
            continue
        buf = buffer_of(lines[ns[0]], kind)
        by_type.setdefault(fields["channel"], set()).add(buf)
    for gid, (kind, fields, ns) in sorted(g.items()):
        if kind == "mma":
            continue
        buf = buffer_of(lines[ns[0]], kind)
        bufs = sorted(by_type[fields["channel"]])
        assert len(bufs) == len(MOVE_TO), bufs     # 2 stages x 2 subtiles
        other = bufs[MOVE_TO[bufs.index(buf)]]
        yield (f"id{gid}:{buf}->{other}",
               mutate(text, ns, lambda ln, b=buf, o=other: ln.replace(f"{b}[", f"{o}[")))


#: each tag field's other valid value
FLIPS = {"channel": {"0": "1", "1": "0"}, "stage": {"0": "1", "1": "0"},
         "subtile": {"0": "1", "1": "0"}, "k_offset": {'"k0"': '"k1"', '"k1"': '"k0"'}}


def _flipped(kind: str, field: str) -> bool:
    return field in FLIPS and not (kind == "mma" and field == "channel")


def covering(g: dict) -> dict:
    """Two groups of each kind of ``g``: its lowest id and the next whose flippable fields
    all take the other value, so each field is changed both ways in each kind (not in every
    group of it: the groups of a kind differ in those values)."""
    out = {}
    for kind in ("global_load", "frag_load", "mma"):
        mine = sorted((gid, fields) for gid, (k, fields, _) in g.items() if k == kind)
        first = mine[0][1]
        other = next(gid for gid, fields in mine
                     if all(fields[f] != v for f, v in first.items() if _flipped(kind, f)))
        out.update({gid: g[gid] for gid in (mine[0][0], other)})
    return out


def field_variants(text: str):
    """(label, text): every tag field of the :func:`covering` groups changed to another
    valid value."""
    for gid, (kind, fields, ns) in sorted(covering(groups(text)).items()):
        for field, value in fields.items():
            if not _flipped(kind, field):
                continue
            new = FLIPS[field][value]
            pattern = re.compile(rf"\b{field} = {re.escape(value)}")
            yield (f"id{gid}:{field}={new}",
                   mutate(text, ns, lambda ln, p=pattern, f=field, v=new:
                          _in_tag(ln, p, f"{f} = {v}")))


def _in_tag(line: str, pattern, repl: str) -> str:
    m = _TAG.search(line)
    inner = pattern.sub(repl, m.group(0), count=1)
    return line[:m.start()] + inner + line[m.end():]


def test_unmutated_kernels_pass():
    assert import_errors(ours(), OURS_SPEC) == []
    assert import_errors(iree_tagged(), IREE_SPEC) == []


@pytest.mark.parametrize("which", ["ours", "iree"])
def test_moved_payload_is_a_located_error(which):
    text, spec = (ours(), OURS_SPEC) if which == "ours" else (iree_tagged(), IREE_SPEC)
    variants = list(move_variants(text))
    assert len(variants) == 16  # 16 loads x another buffer of their operand
    ctx = new_context()
    for label, mutated in variants:
        errs = import_errors(mutated, spec, ctx)
        assert errs, f"{which} {label}: accepted"
        assert "tagged" in errs[0] and "sched-import" in errs[0], (label, errs)


@pytest.mark.parametrize("which", ["ours", "iree"])
def test_changed_tag_field_is_a_located_error(which):
    text, spec = (ours(), OURS_SPEC) if which == "ours" else (iree_tagged(), IREE_SPEC)
    variants = list(field_variants(text))
    # of 8 global loads, 8 fragment loads and 8 MMAs, two of each whose fields differ
    # (:func:`covering`: each field changed both ways): 2 global loads x (channel, stage,
    # subtile, k_offset), 2 fragment loads x 3 fields, 2 MMAs x (row, column)
    kinds = [kind for kind, _, _ in groups(text).values()]
    assert [kinds.count(k) for k in ("global_load", "frag_load", "mma")] == [8, 8, 8]
    assert len(variants) == 2 * 4 + 2 * 3 + 2 * 2, [label for label, _ in variants]
    ctx = new_context()
    for label, mutated in variants:
        errs = import_errors(mutated, spec, ctx)
        assert errs, f"{which} {label}: accepted"
        assert "sched-import" in errs[0], (label, errs)


def test_messages_name_the_disagreement():
    text = ours()
    g = groups(text)
    # a fragment load of B subtile 1 moved into the buffer of B subtile 0
    frag = next(gid for gid, (k, f, _) in g.items()
                if k == "frag_load" and f["channel"] == "1" and f["subtile"] == "1"
                and f["stage"] == "0")
    ns = g[frag][2]
    mutated = mutate(text, ns, lambda ln: ln.replace("%lds_b01[", "%lds_b00["))
    (err,) = import_errors(mutated, OURS_SPEC)[:1]
    assert "tagged as the fragment load of channel 1, stage 0, subtile 1 reads LDS written by " \
           "the global load tagged channel 1, stage 0, subtile 0" in err, err
    # a k_offset changed
    load = next(gid for gid, (k, f, _) in g.items()
                if k == "global_load" and f["k_offset"] == '"k1"')
    mutated = mutate(text, g[load][2], lambda ln: ln.replace('"k1"', '"k0"'))
    (err,) = import_errors(mutated, OURS_SPEC)[:1]
    assert "is tagged k_offset k0 but moves" in err or "tagged k_offset k1 but moves" in err, err
    # an MMA row changed
    mma = next(gid for gid, (k, f, _) in g.items() if k == "mma")
    mutated = mutate(text, g[mma][2], lambda ln: _in_tag(ln, re.compile(r"stage = 0"),
                                                          "stage = 1"))
    (err,) = import_errors(mutated, OURS_SPEC)[:1]
    assert "tagged as the MMA of row 1, column 0 takes its A operand from the fragment load" \
           in err, err


@pytest.mark.parametrize("value,shown", [("0 : i64", "0 : i64"), ('"k7"', '"k7"'),
                                         ("unit", "unit")])
def test_a_k_offset_that_names_no_k_offset_is_a_located_error(value, shown):
    """``k_offset`` is a string naming a K offset; an integer (or another name) is the tag's
    error, not an internal one."""
    text = ours()
    g = groups(text)
    load = next(gid for gid, (k, f, _) in g.items() if k == "global_load")
    mutated = mutate(text, g[load][2],
                     lambda ln: _in_tag(ln, re.compile(r'k_offset = "k\w+"'),
                                        f"k_offset = {value}"))
    (err,) = import_errors(mutated, OURS_SPEC)[:1]
    assert "sched-import" in err and "attribute 'sched.global_load' field 'k_offset' must be " \
           'one of "k0", "k1", "k_next", "k_prev", "none"; got ' + shown in err, err


def test_a_loop_of_one_iteration_still_checks_its_k_offsets():
    """With one iteration (two K tiles) the check stays inside the loop's K tiles (the next
    K step's ``k1`` tile would be past them: IREE's padded kernel of K = 100 peels a masked
    tile there, whose addresses are not the loop's) and measures the K tile from the ``k0``
    loads alone; a ``k_offset`` changed is still refused."""
    short = iree_tagged().replace("to %c128 step %46", "to %46 step %46")
    assert short != iree_tagged()
    assert import_errors(short, IREE_SPEC) == []
    flipped = {label[-3:]: (label, t) for label, t in field_variants(short)
               if "k_offset" in label}          # one k0 -> k1 and one k1 -> k0
    assert sorted(flipped) == ['k0"', 'k1"']
    for label, mutated in flipped.values():
        errs = import_errors(mutated, IREE_SPEC)
        assert errs and "tagged k_offset" in errs[0], (label, errs)


def test_loads_of_one_channel_with_different_past_the_end_lanes_are_refused_at_one():
    """Past-the-end lanes of kept copies are left out of the K moves (``_past_end``): two
    loads of one channel and subtile may then have different numbers of addresses; that is
    a load that does not move the other's K tile apart, refused at the load (before: numpy
    raised a ValueError comparing them, an internal error with no location)."""
    import numpy as np

    from pipeline_mlir.dialect.ir_io import IRError
    from types import SimpleNamespace

    from pipeline_mlir.frontend import tag_check as T

    ops = [SimpleNamespace(name="amdgpu.gather_to_lds", location=f"loc{i}") for i in (0, 1)]
    check = object.__new__(T._TagCheck)
    check._k_moves = lambda inside: {(0, 0, None): [
        (ops[0], 0, np.array([1, 2, 3]), 10, None), (ops[1], 1, np.array([11, 12]), 10, None)]}
    with pytest.raises(IRError) as e:
        check.k_offsets(lambda k: True)
    assert e.value.op is ops[1] and "moves another K tile" in str(e.value), str(e.value)


def test_loads_one_k_tile_apart_are_compared_on_the_tile_they_both_load():
    """Two loads of one channel and subtile one K tile apart (``k0``, ``k1``) are compared
    on the one tile both load, the ``k1`` load's at the first point against the ``k0``
    load's one K step on: where that tile is an unpeeled K tail (IREE's f16 ``A^T x B^T``
    24x5x232: one iteration, a whole K step and a masked one), its lanes past K read zeros
    and have no addresses, which the ``k0`` tile moved by a K step would not show (it was
    refused at sched-import: ``... moves another K tile ...``). The same tile loaded with
    another lane, or the ``k0`` load's next tile unknown and its moved addresses not the
    ``k1`` load's, still refused."""
    import numpy as np
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import tag_check as T

    ops = [SimpleNamespace(name="amdgpu.gather_to_lds", location=f"loc{i}") for i in (0, 1)]
    check = object.__new__(T._TagCheck)
    tail = np.array([11, 12])                       # the tail: lane 2 past K, no address
    items = {"k0": (ops[0], 0, np.array([1, 2, 3]), 10, tail),
             "k1": (ops[1], 1, tail, 10, None)}
    check._k_moves = lambda inside: {(0, 0, None): [items["k0"], items["k1"]]}
    check.k_offsets(lambda k: True)
    check._k_moves = lambda inside: {(0, 0, None): [items["k1"], items["k0"]]}
    check.k_offsets(lambda k: True)                 # (the other way round: k - ref_k = -1)
    for bad in ((ops[1], 1, np.array([11, 13]), 10, None),      # another lane of the tail
                (ops[1], 2, tail, 10, None)):                   # tagged two tiles on
        check._k_moves = lambda inside: {(0, 0, None): [items["k0"], bad]}
        with pytest.raises(IRError, match="moves another K tile"):
            check.k_offsets(lambda k: True)
    items["k0"] = (ops[0], 0, np.array([1, 2, 3]), 10, None)     # no next tile known
    check._k_moves = lambda inside: {(0, 0, None): [items["k0"], items["k1"]]}
    with pytest.raises(IRError, match="moves another K tile"):
        check.k_offsets(lambda k: True)


def test_a_load_of_kept_and_unkept_copies_moves_by_its_lanes_inside(monkeypatch):
    """One tagged load of two copies, one keeping a mask in its address (KEPT) and one not
    (IREE's i8 and fp8 ``A x B^T`` 2048x63x1024: of B's copies only the one holding row 63,
    past the end of B's 63 rows, keeps it): the kept copy's lanes past the end, fixed
    there, are left out of the K move, per copy. Before, only a load whose copies all kept
    one left them out, and this one was refused (its addresses do not move by one K
    step); a lane of the unkept copy that stays put is still refused."""
    import numpy as np
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import tag_check as T
    from pipeline_mlir.frontend.marks import KEPT

    class Root:                         # the global buffer (hashable, as a Value is)
        type = None

    with new_context():
        root = Root()
        root.type = ir.MemRefType.parse("memref<63x16xi8>")
        end = 63 * 16
        ops = [SimpleNamespace(name="amdgpu.gather_to_lds", location=f"loc{i}",
                               attributes={KEPT: True} if i else {}) for i in (0, 1)]
        first = {0: np.array([0, 16]), 1: np.array([32, end])}       # lane 1: row 63
        moved = {0: np.array([1, 17]), 1: np.array([33, end])}
        monkeypatch.setattr(T, "copy_elements", lambda ev, op: (None, None, root,
                                                               moved[ops.index(op)]))
        monkeypatch.setattr(T, "_zero_end", lambda op, ev: None)    # (no zero_end)
        check = object.__new__(T._TagCheck)
        check.ev = None
        check.load_info = [(ops, {}, (1, 0, 0), [(root, first[0]), (root, first[1])])]
        (key, ((_, _, addrs, dd, _),)), = check._k_moves(lambda k: True).items()
        assert key == (1, 0, root) and dd == 1 and list(addrs) == [0, 16, 32]
        # the kept copy's lane 0 past the end one K step on only (a K tail's lane past K,
        # IREE's f16 A^T x B^T 24x5x232): left out as well (before, counted, refused)
        moved[1] = np.array([end, end])
        (key, ((_, _, addrs, dd, nxt),)), = check._k_moves(lambda k: True).items()
        assert dd == 1 and list(addrs) == [0, 16, 32] and list(nxt) == [1, 17]
        moved[1] = np.array([33, end])
        ops[1].attributes = {}          # the same copy not keeping its mask: refused
        with pytest.raises(IRError, match="do not move by one K step"):
            check._k_moves(lambda k: True)


def test_lanes_pointed_past_the_end_of_a_buffer_that_reads_zero_there_move_no_k_tile(
        monkeypatch):
    """The front end's own copies point the rows a tile C's edge cuts past the end of a
    buffer that reads zero there (``block_fit.py``), keeping no mask: IREE's i8
    ``A x B^T`` 31x257x512 in its late form (A's row 31 of a 32-row tile) was refused at
    sched-import (its addresses do not move by one K step) while its prefetch point was
    exact. Such lanes, past the end at both K steps and below the offset a buffer load
    reaches (``kernel_ir.zero_end``), are left out of the K move; without the zero read, or a
    lane inside the buffer that stays put, still refused."""
    import numpy as np
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import tag_check as T

    class Root:
        type = None

    with new_context():
        root = Root()
        root.type = ir.MemRefType.parse("memref<31x16xi8>")
        end = 31 * 16
        ops = [SimpleNamespace(name="amdgpu.gather_to_lds", location="loc0", attributes={})]
        first = np.array([0, 16, end + 5])                  # lane 2: row 31, pointed past
        moved = {"now": np.array([1, 17, end + 5])}
        monkeypatch.setattr(T, "copy_elements", lambda ev, op: (None, None, root,
                                                               moved["now"]))
        check = object.__new__(T._TagCheck)
        check.ev = None
        check.load_info = [(ops, {}, (0, 0, 0), [(root, first)])]
        monkeypatch.setattr(T, "_zero_end", lambda op, ev: (end, 1 << 30))
        (key, ((_, _, addrs, dd, _),)), = check._k_moves(lambda k: True).items()
        assert dd == 1 and list(addrs) == [0, 16]
        moved["now"] = np.array([1, 16, end + 5])           # lane 1 inside, stays put
        with pytest.raises(IRError, match="do not move by one K step"):
            check._k_moves(lambda k: True)
        moved["now"] = np.array([1, 17, end + 5])
        monkeypatch.setattr(T, "_zero_end", lambda op, ev: None)
        with pytest.raises(IRError, match="do not move by one K step"):
            check._k_moves(lambda k: True)
        monkeypatch.setattr(T, "_zero_end", lambda op, ev: (end, end + 4))   # past reach
        with pytest.raises(IRError, match="do not move by one K step"):
            check._k_moves(lambda k: True)


def test_the_tags_are_checked_off_the_loops_last_k_tile_where_they_can_be():
    """The loop's last K tile may be an unpeeled K tail, its runs past K masked (IREE's f16
    ``A^T x B^T`` 24x5x1000: 4 K tiles of 256, two iterations; the K tail's masked runs
    read zeros, its loads fewer lanes than the tiles before): the tags are checked where no
    load's tile, at the first point or one K step on, is the last. Before, a loop of two
    iterations was checked one K step after its lower bound, its ``k1`` loads on the tail,
    and refused at sched-import (``its global addresses do not move by one K step``).
    Where no point avoids it, the points are the ones they were."""
    from pipeline_mlir.frontend.tag_check import _first_point

    two, three, one = (0, 32), (0, 48), (0, 16)      # tiles of 8: 4, 6 and 2 of them
    assert _first_point(0, 16, [0, 1], two) == 0       # tiles 0, 8, 16: not 24
    assert _first_point(0, 16, [0, 1], three) == 16    # (one K step after, as before)
    assert _first_point(0, 16, [0, 1], None) == 16     # (a bound known at run time)
    assert _first_point(0, 16, [0, 1], one) == 0       # no other: the tail checked
    assert _first_point(0, 16, [-1, 0], two) == 8      # k_prev's tile at 0, not before
    assert _first_point(0, 16, [-1, 0, 1], two) == 16  # none avoids it: as before
