"""The kernels of a gfx950 code object (``.hsaco``) or of its assembly text.

A :class:`Kernel` is what the emulator runs: the decoded instructions (byte offsets from
the kernel's entry) and the launch state the kernel descriptor asks for.

* :func:`kernels_from_hsaco`: the code object as :mod:`pipeline_mlir.isa.codeobject` reads
  it: each ``<name>.kd`` kernel descriptor and the ``<name>`` function symbol's code.
* :func:`~pipeline_mlir.emu.asmtext.kernels_from_asm` (a layer above) reads the assembly
  text of the same build (``--emit=asm``) into the same :class:`Kernel` records;
  :func:`~pipeline_mlir.emu.inputs.load_kernel` takes either.

A kernel loaded again from the same bytes or text (each memory mode, each workgroup, each
test of a session) shares what was computed from its instructions: :func:`prepared` keeps
the decoded instructions private, and every :class:`Kernel` handed out has copies of them
whose memos (:meth:`Kernel.memo`) are the private kernel's as long as its instructions are
unchanged; an edited instruction (a mutation test) computes them for that kernel alone.

The compiled steps (:meth:`Kernel.steps`) depend on the instructions alone (not on the
number of workgroups a batch runs in lockstep, the memory mode or the launch), so
:func:`compiled_steps` keeps them by the instructions' records (:func:`steps_key`): one
compilation per process for every kernel with those instructions (any workgroup count,
the parts a diverged batch splits into, a kernel loaded again or re-launched with other
launch state, a mutant run again); an edited instruction is another key.

Kernel descriptor fields used: the group segment (LDS), private segment and kernarg bytes,
COMPUTE_PGM_RSRC1/2/3 and the kernel code properties (their layout is documented in
:mod:`pipeline_mlir.isa.codeobject`).
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from pipeline_mlir.emu.decode import decode
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.long_branch import long_branch_targets
from pipeline_mlir.emu.program import compile_instr
from pipeline_mlir.isa.codeobject import (CodeObjectError, processor_name,
                                          read_code_object)
from pipeline_mlir.target.gfx950 import NAME

#: kernel code properties bits
KCP_KERNARG_PTR = 1 << 3
#: the user-SGPR inputs of kernel code properties gfx950 does not support: both set up
#: scratch, which its architected flat scratch sets up itself (AMDGPUUsage: "not supported
#: and must be 0"; see :mod:`pipeline_mlir.emu.scratch`)
_KCP_NAMES = {0: "private segment buffer", 5: "flat scratch init"}
#: COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT (architected flat scratch: scratch is on)
RSRC2_PRIVATE_SEGMENT = 1
#: the other user-SGPR inputs, in the order the SGPRs are set up (AMDGPUUsage, "Initial
#: Kernel Execution State", the SGPR set-up order): (bit, name, SGPRs)
USER_INPUTS = ((1, "dispatch_ptr", 2), (2, "queue_ptr", 2), (3, "kernarg_ptr", 2),
               (4, "dispatch_id", 2), (6, "private_segment_size", 1))


@dataclass
class LaunchState:
    """What the kernel descriptor asks the dispatcher to set up."""

    lds_bytes: int
    private_bytes: int
    kernarg_bytes: int
    user_sgprs: int
    kernarg_ptr: bool
    workgroup_id: tuple[bool, bool, bool]
    workgroup_info: bool
    workitem_id_dims: int      # 0: x only, 1: x y, 2: x y z
    vgprs: int                 # allocated architected + accumulation VGPRs
    accum_offset: int
    preload_dwords: int = 0    # kernel arguments preloaded into the SGPRs after the pointer
    #: the user-SGPR inputs before the preloaded arguments, in order (names of
    #: :data:`USER_INPUTS`); the default: the kernarg pointer alone, when it is enabled
    user_inputs: tuple[str, ...] | None = None

    def inputs(self) -> tuple[str, ...]:
        if self.user_inputs is not None:
            return self.user_inputs
        return ("kernarg_ptr",) if self.kernarg_ptr else ()


@dataclass
class Kernel:
    name: str
    instrs: list[Instr]
    launch: LaunchState
    source: str                # 'hsaco' or 'asm'
    #: the kernel's entry of the code object's metadata (``.args`` with each argument's
    #: ``.offset``, ``.size``, ``.value_kind``; ``.reqd_workgroup_size``...), from the code
    #: object's note or the assembly's ``.amdgpu_metadata``; None when there is none
    meta: dict | None = None

    _compiled: dict = field(default_factory=dict, repr=False, compare=False)
    #: the private kernel this one is a copy of (:func:`prepared`): as decoded, never
    #: handed out, never edited; its compiled steps and memos serve this kernel while its
    #: instructions equal the private ones (record equality); not copied by
    #: ``dataclasses.replace`` (a replaced kernel compiles its own)
    _pristine: "Kernel | None" = field(default=None, init=False, repr=False, compare=False)
    #: this kernel is a private one (:func:`prepared`): its instructions are never edited,
    #: so what is computed from them is kept without a snapshot to tell an edit by
    _frozen: bool = field(default=False, init=False, repr=False, compare=False)

    def explicit_args(self) -> list[dict]:
        """The metadata's kernel arguments the launch sets (``.args`` without the hidden
        ones the runtime adds after them, such as the grid's size); none without metadata."""
        return [a for a in (self.meta or {}).get(".args", [])
                if not str(a.get(".value_kind", "")).startswith("hidden_")]

    def at(self) -> dict[int, int]:
        """Byte offset -> index in ``instrs``."""
        return {ins.addr: i for i, ins in enumerate(self.instrs)}

    def _shared(self) -> "Kernel | None":
        p = self._pristine
        return p if p is not None and same_records(p.instrs, self.instrs) else None

    def serving(self) -> "Kernel":
        """The kernel whose compiled steps and memos serve this one while its instructions
        stay as they are now: the private kernel it is a copy of while they equal its
        instructions, else itself (one comparison for a caller asking several of them)."""
        if self._frozen:
            return self
        shared = self._shared()
        return self if shared is None else shared

    def memo(self, name: str, make):
        """``make(self)``, computed once for the kernel's instructions (``name`` keys it; an
        edited instruction, as in a mutation test, computes it again)."""
        shared = self._shared()
        if shared is not None:
            return shared.memo(name, make)
        hit = self._compiled.get(name)
        if hit is None or not self._unchanged(hit[0]):
            hit = self._compiled[name] = (self._snapshot(), make(self))
        return hit[1]

    def _snapshot(self) -> "_Snapshot | None":
        return None if self._frozen else _Snapshot(self.instrs)

    def _unchanged(self, snapshot: "_Snapshot | None") -> bool:
        return self._frozen or snapshot.matches(self.instrs)

    def steps(self) -> list:
        """The instructions compiled (:func:`compiled_steps`): for any number of workgroups
        in lockstep, the same list while the instructions are unchanged (never edit it)."""
        own = self if self._frozen else self._shared()
        if own is None:                     # edited, or not a copy: keyed by its records
            return compiled_steps(self.instrs)
        hit = own._compiled.get(_STEPS_MEMO)
        if hit is None:
            hit = own._compiled[_STEPS_MEMO] = compiled_steps(own.instrs)
        return hit

    def copy(self) -> "Kernel":
        """A kernel of copies of these instructions, launch state and metadata that shares
        what is computed from them while they stay unchanged (:func:`prepared`)."""
        pristine = self if self._frozen else self._shared()
        if pristine is None:
            pristine = Kernel(self.name, [_copy_instr(i) for i in self.instrs], self.launch,
                              self.source, self.meta)
            pristine._frozen = True
        out = Kernel(self.name, [_copy_instr(i) for i in self.instrs],
                     replace(self.launch), self.source, copy.deepcopy(self.meta))
        out._pristine = pristine
        return out


