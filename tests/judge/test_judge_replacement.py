"""A vacant role taken over by a replacement player with a new key (issue 34): `pbem player
replace CAMPAIGN ROLE --email ... --key PUBLIC`. campaign.yaml takes it at once, the next step
archives the manifest as changed (steps/NNN/campaign.json) and replay checks every file against
the key in force at its step. The judge takes the new address's mail as that player's; the old
player's key and address are refused from then on."""
from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner
from judgekit import SOVIET_TURN, T0, Game, body, mail

from pbem.cli import main
from pbem.core.signing import new_key_pair, sign


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _turn_of(game: Game, player: str) -> bytes:
    group = game.state()["phase"].split(".")[0]
    return game.orders(player, "phases:\n" + "".join(f"  - phase: {group}.{s}\n" for s in ("replacement", "movement")))   # no combat on turn 1 (BFG-T1-ATTACKS)


def test_a_replacement_mid_campaign(tmp_path):
    keys = {p: new_key_pair() for p in ("soviet", "western")}      # (private, public)
    zoe = new_key_pair()
    game = Game(tmp_path, keys={p: k[1] for p, k in keys.items()})
    judge = game.judge()
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=sign(game.orders("soviet", SOVIET_TURN), "soviet", keys["soviet"][0])))
    judge.run_once(T0)
    assert game.state()["step"] == 1, game.log()
    # Anna leaves; Zoe takes the soviet role over (its west-german player-turn is next) with a key of her own
    r = run("player", "replace", game.folder, "soviet", "--email", "zoe@example.org", "--key", zoe[1])
    assert r.exit_code == 0 and "the soviet player is replaced" in r.output, r.output
    assert run("replay", game.folder).exit_code == 0        # pending: a note, not a contradiction
    orders = _turn_of(game, "soviet")
    # Anna (the old key) from her address, and from Zoe's: both refused, nothing archived
    game.deliver(mail("Anna <anna@example.org>", "my turn", yaml=sign(orders, "soviet", keys["soviet"][0])))
    game.deliver(mail("Zoe <zoe@example.org>", "my turn", yaml=sign(orders, "soviet", keys["soviet"][0])))
    judge.run_once(T0 + timedelta(minutes=1))
    refused = [body(m) for n, m in game.sent().items() if "-refused-" in n]
    assert len(refused) == 2, refused
    assert "MAIL-FROM" in game.log() and "SIG-BAD" in game.log(), game.log()
    assert game.state()["step"] == 1
    # Zoe, signed with her key, from her address: archived; the step keeps the changed manifest
    game.deliver(mail("Zoe <zoe@example.org>", "my turn", yaml=sign(orders, "soviet", zoe[0])))
    judge.run_once(T0 + timedelta(minutes=2))
    assert game.state()["step"] == 2, game.log()
    copy = json.loads((game.folder / "steps" / "002" / "campaign.json").read_text())
    assert copy["players"]["soviet"] == {"name": "Anna", "email": "zoe@example.org", "key": zoe[1], "replaces": keys["soviet"][1]}
    assert not (game.folder / "steps" / "001" / "campaign.json").exists()
    assert any("zoe@example.org" in str(m["To"]) for n, m in game.sent().items() if "step-002" in n)
    r = run("replay", game.folder)
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output
    assert "step 002: the soviet player replaced" in r.output
    # the old key is refused from then on, by validate too; the new one taken
    anna = tmp_path / "anna.yaml"
    anna.write_bytes(sign(_turn_of(game, "soviet"), "soviet", keys["soviet"][0]))
    r = run("validate", game.folder, anna)
    assert r.exit_code != 0 and "SIG-BAD" in r.output, r.output


def test_replay_refuses_a_key_changed_without_naming_the_one_it_replaces(tmp_path):
    """The attack: the old player (or anyone editing the archive) puts his key back in the
    archived copy, or a key in it without the `replaces` a replacement records."""
    keys = {p: new_key_pair() for p in ("soviet", "western")}
    zoe = new_key_pair()
    game = Game(tmp_path, keys={p: k[1] for p, k in keys.items()})
    judge = game.judge()
    assert run("player", "replace", game.folder, "soviet", "--email", "zoe@example.org", "--key", zoe[1]).exit_code == 0
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=sign(game.orders("soviet", SOVIET_TURN), "soviet", keys["soviet"][0])))
    judge.run_once(T0)
    assert game.state()["step"] == 0 and "MAIL-FROM" in game.log()
    game.deliver(mail("Zoe <zoe@example.org>", "turn 1", yaml=sign(game.orders("soviet", SOVIET_TURN), "soviet", zoe[0])))
    judge.run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 1, game.log()
    assert run("replay", game.folder).exit_code == 0
    # a swap in campaign.yaml without `replaces` (the old player's key back) stays refused
    y = (game.folder / "campaign.yaml").read_text()
    (game.folder / "campaign.yaml").write_text(y.replace(zoe[1], keys["soviet"][1]))
    r = run("replay", game.folder)
    assert r.exit_code != 0 and "REPLAY-MANIFEST" in r.output, r.output
    (game.folder / "campaign.yaml").write_text(y)
    # the archived copy edited: the key no longer names the one it replaces
    p = game.folder / "steps" / "001" / "campaign.json"
    doc = json.loads(p.read_text())
    del doc["players"]["soviet"]["replaces"]
    p.write_text(json.dumps(doc))
    r = run("replay", game.folder)
    assert r.exit_code != 0 and "without naming the key it replaces" in r.output, r.output


def test_replace_refuses_an_unknown_role_and_a_bad_key(tmp_path):
    game = Game(tmp_path)
    r = run("player", "replace", game.folder, "german", "--key", "xyz")
    assert r.exit_code == 64 and "USAGE-PLAYER" in r.output and "USAGE-KEY" in r.output, r.output
