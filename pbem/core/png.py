"""SVG to PNG, optional: through ``cairosvg`` when it imports (``pip install 'pbem[png]'``),
else the ``rsvg-convert`` or ``inkscape`` command when on the PATH, else the error
MAP-PNG-UNAVAILABLE."""
from __future__ import annotations

from functools import lru_cache


def png_converter() -> str | None:
    """The converter :func:`svg_to_png` would use: ``cairosvg`` (when it imports: it needs the
    system's cairo library), ``rsvg-convert``, ``inkscape`` or None."""
    import shutil
    if cairosvg_usable():
        return "cairosvg"
    for cmd in ("rsvg-convert", "inkscape"):
        if shutil.which(cmd):
            return cmd
    return None


@lru_cache(maxsize=1)
def cairosvg_usable() -> bool:
    """True when ``import cairosvg`` works (installed, and the cairo library found)."""
    try:
        import cairosvg  # type: ignore[import-not-found]  # noqa: F401
    except (ImportError, OSError):   # not installed; installed without libcairo (OSError)
        return False
    return True


def svg_to_png(svg_text: str, *, converter: str | None = None) -> bytes:
    """Convert an SVG document to PNG with the first available converter; raises PbemError
    MAP-PNG-UNAVAILABLE when there is none and MAP-PNG-FAILED when it fails."""
    import os
    import shutil
    import subprocess
    import tempfile
    from .errors import ExitCode, Issue, PbemError
    conv = converter or png_converter()
    data = svg_text.encode("utf-8")
    if conv is None:
        raise PbemError([Issue("MAP-PNG-UNAVAILABLE", "no SVG to PNG converter is available here",
                               hint="install one of: the Python package cairosvg (pip install 'pbem[png]', with the system's "
                                    "cairo library: apt-get install libcairo2), "
                                    "rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin) or inkscape; "
                                    "or open the SVG in a web browser")], ExitCode.UNAVAILABLE)
    try:
        if conv == "cairosvg":
            import cairosvg  # type: ignore[import-not-found]
            return cairosvg.svg2png(bytestring=data)
        if conv == "rsvg-convert":
            r = subprocess.run([shutil.which("rsvg-convert") or "rsvg-convert", "--format=png"], input=data,
                               capture_output=True, timeout=300, check=False)
            if r.returncode == 0 and r.stdout.startswith(b"\x89PNG"):
                return r.stdout
            raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        if conv == "inkscape":
            with tempfile.TemporaryDirectory() as d:
                src, dst = os.path.join(d, "map.svg"), os.path.join(d, "map.png")
                with open(src, "wb") as f:
                    f.write(data)
                r = subprocess.run([shutil.which("inkscape") or "inkscape", src, "--export-type=png",
                                    f"--export-filename={dst}"], capture_output=True, timeout=300, check=False)
                if r.returncode == 0 and os.path.isfile(dst):
                    with open(dst, "rb") as f:
                        return f.read()
                raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        raise RuntimeError(f"unknown converter {conv!r}")
    except PbemError:
        raise
    except Exception as e:  # a converter's own failure, reported as such
        raise PbemError([Issue("MAP-PNG-FAILED", f"{conv} could not convert the map to PNG: {e}",
                               hint="the SVG itself is fine: write it without --png and convert it elsewhere")],
                        ExitCode.USAGE) from None


def compact_png(data: bytes, *, colors: int = 128) -> bytes:
    """``data`` (a PNG) with at most ``colors`` colours, as a palette PNG: a map of flat colours
    loses nothing visible and shrinks to a quarter. Needs Pillow (which cairosvg brings); without
    it, or when the result is not smaller, ``data`` unchanged. Deterministic for one Pillow."""
    try:
        import io
        from PIL import Image  # type: ignore[import-not-found]
    except ImportError:
        return data
    try:
        with Image.open(io.BytesIO(data)) as im:
            rgba = im.convert("RGBA")
        if rgba.getextrema()[3][0] < 255:  # a transparent background: laid on white, as mail clients show it
            rgba = Image.alpha_composite(Image.new("RGBA", rgba.size, "#ffffff"), rgba)
        rgb = rgba.convert("RGB")
        q = rgb.quantize(colors=colors, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
        out = io.BytesIO()
        q.save(out, format="PNG")          # optimize=True: 10 % smaller, six times slower
    except Exception:  # a converter's odd output: keep it as it is
        return data
    small = out.getvalue()
    return small if len(small) < len(data) else data
