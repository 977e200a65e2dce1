"""A game ended by agreement (issue 34): a concession (the other players win) or a draw every
player agrees to, each in a signed end file (schema pbem/end/v1, the envelope of an order
file); `pbem end` and the judge archive the step with `state.result`, replay makes it again."""
from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner
from judgekit import T0, Game, body, mail

from pbem.cli import main
from pbem.core.signing import new_key_pair, sign


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def end_file(game: Game, player: str, line: str) -> bytes:
    st = game.state()
    return (f"schema: pbem/end/v1\ngame: bfg\ncampaign: c1\nplayer: {player}\nturn: {st['turn']}\n"
            f"state: {st['hash']}\n{line}\n").encode()


def test_a_concession_by_the_command(tmp_path):
    game = Game(tmp_path)
    f = tmp_path / "concede.yaml"
    f.write_bytes(end_file(game, "western", "concede: true\ncomment: 'well played'"))
    r = run("end", game.folder, f)
    assert r.exit_code == 0 and "ended by agreement" in r.output, r.output
    st = game.state()
    assert st["step"] == 1 and st["phase"] == "end" and st["result"] == {"winner": "soviet", "draw": False, "reason": "western conceded"}
    assert "soviet wins" in (game.folder / "steps" / "001" / "report.txt").read_text()
    # the final state draws (Battle for Germany's map title named no phase 'end': every book and
    # step mail of a finished game lost its picture)
    from pbem.bfg.draw import draw_map  # (the judge's tests draw no pictures: conftest.py)
    from pbem.core.data import load_ruleset
    rs = load_ruleset(st["scenario"])[1]
    assert "game over" in draw_map(rs, st, json.loads((game.folder / "steps" / "001" / "report.json").read_text()))
    r = run("replay", game.folder)
    assert r.exit_code == 0 and "REPLAY OK: 1 step(s)" in r.output and "western conceded" in r.output, r.output
    # the archived end file changed: replay refuses
    ef = next((game.folder / "steps" / "001").glob("orders-end-*.yaml"))
    ef.write_bytes(ef.read_bytes().replace(b"well played", b"well playd"))
    assert run("replay", game.folder).exit_code != 0
    # the game is over: no second end
    f.write_bytes(end_file(game, "soviet", "concede: true"))
    assert "END-OVER" in run("end", game.folder, f).output


def test_a_file_with_both_or_neither_is_refused_by_its_schema(tmp_path):
    game = Game(tmp_path)
    f = tmp_path / "e.yaml"
    f.write_bytes(end_file(game, "western", "concede: true\ndraw: agreed"))
    r = run("end", game.folder, f)
    assert r.exit_code == 2 and not (game.folder / "steps" / "001").exists(), r.output
    f.write_bytes(end_file(game, "western", "comment: bored"))
    assert run("end", game.folder, f).exit_code == 2


def test_a_draw_by_mail_through_the_judge_signed(tmp_path):
    """Each player mails his signed part of the draw; the judge keeps the first and archives the
    step when the last is in. A forged part (the soviet player signing as western) is refused."""
    keys = {p: new_key_pair() for p in ("soviet", "western")}
    game = Game(tmp_path, keys={p: k[1] for p, k in keys.items()})
    judge = game.judge()
    game.deliver(mail("Anna <anna@example.org>", "a draw?", yaml=sign(end_file(game, "soviet", "draw: proposed"), "soviet", keys["soviet"][0])))
    judge.run_once(T0)
    assert game.state()["step"] == 0, game.log()
    assert any("still awaited" in body(m) and "western" in body(m) for n, m in game.sent().items()), game.log()
    game.deliver(mail("Ben <ben@example.org>", "forged", yaml=sign(end_file(game, "western", "draw: agreed"), "western", keys["soviet"][0])))
    judge.run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 0 and "SIG-" in game.log(), game.log()
    game.deliver(mail("Ben <ben@example.org>", "agreed", yaml=sign(end_file(game, "western", "draw: agreed"), "western", keys["western"][0])))
    judge.run_once(T0 + timedelta(minutes=2))
    st = game.state()
    assert st["step"] == 1 and st["result"]["draw"] is True, game.log()
    assert any("step-001" in n for n in game.sent()), list(game.sent())
    rep = json.loads((game.folder / "steps" / "001" / "report.json").read_text())
    assert rep["stopped"] == "game-over" and [o["player"] for o in rep["orders"]] == ["soviet", "western"]
    r = run("replay", game.folder)
    assert r.exit_code == 0 and "a draw agreed by soviet, western" in r.output, r.output


def test_a_draw_is_agreed_on_one_state(tmp_path):
    """A part of a draw is for the state it names: once another step is archived, the parts
    kept for the older state no longer count (and a part against the older state is stale)."""
    from judgekit import SOVIET_TURN
    game = Game(tmp_path)
    judge = game.judge()
    old = end_file(game, "western", "draw: proposed")
    game.deliver(mail("Ben <ben@example.org>", "a draw?", yaml=old))
    judge.run_once(T0)
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    judge.run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 1, game.log()
    game.deliver(mail("Anna <anna@example.org>", "agreed", yaml=end_file(game, "soviet", "draw: agreed")))
    judge.run_once(T0 + timedelta(minutes=2))
    assert game.state()["step"] == 1 and not game.state().get("result"), game.log()
    game.deliver(mail("Ben <ben@example.org>", "again", yaml=old.replace(b"proposed", b"agreed")))
    judge.run_once(T0 + timedelta(minutes=3))
    assert "END-STALE" in game.log() and game.state()["step"] == 1
    game.deliver(mail("Ben <ben@example.org>", "agreed", yaml=end_file(game, "western", "draw: agreed")))
    judge.run_once(T0 + timedelta(minutes=4))
    st = game.state()
    assert st["step"] == 2 and st["result"]["draw"] is True, game.log()
    assert run("replay", game.folder).exit_code == 0
