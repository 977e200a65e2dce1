"""SVG to PNG, optional: pbem's own rasteriser (:mod:`pbem.core.raster`: Pillow and the maps'
font, DejaVu Sans) for the pictures pbem draws, up to a few million pixels (the mail's preview);
else, and for a bigger picture or an SVG it does not draw, ``cairosvg`` when it imports (``pip
install 'pbem[png]'``), the ``rsvg-convert`` or ``inkscape`` command when on the PATH; else the
error MAP-PNG-UNAVAILABLE."""
from __future__ import annotations

import heapq
import io
import os
import re
import shutil
from functools import lru_cache
from typing import Any

from .errors import ExitCode, Issue, PbemError

# pixels: a bigger picture (the whole BlitzWAR map at its own size, 13 million) goes to cairosvg &c.
# when one is here: pbem's rasteriser draws twice the size for its anti-aliasing
PILLOW_MAX_PIXELS = 4_000_000


def png_converter() -> str | None:
    """The converter :func:`svg_to_png` would use: ``pillow`` (pbem's own rasteriser, when Pillow
    and the maps' font are here), ``cairosvg`` (when it imports: it needs the system's cairo
    library), ``rsvg-convert``, ``inkscape`` or None."""
    if raster_usable():
        return "pillow"
    return _external()


def _external() -> str | None:
    """The first converter other than pbem's own (importing cairosvg takes half a second: asked
    only when pbem's own cannot draw)."""
    if cairosvg_usable():
        return "cairosvg"
    for cmd in ("rsvg-convert", "inkscape"):
        if shutil.which(cmd):
            return cmd
    return None


@lru_cache(maxsize=1)
def raster_usable() -> bool:
    """True when pbem's rasteriser can draw here: Pillow with FreeType, and the maps' font."""
    try:
        from . import raster  # optional (Pillow): lazy
    except ImportError:
        return False
    return raster.usable()


@lru_cache(maxsize=1)
def cairosvg_usable() -> bool:
    """True when ``import cairosvg`` works (installed, and the cairo library found)."""
    try:
        import cairosvg  # noqa: F401 - optional (pbem[png]): lazy
    except (ImportError, OSError):   # not installed; installed without libcairo (OSError)
        return False
    return True


def svg_to_png(svg_text: str, *, converter: str | None = None, width: int | None = None) -> bytes:
    """Convert an SVG document to PNG with the first available converter; raises PbemError
    MAP-PNG-UNAVAILABLE when there is none and MAP-PNG-FAILED when it fails. ``width``: the
    PNG's width in pixels (the height keeps the picture's proportions); default the SVG's own."""
    conv = converter or png_converter()
    if conv == "pillow":
        im = _pillow(svg_text, width)
        if im is not None:
            out = io.BytesIO()
            im.save(out, format="PNG", compress_level=6)
            return out.getvalue()
        conv = _external()
    data = svg_text.encode("utf-8")
    if conv is None:
        raise PbemError([Issue("MAP-PNG-UNAVAILABLE", "no SVG to PNG converter is available here",
                               hint="install one of: the Python package cairosvg (pip install 'pbem[png]', with the system's "
                                    "cairo library: apt-get install libcairo2), "
                                    "rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin) or inkscape; "
                                    "or open the SVG in a web browser")], ExitCode.UNAVAILABLE)
    try:
        if conv == "cairosvg":
            import cairosvg  # optional (pbem[png]): lazy
            png: bytes = cairosvg.svg2png(bytestring=data, **({"output_width": width} if width else {}))
            return png
        if conv == "rsvg-convert":
            import subprocess  # lazy: only for another converter (the mail's preview is drawn by pbem's own)
            r = subprocess.run([shutil.which("rsvg-convert") or "rsvg-convert", "--format=png",
                                *([f"--width={width}", "--keep-aspect-ratio"] if width else [])], input=data,
                               capture_output=True, timeout=300, check=False)
            if r.returncode == 0 and r.stdout.startswith(b"\x89PNG"):
                return r.stdout
            raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        if conv == "inkscape":
            import subprocess  # lazy: as above
            import tempfile
            with tempfile.TemporaryDirectory() as d:
                src, dst = os.path.join(d, "map.svg"), os.path.join(d, "map.png")
                with open(src, "wb") as f:
                    f.write(data)
                r = subprocess.run([shutil.which("inkscape") or "inkscape", src, "--export-type=png",
                                    f"--export-filename={dst}", *([f"--export-width={width}"] if width else [])], capture_output=True, timeout=300, check=False)
                if r.returncode == 0 and os.path.isfile(dst):
                    with open(dst, "rb") as f:
                        return f.read()
                raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        raise RuntimeError(f"unknown converter {conv!r}")
    except PbemError:
        raise
    except Exception as e:  # noqa: BLE001 - a converter's own failure, reported as such
        raise PbemError([Issue("MAP-PNG-FAILED", f"{conv} could not convert the map to PNG: {e}",
                               hint="the SVG itself is fine: write it without --png and convert it elsewhere")],
                        ExitCode.USAGE) from None


