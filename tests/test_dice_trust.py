"""Dice nobody can bias (issue 29): each attack found against chain protocol 2, signatures and
missing orders, run as the attacker would, and failing before the fix.

* break 1: a hidden option made new hash-chain campaigns under protocol 1, and nothing said
  which protocol a campaign uses;
* break 2: one signature accepted several files (trailing blanks, no final newline, CRLF), each
  with other dice;
* break 3: with one player away, the player present could compute the missing-orders dice
  before sending his file;
* the partials: keys read from the archive, signatures checked by a player's own validate,
  replay saying what differs, the short head of the mail, one reveal file name per round.
"""
from __future__ import annotations

import hashlib
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from test_chain_v2 import new_campaign, orders_for, report, run, state_of, witness_chain

ROOT = Path(__file__).resolve().parents[1]


def body_of(mail: Path) -> str:
    return BytesParser(policy=policy.default).parsebytes(mail.read_bytes()).get_body(("plain",)).get_content()


# ------------------------------------------------------------------ break 1: one protocol
def test_new_campaigns_are_chain_protocol_2_only_and_say_so(tmp_path):
    """`pbem new ... --dice chain --chain-protocol 1` made a campaign in which the refused-step
    attack of issue 17 works unchanged, and nothing in the state, `show` or the mails said so.
    Now the option is gone; the protocol is in the state, `show`, every mail and the book."""
    for p in ("soviet", "western"):
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    args = ["new", tmp_path / "old", "--scenario", "bfg-historical", "--id", "nogm-dec", "--player", "soviet=A:a@example.org",
            "--player", "western=B:b@example.org", "--dice", "chain", "--commit", f"soviet={tmp_path / 'soviet.chain'}",
            "--commit", f"western={tmp_path / 'western.chain'}"]
    r = run(*args, "--chain-protocol", "1")
    assert r.exit_code != 0 and not (tmp_path / "old").exists(), r.output
    args[1] = tmp_path / "camp"
    r = run(*args)
    assert r.exit_code == 0, r.output
    camp = tmp_path / "camp"
    assert state_of(camp)["dice"]["protocol"] == 2
    assert "protocol 2" in run("show", camp).output
    assert run("mail", camp, "--step", "0", "-o", tmp_path / "out0").exit_code == 0
    assert "protocol 2" in body_of(tmp_path / "out0" / "step-000-to-soviet.eml")
    r = run("book", camp, "-o", tmp_path / "book")
    assert r.exit_code == 0, r.output
    assert "protocol 2" in (tmp_path / "book" / "index.html").read_text("utf-8")
    o = orders_for(camp, tmp_path / "o.yaml")
    assert run("adjudicate", camp, o, "--mail", tmp_path / "out1").exit_code == 6
    for p in ("soviet", "western"):
        assert "protocol 2" in body_of(tmp_path / "out1" / f"step-001-to-{p}.eml")
    # the book of a campaign awaiting every player's link (an internal error before: the map
    # caption took one awaited player)
    r = run("book", camp, "-o", tmp_path / "book", "--replace")
    assert r.exit_code == 0, r.output
    # an archive of the first protocol says so wherever it is shown
    out = run("show", ROOT / "examples" / "bfg-chain").output
    assert "protocol 1" in out and "may key other orders" in out, out


# ------------------------------------------------------------------ break 2: the bytes signed key the dice
def _variants(signed: bytes) -> dict[str, bytes]:
    """Files the signature check took for the one signed (each another sha256, other dice)."""
    import base64
    line = signed.rstrip(b"\n").rsplit(b"\n", 1)[1]
    b64 = line.rsplit(b" ", 1)[1]
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    k = alphabet.index(b64[85:86]) ^ 1             # the last digit's two unused bits
    spelled = b64[:85] + alphabet[k:k + 1] + b"=="
    assert base64.b64decode(spelled) == base64.b64decode(b64)
    return {"trailing blanks": signed[:-1] + b"  \n", "no final newline": signed[:-1],
            "CRLF signature line": signed[:-1] + b"\r\n", "CRLF everywhere": signed.replace(b"\n", b"\r\n"),
            "another base64 spelling": signed.replace(b64, spelled)}