def same_records(a: list, b: list) -> bool:
    """``a == b`` for two lists of :class:`~pipeline_mlir.emu.instr.Instr` (record
    equality: same class, fields equal), in half the time: each instruction's attributes
    compared as dicts.  An instruction with an attribute beside its fields compares
    unequal here even when its fields are equal: its kernel then computes its own steps
    and memos (the same ones), never shares another's wrongly."""
    return len(a) == len(b) and list(map(type, a)) == list(map(type, b)) and \
        [i.__dict__ for i in a] == [i.__dict__ for i in b]


def _copy_instr(ins: Instr) -> Instr:
    out = object.__new__(type(ins))          # what copy.copy does, without its dispatch
    out.__dict__ = dict(ins.__dict__, f=dict(ins.f))
    return out


class _Snapshot:
    """What a kernel's instructions were: the objects (the compiled steps hold them) and
    copies of them, to tell an edited instruction (a field changed in place: record
    equality, or another object put in its place)."""

    def __init__(self, instrs: list) -> None:
        self.objects = [id(i) for i in instrs]
        self.copies = [_copy_instr(i) for i in instrs]

    def matches(self, instrs: list) -> bool:
        return [id(i) for i in instrs] == self.objects and same_records(instrs, self.copies)


#: the key of a private kernel's steps in its memos
_STEPS_MEMO = ("steps",)
#: the compiled steps of the last instruction lists compiled, by :func:`steps_key`
_STEPS: OrderedDict = OrderedDict()
#: how many instruction lists :data:`_STEPS` keeps
STEP_LISTS = 16


