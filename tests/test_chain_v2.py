"""Hash chains, protocol 2 (issue 17, ways through 2, 3 and 5; issue 16 item 15): attacks a
cheating player would try, each of which worked with protocol 1.

* way 2: a link once shown must be spent. Links are asked for only after the orders are
  archived (immutable), each reveal names the archive head, and a player's tool never reveals
  one link for two things;
* way 3: the player who answers a decision must not steer the dice after it: those dice take
  fresh links, revealed after the answer is archived;
* way 5: the missing-orders default is accepted with hash chains;
* 16.15: links are asked for only where a die is rolled.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
# the first order file of examples/bfg-chain-decisions: several attacks, the first asks for an
# advance decision, the later ones roll after it (rewritten for each new campaign)
ORDERS = sorted((ROOT / "examples" / "bfg-chain-decisions" / "steps" / "001").glob("orders-*.yaml"))[0]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def new_campaign(tmp: Path, name="camp", *, keys=False, extra=()) -> Path:
    for p in ("soviet", "western"):
        if not (tmp / f"{p}.chain").exists():
            assert run("chain", "new", "-p", p, "-o", tmp / f"{p}.chain").exit_code == 0
        if keys and not (tmp / f"{p}.key").exists():
            assert run("key", "new", "-p", p, "-o", tmp / f"{p}.key").exit_code == 0
    args = ["new", tmp / name, "--scenario", "bfg-historical", "--id", "nogm-dec", "--player", "soviet=A",
            "--player", "western=B", "--dice", "chain", "--commit", f"soviet={tmp / 'soviet.chain'}",
            "--commit", f"western={tmp / 'western.chain'}", *extra]
    if keys:
        args += ["--player-key", f"soviet={tmp / 'soviet.key'}", "--player-key", f"western={tmp / 'western.key'}"]
    if "--missing-orders-default" in extra and "--witness" not in extra:
        args += ["--witness", f"Wendy={witness_chain(tmp)}"]    # hash chains with missing orders (issue 29)
    r = run(*args)
    assert r.exit_code == 0, r.output
    return tmp / name


def witness_chain(tmp: Path) -> Path:
    """The neutral witness's chain (issue 29), made once in ``tmp``."""
    if not (tmp / "witness.chain").exists():
        assert run("chain", "new", "-p", "witness", "-o", tmp / "witness.chain").exit_code == 0
    return tmp / "witness.chain"


def orders_for(camp: Path, out: Path, text: str | None = None) -> Path:
    from pbem.core.campaign import Campaign
    st = Campaign(camp).current()[1]
    text = text or ORDERS.read_text("utf-8")
    out.write_text(re.sub(r"(?m)^state: .*$", f"state: {st['hash']}", text), "utf-8")
    return out


def reveal_all(tmp: Path, camp: Path, tag: str = "", key=False) -> list[str]:
    """The reveals of every player the state asks a link of."""
    args = []
    for p in asked(camp):
        out = tmp / f"r{tag}-{p}.yaml"
        extra = ["--key", tmp / f"{p}.key"] if key else []
        r = run("chain", "reveal", tmp / f"{p}.chain", camp, "-o", out, "--force", *extra)
        assert r.exit_code == 0, r.output
        args += ["--reveal", out]
    return args


def asked(camp: Path) -> list[str]:
    aw = state_of(camp)["awaiting"]
    return sorted(a["player"] for a in ([aw] if isinstance(aw, dict) else aw) if a["for"] == "links")


def state_of(camp: Path) -> dict:
    from pbem.core.campaign import Campaign
    return Campaign(camp).current()[1]


def report(camp: Path, k: int) -> dict:
    return json.loads((camp / "steps" / f"{k:03d}" / "report.json").read_text())


