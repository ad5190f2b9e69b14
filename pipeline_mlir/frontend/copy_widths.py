"""How many elements per lane the front end's own copies of a channel move
(:mod:`~pipeline_mlir.frontend.layout`): the kernel's width where a whole number of copies
fills a subtile, else the widest direct-to-LDS size that does, else a register-staged one of
2 or 1 bytes that does with every lane copying (:func:`staged_width`); for a channel with a run
cut at an odd size, the widest that does, each lane's run copied in pieces whose ends are
the cuts (:func:`odd_pieces`); the widest direct-to-LDS size too where the kernel's width
takes more copies per subtile than ``vmcnt`` holds (a run cut in 4-byte pieces,
cut_runs.py: copied in pieces whose ends are the cuts, layout.py's ``_cut_plan``); no wider
than the runs a subtile split leaves contiguous."""

from __future__ import annotations

import contextlib
from typing import NamedTuple

from pipeline_mlir.frontend.marks import ODD
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, VMCNT_MAX


class Width(NamedTuple):
    """Elements per lane of a channel's copies, and whether :func:`channel_width` made them
    wider than the kernel's copies because those take more copies per subtile than
    ``vmcnt`` holds (:func:`over_vmcnt`: their runs then copied in pieces whose ends are
    C's cuts, layout.py's ``_cut_plan``)."""

    elements: int
    widened: bool = False


def run_limited(an, copies: list, width: Width, bit: int, most: int, half: int,
                elem_bytes: int, label: str) -> Width:
    """``width`` (of a channel's copies, ``copies``) where its subtiles, split on element
    ``bit``, hold runs of ``most`` elements or more; else the widest copy of the kernel's
    that fits such a run and fills a subtile of ``half`` elements (a run the deleted bit
    cuts: narrower copies, if any fill it; no wider than the kernel's), or a refusal at its
    first copy."""
    if width.elements <= most:
        return width
    narrow = copy_width(an.copies[copies[0]].lds.shape[1], half, an.scan.threads,
                        elem_bytes, most)
    if narrow is None:
        raise no_whole_copies(an, copies, label, half, sorted(LDS_DMA_BYTES), most,
                              f"its subtiles, split on element bit {bit}, hold runs of at "
                              f"most {most} elements of its buffer, and ")
    return Width(narrow)


def channel_width(an, copies: list, half: int, elem_bytes: int, label: str,
                  whole: bool = False) -> Width:
    """Elements per lane of the front end's copies of a channel (``copies``) whose
    subtiles hold ``half`` elements of ``elem_bytes`` bytes (:func:`copy_width`, else
    register-staged: :func:`staged_width`; ``whole``: one subtile, the channel held whole);
    for a channel with a run cut at an odd size (the kernel's copies of it an element per lane:
    :data:`~pipeline_mlir.frontend.cut_runs.ODD`), the widest direct-to-LDS size that fills
    a subtile (else one element), whatever its copies move: the runs are copied in
    :func:`odd_pieces`; that size too where the kernel's width takes more copies per
    subtile than ``vmcnt`` holds (IREE's bf16 ``A^T x B`` 2950x356x487: A's runs of 8 cut
    at 6 copied in 4-byte pieces, 64 per subtile; runs of 8 in pieces of 6 and 2, 32:
    ``Width.widened``).  A refusal at its first copy when none fits."""
    threads = an.scan.threads
    widths = {an.copies[i].lds.shape[1] for i in copies}
    odd = any(ODD in an.ops[an.copies[i].op].attributes for i in copies)
    width = min(widths) if odd else widths.pop()
    if widths and not odd:
        raise LM.LoopRefusal(f"channel {label}'s copies move different numbers of elements "
                             f"per lane", (an.copies[copies[0]].op,))
    kernel_bytes = width * elem_bytes
    if odd:          # (the widest run that fills a subtile: copied in pieces, odd_pieces)
        fit = copy_width(width, half, threads, elem_bytes)
        if fit is None and half % (threads * width):
            raise no_whole_copies(an, copies, label, half, [elem_bytes], whole=whole)
        return Width(fit or width)
    width = copy_width(width, half, threads, elem_bytes) or \
        staged_width(half, threads, elem_bytes) or padded_width(half, threads, elem_bytes)
    if width and over_vmcnt(width, half, threads, elem_bytes):
        wide = copy_width(1, half, threads, elem_bytes) or width
        return Width(wide, wide > width)
    if width is None:
        kept_width = {kernel_bytes} if kernel_bytes >= LDS_DMA_BYTES[0] else set()
        tried = sorted({*kept_width, *LDS_DMA_BYTES, *STAGED_BYTES}, reverse=True)
        raise no_whole_copies(an, copies, label, half, tried, whole=whole)
    return Width(width)


