"""Files nobody can forge (issue 17, way through 4, and the smaller holes): each test is an
attack a cheating player (or a careless game master) tried, which pbem let through before.

* signatures: an order file of one player saying it is another's, a file cut at a line
  boundary, a changed byte, a reveal forged from the archived links (pbem.core.signing);
* the archive head every mail carries, and `pbem head --check`;
* `pbem new` refuses a name with a line break and an e-mail list;
* `pbem seal -o` writes the opening for its owner only; one opening twice in a file is refused;
* `pbem replay` refuses what contradicts the archive (campaign.yaml, unlisted files) and says
  what it did not check (signatures, private/, schemas/).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
KEY = "7" * 64


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, **kw)


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def public(out: str) -> str:
    return re.search(r"\(publish it\): ([0-9a-f]{64})", out).group(1)


@pytest.fixture()
def bw(tmp_path):
    """A three-player BlitzWAR campaign with every player's public key."""
    keys = {}
    for p in ("allies", "axis", "ussr"):
        r = run("key", "new", "-p", p, "-o", tmp_path / f"{p}.key")
        assert r.exit_code == 0, r.output
        keys[p] = public(r.output)
    args = ["new", tmp_path / "bw", "-s", "blitzwar-1939", "--id", "bw"]
    for p in keys:
        args += ["-p", f"{p}={p.title()}:{p}@example.org", "--player-key", f"{p}={keys[p]}"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    return tmp_path, tmp_path / "bw"


def template(tmp: Path, camp: Path, player: str) -> Path:
    out = tmp / f"{player}.yaml"
    r = run("orders", "template", camp, "-p", player, "-o", out, "--force")
    assert r.exit_code == 0, r.output
    return out


# ------------------------------------------------------------------ signatures
def test_a_key_file_is_its_owners_only_and_sign_appends_one_line(tmp_path):
    r = run("key", "new", "-p", "soviet", "-o", tmp_path / "s.key")
    assert r.exit_code == 0 and stat.S_IMODE(os.stat(tmp_path / "s.key").st_mode) == 0o600
    assert run("key", "new", "-p", "soviet", "-o", tmp_path / "s.key").exit_code == 74   # never replaced
    f = tmp_path / "o.yaml"
    f.write_text("schema: pbem/orders/v1\nplayer: soviet\n")
    assert run("sign", f, "--key", tmp_path / "s.key").exit_code == 0
    once = f.read_bytes()
    assert once.count(b"# pbem-signature: ed25519 soviet ") == 1 and once.endswith(b"\n")
    assert run("sign", f, "--key", tmp_path / "s.key").exit_code == 0
    assert f.read_bytes() == once                       # signing again replaces the line (Ed25519 is deterministic)
    other = tmp_path / "w.yaml"
    other.write_text("schema: pbem/orders/v1\nplayer: western\n")
    r = run("sign", other, "--key", tmp_path / "s.key")
    assert r.exit_code == 4 and "SIG-WRONG-PLAYER" in r.output


def test_the_allies_cannot_send_orders_as_the_ussr(bw):
    """Before: an order file from the Allies saying `player: ussr` was accepted."""
    tmp, camp = bw
    from pbem.core.signing import load_key_file, sign
    f = template(tmp, camp, "ussr")
    allies = load_key_file(tmp / "allies.key")
    before = tree(camp)
    f.write_bytes(sign(f.read_bytes(), "allies", allies["private"]))     # signed as the Allies
    r = run("adjudicate", camp, f)
    assert r.exit_code == 4 and "SIG-WRONG-PLAYER" in r.output, r.output
    f.write_bytes(sign(f.read_bytes(), "ussr", allies["private"]))       # the USSR's name, the Allies' key
    r = run("adjudicate", camp, f)
    assert r.exit_code == 4 and "SIG-WRONG-PLAYER" in r.output and "allies player's key" in r.output, r.output
    unsigned = template(tmp, camp, "ussr")
    r = run("adjudicate", camp, unsigned)
    assert r.exit_code == 4 and "SIG-MISSING" in r.output
    r = run("validate", camp, unsigned)                 # said before sending, too
    assert r.exit_code == 4 and "SIG-MISSING" in r.output
    assert tree(camp) == before
    # the USSR's own signature is accepted
    assert run("sign", unsigned, "--key", tmp / "ussr.key").exit_code == 0
    r = run("adjudicate", camp, unsigned)
    assert r.exit_code in (0, 5, 6), r.output


def test_a_file_cut_at_a_line_boundary_or_changed_is_refused(bw):
    """Before: an order file cut off at a line boundary was accepted as shorter orders."""
    tmp, camp = bw
    f = template(tmp, camp, "axis")
    assert run("sign", f, "--key", tmp / "axis.key").exit_code == 0
    lines = f.read_bytes().splitlines(keepends=True)
    for cut in (1, 2, len(lines) // 2):
        g = tmp / f"cut{cut}.yaml"
        g.write_bytes(b"".join(lines[:-cut]))
        r = run("adjudicate", camp, g)
        assert r.exit_code != 0 and ("SIG-MISSING" in r.output or "YAML" in r.output or "SCHEMA" in r.output), r.output
    g = tmp / "changed.yaml"
    g.write_bytes(f.read_bytes().replace(b"turn: 1", b"turn: 1 ", 1))
    r = run("adjudicate", camp, g)
    assert r.exit_code == 4 and "SIG-BAD" in r.output, r.output
    # the same cut file mailed: the hint names the player's own file, a command they can run
    from email.message import EmailMessage
    m = EmailMessage()
    m["From"], m["Subject"] = "anna@example.org", "orders"
    m.set_content("attached\n")
    m.add_attachment(b"".join(lines[:-1]), maintype="application", subtype="yaml", filename="axis-t01.yaml")
    (tmp / "cut.eml").write_bytes(bytes(m))
    r = run("validate", camp, tmp / "cut.eml", "--any-sender")
    assert "SIG-MISSING" in r.output and "pbem sign axis-t01.yaml --key axis.key" in r.output, r.output
    assert "pbem sign " + str(tmp / "cut.eml") not in r.output
    # line ends made CRLF: another file, with other dice, under the same signature; refused with
    # what to do (issue 29: one signature, one file; tests/test_dice_trust.py)
    crlf = tmp / "crlf.yaml"
    crlf.write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    r = run("adjudicate", camp, crlf)
    assert r.exit_code == 4 and "SIG-FORM" in r.output and "as an attachment" in r.output, r.output


def test_forged_reveals_from_the_archived_links_are_refused(tmp_path):
    """Before: anyone holding the archive could delete the last step and adjudicate it again
    with other orders and reveals forged from the archived links; replay said OK."""
    from test_chain_v2 import new_campaign, orders_for, reveal_all
    camp = new_campaign(tmp_path, keys=True)
    a = orders_for(camp, tmp_path / "a.yaml")
    assert run("sign", a, "--key", tmp_path / "soviet.key").exit_code == 0
    assert run("adjudicate", camp, a).exit_code == 6
    assert run("adjudicate", camp, *reveal_all(tmp_path, camp, key=True)).exit_code in (0, 5)
    out = run("replay", camp).output                           # every file signed and checked
    assert "not checked: signatures" not in out and "unsigned" not in out and "signatures: 3 file(s) signed" in out, out
    # the forger: delete step 002, and forge the reveals from the archived links
    shutil.rmtree(camp / "steps" / "002")
    forged = []
    for rv in ("soviet", "western"):
        # the links are public (steps/002 was mailed to everybody): the forger writes the
        # reveals again, without the players' signatures
        text = (tmp_path / f"r-{rv}.yaml").read_text()
        text = re.sub(r"(?m)^# pbem-signature: .*\n", "", text)
        out = tmp_path / f"forged-{rv}.yaml"
        out.write_text(text)
        forged += ["--reveal", out]
    r = run("adjudicate", camp, *forged)
    assert r.exit_code == 4 and "SIG-MISSING" in r.output, r.output
    # signed with the forger's own key (the soviet player forging the western reveal)
    from pbem.core.signing import load_key_file, sign
    k = load_key_file(tmp_path / "soviet.key")
    w = tmp_path / "forged-western.yaml"
    w.write_bytes(sign(w.read_bytes(), "western", k["private"]))
    r = run("adjudicate", camp, "--reveal", tmp_path / "r-soviet.yaml", "--reveal", w)
    assert r.exit_code == 4 and "SIG-WRONG-PLAYER" in r.output, r.output


def test_replay_checks_signatures_and_the_keys_against_the_start(tmp_path):
    from test_chain_v2 import new_campaign, orders_for, reveal_all
    camp = new_campaign(tmp_path, keys=True)
    a = orders_for(camp, tmp_path / "a.yaml")
    assert run("sign", a, "--key", tmp_path / "soviet.key").exit_code == 0
    assert run("adjudicate", camp, a).exit_code == 6
    assert run("adjudicate", camp, *reveal_all(tmp_path, camp, key=True)).exit_code in (0, 5)
    r = run("replay", camp)
    # replay says what it checked, not only what it did not: one order file and two reveals
    assert r.exit_code == 0 and "signatures: 3 file(s) signed by their player and checked (soviet 2, western 1)" in r.output, r.output
    # a forger swaps a player's key in campaign.yaml for his own
    r = run("key", "new", "-p", "soviet", "-o", tmp_path / "forger.key")
    m = (camp / "campaign.yaml").read_text()
    old = re.search(r"key: \"?([0-9a-f]{64})", m).group(1)
    (camp / "campaign.yaml").write_text(m.replace(old, public(r.output), 1))
    r = run("replay", camp)
    assert r.exit_code == 4 and "REPLAY-MANIFEST" in r.output and "public key" in r.output, r.output


def test_examples_replay_and_say_their_files_are_unsigned():
    r = run("replay", ROOT / "examples" / "bfg-historical")
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
    assert "are unsigned" in r.output and "who sent them was not checked" in r.output
    last = max(int(d.name) for d in (ROOT / "examples" / "bfg-historical" / "steps").iterdir() if d.name.isdigit())
    assert f"archive head after step {last:03d}:" in r.output


# ------------------------------------------------------------------ the archive head
def test_every_mail_carries_the_head_and_a_cut_or_rewritten_archive_differs(tmp_path):
    from pbem.core.actions import new_campaign
    camp = tmp_path / "camp"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1", options={}, key_hex=KEY,
                 players={"soviet": {"name": "A", "email": "a@example.org"}, "western": {"name": "B", "email": "b@example.org"}},
                 missing_defaults={"soviet": "no-orders", "western": "no-orders"})
    r = run("adjudicate", camp, "--missing-orders", "--mail", tmp_path / "out")
    assert r.exit_code in (0, 5), r.output
    mail = next((tmp_path / "out").glob("*soviet*.eml"))
    import email
    from email import policy
    body = email.message_from_bytes(mail.read_bytes(), policy=policy.default).get_body(("plain",)).get_content()
    m = re.search(r"Archive head after step 001: ([0-9a-f]{64})", body)
    assert m, body
    r = run("head", camp)
    assert r.exit_code == 0 and m.group(1) in r.output
    r = run("head", camp, "--check", mail)
    assert r.exit_code == 0 and "MATCH" in r.output, r.output
    assert m.group(1) in run("replay", camp).output
    cut = tmp_path / "cut"
    shutil.copytree(camp, cut)
    shutil.rmtree(cut / "steps" / "001")
    r = run("head", cut, "--check", mail)
    assert r.exit_code == 4 and "no step 001" in r.output
    rewritten = tmp_path / "rewritten"
    shutil.copytree(camp, rewritten)
    rep = rewritten / "steps" / "001" / "report.txt"
    rep.write_text(rep.read_text() + " ")
    r = run("head", rewritten, "--check", m.group(1), "--step", "1")
    assert r.exit_code == 4 and "DIFFERS" in r.output


# ------------------------------------------------------------------ smaller holes
@pytest.mark.parametrize("spec, code", [("soviet=Anna\r\nBcc: x@y.org", "USAGE-PLAYER"),
                                        ("soviet=Anna\nX", "USAGE-PLAYER"),
                                        ("soviet=Anna:c@x.org, evil@x.org", "USAGE-EMAIL"),
                                        ("soviet=Anna:c@x.org\r\nBcc: evil@x.org", "USAGE-EMAIL"),
                                        ("soviet=Anna:Anna <a@x.org>", "USAGE-EMAIL")])
def test_new_refuses_names_and_emails_that_break_mails(tmp_path, spec, code):
    r = run("new", tmp_path / "c", "-s", "bfg-historical", "--id", "c", "-p", spec, "-p", "western=B")
    assert r.exit_code == 64 and code in r.output, r.output
    assert not (tmp_path / "c").exists()


def test_a_seal_opening_is_its_owners_only_and_is_opened_once_per_file(tmp_path):
    r = run("new", tmp_path / "bw", "-s", "blitzwar-1939", "--id", "bw", "-p", "allies=A", "-p", "axis=B", "-p", "ussr=C")
    assert r.exit_code == 0, r.output
    r = run("seal", tmp_path / "bw", "-p", "axis", "--id", "cards-axis-t04", "--choice", "axis-l8", "-o", tmp_path / "o.yaml")
    assert r.exit_code == 0, r.output
    assert stat.S_IMODE(os.stat(tmp_path / "o.yaml").st_mode) == 0o600
    assert run("key", "new", "-p", "axis", "-o", tmp_path / "axis.key").exit_code == 0
    # (another card: the same one sealed for two turns is refused, SEAL-CLASH, issue 30)
    r = run("seal", tmp_path / "bw", "-p", "axis", "--id", "cards-axis-t03", "--choice", "axis-l7", "-o", tmp_path / "o5.yaml",
            "--key", tmp_path / "axis.key")
    assert r.exit_code == 0 and b"# pbem-signature: ed25519 axis " in (tmp_path / "o5.yaml").read_bytes(), r.output
    assert stat.S_IMODE(os.stat(tmp_path / "o5.yaml").st_mode) == 0o600
    from pbem.core.game import Submission
    from pbem.core.sealed import check, commitment
    c = commitment(campaign="bw", player="axis", id="s1", nonce="n", choice="x")
    state = {"campaign": "bw", "sealed": {"s1": {"player": "axis", "commitment": c, "step": 1, "turn": 1}}}
    entry = {"id": "s1", "nonce": "n", "choice": "x"}
    sub = Submission(player="axis", doc={"player": "axis", "open": [entry, dict(entry)]}, digest="0" * 64, name="o.yaml")
    found = check(state, sub)
    assert [i.code for i in found] == ["SEAL-OPENED-TWICE"] and found[0].path == ("open", 1, "id")


@pytest.fixture()
def played(tmp_path):
    src = ROOT / "examples" / "bfg-historical"
    camp = tmp_path / "camp"
    shutil.copytree(src, camp)
    return camp


@pytest.mark.parametrize("edit", ["name", "commitment", "game", "scenario", "id"])
def test_replay_refuses_a_campaign_yaml_that_contradicts_the_archive(played, edit):
    m = (played / "campaign.yaml").read_text()
    new = {"name": lambda t: t.replace('name: "Anna"', 'name: "Mallory"') if 'name: "Anna"' in t else re.sub(r'name: "[^"]+"', 'name: "Mallory"', t, count=1),
           "commitment": lambda t: re.sub(r'commitment: "[0-9a-f]{64}"', 'commitment: "' + "0" * 64 + '"', t),
           "game": lambda t: t.replace('game: "bfg"', 'game: "blitzwar"'),
           "scenario": lambda t: t.replace('scenario: "bfg-historical"', 'scenario: "bfg-expanded"'),
           "id": lambda t: re.sub(r'(?m)^id: .*$', 'id: "other"', t)}[edit](m)
    assert new != m
    (played / "campaign.yaml").write_text(new)
    r = run("replay", played)
    assert r.exit_code != 0 and "REPLAY OK" not in r.output, r.output
    assert "REPLAY-MANIFEST" in r.output or "DICE-KEY-MISMATCH" in r.output or "REPLAY" in r.output


def test_replay_refuses_the_manifest_changed_since_the_start(tmp_path):
    """A campaign started by this pbem keeps its manifest in steps/000: e-mails, defaults and
    the rest are checked against it."""
    from pbem.core.actions import new_campaign
    camp = tmp_path / "camp"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1", options={}, key_hex=KEY,
                 players={"soviet": {"name": "A", "email": "a@example.org"}, "western": {"name": "B"}},
                 missing_defaults={"soviet": "no-orders"})
    assert (camp / "steps" / "000" / "campaign.json").is_file()
    assert run("replay", camp).exit_code == 0
    m = (camp / "campaign.yaml").read_text()
    # a default taken away is refused; one added is what `pbem missing-default` does (issue 33):
    # accepted, archived with the next step
    (camp / "campaign.yaml").write_text(m.replace('missing_orders:\n  soviet: "no-orders"', "missing_orders: {}"))
    r = run("replay", camp)
    assert r.exit_code == 4 and "REPLAY-MANIFEST" in r.output and "missing_orders" in r.output, r.output
    (camp / "campaign.yaml").write_text(m.replace('soviet: "no-orders"', 'soviet: "no-orders"\n  western: "no-orders"'))
    r = run("replay", camp)
    assert r.exit_code == 0 and "adds missing-orders defaults the next step archives: western=no-orders" in r.output, r.output
    (camp / "campaign.yaml").write_text(m.replace("a@example.org", "mallory@example.org"))
    r = run("replay", camp)
    assert "REPLAY-MANIFEST-EMAIL" in r.output and "mallory@example.org" in r.output, r.output


