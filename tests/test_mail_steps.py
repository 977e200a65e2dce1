"""The mails of every kind of step of every game (issues 16 and 23): several players awaited
(BlitzWAR at the start of every turn: `adjudicate --mail` crashed there, after archiving), a
file received while others are still awaited, a pending decision (one, or several at once),
one player awaited, the end of the game; Battle for Germany with two, three and four players.
Every mail of the examples stays small (the size bound), `pbem mail` writes any archived step's
messages again byte for byte, a failure to write them after archiving leaves the step archived
and says how to write them, and an incoming mail must come from its player's address."""
from __future__ import annotations

import json
import shutil
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core import games
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.errors import ExitCode
from pbem.core.kernel import awaited
from pbem.core.mail import compose, mail_name, result_phrase, step_messages, subject

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
# issue 16/23: a BlitzWAR mail was 847 KB, a four-player one 336 KB; "under ~150 KB"
MAIL_BOUND = 160_000

# (example, step, what kind of step it is): each kind each example has, and its heaviest step
KINDS = [
    ("blitzwar-1939", 1, "several awaited, one file received"),
    ("blitzwar-1939", 2, "one awaited, two files received"),
    ("blitzwar-1939", 3, "one awaited"),
    ("blitzwar-1939", 10, "decision"),
    ("blitzwar-1939", -1, "last step"),
    ("bfg-historical", 1, "decision"),
    ("bfg-historical", 3, "decision, the heaviest report"),
    ("bfg-historical", -1, "last step"),
    ("bfg-three-player", 1, "decision, three players"),
    ("bfg-three-player", 3, "one awaited, three players"),
    ("bfg-three-player", -1, "last step, three players"),
    ("bfg-four-player", 1, "decision, four players"),
    ("bfg-four-player", 3, "one awaited, four players"),
    ("bfg-four-player", -1, "last step, four players"),
    ("bfg-chain", 1, "hash chains"),
    ("bfg-chain-decisions", 3, "hash chains, decision, the heaviest state"),
]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def parse(data: bytes):
    return BytesParser(policy=policy.default).parsebytes(data)


def check_message(g, state: dict, manifest: dict, player: str, msg) -> str:
    """What every message says, whatever the step: the subject, To, what is awaited from
    whom, the reply commands for an awaited player only. Returns the body."""
    assert not msg.defects
    assert str(msg["Subject"]).strip() == subject(g, state)   # (a folded header may start on the next line)
    info = manifest["players"][player]
    assert info.get("email", "") in str(msg["To"] or "")
    body = msg.get_body(("plain",)).get_content()
    aw = awaited(state)
    mine = [a for a in aw if a["player"] == player]
    for a in aw:
        assert f"from the {a['player']} player ({manifest['players'][a['player']]['name']})" in body
    assert (f"--player {player} -o " in body) == bool(mine)
    assert ("that is you" in body) == bool(mine)
    for d in state.get("pending") or []:
        if any(a["player"] == d["player"] and a["for"] == "decision" for a in aw):
            assert d["id"] in body and d.get("prompt", "") in body
    for p in state.get("received") or {}:
        assert f"the orders of the {p} player" in body
    if state.get("result"):
        assert "The game is over" in body
    return body


@pytest.mark.parametrize("example,step,kind", KINDS, ids=[f"{e}-{s}" for e, s, _ in KINDS])
def test_every_kind_of_step_mails_and_stays_small(example, step, kind):
    camp = Campaign(EXAMPLES / example)
    if step == -1:                  # the last step, however many the example has
        step = int(camp.step_dirs()[-1].name)
    n, msgs, warnings, notes = step_messages(camp.root, step)
    sd = camp.root / "steps" / f"{step:03d}"
    state, raw = load_state_file(camp.state_path(sd))
    from pbem.core.data import load_ruleset
    g, _ = load_ruleset(state["scenario"])
    assert n == step and sorted(m.player for m in msgs) == sorted(camp.manifest["players"])
    assert not [w for w in warnings if w.code != "MAIL-MAP-SVG"], warnings
    for m in msgs:
        data = m.message.as_bytes(policy=policy.default)
        assert len(data) < MAIL_BOUND, (example, step, m.player, len(data))
        msg = parse(data)
        body = check_message(g, state, camp.manifest, m.player, msg)
        assert (sd / "report.txt").read_text("utf-8") in body
        atts = {a.get_filename(): a.get_payload(decode=True) for a in msg.iter_attachments()}
        assert atts[camp.state_path(sd).name] == raw
        assert atts["report.json"] == (sd / "report.json").read_bytes()
        png = atts.get(f"{state['campaign']}-{step:03d}-map.png")
        if png is not None:            # the preview: what a mail client shows, not the whole map
            import io

            from PIL import Image
            with Image.open(io.BytesIO(png)) as im:
                assert im.width <= 900 and im.height <= 680 and im.mode == "P"


