"""IREE's ``A x B^T`` dispatches (``matmul_bf16_abt_4096.prefetch.mlir`` and others of its
default kind) with M, N or K known only at launch: what IREE's own dispatch of
``tensor<?x4096xbf16>`` or ``tensor<4096x?xbf16>`` operands would hold if its tiles were
full (``iree-compile`` 3.13 writes no such MFMA K-loop: without a ``padding`` lowering
config it fails or multiplies per thread, with one it masks the rows past M and runs a
K-loop to the bound of its ``util.assume.int``).

:func:`dynamic` rewrites the text.  Each size known at launch arrives as IREE passes an
``index``: two ``i32`` push constants (low and high word) combined, cast,
``util.assume.int`` and ``iree_tensor_ext.dispatch.workload.ordinal``.  A dynamic M makes
A ``?xK`` and C ``?xN`` and the workgroup loop run over ``ceildiv(M, tile)`` rows of tiles
(the last one's rows past M lie past the end of A and C: the range check reads zeros and
drops the stores); a dynamic N makes B ``?xK`` and C ``Mx?``, N assumed a multiple of the
tile's (a column of C past N would be the next row's); a dynamic K makes A and B ``Mx?``
(rows of a stride known at launch), K assumed a multiple of the K step, 32, and the
K-loop run ``K / 32`` iterations (a trip count known only at run time).  Every op that
views A, B or C takes the dynamic type.  A static ``k`` other than 4096 cuts K instead
(rows of ``k``, ``k / 32`` iterations: the same kernel, cheaper to emulate).
:func:`dynamic_k_late` does K in IREE's late form.
"""

from __future__ import annotations

import re

LOOP = re.compile(r"(scf\.for %arg2 = %c0 to )%c(\d+)( step %c(\d+))")


def _size(name: str, ordinal: int, assume: str) -> str:
    """IREE's reading of an index ``%dyn_<name>`` from push constants ``ordinal`` and
    ``ordinal + 1``."""
    p = f"          %dyn_{name}"
    layout = "hal.interface.constant.load layout(#pipeline_layout)"
    return (f"{p}_lo = {layout} ordinal({ordinal}) : i32\n"
            f"{p}_hi = {layout} ordinal({ordinal + 1}) : i32\n"
            f"{p}_l = arith.extui %dyn_{name}_lo : i32 to i64\n"
            f"{p}_h = arith.extui %dyn_{name}_hi : i32 to i64\n"
            f"{p}_c32 = arith.constant 32 : i64\n"
            f"{p}_s = arith.shli %dyn_{name}_h, %dyn_{name}_c32 : i64\n"
            f"{p}_o = arith.ori %dyn_{name}_l, %dyn_{name}_s : i64\n"
            f"{p}_i = arith.index_castui %dyn_{name}_o : i64 to index\n"
            f"{p}_a = util.assume.int %dyn_{name}_i<{assume}> : index\n"
            f"{p} = iree_tensor_ext.dispatch.workload.ordinal %dyn_{name}_a, {ordinal // 2} "
            f": index\n")


def _retype(text: str, binding: int, old: str, new: str, sizes: str) -> str:
    """``text`` with binding ``binding``'s type ``old`` (e.g. ``4096x4096xbf16``) made
    ``new`` on its subspan (sized by ``sizes``, e.g. ``%dyn_m``) and on every op that views
    it."""
    m = re.search(rf"(%\w+) = hal\.interface\.binding\.subspan [^\n]* binding\({binding}\)"
                  rf"[^\n]*: memref<{re.escape(old)}", text)
    assert m, f"no binding {binding} of {old}"
    names, lines = [m.group(1)], text.split("\n")
    for i, line in enumerate(lines):
        if old == new:
            break
        if f"binding({binding})" in line and "subspan" in line:
            lines[i] = line.replace(f"memref<{old}", f"memref<{new}") + (
                "{" + sizes + "}" if sizes else "")
            continue
        rhs = line.split("=", 1)[-1]
        if old == new or f"memref<{old}" not in line or not any(
                re.search(rf"{re.escape(n)}(?![\w])", rhs) for n in names):
            continue
        lines[i] = line.replace(f"memref<{old}", f"memref<{new}")
        d = re.match(r"\s*(%\w+) = (memref\.assume_alignment|amdgpu\.fat_raw_buffer_cast)", line)
        if d:
            names.append(d.group(1))
    return "\n".join(lines)


