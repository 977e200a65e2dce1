"""Issue 30: every mistake that does not depend on the dice is caught before the first die, in
every phase of a file, not only up to its first decision or die. Tried as a new player would, by
mail: an Axis file with an air mission whose interception the Allied player may answer, then a
move `hamburg -> dresden` (not adjacent) and a blitz on `krakau` (a typo). `validate` said OK,
`adjudicate` archived it and the blitz was void after the answers, blamed on the dice. Now the
phase table's static checks (pbem/blitzwar/phasetable.py), run by the kernel for every phase of
the file on arrival, refuse it with every problem at once; the same after a naval battle and for
a blitz in mud."""
from __future__ import annotations

from pathlib import Path

from by_mail import orders, run, template
from test_mistakes_up_front import BW_AT_SEA as AT_SEA, BW_POSITION as POSITION

from pbem.blitzwar.cases import kit
from pbem.core.errors import ExitCode


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def started(tmp: Path) -> Path:
    """A three-player 1939 campaign through phases 1-3 of turn 1: the Axis side's phases next."""
    folder = tmp / "c"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "c1",
            *[a for p in ("axis", "allies", "ussr") for a in ("--player", f"{p}={p.upper()}")])
    assert r.exit_code == 0, r.output
    r = run("adjudicate", folder, *[template(folder, p, tmp / f"t1-{p}.yaml") for p in ("axis", "allies", "ussr")])
    assert r.exit_code == 0, r.output
    return folder


REPRO = """phases:
  - phase: axis.5.air
    air:
      - {counter: ger-a1-9, to: nancy}
  - phase: axis.7.movement
    moves:
      - {counter: ger-i1t-2, path: [dresden]}
  - phase: axis.8.blitz
    attacks:
      - {target: krakau, counters: [ger-c2-1, ger-i3-2]}
"""


def test_the_issue_by_mail_is_refused_before_any_die(tmp_path):
    folder = started(tmp_path)
    p = orders(folder, tmp_path, "axis", REPRO, "axis")
    lines = p.read_text().splitlines()
    r = run("validate", folder, p)
    assert r.exit_code == ExitCode.ILLEGAL, r.output
    assert "OK" not in r.output
    path = next(n for n, ln in enumerate(lines, 1) if "dresden" in ln)
    blitz = next(n for n, ln in enumerate(lines, 1) if "krakau" in ln)
    assert f"axis.yaml:{path}:" in r.output and "error BW-PATH: ger-i1t-2: dresden is not next to hamburg" in r.output
    assert f"axis.yaml:{blitz}:" in r.output and "no zone 'krakau' on the map (did you mean 'krakow'?)" in r.output
    before = tree(folder)
    r = run("adjudicate", folder, p)
    assert r.exit_code == ExitCode.ILLEGAL, r.output
    assert "REFUSED" in r.output and "nothing written" in r.output
    assert "BW-PATH" in r.output and "'krakau'" in r.output and "intercept" not in r.output
    assert tree(folder) == before                          # nothing archived, no die rolled
    # the same file mended is accepted and stops at the interception
    p.write_text(p.read_text().replace("krakau", "lodz").replace("path: [dresden]", "path: [berlin]"))
    assert run("validate", folder, p).exit_code == 0
    r = run("adjudicate", folder, p)
    assert r.exit_code == ExitCode.PENDING, r.output