def _pillow(svg_text: Any, width: int | None, *, scaled: bool = True, head: str | None = None) -> Any:
    """The SVG drawn by pbem's rasteriser (a Pillow RGB image ``width`` pixels wide; with
    ``scaled=False`` the supersampled drawing, twice that), or None when it does not draw this
    SVG or a picture this big (another converter will). ``svg_text``: the text, or a
    :class:`pbem.core.mapdraw.Picture` (painted from its elements, with the root's start tag
    ``head`` when given)."""
    from . import raster  # optional (Pillow): lazy
    size = svg_width_height(svg_text if isinstance(svg_text, str) else head or svg_text.head)
    big = False
    if size:
        w = width or size[0]
        big = w * size[1] * w / size[0] > PILLOW_MAX_PIXELS
        if big and _external():
            return None
    try:    # a big picture without another converter: drawn at its size (four times would take too much memory)
        ss = 1 if big else raster.SUPERSAMPLE
        try:    # (the texts too small to be drawn at this scale not even made: raster.specks)
            src = svg_text if isinstance(svg_text, str) else \
                svg_text.tree(head, specks=lambda root: raster.specks(root, width, supersample=ss))
        except (ValueError, SyntaxError):   # raw lines a tree cannot hold (ET.ParseError): painted from the text
            src = svg_text.text(head)
        return raster.render(src, width=width, scaled=scaled, supersample=ss)
    except raster.Unsupported:
        return None


def compact_png(data: bytes, *, colors: int = 128, optimize: bool = False) -> bytes:
    """``data`` (a PNG) with at most ``colors`` colours, as a palette PNG: the picture's most
    frequent colours (a map of flat colours keeps its fills, lines and counters; the
    anti-aliased edges move to the nearest of them; Pillow finds the nearest through 5-bit
    buckets, so a colour may stand for a near one of the same bucket). Needs Pillow (which cairosvg brings);
    without it, or when the result is not smaller, ``data`` unchanged. Deterministic for one
    Pillow. (Pillow's own quantizers shift flat colours: MAXCOVERAGE painted clear hexes as
    rough, MEDIANCUT lost the red and blue lines.)"""
    try:
        from PIL import Image  # optional (pbem[png]): lazy
    except ImportError:
        return data
    try:
        with Image.open(io.BytesIO(data)) as im:
            small = compact_image(im, colors=colors, optimize=optimize)
    except Exception:  # noqa: BLE001 - a converter's odd output: keep it as it is
        return data
    return small if len(small) < len(data) else data


def _colour_counts(rgb: Any) -> list[tuple[int, Any]]:
    """``rgb.getcolors(every pixel)``, in another order: asked first for at most 65,536 colours
    (a map has a few thousand), Pillow's table of colours is that size, not one a pixel (a
    megapixel picture's 8 MB, some 4 ms of a first preview, issue 35); the caller orders them."""
    return rgb.getcolors(min(rgb.width * rgb.height, 1 << 16)) or rgb.getcolors(rgb.width * rgb.height) or []