def test_game_over_and_several_winners_in_subject_and_body():
    camp = Campaign(EXAMPLES / "bfg-historical")
    sd = camp.step_dirs()[-1]
    state, raw = load_state_file(camp.state_path(sd))
    from pbem.core.data import load_ruleset
    g, rs = load_ruleset(state["scenario"])
    report = json.loads((sd / "report.json").read_bytes())
    for result, said in (({"winner": "soviet", "draw": False, "reason": "Berlin falls"}, "soviet wins"),
                         ({"winner": "western", "winners": ["soviet", "western"], "draw": False, "reason": "r"}, "soviet and western win"),
                         ({"winner": None, "draw": True, "reason": "turn 47 played"}, "draw")):
        st = dict(state, result=result, phase="end", awaiting=None, pending=[])
        assert result_phrase(result) == said
        msgs, _, _ = compose(g=g, rs=None, manifest=camp.manifest, report=report, text="the report\n", state=st,
                             state_bytes=raw, report_bytes=b"{}", svg=False)
        for m in msgs:
            assert str(m.message["Subject"]).endswith(f"(game over: {said})")
            body = check_message(g, st, camp.manifest, m.player, m.message)
            assert "Nothing is awaited" not in body and result["reason"] in body


# ----------------------------------------------------------------------------- BlitzWAR by the command line
def _first_steps(example: str, tmp: Path, keep: int) -> Path:
    """A copy of the example campaign with steps 000..keep only."""
    src = EXAMPLES / example
    dst = tmp / example
    shutil.copytree(src, dst, ignore=lambda d, names: [n for n in names if Path(d).name == "steps" and n.isdigit()
                                                        and int(n) > keep])
    return dst


def test_blitzwar_several_awaited_by_mail_then_written_again(tmp_path):
    """Issue 16: the step that leaves two players awaited crashed `adjudicate --mail` (exit 70)
    after archiving it. Now: the mails, byte for byte those `pbem mail` writes from the
    example's own archive."""
    camp = _first_steps("blitzwar-1939", tmp_path, 0)
    orders = next((EXAMPLES / "blitzwar-1939" / "steps" / "001").glob("orders-*.yaml"))
    out = tmp_path / "outbox"
    r = run("adjudicate", camp, orders, "--mail", out)
    assert r.exit_code == ExitCode.WAITING, r.output
    assert "internal error" not in r.output and "MAIL-NOT-WRITTEN" not in r.output
    assert sorted(p.name for p in out.iterdir()) == [mail_name(1, p) for p in ("allies", "axis", "ussr")]
    msg = parse((out / mail_name(1, "axis")).read_bytes())
    assert str(msg["Subject"]).endswith("- step 001 (awaiting: axis orders, ussr orders)")
    body = msg.get_body(("plain",)).get_content()
    assert "orders from the axis player (Anna) - that is you" in body and "--player axis -o axis-bw39-002.yaml" in body
    body = parse((out / mail_name(1, "allies")).read_bytes()).get_body(("plain",)).get_content()
    assert "Your orders for this phase are in: nothing is awaited from you now." in body
    # the same bytes from the example's archive, by `pbem mail`
    again = tmp_path / "again"
    r = run("mail", EXAMPLES / "blitzwar-1939", "--step", 1, "-o", again)
    assert r.exit_code == 0, r.output
    for p in ("allies", "axis", "ussr"):
        assert (again / mail_name(1, p)).read_bytes() == (out / mail_name(1, p)).read_bytes()


