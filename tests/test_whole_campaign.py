"""Issue 21, "The whole campaign": the scripted player (benchmarks/blitzwar_player.py) plays the
first ten turns of a two-player and of a three-player 1939 BlitzWAR campaign through the real
command line and archive: every file made from `pbem orders template`, checked by `pbem validate`
and sent to `pbem adjudicate`, every pending decision answered by an answer file, now and then
a player's missing orders left to the default (`adjudicate --missing-orders`). No error (a
file validate passes and adjudicate refuses stops the player), real attacks and air missions,
every side's phases played each turn, and `pbem replay` byte for byte. The whole 47 turns are
played by `benchmarks/run.py campaign` (about two minutes each on two busy cores: too long for
the suite)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("blitzwar_player", ROOT / "benchmarks" / "blitzwar_player.py")
player = importlib.util.module_from_spec(_spec)
sys.modules["blitzwar_player"] = player
_spec.loader.exec_module(player)

TURNS = 10


@pytest.mark.parametrize("players", [2, 3])
def test_ten_turns_by_the_scripted_player_replay_byte_for_byte(tmp_path, players):
    folder = tmp_path / f"c{players}"
    log: list[str] = []
    stats, end = player.play_campaign(folder, players=players, turns=TURNS, log=log.append)
    assert end["turn"] == TURNS + 1 and end["phase"] == "1.diplomacy", end
    ev = stats.events
    # real play, not only missing orders: attacks in both combat phases, air missions, fleets
    assert ev.get("combat", 0) >= 10 and ev.get("blitz-attack", 0) >= 1, ev
    assert ev.get("air-mission", 0) >= 3 and ev.get("fleet-move", 0) >= 1, ev
    assert ev.get("strategic-move", 0) >= 1 and ev.get("sealed", 0) >= 1 and ev.get("opened", 0) >= 1, ev
    assert stats.answers >= 1 and stats.bare == 0, (stats.answers, stats.bare, stats.refused)
    assert stats.missing >= 1       # a player's missing orders: the default is always accepted
    # every side's phases were awaited and played each turn: the archive's states name them
    names = [p.name for p in (folder / "steps").glob("*/*.yaml") if not p.name.startswith(("orders-", "answer", "reveal-"))]
    seen: dict[int, set[str]] = {}
    for n in names:
        m = re.match(r"auto\d-\d+-t(\d+)-(\w+)\.", n)
        if m:
            seen.setdefault(int(m.group(1)), set()).add(m.group(2))
    want = {"allies", "axis"} | ({"ussr"} if players == 3 else set())
    for t in range(1, TURNS + 1):
        assert want <= seen.get(t, set()), (t, seen.get(t))
    r = CliRunner().invoke(main, ["replay", str(folder)], catch_exceptions=False)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