def test_replay_refuses_files_the_archive_does_not_list_and_says_what_it_did_not_check(played):
    r = run("replay", played)
    assert r.exit_code == 0, r.output
    assert "not checked: campaign.yaml" in r.output
    # an unlisted order file, a stray folder, a stray entry in steps/
    d = played / "steps" / "003"
    listed = next(d.glob("orders-*.yaml"))
    shutil.copy(listed, d / listed.name.replace("orders-1-", "orders-2-"))
    r = run("replay", played)
    assert r.exit_code == 4 and "REPLAY-EXTRA-FILE" in r.output and "orders-2-" in r.output, r.output
    (d / listed.name.replace("orders-1-", "orders-2-")).unlink()
    (played / "steps" / "abc").mkdir()
    r = run("replay", played)
    assert r.exit_code == 4 and "steps/abc" in r.output, r.output
    (played / "steps" / "abc").rmdir()
    (played / "steps" / "003" / ".DS_Store").write_text("x")      # a file manager's: said, not refused
    r = run("replay", played)
    assert r.exit_code == 0 and "REPLAY-EXTRA-HIDDEN" in r.output, r.output
    # private/ and schemas/: said, not refused
    (played / "private" / "notes.txt").write_text("x")
    (played / "schemas" / "state.schema.json").write_text("{}")
    r = run("replay", played)
    assert r.exit_code == 0 and "private/: 1 file(s)" in r.output and "schemas/:" in r.output, r.output