def test_pbem_mail_refuses_to_overwrite_and_writes_one_player(tmp_path):
    camp = EXAMPLES / "bfg-four-player"
    out = tmp_path / "out"
    r = run("mail", camp, "--step", 3, "-o", out, "--to", "west-german")
    assert r.exit_code == 0 and sorted(p.name for p in out.iterdir()) == ["step-003-to-west-german.eml"], r.output
    first = (out / "step-003-to-west-german.eml").read_bytes()
    (out / "step-003-to-soviet.eml").write_bytes(b"an older message")
    r = run("mail", camp, "--step", 3, "-o", out)                  # nothing written: one exists
    assert r.exit_code == ExitCode.IO and "FILE-EXISTS" in r.output and "--force" in r.output, r.output
    assert (out / "step-003-to-soviet.eml").read_bytes() == b"an older message"
    assert len(list(out.iterdir())) == 2
    r = run("mail", camp, "--step", 3, "-o", out, "--force")
    assert r.exit_code == 0, r.output
    assert (out / "step-003-to-west-german.eml").read_bytes() == first
    assert (out / "step-003-to-soviet.eml").read_bytes().startswith(b"From: ")
    # the last step by default; --svg adds the whole map, zipped
    last = int(Campaign(camp).step_dirs()[-1].name)
    r = run("mail", camp, "-o", tmp_path / "last", "--to", "soviet", "--svg")
    assert r.exit_code == 0 and f"step {last:03d}" in r.output, r.output
    msg = parse((tmp_path / "last" / f"step-{last:03d}-to-soviet.eml").read_bytes())
    names = [a.get_filename() for a in msg.iter_attachments()]
    assert names[-2:] == [f"demo4-{last:03d}-map.png", f"demo4-{last:03d}-map.svg.zip"], names
    # usage errors
    copy = _first_steps("bfg-four-player", tmp_path, 1)
    before = sorted(str(p) for p in copy.rglob("*"))
    for args, code in (((camp, "--step", 99, "-o", tmp_path / "x"), "MAIL-NO-STEP"),
                       ((camp, "--to", "nobody", "-o", tmp_path / "x"), "MAIL-PLAYER"),
                       ((copy, "-o", copy / "steps" / "001", "--force"), "MAIL-OUTBOX"),
                       ((copy, "-o", copy / "private" / "out"), "MAIL-OUTBOX")):
        r = run("mail", *args)
        assert r.exit_code == ExitCode.USAGE and code in r.output, r.output
    assert not (tmp_path / "x").exists() and sorted(str(p) for p in copy.rglob("*")) == before
    r = run("adjudicate", copy, "--missing-orders", "--mail", copy / "steps" / "002")
    assert r.exit_code == ExitCode.USAGE and "MAIL-OUTBOX" in r.output, r.output
    assert sorted(str(p) for p in copy.rglob("*")) == before


def test_a_new_address_in_campaign_yaml_reaches_the_new_mails(tmp_path):
    """A player added to the e-mail list: `pbem mail` writes the old step to the new address."""
    camp = _first_steps("bfg-historical", tmp_path, 2)
    y = camp / "campaign.yaml"
    y.write_text(y.read_text("utf-8").replace("ben@example.org", "ben@new.example.org"), "utf-8")
    r = run("mail", camp, "--step", 2, "-o", tmp_path / "o", "--to", "western")
    assert r.exit_code == 0, r.output
    assert "ben@new.example.org" in str(parse((tmp_path / "o" / "step-002-to-western.eml").read_bytes())["To"])


