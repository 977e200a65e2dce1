"""Every Battle for Germany scenario (DG2 12.0-17.0) can be started, its orders validated,
played for two full game turns through the campaign archive (pbem.core.actions, as the CLI
does) and replayed byte for byte. The orders are scripted and legal: the awaited player's
phases, with one attack in each combat phase where an enemy hex is next to his units (two for
the West Germans on turn 1, 12.2.1), and a few one-hex moves."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.bfg import GAME
from pbem.core.actions import new_campaign, validate_files
from pbem.core.campaign import Campaign
from pbem.core.data import load_ruleset
from pbem.core.errors import PbemError
from pbem.core.games import scenarios
from pbem.core.replay import replay_campaign
from pbem.core.step import adjudicate_campaign
from pbem.core.yamlio import dump_yaml

SCENARIOS = GAME.scenarios()

AUTO = {"retreat": "auto", "advance": "none", "ex_losses": "auto", "replacement_ties": "auto", "courland_port": "auto"}
KEY = "5e" * 32


def _board(rs, st):
    from pbem.bfg.board import Board
    from pbem.bfg.context import Ctx
    board = Board(rs, st)
    return board, Ctx(rs=rs, board=board, turn=st["turn"], phase=st["phase"], player="", validating=True)


def _attacks(rs, st, group: str, limit: int) -> list[dict]:
    """Up to ``limit`` attacks, each on an enemy hex with every own unit next to it."""
    from pbem.bfg.combat import targets_of
    board, ctx = _board(rs, st)
    allowed = targets_of(ctx, group)
    forces = rs.play.group(group).forces
    used: set[str] = set()
    out: list[dict] = []
    for uid in board.on_map_units():
        if board.force(uid) not in forces or uid in used or len(out) >= limit:
            continue
        for n in rs.neighbours(board.at(uid)):
            us = board.units_in(n)
            if not us or any(board.force(x) not in allowed for x in us) or any(a["target"] == n for a in out):
                continue
            if not rs.play.rule("polish_attack_each_other") and any(rs.units[x].nation.startswith("polish") for x in us):
                continue
            att = [a for a in board.on_map_units() if board.force(a) in forces and a not in used
                   and rs.grid.adjacent(board.at(a), n) and not rs.hexside_prohibited(board.at(a), n)
                   and not (not rs.play.rule("polish_attack_each_other") and rs.units[a].nation.startswith("polish"))]
            if not att:
                continue
            used.update(att)
            out.append({"target": n, "units": att})
            break
    return out


def _moves(rs, st, group: str, limit: int = 2) -> list[dict]:
    """A few one-hex moves, each checked on its own with the engine's movement rules."""
    from pbem.bfg.movement import find_path
    board, ctx = _board(rs, st)
    out = []
    for uid in board.on_map_units():
        u = board.units[uid]
        if board.force(uid) not in rs.play.group(group).forces or u.get("garrison") or len(out) >= limit:
            continue
        if board.in_enemy_zoc(board.at(uid), board.camp(uid)):
            continue
        for n in rs.neighbours(board.at(uid)):
            if board.units_in(n) or board.in_enemy_zoc(n, board.camp(uid)):
                continue
            if find_path(board, uid, n, rs.units[uid].move) == [n]:
                out.append({"unit": uid, "path": [n]})
                break
    return out


def _orders(rs, st) -> dict:
    from pbem.bfg.orders import player_phases
    from pbem.bfg.sequence import split, turn_phases
    phases = []
    moved = False
    for ph in player_phases(st, turn_phases(rs, st)):
        group, step = split(ph)
        entry: dict = {"phase": ph}
        if step == "movement" and not moved and st["phase"] in (ph, ph.replace("movement", "replacement")):
            entry["moves"] = _moves(rs, st, group)
            moved = True
        if step == "combat":
            need = 2 if (group == "west-german" and st["turn"] == 1 and st["scenario_rules"]["t1_west_german_attacks"]) else 1
            entry["attacks"] = _attacks(rs, _after_moves(rs, st, phases), group, need)
        phases.append(entry)
        if step == "combat":
            break  # what follows depends on the dice: the next file
    return {"schema": "pbem/orders/v1", "game": "bfg", "campaign": st["campaign"], "player": st["awaiting"]["player"],
            "turn": st["turn"], "state": st["hash"], "phases": phases}


