"""What a new player meets when an order file is wrong (issue 16, items 7 and 8): every problem
at once, each at its own line, with a did-you-mean for a counter, a zone, a set-up zone or a
card written wrong, an unknown zone called unknown (not an adjacency problem), one message for a
path that starts where the counter stands, BW-STACK at the moves that cause it, and the rule
printed once. Exact code and line of each."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_blitzwar_cli import new, run, template


def _head(folder: Path, tmp: Path, player: str) -> str:
    text = template(folder, player, tmp / f"head-{player}.yaml")
    return "\n".join(ln for ln in text.splitlines() if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")) + "\n"


def _problems(output: str) -> list[tuple[int, str]]:
    """(line, code) of every problem `pbem validate` printed, in order."""
    return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"\.yaml:(\d+):\d+: error ([A-Z0-9-]+)", output)]


@pytest.fixture(scope="module")
def turn1(tmp_path_factory):
    """A three-player campaign at turn 1, before anyone's orders."""
    tmp = tmp_path_factory.mktemp("msg")
    return new(tmp, ["axis", "allies", "ussr"]), tmp


@pytest.fixture(scope="module")
def axis_moves(tmp_path_factory):
    """The same campaign once phases 1-3 are played: the Axis gives its phases 4-9."""
    tmp = tmp_path_factory.mktemp("msg4")
    folder = new(tmp, ["axis", "allies", "ussr"])
    files = []
    for p in ("axis", "allies", "ussr"):
        f = tmp / f"t1-{p}.yaml"
        template(folder, p, f)
        files.append(f)
    assert run("adjudicate", folder, *files).exit_code == 0
    return folder, tmp


MOVES = """phases:
  - phase: axis.7.movement
    moves:
      - {counter: ger-i2-5, path: [saarbrucken]}
      - {counter: ger-i2-4, path: [saarbrucken]}
      - {counter: ger-i1t-3, path: [saarbrucken]}
      - {counter: ger-c1-2, path: [warsw]}
      - {counter: ger-i3-1, path: [konigsberg, bialystok]}
      - {counter: ger-i3-l, path: [bialystok]}
"""


def test_every_problem_of_the_movement_phase_at_once_each_at_its_line(axis_moves):
    folder, tmp = axis_moves
    f = tmp / "moves.yaml"
    head = _head(folder, tmp, "axis")
    f.write_text(head + MOVES)
    n = head.count("\n")          # the first line of MOVES is line n + 1
    r = run("validate", folder, f)
    assert r.exit_code == 3, r.output
    assert sorted(_problems(r.output)) == [(n + 6, "BW-STACK"), (n + 7, "BW-ZONE"), (n + 8, "BW-PATH-START"),
                                           (n + 9, "BW-COUNTER")], r.output
    out = " ".join(r.output.split())
    # did-you-mean: the counter (a letter l typed for the digit 1) and the zone
    assert "no counter 'ger-i3-l' (did you mean 'ger-i3-1'?)" in out
    assert "ger-c1-2: no zone 'warsw' on the map (did you mean 'warsaw'?)" in out
    assert "is not next to" not in out             # an unknown zone is not an adjacency problem
    # the path that starts where the counter stands: one message, that says so
    assert "ger-i3-1: the path lists the zones entered, not konigsberg, where ger-i3-1 stands (15.3)" in out
    assert "hint: write path: [bialystok]" in out
    # BW-STACK names the moves that cause it, at the last of them
    assert "Saarbrucken would hold 1 counter too many" in out and "moved in by ger-i2-5, ger-i2-4, ger-i1t-3" in out
    # ... and what stands there already (issue 16 by mail: the player had to look it up)
    assert "ger-i1t-3 (ger-i3-3 there already)" in out and "pbem show STATE --zone saarbrucken" in out
    # the rule once, not "(15.3) [15.3]"
    assert "(15.3) [15.3]" not in out and "[15.3]" in out        # BW-ZONE cites it only in brackets
    # adjudicate refuses the file with the same problems, and writes nothing
    before = sorted(str(p) for p in folder.rglob("*"))
    r = run("adjudicate", folder, f)
    assert r.exit_code == 3 and sorted(set(_problems(r.output))) == sorted(set(_problems(run("validate", folder, f).output)))
    assert sorted(str(p) for p in folder.rglob("*")) == before


def test_an_unknown_attack_target_and_counter_have_a_did_you_mean(axis_moves):
    folder, tmp = axis_moves
    f = tmp / "attack.yaml"
    head = _head(folder, tmp, "axis")
    f.write_text(head + """phases:
  - phase: axis.7.movement
    activate:
      - {counter: ger-c2-1}
  - phase: axis.8.blitz
    attacks:
      - {target: krakov, counters: [ger-c2-1]}
""")
    r = run("validate", folder, f)
    out = " ".join(r.output.split())
    assert r.exit_code == 3 and "BW-ZONE: attack: no zone 'krakov' on the map (did you mean 'krakow'?)" in out, r.output


