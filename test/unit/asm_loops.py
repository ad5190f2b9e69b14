"""Hand-written gfx950 assembly of a kernel's main loop, as LLVM lays one out, for the tests
of the readers of LLVM's assembly (the ISA check, the timing model's inner loops, the trip
counts measured on the emulator): ``kernel:``, a counter set to 0, the loop's label, one
MFMA, the test's body, the latch, ``s_endpgm``."""

from __future__ import annotations

#: the MFMA of a BF16 main loop
BF16_MFMA = "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]"


def main_loop(body: str, *, trips: int = 10, counter: str = "s4", label: str = ".LBB0_1",
              mfma: str = BF16_MFMA, compare: str = "s_cmp_lt_i32",
              exit_block: int | None = None) -> str:
    """A kernel whose main loop (``label``: ``trips`` iterations of ``counter`` from 0 up,
    tested with ``compare``) runs ``mfma`` then ``body`` (whole lines); ``exit_block``: the
    number of the block after the loop (``; %bb.N:``), None for no such line."""
    after = "" if exit_block is None else f"; %bb.{exit_block}:\n"
    return (f"kernel:\n\ts_mov_b32 {counter}, 0\n{label}:\n\t{mfma}\n{body}"
            f"\ts_add_i32 {counter}, {counter}, 1\n\t{compare} {counter}, {trips}\n"
            f"\ts_cbranch_scc1 {label}\n{after}\ts_endpgm\n")


#: a K-loop whose DMA's soffset LLVM left in v80, wrapped in a waterfall loop (.LBB0_5:
#: ``v_readfirstlane`` / ``s_and_saveexec`` / ``s_cbranch_execnz``): what LLVM 22 emitted for
#: IREE's i8 A x B 4096^3 kernel before the fix (registers as it printed them)
WATERFALL = main_loop(
    "\tv_subrev_u32_e32 v80, 64, v157\n"
    "\ts_mov_b64 s[10:11], exec\n"
    ".LBB0_5:\n"
    "\tv_readfirstlane_b32 s12, v80\n"
    "\ts_nop 1\n"
    "\tv_cmp_eq_u32_e32 vcc, s12, v80\n"
    "\ts_and_saveexec_b64 vcc, vcc\n"
    "\ts_nop 0\n"
    "\tbuffer_load_dwordx4 v146, s[4:7], s12 offen lds\n"
    "\ts_xor_b64 exec, exec, vcc\n"
    "\ts_cbranch_execnz .LBB0_5\n"
    "\ts_mov_b64 exec, s[10:11]\n"
    "\tv_add_u32_e32 v157, 0x80, v157\n",
    trips=64, counter="s0", label=".LBB0_3", compare="s_cmp_lt_u32",
    mfma="v_mfma_i32_16x16x64_i8 v[64:67], v[160:163], v[168:171], v[60:63]")
