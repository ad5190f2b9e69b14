"""Write a concrete-form kernel for a double-buffer schedule (4wave or pingpong).

The kernel is a ``gpu.func`` whose K-loop (``scf.for %k = 0 to %K step 2*BK``)
holds one tagged payload op per logical op of the schedule's body, in body
order: ``amdgpu.gather_to_lds`` for global loads, ``vector.load`` from
workgroup memory for fragment loads, ``amdgpu.mfma 16x16x32`` for MMAs.  An
MMA (row r, col c) consumes the latest A fragment of subtile r and B fragment of
subtile c; one loaded later in the body comes from the previous iteration (a
loop-carried ``iter_arg``).  Global load ``i`` with K offset ``o`` reads the
tile at ``%k + o*BK``.

It demonstrates the input form and compiles to gfx950 code; the address math is
deliberately simple (each wave copies and reads back its own 512 elements of a slot),
not the full GEMM kernel that ``pipeline_mlir.kernel.gemm`` generates; the address check of
``sched-import`` accepts it because every fragment load reads only what the global loads of
its own slot write.

    python examples/concrete_kernel.py '4wave' > k.mlir
    pipeline-opt --pipeline=4wave k.mlir --emit=asm

The per-load counts are taken from the payload ops (one ``gather_to_lds`` per global load,
one ``ds_read`` per fragment load here), so the pipeline needs no count options.
"""

from __future__ import annotations

import sys

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import latest_fragment
from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES, parse_pipeline
from pipeline_mlir.schedule.types import KOffsetKind

K_NAMES = {KOffsetKind.K0: "k0", KOffsetKind.K1: "k1", KOffsetKind.K_NEXT: "k_next",
           KOffsetKind.K_PREV: "k_prev", KOffsetKind.NONE: "none"}
SLOT_PER_WAVE = 512  # LDS elements each wave copies into a (channel, stage, subtile) slot


