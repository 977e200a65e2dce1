"""What a person reads (issue 8, "Terminal" and "Cosmetics"): every command follows the
terminal's width and never breaks a command or an id; colour on a terminal only; the archived
report stays 100 columns and colourless; every command and option has help."""
from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as hs

from pbem.cli import app, main
from pbem.core.actions import new_campaign
from pbem.core.term import atoms, wrap, wrap_atoms, wrap_comment_lines

KEY = "5" * 64
ESC = "\x1b["
PLAIN_ENV = {"COLUMNS": None, "NO_COLOR": None, "FORCE_COLOR": None, "TERM": None}


def run(*args, **env):
    return CliRunner().invoke(main, [str(a) for a in args], env={**PLAIN_ENV, **env}, catch_exceptions=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """A campaign with one adjudicated step, made with COLUMNS=60; every command's output."""
    tmp = tmp_path_factory.mktemp("term")
    camp = tmp / "c1"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY)
    out = {"camp": camp}
    r = run("orders", "template", camp, "--player", "soviet", COLUMNS="60")
    assert r.exit_code == 0, r.output
    out["template"] = r.output
    head = [ln for ln in r.output.splitlines() if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    orders = tmp / "orders.yaml"
    orders.write_text("\n".join(head) + """
phases:
  - phase: soviet.movement
    moves:
      - {unit: eg-9, to: '2526'}
""")
    out["validate"] = run("validate", camp, orders, COLUMNS="60").output
    orders.write_text("\n".join(head) + """
phases:
  - phase: soviet.movement
    moves:
      - {unit: sov-1bf, to: '2326'}
  - phase: soviet.combat
    attacks:
      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga], advance: sov-8ga}
standing: {retreat: auto, ex_losses: auto, advance: none}
""")
    r = run("adjudicate", camp, orders, COLUMNS="60")
    assert r.exit_code in (0, 5), r.output
    out["adjudicate"] = r.output
    out["new"] = run("new", tmp / "c2", "--scenario", "bfg-historical", "--id", "c2", "--player", "soviet=A",
                     "--player", "western=B", COLUMNS="60").output
    for name, args in {"show": ("show", camp), "replay": ("replay", camp, "--reports"),
                       "data": ("data", "check", "--scenario", "bfg-historical"), "scenarios": ("scenarios",)}.items():
        out[name] = run(*args, COLUMNS="60").output
    out["show-json"] = json.loads(run("show", camp, "--json").output)
    return out


OUTPUTS = ["template", "validate", "adjudicate", "new", "show", "replay", "data", "scenarios"]


@pytest.mark.parametrize("name", OUTPUTS)
def test_columns_60_is_followed(played, name):
    text = played[name]
    assert text.strip()
    for line in text.splitlines():
        if len(line) <= 60:
            continue
        if name == "template" and (line.startswith("# yaml-language-server:") or line.startswith("state: ")):
            continue  # an editor directive and a hash value cannot be broken in YAML
        assert len(atoms(line.strip())) == 1, f"{name}: line of {len(line)} columns:\n{line}"


def test_commands_and_ids_are_never_broken(played):
    # the next command printed by `new`, whole on one line
    nxt = [ln for ln in played["new"].splitlines() if "pbem orders template" in ln]
    assert len(nxt) == 1 and nxt[0].strip().startswith("pbem orders template") and "--player soviet -o " in nxt[0], played["new"]
    # the report's pointer to `pbem dice verify`, on screen and in the archive
    assert any("`pbem dice verify`" in ln for ln in played["adjudicate"].splitlines()), played["adjudicate"]
    archived = (played["camp"] / "steps" / "001" / "report.txt").read_text("utf-8")
    assert any("`pbem dice verify`" in ln for ln in archived.splitlines())
    # every unit entry of `show` on one line, with its strength and hex
    lines = played["show"].splitlines()
    for _force, e in played["show-json"]["forces"].items():
        for u in e["on_map"]:
            entry = f"{u['unit']} {u['strength']}@{u['hex']}"
            assert any(entry in ln for ln in lines), entry
    # no line of the report ends in the middle of an id (a line break right after 'sov-' etc.)
    for text in (played["adjudicate"], archived):
        assert not re.search(r"\b[a-z]+-\n", text)


def test_the_archive_is_100_columns_and_colourless(played):
    archived = (played["camp"] / "steps" / "001" / "report.txt").read_text("utf-8")
    assert ESC not in archived
    assert max(len(ln) for ln in archived.splitlines()) > 60  # not the terminal's 60 columns
    # the same report as on a 100-column screen, whatever the terminal
    r = run("replay", played["camp"], "--reports", COLUMNS="100")
    assert archived in r.output


def test_colour_on_a_terminal_only(played):
    camp = played["camp"]
    plain = run("show", camp)
    assert ESC not in plain.output                      # a pipe: no escape codes
    forced = run("show", camp, FORCE_COLOR="1")
    assert ESC in forced.output                         # forced: colour for the sides
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced.output) == plain.output
    assert ESC not in run("show", camp, FORCE_COLOR="1", NO_COLOR="1").output
    r = run("adjudicate", camp, "--json", FORCE_COLOR="1")  # nothing to adjudicate: an error
    bad = run("validate", camp, camp / "nothing.yaml", FORCE_COLOR="1")
    assert ESC in bad.output and "error" in bad.output
    assert ESC not in run("validate", camp, camp / "nothing.yaml", NO_COLOR="1", FORCE_COLOR="1").output
    del r