@pytest.mark.parametrize("mode", ["gm", "chain"])
def test_one_signature_accepts_one_file_only(tmp_path, mode):
    """The holder of the dice key (the game master) could pick the dice of a signed file: the
    check accepted, for one signature, trailing blanks, no final newline, CRLF and (found here)
    another spelling of its base64; each variant has another sha256, and the dice are keyed on
    it (four variants of one signed Soviet file gave four dice sets, each replaying OK). Now a
    signed file is taken only in the form `pbem sign` wrote; every variant is refused, by
    adjudicate and by the player's own validate, with what to do."""
    if mode == "chain":
        camp = new_campaign(tmp_path, keys=True)
    else:
        for p in ("soviet", "western"):
            assert run("key", "new", "-p", p, "-o", tmp_path / f"{p}.key").exit_code == 0
        camp = tmp_path / "camp"
        r = run("new", camp, "--scenario", "bfg-historical", "--id", "nogm-dec", "--player", "soviet=A",
                "--player", "western=B", "--player-key", f"soviet={tmp_path / 'soviet.key'}",
                "--player-key", f"western={tmp_path / 'western.key'}")
        assert r.exit_code == 0, r.output
    o = orders_for(camp, tmp_path / "o.yaml")
    assert run("sign", o, "--key", tmp_path / "soviet.key").exit_code == 0
    signed = o.read_bytes()
    before = sorted(p.name for p in (camp / "steps").iterdir())
    digests = {hashlib.sha256(signed).hexdigest()}
    for what, raw in _variants(signed).items():
        f = tmp_path / "variant.yaml"
        f.write_bytes(raw)
        digests.add(hashlib.sha256(raw).hexdigest())
        r = run("adjudicate", camp, f)
        assert r.exit_code == 4 and re.search(r"SIG-(FORM|LINE-ENDS)", r.output) and "pbem sign" in r.output, (what, r.output)
        assert sorted(p.name for p in (camp / "steps").iterdir()) == before, what
        r = run("validate", camp, f)
        assert r.exit_code == 4 and re.search(r"SIG-(FORM|LINE-ENDS)", r.output), (what, r.output)
    assert len(digests) == 6            # six files, six dice keys: only the one signed is taken
    r = run("adjudicate", camp, o)
    assert r.exit_code in (0, 5, 6), r.output
    # replay checks the archived file in the same exact form
    archived = sorted((camp / "steps" / "001").glob("orders-*.yaml"))[0]
    assert archived.read_bytes() == signed


# ------------------------------------------------------------------ break 3: one player away
def _witness_campaign(tmp: Path, absent: str) -> Path:
    from test_chain_v2 import witness_chain
    for p in ("soviet", "western"):
        assert run("chain", "new", "-p", p, "-o", tmp / f"{p}.chain").exit_code == 0
    args = ["new", tmp / "camp", "--scenario", "bfg-historical", "--id", "w", "--player", "soviet=A", "--player", "western=B",
            "--dice", "chain", "--commit", f"soviet={tmp / 'soviet.chain'}", "--commit", f"western={tmp / 'western.chain'}",
            "--missing-orders-default", f"{absent}=no-orders", "--auto-decisions"]
    r = run(*args)      # hash chains with a missing-orders default: a witness is needed
    assert r.exit_code == 64 and "NEW-WITNESS" in r.output and not (tmp / "camp").exists(), r.output
    r = run(*args, "--witness", f"Wendy={witness_chain(tmp)}")
    assert r.exit_code == 0, r.output
    return tmp / "camp"