def position(turn: int):
    k = kit()
    rs, st = k.setup({"position": POSITION, "at_sea": AT_SEA, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.4.naval", "turn": turn}})
    return k, rs, st


def never_rolled(**_):
    """Dice that fail the test if a die is rolled."""
    class Dice:
        prefix, log = "", []

        def roll(self, label, sides=6):
            raise AssertionError(f"a die was rolled: {label}")
    return Dice()


def both(k, rs, st, phases):
    """(validate's issues, adjudicate's outcome) of one Axis file."""
    sub = k.submission(st, {"player": "axis", "phases": phases})
    return k.validate(rs, st, [sub]), k.adjudicate(rs, st, [sub], never_rolled)


LATER = [{"phase": "axis.7.movement", "moves": [{"counter": "ger-i2-1", "path": ["dresden"]}]},
         {"phase": "axis.8.blitz", "attacks": [{"target": "krakau", "counters": ["ger-c2-1", "ger-i3-2"]}]}]


def codes(issues):
    return {(i.code, i.path[:3]) for i in issues if i.is_error}


def test_after_a_naval_battle():
    k, rs, st = position(1)
    naval = {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}
    issues, out = both(k, rs, st, [naval] + LATER)
    assert {("BW-PATH", ("phases", 1, "moves")), ("BW-ZONE", ("phases", 2, "attacks"))} <= codes(issues), issues
    assert out.stopped == "refused" and out.state is None and not out.rolls
    assert {("BW-PATH", ("phases", 1, "moves")), ("BW-ZONE", ("phases", 2, "attacks"))} <= codes(out.issues)


def test_after_an_air_mission_the_other_side_may_intercept():
    k, rs, st = position(1)
    air = {"phase": "axis.5.air", "air": [{"counter": "ger-a1-9", "to": "nancy"}]}
    issues, out = both(k, rs, st, [air] + LATER)
    assert {("BW-PATH", ("phases", 1, "moves")), ("BW-ZONE", ("phases", 2, "attacks"))} <= codes(issues), issues
    assert out.stopped == "refused" and not out.events


def test_a_blitz_in_mud_after_a_naval_battle():
    k, rs, st = position(2)                     # turn 2: mud (6)
    assert rs.turns[2].weather == "mud"
    naval = {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}
    blitz = {"phase": "axis.8.blitz", "attacks": [{"target": "lodz", "counters": ["ger-c2-1", "ger-i3-2"]}]}
    issues, out = both(k, rs, st, [naval, blitz])
    assert ("BW-NO-BLITZ", ("phases", 1, "attacks")) in codes(issues), issues
    assert out.stopped == "refused" and not out.rolls
    assert [i.code for i in out.issues if i.is_error] == ["BW-NO-BLITZ"]


def test_a_counter_typo_gets_its_did_you_mean_in_every_phase():
    k, rs, st = position(1)
    naval = {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}
    combat = {"phase": "axis.9.combat", "attacks": [{"target": "lodz", "counters": ["ger-c2-l", "ger-i3-2"]}]}
    issues, out = both(k, rs, st, [naval, combat])
    [bad] = [i for i in issues if i.code == "BW-ATTACK-COUNTER"]
    assert "no counter 'ger-c2-l' (did you mean 'ger-c2-1'?)" in bad.message, bad
    assert bad.path == ("phases", 1, "attacks", 0, "counters", 0)
    assert out.stopped == "refused"


def test_what_the_dice_decide_is_still_void_and_says_which_die():
    # a one-zone move after the blitz into a zone a retreat may fill stays the position's: checked
    # before the dice, void after them, and the VOID line names the die rolled last before it
    from pbem.core.report import _core_event
    ev = {"type": "void", "turn": 1, "phase": "axis.8.blitz", "player": "axis", "order": ["phases", 0, "moves", 0],
          "code": "BW-MOVE", "reason": "warsaw holds an enemy", "after": "the die blitzwar/t/x/d6 (4)"}
    [line] = _core_event(ev)
    assert "no longer fits the position after the die blitzwar/t/x/d6 (4)" in line


# ------------------------------------------------------------------------------ sealed cards (10.1)
def test_seal_refuses_a_card_sealed_already_for_another_turn_not_yet_opened(tmp_path):
    # found by playing by mail: the Axis sealed axis-l5 for turns 2 and 3 in its turn-1 file; the
    # second was void when it came (ruling card-void), and nothing had said so before
    folder = tmp_path / "c"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "c1",
            *[a for p in ("axis", "allies", "ussr") for a in ("--player", f"{p}={p.upper()}")])
    assert r.exit_code == 0, r.output
    keep = tmp_path / "secret"
    keep.mkdir()
    r = run("seal", folder, "--player", "axis", "--id", "cards-axis-t02", "--choice", "axis-l5", "-o", keep / "t02.yaml")
    assert r.exit_code == 0, r.output
    r = run("seal", folder, "--player", "axis", "--id", "cards-axis-t03", "--choice", "axis-l5", "-o", keep / "t03.yaml")
    assert r.exit_code == ExitCode.ILLEGAL and "SEAL-CLASH" in r.output, r.output
    assert "axis-l5 is sealed already for turn 2 (cards-axis-t02), not yet opened" in r.output and "t02.yaml" in r.output
    assert not (keep / "t03.yaml").exists()
    # another card is fine; sealing the same id again (the first never sent) is not a clash
    assert run("seal", folder, "--player", "axis", "--id", "cards-axis-t03", "--choice", "axis-l6",
               "-o", keep / "t03.yaml").exit_code == 0
    assert run("seal", folder, "--player", "axis", "--id", "cards-axis-t02", "--choice", "axis-l7",
               "-o", keep / "t02-again.yaml").exit_code == 0


def test_validate_warns_when_a_file_opens_a_card_queued_when_it_was_sealed():
    from pbem.core.sealed import new_opening
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "1.diplomacy", "turn": 3, "patch": {"cards": {"axis": {
                          "deck": "limited", "played": [{"turn": 2, "card": "axis-l1"}],
                          "queue": [{"turn": 3, "card": "sealed", "deck": "limited"}]}}}}})
    op = new_opening(campaign=st["campaign"], player="axis", id="cards-axis-t03", choice="axis-l1")
    st["sealed"] = {"cards-axis-t03": {"player": "axis", "commitment": op["commitment"], "step": 1, "turn": 1}}
    st = k.rehash(st)
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "1.diplomacy"}, {"phase": "2.cards"},
                                                         {"phase": "3.replacements"}],
                            "open": [{"id": "cards-axis-t03", "nonce": op["nonce"], "choice": "axis-l1"}]})
    w = [i for i in k.validate(rs, st, [sub]) if i.code == "BW-OPEN-VOID"]
    assert len(w) == 1 and not w[0].is_error and w[0].path == ("open", 0, "choice"), w
    assert "axis-l1 was queued (the card of turn 2) when it was sealed for turn 3" in w[0].message


