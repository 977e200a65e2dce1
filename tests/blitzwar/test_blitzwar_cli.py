"""BlitzWAR from the command line: it is listed, its data is checked, and a two- or
three-player campaign starts and plays its first turn's phases (new, template, validate,
adjudicate for every awaited player, show, replay byte for byte)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_scenarios_lists_blitzwar():
    r = run("scenarios")
    assert r.exit_code == 0 and "blitzwar-1939" in r.output and "bfg-historical" in r.output


def test_data_check_blitzwar():
    r = run("data", "check", "--scenario", "blitzwar-1939")
    assert r.exit_code == 0, r.output
    assert "provisional: land combat 1-1 die 1 = 1/0" in r.output
    assert "land combat 4-1 die 1 = 0/1" not in r.output
    assert "0 error(s): data set complete and consistent" in r.output


KEY = "0" * 63 + "7"


def state_file(folder: Path) -> Path:
    return sorted((folder / "steps").glob("*/c1-*.yaml"))[-1]


def template(folder: Path, player: str, out: Path) -> str:
    if out.exists():
        out.unlink()
    r = run("orders", "template", folder, "--player", player, "-o", out)
    assert r.exit_code == 0, r.output
    return out.read_text()


def orders(folder: Path, tmp: Path, player: str, body: str) -> Path:
    text = template(folder, player, tmp / f"tpl-{player}.yaml")
    head = [ln for ln in text.splitlines() if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    p = tmp / f"orders-{player}.yaml"
    p.write_text("\n".join(head) + "\n" + body)
    return p


def awaited(folder: Path) -> list[str]:
    from pbem.core.yamlio import load_yaml
    st = load_yaml(state_file(folder).read_bytes(), "s").data
    aw = st["awaiting"] or []
    return sorted(a["player"] for a in ([aw] if isinstance(aw, dict) else aw))


def new(tmp_path, players):
    folder = tmp_path / "c"
    args = ["new", folder, "--scenario", "blitzwar-1939", "--id", "c1"]
    for p in players:
        args += ["--player", f"{p}={p.upper()}"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    return folder


AXIS_T1 = """phases:
  - phase: axis.7.movement
    moves:
      - {counter: ger-i3-1, path: [bialystok]}
      - {counter: ger-c1-2, path: [lwow, brest-litovsk]}
    activate:
      - {counter: ger-c2-1}
  - phase: axis.9.combat
"""


def _play_turn_1(folder: Path, tmp: Path, players: list[str]) -> None:
    # phases 1-3: every player at once (8)
    assert awaited(folder) == sorted(players)
    for p in players:
        t = template(folder, p, tmp / "t.yaml")
        assert "- phase: 1.diplomacy" in t and "- phase: 2.cards" in t and "3.replacements" not in t
        assert ("setup:" in t) == (p == "allies")
    files = []
    for p in players:
        f = tmp / f"t1-{p}.yaml"
        template(folder, p, f)
        files.append(f)
    assert run("validate", folder, *files).exit_code == 0
    r = run("adjudicate", folder, *files)
    assert r.exit_code == 0, r.output
    assert "set-up poland by the allies player" in r.output
    assert awaited(folder) == ["axis"]
    # the Axis phases 4-9 in one file
    p = orders(folder, tmp, "axis", AXIS_T1)
    assert run("validate", folder, p).exit_code == 0
    r = run("adjudicate", folder, p)
    assert r.exit_code == 0, r.output
    assert "ger-c1-2 tactical move costs 0.5" not in r.output
    assert "supply: ger-c1-2 tactical move (15.3) costs 0.5, paid from the supply held" in r.output
    assert "bialystok passes to the axis side" in r.output
    assert "ger-c2-1 in breslau activated for attack (15.3)" in r.output
    # the Allies, then the USSR (played by the allies player with two players)
    assert awaited(folder) == ["allies"]
    t = template(folder, "allies", tmp / "ta.yaml")
    assert "allies.9.combat" in t
    assert ("ussr.4.naval" in t) == ("ussr" not in players)
    r = run("adjudicate", folder, tmp / "ta.yaml")
    assert r.exit_code == 0, r.output
    if "ussr" in players:
        assert awaited(folder) == ["ussr"]
        r = run("adjudicate", folder, template_path(folder, "ussr", tmp))
        assert r.exit_code == 0, r.output
    # turn 2: phases 1-3 again, now with the replacement phase
    assert awaited(folder) == sorted(players)
    t = template(folder, "axis", tmp / "t2.yaml")
    assert "turn: 2" in t and "- phase: 3.replacements" in t


def template_path(folder, player, tmp) -> Path:
    f = tmp / f"tpl-{player}-x.yaml"
    template(folder, player, f)
    return f


@pytest.mark.parametrize("players", [["axis", "allies", "ussr"], ["axis", "allies"]])
def test_campaign_plays_turn_1_and_replays(tmp_path, players):
    folder = new(tmp_path, players)
    r = run("show", folder)
    assert r.exit_code == 0, r.output
    assert "turn 1 of 47" in r.output and "weather fine" in r.output
    assert "Axis: supply held 4" in r.output and "strategic points" in r.output
    assert "calendar: turn 2" in r.output and "set-up choice poland: default placement" in r.output
    # the neutrals' counters zone by zone (played by hand: an attack on Belgium-Netherlands had to
    # guess what stood in Liege)
    neutral = r.output.split("\nneutral: ", 1)[1]
    assert "  liege: be-i2-1 BE I2" in neutral, neutral[:400]
    _play_turn_1(folder, tmp_path, players)
    r = run("show", folder)
    assert "turn 2 of 47" in r.output and "weather mud" in r.output
    r = run("replay", folder)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
    # every state and order file validates against the BlitzWAR schemas
    from pbem.core.campaign import load_state_file
    for f in sorted((folder / "steps").glob("*/c1-*.yaml")):
        load_state_file(f)


def test_orders_refused_with_their_rule(tmp_path):
    folder = new(tmp_path, ["axis", "allies", "ussr"])
    files = [template_path(folder, p, tmp_path) for p in ("axis", "allies", "ussr")]
    assert run("adjudicate", folder, *files).exit_code == 0
    bad = orders(folder, tmp_path, "axis", """phases:
  - phase: axis.7.movement
    moves:
      - {counter: ger-i3-1, path: [warsaw]}
""")
    r = run("validate", folder, bad)
    assert r.exit_code == 3 and "BW-ENEMY-ZONE" in r.output and ":10:" in r.output, r.output
    before = sorted(str(p) for p in folder.rglob("*"))
    r = run("adjudicate", folder, bad)
    assert r.exit_code == 3 and "BW-ENEMY-ZONE" in r.output and "15.3" in r.output
    assert sorted(str(p) for p in folder.rglob("*")) == before
    # an allies phase is not the axis player's to give
    bad = orders(folder, tmp_path, "axis", "phases:\n  - phase: allies.7.movement\n")
    r = run("validate", folder, bad)
    assert r.exit_code == 3 and "BW-PHASE" in r.output