def over_vmcnt(width: int, half: int, threads: int, elem_bytes: int) -> bool:
    """Whether copies of ``width`` elements per lane, a direct-to-LDS size (4-byte pieces of
    a run cut by C's edge, cut_runs.py), fill a subtile of ``half`` elements over
    ``threads`` lanes in more copies than ``vmcnt`` holds: the front end's own copies of
    the channel are then widened (:func:`channel_width`)."""
    return width * elem_bytes >= LDS_DMA_BYTES[0] and half % (threads * width) == 0 and \
        half // (threads * width) > VMCNT_MAX


#: the bytes per lane of the front end's register-staged copies of a subtile too small for
#: a direct-to-LDS copy of every thread (a ``buffer_load_ushort`` / ``ubyte`` and a
#: ``ds_write_b16`` / ``b8`` per lane; a DMA of 1 or 2 bytes writes each lane's a dword
#: apart), widest first
STAGED_BYTES = (2, 1)


def staged_width(half: int, threads: int, elem_bytes: int) -> int | None:
    """Elements per lane of register-staged copies (:data:`STAGED_BYTES`) that fill a
    subtile of ``half`` elements over ``threads`` lanes, every lane copying (so every wave
    issues each copy and the waits count alike in all), where no direct-to-LDS copy does
    (:func:`copy_width`): IREE's fp8 ``A x B^T`` 31x64x96, A's halves of 512 bytes over 256
    threads, 2 bytes each; None if none does."""
    return next((b // elem_bytes for b in STAGED_BYTES
                 if b % elem_bytes == 0 and half % (threads * (b // elem_bytes)) == 0), None)


#: while :func:`padding_allowed` holds: the front end may pad subtiles (:func:`padded_width`)
_PADDING: list[bool] = []


@contextlib.contextmanager
def padding_allowed():
    """Within it, :func:`channel_width` may give padded copies (:func:`padded_width`): the
    loop's last way, once every other is refused (``frontend/natural.py``), since a
    padding's lanes copy nothing of the tile (merged K steps fill every thread)."""
    _PADDING.append(True)
    try:
        yield
    finally:
        _PADDING.pop()


def padded_width(half: int, threads: int, elem_bytes: int) -> int | None:
    """One element per lane for a subtile of ``half`` elements of the narrowest direct-to-LDS
    size (4 bytes: f32) that no whole number of copies of every thread fills (where
    :func:`padding_allowed`): no narrower piece of such an element exists.  Each thread
    still copies (so every wave issues each copy and the waits count alike in all), the
    copies' lanes past the subtile's elements into a padding the subtile's buffer gets for
    them and no read reads
    (``layout.ChannelPlan.elements``: IREE's f32 ``A^T x B^T`` 292x754x758, a 64-element
    half over 128 threads); None for another element size."""
    return 1 if _PADDING and padded_elements(elem_bytes) and half % threads else None


def padded_elements(elem_bytes: int) -> bool:
    """Whether a subtile of elements of ``elem_bytes`` bytes may be padded
    (:func:`padded_width`): those of the narrowest direct-to-LDS size, 4 bytes (f32)."""
    return elem_bytes == LDS_DMA_BYTES[0]


def padded(half: int, threads: int, width: int) -> bool:
    """Whether copies of ``width`` elements per lane over ``threads`` lanes cover a subtile
    of ``half`` elements only with lanes past its end (:func:`padded_width`)."""
    return half % (threads * width) != 0


def is_staged(width: int, elem_bytes: int) -> bool:
    """Whether copies of ``width`` elements of ``elem_bytes`` bytes per lane are narrower
    than any direct-to-LDS copy (:func:`staged_width`'s): register-staged."""
    return width * elem_bytes < LDS_DMA_BYTES[0]


def no_whole_copies(an, copies: list, label: str, half: int, sizes: list,
                    most: int | None = None, why: str = "",
                    whole: bool = False) -> LM.LoopRefusal:
    """The refusal, at the first of a channel's copies (``copies``), of subtiles of
    ``half`` elements that no copy width fills: half the tile (``whole``: the tile, held
    whole) is not a whole number of copies of the kernel's threads x one of ``sizes`` bytes
    per lane (of at most ``most`` elements); ``why``: what narrowed the copies first."""
    words = list(map(str, sizes))
    lane = f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else words[0]
    staged = " and ".join(str(b) for b in sizes if b in STAGED_BYTES)
    lane += f" bytes ({staged} register-staged)" if staged else " bytes"
    if most is not None:
        lane = f"at most {most} elements of {lane}"
    tile = f"its {half}-element tile, held whole," if whole else \
        f"half of its {2 * half}-element tile"
    return LM.LoopRefusal(f"channel {label}: {why}{tile} is not a whole number of copies "
                          f"of {an.scan.threads} threads x {lane}",
                          (an.copies[copies[0]].op,))


#: the bytes of a piece of a run cut at an odd size, widest first: what an
#: ``amdgpu.gather_to_lds`` may move (8, 16, 32, 96 or 128 bits), each placed in the run at
#: a multiple of its lowest power of two (12 bytes: of 4)
ODD_PIECE_BYTES = (16, 12, 4, 2, 1)


def odd_pieces(width: int, cuts, elem_bytes: int) -> tuple:
    """The pieces ``((offset, elements), ...)`` a lane's run of ``width`` elements of
    ``elem_bytes`` bytes is copied in when C's edge cuts runs at the sizes ``cuts`` (a run
    cut at an odd size, :data:`~pipeline_mlir.frontend.cut_runs.ODD`): every cut is a
    piece's end, so each piece lies wholly inside the row or wholly past its end, and is
    kept or read past the range-checked end whole; between the cuts, the widest pieces of
    :data:`ODD_PIECE_BYTES` that fit, each at a multiple of its lowest power of two in the
    run.  A run of 8 bf16 cut at 1 (a row of 129): pieces of 1, 1 and 6 elements, three
    copies where elements one at a time take eight."""
    bounds = sorted({0, width, *(c for c in cuts if 0 < c < width)})
    out = []
    for a, b in zip(bounds, bounds[1:]):
        while a < b:
            n = next(k // elem_bytes for k in ODD_PIECE_BYTES if k % elem_bytes == 0 and
                     a * elem_bytes % (k & -k) == 0 and a + k // elem_bytes <= b)
            out.append((a, n))
            a += n
    return tuple(out)


def copy_width(width: int, half: int, threads: int, elem_bytes: int,
               most: int | None = None) -> int | None:
    """Elements per lane of the front end's copies of a subtile of ``half`` elements: the
    kernel's ``width`` if a whole number of copies of ``threads`` lanes fills the subtile,
    else the widest direct-to-LDS size (``LDS_DMA_BYTES``) that does (always for a kernel's
    width narrower than any: :data:`~pipeline_mlir.frontend.marks.NARROW`); with
    ``most``, of at most that many elements; None if none does."""
    widths = [width] * (width * elem_bytes >= LDS_DMA_BYTES[0]) + \
        [b // elem_bytes for b in sorted(LDS_DMA_BYTES, reverse=True) if b % elem_bytes == 0]
    return next((w for w in widths if half % (threads * w) == 0 and
                 (most is None or w <= most)), None)


def run_limit(bit: int, kbits) -> int:
    """The most elements a lane's run of a subtile may hold so that it stays one run of the
    kernel's buffer: the subtile's elements are the buffer's with element bit ``bit`` (and
    the K sub-step's ``kbits``) deleted, so a run of ``2^b`` aligned elements, ``b`` the
    lowest of those bits, is one run there, and a longer one is cut by the deleted bit (a
    ``N x K`` B split along K crosswise: bit 2, K elements 0 to 3 in subtile 0 and 4 to 7 in
    subtile 1, so a run of 8 elements of the subtile reads K 0 to 3 and 8 to 11)."""
    return 1 << min((bit, *kbits))
