"""Issue 33, "Smaller frictions": what got in the way of a new player's turn by mail, each with
its test: help texts that said sea transport was still to come and that `pbem new` always writes
a dice key; `pbem new` naming the mail command twice; standing orders offered to players who are
never asked them; a strait refusal's hint naming the closed sea; refusals without what stands in
the zone or without a hint; the four-player map's title giving victory points that decide
nothing; the template's schema comment as a relative path; `adjudicate --help` not saying a
reveal may come as an e-mail; exit codes that differed for the same kind of problem, and
`head --check` saying a difference twice."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.errors import ExitCode

KEY = "3" * 64


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture()
def bw(tmp_path: Path) -> Path:
    folder = tmp_path / "bw"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "fr", "-p", "axis=Anna:anna@example.org",
            "-p", "allies=Ben:ben@example.org", "-p", "ussr=Chen:chen@example.org", "--auto-decisions")
    assert r.exit_code == 0, r.output
    return folder


def test_help_says_sea_transport_is_played_and_when_a_dice_key_is_written():
    for args in (["scenarios"], ["new", "--help"]):
        out = run(*args).output
        assert "to come" not in out and "sea transport (14)" in re.sub(r"\s+", " ", out), out
    out = re.sub(r"\s+", " ", run("new", "--help").output)
    assert "With hash chains (--dice chain) there is no key" in out, out


def test_new_names_the_first_mail_once(bw, tmp_path):
    r = run("new", tmp_path / "again", "--scenario", "blitzwar-1939", "--id", "fr2", "-p", "axis=Anna:anna@example.org",
            "-p", "allies=Ben:ben@example.org", "-p", "ussr=Chen:chen@example.org")
    assert r.exit_code == 0, r.output
    assert r.output.count("pbem mail") == 1, r.output
    assert "Mail: pbem mail" in r.output


def test_standing_orders_only_of_those_ever_asked(bw, tmp_path):
    """german_defence (16.3.2) and bob_rounds (13.4.3) are the Axis player's; bob_losses is of
    German and Allied air units, never Soviet ones."""
    keys = {}
    for p in ("axis", "allies", "ussr"):
        out = tmp_path / f"{p}.yaml"
        assert run("orders", "template", bw, "--player", p, "-o", out).exit_code == 0
        block = out.read_text("utf-8").split("\nstanding:\n", 1)[1]
        keys[p] = set(re.findall(r"(?m)^  (\w+): ", block))
    assert {"german_defence", "bob_rounds", "bob_losses"} <= keys["axis"]
    assert not {"german_defence", "bob_rounds"} & keys["allies"] and "bob_losses" in keys["allies"]
    assert not {"german_defence", "bob_rounds", "bob_losses"} & keys["ussr"]
    assert {"losses", "retreat", "advance", "naval_losses", "intercept"} <= keys["ussr"]
    # `pbem new --auto-decisions` sets, and `pbem show` lists, only those
    show = run("show", bw).output
    ussr = next(ln for ln in show.splitlines() if "standing orders of the ussr player" in ln)
    allies = next(ln for ln in show.splitlines() if "standing orders of the allies player" in ln)
    assert "german_defence" not in ussr + allies and "bob_rounds" not in ussr + allies and "bob_losses" not in ussr


def test_the_template_names_its_schema_by_an_absolute_uri(bw, tmp_path):
    out = tmp_path / "mail folder" / "axis.yaml"
    out.parent.mkdir()
    assert run("orders", "template", bw, "--player", "axis", "-o", out).exit_code == 0
    first = out.read_text("utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=file:///"), first
    assert first.endswith("/schemas/blitzwar-orders.schema.json"), first


def test_adjudicate_help_says_a_reveal_may_be_an_email():
    out = re.sub(r"\s+", " ", run("adjudicate", "--help").output)
    assert "--reveal" in out and "(.eml, mbox)" in out, out


def test_exit_codes_of_one_kind_of_problem_agree(bw, tmp_path):
    # a file named on the command line that is not there: 2, as validate says it
    r = run("validate", bw, tmp_path / "nope.yaml")
    assert r.exit_code == ExitCode.INVALID, r.output
    r = run("chain", "reveal", tmp_path / "nope.chain", bw)
    assert r.exit_code == ExitCode.INVALID, r.output
    r = run("show", tmp_path / "nope")
    assert r.exit_code == ExitCode.INVALID, r.output
    # adjudicate with nothing to adjudicate: the command line is incomplete (64), no rule broken
    r = run("adjudicate", bw)
    assert r.exit_code == ExitCode.USAGE and "USAGE-NO-FILES" in r.output, r.output
    # head --check: a difference said once, as the error
    r = run("head", bw, "--check", "0" * 64)
    assert r.exit_code == ExitCode.MISMATCH, r.output
    assert r.output.count("the two archives differ") == 1 and "\nDIFFERS:" not in "\n" + r.output, r.output


def test_a_strait_refusal_does_not_hint_the_closed_sea(tmp_path):
    from pbem.blitzwar.context import Ctx
    from pbem.blitzwar.naval import _hint, _step_refused
    from pbem.blitzwar.seacontrol import strait_between, strait_open
    from pbem.core.actions import new_campaign
    from pbem.core.data import load_ruleset
    _, rs = load_ruleset("blitzwar-1939")
    camp = new_campaign(tmp_path / "c", scenario="blitzwar-1939", campaign_id="s", players={
        "axis": {"name": "A"}, "allies": {"name": "B"}, "ussr": {"name": "C"}}, options={}, key_hex=KEY)
    _, st = camp.current()
    ctx = Ctx(rs=rs, state=st, turn=st["turn"], phase="axis.4.naval", side="axis", player="axis")
    closed = [(a, b) for a in rs.seas for b in rs.sea_neighbours(a)
              if strait_between(rs, a, b) and not strait_open(ctx, "axis", strait_between(rs, a, b))]
    assert closed, "a strait closed to the Axis at the start (Gibraltar)"
    for a, b in closed:
        assert _step_refused(ctx, a, b) and "closed" in _step_refused(ctx, a, b)
        hint = _hint(ctx, a)
        assert b not in hint.split(": ", 1)[1].split(", "), (a, b, hint)


def test_a_refused_placement_says_what_stands_there_and_a_supply_refusal_has_a_hint():
    import inspect

    from pbem.blitzwar import replacements, supply
    src = inspect.getsource(replacements)
    assert "standing there now:" in src
    src = inspect.getsource(supply.pay)
    assert 'Issue("BW-SUPPLY",' in src and "hint=" in src.split('Issue("BW-SUPPLY",', 1)[1].split("])", 1)[0]


def test_the_four_player_map_title_gives_the_berlin_race_not_victory_points(tmp_path):
    folder = tmp_path / "four"
    r = run("new", folder, "--scenario", "bfg-four-player", "--id", "f4", "-p", "soviet=A", "-p", "east-german=B",
            "-p", "west-german=C", "-p", "western=D")
    assert r.exit_code == 0, r.output
    svg = tmp_path / "four.svg"
    r = run("map", folder, "-o", svg)
    assert r.exit_code == 0, r.output
    pic = svg.read_text("utf-8")
    assert "Berlin race (17.32): nobody has entered Berlin" in pic and "victory points:" not in pic


def test_a_default_card_pick_keeps_its_section_on_its_line(tmp_path):
    folder = tmp_path / "c"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "cp", "-p", "axis=A", "-p", "allies=B", "-p", "ussr=C",
            *[x for p in ("axis", "allies", "ussr") for x in ("--missing-orders-default", f"{p}=no-orders")])
    assert r.exit_code == 0, r.output
    r = run("adjudicate", folder, "--missing-orders")
    assert r.exit_code == 0, r.output
    text = (folder / "steps" / "001" / "report.txt").read_text("utf-8")
    picks = [ln for ln in text.splitlines() if ": card of turn " in ln]
    assert len(picks) == 9 and all(ln.endswith("(10.1)") and "default" in ln for ln in picks), picks


def test_a_missing_orders_default_added_after_new_is_archived_and_replay_knows(tmp_path):
    folder = tmp_path / "md"
    assert run("new", folder, "--scenario", "blitzwar-1939", "--id", "md", "-p", "axis=A", "-p", "allies=B",
               "-p", "ussr=C").exit_code == 0
    r = run("adjudicate", folder, "--missing-orders")
    assert r.exit_code == ExitCode.USAGE and "ORDERS-NO-DEFAULT" in r.output and "pbem missing-default" in r.output, r.output
    r = run("missing-default", folder, "ussr=no-orders", "allies=no-orders", "axis=no-orders")
    assert r.exit_code == 0 and "next adjudicated step archives it" in r.output, r.output
    for bad in (["nobody=no-orders"], ["ussr=something"]):
        assert run("missing-default", folder, *bad).exit_code == ExitCode.USAGE
    # campaign.yaml takes it at once; replay accepts it before the next step archives it
    r = run("replay", folder)
    assert r.exit_code == 0 and "the next step archives" in r.output, r.output
    r = run("adjudicate", folder, "--missing-orders")
    assert r.exit_code == 0, r.output
    assert (folder / "steps" / "001" / "campaign.json").is_file()
    assert not (folder / "steps" / "000" / "campaign.json").read_text("utf-8").count("missing_orders")
    r = run("replay", folder)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
    # the archived change is what replay goes by: without it, the step played a default nobody declared
    (folder / "steps" / "001" / "campaign.json").unlink()
    r = run("replay", folder)
    assert r.exit_code != 0 and "no missing-orders default was declared for that player then" in r.output, r.output


def test_the_mailed_preview_is_the_area_of_the_steps_events_at_its_own_scale():
    """The whole BlitzWAR map scaled to 900 pixels made a step's rings, labels and arrows a few
    pixels across: the drawer names the area of the step's marks (data-focus) and the preview
    is that area, grown to 900 x 680 and drawn at the map's own scale (never enlarged); a
    picture that names no area, or whose area is most of it, goes whole."""
    import json

    from pbem.core.campaign import load_state_file
    from pbem.core.data import load_ruleset
    from pbem.core.png import focused, svg_width_height
    d = Path(__file__).resolve().parents[1] / "examples" / "blitzwar-1939" / "steps" / "001"
    st, _ = load_state_file(next(p for p in d.glob("*.yaml") if not p.name.startswith("orders-")))
    rep = json.loads((d / "report.json").read_text("utf-8"))
    g, rs = load_ruleset(st["scenario"])
    # a step that attacks in Poland (a made-up report: two attacks, an advance)
    rep = {"step": 4, "events": [
        {"type": "combat", "phase": "axis.8.blitz", "combat": 1, "zone": "poznan", "odds": "2:2", "column": "2-1",
         "result": "C/1", "attackers": [{"counter": "x", "from": "breslau"}], "defenders": []},
        {"type": "advance", "phase": "axis.9.combat", "counter": "x", "from": "breslau", "path": ["lodz"]}]}
    svg = g.draw_map(rs, st, report=rep)
    W, H = svg_width_height(svg)
    fx, fy, fw, fh = (float(v) for v in re.search(r'data-focus="([^"]+)"', svg[:2000]).group(1).split())
    cut = focused(svg)
    w, h = svg_width_height(cut)
    assert (w, h) == (900.0, 680.0)
    assert (w, h) != (W, H)
    x0, y0, vw, vh = (float(v) for v in re.search(r'viewBox="([^"]+)"', cut[:2000]).group(1).split())
    assert (vw, vh) == (w, h) and x0 <= fx and y0 <= fy and x0 + vw >= fx + fw and y0 + vh >= fy + fh
    assert cut[cut.index(">") + 1:] == svg[svg.index(">") + 1:]       # only the root's window changed
    # no step, no area: the whole map
    whole = g.draw_map(rs, st)
    assert "data-focus" not in whole[:2000] and focused(whole) == whole
    # an area over most of the map: the whole map
    wide = re.sub(r'data-focus="[^"]+"', f'data-focus="0 0 {W * 0.9:.0f} {H * 0.5:.0f}"', svg, count=1)
    assert focused(wide) == wide