def _after_moves(rs, st, phases: list[dict]) -> dict:
    import copy
    s2 = copy.deepcopy(st)
    for e in phases:
        for m in e.get("moves", []):
            s2["units"][m["unit"]]["at"] = m["path"][-1]
    return s2


def _players(scenario: str) -> dict:
    return {p: {"name": p.title(), "email": f"{p}@example.org"} for p in load_ruleset(scenario)[1].play.players}


def play_two_turns(folder: Path, scenario: str, options: dict | None = None) -> list[dict]:
    new_campaign(folder, scenario=scenario, campaign_id="t2", players=_players(scenario), options=options or {},
                 standing=AUTO, key_hex=KEY)
    g, rs = load_ruleset(scenario)
    reports = []
    for n in range(1, 40):
        path, st = Campaign(folder).current()
        if st["phase"] == "end" or st["turn"] >= rs.first_turn + 2:
            break
        of = folder.parent / f"{folder.name}-orders-{n:02d}.yaml"
        of.write_text(dump_yaml(_orders(rs, st)), encoding="utf-8")
        issues = validate_files(path, [of])
        assert not [i for i in issues if i.is_error], "\n".join(i.format() for i in issues)
        res = adjudicate_campaign(folder, [of])
        assert res.state is not None, res.text
        assert res.report["stopped"] in ("complete", "game-over"), res.text
        reports.append(res.report)
    _, st = Campaign(folder).current()
    assert st["turn"] == rs.first_turn + 2 and st["phase"] == turn_first_phase(rs, st)
    return reports


def turn_first_phase(rs, st) -> str:
    from pbem.bfg.sequence import turn_phases
    return turn_phases(rs, st)[0][0]


def test_registry_lists_six_scenarios():
    """The scenarios are discovered from scenarios/bfg/ (one list, no copy to keep in step);
    each one-line description names its players."""
    bfg = {sid: info for sid, (gid, info) in scenarios().items() if gid == "bfg"}
    assert sorted(SCENARIOS) == sorted(bfg) == sorted(
        ["bfg-historical", "bfg-expanded", "bfg-collapse", "bfg-redstar", "bfg-three-player", "bfg-four-player"])
    for sid in SCENARIOS:
        g, rs = load_ruleset(sid)
        for p in rs.play.players:
            assert p in bfg[sid]["line"]


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_scenario_plays_two_turns_and_replays(tmp_path, scenario):
    options = {"ss_to_western": True} if scenario == "bfg-expanded" else None
    reports = play_two_turns(tmp_path / scenario, scenario, options)
    assert reports
    res = replay_campaign(tmp_path / scenario)
    assert not [i for i in res.issues if i.is_error], "\n".join(i.format() for i in res.issues)
    assert res.steps == len(reports)
    if scenario != "bfg-redstar":
        assert any(e["type"] == "combat" for r in reports for e in r["events"]), "no attack was made"


def test_historical_data_unchanged():
    """The Historical scenario's data and its defaults: the digest recorded in the example."""
    _, rs = load_ruleset("bfg-historical")
    example = Path(__file__).resolve().parents[2] / "examples" / "bfg-historical"
    _, st = Campaign(example).current()
    assert st["ruleset"]["digest"] == rs.digest
    assert not rs.play.from_data


def test_options_belong_to_their_scenario(tmp_path):
    with pytest.raises(PbemError) as e:
        new_campaign(tmp_path / "h", scenario="bfg-historical", campaign_id="h", players=_players("bfg-historical"),
                     options={"ss_to_western": True})
    assert e.value.issues[0].code == "USAGE-OPTION"
    camp = new_campaign(tmp_path / "x", scenario="bfg-expanded", campaign_id="x", players=_players("bfg-expanded"),
                        options={"ss_to_western": True})
    _, st = camp.current()
    assert st["options"] == {"german_east_front": False, "ss_to_western": True}


