"""The PBEM round trip without a game master (issue: map pictures, e-mail, dice without a
referee): two players exchange only the files pbem writes, as e-mail; each order file comes
with its writer's chain reveal, the other player answers with theirs; pbem adjudicates from the
.eml files, writes the outgoing messages with the report, the state and the map picture; a
third person replays the archive and confirms every die and link."""
from __future__ import annotations

import email
import json
import shutil
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.core.png import png_converter


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return r


def mail(path: Path, sender: str, subject: str, attachment: Path) -> Path:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "other@example.org", subject
    m.set_content("Here you are.\n")
    m.add_attachment(attachment.read_bytes(), maintype="application", subtype="yaml", filename=attachment.name)
    path.write_bytes(m.as_bytes())
    return path


ADDRESS = {"soviet": "Anna <anna@example.org>", "western": "Ben <ben@example.org>"}


def test_two_players_one_turn_by_mail_without_a_referee(tmp_path: Path) -> None:
    for p in ("soviet", "western"):
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    camp = tmp_path / "camp"
    r = run("new", camp, "--scenario", "bfg-historical", "--id", "rt", "--player", "soviet=Anna:anna@example.org",
            "--player", "western=Ben:ben@example.org", "--dice", "chain", "--auto-decisions",
            "--commit", f"soviet={tmp_path / 'soviet.chain'}", "--commit", f"western={tmp_path / 'western.chain'}")
    assert r.exit_code == 0, r.output
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    step, linked = 0, []
    for n, (player, other) in enumerate([("soviet", "western"), ("western", "soviet")], start=1):
        orders = tmp_path / f"{player}.yaml"
        assert run("orders", "template", camp, "-p", player, "-o", orders).exit_code == 0
        text = orders.read_text()
        if player == "soviet":  # 12.2.1: the West Germans attack twice on turn 1
            i = text.index("  - phase: west-german.combat")
            j = text.index("attacks: []", i)
            text = (text[:j] + "attacks:\n      - {target: '1601', units: [wg-13ss]}\n"
                    "      - {target: '1801', units: [wg-5pz, wg-66, wg-7]}" + text[j + len("attacks: []"):])
            orders.write_text(text)
        # each from the player's own address in campaign.yaml (another is refused: MAIL-FROM)
        orders_mail = mail(tmp_path / f"{player}-{n}.eml", ADDRESS[player], "my orders", orders)
        # the other player has received the orders: validates them
        assert run("validate", camp, orders_mail).exit_code == 0
        r = run("adjudicate", camp, orders_mail, "--mail", outbox)
        assert r.exit_code in (0, 6), r.output
        step += 1
        if r.exit_code == 6:
            # the orders roll dice: archived (and mailed) first, then every player sends the
            # next link of their chain for them (issue 17: no link before the orders are archived)
            reveals = {}
            for p in ("soviet", "western"):
                out = tmp_path / f"reveal-{p}-{n}.yaml"
                assert run("chain", "reveal", tmp_path / f"{p}.chain", camp, "-o", out).exit_code == 0
                reveals[p] = mail(tmp_path / f"{p}-reveal-{n}.eml", ADDRESS[p], "my link", out)
            # the other player's reveal mailed by the phasing player: refused, nothing written
            relayed = mail(tmp_path / f"relayed-{n}.eml", ADDRESS[player], "their link", tmp_path / f"reveal-{other}-{n}.yaml")
            r = run("adjudicate", camp, "--reveal", reveals[player], "--reveal", relayed, "--mail", outbox)
            assert r.exit_code == 4 and "error MAIL-FROM" in r.output and f"(player: {other})" in r.output, r.output
            r = run("adjudicate", camp, "--reveal", reveals["soviet"], "--reveal", reveals["western"], "--mail", outbox)
            assert r.exit_code == 0, r.output
            step += 1
            linked.append(step)
        sent = sorted(outbox.glob(f"step-{step:03d}-*.eml"))
        assert [p.name for p in sent] == [f"step-{step:03d}-to-soviet.eml", f"step-{step:03d}-to-western.eml"]
        for p in sent:
            msg = email.message_from_bytes(p.read_bytes(), policy=default)
            names = [a.get_filename() for a in msg.iter_attachments()]
            # the map: a PNG preview where a converter is installed (issue 8), else the SVG, zipped
            assert any(x.endswith(".png" if png_converter() else ".svg.zip") for x in names) and "report.json" in names
    # a third person, with the archive only
    audit = tmp_path / "audit"
    shutil.copytree(camp, audit)
    r = run("replay", audit)
    assert r.exit_code == 0 and f"REPLAY OK: {step} step(s)" in r.output, r.output
    assert linked and r.output.count("2 chain link(s) verified") == len(linked)
    for k in linked:
        rep = json.loads((audit / "steps" / f"{k:03d}" / "report.json").read_text())
        for roll in rep["rolls"]:
            r = run("dice", "verify", audit, roll["label"])
            assert r.exit_code == 0 and "MATCH" in r.output