def test_forced_colour_does_not_reach_the_archive(tmp_path):
    camp = tmp_path / "c1"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY,
                 missing_defaults={"soviet": "no-orders"})
    r = run("adjudicate", camp, "--missing-orders", FORCE_COLOR="1", COLUMNS="60")
    assert r.exit_code == 5, r.output          # the default's compulsory West German attacks leave a decision
    assert ESC in r.output
    text = (camp / "steps" / "001" / "report.txt").read_text("utf-8")
    assert ESC not in text and "soviet" in text


def test_report_cosmetics(played):
    archived = (played["camp"] / "steps" / "001" / "report.txt").read_text("utf-8")
    lines = archived.splitlines()
    assert "stopped: complete" not in archived and "stopped: pending" not in archived
    # no heading without anything under it: a phase without events is one line
    for i, ln in enumerate(lines):
        if "───" in ln and not ln.startswith("───"):
            assert i + 1 < len(lines) and lines[i + 1].strip(), f"empty heading: {ln}"
    assert "Soviet replacement phase - Soviet player: nothing to report" in archived
    rep = json.loads((played["camp"] / "steps" / "001" / "report.json").read_text("utf-8"))
    moved = [e for e in rep["events"] if e["type"] in ("move", "retreat", "advance") and e.get("unit")]
    assert moved and all("from" in e and "frm" not in e for e in moved)


def test_article_before_a_force(played):
    assert "is an East German unit" in played["validate"].replace("\n    ", " "), played["validate"]


def _walk(cmd, path=()):
    yield path, cmd
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            yield from _walk(sub, path + (name,))


def test_every_command_and_option_has_help():
    app.load_commands()     # a command's module is imported lazily: walk them all, not those loaded so far
    for path, cmd in _walk(main):
        name = " ".join(("pbem",) + path)
        assert cmd.help, f"{name} has no help"
        short = cmd.get_short_help_str(limit=45) if path else ""   # the listing of `pbem --help`
        assert not short.endswith(("...", "…")) and len(short) <= 45, f"{name}: {short!r}"
        for p in cmd.params:
            if isinstance(p, click.Option):
                assert p.help, f"{name} {p.opts[0]} has no help"


@pytest.mark.parametrize("columns", ["80", "60", "40"])
def test_help_listings_are_not_cut(columns):
    for path, cmd in _walk(main):
        if isinstance(cmd, click.Group):
            out = run(*path, "--help", COLUMNS=columns).output
            listing = out.split("Commands:")[1]
            assert "..." not in listing and "…" not in listing, listing


def test_template_comments_wrap_and_stay_yaml(played):
    import yaml
    wide = run("orders", "template", played["camp"], "--player", "western").output
    narrow = wrap_comment_lines(wide, 40)
    assert yaml.safe_load(narrow) == yaml.safe_load(wide)
    assert narrow.splitlines()[0] == wide.splitlines()[0]  # the editor's schema line stays whole


# -- wrapping itself ----------------------------------------------------------------------------

def test_wrap_keeps_commands_quoted_spans_and_ids():
    t = "next: pbem orders template games/berlin45/steps/000/x.yaml --player soviet"
    assert wrap(t, 30) == ["next:", "    pbem orders template games/berlin45/steps/000/x.yaml --player soviet"]
    assert "    with `pbem dice verify`)" in wrap("dice: key 808e0713c5aee4ac... (verify any roll with `pbem dice verify`)", 50)
    assert atoms("  attackers: sov-8ga 7 + pk-1 3 = 24") == ["attackers:", "sov-8ga 7", "+", "pk-1 3", "= 24"]
    assert atoms("advance pk-1 (3-4-4): 2526 -> 2525")[1] == "pk-1 (3-4-4):"
    assert atoms("c.yaml:3:1: error BFG-UNIT-UNKNOWN: unknown unit")[0] == "c.yaml:3:1: error BFG-UNIT-UNKNOWN:"
    assert wrap("short", 60) == ["short"]


_word = hs.text(alphabet="abcdefghij-0123456789", min_size=1, max_size=14)


@settings(max_examples=200, deadline=None)
@given(hs.lists(_word, min_size=1, max_size=30), hs.integers(min_value=10, max_value=80))
def test_wrap_atoms_never_loses_or_splits_a_piece(pieces, width):
    lines = wrap_atoms(pieces, width, indent="  ", subsequent="    ")
    assert " ".join(" ".join(lines).split()) == " ".join(pieces)
    for ln in lines:
        assert len(ln) <= width or len(ln.split()) == 1
