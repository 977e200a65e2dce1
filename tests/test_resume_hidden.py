"""Issue 20 end to end: a game master's Battle for Germany campaign (receipts) whose Soviet
combat phase stops at a decision with more attacks ordered after it. What the other players
receive of that step (the state file, the report, the mails of `pbem mail`, the book) holds none
of the attacks still to come, and the archived order file is named by its receipt, not its
sha256; answering reads the file back from the archive and carries the phase on; the archive
replays. (The kernel's part, and that the result is the old form's: tests/core/
test_resume_by_reference.py; an old campaign replaying: tests/test_examples.py.)"""
from __future__ import annotations

import email
import hashlib
import json
import re
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.core.errors import ExitCode

EX = Path(__file__).resolve().parent.parent / "examples" / "bfg-chain-decisions" / "steps" / "001"
LATER = ["sov-1gt, sov-2gt", "sov-3uf, sov-46", "bg-1, bg-2", "wg-5pz, wg-66", "wg-10, wg-76pz",
         '"sov-1gt", "sov-2gt"', '"sov-3uf", "sov-46", "sov-6gt"', '"bg-1", "bg-2"', '"wg-10", "wg-76pz"']


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return r


def _texts(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.suffix in (".yaml", ".json", ".txt", ".html", ".eml"):
            raw = p.read_text(encoding="utf-8", errors="replace")
            if p.suffix == ".eml":
                msg = email.message_from_string(raw)
                raw = "\n".join((part.get_payload(decode=True) or b"").decode("utf-8", "replace")
                                for part in msg.walk() if not part.is_multipart())
            out[str(p)] = raw
    return out


def _leaks(texts: dict[str, str]) -> list[tuple[str, str]]:
    return [(n, w) for n, t in texts.items() for w in LATER if w in t]


def test_a_pending_step_shows_none_of_the_orders_to_come(tmp_path):
    camp = tmp_path / "c"
    new_campaign(camp, scenario="bfg-historical", campaign_id="nogm-dec",
                 players={"soviet": {"name": "Anna", "email": "anna@example.org"},
                          "western": {"name": "Ben", "email": "ben@example.org"}},
                 options={"german_east_front": False}, key_hex="11" * 32)
    _, st0 = Campaign(camp).current()
    assert st0["dice"]["resume"] == "files" and st0["dice"]["receipts"]
    src = (sorted(EX.glob("orders-*.yaml"))[0]).read_text(encoding="utf-8")
    orders = tmp_path / "o1.yaml"
    orders.write_text(re.sub(r"(?m)^state: .*$", f"state: {st0['hash']}", src), encoding="utf-8")
    r = run("adjudicate", camp, orders)
    assert "waiting for a" in r.output, r.output
    step = camp / "steps" / "001"
    sha = hashlib.sha256(orders.read_bytes()).hexdigest()
    names = [p.name for p in step.iterdir()]
    assert not any(sha[:12] in n for n in names), names          # named by its receipt
    assert run("mail", camp, "-o", tmp_path / "mail").exit_code == 0
    assert run("book", camp, "-o", tmp_path / "book").exit_code == 0
    seen = {**_texts(tmp_path / "mail"), **_texts(tmp_path / "book")}
    seen.update({str(p): p.read_text(encoding="utf-8") for p in step.iterdir() if not p.name.startswith("orders-")})
    assert len([n for n in seen if n.endswith(".eml")]) == 2 and any(n.endswith(".html") for n in seen)
    assert not _leaks(seen)
    assert not [n for n, t in seen.items() if sha in t]          # nor its sha256 (a guess could be tested)
    assert "waits for a decision" in "".join(t for n, t in seen.items() if n.endswith(".html"))
    # answering: the file is read back from the archive; the phase goes on to the end
    for k in range(2, 30):
        _, st = Campaign(camp).current()
        if not st.get("pending"):
            break
        for p in sorted({d["player"] for d in st["pending"]}):
            ans = tmp_path / f"a{k}-{p}.yaml"
            run("orders", "template", camp, "--player", p, "-o", ans)
            text = ans.read_text(encoding="utf-8")
            for d in st["pending"]:
                text = text.replace("choice: ''", f"choice: {json.dumps(d['options'][0])}", 1)
            ans.write_text(text, encoding="utf-8")
            r = run("adjudicate", camp, ans)
            assert r.exit_code in (ExitCode.OK, ExitCode.PENDING, ExitCode.WAITING), r.output
    _, st = Campaign(camp).current()
    assert not st.get("pending") and st["phase"] != "soviet.combat"
    rep = (camp / "steps" / f"{st['step']:03d}" / "report.json").read_text(encoding="utf-8")
    assert sha in rep                                              # given once carried out
    r = run("replay", camp)
    assert r.exit_code == 0, r.output
