"""IREE matmuls with what IREE fuses into their dispatch, as ``linalg`` sources for
``generate.py`` (:func:`generate.prefetch_point`, :func:`generate.late_form`).

:func:`epilogue_source` writes ``C = A x B^T`` (bf16 or f16 A and B, f32 accumulation) with
one of :data:`KINDS`: ``batch`` (``linalg.batch_matmul``), ``bias`` (a bias of N added to
every row), ``bias_row`` (a bias of M added to every column), ``relu``, ``bias_relu``,
``trunc_bf16`` / ``trunc_f16`` / ``trunc_f8E4M3FN`` / ``trunc_f8E5M2`` (C stored as bf16,
f16 or one of the two 8-bit float formats) and ``accumulate``
(``C += A x B^T``: the matmul's output is the function's argument C; i8 A and B accumulate
into an i32 C); ``accumulate_`` and a kind of bias or a ``relu`` (``accumulate_bias_relu``:
``C += A x B^T`` with that epilogue fused, the result written to another binding than the C
read, as IREE builds it).
"""

from __future__ import annotations

KINDS = ("batch", "bias", "bias_row", "relu", "bias_relu", "trunc_bf16", "trunc_f16",
         "trunc_f8E4M3FN", "trunc_f8E5M2", "accumulate", "accumulate_bias",
         "accumulate_bias_row", "accumulate_relu", "accumulate_bias_relu")
_MAPS = ("indexing_maps = [affine_map<({d}m, n, k) -> ({d}m, k)>, "
         "affine_map<({d}m, n, k) -> ({d}n, k)>, affine_map<({d}m, n, k) -> ({d}m, n)>]")
_GENERIC = ("linalg.generic {{indexing_maps = [{maps}], iterator_types = [\"parallel\", "
            "\"parallel\"]}}")


def _generic(ins: list[tuple[str, str, str]], out: str, body: str, yield_type: str) -> str:
    """A 2-D element-wise linalg.generic: ``ins`` (value, type, map) into ``out``."""
    maps = ", ".join(m for _v, _t, m in ins) + ", affine_map<(i, j) -> (i, j)>"
    args = ", ".join(f"%x{k}: {t.split('x')[-1].rstrip('>')}" for k, (_v, t, _m) in
                     enumerate(ins))
    return (f"{_GENERIC.format(maps=maps)} ins({', '.join(v for v, _t, _m in ins)} : "
            f"{', '.join(t for _v, t, _m in ins)}) outs(%e2 : {out}) {{\n"
            f"  ^bb0({args}, %o: {yield_type}):\n{body}    linalg.yield %y : {yield_type}\n"
            f"  }} -> {out}\n")


def epilogue_source(kind: str, dtype: str = "bf16", m: int = 2048, n: int = 2048,
                    k: int = 1024, batch: int = 2, config: str | None = None,
                    b_kxn: bool = False) -> str:
    """The ``linalg`` function of ``kind`` (module docstring); ``config``: a
    ``compilation_info`` set on the matmul (``generate.compilation_info``: e.g. IREE's
    8-wave kernels, which stage the accumulators of the epilogue through private memory);
    ``b_kxn``: B given ``K x N`` (``C = A x B``)."""
    A, C = f"tensor<{m}x{k}x{dtype}>", f"tensor<{m}x{n}x{'i32' if dtype == 'i8' else 'f32'}>"
    B = f"tensor<{k}x{n}x{dtype}>" if b_kxn else f"tensor<{n}x{k}x{dtype}>"
    if kind == "batch":
        A, B, C = (f"tensor<{batch}x{t[7:]}" for t in (A, B, C))
    params = [f"%a: {A}", f"%b: {B}"]
    zero = "0 : i32" if dtype == "i8" else "0.0 : f32"
    fill = (f"  %zero = arith.constant {zero}\n  %e = tensor.empty() : {C}\n"
            f"  %c = linalg.fill ins(%zero : {zero.split()[-1]}) outs(%e : {C}) -> {C}\n")
    if kind.startswith("accumulate") and kind in KINDS:
        params.append(f"%c: {C}")
        fill = "  %zero = arith.constant 0.0 : f32\n" if kind != "accumulate" else ""
        kind = kind[len("accumulate_"):] or "accumulate"
    op = "linalg.batch_matmul" if kind == "batch" else "linalg.matmul"
    maps = _MAPS.format(d="b, " if kind == "batch" else "")
    if b_kxn:
        maps = maps.replace("n, k)>, affine_map", "k, n)>, affine_map")
    attrs = "" if config is None else f" {{compilation_info = {config}}}"
    text = (f"  %r = {op} {maps}\n      ins(%a, %b : {A}, {B}) outs(%c : {C}){attrs} -> {C}\n")
    result, rtype = "%r", C
    if kind in ("bias", "bias_row", "bias_relu"):
        length, imap = (m, "(i)") if kind == "bias_row" else (n, "(j)")
        params.append(f"%bias: tensor<{length}xf32>")
        body = ("    %s = arith.addf %x0, %x1 : f32\n    %y = arith.maximumf %s, %zero : f32\n"
                if kind == "bias_relu" else "    %y = arith.addf %x0, %x1 : f32\n")
        text += f"  %e2 = tensor.empty() : {C}\n  %o = " + _generic(
            [("%r", C, "affine_map<(i, j) -> (i, j)>"),
             ("%bias", f"tensor<{length}xf32>", f"affine_map<(i, j) -> {imap}>")],
            C, body, "f32")
        result = "%o"
    elif kind == "relu":
        text += f"  %e2 = tensor.empty() : {C}\n  %o = " + _generic(
            [("%r", C, "affine_map<(i, j) -> (i, j)>")], C,
            "    %y = arith.maximumf %x0, %zero : f32\n", "f32")
        result = "%o"
    elif kind.startswith("trunc_") and kind in KINDS:
        et = kind[6:]
        rtype = f"tensor<{m}x{n}x{et}>"
        text += f"  %e2 = tensor.empty() : {rtype}\n  %o = " + _generic(
            [("%r", C, "affine_map<(i, j) -> (i, j)>")], rtype,
            f"    %y = arith.truncf %x0 : f32 to {et}\n", et)
        result = "%o"
    elif kind not in ("batch", "accumulate"):
        raise ValueError(f"unknown epilogue kind {kind!r} (kinds: {', '.join(KINDS)})")
    return (f"func.func @matmul({', '.join(params)}) -> {rtype} {{\n{fill}{text}"
            f"  return {result} : {rtype}\n}}\n")