def test_an_address_that_makes_no_address_is_refused_before_adjudicating(tmp_path):
    """Issue 17: an e-mail `c@x.org, evil@x.org` in campaign.yaml made the mail fail after
    archiving. Now `adjudicate --mail` refuses it first (nothing written), and so does `pbem mail`."""
    camp = _first_steps("bfg-historical", tmp_path, 0)
    y = camp / "campaign.yaml"
    y.write_text(y.read_text("utf-8").replace('"ben@example.org"', '"ben@example.org, evil@example.org"'), "utf-8")
    orders = next((EXAMPLES / "bfg-historical" / "steps" / "001").glob("orders-*.yaml"))
    before = sorted(str(p) for p in camp.rglob("*"))
    r = run("adjudicate", camp, orders, "--mail", tmp_path / "out")
    assert r.exit_code == ExitCode.INVALID and "error MAIL-ADDRESS" in r.output and "western" in r.output, r.output
    assert sorted(str(p) for p in camp.rglob("*")) == before and not (tmp_path / "out").exists()
    r = run("adjudicate", camp, orders, "--mail", tmp_path / "out", "--mail-from", "gm, x@y.org")
    assert r.exit_code == ExitCode.INVALID and "the sender 'gm, x@y.org'" in r.output, r.output
    r = run("mail", EXAMPLES / "bfg-historical", "--step", 1, "-o", tmp_path / "out", "--mail-from", "nobody")
    assert r.exit_code == ExitCode.INVALID and "error MAIL-ADDRESS" in r.output and not (tmp_path / "out").exists(), r.output


# ----------------------------------------------------------------------------- a failure after archiving
@pytest.mark.parametrize("how", ["bug", "disk"])
def test_a_mail_failure_leaves_the_step_archived_and_says_how_to_write_it(tmp_path, monkeypatch, how):
    import pbem.core.mail as mail
    from pbem.core.errors import Issue, PbemError
    camp = _first_steps("bfg-historical", tmp_path, 0)
    orders = next((EXAMPLES / "bfg-historical" / "steps" / "001").glob("orders-*.yaml"))
    real = mail.write_messages

    def broken(*a, **k):
        if how == "bug":
            raise TypeError("list indices must be integers or slices, not str")
        raise PbemError([Issue("FILE-WRITE", "cannot write outbox/x.eml: No space left on device")])
    monkeypatch.setattr(mail, "write_messages", broken)
    svg = ["--mail-svg", "--mail-from", "GM <gm@example.net>"] if how == "disk" else []
    r = run("adjudicate", camp, orders, "--mail", tmp_path / "outbox", *svg)
    assert r.exit_code == (ExitCode.INTERNAL if how == "bug" else ExitCode.IO), r.output
    assert "error MAIL-NOT-WRITTEN: step 001 is archived" in r.output, r.output
    again = f"pbem mail {camp} --step 1 -o {tmp_path / 'outbox'}" + (" --mail-from 'GM <gm@example.net>' --svg" if svg else "")
    assert again in r.output.replace("\n", " "), r.output
    assert (camp / "steps" / "001" / "report.json").is_file()
    monkeypatch.setattr(mail, "write_messages", real)
    r = run("mail", camp, "--step", 1, "-o", tmp_path / "outbox", *svg[:1] and ["--mail-from", "GM <gm@example.net>", "--svg"])
    assert r.exit_code == 0 and len(list((tmp_path / "outbox").iterdir())) == 2, r.output
    names = [a.get_filename() for a in parse((tmp_path / "outbox" / "step-001-to-soviet.eml").read_bytes()).iter_attachments()]
    assert names[-1].endswith(".svg.zip") == bool(svg), names
    assert run("replay", camp).exit_code == 0


# ----------------------------------------------------------------------------- who sent it
def _eml(path: Path, sender: str | None, yaml: bytes) -> Path:
    m = EmailMessage()
    if sender:
        m["From"] = sender
    m["To"], m["Subject"] = "gm@example.net", "my orders"
    m.set_content("Hello,\nmy orders are attached.\n")
    m.add_attachment(yaml, maintype="application", subtype="yaml", filename="orders.yaml")
    path.write_bytes(bytes(m))
    return path