class _NamedPng(io.BytesIO):
    """A PNG written in memory, named so."""
    name = "preview.png"


def compact_image(im: Any, *, colors: int = 128, optimize: bool = False) -> bytes:
    """A Pillow image as the palette PNG :func:`compact_png` makes (the picture of pbem's own
    rasteriser goes straight to it, not through a PNG written and read again)."""
    from PIL import Image  # optional (pbem[png]): lazy
    rgba = im.convert("RGBA") if im.mode != "RGB" else None
    if rgba is not None and rgba.getextrema()[3][0] < 255:  # a transparent background: laid on white, as mail clients show it
        rgba = Image.alpha_composite(Image.new("RGBA", rgba.size, "#ffffff"), rgba)
    rgb = rgba.convert("RGB") if rgba is not None else im
    counted = _colour_counts(rgb)
    # the most frequent first, then by colour (tuples compared in C: no key function a colour)
    top = [c for _, c in heapq.nsmallest(max(2, min(256, colors)), [(-n, c) for n, c in counted])]
    flat = [v for c in top for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (256 - len(top)))
    q = rgb.quantize(palette=pal, dither=Image.Dither.NONE)
    if not optimize and len(top) > 16 and q.getextrema()[1] < len(top):
        return _palette_png(q, bytes(flat))
    if len(top) < 256:      # the padding (copies of the first colour) is never used: not written
        q = q.remap_palette(list(range(len(top))))
    out = _NamedPng()     # saved by its name's extension: Pillow then loads its PNG plugin alone, not five
    q.save(out, optimize=optimize)   # optimize: 10 % smaller, slower
    return out.getvalue()


def _raw_bytes(im: Any) -> bytes:
    """``im.tobytes()``, as Pillow's ``tobytes`` makes it but without importing PIL.ImageFile
    (for one constant: with logging and traceback, some 5 ms of a mail step); ``tobytes``
    itself if Pillow's raw encoder is not where it was."""
    try:
        from PIL import Image  # optional (pbem[png]): lazy
        im.load()
        e = Image._getencoder(im.mode, "raw", (im.mode,))
        e.setimage(im.im, (0, 0, *im.size))
        parts = []
        while True:
            _, status, data = e.encode(max(65536, im.size[0] * 4))
            parts.append(data)
            if status:
                break
        if status < 0:
            raise RuntimeError(status)
        return b"".join(parts)
    except Exception:  # noqa: BLE001 - Pillow's own way
        return bytes(im.tobytes())


def _palette_png(q: Any, palette: bytes) -> bytes:
    """The palette picture ``q`` (8 bits a pixel, every index below ``len(palette) // 3``) as
    the PNG Pillow writes of it without ``optimize``, byte for byte (no filter on a palette
    picture's rows, zlib at its default level and Pillow's memory level, the data in blocks of
    64 KiB), written here: Pillow's PNG plugin, and
    the EXIF tags it imports, took longer to import than the writing takes."""
    import struct
    import zlib
    w, h = q.size
    raw = _raw_bytes(q)
    rows = b"".join([b"\x00" + raw[i:i + w] for i in range(0, w * h, w)])
    z = zlib.compressobj(6, zlib.DEFLATED, 15, 9)
    data = z.compress(rows) + z.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)) + chunk(b"PLTE", palette)
            + b"".join([chunk(b"IDAT", data[i:i + 65536]) for i in range(0, len(data), 65536)])  # Pillow's blocks
            + chunk(b"IEND", b""))


