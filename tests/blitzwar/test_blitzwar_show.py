"""`pbem show` of a BlitzWAR game as a new player reads it (issue 16, items 14 and 16): colour
on a terminal as Battle for Germany's (never in a pipe, never with NO_COLOR, never inside an
id), the counter letters explained, ids that never read as the strength a counter holds now, and
the rule section of the war line not read as a count."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbem.blitzwar.text import COUNTERS_KEY, counter_text
from pbem.cli import main
from pbem.core.data import load_ruleset

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blitzwar-1939"
ESC = "\x1b["
PLAIN_ENV = {"COLUMNS": None, "NO_COLOR": None, "FORCE_COLOR": None, "TERM": None}


def run(*args, **env):
    return CliRunner().invoke(main, [str(a) for a in args], env={**PLAIN_ENV, **env}, catch_exceptions=False)


def test_colour_on_a_terminal_only_as_battle_for_germany():
    plain = run("show", EXAMPLE)
    assert plain.exit_code == 0 and ESC not in plain.output             # a pipe: no escape codes
    forced = run("show", EXAMPLE, FORCE_COLOR="1")
    assert ESC in forced.output
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced.output) == plain.output   # colour adds nothing else
    assert ESC not in run("show", EXAMPLE, FORCE_COLOR="1", NO_COLOR="1").output
    # the sides in their colours, and never a piece of an id (axis-l4, ussr-i3-1)
    axis = next(ln for ln in forced.output.splitlines() if "supply held" in ln and "Axis" in ln)
    assert "\x1b[32mAxis" in axis
    assert not re.search(r"\x1b\[[0-9;]*m(axis|ussr|allies)\x1b\[0m-", forced.output)


def test_counter_letters_and_ids_explained():
    out = run("show", EXAMPLE).output
    assert COUNTERS_KEY in out.replace("\n", " ") or COUNTERS_KEY.split(";")[0] in out
    assert "A air" in out and "C armour" in out
    # a counter holding less than its face says so beside its id
    assert "ussr-i3-1 USSR I2 (of 3)" in out
    assert "who is at war (9):" in out and "countries (9)" not in out


def test_counter_text_never_reads_as_the_id_strength():
    rs = load_ruleset("blitzwar-1939")[1]
    kinds = rs.counters["GER"]
    k = next(i for i, kd in enumerate(kinds) if kd.type == "infantry" and int(kd.units) == 3)
    assert counter_text(rs, "ger-i3-9", {"nation": "GER", "type": "infantry", "kind": k, "units": 2}) == \
        "ger-i3-9 GER I2 (of 3)"
    assert counter_text(rs, "ger-i3-9", {"nation": "GER", "type": "infantry", "kind": k, "units": 3}) == "ger-i3-9 GER I3"


def test_template_explains_the_set_up_letters(tmp_path):
    from pbem.core.actions import new_campaign
    camp = tmp_path / "c"
    new_campaign(camp, scenario="blitzwar-1939", campaign_id="c",
                 players={"axis": {"name": "A"}, "allies": {"name": "B"}, "ussr": {"name": "C"}}, options={},
                 key_hex="5" * 64)
    r = run("orders", "template", camp, "--player", "allies")
    assert r.exit_code == 0, r.output
    assert "setup:" in r.output and "A air units (not armour)" in r.output


def test_a_report_on_a_terminal_colours_the_sides_and_the_archive_stays_plain():
    """The report printed by adjudicate or replay on a terminal: the BlitzWAR sides in colour
    (Game.term_styles), and the archived report.txt stays colourless."""
    import io
    import json

    from rich.console import Console

    from pbem.core.report import render
    g, rs = load_ruleset("blitzwar-1939")
    report = json.loads((EXAMPLE / "steps" / "004" / "report.json").read_text(encoding="utf-8"))
    buf = io.StringIO()
    render(report, g, rs, Console(file=buf, width=100, force_terminal=True, color_system="standard", highlight=False))
    assert re.search(r"\x1b\[[0-9;]*32maxis\x1b\[0m", buf.getvalue())
    assert ESC not in (EXAMPLE / "steps" / "004" / "report.txt").read_text(encoding="utf-8")