def test_a_mail_not_from_the_player_is_refused_unless_accepted(tmp_path):
    camp = _first_steps("bfg-historical", tmp_path, 0)
    yaml = next((EXAMPLES / "bfg-historical" / "steps" / "001").glob("orders-*.yaml")).read_bytes()
    assert b"player: soviet" in yaml
    manifest = Campaign(camp).manifest
    anna = manifest["players"]["soviet"]["email"]
    before = sorted(str(p) for p in camp.rglob("*"))
    for sender in ("Ben <ben@example.org>", None):
        eml = _eml(tmp_path / "m.eml", sender, yaml)
        r = run("validate", camp, eml)
        assert r.exit_code == ExitCode.MISMATCH and "error MAIL-FROM" in r.output, r.output
        assert f"whose e-mail in campaign.yaml is {anna}" in r.output and "--any-sender" in r.output
        r = run("adjudicate", camp, eml, "--mail", tmp_path / "out")
        assert r.exit_code == ExitCode.MISMATCH and "error MAIL-FROM" in r.output and "nothing written" in r.output, r.output
        assert sorted(str(p) for p in camp.rglob("*")) == before and not (tmp_path / "out").exists()
    # the address compares without case; the name does not matter
    eml = _eml(tmp_path / "ok.eml", f"Someone <{anna.upper()}>", yaml)
    assert run("validate", camp, eml).exit_code == 0
    # accepted on purpose: a warning, and the step goes on
    eml = _eml(tmp_path / "m.eml", "Anna at work <anna@work.example>", yaml)
    r = run("adjudicate", camp, eml, "--any-sender")
    assert r.exit_code in (0, ExitCode.PENDING) and "warning MAIL-FROM" in r.output, r.output


def test_a_player_without_an_address_cannot_be_checked(tmp_path):
    camp = _first_steps("bfg-historical", tmp_path, 0)
    y = camp / "campaign.yaml"
    text = y.read_text("utf-8")
    y.write_text("\n".join(ln for ln in text.split("\n") if "anna@" not in ln), "utf-8")
    yaml = next((EXAMPLES / "bfg-historical" / "steps" / "001").glob("orders-*.yaml")).read_bytes()
    r = run("validate", camp, _eml(tmp_path / "m.eml", "x@y.org", yaml))
    assert r.exit_code == 0 and "warning MAIL-FROM-UNCHECKED" in r.output, r.output


# ----------------------------------------------------------------------------- the toy game: every kind, to the end
@pytest.fixture
def toy():
    from tests.toygame import GAME
    games.register("toy", GAME)
    yield
    games.unregister("toy")


def test_toy_game_by_mail_from_start_to_end(tmp_path, toy):
    """Three players at once, files received one at a time, two decisions pending at once, the
    end of the game: `adjudicate --mail` at every step, each message right for its reader."""
    from tests.test_plugin_contract import PLAYERS, new, orders, seal, state_of, write
    camp = new(tmp_path, "--standing", "cyan:auto")
    secret = {p: seal(camp, tmp_path, p, 1) for p in PLAYERS}
    out = tmp_path / "outbox"
    manifest = Campaign(camp).manifest
    from pbem.core.data import load_ruleset
    k = 0

    def adjudicate(path: Path, expect) -> tuple[dict, dict]:
        nonlocal k
        k += 1
        r = run("adjudicate", camp, path, "--mail", out)
        assert r.exit_code == expect, r.output
        st = state_of(camp)
        g, _ = load_ruleset(st["scenario"])
        bodies = {}
        for p in PLAYERS:
            msg = parse((out / mail_name(k, p)).read_bytes())
            bodies[p] = check_message(g, st, manifest, p, msg)
            assert "(no map picture: this game cannot draw one yet)" in bodies[p]
        return st, bodies

    def answers(st):
        for d in st["pending"]:
            yield write(tmp_path / f"{d['id']}.yaml", orders(camp, d["player"], f"decisions:\n  - id: {d['id']}\n"
                                                            f"    choice: {{attack: {d['context']['score']}, defend: 0}}\n"))
    for turn in (1, 2):
        for i, p in enumerate(PLAYERS):
            extra = (f"seal:\n  - {{id: {secret[p]['seal']['id']}, commitment: {secret[p]['seal']['commitment']}}}\n" if turn == 1
                     else f"open:\n  - {{id: {secret[p]['open']['id']}, nonce: '{secret[p]['open']['nonce']}', choice: 1}}\n")
            f = write(tmp_path / f"{p}-{turn}.yaml", orders(camp, p, "phases:\n  - {phase: play, bet: 2}\n" + extra))
            st, bodies = adjudicate(f, ExitCode.WAITING if i < 2 else ExitCode.PENDING)
            if i < 2:
                assert "Your orders for this phase are in" in bodies[p]
        assert sorted(a["player"] for a in awaited(st)) == ["amber", "blue"]          # two decisions at once
        assert subject(None, st).endswith("(awaiting: amber decision, blue decision)")
        assert "Nothing is awaited from you now." in bodies["cyan"]
        first, second = list(answers(st))
        st, bodies = adjudicate(first, ExitCode.WAITING)
        st, bodies = adjudicate(second, ExitCode.OK)
    assert st["result"] and all("The game is over: " in b for b in bodies.values())
    assert run("replay", camp).exit_code == 0