def scaled_png(data: bytes, width: int) -> bytes | None:
    """``data`` (a PNG) scaled to ``width`` pixels (the height in proportion), or None without
    Pillow: a preview over its budget is made smaller from the picture already drawn rather
    than drawn again (drawing a BlitzWAR map takes a second or more; scaling, milliseconds)."""
    try:
        from PIL import Image  # optional (pbem[png]): lazy
    except ImportError:
        return None
    with Image.open(io.BytesIO(data)) as im:
        rgba = im.convert("RGBA")
    small = rgba.resize((width, max(1, round(rgba.height * width / rgba.width))), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=1)
    return out.getvalue()


# The preview in a mail: what a mail client shows in its reading pane without scrolling much
# (at most 900 pixels wide and 680 high), in the picture's 48 most frequent colours: about
# 55-60 KB for either game (the whole picture at full size was 230-600 KB). The full map: the
# zipped SVG (`--mail-svg`), or `pbem map`.
PREVIEW_WIDTH = 900
PREVIEW_HEIGHT = 680
PREVIEW_COLORS = 48
PREVIEW_BUDGET = 60_000     # bytes: a busier picture is drawn smaller rather than making the mail bigger


def svg_width_height(svg_text: str) -> tuple[float, float] | None:
    """The ``width`` and ``height`` of an SVG's root element (user units or px), or None."""
    m = re.search(r"<svg\b[^>]*>", svg_text[:4000])
    if not m:
        return None
    tag = m.group(0)
    w = re.search(r'\swidth="([0-9.]+)(?:px)?"', tag)
    h = re.search(r'\sheight="([0-9.]+)(?:px)?"', tag)
    if not (w and h) or float(w.group(1)) <= 0 or float(h.group(1)) <= 0:
        return None
    return float(w.group(1)), float(h.group(1))


# a step's area (the root's data-focus) is shown alone when the preview's window, grown to hold
# it, is drawn at least this many times the scale of the whole picture in the preview; else the
# whole picture (a step that touches most of the map)
FOCUS_GAIN = 1.5


def focused(svg_text: str, max_width: int = PREVIEW_WIDTH, max_height: int = PREVIEW_HEIGHT) -> str:
    """The SVG cut to the area of the step's events (issue 33: the whole BlitzWAR map scaled to
    900 pixels made the step's rings, labels and arrows a few pixels across): a game's drawer
    names that area in the root's ``data-focus="x y width height"``; the window is that area
    grown to the preview's shape and to at least the preview's size (so that it is drawn at
    its own scale, never enlarged), kept inside the map (the root's ``data-map``, where the
    drawer names it and the window fits: not the side panel) or else the picture. The SVG as it is when it names
    no area, or when the window would not be drawn at least :data:`FOCUS_GAIN` times the
    whole picture's scale (a step that touches most of it)."""
    m = re.search(r"<svg\b[^>]*>", svg_text[:4000])
    size = svg_width_height(svg_text)
    f = re.search(r'\sdata-focus="([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+)"', m.group(0)) if m else None
    if not (m and size and f):
        return svg_text
    W, H = size
    fx, fy, fw, fh = (float(v) for v in f.groups())
    aspect = max_width / max_height
    cw = max(fw, fh * aspect, float(max_width))
    ch = cw / aspect
    if cw > W or ch > H or min(1.0, max_width / cw) < FOCUS_GAIN * min(1.0, max_width / W, max_height / H):
        return svg_text
    a = re.search(r'\sdata-map="([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+)"', m.group(0))
    ax, ay, aw, ah = (float(v) for v in a.groups()) if a else (0.0, 0.0, W, H)
    if cw > aw or ch > ah:
        ax, ay, aw, ah = 0.0, 0.0, W, H
    x0 = min(max(ax, fx + fw / 2 - cw / 2), ax + aw - cw)
    y0 = min(max(ay, fy + fh / 2 - ch / 2), ay + ah - ch)
    tag = m.group(0)
    new = re.sub(r'\swidth="[^"]*"', f' width="{cw:.1f}"', tag, count=1)
    new = re.sub(r'\sheight="[^"]*"', f' height="{ch:.1f}"', new, count=1)
    new = re.sub(r'\sviewBox="[^"]*"', f' viewBox="{x0:.1f} {y0:.1f} {cw:.1f} {ch:.1f}"', new, count=1)
    return svg_text[:m.start()] + new + svg_text[m.end():]