def test_missing_orders_dice_take_the_witness_link_nobody_present_knows(tmp_path):
    """With one player away, the present player's link alone keyed the dice of the phase
    carried out without the absent one: he knows it before sending his file, so he could
    compute those dice for each comment-only variant of his file and send the one he liked.
    Now such dice take the link of the witness named at `pbem new` too, revealed only once the
    files are archived: nobody present can compute them before sending."""
    from pbem.core.chain import combine, load_chain_file
    from pbem.core.dice import verify_roll
    camp = _witness_campaign(tmp_path, "soviet")
    assert "witness Wendy" in run("show", camp).output
    # the game master's dice need none: his key is secret, the players present cannot compute
    # a die; a witness there is refused rather than silently unused
    from test_chain_v2 import witness_chain
    r = run("new", tmp_path / "gm", "--scenario", "bfg-historical", "--id", "w", "--player", "soviet=A", "--player", "western=B",
            "--missing-orders-default", "soviet=no-orders", "--witness", f"Wendy={witness_chain(tmp_path)}")
    assert r.exit_code == 64 and "NEW-WITNESS" in r.output and not (tmp_path / "gm").exists(), r.output
    r = run("adjudicate", camp, "--missing-orders")     # turn 1: the West German attacks 12.2.1 compels roll
    assert r.exit_code == 6, r.output
    st = state_of(camp)
    assert st["dice"]["request"]["players"] == ["western", "witness"]
    assert "the witness (Wendy)" in run("show", camp).output
    # the present player's own link is not enough, and the witness's cannot be made up
    w = tmp_path / "rw.yaml"
    assert run("chain", "reveal", tmp_path / "western.chain", camp, "-o", w).exit_code == 0
    r = run("adjudicate", camp, "--reveal", w)
    assert r.exit_code == 4 and "DICE-REVEAL-MISSING" in r.output and "witness" in r.output, r.output
    assert run("chain", "reveal", tmp_path / "soviet.chain", camp, "-o", tmp_path / "rs.yaml").exit_code == 64   # absent
    wit = tmp_path / "rwit.yaml"
    r = run("chain", "reveal", tmp_path / "witness.chain", camp, "-o", wit)
    assert r.exit_code == 0, r.output
    r = run("adjudicate", camp, "--reveal", w, "--reveal", wit)
    assert r.exit_code in (0, 5), r.output
    rep = report(camp, 2)
    assert rep["rolls"] and {x["player"] for x in rep["dice"]["reveals"]} == {"western", "witness"}
    links = {x["player"]: x["link"] for x in rep["dice"]["reveals"]}
    key = combine(links, ["western", "witness"])
    alone = combine({"western": links["western"]}, ["western"])     # all the present player could compute
    assert key != alone
    steps = {e["key_inputs"]["step"]: e["key_inputs"] for e in rep["events"] if "key_inputs" in e}
    for roll in rep["rolls"]:
        ki = steps["/".join(roll["label"].split("/")[2:4])]
        assert verify_roll(key, game="bfg", campaign="w", step=ki["step"], orders_digest=ki["orders"], state_hash=ki["state"],
                           label=roll["label"], sides=roll["sides"]) == roll["value"]
    # the witness's link was in no file before the request: it is the preimage of his head
    assert load_chain_file(tmp_path / "witness.chain")["head"] != links["witness"]
    before = b"".join(p.read_bytes() for p in sorted((camp / "steps").glob("00[01]/*")) if p.is_file())
    assert links["witness"].encode() not in before
    r = run("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output


def test_a_shared_phase_without_the_absent_player_asks_for_the_witness(tmp_path):
    """The attack of the issue: BlitzWAR, a phase every player orders at once; the Axis sent his
    file and `--missing-orders` ran for the absent Allies. The die was keyed on the Axis link
    and the Axis file alone (twelve comment-only versions gave twelve dice he could compute
    offline). The step that meets that die now asks for the witness's link with the Axis'."""
    from test_chain_v2 import witness_chain

    from pbem.core.campaign import Campaign
    from pbem.core.step import links_outcome, received_files
    for p in ("axis", "allies"):
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    r = run("new", tmp_path / "bw", "-s", "blitzwar-1939", "--id", "bw", "-p", "axis=X", "-p", "allies=Y", "--dice", "chain",
            "--commit", f"axis={tmp_path / 'axis.chain'}", "--commit", f"allies={tmp_path / 'allies.chain'}",
            "--missing-orders-default", "allies=no-orders", "--witness", f"Wendy={witness_chain(tmp_path)}")
    assert r.exit_code == 0, r.output
    camp = tmp_path / "bw"
    t = tmp_path / "axis.yaml"
    assert run("orders", "template", camp, "-p", "axis", "-o", t).exit_code == 0
    assert run("adjudicate", camp, t).exit_code == 6          # received; the Allies are awaited
    st = state_of(camp)
    aw = st["awaiting"]
    assert st["received"] and [a["player"] for a in ([aw] if isinstance(aw, dict) else aw)] == ["allies"]
    # where this phase meets a die (turn 1 rolls none; the came later), the step asks:
    axis_file = received_files(Campaign(camp), st)
    out = links_outcome(st, "0" * 64, axis_file, True)
    assert out.state["dice"]["request"]["players"] == ["axis", "witness"]
    assert [a["player"] for a in out.state["awaiting"]] == ["axis", "witness"]


# ------------------------------------------------------------------ partials: the keys
def _gm_signed(tmp: Path, mode: str = "gm") -> Path:
    if mode == "chain":
        return new_campaign(tmp, keys=True)
    for p in ("soviet", "western"):
        if not (tmp / f"{p}.key").exists():
            assert run("key", "new", "-p", p, "-o", tmp / f"{p}.key").exit_code == 0
    camp = tmp / "camp"
    r = run("new", camp, "--scenario", "bfg-historical", "--id", "nogm-dec", "--player", "soviet=A", "--player", "western=B",
            "--player-key", f"soviet={tmp / 'soviet.key'}", "--player-key", f"western={tmp / 'western.key'}")
    assert r.exit_code == 0, r.output
    return camp


@pytest.mark.parametrize("mode", ["gm", "chain"])
def test_adjudicate_reads_the_keys_archived_at_step_0_not_the_editable_campaign_yaml(tmp_path, mode):
    """Deleting a key line from campaign.yaml let an unsigned file through, and swapping the
    keys let the western player send orders signed as `soviet` with his own key (replay caught
    it later). The keys now come from steps/000/campaign.json."""
    from pbem.core.signing import load_key_file, sign
    camp = _gm_signed(tmp_path, mode)
    o = orders_for(camp, tmp_path / "o.yaml")
    manifest = (camp / "campaign.yaml").read_text("utf-8")
    soviet = load_key_file(tmp_path / "soviet.key")["public"]
    western = load_key_file(tmp_path / "western.key")
    # 1. the soviet key line deleted: an unsigned file
    (camp / "campaign.yaml").write_text(re.sub(rf"(?m)^ *key: \"?{soviet}\"?\n", "", manifest), "utf-8")
    assert soviet not in (camp / "campaign.yaml").read_text("utf-8")
    r = run("adjudicate", camp, o)
    assert r.exit_code == 4 and "SIG-MISSING" in r.output, r.output
    assert "SIG-MISSING" in run("validate", camp, o).output
    # 2. the western key put in the soviet's place: the western player signs as `soviet`
    (camp / "campaign.yaml").write_text(manifest.replace(soviet, western["public"]), "utf-8")
    forged = tmp_path / "forged.yaml"
    forged.write_bytes(sign(o.read_bytes(), "soviet", western["private"]))
    r = run("adjudicate", camp, forged)
    assert r.exit_code == 4 and re.search(r"SIG-(BAD|WRONG-PLAYER)", r.output), r.output
    assert not (camp / "steps" / "001").exists()


@pytest.mark.parametrize("mode", ["gm", "chain"])
def test_a_players_own_validate_checks_his_signature_with_the_keys_the_state_carries(tmp_path, mode):
    """The state carried no public keys: a player validating his file against the state of his
    mail could not see it was unsigned or changed; the host found it one round trip later."""
    camp = _gm_signed(tmp_path, mode)
    st = state_of(camp)
    assert set(st["keys"]) == {"soviet", "western"}
    state_file = next((camp / "steps" / "000").glob("nogm-dec-*.yaml"))
    mine = tmp_path / "mail"
    mine.mkdir()
    (mine / state_file.name).write_bytes(state_file.read_bytes())       # what the mail attached
    o = orders_for(camp, mine / "o.yaml")
    r = run("validate", mine / state_file.name, o)
    assert r.exit_code == 4 and "SIG-MISSING" in r.output, r.output
    assert run("sign", o, "--key", tmp_path / "soviet.key").exit_code == 0
    r = run("validate", mine / state_file.name, o)
    assert r.exit_code == 0, r.output
    o.write_bytes(o.read_bytes().replace(b"turn: 1", b"turn: 1 ", 1))
    r = run("validate", mine / state_file.name, o)
    assert r.exit_code == 4 and "SIG-BAD" in r.output, r.output
    # the keys stay in the states that follow
    o.write_bytes(o.read_bytes().replace(b"turn: 1 ", b"turn: 1", 1))
    assert run("adjudicate", camp, o).exit_code in (0, 5, 6)
    assert state_of(camp)["keys"] == st["keys"]


# ------------------------------------------------------------------ partials: what replay and the mails say
def test_replay_says_what_differs_when_a_comment_is_added_at_the_top_of_an_archived_state(tmp_path):
    """A comment added at the top of an archived state passed replay, whose summary still said
    "byte-identical". It still passes (no hash covers those lines), but replay says which step
    and which line differ, and no longer calls the archive byte-identical."""
    import shutil
    camp = tmp_path / "hist"
    shutil.copytree(ROOT / "examples" / "bfg-historical", camp)
    r = run("replay", camp)
    assert r.exit_code == 0 and "byte-identical" in r.output, r.output
    state = next(p for p in sorted((camp / "steps" / "002").glob("*.yaml")) if not p.name.startswith("orders-"))
    state.write_bytes(b"# the GM was here\n" + state.read_bytes())
    r = run("replay", camp)
    assert r.exit_code == 0, r.output
    assert "step(s) byte-identical" not in r.output and "not byte-identical" in r.output, r.output
    assert "step 002" in r.output and "the GM was here" in r.output, r.output


def _reveal_from_mails(tmp: Path, camp: Path, out: Path) -> list:
    """Each asked player follows the mail that asks for his link, in his own mail folder."""
    args = []
    step = state_of(camp)["step"]
    for p in ("soviet", "western"):
        home = tmp / f"home-{p}"
        home.mkdir(exist_ok=True)
        mail = out / f"step-{step:03d}-to-{p}.eml"
        line = re.search(rf"pbem chain reveal {p}\.chain THIS\.eml -o (reveal-{p}-\d{{3}}\.yaml)", body_of(mail))
        assert line, body_of(mail)
        r = run("chain", "reveal", tmp / f"{p}.chain", mail, "-o", home / line.group(1))
        assert r.exit_code == 0, r.output          # no FILE-EXISTS from the second round on
        args += ["--reveal", home / line.group(1)]
    return args


def test_the_short_head_of_the_mail_is_accepted_and_each_round_has_its_own_reveal_file(tmp_path):
    """`pbem head --check` refused the short head the mail prints; every links mail told each
    player the same reveal file name (FILE-EXISTS from the second round); and the host's `Next:`
    lines after a links step named a campaign folder the players do not have."""
    from test_chain_v2 import _answer

    from pbem.core.archive import head
    for attempt in range(12):
        t = tmp_path / f"try{attempt}"
        t.mkdir()
        camp = new_campaign(t)
        out = t / "out"
        r = run("adjudicate", camp, orders_for(camp, t / "o.yaml"), "--mail", out)
        assert r.exit_code == 6, r.output
        # the Next lines work from the player's mail folder
        for p in ("soviet", "western"):
            assert f"pbem chain reveal {p}.chain step-001-to-{p}.eml -o reveal-{p}-001.yaml" in r.output, r.output
        if attempt == 0:
            short = re.search(r"--check ([0-9a-f]{16}\.\.\.)", body_of(out / "step-001-to-soviet.eml")).group(1)
            assert head(camp, "nogm-dec", 1)[1].startswith(short.rstrip("."))
            r = run("head", camp, "--check", short)
            assert r.exit_code == 0 and "MATCH" in r.output, r.output
            r = run("head", camp, "--check", "0123456789abcdef...")
            assert r.exit_code != 0 and "HEAD-DIFFERS" in r.output, r.output
        r = run("adjudicate", camp, *_reveal_from_mails(t, camp, out), "--mail", out)
        while r.exit_code == 5:         # a decision: answered; the dice after it take fresh links
            r = _answer(t, camp, state_of(camp)["step"])
            k = state_of(camp)["step"]
            assert run("mail", camp, "--step", k, "-o", out).exit_code == 0
        if r.exit_code == 6:
            r = run("adjudicate", camp, *_reveal_from_mails(t, camp, out))    # the second round
            assert r.exit_code in (0, 5, 6), r.output
            assert len(list((t / "home-soviet").glob("reveal-soviet-*.yaml"))) == 2
            return
    pytest.skip("no second round of links in 12 tries")


# ------------------------------------------------------------------ partials: unsigned play
@pytest.mark.parametrize("mode", ["gm", "chain"])
def test_unsigned_play_is_a_visible_choice_and_a_template_cut_short_is_refused(tmp_path, mode):
    """An unsigned campaign said nothing of it, and a file cut at a line boundary was accepted
    as shorter orders. Now `pbem new` warns unless --unsigned says it is meant, `show` and every
    mail say the campaign is unsigned, and a file written from the template that lost its end
    line is refused (ORDERS-TRUNCATED)."""
    args = ["new", tmp_path / "camp", "--scenario", "bfg-historical", "--id", "u", "--player", "soviet=A:a@example.org",
            "--player", "western=B:b@example.org"]
    if mode == "chain":
        for p in ("soviet", "western"):
            assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
        args += ["--dice", "chain", "--commit", f"soviet={tmp_path / 'soviet.chain'}", "--commit", f"western={tmp_path / 'western.chain'}"]
    r = run(*args)
    assert r.exit_code == 0 and "NEW-UNSIGNED" in r.output and "--unsigned" in r.output, r.output
    camp = tmp_path / "camp"
    assert "Signatures: none" in run("show", camp).output
    assert run("mail", camp, "--step", "0", "-o", tmp_path / "out").exit_code == 0
    assert "Signatures: none - an unsigned campaign" in body_of(tmp_path / "out" / "step-000-to-western.eml")
    args[1] = tmp_path / "camp2"
    r = run(*args, "--unsigned")
    assert r.exit_code == 0 and "NEW-UNSIGNED" not in r.output, r.output
    t = tmp_path / "t.yaml"
    assert run("orders", "template", camp, "-p", "soviet", "-o", t).exit_code == 0
    lines = t.read_bytes().splitlines(keepends=True)
    for cut in (1, 3):
        g = tmp_path / f"cut{cut}.yaml"
        g.write_bytes(b"".join(lines[:-cut]))
        for cmd in ("validate", "adjudicate"):
            r = run(cmd, camp, g)
            assert r.exit_code != 0 and "ORDERS-TRUNCATED" in r.output, (cmd, cut, r.output)
    assert not (camp / "steps" / "001").exists()
    # the whole template is not refused for its end line (turn 1 compels attacks: other errors)
    assert "ORDERS-TRUNCATED" not in run("validate", camp, t).output


def test_a_default_added_later_to_a_hash_chain_campaign_needs_its_witness_too(tmp_path):
    """`pbem missing-default` adds what `pbem new --missing-orders-default` would have: in a
    hash-chain campaign started without a witness it is refused as `new` refuses it (NEW-WITNESS),
    or the dice of a phase played without the absent player would again be keyed by the present
    players' links alone. One started with a witness takes it."""
    camp = new_campaign(tmp_path)
    before = (camp / "campaign.yaml").read_bytes()
    r = run("missing-default", camp, "soviet=no-orders")
    assert r.exit_code == 64 and "NEW-WITNESS" in r.output, r.output
    assert (camp / "campaign.yaml").read_bytes() == before
    with_witness = new_campaign(tmp_path, "camp2", extra=("--witness", f"Wendy={witness_chain(tmp_path)}"))
    assert run("missing-default", with_witness, "soviet=no-orders").exit_code == 0
