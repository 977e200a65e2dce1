"""What the BlitzWAR by-mail tests do as a player would (issue 20's air phase by mail, issue 30's
mistakes refused up front): run the CLI, write a template, write an order file from one. Not a
test module: imported by them (pytest puts this folder on the path, as tests/bfg for synth)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def template(folder: Path, player: str, out: Path) -> Path:
    """`pbem orders template` for ``player`` into ``out`` (replaced if there)."""
    if out.exists():
        out.unlink()
    r = run("orders", "template", folder, "--player", player, "-o", out)
    assert r.exit_code == 0, r.output
    return out


def orders(folder: Path, tmp: Path, player: str, body: str, name: str) -> Path:
    """An order file ``tmp/name.yaml`` of ``player``: the template's head with ``body``."""
    text = template(folder, player, tmp / f"tpl-{name}.yaml").read_text()
    head = [ln for ln in text.splitlines() if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    p = tmp / f"{name}.yaml"
    p.write_text("\n".join(head) + "\n" + body)
    return p