def test_a_received_file_cannot_be_guessed_from_what_is_published(tmp_path):
    """Before: with a game master, the sha256 of a received file was in the state, report and
    mails, so the others could test guesses of a file made from the template (the Allies' open
    card picks were found in 179 guesses). Now they see a receipt keyed with the dice key; the
    sha256 comes with the step that carries the file out."""
    import hashlib
    camp = tmp_path / "bw"
    assert run("new", camp, "-s", "blitzwar-1939", "--id", "bw", "-p", "allies=A", "-p", "axis=B", "-p", "ussr=C").exit_code == 0
    allies = template(tmp_path, camp, "allies")
    assert run("adjudicate", camp, allies).exit_code == 6
    digest = hashlib.sha256(allies.read_bytes()).hexdigest()
    published = b"".join(p.read_bytes() for p in (camp / "steps" / "001").iterdir())   # what the mails carry, and more
    assert digest.encode() not in published and digest[:12].encode() not in published
    from pbem.core.campaign import Campaign
    from pbem.core.dice import receipt
    st = Campaign(camp).current()[1]
    key = (camp / "private" / "dice.key").read_text().strip()
    assert st["received"]["allies"]["sha256"] == receipt(key, allies.read_bytes())
    # the others' files complete the phase: its report gives the sha256
    for p in ("axis", "ussr"):
        r = run("adjudicate", camp, template(tmp_path, camp, p))
    assert r.exit_code in (0, 5), r.output
    rep = json.loads((camp / "steps" / "003" / "report.json").read_text())
    shown = {f["player"]: f for e in rep["events"] if e["type"] == "digests" for f in e["files"]}
    assert shown["allies"]["sha256"] == digest and shown["allies"]["receipt"] == st["received"]["allies"]["sha256"]
    assert run("replay", camp).exit_code == 0