def test_a_misspelt_standing_key_hides_no_other_error():
    k, rs, st = position(1)
    doc = {"player": "axis", "standing": {"loses": "auto"},
           "phases": [{"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}] + LATER}
    sub = k.submission(st, doc)
    for issues in (k.validate(rs, st, [sub]), k.adjudicate(rs, st, [sub], never_rolled).issues):
        got = {i.code for i in issues if i.is_error}
        assert {"ORDERS-STANDING", "BW-PATH", "BW-ZONE"} <= got, issues
        assert any("unknown standing order 'loses' (did you mean 'losses'?)" in i.message for i in issues)


def test_an_answer_that_can_never_be_used_is_warned_about_in_a_phase_after_a_die():
    k, rs, st = position(1)
    naval = {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}
    combat = {"phase": "axis.9.combat", "attacks": [{"target": "lodz", "counters": ["ger-c2-1", "ger-i3-2"],
                                                     "advance": ["ger-i2-1"]}]}
    issues = k.validate(rs, st, [k.submission(st, {"player": "axis", "phases": [naval, combat]})])
    assert not [i for i in issues if i.is_error], issues
    w = [i for i in issues if i.code == "BW-ANSWER-UNUSED"]
    assert len(w) == 1 and not w[0].is_error and w[0].path == ("phases", 1, "attacks", 0, "advance"), issues


def test_a_key_in_the_wrong_phase_hides_no_mistake_of_another_phase():
    k, rs, st = position(1)
    doc = {"player": "axis", "phases": [{"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"],
                                         "attacks": [{"target": "lodz", "counters": ["ger-c2-1"]}]}] + LATER}
    sub = k.submission(st, doc)
    for issues in (k.validate(rs, st, [sub]), k.adjudicate(rs, st, [sub], never_rolled).issues):
        assert {"BW-PHASE-KEY", "BW-PATH", "BW-ZONE"} <= {i.code for i in issues if i.is_error}, issues


def test_a_rule_module_declares_its_own_static_check(monkeypatch):
    # the plumbing a rule module uses (e.g. "a beachhead on a coast without beaches", air.py):
    # named in the phase table, run for every phase of its kind of every file on arrival
    import pbem.blitzwar.air as air
    from pbem.blitzwar import phasetable
    from pbem.core.errors import Issue

    def no_nancy(chk):
        return [Issue("BW-TEST-NANCY", "no missions to nancy", path=chk.path + ("air", j, "to"))
                for j, o in enumerate(chk.entry.get("air") or []) if o.get("to") == "nancy"]
    monkeypatch.setattr(air, "no_nancy", no_nancy, raising=False)
    monkeypatch.setitem(phasetable.STATIC, "air", phasetable.STATIC["air"] + [phasetable.rule("air", "no_nancy")])
    k, rs, st = position(1)
    naval = {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]}
    issues, out = both(k, rs, st, [naval, {"phase": "axis.5.air", "air": [{"counter": "ger-a1-9", "to": "nancy"}]}])
    assert [(i.code, i.path) for i in issues if i.is_error] == [("BW-TEST-NANCY", ("phases", 1, "air", 0, "to"))]
    assert out.stopped == "refused" and not out.rolls


def test_a_card_written_wrong_is_refused_up_front():
    # the cards phase comes after the diplomacy phase's dice (9.3) in one file
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "1.diplomacy", "turn": 3}})
    sub = k.submission(st, {"player": "axis", "phases": [
        {"phase": "1.diplomacy"}, {"phase": "2.cards", "cards": {"axis": ["axis-l11x"]}}, {"phase": "3.replacements"}]})
    got = {(i.code, i.path) for i in k.validate(rs, st, [sub]) if i.is_error}
    assert ("BW-CARD-NOT-FREE", ("phases", 1, "cards", "axis", 0)) in got, got
    out = k.adjudicate(rs, st, [sub], never_rolled)
    assert out.stopped == "refused" and not out.rolls
    assert any("axis-l11x is not a card of the axis side (10.1) (did you mean" in i.message for i in out.issues), out.issues
