"""Write IREE Wave's (``wave-lang``) gfx950 GEMM as the MLIR Wave hands its compiler.

Run with a Python that has ``wave-lang`` installed (it is not a dependency of this
project)::

    python test/data/wave/generate.py OUT.mlir [--size M N K] [--tile BM BN BK] [--waves WM WN]

The kernel is Wave's own ``C = A x B^T`` GEMM (f16 or bf16 inputs, f32 accumulator): a
workgroup tile of ``BM x BN`` split ``WM x WN`` over its waves (2 x 2: a 128 x 2 workgroup;
4 x 1: Wave's 1-D launch, a 256 x 1 workgroup), a ``BK`` step K loop, global to LDS copies
by DMA (``use_global_to_shared``), no Wave scheduling (the natural loop).
"""


import argparse
import sys


def wave_gemm_mlir(size=(512, 512, 256), tile=(128, 128, 32), dtype: str = "f16",
                   waves=(2, 2)) -> str:
    """The MLIR ``wave_compile`` produces for the GEMM (``compile_to_mlir``)."""
    import wave_lang.kernel.lang as tkl
    import wave_lang.kernel.wave as tkw
    from wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
    from wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile

    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BM, BN, BK = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    SPACE = tkl.sym.ADDRESS_SPACE
    elem = {"f16": tkl.f16, "bf16": tkl.bf16}[dtype]
    mma = {"f16": tkw.MMAType.F32_16x16x32_F16, "bf16": tkw.MMAType.F32_16x16x32_BF16}[dtype]
    constraints = [tkw.WorkgroupConstraint(M, BM, 0), tkw.WorkgroupConstraint(N, BN, 1),
                   tkw.TilingConstraint(K, BK),
                   tkw.WaveConstraint(M, BM / waves[0]), tkw.WaveConstraint(N, BN / waves[1]),
                   tkw.HardwareConstraint(threads_per_wave=64, mma_type=mma)]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, SPACE, elem], b: tkl.Memory[N, K, SPACE, elem],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        acc0 = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[acc0])
        def loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return tkw.mma(tkw.read(a), tkw.read(b), acc)

        tkw.write(loop, c)

    options = WaveCompileOptions(
        subs={M: size[0], N: size[1], K: size[2], BM: tile[0], BN: tile[1], BK: tile[2],
              SPACE: SHARED_ADDRESS_SPACE},
        canonicalize=True, compile_to_mlir=True, use_global_to_shared=True, target="gfx950")
    return wave_compile(options, gemm).asm


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--size", type=int, nargs=3, default=(512, 512, 256))
    p.add_argument("--tile", type=int, nargs=3, default=(128, 128, 32))
    p.add_argument("--dtype", choices=("f16", "bf16"), default="f16")
    p.add_argument("--waves", type=int, nargs=2, default=(2, 2),
                   help="waves along M and N (4 1: a 1-D launch)")
    a = p.parse_args(argv)
    text = wave_gemm_mlir(tuple(a.size), tuple(a.tile), a.dtype, tuple(a.waves))
    with open(a.out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