def test_a_key_file_or_public_key_of_another_player_is_refused(tmp_path):
    """Tried as a new user (issue 17): `pbem key add CAMPAIGN allies axis.key` gave the Allies
    the Axis' public key, so the Allies could never sign (`pbem sign` signs as the key file's
    player) and one key stood for two players. Refused, at `key add` and at `new`, writing nothing."""
    for p in ("axis", "allies"):
        assert run("key", "new", "-p", p, "-o", tmp_path / f"{p}.key").exit_code == 0
    axis_pub = public(run("key", "new", "-p", "axis", "-o", tmp_path / "axis2.key").output)
    base = ["new", tmp_path / "c", "--scenario", "blitzwar-1939", "--id", "c", "--player", "axis=A",
            "--player", "allies=B", "--player", "ussr=C"]
    r = run(*base, "--player-key", f"allies={tmp_path / 'axis.key'}")
    assert r.exit_code != 0 and "KEY-PLAYER" in r.output and not (tmp_path / "c").exists(), r.output
    r = run(*base, "--player-key", f"axis={axis_pub}", "--player-key", f"allies={axis_pub}")
    assert r.exit_code != 0 and "KEY-DUPLICATE" in r.output and not (tmp_path / "c").exists(), r.output
    assert run(*base).exit_code == 0
    before = (tmp_path / "c" / "campaign.yaml").read_bytes()
    r = run("key", "add", tmp_path / "c", "allies", tmp_path / "axis.key")
    assert r.exit_code != 0 and "KEY-PLAYER" in r.output, r.output
    assert run("key", "add", tmp_path / "c", "axis", axis_pub).exit_code == 0
    before = (tmp_path / "c" / "campaign.yaml").read_bytes()
    r = run("key", "add", tmp_path / "c", "allies", axis_pub)
    assert r.exit_code != 0 and "KEY-DUPLICATE" in r.output, r.output
    assert (tmp_path / "c" / "campaign.yaml").read_bytes() == before