def test_every_set_up_and_card_problem_at_once(turn1):
    folder, tmp = turn1
    text = template(folder, "allies", tmp / "allies.yaml")
    text = (text.replace("        warsaw: {I: 2}\n", "        warsw: {I: 2}\n")
                .replace("        lodz: {I: 1}\n", "        berlin: {I: 1}\n")
                .replace("allies: [allies-l1, allies-l2, allies-l3]", "allies: [allies-l1, axis-l3, allies-l1]"))
    f = tmp / "allies-bad.yaml"
    f.write_text(text)
    lines = text.splitlines()
    at = {k: next(i + 1 for i, ln in enumerate(lines) if k in ln) for k in ("warsw:", "berlin:", "allies: [")}
    r = run("validate", folder, f)
    assert r.exit_code == 3, r.output
    assert _problems(r.output) == [(at["warsw:"], "BW-SETUP-ZONE"), (at["berlin:"], "BW-SETUP-ZONE"),
                                   (at["allies: ["], "BW-CARD-NOT-FREE"), (at["allies: ["], "BW-CARD-NOT-FREE")], r.output
    out = " ".join(r.output.split())
    assert "poland: no zone 'warsw' on the map (did you mean 'warsaw'?) (19)" in out
    assert "poland: berlin is in GER, not in POL (19)" in out
    assert "axis-l3 is not a card of the allies limited-war deck (did you mean 'allies-l3'?)" in out
    assert "allies-l1 is picked twice in this file" in out


def test_a_file_for_a_past_phase_says_which_phase_it_is_for(axis_moves):
    folder, tmp = axis_moves
    old = tmp / "t1-axis.yaml"          # the Axis file of phases 1-3, adjudicated already
    r = run("validate", folder, old)      # the same file again: it counts once
    assert r.exit_code == 4 and "HASH-ORDERS-REPLAYED" in r.output and "HASH-ORDERS-STATE" not in r.output, r.output
    late = tmp / "t1-axis-late.yaml"      # another file for those phases (a late second thought)
    late.write_text(old.read_text() + "# one more thought\n")
    r = run("validate", folder, late)
    out = " ".join(r.output.split())
    assert r.exit_code == 4, r.output
    assert ("HASH-ORDERS-STATE: the orders were written against another state (its hash differs): this file is for "
            "turn 1, phases 1.diplomacy, 2.cards; the game is at turn 1, axis.4.naval (step 1)") in out, out


def test_a_loss_choice_names_counters_alone_when_only_one_option_fits_and_options_print_as_yaml():
    from pbem.blitzwar.game import BlitzWar
    from pbem.core.errors import choice_text
    from pbem.core.kernel import _answer, choice_problem
    d = {"id": "t01.c1.losses.allies", "player": "allies", "options": [["pol-i1-1/infantry"], ["pol-i2-3/infantry"]]}
    assert _answer("pol-i2-3", d) == ["pol-i2-3/infantry"]
    assert choice_problem(BlitzWar(), None, d, "pol-i2-3") is None
    assert choice_problem(BlitzWar(), None, d, "pol-i9-9") is not None
    two = {"id": "x", "player": "allies", "options": [["pol-i2-3/infantry", "pol-i2-3/infantry"],
                                                      ["pol-i1-1/infantry", "pol-i2-3/infantry"]]}
    assert _answer(["pol-i2-3", "pol-i1-1"], two) == ["pol-i1-1/infantry", "pol-i2-3/infantry"]
    # an armour and an infantry corps of one counter: the id alone is ambiguous, and stays refused
    amb = {"id": "y", "player": "axis", "options": [["ger-w3-1/armour"], ["ger-w3-1/infantry"]]}
    assert choice_problem(BlitzWar(), None, amb, "ger-w3-1") is not None
    assert choice_text(d["options"]) == "[[pol-i1-1/infantry], [pol-i2-3/infantry]]"
    assert " | ".join(choice_text(o) for o in d["options"]) == "[pol-i1-1/infantry] | [pol-i2-3/infantry]"


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blitzwar-1939"


