"""Write a natural K-loop kernel: the input form of ``sched-adopt-loop``.

A 128x128 tile of ``C = A x B^T`` per workgroup of 4 waves (2x2, 64x64 each), one K
tile of 32 per iteration: the loop copies the A and B tiles to LDS with
``amdgpu.gather_to_lds`` (two instructions per operand; wave ``w``, instruction ``j``
copies tile rows ``32w + 16j .. +15``), waits at a barrier, reads four 16-row fragments
of A and of B per wave and issues 16 ``amdgpu.mfma 16x16x32``, the accumulators in
``iter_args``.  Nothing in it is tagged: ``pipeline-opt --pipeline=4wave`` finds the
roles, the channels and the subtiles itself.

Variants (keyword arguments of :func:`kernel_text`, also command-line ``key=value``):

* ``func``: ``gpu`` (a ``gpu.func`` in a ``gpu.module``) or ``func`` (a ``func.func``
  with ``gpu.known_block_size``);
* ``lds``: ``attribution`` (workgroup attributions) or ``alloc`` (``memref.alloc``);
* ``iv``: ``index`` or ``i32`` loop variable; ``step``: the loop step (the K offset is
  the variable times ``32 / step``);
* ``swizzle``: XOR the 16-byte chunk index with the row (as a layout, in the copies'
  global addresses and the reads' LDS addresses);
* ``dtype``: ``bf16`` or ``f16``;
* ``layout``: ``rows`` (the copy layout above) or ``kcols`` (instruction ``j`` copies
  K columns ``16j .. +15`` of every row: each fragment read needs both instructions, a
  layout the 4-wave schedule's subtiles cannot split);
* ``extra``: an op with side effects put in the loop (``store`` a global store, none);
* ``k``: the K extent (a trip count of ``k / 32``); ``dynamic``: the trip count comes from
  a kernel argument ``%K`` (index) instead;
* ``src``: the copies read ``global`` memrefs (``global_load_lds``) or ``buffer``
  (``amdgpu.fat_raw_buffer_cast``: ``buffer_load ... lds``, as IREE's kernels do).

    python examples/natural_kernel.py > k.mlir
    pipeline-opt --pipeline=4wave k.mlir --emit=asm
"""

from __future__ import annotations

import sys