def _focused(svg: Any, max_width: int, max_height: int) -> tuple[Any, str | None, tuple[float, float] | None]:
    """:func:`focused` of a text (the text focused, None, its size) or of a Picture (the
    Picture, its root's start tag alone focused: the rest is the same, its size)."""
    if isinstance(svg, str):
        svg = focused(svg, max_width, max_height)
        return svg, None, svg_width_height(svg)
    head = focused(svg.head, max_width, max_height)
    return svg, head, svg_width_height(head)


def preview_png(svg_text: Any, *, max_width: int = PREVIEW_WIDTH, max_height: int = PREVIEW_HEIGHT,
                colors: int = PREVIEW_COLORS, budget: int | None = PREVIEW_BUDGET) -> bytes:
    """The SVG as a small PNG for a mail: the area of the step's events when the drawer names
    one (:func:`focused`), scaled (never up) to fit ``max_width`` x ``max_height`` pixels,
    ``colors`` palette colours, optimised. Drawn once, at its final size (drawing is the slow
    part: issues 33 and 35), by pbem's own rasteriser where it can: when that is over
    ``budget`` bytes (a busier picture), fewer colours first (down to 16), and only then made
    smaller from that drawing (not drawn again), at most twice and never below 60 % of the
    first size. ``svg_text``: the text, or a :class:`pbem.core.mapdraw.Picture` (painted without
    its text being written when pbem's rasteriser draws it: the same PNG, issue 35). Raises as
    :func:`svg_to_png`."""
    svg_text, head, size = _focused(svg_text, max_width, max_height)
    k = min(1.0, max_width / size[0], max_height / size[1]) if size else 1.0
    width = max(1, round(size[0] * k)) if size and k < 1 else None
    big = _pillow(svg_text, width or (round(size[0]) if size else None), scaled=False, head=head) \
        if size and png_converter() == "pillow" else None
    if big is None:     # another converter: its PNG at the final size, scaled down from there
        if not isinstance(svg_text, str):
            svg_text = svg_text.text(head)
        raw = svg_to_png(svg_text, converter=_external() if png_converter() == "pillow" else None, width=width)
        try:
            from PIL import Image  # optional (pbem[png]): lazy
            with Image.open(io.BytesIO(raw)) as im:
                big = im.convert("RGBA")
                big.load()
        except Exception:  # noqa: BLE001 - no Pillow, or an odd PNG: as the converter wrote it
            return raw
    if not size:
        size = (float(big.width), float(big.height))
    first = round(size[0] * k)

    def image(w: int) -> Any:
        h = max(1, round(big.height * w / big.width))
        if w * 2 == big.width and h * 2 == big.height:
            return big.reduce(2)
        if (w, h) == big.size:
            return big
        from PIL import Image  # optional (pbem[png]): lazy
        return big.resize((w, h), Image.Resampling.BOX if big.width >= 2 * w else Image.Resampling.LANCZOS)

    def fit(im: Any) -> bytes:
        png = compact_image(im, colors=colors)      # zlib's default level: optimize takes 4 times longer for 7 %
        if budget and len(png) > budget:
            png = compact_image(im, colors=colors, optimize=True)
        for fewer in (32, 24, 16):
            if not budget or len(png) <= budget or fewer >= colors:
                break
            png = compact_image(im, colors=fewer, optimize=True)
        return png
    png = fit(image(first))
    kk = 1.0
    for _ in range(2):
        if not budget or len(png) <= budget or kk <= 0.6:
            break
        kk = max(0.6, kk * min(0.95, (budget / len(png)) ** 0.5 * 0.97))
        png = fit(image(max(1, round(first * kk))))
    return png