def test_the_loss_decision_of_the_example_prints_yaml_options_and_takes_a_counter_id(tmp_path):
    # Played by hand: the template printed ['pol-c1-1/armour', 'pol-i2-3/infantry'] (Python), and
    # `choice: pol-i2-3` (the losses of the one counter that can take them) was refused. The
    # example's Allied loss decision of the attack on Paris in 1940 (step 090, after the Axis
    # answered its own: the French lose two corps, with a retreat) is of that kind: fra-i3-1 alone
    # can take both losses.
    state = next((EXAMPLE / "steps" / "090").glob("bw39-090-*.yaml"))
    out = tmp_path / "answer.yaml"
    r = run("orders", "template", state, "--player", "allies", "-o", out)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    legal = ("[fra-i1-1/infantry, fra-i2-2/infantry] | [fra-i1-1/infantry, fra-i3-1/infantry] | "
             "[fra-i2-2/infantry, fra-i3-1/infantry] | [fra-i3-1/infantry, fra-i3-1/infantry]")
    assert f"# legal choices: {legal}" in text, text
    assert "['" not in text
    # the retreat that follows is asked with the losses (issue 33: one answer file): a zone
    import yaml
    pend = yaml.safe_load(state.read_text("utf-8"))["pending"]
    zone = next(d["options"][0] for d in pend if d["player"] == "allies" and d["kind"] == "retreat")
    text = text.replace("choice: ''", "choice: LOSS", 1).replace("choice: ''", f"choice: {zone}")
    out.write_text(text.replace("choice: LOSS", "choice: fra-i3-1"))
    r = run("validate", state, out)
    assert r.exit_code == 0, r.output
    out.write_text(text.replace("choice: LOSS", "choice: fra-i9-9"))
    r = run("validate", state, out)
    assert r.exit_code == 3 and f"legal: {legal}" in r.output


# ------------------------------------------------------------------------------ issue 16, item 12: neighbours
def test_the_template_lists_the_zones_next_to_your_units(axis_moves):
    folder, tmp = axis_moves
    text = template(folder, "axis", tmp / "axis-neigh.yaml")
    move, attack = text.split("- phase: axis.8.blitz", 1)
    assert "# zones next to your land units now" in move
    assert "#   konigsberg: " in move and "warsaw (allies: pol-i2-1 I2)" in move
    assert "# enemy zones next to your land units now" in attack
    line = next(ln for ln in attack.splitlines() if ln.startswith("    #   konigsberg: "))
    assert line == "    #   konigsberg: gdynia (allies: pol-i1-1 I1), warsaw (allies: pol-i2-1 I2)", line


def test_show_zone_tells_what_is_next_to_a_zone_in_both_games(axis_moves, tmp_path):
    folder, _ = axis_moves
    r = run("show", folder, "--zone", "warsaw")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "warsaw (Warsaw, POL) - allies - clear, strategic point (general): pol-i2-1 POL I2"
    assert lines[1] == "next to warsaw (6 zones by land):"
    assert "  konigsberg (Konigsberg, GER) - axis - clear, fortress, strategic point (general): ger-a1-1 GER A1; ger-i3-1 GER I3" in lines
    assert any(ln.startswith("  brest-litovsk ") and ln.endswith("[across a river]") for ln in lines)
    # the zone's name does as well as its id; a zone written wrong is a usage error with a did-you-mean
    assert run("show", folder, "--zone", "Warsaw").output == r.output
    r = run("show", folder, "--zone", "warsw")
    assert r.exit_code == 64 and "no zone 'warsw' on the BlitzWAR map (did you mean 'warsaw'?)" in r.output
    # Battle for Germany: the hexes next to a hex
    bfg = tmp_path / "bf"
    assert run("new", bfg, "--scenario", "bfg-historical", "--id", "b1", "--player", "soviet=S", "--player", "western=W").exit_code == 0
    r = run("show", bfg, "--zone", "0510")
    assert r.exit_code == 0 and r.output.splitlines()[:2] == ["0510 (clear): empty", "next to 0510:"], r.output
    assert len(r.output.splitlines()) == 8


def test_a_path_from_the_own_zone_with_a_zone_not_on_the_map(axis_moves):
    """Played by mail (issue 16): `path: [minsk, baranovichi]` got BW-PATH-START only, whose
    hint offered `path: [baranovichi]`, a zone that does not exist. Both are said."""
    folder, tmp = axis_moves
    f = tmp / "start-unknown.yaml"
    head = _head(folder, tmp, "axis")
    f.write_text(head + "phases:\n  - phase: axis.7.movement\n    moves:\n"
                 "      - {counter: ger-i3-1, path: [konigsberg, bialystk]}\n")
    n = head.count("\n")
    r = run("validate", folder, f)
    assert r.exit_code == 3, r.output
    assert _problems(r.output) == [(n + 4, "BW-PATH-START"), (n + 4, "BW-ZONE")], r.output
    out = " ".join(r.output.split())
    assert "no zone 'bialystk' on the map (did you mean 'bialystok'?)" in out