# ------------------------------------------------------------------ way 2: a link once shown is spent
def test_orders_are_archived_before_any_link_is_shown(tmp_path):
    """Protocol 1: the other player revealed for orders A; the phasing player sent orders B with
    that reveal (refused, DICE-REVEAL-ORDERS), but now knew both links and could grind B for
    the dice he liked, then have the same link revealed for B. Now the orders are archived
    first, with no link asked for; a reveal given with orders is refused."""
    camp = new_campaign(tmp_path)
    a = orders_for(camp, tmp_path / "a.yaml")
    # a reveal cannot even be made before the orders are archived
    r = run("chain", "reveal", tmp_path / "western.chain", camp, "--orders", a, "-o", tmp_path / "early.yaml")
    assert r.exit_code == 4 and "DICE-REVEAL-EARLY" in r.output, r.output     # a file not fitting the state (issue 33)
    r = run("adjudicate", camp, a)
    assert r.exit_code == 6, r.output          # archived; waits for every player's link
    rep = report(camp, 1)
    assert rep["stopped"] == "links" and rep["rolls"] == [] and rep["orders"][0]["sha256"]
    st = state_of(camp)
    assert st["dice"]["request"]["files"][0]["sha256"] == rep["orders"][0]["sha256"]
    assert {a_["for"] for a_ in st["awaiting"]} == {"links"}
    # other orders now: refused, the archived ones are immutable
    b = orders_for(camp, tmp_path / "b.yaml", a.read_text().replace("advance: ask", "advance: none"))
    r = run("adjudicate", camp, b)
    assert r.exit_code == 64 and "DICE-LINKS-AWAITED" in r.output
    assert "DICE-LINKS-AWAITED" in run("validate", camp, b).output
    reveals = reveal_all(tmp_path, camp)
    r = run("adjudicate", camp, b, *reveals)
    assert r.exit_code == 64 and "DICE-LINKS-AWAITED" in r.output
    r = run("adjudicate", camp, *reveals)
    assert r.exit_code in (0, 5), r.output
    assert report(camp, 2)["rolls"] and run("replay", camp).exit_code == 0


def test_a_link_is_never_revealed_for_another_archive(tmp_path):
    """The phasing player rewrites his copy of the archive (step 001 with orders B instead of A)
    and asks the other player to reveal again: the other player's tool refuses (the link is
    spent), and a reveal for A does not fit B's archive (its head)."""
    camp = new_campaign(tmp_path)
    a = orders_for(camp, tmp_path / "a.yaml")
    copy = tmp_path / "forged"
    shutil.copytree(camp, copy)
    assert run("adjudicate", camp, a).exit_code == 6
    honest = reveal_all(tmp_path, camp, "h")
    b = orders_for(copy, tmp_path / "b.yaml", a.read_text().replace("advance: ask", "advance: none"))
    assert run("adjudicate", copy, b).exit_code == 6
    r = run("chain", "reveal", tmp_path / "western.chain", copy, "-o", tmp_path / "again.yaml")
    assert r.exit_code == 4 and "DICE-LINK-SPENT" in r.output, r.output
    r = run("adjudicate", copy, *honest)
    assert r.exit_code == 4 and "DICE-REVEAL-ORDERS" in r.output and "DICE-REVEAL-ARCHIVE" in r.output, r.output
    # the heads tell the two archives apart
    r = run("head", camp, "--check", run("head", copy).output.split()[-1], "--step", "1")
    assert r.exit_code == 4 and "DIFFERS" in r.output


def test_replay_refuses_reveals_made_for_another_archive(tmp_path):
    """A forger who holds the archive replaces step 001 by other orders and re-uses the
    archived reveals (public links) for them: replay refuses them, they name the other
    archive's head and orders."""
    camp = new_campaign(tmp_path)
    a = orders_for(camp, tmp_path / "a.yaml")
    forged = tmp_path / "forged"
    shutil.copytree(camp, forged)
    assert run("adjudicate", camp, a).exit_code == 6
    assert run("adjudicate", camp, *reveal_all(tmp_path, camp)).exit_code in (0, 5)
    assert run("replay", camp).exit_code == 0
    b = orders_for(forged, tmp_path / "b.yaml", a.read_text().replace("advance: ask", "advance: none"))
    assert run("adjudicate", forged, b).exit_code == 6
    shutil.copytree(camp / "steps" / "002", forged / "steps" / "002")
    r = run("replay", forged)
    assert r.exit_code == 4 and "DICE-REVEAL-ARCHIVE" in r.output and "REPLAY OK" not in r.output, r.output


# ------------------------------------------------------------------ way 3: fresh links after a decision
def _answer(t: Path, camp: Path, k: int):
    pend = state_of(camp)["pending"][0]
    f = t / f"ans{k}.yaml"
    assert run("orders", "template", camp, "-p", pend["player"], "-o", f, "--force").exit_code == 0
    first = pend["options"][0]
    choice = "[" + ", ".join(first) + "]" if isinstance(first, list) else f"'{first}'"
    f.write_text(f.read_text().replace("choice: ''", f"choice: {choice}"))
    return run("adjudicate", camp, f)


