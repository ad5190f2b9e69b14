"""The names of the marks the front end puts on what it makes, and the readers of the one
mark a pass after it looks for (a loop left whole).

The modules that make each mark import its name from here, and so do the ones that only
look for it: :mod:`~pipeline_mlir.frontend.reserved` (which refuses the marks on the input,
looked for on every op of every module ``sched-adopt-loop`` sees), ``sched-import``, the
lowering and the LLVM step's passes, which then start without the front end's rewriting
modules and what they import (numpy, the ISA report).  No import but the MLIR helpers.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops

#: the attribute of a remainder loop (:mod:`pipeline_mlir.frontend.tails`): the K tiles
#: after a pipelined loop, run as written; no natural loop to pipeline
REMAINDER_ATTR = "sched.remainder"
#: on a remainder loop that is rebuilt on the schedule's stage-0 buffers
#: (:mod:`pipeline_mlir.frontend.shared_remainder`)
SHARED_ATTR = "sched.remainder_shared"
#: on a remainder loop with LDS of its own that may move to the schedule's buffers instead
#: (no masked copies), should its own not fit beside them
SHAREABLE_ATTR = "sched.remainder_shareable"
#: on a remainder loop that no pipelined loop precedes (:func:`~pipeline_mlir.frontend.
#: tails.whole_remainder`): why it runs as written (a string)
WHOLE_ATTR = "sched.unpipelined"
#: on an LDS allocation of a masked remainder loop's own (made by ``tails``)
OWN_ATTR = "sched.remainder_lds"
#: on such an allocation that is to live on one of the schedule's buffers instead
ALIAS_ATTR = "sched.remainder_aliased"
#: on a remainder loop whose copies :func:`~pipeline_mlir.frontend.remainder_dma.
#: copies_ahead` issued before the pipelined loop
COPIES_AHEAD_ATTR = "sched.copies_ahead"
#: on a remainder loop with copies to LDS left in its iteration: why (a string)
COPIES_IN_PLACE_ATTR = "sched.copies_in_place"
#: on a remainder loop whose global loads :func:`~pipeline_mlir.frontend.remainder_ahead.
#: load_ahead` issues an iteration ahead
LOADS_AHEAD_ATTR = "sched.loads_ahead"
#: on a remainder loop left as written: why (a string)
LOADS_IN_PLACE_ATTR = "sched.loads_in_place"
#: on a natural loop that runs only when it has a pair of iterations (``frontend/tails.py``)
PAIR_GUARD_ATTR = "sched.pair_guarded"
#: on a loop the front end versioned on its workgroup's tile (frontend/edge_version.py),
#: and on the pipelined loop made from it: the kernel plan and ``--emit=report`` say so
VERSIONED_ATTR = "sched.edge_versioned"
#: what they say
VERSIONED_NOTE = ("pipelined in workgroups whose tile is inside M and N; the edge workgroups "
                  "run the loop as written")
#: on a kernel whose K-loop of two K steps keeps its masked K tail in the pipelined pair
#: (:mod:`~pipeline_mlir.frontend.kept_tail`), while the front end adopts it
KEPT_TAIL_ATTR = "sched.kept_tail"
#: on such a loop adopted again with the tail peeled: why the pair was refused (a string)
TAIL_REFUSED_ATTR = "sched.kept_tail_refused"
#: the unit attribute of a load that keeps a mask in its address
#: (:mod:`~pipeline_mlir.frontend.kept_masks`), and of the copy regcopy makes of it
KEPT = "sched.kept_mask"
#: the unit attribute of the row ``select(guard, row, L)`` of a guarded row copy made a
#: read of a range-checked buffer, its guard and row proven for every workgroup and size
#: (:mod:`~pipeline_mlir.frontend.masked_rows_late`, :mod:`~pipeline_mlir.frontend.
#: direct_rows_late`): the one index that may mix a launch value with the thread
#: (:func:`~pipeline_mlir.frontend.every_workgroup.launch_mixing_op`)
PROVEN_ROW = "sched.proven_row"
#: the integer attribute (``delta``) of a read whose run the edge cuts inside
#: (:mod:`~pipeline_mlir.frontend.cut_runs`)
CUT = "sched.kept_cut"
#: the integer attribute (the bytes of a piece: one element's) of a marked read whose size
#: cuts a ``cut_runs.PIECE_BYTES`` piece somewhere, and of its copies: copied an element
#: per lane, register-staged
ODD = "sched.kept_cut_piece"
#: the unit attribute of a copy whose global source is not aligned to its size: it stays an
#: ``amdgpu.gather_to_lds`` through the schedule, and the LLVM step stages it through
#: registers (``sched-stage-copies``, whose documented input it is: not refused)
STAGED = "sched.register_staged"
#: the string attribute (why) of a copy of fewer bytes per lane than a direct-to-LDS copy
#: moves, which only the front end's own copies replace (``frontend/regcopy.py``)
NARROW = "sched.narrow_copy"
#: the loop's attribute once its MFMAs are halved (the analysis is not asked twice)
HALVED_ATTR = "sched.k_halved"
#: a read of a piece of a fragment read the halving made: (the fragment read's number, its
#: first element, its elements), taken off again once ``frontend/half_join.py`` has read it
PIECE_ATTR = "sched.k_piece"
#: a read of two such pieces joined (its elements per piece), taken off again once the loop
#: has been analysed with it (or split again: ``frontend/half_join.py``)
JOINED_ATTR = "sched.k_joined"
#: a halved loop's attribute once the crosswise split leaves it refused: B is split into
#: A's own K halves, the ``k_subtiles=ab_diagonal`` form (``frontend/natural.py``'s
#: ``_diagonal``)
DIAGONAL_ATTR = "sched.k_diagonal"
#: a loop's attribute naming the operand held whole in each stage (the string ``"a"`` or
#: ``"b"``), the ``whole=a`` / ``whole=b`` form: the one the pipeline asks to hold
#: (``frontend/natural.py``'s ``_ask_held``), or, once no other form takes the loop, the
#: operand whose fragment reads split neither by accumulator nor along K (``_held`` there,
#: ``k_subtiles.one_fragment_wide``); ``layout.redistribute`` holds that one
#: (``k_subtiles.held_of``)
HELD_ATTR = "sched.held_whole"
#: a merged loop's attribute: how many of the kernel's K steps one iteration runs
#: (``frontend/kmerge.py``; the adopted loop's form says it)
MERGED_ATTR = "sched.k_merged"
#: on an LDS allocation given padding rows for a copy spread one element a thread
#: (:mod:`~pipeline_mlir.frontend.partial_elements`): the elements of its copies that no
#: read reads are that padding, not the tile's (the tile's size counts the others)
PADDING_ROWS_ATTR = "sched.padding_rows"
#: the adopted loop's attribute: what ``merge_k`` decided for a latency-short loop and why
#: (``kmerge_factor.merge_note``; ``--emit=report`` prints it)
MERGE_NOTE_ATTR = "sched.merge_k"
#: the adopted loop's attribute: its K step split for a lane's registers, or left over their
#: budget, and why (``frontend/fragment_budget.py``; ``--emit=report`` prints it)
KSPLIT_NOTE_ATTR = "sched.k_split"


def is_whole_remainder(loop) -> bool:
    """Whether ``tails.whole_remainder`` made ``loop`` the remainder path."""
    return WHOLE_ATTR in loop.attributes


#: what :func:`whole_note` says of a whole remainder whose mark is no note (the front end's
#: own output given back, marked before the mark kept why, or with another value)
GIVEN_BACK_NOTE = (f"not pipelined: the K-loop carries '{WHOLE_ATTR}' and "
                   f"'{REMAINDER_ATTR}' in the input (the front end's own output given back: "
                   f"a loop too short to pipeline); the loop runs as written")


def whole_note(loop) -> str:
    """The note ``tails.whole_remainder`` left on ``loop`` (why it is not pipelined); a mark
    that is not a string (an input that carries it: the front end's output given back,
    ``frontend/reserved.py``) is :data:`GIVEN_BACK_NOTE`."""
    attr = loop.attributes[WHOLE_ATTR]
    return ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else GIVEN_BACK_NOTE


def whole_remainders(module) -> list:
    """The loops of ``module`` that ``tails.whole_remainder`` made the remainder path (no
    pipelined loop before them)."""
    return [o for o in walk_ops(module, lambda x: x.name == "scf.for"
                                and REMAINDER_ATTR in x.attributes)
            if WHOLE_ATTR in o.attributes]