def kernel_text(func: str = "gpu", lds: str = "attribution", iv: str = "index",
                step: int = 1, swizzle: bool = False, dtype: str = "bf16",
                layout: str = "rows", extra: str = "none", k: int = 4096,
                threads: int = 256, dynamic: bool = False, src: str = "global") -> str:
    et = dtype
    L: list[str] = []
    w = L.append
    gmem = f"memref<4096x{k}x{et}, #gpu.address_space<global>>"
    lmem = f"memref<4096x{et}, #gpu.address_space<workgroup>>"
    cmem = "memref<4096x4096xf32, #gpu.address_space<global>>"
    ity = "index" if iv == "index" else "i32"
    if func == "gpu":
        w("module attributes {gpu.container_module} {")
        w("  gpu.module @kernels {")
        attribution = (f"\n        workgroup(%la: {lmem}, %lb: {lmem})" if lds == "attribution"
                       else "")
        karg = ", %K: index" if dynamic else ""
        w(f"    gpu.func @natural(%A: {gmem}, %B: {gmem}, %C: {cmem}{karg}){attribution}")
        w(f"        kernel attributes {{known_block_size = array<i32: {threads}, 1, 1>}} {{")
        ret = "gpu.return"
    else:
        w("module {")
        w("  module {")  # (for the indentation only)
        karg = ", %K: index" if dynamic else ""
        w(f"    func.func @natural(%A: {gmem}, %B: {gmem}, %C: {cmem}{karg})")
        w(f"        attributes {{gpu.known_block_size = array<i32: {threads}, 1, 1>}} {{")
        ret = "return"
    body = []
    b = body.append
    if lds == "alloc" or func != "gpu":
        b(f"%la = memref.alloc() : {lmem}")
        b(f"%lb = memref.alloc() : {lmem}")
    for c in (0, 1, 2, 3, 4, 8, 16, 32, 64, 512, 1024, 2048):
        b(f"%c{c} = arith.constant {c} : index")
    if src == "buffer":
        bmem = f"memref<4096x{k}x{et}, #amdgpu.address_space<fat_raw_buffer>>"
        for name in ("A", "B"):
            b(f"%{name}buf = amdgpu.fat_raw_buffer_cast %{name} resetOffset : {gmem} to {bmem}")
    b("%tid = gpu.thread_id x")
    b("%wave = arith.divui %tid, %c64 : index")
    b("%lane = arith.remui %tid, %c64 : index")
    b("%wm = arith.divui %wave, %c2 : index")
    b("%wn = arith.remui %wave, %c2 : index")
    b("%bid = gpu.block_id x")
    b("%c32x = arith.constant 32 : index")
    b("%bm = arith.divui %bid, %c32x : index")
    b("%bn = arith.remui %bid, %c32x : index")
    b("%c128 = arith.constant 128 : index")
    b("%row0a = arith.muli %bm, %c128 : index")
    b("%row0b = arith.muli %bn, %c128 : index")
    # copies: instruction j of wave w writes LDS rows 32w+16j..+15 (rows layout), lane l
    # takes row l/4, 16-byte chunk l%4 of that row; the LDS destination is wave-uniform
    b("%lrow = arith.divui %lane, %c4 : index")
    b("%lchunk = arith.remui %lane, %c4 : index")
    for j in (0, 1):
        if layout == "rows":
            b(f"%cr{j} = arith.constant {16 * j} : index")
            b(f"%wr{j} = arith.muli %wave, %c32 : index")
            b(f"%rr{j} = arith.addi %wr{j}, %cr{j} : index")
            b(f"%trow{j} = arith.addi %rr{j}, %lrow : index")
            b(f"%dst{j}a = arith.muli %rr{j}, %c32 : index")
            b(f"%tcol{j} = arith.muli %lchunk, %c8 : index")
        else:  # kcols: LDS holds [K half][row][16]; instruction j copies K half j of the
            # wave's 32 rows (two lanes per row)
            b(f"%cr{j} = arith.constant {16 * j} : index")
            b(f"%rw{j} = arith.muli %wave, %c32 : index")
            b(f"%lr{j} = arith.divui %lane, %c2 : index")
            b(f"%trow{j} = arith.addi %rw{j}, %lr{j} : index")
            b(f"%lc{j} = arith.remui %lane, %c2 : index")
            b(f"%lc8{j} = arith.muli %lc{j}, %c8 : index")
            b(f"%tcol{j} = arith.addi %lc8{j}, %cr{j} : index")
            b(f"%wd{j} = arith.muli %wave, %c512 : index")
            b(f"%cj{j} = arith.constant {2048 * j} : index")
            b(f"%dst{j}a = arith.addi %wd{j}, %cj{j} : index")
        if swizzle:
            # the element this lane's 16 bytes land on is (row, chunk); store the data of
            # chunk (chunk ^ row%4) there: the reads undo it
            b(f"%sr{j} = arith.remui %trow{j}, %c4 : index")
            b(f"%sc{j} = arith.divui %tcol{j}, %c8 : index")
            b(f"%sx{j} = arith.xori %sc{j}, %sr{j} : index")
            b(f"%gcol{j} = arith.muli %sx{j}, %c8 : index")
        else:
            b(f"%gcol{j} = arith.addi %tcol{j}, %c0 : index")
        for ch, r0 in (("a", "%row0a"), ("b", "%row0b")):
            b(f"%g{ch}row{j} = arith.addi {r0}, %trow{j} : index")
    # fragment reads: wave (wm, wn) reads rows 64*wm + 16*m + lane%16 (A), 64*wn + ... (B),
    # K chunk lane/16 (8 elements each)
    b("%l16 = arith.remui %lane, %c16 : index")
    b("%lg = arith.divui %lane, %c16 : index")
    b("%fcol = arith.muli %lg, %c8 : index")
    for ch, wpos in (("a", "%wm"), ("b", "%wn")):
        b(f"%fw{ch} = arith.muli {wpos}, %c64 : index")
        for m in range(4):
            b(f"%fm{ch}{m} = arith.constant {16 * m} : index")
            b(f"%fr{ch}{m}x = arith.addi %fw{ch}, %fm{ch}{m} : index")
            b(f"%fr{ch}{m} = arith.addi %fr{ch}{m}x, %l16 : index")
            if layout == "kcols":  # (K half, row, 8-element chunk within the half)
                b(f"%fk{ch}{m}h = arith.divui %lg, %c2 : index")
                b(f"%fk{ch}{m}o = arith.muli %fk{ch}{m}h, %c2048 : index")
                b(f"%fk{ch}{m}r = arith.muli %fr{ch}{m}, %c16 : index")
                b(f"%fk{ch}{m}l = arith.remui %lg, %c2 : index")
                b(f"%fk{ch}{m}c = arith.muli %fk{ch}{m}l, %c8 : index")
                b(f"%fk{ch}{m}s = arith.addi %fk{ch}{m}o, %fk{ch}{m}r : index")
                b(f"%fe{ch}{m} = arith.addi %fk{ch}{m}s, %fk{ch}{m}c : index")
                continue
            b(f"%fe{ch}{m}x = arith.muli %fr{ch}{m}, %c32 : index")
            if swizzle:
                b(f"%fs{ch}{m}r = arith.remui %fr{ch}{m}, %c4 : index")
                b(f"%fs{ch}{m}c = arith.xori %lg, %fs{ch}{m}r : index")
                b(f"%fs{ch}{m}o = arith.muli %fs{ch}{m}c, %c8 : index")
                b(f"%fe{ch}{m} = arith.addi %fe{ch}{m}x, %fs{ch}{m}o : index")
            else:
                b(f"%fe{ch}{m} = arith.addi %fe{ch}{m}x, %fcol : index")
    b("%zero = arith.constant dense<0.0> : vector<4xf32>")
    if dynamic:
        b("%lb0 = arith.constant 0 : index")
        b("%kq = arith.divui %K, %c32 : index")
        b(f"%st0 = arith.constant {step} : index")
        b("%ub0x = arith.muli %kq, %st0 : index")
        if ity == "index":
            b("%ub0 = arith.addi %ub0x, %c0 : index")
        else:
            b("%ub0 = arith.index_cast %ub0x : index to i32")
            b("%lb0i = arith.constant 0 : i32")
            b(f"%st0i = arith.constant {step} : i32")
    elif ity == "index":
        b("%lb0 = arith.constant 0 : index")
        b(f"%ub0 = arith.constant {k // 32 * step} : index")
        b(f"%st0 = arith.constant {step} : index")
    else:
        b("%lb0 = arith.constant 0 : i32")
        b(f"%ub0 = arith.constant {k // 32 * step} : i32")
        b(f"%st0 = arith.constant {step} : i32")
    accs = [f"%acc{m}{n}" for m in range(4) for n in range(4)]
    lb_name, st_name = ("%lb0i", "%st0i") if dynamic and ity != "index" else ("%lb0", "%st0")
    b(f"%res:16 = scf.for %iv = {lb_name} to %ub0 step {st_name} iter_args("
      + ", ".join(f"{a} = %zero" for a in accs) + ") -> ("
      + ", ".join(["vector<4xf32>"] * 16) + ")" + (f" : {ity}" if ity != "index" else "")
      + " {")
    inner = []
    i = inner.append
    if ity == "index":
        i("%ivx = arith.addi %iv, %c0 : index")
    else:
        i("%ivx = arith.index_cast %iv : i32 to index")
    if step == 1:
        i("%kt = arith.muli %ivx, %c32 : index")
    else:
        i(f"%kdiv = arith.constant {32 // step} : index")
        i("%kt = arith.muli %ivx, %kdiv : index")
    i("gpu.barrier")
    for j in (0, 1):
        i(f"%gk{j} = arith.addi %kt, %gcol{j} : index")
        for ch in ("a", "b"):
            name = "%A" if ch == "a" else "%B"
            mem = gmem
            if src == "buffer":
                name += "buf"
                mem = bmem
            i(f"amdgpu.gather_to_lds {name}[%g{ch}row{j}, %gk{j}], %l{ch}[%dst{j}a] : "
              f"vector<8x{et}>, {mem}, {lmem}")
    i("gpu.barrier")
    for ch in ("a", "b"):
        for m in range(4):
            i(f"%v{ch}{m} = vector.load %l{ch}[%fe{ch}{m}] : {lmem}, vector<8x{et}>")
    for m in range(4):
        for n in range(4):
            i(f"%m{m}{n} = amdgpu.mfma 16x16x32 %va{m} * %vb{n} + %acc{m}{n} : "
              f"vector<8x{et}>, vector<8x{et}>, vector<4xf32>")
    if extra == "store":
        i("%x0 = vector.extract %m00[0] : f32 from vector<4xf32>")
        i(f"memref.store %x0, %C[%c0, %c0] : {cmem}")
    i("scf.yield " + ", ".join(f"%m{m}{n}" for m in range(4) for n in range(4)) + " : "
      + ", ".join(["vector<4xf32>"] * 16))
    body += ["  " + x for x in inner]
    body.append("}")
    # the C tile: lane l of MFMA (m, n) holds C[4*(l/16)+e][l%16]
    b("%crow = arith.addi %row0a, %fwa : index")
    b("%ccol = arith.addi %row0b, %fwb : index")
    b("%lr4 = arith.muli %lg, %c4 : index")
    for m in range(4):
        for n in range(4):
            idx = m * 4 + n
            b(f"%or{idx} = arith.addi %crow, %fma{m} : index")
            b(f"%or{idx}l = arith.addi %or{idx}, %lr4 : index")
            b(f"%oc{idx} = arith.addi %ccol, %fmb{n} : index")
            b(f"%oc{idx}l = arith.addi %oc{idx}, %l16 : index")
            for e in range(4):
                b(f"%or{idx}e{e} = arith.addi %or{idx}l, %c{e} : index")
                b(f"%ov{idx}e{e} = vector.extract %res#{idx}[{e}] : f32 from vector<4xf32>")
                b(f"memref.store %ov{idx}e{e}, %C[%or{idx}e{e}, %oc{idx}l] : {cmem}")
    b(ret)
    L += ["      " + x for x in body]
    L += ["    }", "  }", "}"]
    return "\n".join(L) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python examples/natural_kernel.py [key=value ...]``: the kernel on stdout; exit 1
    with one line on stderr for an unknown key or a value of the wrong type."""
    import argparse
    import inspect

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            self.exit(1, f"{self.prog}: error: {message}\n")

    params = inspect.signature(kernel_text).parameters
    ap = Parser(prog="natural_kernel.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                description=__doc__.split("\n\n")[0],
                epilog="keys (default): " + ", ".join(f"{k}={_text(p.default)}"
                                                     for k, p in params.items()))
    ap.add_argument("pairs", nargs="*", metavar="key=value", help="a variant (see below)")
    args = ap.parse_args(argv)
    kw = {}
    for pair in args.pairs:
        key, eq, text = pair.partition("=")
        if not eq or key not in params:
            ap.error(f"'{pair}': expected key=value with a key of {', '.join(params)}")
        default = params[key].default
        try:
            kw[key] = _value(text, type(default))
        except ValueError:
            ap.error(f"'{pair}': {key} expects {type(default).__name__}")
    sys.stdout.write(kernel_text(**kw))
    return 0


def _text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _value(text: str, kind: type):
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(text)
        return text == "true"
    return kind(text)


if __name__ == "__main__":
    sys.exit(main())