def kernel_text(spec: str, bk: int = 64, block: int | None = None) -> str:
    schedule = parse_pipeline(spec)
    s = schedule.build()
    if not schedule.has_kernel:
        raise SystemExit(f"{spec}: only the schedules with a complete kernel "
                         f"({', '.join(KERNEL_SCHEDULES)})")
    if block is None:  # the threads of the schedule's kernel (ping-pong 8 warps, 4-wave 4)
        block = schedule.kernel_traits.threads
    TILE = block // 64 * SLOT_PER_WAVE  # LDS elements per (channel, stage, subtile) slot
    body = s.declare_ops()
    roles = {0: "global", 1: "global", 3: "frag", 4: "frag", 5: "mma"}
    kinds = [roles.get(o.tag) for o in body]
    if None in kinds:
        raise SystemExit(f"{spec}: only matmul double-buffer schedules "
                         f"({', '.join(KERNEL_SCHEDULES)})")
    frags = [(i, o) for i, o in enumerate(body) if kinds[i] == "frag"]
    mmas = [(i, o) for i, o in enumerate(body) if kinds[i] == "mma"]

    def latest(i, ch, sub):    # the kernel generator's rule (kernel/gemm.py)
        try:
            return latest_fragment(frags, i, ch, sub)
        except ConfigError as e:
            raise SystemExit(str(e)) from None

    carried_frags = []  # body index of frag loads whose value is loop-carried
    for i, o in mmas:
        for ch, sub in ((0, o.stage), (1, o.subtile)):
            j, carried = latest(i, ch, sub)
            if carried and j not in carried_frags:
                carried_frags.append(j)
    acc_keys = []
    for _, o in mmas:
        if (o.stage, o.subtile) not in acc_keys:
            acc_keys.append((o.stage, o.subtile))

    L = []
    w = L.append
    n_slots = 2 * 2 * 4
    w("module attributes {gpu.container_module} {")
    w("  gpu.module @kernels {")
    w("    gpu.func @gemm_loop(%A: memref<256x4096xbf16, #gpu.address_space<global>>, "
      "%B: memref<256x4096xbf16, #gpu.address_space<global>>, "
      "%C: memref<16384xf32, #gpu.address_space<global>>, %K: index)")
    w(f"        workgroup(%lds: memref<{n_slots * TILE}xbf16, #gpu.address_space<workgroup>>) "
      f"kernel attributes {{known_block_size = array<i32: {block}, 1, 1>}} {{")
    w("      %c0 = arith.constant 0 : index")
    w(f"      %cbk = arith.constant {bk} : index")
    w(f"      %cstep = arith.constant {2 * bk} : index")
    w("      %c2 = arith.constant 2 : index")
    w("      %c8 = arith.constant 8 : index")
    w("      %c64 = arith.constant 64 : index")
    w("      %tid = gpu.thread_id x")
    w("      %lane = arith.remui %tid, %c64 : index")
    w("      %row = arith.divui %lane, %c2 : index")
    w("      %col2 = arith.remui %lane, %c2 : index")
    w("      %col = arith.muli %col2, %c2 : index")
    w("      %lane8 = arith.muli %lane, %c8 : index")
    w("      %wave = arith.divui %tid, %c64 : index")
    w("      %c512 = arith.constant 512 : index")
    w("      %wave512 = arith.muli %wave, %c512 : index")
    w("      %zacc = arith.constant dense<0.0> : vector<4xf32>")
    w("      %zfrag = arith.constant dense<0.0> : vector<8xbf16>")
    inits = ["%zacc"] * len(acc_keys) + ["%zfrag"] * len(carried_frags)
    args = [f"%acc{r}{c} = {v}" for (r, c), v in zip(acc_keys, inits)]
    args += [f"%carried{j} = %zfrag" for j in carried_frags]
    types = ["vector<4xf32>"] * len(acc_keys) + ["vector<8xbf16>"] * len(carried_frags)
    n_res = len(types)
    w(f"      %res:{n_res} = scf.for %k = %c0 to %K step %cstep iter_args({', '.join(args)}) "
      f"-> ({', '.join(types)}) {{")
    value = {}  # body index -> SSA name
    acc_now = {key: f"%acc{key[0]}{key[1]}" for key in acc_keys}
    for i, o in enumerate(body):
        kind = kinds[i]
        slot = ((o.channel if o.channel >= 0 else 0) * 2 + o.stage) * 4 + o.subtile
        if kind == "global":
            src = "%A" if o.channel == 0 else "%B"
            koff = o.k_offset.signed_bk_multiple() if o.k_offset != KOffsetKind.NONE else 0
            w(f"        %ko{i} = arith.constant {koff * bk} : index")
            w(f"        %kk{i} = arith.addi %k, %ko{i} : index")
            w(f"        %gc{i} = arith.addi %kk{i}, %col : index")
            w(f"        %go{i} = arith.constant {32 * o.subtile} : index")
            w(f"        %gr{i} = arith.addi %row, %go{i} : index")
            attrs = (f"{{sched.global_load = {{channel = {o.channel} : i64, stage = {o.stage} "
                     f": i64, subtile = {o.subtile} : i64, k_offset = \"{K_NAMES[o.k_offset]}\"}}}}")
            # each wave writes its 64 lanes' 16 bytes contiguously: 512 elements per wave
            w(f"        %lb{i} = arith.constant {slot * TILE} : index")
            w(f"        %ld{i} = arith.addi %lb{i}, %wave512 : index")
            w(f"        amdgpu.gather_to_lds {src}[%gr{i}, %gc{i}], %lds[%ld{i}] {attrs} : "
              f"vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, "
              f"memref<{n_slots * TILE}xbf16, #gpu.address_space<workgroup>>")
        elif kind == "frag":
            # lane l reads the 16 bytes its wave's lane l wrote into the slot
            w(f"        %fb{i} = arith.constant {slot * TILE} : index")
            w(f"        %fo{i} = arith.addi %fb{i}, %wave512 : index")
            w(f"        %fi{i} = arith.addi %fo{i}, %lane8 : index")
            attrs = (f"{{sched.frag_load = {{channel = {o.channel} : i64, stage = {o.stage} : i64, "
                     f"subtile = {o.subtile} : i64}}}}")
            w(f"        %f{i} = vector.load %lds[%fi{i}] {attrs} : memref<{n_slots * TILE}xbf16, "
              f"#gpu.address_space<workgroup>>, vector<8xbf16>")
            value[i] = f"%f{i}"
        else:
            def operand(ch, sub):
                j, carried = latest(i, ch, sub)
                return f"%carried{j}" if carried else value[j]
            a, b = operand(0, o.stage), operand(1, o.subtile)
            key = (o.stage, o.subtile)
            attrs = f"{{sched.mma = {{stage = {o.stage} : i64, subtile = {o.subtile} : i64}}}}"
            w(f"        %m{i} = amdgpu.mfma 16x16x32 {a} * {b} + {acc_now[key]} {attrs} : "
              f"vector<8xbf16>, vector<8xbf16>, vector<4xf32>")
            acc_now[key] = f"%m{i}"
    yields = [acc_now[k] for k in acc_keys] + [value[j] for j in carried_frags]
    w(f"        scf.yield {', '.join(yields)} : {', '.join(types)}")
    w("      }")
    for n, (r, c) in enumerate(acc_keys):
        w(f"      %o{n} = arith.constant {(n * 64) * 4} : index")
        w("      %ol{0} = arith.muli %lane, %c2 : index".format(n))
        w(f"      %oi{n} = arith.addi %o{n}, %ol{n} : index")
        w(f"      vector.store %res#{n}, %C[%oi{n}] : memref<16384xf32, "
          f"#gpu.address_space<global>>, vector<4xf32>")
    w("      gpu.return")
    w("    }")
    w("  }")
    w("}")
    return "\n".join(L) + "\n"


def example_file(spec: str) -> str:
    """:func:`kernel_text` with a header saying how to compile it (the shipped
    ``examples/gemm_loop_NAME.mlir``): the counts come from the payload ops, so the
    pipeline needs no options."""
    name = parse_pipeline(spec).name
    return (f"// A concrete-form K-loop for the '{spec}' schedule, written by\n"
            f"// `python examples/concrete_kernel.py '{spec}'`. Compile it (from the repository "
            f"root):\n"
            f"//   pipeline-opt --pipeline='{spec}' examples/gemm_loop_{name}.mlir --emit=asm\n"
            + kernel_text(spec))


def main(argv: list[str] | None = None) -> int:
    """``python examples/concrete_kernel.py [SPEC]``: the kernel on stdout; exit 1 with one
    line on stderr for a bad spec or argument."""
    import argparse

    from pipeline_mlir.errors import PipelineError

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            self.exit(1, f"{self.prog}: error: {message}\n")

    ap = Parser(prog="concrete_kernel.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", nargs="?", default="4wave",
                    help=f"the --pipeline spec whose body the loop holds "
                         f"({', '.join(KERNEL_SCHEDULES)}; default 4wave)")
    args = ap.parse_args(argv)
    try:
        text = example_file(args.spec)
    except PipelineError as e:
        print(f"{ap.prog}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    except SystemExit as e:  # kernel_text's own refusals
        print(f"{ap.prog}: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