def test_setups_reuse_the_historical_one():
    _, hist = load_ruleset("bfg-historical")
    for sid in ("bfg-expanded", "bfg-three-player", "bfg-four-player"):
        _, rs = load_ruleset(sid)
        assert rs.units == hist.units
    _, col = load_ruleset("bfg-collapse")
    assert set(col.units) == {u for u, d in hist.units.items() if d.force in ("soviet", "east-german")}
    assert col.replacements(3, "western-allied") == 0 and col.replacements(3, "west-german") == 0
    assert col.replacements(3, "soviet") == hist.replacements(3, "soviet")


def test_collapse_starts_with_every_city_german(tmp_path):
    camp = new_campaign(tmp_path / "c", scenario="bfg-collapse", campaign_id="c", players=_players("bfg-collapse"), options={})
    _, st = camp.current()
    assert set(st["control"].values()) == {"german"}
    assert st["phase"] == "soviet.replacement" and st["turn"] == 1


def test_redstar_setup_at_the_published_scale(tmp_path):
    """A.6: 28 Communist units (3 Yugoslav, one Front garrisoning Warsaw) against 22 Allied;
    without those four the Communists total 156/223, the Allies 112/148."""
    _, rs = load_ruleset("bfg-redstar")
    com = [d for d in rs.units.values() if d.force == "soviet"]
    wa = [d for d in rs.units.values() if d.force == "western-allied"]
    assert (len(com), len(wa)) == (28, 22)
    yugo = [d for d in com if d.nation == "yugoslav"]
    gar = [d for d in com if d.garrison]
    assert len(yugo) == 3 and len(gar) == 1 and rs.cities[gar[0].hex].name == "Warsaw" and gar[0].is_front
    rest = [d for d in com if d not in yugo and d not in gar]
    assert (sum(d.attack for d in rest), sum(d.defense for d in rest)) == (156, 223)
    assert (sum(d.attack for d in wa), sum(d.defense for d in wa)) == (112, 148)
    assert any(d.nation == "polish-exile" for d in wa) and any(d.nation == "polish-communist" for d in com)
    # issue 32: the Western Allies keep 7.2 Example 2's 2 a turn (rulings western_allied_replacements)
    assert rs.replacements(12, "soviet") == 0 and rs.replacements(12, "western-allied") == 2
    camp = new_campaign(tmp_path / "r", scenario="bfg-redstar", campaign_id="r", players=_players("bfg-redstar"), options={})
    _, st = camp.current()
    assert st["turn"] == 11 and st["units"][gar[0].id]["garrison"] == gar[0].hex
    assert "pregame" not in st


def test_redstar_pregame_die_is_reported_and_verifiable(tmp_path):
    from pbem.core.actions import find_roll, verify
    folder = tmp_path / "r"
    reports = play_two_turns(folder, "bfg-redstar")
    first = reports[0]
    pre = [e for e in first["events"] if e["type"] == "pregame"]
    assert len(pre) == 1 and pre[0]["roll"]["label"] == "bfg/t2/pregame/d6"
    assert [r["label"] for r in first["rolls"]][0] == "bfg/t2/pregame/d6"
    logged, inputs = find_roll(folder, "bfg/t2/pregame/d6")
    r = verify(KEY, game="bfg", campaign="t2", step=inputs["step"], orders=inputs["orders"], state=inputs["state"],
               label="bfg/t2/pregame/d6")
    assert r["value"] == logged["value"] == pre[0]["roll"]["value"]
    lost = pre[0]["lost"]
    assert lost == (pre[0]["roll"]["value"] <= 3)
    if lost:
        assert first["output"]["state"].endswith("t11-western-allied.replacement.yaml")


@pytest.mark.parametrize("name", ["bfg-historical", "bfg-three-player", "bfg-four-player"])
def test_examples_use_the_current_data(name):
    """An example made with other data would replay with a DATA-CHANGED warning: after a data
    change, rebuild it (see its README)."""
    folder = Path(__file__).resolve().parents[2] / "examples" / name
    res = replay_campaign(folder)
    assert not res.issues, "\n".join(i.format() for i in res.issues)
