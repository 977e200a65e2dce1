"""One judge, several campaigns (issue 34): each mail goes to the campaign its file names; a
status mail covers every campaign its sender plays in (all of them for the game master); a
campaign without a missing-orders default is not defaulted at the end of the grace period:
the game master is told, once."""
from __future__ import annotations

from datetime import timedelta

from judgekit import KEY, PLAYERS, SOVIET_TURN, T0, Game, body, mail

from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.judge.config import load_config


def two(tmp_path) -> tuple[Game, Campaign]:
    game = Game(tmp_path)
    players = dict(PLAYERS, western={"name": "Carl", "email": "carl@example.org"})
    new_campaign(tmp_path / "games" / "c2", scenario="bfg-historical", campaign_id="c2", players=players, options={},
                 key_hex=KEY, standing={"retreat": "auto", "advance": "none", "ex_losses": "auto"})
    game.config.write_text(game.config.read_text() + "  - folder: games/c2\n    deadlines: {orders: 1d, grace: 12h}\n")
    game.cfg = load_config(game.config)
    return game, Campaign(tmp_path / "games" / "c2")


def test_two_campaigns(tmp_path):
    game, c2 = two(tmp_path)
    judge = game.judge()
    judge.run_once(T0)
    st2 = c2.current()[1]
    orders_c2 = (f"schema: pbem/orders/v1\ngame: bfg\ncampaign: c2\nplayer: soviet\nturn: 1\nstate: {st2['hash']}\n"
                 + SOVIET_TURN).encode()
    game.deliver(mail("Anna <anna@example.org>", "c2 orders", yaml=orders_c2))
    judge.run_once(T0 + timedelta(minutes=1))
    assert c2.current()[1]["step"] == 1 and game.state()["step"] == 0
    assert {"c2-step-001-to-soviet.eml", "c2-step-001-to-western.eml"} <= set(game.sent())
    assert str(game.sent()["c2-step-001-to-western.eml"]["To"]) == "Carl <carl@example.org>"
    # Anna plays in both, Carl in c2 only, the game master sees all
    for who in ("anna@example.org", "carl@example.org", "gm@example.net"):
        game.deliver(mail(who, "status"))
    judge.run_once(T0 + timedelta(minutes=2))
    status = {str(m["To"]): body(m) for n, m in game.sent().items() if "-status-" in n}
    assert "Campaign c1" in status["anna@example.org"] and "Campaign c2" in status["anna@example.org"]
    assert "Campaign c1" not in status["carl@example.org"] and "Campaign c2" in status["carl@example.org"]
    assert "Campaign c1" in status["gm@example.net"] and "Campaign c2" in status["gm@example.net"]
    # c2's deadline (1d after step 001) and grace (12h): no default declared -> the game master is told, once
    judge.run_once(T0 + timedelta(days=1, hours=13))
    judge.run_once(T0 + timedelta(days=1, hours=14))
    assert c2.current()[1]["step"] == 1
    stalled = [m for n, m in game.sent().items() if n == "c2-stalled-001.eml"]
    assert len(stalled) == 1 and str(stalled[0]["To"]) == "gm@example.net"
    assert "declares no missing-orders default for soviet" in body(stalled[0])
    rem = game.sent()["c2-remind-001-soviet.eml"]
    assert "the game master decides" in body(rem)
    assert game.log().count("grace period over, still awaited from soviet") == 1
    # c1 keeps its own clock: 2 days from the judge's first round, not yet over
    assert game.state()["step"] == 0 and "c1-remind-000-soviet.eml" not in game.sent()
