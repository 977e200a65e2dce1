"""Issue 20's try-out by mail, on examples/blitzwar-1939: the steps where the sea and air phases
stop for a decision of a player (an interception, 13.2; which fleet or U-boat loses a unit, 12.2;
another round of the Battle of Britain, 13.4.3; and any decision of those phases the example
holds) are taken from the archive, and for each:

* ``pbem mail`` writes the message to the player the rulebook names (13.2: the side whose air
  units may intercept, never the phasing side; 12.2 and losses: the owner of the units; 13.4.3:
  the Axis player decides the rounds), with the decision, its prompt and the reply command, and to
  the others a message that asks nothing of them;
* every message shows only what the table shows: no place the phasing player's later orders of
  that turn name (they wait in the archive, not in the state: ``dice.resume: files``), and none of
  an opponent's sealed card picks still queued (10.1);
* the answer file, arriving by e-mail from its player's address (the inbound path of
  ``pbem validate``/``pbem adjudicate`` with an .eml, pbem/cli/arrivals.py), resumes the phase:
  the step it makes is the example's own next step, byte for byte; from another address it is
  refused and nothing is written.
"""
from __future__ import annotations

import re
import shutil
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.errors import ExitCode
from pbem.core.mail import mail_name
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"
SEA_AIR_PHASES = re.compile(r"^\w+\.(4\.naval|5\.air|6\.sea-transport)$")
DECISION = re.compile(r"^  decision (t\d+\.\S+); options:", re.M)
STEP_MARKS = re.compile(r'<[^>]*class="(?:arrow|combat|step-|mark|beachhead|landing|naval|air)[^"]*"[^>]*>[^<]*')


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(autouse=True)
def _map_as_svg(monkeypatch):
    """The mails carry the map as a zipped SVG (as where no PNG converter is): its text is checked
    with the rest, and no PNG is rendered (seconds a message)."""
    from pbem.core import png
    monkeypatch.setattr(png, "png_converter", lambda: None)


def _sea_air_decisions() -> list[tuple[int, str]]:
    """(step, kind) of the first step stopping at each kind of decision of the naval, air and sea
    transport phases (found by the reports, which name every decision a step stops at)."""
    camp = Campaign(EXAMPLE)
    seen: dict[str, int] = {}
    for sd in camp.step_dirs():
        rep = sd / "report.txt"
        if not rep.exists():
            continue
        for did in DECISION.findall(rep.read_text("utf-8")):
            phase = ".".join(did.split(".")[1:4])
            if not SEA_AIR_PHASES.match(phase):
                continue
            state, _ = load_state_file(camp.state_path(sd))
            for d in state.get("pending") or []:
                if d["id"] == did and d["kind"] not in seen:
                    seen[d["kind"]] = int(sd.name)
    return sorted((n, k) for k, n in seen.items())


DECISIONS = _sea_air_decisions()


def test_the_example_stops_for_the_sea_and_air_decisions_of_the_try_out():
    kinds = {k for _, k in DECISIONS}
    assert {"intercept", "naval-losses", "battle-of-britain"} <= kinds, DECISIONS
    # the check that a mail hides the phasing player's later orders proves something only where
    # there are some: the example has such decisions
    assert any(any(_later_places(step, _pending(step, kind)[1])) for step, kind in DECISIONS)


def _side_of(state: dict, cid: str) -> str | None:
    c = state["counters"].get(cid)
    return (state.get("war") or {}).get(c["nation"]) if c else None


def _pending(step: int, kind: str) -> tuple[dict, dict, bytes]:
    camp = Campaign(EXAMPLE)
    sd = EXAMPLE / "steps" / f"{step:03d}"
    state, raw = load_state_file(camp.state_path(sd))
    d = next(x for x in state["pending"] if x["kind"] == kind)
    return state, d, raw


def _messages(step: int, tmp: Path) -> dict[str, object]:
    out = tmp / f"mail-{step}"
    r = run("mail", EXAMPLE, "--step", step, "-o", out)
    assert r.exit_code == 0, r.output
    return {p: BytesParser(policy=policy.default).parsebytes((out / mail_name(step, p)).read_bytes())
            for p in Campaign(EXAMPLE).manifest["players"]}