def _decision_then_links(tmp_path: Path):
    """A campaign stopped at a decision whose answer leads to more dice (tries new chains until
    the dice give one): (folder, campaign, report of the decision step, step of the answer)."""
    for attempt in range(12):
        t = tmp_path / f"try{attempt}"
        t.mkdir()
        camp = new_campaign(t)
        assert run("adjudicate", camp, orders_for(camp, t / "a.yaml")).exit_code == 6
        r = run("adjudicate", camp, *reveal_all(t, camp))
        for k in range(3, 10):
            if r.exit_code != 5:
                break
            rep = report(camp, k - 1)
            r = _answer(t, camp, k)
            if r.exit_code == 6:
                return t, camp, rep, k
    pytest.skip("no decision with dice after it in 12 tries")


def test_the_answering_player_cannot_steer_the_dice_after_the_decision(tmp_path):
    """Protocol 1: the player answering a decision (here an advance) knew every link that keyed
    the rest of the phase, so he could try each answer and pick the one whose later rolls he
    liked. Now the answer is archived first, and the rolls after the decision take links
    revealed after it: the rolls before it repeat, the others use a new key."""
    t, camp, rep, k = _decision_then_links(tmp_path)
    asked_ = report(camp, k)
    assert asked_["stopped"] == "links" and asked_["rolls"] == []   # the answer archived, nothing rolled
    assert state_of(camp)["dice"]["used"] == 1                      # link 2 is still secret
    r = run("adjudicate", camp, *reveal_all(t, camp, "2"))
    assert r.exit_code in (0, 5), r.output
    after = report(camp, k + 1)
    n = len(rep["rolls"])
    assert after["rolls"][:n] == rep["rolls"]                 # the rolls before the decision repeat
    assert len(after["rolls"]) > n                            # and dice were rolled after it
    ph = [e for e in after["events"] if e["type"] == "phase" and e["key_inputs"].get("epochs")]
    assert ph and ph[0]["key_inputs"]["epochs"][-1][1] == n
    # the rolls after the decision are those of the new links' key, not of what the answering
    # player knew (link 1)
    from pbem.core.campaign import Campaign
    from pbem.core.dice import derive_phase_key, roll_value
    from pbem.core.dicesource import chain_keys_from_archive
    keys = chain_keys_from_archive(Campaign(camp), k + 2)
    ki = ph[0]["key_inputs"]
    new = derive_phase_key(keys[ki["orders"]], game="bfg", campaign="nogm-dec", step=ki["step"], orders_digest=ki["orders"], state_hash=ki["state"])
    later = [r_ for r_ in after["rolls"][n:] if r_["label"].startswith(f"bfg/nogm-dec/{ki['step']}/")]
    assert later and all(roll_value(new, r_["label"], r_["sides"]) == r_["value"] for r_ in later)
    assert ki["orders"] not in chain_keys_from_archive(Campaign(camp), k + 1)   # unknown when answering
    for roll in (after["rolls"][0], later[0]):          # dice verify finds each roll's key
        r = run("dice", "verify", camp, roll["label"])
        assert r.exit_code == 0 and "MATCH" in r.output, r.output
    assert run("replay", camp).exit_code == 0