def test_compose_has_one_place_for_every_body_line():
    """Lines every message carries (an archive head, a signature: to come) go in through
    ``footer`` and :func:`pbem.core.mail.body_lines`, before the closing line."""
    import types

    from pbem.core.mail import BodyContext, body_lines
    camp = Campaign(EXAMPLES / "bfg-historical")
    sd = camp.step_dirs()[1]
    state, raw = load_state_file(camp.state_path(sd))
    report = json.loads((sd / "report.json").read_bytes())
    g = types.SimpleNamespace()                      # a game without a map or phase titles
    msgs, _, notes = compose(g=g, rs=None, manifest=camp.manifest, report=report, text="the report\n", state=state,
                             state_bytes=raw, report_bytes=b"{}", footer=["archive head: abc123"])
    assert notes == ["no map picture: this game cannot draw one yet"]
    for m in msgs:
        lines = m.message.get_body(("plain",)).get_content().rstrip("\n").split("\n")
        assert lines[0] == "the report" and lines[-2] == "archive head: abc123" and lines[-1].startswith("Written by pbem")
        ctx = BodyContext(g=g, state=state, manifest=camp.manifest, player=m.player, state_file=report["output"]["state"],
                          text="the report\n", attachments=[], notes=notes, footer=["archive head: abc123"])
        assert body_lines(ctx)[-2:] == lines[-2:]


def test_the_start_is_mailed_to_every_player_with_the_initial_state(tmp_path):
    """Tried as a new user by mail (issue 17): nothing mailed the initial state (`pbem mail
    --step 0` was a usage error), so the players could not write their first orders from a mail.
    Now `pbem new` says how and `pbem mail --step 0` writes the start: the state, who plays
    (and signs), the dice, what is awaited and the archive's head after step 000."""
    from email import policy
    from email.parser import BytesParser
    r = run("new", tmp_path / "c", "--scenario", "bfg-historical", "--id", "c",
            "--player", "soviet=Anna:anna@example.org", "--player", "western=Ben:ben@example.org")
    assert r.exit_code == 0 and "pbem mail " in r.output and "--step 0" in r.output, r.output
    r = run("mail", tmp_path / "c", "--step", "0", "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    m = BytesParser(policy=policy.default).parsebytes((tmp_path / "out" / "step-000-to-western.eml").read_bytes())
    body = m.get_body(("plain",)).get_content()
    names = [a.get_filename() for a in m.iter_attachments()]
    assert names[0] == "c-000-t01-soviet.replacement.yaml" and "report.json" not in names
    assert "the start" in body and "Anna <anna@example.org>" in body and "Archive head after step 000: " in body
    assert "--report report.json" not in body
    r = run("head", tmp_path / "c", "--check", tmp_path / "out" / "step-000-to-western.eml")
    assert r.exit_code == 0 and "MATCH" in r.output, r.output
    # the default is still the last adjudicated step: none yet
    r = run("mail", tmp_path / "c", "-o", tmp_path / "out2")
    assert r.exit_code != 0 and "MAIL-NO-STEP" in r.output, r.output
