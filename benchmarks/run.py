"""pbem benchmarks: prints figures and ratios measured in one run on this machine.

    .venv/bin/python benchmarks/run.py

1. Engine: adjudicating one Battle for Germany player-turn with many combats (every Soviet
   unit next to an East German hex attacks), against loading and dumping the same state file.
   Target: engine time at most 1x the load+dump time.
2. Replay: the longest example campaign (target for 10 turns of Battle for Germany: < 1 s).
3. Start-up: `pbem --help` against `python -c pass` (target: < 200 ms).
Speed is measured here, never asserted in the tests.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def best(fn, n=5):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def engine_bench() -> None:
    from pbem.bfg.board import Board
    from pbem.bfg.engine import Submission, adjudicate
    from pbem.core.actions import dice_factory, new_campaign
    from pbem.core.campaign import load_state_file, render_state
    from pbem.core.canon import digest
    from pbem.core.data import load_ruleset

    with tempfile.TemporaryDirectory() as tmp:
        camp = new_campaign(Path(tmp) / "b", scenario="bfg-historical", campaign_id="bench",
                            players={"soviet": {"name": "A"}, "western": {"name": "B"}}, options={},
                            standing={"retreat": "auto", "advance": "none", "ex_losses": "auto"}, key_hex="7" * 64)
        path, state = camp.current()
        g, rs = load_ruleset("bfg-historical")
        board = Board(rs, state)
        used, attacks = set(), []
        for uid in board.on_map_units():
            if board.force(uid) != "soviet" or uid in used:
                continue
            for n in rs.neighbours(board.at(uid)):
                us = board.units_in(n)
                if us and all(board.force(x) == "east-german" for x in us) and n not in {a["target"] for a in attacks}:
                    att = [a for a in board.on_map_units() if board.force(a) == "soviet" and a not in used
                           and rs.grid.adjacent(board.at(a), n)]
                    used.update(att)
                    attacks.append({"target": n, "units": att})
                    break
        doc = {"schema": "pbem/orders/v1", "game": "bfg", "campaign": "bench", "player": "soviet", "turn": 1,
               "state": state["hash"], "phases": [{"phase": "soviet.combat", "attacks": attacks}]}
        subs = [Submission(player="soviet", doc=doc, digest=digest(doc))]
        factory = dice_factory("7" * 64, "bfg", "bench")
        out = adjudicate(rs, state, subs, factory)
        assert out.state is not None, out.issues
        n_combats = sum(1 for e in out.events if e["type"] == "combat")
        eng, eng_med = best(lambda: adjudicate(rs, state, subs, factory))
        raw = path.read_bytes()

        def load_dump():
            st, _ = load_state_file(path)
            render_state(st)
        ld, ld_med = best(load_dump)
        print(f"engine: one player-turn phase with {n_combats} combats: {eng * 1000:.1f} ms (median {eng_med * 1000:.1f})")
        print(f"state file ({len(raw) // 1024} KB) load + dump: {ld * 1000:.1f} ms (median {ld_med * 1000:.1f})")
        print(f"  ratio engine / (load+dump) = {eng / ld:.2f}   (target <= 1.0)")


def replay_bench() -> None:
    from pbem.core.actions import replay_campaign
    camps = sorted((ROOT / "examples").glob("*/campaign.yaml"))
    if not camps:
        print("replay: no example campaign")
        return
    longest = max(camps, key=lambda p: len(list((p.parent / "steps").iterdir())))
    res = replay_campaign(longest.parent)  # warm up (imports, caches)
    t, med = best(lambda: replay_campaign(longest.parent), n=3)
    ok = not any(i.is_error for i in res.issues)
    print(f"replay of {longest.parent.name}: {res.steps} steps, {res.rolls} rolls: {t:.3f} s (median {med:.3f}) {'OK' if ok else 'FAILED'}")


def startup_bench() -> None:
    exe = Path(sys.executable).parent / "pbem"
    cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "pbem", "--help"]
    t_help, _ = best(lambda: subprocess.run(cmd, capture_output=True, check=True), n=7)
    t_pass, _ = best(lambda: subprocess.run([sys.executable, "-c", "pass"], capture_output=True, check=True), n=7)
    print(f"start-up: pbem --help {t_help * 1000:.0f} ms, python -c pass {t_pass * 1000:.0f} ms, ratio {t_help / t_pass:.1f}   (target < 200 ms)")


if __name__ == "__main__":
    engine_bench()
    replay_bench()
    startup_bench()