def test_a_secret_key_or_chain_file_given_to_the_campaign_is_warned_about(tmp_path):
    """`pbem new --player-key ROLE=FILE` and `--commit ROLE=FILE` read the player's SECRET files
    (the help even offered "or their key file"): a game master who asks the players for them can
    sign as any of them and knows every link. Accepted (your own file is fine), with a warning;
    the public key or head alone says nothing."""
    assert run("key", "new", "-p", "soviet", "-o", tmp_path / "soviet.key").exit_code == 0
    assert run("chain", "new", "-p", "soviet", "-o", tmp_path / "soviet.chain").exit_code == 0
    assert run("chain", "new", "-p", "western", "-o", tmp_path / "western.chain").exit_code == 0
    pub = tmp_path / "soviet.pub"
    pub.write_text(load_public(tmp_path / "soviet.key") + "\n")
    r = run("new", tmp_path / "c", "--scenario", "bfg-historical", "--id", "c", "--player", "soviet=A", "--player", "western=B",
            "--dice", "chain", "--commit", f"soviet={tmp_path / 'soviet.chain'}", "--commit", f"western={tmp_path / 'western.chain'}",
            "--player-key", f"soviet={tmp_path / 'soviet.key'}")
    assert r.exit_code == 0 and r.output.count("KEY-SECRET-FILE") == 3, r.output
    r = run("new", tmp_path / "d", "--scenario", "bfg-historical", "--id", "d", "--player", "soviet=A", "--player", "western=B",
            "--player-key", f"soviet={pub}")
    assert r.exit_code == 0 and "KEY-SECRET-FILE" not in r.output, r.output
    assert "never ask a player for theirs" in run("new", "--help").output