def _all_text(msg) -> str:
    """The body and every attachment of a message, as text (the map's SVG unzipped)."""
    import io
    import zipfile
    parts = [msg.get_body(("plain",)).get_content()]
    for a in msg.iter_attachments():
        data = a.get_payload(decode=True)
        if a.get_filename().endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                svg = b"".join(z.read(n) for n in z.namelist()).decode("utf-8")
            # the map names every zone: what the step marks on it (arrows, combats, the step's panel)
            parts += STEP_MARKS.findall(svg)
            continue
        parts.append(data.decode("utf-8"))
    assert any(a.get_filename().endswith(".svg.zip") for a in msg.iter_attachments())    # the map is checked too
    return "\n".join(parts)


def _later_places(step: int, d: dict) -> tuple[set[str], list[tuple[str, str]]]:
    """The zones and sea zones the phasing player's file names in the phases after the one
    stopped (attack targets, beachheads, landing zones, the ends of moves, shipping ports,
    attack_neutral countries), less those the state before that file already showed; and the
    (counter, where it goes) of those later orders."""
    files = sorted((EXAMPLE / "steps").glob(f"*/orders-*-{d['phase'].split('.')[0]}-*.yaml"))
    docs = [(f, load_yaml(f.read_bytes(), str(f)).data) for f in files if int(f.parent.name) <= step]
    f, doc = [(f, x) for f, x in docs if d["phase"] in [ph["phase"] for ph in x.get("phases") or []]][-1]
    names = [ph["phase"] for ph in doc["phases"]]
    later = doc["phases"][names.index(d["phase"]) + 1:]
    places: set[str] = set()
    moves: list[tuple[str, str]] = []
    for ph in later:
        places.update(str(c) for c in ph.get("attack_neutral") or [])
        for key in ("attacks", "land", "transport", "moves", "strategic", "back", "air"):
            for e in ph.get(key) or []:
                for k in ("target", "beachhead", "to"):
                    if e.get(k):
                        places.add(str(e[k]))
                if e.get("path"):
                    places.add(str(e["path"][-1]))
                dest = e.get("beachhead") or e.get("to") or (e.get("path") or [None])[-1]
                if e.get("counter") and dest:
                    moves.append((str(e["counter"]), str(dest)))
    before = int(f.parent.name) - 1
    sd = EXAMPLE / "steps" / f"{before:03d}"
    shown = Campaign(EXAMPLE).state_path(sd).read_text("utf-8") + (sd / "report.txt").read_text("utf-8")
    return {p for p in places if not re.search(rf"\b{re.escape(p)}\b", shown)}, moves


@pytest.mark.parametrize("step,kind", DECISIONS, ids=[k for _, k in DECISIONS])
def test_the_mail_goes_to_the_player_the_rulebook_names_and_shows_only_the_table(step, kind, tmp_path):
    state, d, raw = _pending(step, kind)
    phasing = d["phase"].split(".")[0]
    player = d["player"]
    # the player the rulebook names
    counters = [o for o in d["options"] if o in state["counters"]]
    assert all(_side_of(state, c) == player for c in counters), d        # one's own units only (12.2, 13.2)
    if kind == "intercept":
        assert player != phasing and d["id"].endswith(f".intercept.{player}")   # 13.2: the other side
    elif kind == "battle-of-britain":
        assert player == "axis"                                                  # 13.4.3: the Axis player's choice
    elif kind == "naval-losses":
        assert counters and d["options"] == counters                             # 12.2: the owner's units
    msgs = _messages(step, tmp_path)
    for p, msg in msgs.items():
        body = msg.get_body(("plain",)).get_content()
        mine = p == player
        assert (d["id"] in body and d["prompt"] in body) == mine or (d["id"] in body and not mine), (p, d["id"])
        assert ("that is you" in body) == mine, p
        assert (f"--player {p} -o " in body) == mine, p
        atts = {a.get_filename(): a.get_payload(decode=True) for a in msg.iter_attachments()}
        assert atts[Campaign(EXAMPLE).state_path(EXAMPLE / "steps" / f"{step:03d}").name] == raw
    # only what the table shows: no place the phasing player's later orders of the turn name
    hidden, moves = _later_places(step, d)     # may be empty for one decision: checked for all below
    for p, msg in msgs.items():
        text = _all_text(msg)
        for place in hidden:
            assert not re.search(rf"\b{re.escape(place)}\b", text), (p, place)
        # no order file of a phase not run yet goes with the mail
        assert not [a.get_filename() for a in msg.iter_attachments() if a.get_filename().startswith("orders-")]
    # nor an opponent's queued cards: the sealed picks still closed stay commitments (10.1)
    for sid, s in (state.get("sealed") or {}).items():
        if s.get("opened"):
            continue
        opening = load_yaml((EXAMPLE / "private" / f"{sid}.opening.yaml").read_bytes(), sid).data
        for p, msg in msgs.items():
            if p == s["player"]:
                continue
            text = _all_text(msg)
            assert opening["nonce"] not in text and s["commitment"] in text, (p, sid)
    for p, msg in msgs.items():
        st = load_yaml(next(a for a in msg.iter_attachments() if a.get_filename().endswith(".yaml"))
                       .get_payload(decode=True), "state").data
        for cid, dest in moves:            # the later orders are not carried out in what is sent
            assert st["counters"][cid]["at"] != dest and st["counters"][cid].get("beachhead") != dest, (p, cid, dest)
        for side, cards in (st.get("cards") or {}).items():
            if side != p and any(s.get("player") == side for s in (st.get("sealed") or {}).values()):
                assert all(q["card"] == "sealed" for q in cards.get("queue") or []), (p, side)