# ------------------------------------------------------------------ way 5: missing orders with chains
def test_missing_orders_are_accepted_with_hash_chains(tmp_path):
    """Protocol 1: Battle for Germany turn 1 with --missing-orders stopped at DICE-NO-KEY (exit 4)
    and reveals were refused as unneeded. Now the default's dice ask for links like orders."""
    camp = new_campaign(tmp_path, extra=["--missing-orders-default", "soviet=no-orders",
                                         "--missing-orders-default", "western=no-orders"])
    rolled = 0
    for k in range(20):
        st = state_of(camp)
        if st["turn"] >= 2:
            break
        if st["dice"].get("request"):
            # the absent player's link is not asked for (it would stall the game): the
            # present player's and the witness's key the default's dice (issue 29)
            absent = report(camp, k)["events"][0].get("missing_orders") or []
            assert absent and not set(absent) & set(asked(camp)) and "witness" in asked(camp)
            r = run("chain", "reveal", tmp_path / f"{absent[0]}.chain", camp, "-o", tmp_path / "no.yaml")
            assert r.exit_code == 64 and "DICE-REVEAL-UNNEEDED" in r.output
            r = run("adjudicate", camp, *reveal_all(tmp_path, camp, str(k)))
        else:
            r = run("adjudicate", camp, "--missing-orders")
        assert r.exit_code in (0, 5, 6), r.output
        rolled += len(report(camp, k + 1)["rolls"])
    assert state_of(camp)["turn"] >= 2 and rolled > 0
    r = run("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK" in r.output


def test_blitzwar_every_player_missing_goes_past_yugoslavia_and_links_only_where_dice_roll(tmp_path):
    """Protocol 1: BlitzWAR with every player missing stopped at turn 14 (Yugoslavia's die).
    16.15: with three players, links were asked for every order file; now only where a die is
    rolled."""
    players = ("allies", "axis", "ussr")
    for p in players:
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    args = ["new", tmp_path / "bw", "--scenario", "blitzwar-1939", "--id", "bw", "--dice", "chain",
            "--witness", f"Wendy={witness_chain(tmp_path)}"]
    for p in players:
        args += ["--player", f"{p}={p.title()}", "--commit", f"{p}={tmp_path / (p + '.chain')}",
                 "--missing-orders-default", f"{p}=no-orders"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    camp = tmp_path / "bw"
    for _ in range(400):
        st = state_of(camp)
        if st["turn"] > 14 or st["phase"] == "end":
            break
        if st["dice"].get("request"):
            rv = []
            for p in asked(camp):
                out = tmp_path / f"r-{p}.yaml"
                assert run("chain", "reveal", tmp_path / f"{p}.chain", camp, "-o", out, "--force").exit_code == 0
                rv += ["--reveal", out]
            r = run("adjudicate", camp, *rv)
        else:
            r = run("adjudicate", camp, "--missing-orders")
        assert r.exit_code in (0, 5, 6), r.output
    assert state_of(camp)["turn"] > 14 or state_of(camp)["phase"] == "end"
    for d in sorted((camp / "steps").iterdir())[1:]:
        rep = json.loads((d / "report.json").read_text())
        if rep["dice"].get("reveals"):
            assert rep["rolls"], f"{d.name}: links were asked for, but nothing was rolled"
        if rep["stopped"] == "links":
            assert not rep["rolls"]


def test_a_player_by_mail_reveals_from_the_mail_that_asks_for_the_link(tmp_path):
    """Tried as a new user (issue 17's "Done when"): a player has the mail, not the archive.
    The mail that asks for links tells each player the reveal command (signed when the player
    has a key) and `pbem chain reveal` takes the mail itself: the state it attaches and the
    archive head it gives. The reveal is the one the campaign folder gives, byte for byte."""
    camp = new_campaign(tmp_path, keys=True)
    orders = orders_for(camp, tmp_path / "o1.yaml")
    assert run("sign", orders, "--key", tmp_path / "soviet.key").exit_code == 0
    r = run("adjudicate", camp, orders, "--mail", tmp_path / "out")
    assert r.exit_code == 6, r.output
    assert "pbem chain reveal western.chain" in r.output and "--key western.key" in r.output
    args = []
    for p in ("soviet", "western"):
        mail = tmp_path / "out" / f"step-001-to-{p}.eml"
        from email import policy
        from email.parser import BytesParser
        body = BytesParser(policy=policy.default).parsebytes(mail.read_bytes()).get_body(("plain",)).get_content()
        assert f"pbem chain reveal {p}.chain THIS.eml -o reveal-{p}-001.yaml --key {p}.key" in body   # one name per link
        assert "Nothing is awaited from you" not in body and "pbem orders template" not in body
        r = run("chain", "reveal", tmp_path / f"{p}.chain", mail, "-o", tmp_path / f"m-{p}.yaml", "--key", tmp_path / f"{p}.key")
        assert r.exit_code == 0, r.output
        r = run("chain", "reveal", tmp_path / f"{p}.chain", camp, "-o", tmp_path / f"c-{p}.yaml", "--key", tmp_path / f"{p}.key")
        assert r.exit_code == 0, r.output
        assert (tmp_path / f"m-{p}.yaml").read_bytes() == (tmp_path / f"c-{p}.yaml").read_bytes()
        args += ["--reveal", tmp_path / f"m-{p}.yaml"]
    r = run("adjudicate", camp, *args, "--mail", tmp_path / "out2")
    assert r.exit_code in (0, 5), r.output
    # the next awaited player is told to sign the file before checking it (validate refuses an
    # unsigned file as adjudicate does: checking first said REFUSED for the missing signature)
    p = [a for a in (state_of(camp)["awaiting"] if isinstance(state_of(camp)["awaiting"], list) else [state_of(camp)["awaiting"]])][0]["player"]
    body = BytesParser(policy=policy.default).parsebytes((tmp_path / "out2" / f"step-002-to-{p}.eml").read_bytes()).get_body(("plain",)).get_content()
    assert body.index(f"pbem sign {p}-nogm-dec-003.yaml --key {p}.key") < body.index("pbem validate"), body
    # a mail without a state (e.g. the player's own reply) is named as such
    from email.message import EmailMessage
    m = EmailMessage()
    m["From"], m["Subject"] = "a@example.org", "hi"
    m.set_content("no state here\n")
    (tmp_path / "reply.eml").write_bytes(bytes(m))
    r = run("chain", "reveal", tmp_path / "soviet.chain", tmp_path / "reply.eml", "-o", tmp_path / "x.yaml")
    assert r.exit_code == 2 and "MAIL-NO-STATE" in r.output, r.output


def test_a_missing_reveal_names_the_protocol_2_command(tmp_path):
    """DICE-REVEAL-MISSING told a protocol-2 player to reveal with `--orders ORDERS`, the option of
    campaigns started before (issue 17): the files are archived, the reveal takes none."""
    camp = new_campaign(tmp_path)
    assert run("adjudicate", camp, orders_for(camp, tmp_path / "o1.yaml")).exit_code == 6
    # while links are awaited, the template and validate name the reveal from the mail too
    r = run("orders", "template", camp, "--player", "western")
    assert r.exit_code != 0 and "pbem chain reveal western.chain CAMPAIGN|MAIL" in r.output, r.output
    r = run("chain", "reveal", tmp_path / "soviet.chain", camp, "-o", tmp_path / "rs.yaml")
    assert r.exit_code == 0, r.output
    r = run("adjudicate", camp, "--reveal", tmp_path / "rs.yaml")
    assert r.exit_code == 4 and "DICE-REVEAL-MISSING" in r.output, r.output
    assert "--orders ORDERS" not in r.output and "western: pbem chain reveal YOUR.chain" in r.output, r.output


def test_replay_of_a_chain_campaign_names_no_dice_key_nor_game_master_in_private(tmp_path):
    """A campaign without a referee has no dice.key and no game master: replay's note on the
    other files of private/ (the example publishes its demo keys there) says neither."""
    camp = new_campaign(tmp_path)
    (camp / "private").mkdir(exist_ok=True)
    (camp / "private" / "soviet.key").write_text("demo\n")
    r = run("replay", camp)
    assert r.exit_code == 0, r.output
    assert "private/: 1 file(s) (soviet.key): not part of the archive" in r.output, r.output
    assert "dice.key" not in r.output and "game master" not in r.output


def test_chain_new_help_says_when_a_link_is_spent():
    """Protocol 2 spends a link per request for links, not per order file (issue 17)."""
    out = run("chain", "new", "--help").output
    assert "one per adjudicated order file" not in out and "asks for links" in out


def test_a_reveal_given_as_an_order_file_says_to_give_it_after_reveal(tmp_path):
    """A new user who runs `pbem adjudicate CAMPAIGN reveal.yaml` (without --reveal) is told where
    the reveal goes, not to write an order file from the template."""
    camp = new_campaign(tmp_path)
    assert run("adjudicate", camp, orders_for(camp, tmp_path / "o1.yaml")).exit_code == 6
    assert run("chain", "reveal", tmp_path / "soviet.chain", camp, "-o", tmp_path / "rs.yaml").exit_code == 0
    r = run("adjudicate", camp, tmp_path / "rs.yaml")
    assert r.exit_code != 0 and "FILE-NOT-ORDERS" in r.output and "--reveal" in r.output, r.output
    assert "pbem orders template" not in r.output.split("FILE-NOT-ORDERS")[1]