def load_public(key_file):
    from pbem.core.signing import load_key_file
    return load_key_file(key_file)["public"]


def test_adjudicate_names_a_signature_problem_with_the_files_other_problems(bw):
    """Every problem at once: a cut (unsigned) file for a stale state, mailed from another
    address, was refused for MAIL-FROM and the state alone; the missing signature came only once
    those were mended. Now all three are said at once, with and without a wrong sender."""
    tmp, camp = bw
    f = template(tmp, camp, "axis")
    f.write_bytes(re.sub(rb"(?m)^state: .*$", b"state: " + b"0" * 64, f.read_bytes()))   # another state
    from email.message import EmailMessage
    for sender, codes in (("axis@example.org", ("HASH-ORDERS-STATE", "SIG-MISSING")),
                          ("ussr@example.org", ("MAIL-FROM", "HASH-ORDERS-STATE", "SIG-MISSING"))):
        m = EmailMessage()
        m["From"], m["Subject"] = sender, "orders"
        m.set_content("attached\n")
        m.add_attachment(f.read_bytes(), maintype="application", subtype="yaml", filename="axis.yaml")
        (tmp / "o.eml").write_bytes(bytes(m))
        before = tree(camp)
        r = run("adjudicate", camp, tmp / "o.eml")
        assert r.exit_code != 0 and all(c in r.output for c in codes), (sender, r.output)
        assert tree(camp) == before
