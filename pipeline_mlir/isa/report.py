"""Kernel resource report: registers, LDS, occupancy, spills, instruction counts.

Two independent readings of one compiled kernel are cross-checked:

* the assembly LLVM prints (:mod:`pipeline_mlir.isa.asm`): the ``.amdgpu_metadata``
  YAML, the ``.amdhsa_kernel`` directives, the ``.set`` symbols and LLVM's own
  ``; Occupancy`` comment;
* the linked code object (``.hsaco``, read by :mod:`pipeline_mlir.isa.codeobject`):
  the ``NT_AMDGPU_METADATA`` ELF note and the kernel descriptor (``<kernel>.kd``:
  LDS, scratch, kernarg size, ``COMPUTE_PGM_RSRC1/3``: allocated VGPRs,
  accumulator offset).

Occupancy (waves per SIMD) is computed from the chip's facts
(:mod:`pipeline_mlir.target.gfx950`): a unified VGPR file per lane allocated in
granules (AGPRs follow the architected VGPRs at ``alignTo(vgprs, 4)``; the allocation
is ``.amdhsa_next_free_vgpr``, which LLVM pads when ``amdgpu-waves-per-eu`` or LDS caps
the occupancy, unlike the metadata's ``.vgpr_count``); the most waves per SIMD; the
SGPR rule of gfx9 on LLVM's ``NumSGPRsForWavesPerEU``; the LDS of a CU shared by whole
workgroups, over the SIMDs of the CU.  The result is printed beside LLVM's ``;
Occupancy`` and a difference is flagged.

A kernel whose MFMAs are in no loop (LLVM unrolls a K-loop of a small constant trip count
fully, as it does IREE Wave's 2-trip GEMM) has no main loop: the report says so and why
(:func:`unrolled_note`, from the LLVM IR compiled) and still reports the rest.  One whose
pipelined loop LLVM unrolled beside a remainder loop it kept reports that loop as the main
loop and says why the ISA check's comparison with the schedule and its order rule, which
read the pipelined loop, are not run
(:func:`~pipeline_mlir.isa.which_loop.not_the_pipelined_loop`).  Either way the rules that read
the assembly alone run on the whole function
(:func:`~pipeline_mlir.isa.check.check_without_schedule`): the report names them and prints
their findings.

No MLIR and no LLVM here: the caller compiles and links the kernel
(:mod:`pipeline_mlir.isa.codegen`) and hands over the assembly and the code object (and
the LLVM IR text, to tell a loop LLVM unrolled).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import AsmFunction, AsmModule, parse_asm, spill_counts
from pipeline_mlir.isa.built_check import errors, pipelined_check
from pipeline_mlir.isa.which_loop import ir_loops
from pipeline_mlir.isa.codeobject import CodeObject, read_code_object
from pipeline_mlir.isa.occupancy import ReportError, align, occupancy_gfx950
from pipeline_mlir.kernel.subtile_form import SubtileForm
from pipeline_mlir.target.gfx950 import (MAX_WAVES_PER_SIMD, NAME, SIMDS_PER_CU, VGPR_GRANULE,
                                         VGPRS, wave_count)

__all__ = ["ReportError", "Resources", "KernelReport", "occupancy_gfx950", "resources_from_asm",
           "resources_from_hsaco", "cross_check",
           "instruction_counts", "vgpr_roles", "vgpr_padding", "loop_counts", "kernel_report",
           "REFERENCE_PINGPONG_BF16", "REFERENCE_LOOPS", "CROSSWISE_NOTE",
           "lockstep_note"]

#: The reference ping-pong BF16 256x256x64 kernel (K=256), whole kernel:
#: instruction counts of the reference's own compiled kernel.
REFERENCE_PINGPONG_BF16 = {
    "kernel": "gemm_pingpong_bf16_256x256x64",
    "counts": {"v_mfma_f32_16x16x32_bf16": 256, "ds_read_b128": 96, "buffer_load ... lds": 32,
               "s_waitcnt": 29, "s_barrier": 33, "s_setprio": 28},
    "vgprs": 210, "lds_bytes": 131072, "spills": 0,
}


#: The reference's kernels built with a real main loop (K=8192): per main-loop iteration of
#: one wave, the vector ALU instructions (address arithmetic, loop control; MFMAs not
#: counted) and the kernel's VGPRs, by the name of our kernel of the same shape.
REFERENCE_LOOPS = {
    "gemm_pingpong_bf16_256x256x64": {"VALU": 17, "VGPRs": 254},
    "gemm_pingpong_fp8_256x256x128": {"VALU": 17, "VGPRs": 256},
    "gemm_4wave_bf16_128x128x64": {"VALU": 17, "VGPRs": 204},
    "gemm_4wave_fp8_128x128x128": {"VALU": 17, "VGPRs": 176},
    "gemm_4wave_fp8_64x64x128": {"VALU": 9, "VGPRs": 90},
}


def vgpr_padding(vgprs: int, vgpr_alloc: int, limits: dict[str, int]) -> str | None:
    """Why the allocation exceeds the VGPRs the kernel uses (None: it does not).

    LLVM allocates at least the fewest VGPRs that allow no more waves per SIMD than its
    ``amdgpu-waves-per-eu`` maximum (which LDS or SGPRs may set): one granule more than
    the most a wave may hold at one wave more (a 512-VGPR file at one wave: 257)."""
    if vgpr_alloc <= vgprs:
        return None
    text = f"LLVM pads the allocation from {vgprs} to {vgpr_alloc}"
    others = {k: v for k, v in limits.items() if k not in ("vgpr", "max")}
    cap = min(others.values(), default=MAX_WAVES_PER_SIMD)
    fewest = (VGPRS // (cap + 1)) // VGPR_GRANULE * VGPR_GRANULE + 1
    if cap < MAX_WAVES_PER_SIMD and vgpr_alloc == fewest:
        by = " and ".join(k for k, v in others.items() if v == cap)
        waves = f"{cap} wave" + ("s" if cap > 1 else "")
        text += (f", the fewest VGPRs that allow at most {waves} per SIMD, the limit "
                 f"{by} sets already: the padding costs no occupancy")
    return text


# ---------------------------------------------------------------------------
# resources

@dataclass
class Resources:
    name: str
    vgprs: int                 # .vgpr_count: the architected VGPRs, plus the AGPRs if any
    agprs: int
    sgprs: int                 # .sgpr_count
    vgpr_alloc: int            # .amdhsa_next_free_vgpr (what occupancy uses)
    accum_offset: int
    lds_bytes: int
    scratch_bytes: int
    vgpr_spills: int
    sgpr_spills: int
    workgroup_size: int
    wavefront_size: int
    kernarg_size: int
    sgprs_for_waves: int       # LLVM's NumSGPRsForWavesPerEU (else .sgpr_count)
    llvm_occupancy: int | None = None
    arch_vgprs: int | None = None  # the architected VGPRs alone (num_vgpr), with AGPRs

    @property
    def architected(self) -> int:
        """The architected VGPRs (``v0..``): ``.vgpr_count`` counts the AGPRs too when the
        kernel has any (from ``accum_offset``)."""
        return self.vgprs if self.arch_vgprs is None else self.arch_vgprs


def _need(d: dict, key: str, where: str):
    if key not in d:
        raise ReportError(f"{where} has no {key}")
    return d[key]


def resources_from_asm(module: AsmModule, name: str) -> Resources:
    md = module.kernel_metadata(name)
    kd = module.metadata["amdhsa_kernel"].get(name)
    if kd is None:
        raise ReportError(f"the assembly has no .amdhsa_kernel {name}")
    info = module.metadata["kernel_info"].get(name, {})
    w = f"the .amdgpu_metadata of {name}"
    occ = info.get("Occupancy")
    reqd = md.get(".reqd_workgroup_size")
    wg = reqd[0] * reqd[1] * reqd[2] if reqd else _need(md, ".max_flat_workgroup_size", w)
    vgpr_spills, sgpr_spills = spill_counts(md)
    return Resources(
        name=name, vgprs=_need(md, ".vgpr_count", w), agprs=md.get(".agpr_count", 0),
        sgprs=_need(md, ".sgpr_count", w),
        vgpr_alloc=_need(kd, ".amdhsa_next_free_vgpr", f".amdhsa_kernel {name}"),
        accum_offset=kd.get(".amdhsa_accum_offset", 0),
        lds_bytes=_need(md, ".group_segment_fixed_size", w),
        scratch_bytes=_need(md, ".private_segment_fixed_size", w),
        vgpr_spills=vgpr_spills, sgpr_spills=sgpr_spills,
        workgroup_size=wg, wavefront_size=_need(md, ".wavefront_size", w),
        kernarg_size=_need(md, ".kernarg_segment_size", w),
        sgprs_for_waves=info.get("NumSGPRsForWavesPerEU", md[".sgpr_count"]),
        llvm_occupancy=occ if isinstance(occ, int) else None,
        arch_vgprs=_arch_vgprs(module, name, md))


def _arch_vgprs(module: AsmModule, name: str, md: dict) -> int | None:
    """The architected VGPRs of a kernel with AGPRs (LLVM's ``num_vgpr`` symbol), else None."""
    if not md.get(".agpr_count", 0):
        return None
    n = module.metadata["symbols"].get(name, {}).get("num_vgpr")
    if not isinstance(n, int):
        raise ReportError(f"the assembly has no integer .set {name}.num_vgpr for a kernel "
                          f"with AGPRs")
    return n


def resources_from_hsaco(hsaco: CodeObject, name: str) -> dict:
    """The metadata entry and descriptor fields of kernel ``name`` in a code object."""
    kernels = hsaco.metadata.get("amdhsa.kernels", []) if isinstance(hsaco.metadata,
                                                                     dict) else []
    md = next((k for k in kernels if isinstance(k, dict) and k.get(".name") == name), None)
    if md is None:
        raise ReportError(f"the code object's metadata has no kernel {name!r}")
    kd = hsaco.kernels.get(name)
    if kd is None:
        raise ReportError(f"the code object has no kernel descriptor {name}.kd")
    return {"metadata": md, "descriptor": kd.fields}


def cross_check(res: Resources, obj: dict) -> list[str]:
    """Differences between the assembly's reading and the code object's (empty = agree)."""
    md, kd = obj["metadata"], obj["descriptor"]
    spills = spill_counts(md)
    out = []
    pairs = [
        (".vgpr_count", res.vgprs, md.get(".vgpr_count")),
        (".agpr_count", res.agprs, md.get(".agpr_count", 0)),
        (".sgpr_count", res.sgprs, md.get(".sgpr_count")),
        (".group_segment_fixed_size", res.lds_bytes, md.get(".group_segment_fixed_size")),
        (".private_segment_fixed_size", res.scratch_bytes, md.get(".private_segment_fixed_size")),
        (".vgpr_spill_count", res.vgpr_spills, spills[0]),
        (".sgpr_spill_count", res.sgpr_spills, spills[1]),
        (".wavefront_size", res.wavefront_size, md.get(".wavefront_size")),
        (".kernarg_segment_size", res.kernarg_size, md.get(".kernarg_segment_size")),
        ("KD group_segment_fixed_size", res.lds_bytes, kd["group_segment_fixed_size"]),
        ("KD private_segment_fixed_size", res.scratch_bytes, kd["private_segment_fixed_size"]),
        ("KD kernarg_size", res.kernarg_size, kd["kernarg_size"]),
        (f"KD allocated VGPRs (next_free_vgpr in granules of {VGPR_GRANULE})",
         align(max(res.vgpr_alloc, 1), VGPR_GRANULE), kd["allocated_vgprs"]),
    ]
    if res.accum_offset:
        pairs.append(("KD accum_offset", res.accum_offset, kd["accum_offset"]))
    for what, a, b in pairs:
        if a != b:
            out.append(f"{what}: assembly {a}, code object {b}")
    return out


# ---------------------------------------------------------------------------
# instruction counts and register roles

#: whole-kernel count rows: (label, predicate on an AsmInstr)
COUNT_ROWS = (
    ("mfma", lambda i: i.kind == "mfma"),
    ("ds_read_b128", lambda i: i.mnemonic == "ds_read_b128"),
    ("ds_read (other)", lambda i: i.kind == "ds_read" and i.mnemonic != "ds_read_b128"),
    ("ds_write", lambda i: i.kind == "ds_write"),
    ("buffer_load ... lds", lambda i: i.kind == "vmem_load_lds"),
    ("vector loads", lambda i: i.kind == "vmem_load"),
    ("vector stores", lambda i: i.kind == "vmem_store"),
    ("scalar loads", lambda i: i.kind == "smem"),
    ("s_waitcnt", lambda i: i.kind == "wait"),
    ("s_barrier", lambda i: i.kind == "barrier"),
    ("s_setprio", lambda i: i.kind == "setprio"),
    ("sched_barrier", lambda i: i.kind == "sched_barrier"),
    ("sched_group_barrier", lambda i: i.kind == "sched_group_barrier"),
    ("s_nop", lambda i: i.kind == "nop"),
)


def instruction_counts(fn: AsmFunction) -> dict[str, int]:
    """Whole-kernel static counts (each instruction once, the loop body once)."""
    instrs = fn.instrs()
    out = {label: sum(1 for i in instrs if pred(i)) for label, pred in COUNT_ROWS}
    mfmas = Counter(i.mnemonic for i in instrs if i.kind == "mfma")
    out.update({f"  {m}": n for m, n in sorted(mfmas.items())})
    return out


def loop_counts(fn: AsmFunction) -> dict[str, int]:
    """Instructions of one main-loop iteration (the loop body once) by kind: ``VALU``
    (vector ALU, MFMAs not included), ``SALU`` (scalar ALU, ``s_mov m0`` included);
    empty when the function has no main loop."""
    try:
        loop = [i for b in fn.main_loop() for i in b.instrs]
    except PipelineError:
        return {}
    return {"VALU": sum(1 for i in loop if i.kind == "valu"),
            "SALU": sum(1 for i in loop if i.kind == "salu")}


def vgpr_roles(fn: AsmFunction) -> dict[str, int]:
    """Distinct VGPRs (v and a) of the main loop by role: written by MFMAs
    (accumulators), by ds reads (fragments), by other instructions, and only read
    (loop-invariant values: addresses, descriptors)."""
    try:
        loop = [i for b in fn.main_loop() for i in b.instrs]
    except PipelineError:
        return {}

    def vregs(regs):
        return {r for r in regs if r[0] in "va" and r[1:].isdigit()}
    acc = {r for i in loop if i.kind == "mfma" for r in vregs(i.defs)}
    frag = {r for i in loop if i.kind == "ds_read" for r in vregs(i.defs)} - acc
    written = {r for i in loop for r in vregs(i.defs)}
    other = written - acc - frag
    read_only = {r for i in loop for r in vregs(i.uses)} - written
    return {"main loop: accumulators (MFMA results)": len(acc),
            "main loop: fragments (ds_read results)": len(frag),
            "main loop: other results (addresses, counters)": len(other),
            "main loop: read only (loop-invariant)": len(read_only)}


# ---------------------------------------------------------------------------
# the report

#: ``--emit=report``'s line for a loop split crosswise (both operands along K) with one MFMA
#: per MMA block and none of its K steps merged (the front end merges them when the loop
#: allows it): why it is slower than IREE's own prefetch in the simulator, and what is
#: faster (docs/iree-pingpong.md, the section on one fragment of A and one of B per wave)
CROSSWISE_NOTE = (
    "performance: slower than IREE's own 2-stage prefetch of the same dispatch in the "
    "simulator (not hardware): a wave holds one accumulator, so each MMA block, between "
    "barriers, is one MFMA, too little work to hide the global-load latency that the "
    "ping-pong schedule exposes once per K tile (each stage's last A copy is waited for "
    "less than a K tile after it is issued); faster: IREE's own kernel, or a K step twice "
    "as long (2 MFMAs per MMA block)")


def lockstep_note(waves: int, spills: int) -> str:
    """``--emit=report``'s line for a kernel of more than 4 waves run in lockstep by the
    4-wave schedule whose registers spill: what that costs and what schedules 8 waves
    (docs/iree-configurations.md, the section on other wave counts)."""
    per_simd = -(-waves // SIMDS_PER_CU)      # on the fullest SIMD
    note = (f"performance: {waves} waves run the 4-wave schedule in lockstep and {spills} "
            f"VGPRs spill to scratch: {per_simd} waves share a SIMD's registers "
            f"({VGPRS // per_simd} a wave), and each wave holds two K tiles' fragments "
            f"beside its accumulators")
    return note + ("; --pipeline=pingpong schedules 8 waves as two groups" if waves == 8
                   else "")


@dataclass
class KernelReport:
    resources: Resources
    occupancy: int
    limits: dict[str, int]
    mismatches: list[str]
    counts: dict[str, int]
    roles: dict[str, int]
    loop: dict[str, int] = field(default_factory=dict)
    isa: object = None                 # pipeline_mlir.isa.check.IsaCheck or None
    isa_note: str = ""
    #: the findings of the rules run without the schedule where the comparison is not
    #: (check_without_schedule), and those rules' names
    isa_plain: list | None = None
    isa_plain_rules: tuple[str, ...] = ()
    #: the kinds of the findings that refuse a code build of the kernel
    #: (:func:`~pipeline_mlir.isa.built_check.errors`; None: no plan, nothing checked)
    refusing: tuple[str, ...] | None = None
    loop_note: str = ""                # why there is no main loop to report, if so
    reference: dict | None = None
    notes: list[str] = field(default_factory=list)
    form: SubtileForm | None = None    # the kernel plan's form (its subtiles), if not the usual
    form_waits: str = "block"          # its MMAs' waits: block, or fragment (WAIT_FRAG entries)
    form_mfmas: int = 0                # MFMAs per MMA block (the ISA check's; 0: not known)
    lockstep_waves: int = 0            # waves of a lockstep schedule's plan, if more than 4
    workgroups: str = ""               # which workgroups run the main loop, where not all
    merge_note: str = ""               # the front end's merge_k decision (frontend/kmerge.py)
    ksplit_note: str = ""              # its K split for registers (frontend/fragment_budget.py)
    #: a module built twice in two orders of LLVM's allocator (isa/alloc_retry.py): which
    #: build was kept and each one's spills
    allocation_note: str = ""
    #: why each K-loop the front end left as written was (frontend/tails.py)
    unpipelined: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.occupancy == self.resources.llvm_occupancy

    def _form_lines(self) -> list[str]:
        """The schedule form's line (and note), for a loop split along K; else none."""
        form = self.form
        if not form:
            return []
        per = "each" if "," in form.operands else "it"    # one operand or both along K
        waits = ("each MFMA waits for its own reads, those an MMA leaves unread counted "
                 "in flight" if self.form_waits == "fragment" else
                 "the MMAs wait for whole fragment loads")
        merged = form.merged_text     # K steps merged (kmerge)
        halved = form.halved_text     # MFMAs halved along K (half_k)
        split = form.split if form.whole else \
            f"subtiles of {form.split} (one fragment of {per} per wave)"
        L = [f"schedule form: {split}; "
             f"{halved + '; ' if halved else ''}{merged + '; ' if merged else ''}{waits} "
             f"(waits={self.form_waits})"]
        # merged K steps (frontend/kmerge.py) run faster than IREE's own kernel even
        # with one MFMA per block (fp8 32x32x64: docs/iree-pingpong.md)
        if form.crosswise and self.form_mfmas == 1 and form.merged == 1:
            L.append(CROSSWISE_NOTE)
        return L

    def _front_end_lines(self) -> list[str]:
        """What the front end said of the loop: which workgroups run it, its K steps merged
        or split, the loops it left as written."""
        L = []
        if self.workgroups:     # (frontend/edge_version.py)
            L.append(f"main loop: {self.workgroups}")
        if self.merge_note:
            L.append(f"K steps: {self.merge_note}")
        if self.ksplit_note:
            L.append(f"K split: {self.ksplit_note}")
        return L + [f"K-loop: {note}" for note in self.unpipelined]

    def format(self) -> str:
        r = self.resources
        L = [f"kernel {r.name} ({NAME})"] + self._form_lines() + self._front_end_lines()
        if self.lockstep_waves and self.resources.vgpr_spills:
            L.append(lockstep_note(self.lockstep_waves, self.resources.vgpr_spills))
        L.append("resources (assembly; cross-checked with the code object)")
        counted = "" if r.arch_vgprs is None else f" ({r.vgprs} in .vgpr_count)"
        L.append(f"  VGPRs                 {r.architected} architected, {r.agprs} AGPRs"
                 f"{counted}, {r.vgpr_alloc} allocated (.amdhsa_next_free_vgpr; accum_offset "
                 f"{r.accum_offset})")
        padding = vgpr_padding(r.vgprs, r.vgpr_alloc, self.limits)
        if padding:
            L.append(f"  VGPR padding          {padding}")
        L += [f"  SGPRs                 {r.sgprs} (LLVM counts {r.sgprs_for_waves} for waves "
              f"per EU)", f"  LDS                   {r.lds_bytes} bytes per workgroup"]
        L.append(f"  scratch               {r.scratch_bytes} bytes per lane; spills: "
                 f"{r.vgpr_spills} VGPR, {r.sgpr_spills} SGPR")
        if self.allocation_note:
            L.append(f"  register allocation   {self.allocation_note}")
        L.append(f"  workgroup             {r.workgroup_size} work items = "
                 f"{wave_count(-(-r.workgroup_size // r.wavefront_size))} of "
                 f"{r.wavefront_size}")
        L.append(f"  kernarg segment       {r.kernarg_size} bytes")
        lim = ", ".join(f"{k} {v}" for k, v in self.limits.items())
        llvm = "absent" if r.llvm_occupancy is None else str(r.llvm_occupancy)
        agree = "agree" if r.llvm_occupancy == self.occupancy else "DIFFER"
        L.append(f"  occupancy             {self.occupancy} waves/SIMD (limits: {lim}); LLVM's "
                 f"'; Occupancy' {llvm}: {agree}")
        L.append("  code object           " + ("agrees with the assembly" if not self.mismatches
                                              else "DIFFERS: " + "; ".join(self.mismatches)))
        if self.loop:
            ref = REFERENCE_LOOPS.get(r.name)
            L.append("main loop, per iteration of one wave" + (
                "; the reference's kernel of this shape beside" if ref else ""))
            for key, n in self.loop.items():
                rv = ref.get(key) if ref else None
                L.append(f"  {key:<30}{n:>6}" + (f"   reference {rv:>4}" if rv is not None
                                                  else ""))
            if ref:
                L.append(f"  {'VGPRs (allocated)':<30}{r.vgpr_alloc:>6}   reference "
                         f"{ref['VGPRs']:>4}")
        elif self.loop_note:
            L.append(f"main loop: {self.loop_note}")
        if self.roles:      # none without a main loop
            L.append("VGPR roles (distinct registers)")
            L += [f"  {k:<50}{v}" for k, v in self.roles.items()]
        ref = self.reference["counts"] if self.reference else {}
        head = "whole-kernel instruction counts (static; the loop body once)"
        L.append(head + ("; reference ping-pong BF16 kernel beside" if ref else ""))
        for label, n in self.counts.items():
            if n == 0 and label not in ref:
                continue
            key = "v_mfma_f32_16x16x32_bf16" if label == "  v_mfma_f32_16x16x32_bf16" else label
            rv = ref.get(key)
            L.append(f"  {label:<30}{n:>6}" + (f"   reference {rv:>4}" if rv is not None else ""))
        if self.reference:
            L.append(f"  {'VGPRs':<30}{r.vgpr_alloc:>6}   reference {self.reference['vgprs']:>4}")
            L.append(f"  {'LDS bytes':<30}{r.lds_bytes:>6}   reference "
                     f"{self.reference['lds_bytes']:>4}")
            L.append(f"  {'spills':<30}{r.vgpr_spills + r.sgpr_spills:>6}   reference "
                     f"{self.reference['spills']:>4}")
        text = "\n".join(L) + "\n"
        text += f"ISA check: {self.isa_note}\n" if self.isa_note else ""
        if self.isa is not None:
            text += self.isa.format()
        if self.isa is None and self.isa_plain is not None:
            text += (f"  without the schedule, on the whole function "
                     f"({', '.join(self.isa_plain_rules)}): {len(self.isa_plain)} findings\n")
            text += "".join(f"    {f}\n" for f in self.isa_plain)
        if self.refusing:
            text += (f"ISA gate: a code build of this kernel (--emit=asm, obj, hsaco) is "
                     f"refused: {', '.join(self.refusing)} (--no-isa-check writes it)\n")
        elif self.refusing is not None:
            text += ("ISA gate: no finding refuses a code build of this kernel "
                     "(--no-isa-check skips the check)\n")
        return text


def kernel_report(asm_text: str, hsaco: bytes, plan=None, name: str | None = None,
                  ll_text: str | None = None, **isa_options) -> KernelReport:
    """Report on a compiled kernel: its assembly text and linked code object.

    ``plan`` (the :class:`~pipeline_mlir.kernel.plan.KernelPlan` the kernel was lowered
    with) enables the ISA check; ``name`` picks the kernel (default: the only
    function); ``ll_text``: the LLVM IR compiled (it tells whether LLVM unrolled a loop
    away, :func:`unrolled_note`); ``isa_options`` go to
    :func:`pipeline_mlir.isa.check.check_kernel_asm`.
    """
    module = parse_asm(asm_text)
    fn = module.function(name)
    res = resources_from_asm(module, fn.name)
    obj = resources_from_hsaco(read_code_object(hsaco), fn.name)
    occ, limits = occupancy_gfx950(res.vgpr_alloc, res.sgprs_for_waves, res.lds_bytes,
                                   res.workgroup_size)
    rep = KernelReport(res, occ, limits, cross_check(res, obj), instruction_counts(fn),
                       vgpr_roles(fn), loop_counts(fn))
    if fn.name == REFERENCE_PINGPONG_BF16["kernel"]:
        rep.reference = REFERENCE_PINGPONG_BF16
    rep.loop_note = unrolled_note(fn, ll_text)
    rep.form = getattr(plan, "form", None)
    rep.workgroups = getattr(plan, "workgroups", "")
    rep.merge_note = getattr(plan, "merge_note", None) or ""
    rep.ksplit_note = getattr(plan, "ksplit_note", None) or ""
    shape = getattr(plan, "shape", None)
    if shape is not None and shape.groups == 1 and shape.waves > 4:
        rep.lockstep_waves = shape.waves
    if rep.form and plan.fragment_waits:
        rep.form_waits = "fragment"
    if plan is None:
        rep.isa_note = ("not run (no kernel plan: no pipelined loop was lowered in this "
                        "compilation)")
    else:
        ran = pipelined_check(fn, plan, rep.loop_note, ll_text, **isa_options)
        rep.isa, rep.isa_note = ran.isa, ran.note
        rep.isa_plain = None if ran.isa is not None else ran.plain
        rep.isa_plain_rules = ran.plain_rules
        rep.form_mfmas = ran.isa.mfmas_per_mma if rep.form and ran.isa else 0
        rep.refusing = tuple(dict.fromkeys(f.kind for f in errors(ran.findings, ran.isa)))
    return rep


def unrolled_note(fn: AsmFunction, ll_text: str | None = None) -> str:
    """Why ``fn`` has no main loop when its MFMAs are in no loop, else ``""``: LLVM unrolled
    the K-loop fully (a constant trip count as small as 2 is) when the LLVM IR it compiled
    (``ll_text``) has a loop, or there was none to unroll when it has none (the K-loops'
    constant trip counts of 0 or 1, folded before LLVM: fp8 ``A x B`` 129x64x768's pair of
    K steps, all in the prologue and the drain, and its third in a one-trip remainder)."""
    mfmas = sum(1 for i in fn.instrs() if i.kind == "mfma")
    if not mfmas or any(i.kind == "mfma" for lp in fn.loops() for b in lp for i in b.instrs):
        return ""
    head = f"none: the function's {mfmas} MFMAs are in no loop"
    if ll_text is None:
        return f"{head} (the K-loop was unrolled fully)"
    if has_loop(ll_text):
        return f"{head}: LLVM unrolled the K-loop fully (its trip count is a small constant)"
    return (f"{head}, and the LLVM IR has no loop either: no K-loop of two or more trips "
            f"reached LLVM (MLIR folds a loop of a constant 0 or 1 trips: a pipelined loop "
            f"whose prologue and drain take every K step runs none)")


def has_loop(ll_text: str) -> bool:
    """Whether LLVM IR text ``ll_text`` branches back to a block laid out before the branch
    (a loop; the entry block has no predecessors)."""
    return any(True for _ in ir_loops(ll_text))