def _sizes(text: str) -> tuple[int, int, int, int, int]:
    """(M, N, K, the forall's bounds) of IREE's dispatch ``text``."""
    a = re.search(r"binding\(0\)[^\n]*: memref<(\d+)x(\d+)x\w+", text)
    c = re.search(r"binding\(2\)[^\n]*: memref<(\d+)x(\d+)x\w+", text)
    g = re.search(r"scf\.forall \(%arg0, %arg1\) in \((\d+), (\d+)\)", text)
    return (int(a.group(1)), int(c.group(2)), int(a.group(2)), int(g.group(1)),
            int(g.group(2)))


def _types(text: str) -> tuple[str, str]:
    """The element types of A and of C in IREE's dispatch ``text``."""
    a = re.search(r"binding\(0\)[^\n]*: memref<\d+x\d+x(\w+)", text)
    c = re.search(r"binding\(2\)[^\n]*: memref<\d+x\d+x(\w+)", text)
    return a.group(1), c.group(1)


def dynamic(text: str, m: bool = True, k: int | str | None = None, n: bool = False) -> str:
    """The dispatch ``text`` (IREE's bf16 ``A x B^T`` at the prefetch point: the 4096^3
    one, or another of its default kind) with M (``m``) and N (``n``) launch values;
    ``k``: ``"?"`` K a launch value too, an int K cut to it (both: the 4096^3 dispatch
    only), None K as it is (module docstring)."""
    M0, N0, K0, tiles, cols = _sizes(text)
    et, ct = _types(text)
    k = K0 if k is None else None if k == "?" else k
    loop = LOOP.search(text)
    if k != K0 and not (loop and (K0 == 4096 or k is None)):
        raise ValueError("K cut: IREE's 4096^3 dispatch only; K known at launch: a dispatch "
                         "whose K-loop runs over K steps")
    per = K0 // int(loop.group(2)) if loop else 1       # K elements per unit of the variable
    dyn = {"m": m, "n": n, "k": k is None}
    # a row of C past N would wrap into the next row (no range check stops it): N is
    # assumed a multiple of the tile's N, K of the K step; rows past M are past the end
    udiv = {"m": "", "n": f", udiv = {N0 // cols}",
            "k": f", udiv = {per * int(loop.group(4)) if loop else 1}"}
    sizes = "".join(_size(name, 2 * i, "umin = 0, umax = 9007199254740991" + udiv[name])
                    for i, name in enumerate(x for x in "mnk" if dyn[x]))
    kk = "?" if k is None else str(k)
    if k != K0:
        text = re.sub(rf"(x{et}, )strided<\[{K0}, 1\], offset: \?>",
                      rf"\g<1>strided<[{kk}, 1], offset: ?>", text)
        text = LOOP.sub(r"\g<1>%dyn_trips\3", text, count=1)
        sizes += (f"          %dyn_trips = affine.apply affine_map<()[s0] -> (s0 ceildiv "
                  f"{per})>()[%dyn_k]\n" if k is None else
                  f"          %dyn_trips = arith.constant {k // per} : index\n")
    groups = _c_groups(text, M0, N0, ct) if dyn["m"] or dyn["n"] else ([], [])
    for name, tile, rows, g in (("m", M0 // tiles, "rows", groups[0]),
                                ("n", N0 // cols, "cols", groups[1])):
        if dyn[name]:
            sizes += (f"          %dyn_{name}tiles = affine.apply affine_map<()[s0] -> (s0 "
                      f"ceildiv {tile})>()[%dyn_{name}]\n          %dyn_{rows} = affine.apply "
                      f"affine_map<()[s0] -> (s0 ceildiv {_prod(g[1:])})>()[%dyn_{name}]\n")
    count = 2 * sum(dyn.values())
    text = text.replace("#hal.pipeline.layout<bindings", f"#hal.pipeline.layout<constants = "
                        f"{count}, bindings", 1) if count else text
    text = re.sub(r"(\n\s*%\w+ = hal\.interface\.binding\.subspan [^\n]*binding\(0\))",
                  lambda g: "\n" + sizes.rstrip("\n") + g.group(1), text, count=1)
    for binding, (old, new) in enumerate(((f"{M0}x{K0}x{et}", ("m", M0, "k", kk)),
                                          (f"{N0}x{K0}x{et}", ("n", N0, "k", kk)))):
        text = _retype(text, binding, old, f"{'?' if dyn[new[0]] else new[1]}x{new[3]}x{et}",
                       _operands(dyn, new[0], "k"))
    return _dynamic_c(text, dyn, M0, N0, tiles, cols, ct)


def _operands(dyn: dict, *names: str) -> str:
    """The sizes of a binding of dimensions ``names``: ``%dyn_m, %dyn_k``."""
    return ", ".join(f"%dyn_{x}" for x in names if dyn[x])


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def _c_groups(text: str, M0: int, N0: int, ct: str) -> tuple[list, list]:
    """The dimensions C's ``memref.expand_shape`` cuts M and N into (bf16's 16x16 MFMAs:
    ``[M/16, 16]``, ``[N/16, 16]``; i8's 32x32 ones ``[M/32, 4, 8]``, ``[N/32, 32]``)."""
    m = re.search(rf"memref\.expand_shape %\w+ \[(\[[\d, ]+\]), \[[\d, ]+\]\] output_shape "
                  rf"\[([\d, ]+)\] : memref<{M0}x{N0}x{ct}", text)
    assert m, "no expand_shape of C"
    dims = [int(x) for x in m.group(2).split(",")]
    g0 = len(m.group(1).split(","))
    return dims[:g0], dims[g0:]


def _dynamic_c(text: str, dyn: dict, M0: int, N0: int, tiles: int, cols: int,
               ct: str = "f32") -> str:
    """``text`` with C and its views, and the workgroup loop, of M and N as ``dyn`` says."""
    if not (dyn["m"] or dyn["n"]):
        return text
    mg, ng = _c_groups(text, M0, N0, ct)
    r, c = ("?" if dyn["m"] else M0), ("?" if dyn["n"] else N0)
    text = _retype(text, 2, f"{M0}x{N0}x{ct}", f"{r}x{c}x{ct}", _operands(dyn, "m", "n"))
    dims = mg + ng
    rows = "x".join(map(str, dims)) + f"x{ct}"
    shape = [("%dyn_rows" if dyn["m"] else x) if i == 0 else
             ("%dyn_cols" if dyn["n"] else x) if i == len(mg) else x for i, x in enumerate(dims)]
    new = "x".join("?" if str(x).startswith("%") else str(x) for x in shape) + f"x{ct}"
    text = text.replace(f"output_shape [{', '.join(map(str, dims))}] : memref<{r}x{c}x{ct}",
                        f"output_shape [{', '.join(map(str, shape))}] : memref<{r}x{c}x{ct}")
    text = text.replace(f"into memref<{rows}", f"into memref<{new}")
    text = re.sub(rf"(memref\.subview %expand_shape\[[^\n]*: )memref<{rows}", rf"\1memref<{new}",
                  text)
    if dyn["n"]:
        strides = [_prod(dims[i + 1:]) for i in range(len(dims))]
        text = text.replace("strided<[" + ", ".join(map(str, strides)) + "]",
                            "strided<[" + ", ".join(["?"] * len(mg) + list(map(
                                str, strides[len(mg):]))) + "]")
    mt, nt = ("%dyn_mtiles" if dyn["m"] else tiles), ("%dyn_ntiles" if dyn["n"] else cols)
    return text.replace(f"scf.forall (%arg0, %arg1) in ({tiles}, {cols})",
                        f"scf.forall (%arg0, %arg1) in ({mt}, {nt})", 1)


def dynamic_m(text: str, k: int | None = None) -> str:
    """:func:`dynamic` with M known at launch and K of ``k`` (default: as it is)."""
    return dynamic(text, True, k)


LATE_LOOP = re.compile(r"(scf\.for %arg0 = %c0_i32 to )%c(\d+)_i32( step %c(\d+)_i32)")


def dynamic_k_late(text: str) -> str:
    """An IREE dispatch in the late form (``matmul_bf16_abt_4096.late.mlir``, or one of
    VectorDistribute's, whose i32 K-loop variable is the K offset itself) with K known at
    launch: A and B ``Mx?`` / ``Nx?`` (rows of a stride given at launch, K assumed a
    multiple of the loop's K step), the K-loop to ``ceildiv(K, K step / step)``."""
    loop = LATE_LOOP.search(text)
    a = re.search(r"binding\(0\)[^\n]*: memref<(\d+)x(\d+)x(\w+),", text)
    b = re.search(r"binding\(1\)[^\n]*: memref<(\d+)x(\d+)x(\w+),", text)
    assert loop and a and b, "not an IREE A x B^T dispatch in the late form"
    k0, ub, step = int(a.group(2)), int(loop.group(2)), int(loop.group(4))
    per = k0 // ub                      # K elements per unit of the loop variable
    sizes = _size("k", 0, f"umin = 0, umax = 9007199254740991, udiv = {per * step}")
    trips = "%dyn_k"
    if per != 1:
        sizes += (f"          %dyn_trips = affine.apply affine_map<()[s0] -> (s0 ceildiv "
                  f"{per})>()[%dyn_k]\n")
        trips = "%dyn_trips"
    sizes += f"          %dyn_trips_i32 = arith.index_cast {trips} : index to i32\n"
    text = LATE_LOOP.sub(r"\g<1>%dyn_trips_i32\3", text, count=1)
    text = text.replace("#hal.pipeline.layout<bindings", "#hal.pipeline.layout<constants = 2, "
                        "bindings", 1)
    text = re.sub(r"(\n\s*%\w+ = hal\.interface\.binding\.subspan [^\n]*binding\(0\))",
                  lambda g: "\n" + sizes.rstrip("\n") + g.group(1), text, count=1)
    for binding, m in ((0, a), (1, b)):
        text = _retype(text, binding, f"{m.group(1)}x{k0}x{m.group(3)}",
                       f"{m.group(1)}x?x{m.group(3)}", "%dyn_k")
    return text


def lds_in_loop(text: str) -> str:
    """IREE's dispatch at the prefetch point with its LDS allocated inside the K-loop, as
    IREE allocates a tile whose size depends on the dispatch's: both ``memref.alloc`` and
    every view of them before the loop moved to the top of the loop's body, their
    ``memref.dealloc`` to its end."""
    lines = text.split("\n")
    loop = next(i for i, line in enumerate(lines) if "scf.for %arg2" in line)
    names, moved, kept = set(), [], []
    for i, line in enumerate(lines):
        m = re.match(r"\s*(%\w+) = (memref\.alloc|memref\.expand_shape|memref\.subview)"
                     r"[ (](%\w+)?", line)
        if i < loop and m and ("workgroup" in line and m.group(2) == "memref.alloc" or
                               m.group(3) in names):
            names.add(m.group(1))
            moved.append(line.strip())
        elif not re.match(r"\s*memref\.dealloc %alloc", line):
            kept.append(line)
    loop = next(i for i, line in enumerate(kept) if "scf.for %arg2" in line)
    end = next(i for i in range(loop, len(kept)) if kept[i].strip().startswith("scf.yield"))
    deallocs = [f"memref.dealloc {m.group(1)} : {m.group(2)}" for m in (
        re.match(r"(%\w+) = memref\.alloc\(\)[^:]*: (.*)", x) for x in moved) if m]
    pad = " " * (len(kept[loop + 1]) - len(kept[loop + 1].lstrip()))
    return "\n".join(kept[:loop + 1] + [pad + x for x in moved] + kept[loop + 1:end] +
                     [pad + x for x in deallocs] + kept[end:])


def dynamic_k_masked_late(text: str) -> str:
    """IREE's late form of an unaligned-K kernel (``matmul_source(k=1020)``: a K-loop over
    ``ceildiv(K, 32)`` units, masked copies through registers, each guarded by whether it
    reads near the end of the buffer) with K known at launch: A and B ``Mx?``, every use of
    the constant K (the masks' ``K - k0``, the row stride of the buffer-end guard's linear
    index, the buffers' ``M x K`` elements) made the launch value's, the loop to
    ``ceildiv(K, 32)``.  K is assumed nothing but ``umax`` (rows need not be aligned)."""
    a = re.search(r"binding\(0\)[^\n]*: memref<(\d+)x(\d+)xbf16,", text)
    b = re.search(r"binding\(1\)[^\n]*: memref<(\d+)x(\d+)xbf16,", text)
    m0, k0, n0 = int(a.group(1)), int(a.group(2)), int(b.group(1))
    assert m0 == n0, "A and B of as many rows (one buffer-end constant)"
    loop = re.search(r"(scf\.for %arg0 = %c0_i32 to )%c(\d+)_i32( step %c\d+_i32)", text)
    assert loop and int(loop.group(2)) == -(-k0 // 32), "not IREE's unaligned-K late form"
    sizes = _size("k", 0, "umin = 0, umax = 4194304") + (
        "          %dyn_trips = affine.apply affine_map<()[s0] -> (s0 ceildiv 32)>()[%dyn_k]\n"
        "          %dyn_trips_i32 = arith.index_cast %dyn_trips : index to i32\n"
        "          %dyn_k_i32 = arith.index_cast %dyn_k : index to i32\n"
        f"          %dyn_end = affine.apply affine_map<()[s0] -> (s0 * {m0})>()[%dyn_k]\n")
    text = text.replace(loop.group(0), loop.group(1) + "%dyn_trips_i32" + loop.group(3), 1)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(rf"\s*%c{k0}_i32 = arith\.constant|\s*%c{m0 * k0} = arith\.constant", line):
            continue
        line = re.sub(rf"%c{k0}_i32\b", "%dyn_k_i32", line)
        line = re.sub(rf"%c{m0 * k0}\b", "%dyn_end", line)
        lines[i] = re.sub(r"(affine\.apply #map\(\)\[%\w+, %\w+)\]", r"\1, %dyn_k]", line)
    text = "\n".join(lines)
    text = text.replace(f"#map = affine_map<()[s0, s1] -> (s0 * {k0} + s1)>",
                        "#map = affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>", 1)
    text = text.replace("#hal.pipeline.layout<bindings", "#hal.pipeline.layout<constants = 2, "
                        "bindings", 1)
    text = re.sub(r"(\n\s*%\w+ = hal\.interface\.binding\.subspan [^\n]*binding\(0\))",
                  lambda g: "\n" + sizes.rstrip("\n") + g.group(1), text, count=1)
    for binding in (0, 1):
        text = _retype(text, binding, f"{m0}x{k0}xbf16", f"{m0}x?xbf16", "%dyn_k")
    return text


#: IREE's padding of the 128x128 tiles and K step of 32 (the lowering config's ``padding``)
PADDING = "padding = [128, 128, 32]"


def padded_source(n: bool = False, k: int = 4096, dtype: str = "bf16",
                  transpose_a: bool = False, transpose_b: bool = True,
                  bias: bool = False) -> str:
    """The ``A x B^T`` matmul (bf16, or ``dtype`` f16) with M (and N, ``n``) known only at
    launch (``tensor<?xKxbf16>`` operands), K of ``k``, and IREE's default MFMA
    configuration forced with ``padding = [128, 128, 32]``: ``iree-compile`` 3.13 copies A
    (and B) through registers, each row masked by M (N).  Its prefetch stages are not
    named, so the command line decides (1: the natural loop).  ``transpose_a``: A given
    ``K x M`` (``tensor<Kx?>``), without ``transpose_b`` B ``K x N``: each such operand
    promoted unswizzled and read with transposing reads (``forced_config``'s ``k_major``),
    its runs masked by the M (N) left along its contiguous dimension.  ``bias``: a bias of
    N (``tensor<Nxf32>``) added to every row of the product."""
    import generate as G

    et = G.TYPES[dtype]
    mma = {"bf16": "MFMA_F32_16x16x32_BF16", "f16": "MFMA_F32_16x16x32_F16"}[dtype]
    config = G.forced_config(mma, stages=None, k_major=(transpose_a, not transpose_b))
    padded = config.replace("workgroup = [128, 128, 0]}", f"workgroup = [128, 128, 0], "
                            f"{PADDING}}}")
    assert padded != config, "IREE's forced lowering config changed"
    nn = "?" if n else "4096"
    a = f"tensor<{k}x?x{et}>" if transpose_a else f"tensor<?x{k}x{et}>"
    b = f"tensor<{nn}x{k}x{et}>" if transpose_b else f"tensor<{k}x{nn}x{et}>"
    c = f"tensor<?x{nn}xf32>"
    sizes = "%m, %n" if n else "%m"
    da, db = int(transpose_a), int(not transpose_b)
    maps = (f"affine_map<(m, n, k) -> {'(k, m)' if transpose_a else '(m, k)'}>, "
            f"affine_map<(m, n, k) -> {'(n, k)' if transpose_b else '(k, n)'}>")
    return padded + (
        f"func.func @matmul(%a: {a}, %b: {b}"
        + (f", %bias: tensor<{nn}xf32>" if bias else "") + f") -> {c} {{\n"
        f"  %c0 = arith.constant 0 : index\n"
        + ("  %c1 = arith.constant 1 : index\n" if da or (n and db) else "") +
        f"  %m = tensor.dim %a, %c{da} : {a}\n"
        + (f"  %n = tensor.dim %b, %c{db} : {b}\n" if n else "") +
        f"  %zero = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty({sizes}) : {c}\n"
        f"  %c = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.matmul indexing_maps = [{maps}, affine_map<(m, n, k) -> (m, n)>]\n"
        f"      ins(%a, %b : {a}, {b}) outs(%c : {c}) "
        f"{{compilation_info = #ci}} -> {c}\n"
        + (_bias_epilogue(c, sizes, f"tensor<{nn}xf32>") if bias else "") +
        f"  return {'%o' if bias else '%r'} : {c}\n}}\n")


def _bias_epilogue(c: str, sizes: str, bt: str) -> str:
    """``%o = %r + %bias`` (``bt``: the bias's type, of C's columns) element-wise over C
    (``c``, sized by ``sizes``)."""
    return (f"  %e2 = tensor.empty({sizes}) : {c}\n"
            f"  %o = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, "
            f"affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = "
            f"[\"parallel\", \"parallel\"]}} ins(%r, %bias : {c}, {bt}) outs(%e2 : {c}) {{\n"
            f"  ^bb0(%x0: f32, %x1: f32, %y0: f32):\n    %y = arith.addf %x0, %x1 : f32\n"
            f"    linalg.yield %y : f32\n  }} -> {c}\n")


def dynamic_k_source(forced: bool = True, stages: int = 1, batch: int | None = None,
                     size: int = 4096) -> str:
    """The bf16 ``A x B^T`` matmul of ``tensor<4096x?xbf16>`` operands (M = N = 4096, K
    known only at launch); with ``forced``, IREE's default MFMA configuration forced (a
    ``compilation_info``, ``stages`` its prefetch stages: ``iree-compile`` 3.13 writes the
    same code for 1 and 2, its K-loop's trip count being known only at run time), else
    IREE's own choice (per-thread ``vector.contract``s).  ``batch``: a ``batch_matmul`` of
    that many (``tensor<Bx{size}x?xbf16>``, the configuration's tile one batch deep);
    ``size``: M and N."""
    import generate as G

    lead, d = (f"{batch}x", "b, ") if batch else ("", "")
    t = f"tensor<{lead}{size}x?xbf16>"
    c = f"tensor<{lead}{size}x{size}xf32>"
    config = G.forced_config("MFMA_F32_16x16x32_BF16", stages) if forced else ""
    if batch:   # (one more, outermost, loop dimension: the batch, a tile of 1)
        config = config.replace("reduction = [0, 0, 1]", "reduction = [0, 0, 0, 1]").replace(
            "subgroup = [4, 4, 0]", "subgroup = [0, 4, 4, 0]").replace(
            "workgroup = [128, 128, 0]", "workgroup = [1, 128, 128, 0]")
    attr = " {compilation_info = #ci}" if forced else ""
    return config + (
        f"func.func @matmul(%a: {t}, %b: {t}) -> {c} {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty() : {c}\n"
        f"  %c = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.{'batch_' if batch else ''}matmul indexing_maps = ["
        f"affine_map<({d}m, n, k) -> ({d}m, k)>, affine_map<({d}m, n, k) -> ({d}n, k)>, "
        f"affine_map<({d}m, n, k) -> ({d}m, n)>]\n"
        f"      ins(%a, %b : {t}, {t}) outs(%c : {c}){attr} -> {c}\n"
        f"  return %r : {c}\n}}\n")


def sparse_layout(text: str) -> str:
    """A dispatch of :func:`dynamic` whose ``#hal.pipeline.layout`` has slots it leaves
    unused, as IREE's layouts may: 4 push constants of which it loads #3 (the low word, once
    #0) and #1 (the high word), and an unused binding #1 before B and C (renumbered #2 and
    #3).  IREE passes every slot (a pointer per binding, an ``i32`` per constant, in order),
    so a kernel built from it must take them all."""
    assert "#hal.pipeline.layout<constants = 2, bindings = [" in text
    text = text.replace("binding(2)", "binding(3)").replace("binding(1)", "binding(2)")
    text = re.sub(r"(#hal\.pipeline\.layout<)constants = 2, bindings = \[(#hal\.pipeline\."
                  r"binding<[^>]*>, )", r'\g<1>constants = 4, bindings = [\g<2>#hal.pipeline.'
                  r'binding<storage_buffer, "ReadOnly|Indirect">, ', text, count=1)
    text = text.replace("ordinal(1) : i32", "ordinal(5) : i32")
    text = text.replace("ordinal(0) : i32", "ordinal(3) : i32")
    return text.replace("ordinal(5) : i32", "ordinal(1) : i32")