def steps_key(instrs: list) -> tuple:
    """Everything a kernel's compiled steps depend on: each instruction's record (its
    address, size, encoding, opcode, mnemonic, fields, literal and text), in order (the
    branch targets are the indices of addresses in it)."""
    return tuple((i.addr, i.size, i.enc, i.op, i.name, tuple(sorted(i.f.items())), i.lit,
                  i.text) for i in instrs)


def compiled_steps(instrs: list) -> list:
    """The :class:`~pipeline_mlir.emu.operands.Step` of each of ``instrs``
    (:func:`~pipeline_mlir.emu.program.compile_instr`), compiled once per process for the
    same records (:func:`steps_key`; the last :data:`STEP_LISTS` lists kept).  The steps
    are compiled from copies of the instructions, which nothing edits, so a caller editing
    its own instructions later changes neither the steps nor what they are kept for."""
    key = steps_key(instrs)
    hit = _STEPS.get(key)
    if hit is not None:
        _STEPS.move_to_end(key)
        return hit
    own = [_copy_instr(i) for i in instrs]
    index_of, far = {ins.addr: k for k, ins in enumerate(own)}, long_branch_targets(own)
    hit = _STEPS[key] = [compile_instr(ins, index_of, far) for ins in own]
    while len(_STEPS) > STEP_LISTS:
        _STEPS.popitem(last=False)
    return hit


#: the kernels of the last code objects and assembly texts loaded, by their bytes or text
_PREPARED: OrderedDict = OrderedDict()
#: how many sources :data:`_PREPARED` keeps
PREPARED_SOURCES = 16


def prepared(data: bytes | str, read) -> dict[str, Kernel]:
    """``read(data)`` (name -> :class:`Kernel`), read once per process for the same ``data``
    (the last :data:`PREPARED_SOURCES` sources kept): each call returns copies
    (:meth:`Kernel.copy`), so a caller may edit its kernel without touching another's."""
    key = (type(data), data)
    kernels = _PREPARED.get(key)
    if kernels is None:             # the kernels just read, kept private (never edited)
        kernels = read(data)
        for k in kernels.values():
            k._frozen = True
        _PREPARED[key] = kernels
        while len(_PREPARED) > PREPARED_SOURCES:
            _PREPARED.popitem(last=False)
    else:
        _PREPARED.move_to_end(key)
    return {name: k.copy() for name, k in kernels.items()}