def _eml(yaml: bytes, sender: str, name: str) -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = "Game Master <gm@example.net>"
    m["Subject"] = "Re: [pbem] blitzwar bw39 - my answer"
    m.set_content("My answer is attached.\n")
    m.add_attachment(yaml, maintype="application", subtype="x-yaml", filename=name)
    return m.as_bytes(policy=policy.SMTP)


def _copy_until(tmp: Path, step: int) -> Path:
    dst = tmp / "bw39"
    shutil.copytree(EXAMPLE, dst, ignore=lambda d, names: [n for n in names if Path(d).name == "steps" and n.isdigit()
                                                          and int(n) > step])
    return dst


@pytest.mark.parametrize("step,kind", [x for x in DECISIONS if x[1] in ("intercept", "naval-losses")],
                         ids=lambda x: str(x))
def test_an_answer_arriving_by_mail_resumes_the_phase(step, kind, tmp_path):
    state, d, _ = _pending(step, kind)
    nxt = EXAMPLE / "steps" / f"{step + 1:03d}"
    answer = next(nxt.glob(f"orders-*-{d['player']}-*.yaml"))
    assert d["id"] in answer.read_text("utf-8")
    camp = _copy_until(tmp_path, step)
    manifest = Campaign(camp).manifest
    who = manifest["players"][d["player"]]
    # from another player's address: refused, nothing written (MAIL-FROM)
    other = next(p for p in manifest["players"] if p != d["player"])
    wrong = tmp_path / "wrong.eml"
    wrong.write_bytes(_eml(answer.read_bytes(), manifest["players"][other]["email"], "answer.yaml"))
    before = sorted(str(p) for p in camp.rglob("*"))
    r = run("adjudicate", camp, wrong)
    assert r.exit_code != 0 and "MAIL-FROM" in r.output, r.output
    assert sorted(str(p) for p in camp.rglob("*")) == before
    # from the player's address: validated, adjudicated, the phase resumes
    eml = tmp_path / "answer.eml"
    eml.write_bytes(_eml(answer.read_bytes(), f"{who['name']} <{who['email']}>", "answer.yaml"))
    r = run("validate", camp, eml)
    assert r.exit_code == 0, r.output
    out = tmp_path / "outbox"
    r = run("adjudicate", camp, eml, "--mail", out)
    assert r.exit_code in (ExitCode.OK, ExitCode.PENDING, ExitCode.WAITING), r.output
    assert "resuming turn" in r.output and d["id"] in r.output
    made = camp / "steps" / f"{step + 1:03d}"
    # the archive keeps the YAML taken out of the mail byte for byte, and the step is the example's own
    assert next(made.glob("orders-*.yaml")).read_bytes() == answer.read_bytes()
    ours = Campaign(camp).state_path(made)
    assert ours.read_bytes() == Campaign(EXAMPLE).state_path(nxt).read_bytes()
    assert (made / "report.json").read_bytes() == (nxt / "report.json").read_bytes()
    new, _ = load_state_file(ours)
    assert d["id"] not in [x["id"] for x in new.get("pending") or []]
    assert sorted(p.name for p in out.iterdir()) == sorted(mail_name(step + 1, p) for p in manifest["players"])