def launch_from_descriptor(name: str, lds: int, private: int, kernarg: int, rsrc1: int,
                           rsrc2: int, rsrc3: int, props: int, preload: int = 0) -> LaunchState:
    """The launch state a kernel descriptor asks for; ``preload``: the dwords of kernel
    arguments preloaded into user SGPRs (KERNARG_PRELOAD_SPEC_LENGTH, gfx950)."""
    where = f"kernel {name}"
    if private and not rsrc2 & RSRC2_PRIVATE_SEGMENT:
        raise EmuError(f"{where}: the kernel uses {private} bytes of scratch (private "
                       f"segment) but COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT is 0")
    for bit, what in _KCP_NAMES.items():
        if props & (1 << bit):
            raise EmuError(f"{where}: the kernel descriptor asks for the {what} in user "
                           f"SGPRs, which {NAME} (architected flat scratch) does not "
                           f"support: it must be 0")
    user = (rsrc2 >> 1) & 0x1F
    kernarg_ptr = bool(props & KCP_KERNARG_PTR)
    if preload and not kernarg_ptr:
        raise EmuError(f"{where}: kernel arguments are preloaded without the kernarg pointer")
    inputs = tuple(name for bit, name, _n in USER_INPUTS if props & (1 << bit))
    expected = sum(n for bit, _name, n in USER_INPUTS if props & (1 << bit)) + preload
    if user != expected:
        raise EmuError(f"{where}: USER_SGPR_COUNT is {user}, expected {expected} for the "
                       f"inputs the descriptor enables")
    return LaunchState(lds, private, kernarg, user, kernarg_ptr,
                       (bool(rsrc2 >> 7 & 1), bool(rsrc2 >> 8 & 1), bool(rsrc2 >> 9 & 1)),
                       bool(rsrc2 >> 10 & 1), (rsrc2 >> 11) & 3,
                       ((rsrc1 & 0x3F) + 1) * 8, ((rsrc3 & 0x3F) + 1) * 4, preload, inputs)


def check_processor(processor: str, where: str) -> None:
    """Refuse a kernel built for another processor than the one the emulator models
    (``where``: what says so): its encodings, registers and hazards are another's."""
    if processor != NAME:
        raise EmuError(f"{where} says the kernel is for {processor}; the emulator models "
                       f"{NAME} only (build the kernel for {NAME})")


def kernels_from_hsaco(data: bytes) -> dict[str, Kernel]:
    """Every kernel of a linked code object (read by
    :func:`~pipeline_mlir.isa.codeobject.read_code_object`), decoded."""
    try:
        co = read_code_object(data)
    except CodeObjectError as e:
        raise EmuError(str(e)) from None
    check_processor(processor_name(co.e_flags), "the code object's ELF header (e_flags)")
    out = {}
    for name, kc in co.kernels.items():
        if kc.code is None:
            raise EmuError(f"kernel {name}: the descriptor's entry 0x{kc.entry:x} is not the "
                           f"address of the symbol {name!r} in a loaded section")
        f = kc.fields
        launch = launch_from_descriptor(name, f["group_segment_fixed_size"],
                                        f["private_segment_fixed_size"], f["kernarg_size"],
                                        f["rsrc1"], f["rsrc2"], f["rsrc3"],
                                        f["code_properties"],
                                        kc.descriptor[58] & 0x7F)   # KERNARG_PRELOAD length
        try:
            instrs = decode(kc.code)
        except EmuError as e:
            raise EmuError(f"kernel {name}: {e}") from None
        meta = next((k for k in (co.metadata or {}).get("amdhsa.kernels", [])
                     if k.get(".name") == name), None)
        out[name] = Kernel(name, instrs, launch, "hsaco", meta=meta)
    if not out:
        raise EmuError("the code object has no kernel (no '<name>.kd' symbol)")
    return out
