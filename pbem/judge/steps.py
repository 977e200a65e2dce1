"""Adjudicating for the judge (under the campaign's lock): the same path as ``pbem
adjudicate`` (:func:`pbem.core.step.adjudicate_campaign`) and ``--mail``
(:func:`pbem.core.mail.step_messages`), with the campaign's journal around it so that a judge
killed at any point and started again neither loses nor repeats anything."""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from ..core.errors import Issue, PbemError
from ..core.kernel import awaited
from .config import CampaignConf
from .journal import Journal
from .mailbox import Claimed
from .replies import Incoming

if TYPE_CHECKING:
    from pathlib import Path

    from ..core.campaign import Campaign
    from .judge import Judge


def journal_of(cc: CampaignConf) -> Journal:
    return Journal(cc.folder / "judge" / "journal.jsonl")


def keep_part(cc: CampaignConf, kind: str, step: int, name: str, raw: bytes, *, replace: bool = False) -> Path:
    """A player's part kept with the campaign until its step is made (``judge/KIND/NNN/NAME.yaml``,
    NNN the step it was written against): a reveal, a part of an end; the first one stays
    unless ``replace``. Its path."""
    from ..core.files import atomic_write
    folder = cc.folder / "judge" / kind / f"{step:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    mine = folder / f"{name}.yaml"
    if replace or not mine.exists():
        atomic_write(mine, raw, overwrite=True)
    return mine


def archived_as(cc: CampaignConf, step: int, sha: str | None, input_hash: str | None = None) -> bool:
    """Whether step ``step`` is in the archive and holds the order file of sha256 ``sha`` (or,
    without one, was made from the state of hash ``input_hash``): a judge killed after
    archiving it, before recording so."""
    import json
    d = cc.folder / "steps" / f"{step:03d}"
    if not d.is_dir():
        return False
    if sha is not None:     # the order file, or the reveal, the step archived (whatever its name there)
        return any(hashlib.sha256(p.read_bytes()).hexdigest() == sha for p in d.iterdir() if p.is_file())
    try:
        rep = json.loads((d / "report.json").read_bytes())
    except (OSError, ValueError):
        return False
    return (rep.get("input") or {}).get("hash") == input_hash or rep.get("input_hash") == input_hash


def send_step(judge: Judge, cc: CampaignConf, j: Journal, step: int, now: datetime) -> None:
    """The mails of archived step ``step`` to every player (what ``adjudicate --mail`` writes),
    each once; recorded as ``mailed``."""
    from ..core.mail import step_messages
    if any(r.get("event") == "mailed" and r.get("step") == step for r in j.records):
        return
    try:
        _, msgs, warnings, notes = step_messages(cc.folder, step, sender=judge.cfg.address)
    except Exception as e:  # noqa: BLE001 - the step is archived: said once, tried again next round, never blocking
        _mail_failed(judge, cc, j, step, e, now)
        return
    from email import policy
    sent = 0
    for m in msgs:
        if m.message["To"] is None:
            judge.log(now, f"{cc.id}: step {step:03d}: the {m.player} player has no e-mail in campaign.yaml: no mail")
            continue
        sent += judge.sender.send(f"{cc.id}-{m.filename[:-4]}", m.message.as_bytes(policy=policy.default))
    sent += _observers(judge, cc, step)
    for w in warnings:
        if w.code not in ("MAIL-NO-ADDRESS", "MAIL-MAP-SVG"):
            judge.log(now, f"{cc.id}: step {step:03d}: {w.code}: {w.message}")
    judge.fault("mailed")
    j.add(event="mailed", step=step, at=_iso(now))
    judge.log(now, f"{cc.id}: step {step:03d}: {sent} mail(s) written to {judge.cfg.outbox}")


def _observers(judge: Judge, cc: CampaignConf, step: int) -> int:
    """The public mail of step ``step`` to each observer of the campaign, once: the step's report
    (what every player reads) and the archive's head; never a player's own mail (what is
    awaited from him, his link requests, his private notes)."""
    if not cc.observers:
        return 0
    from ..core.archive import head_lines
    from .replies import compose
    report = cc.folder / "steps" / f"{step:03d}" / "report.txt"
    text = report.read_text("utf-8") if report.is_file() else "(the step has no report)\n"
    body = ([f"You observe the campaign {cc.id}: the public report of step {step:03d}.", ""]
            + text.rstrip("\n").split("\n") + [""] + head_lines(cc.folder, cc.id, step))
    n = 0
    for addr in cc.observers:
        key = hashlib.sha256(addr.lower().encode()).hexdigest()[:12]
        name = f"{cc.id}-step-{step:03d}-to-observer-{key}"
        n += judge.sender.send(name, compose(sender=judge.cfg.address, to=addr, subject=f"[pbem] {cc.id}: step {step:03d} (observer)",
                                             body=body, seed=name, kind="observer", campaign=cc.id))
    return n


def _mail_failed(judge: Judge, cc: CampaignConf, j: Journal, step: int, e: Exception, now: datetime) -> None:
    """MAIL-NOT-WRITTEN, as `adjudicate --mail` says it: the step stays archived; the game master
    is told once (the judge tries again at every round)."""
    if any(r.get("event") == "mail-failed" and r.get("step") == step for r in j.records):
        return
    why = "; ".join(i.message for i in e.issues) if isinstance(e, PbemError) else f"{type(e).__name__}: {e}"
    j.add(event="mail-failed", step=step, at=_iso(now))
    text = (f"MAIL-NOT-WRITTEN: step {step:03d} is archived, but its mails were not written ({why}); "
            f"the judge tries again at every round; `pbem mail {cc.folder} --step {step} -o DIR` writes them by hand")
    judge.log(now, f"{cc.id}: {text}")
    judge.notify_gm(f"{cc.id}-mail-failed-{step:03d}", f"{cc.id}: the mails of step {step:03d} were not written", [text])


def _iso(now: datetime) -> str:
    from .judge import iso
    return iso(now)


def recover(judge: Judge, cc: CampaignConf, j: Journal, now: datetime) -> None:
    """What a killed judge left half done in this campaign: a step archived without being
    recorded (found by its intent), a step recorded without its mails."""
    done = {r["step"] for r in j.records if r.get("event") == "archived"}
    for r in [r for r in j.records if r.get("event") == "intent"]:
        if r["step"] not in done and archived_as(cc, r["step"], r.get("sha256"), r.get("input")):
            j.add(event="archived", step=r["step"], msg=r.get("by"), at=_iso(now))
            done.add(r["step"])
            judge.log(now, f"{cc.id}: step {r['step']:03d} was archived by a judge stopped before it said so")
    mailed = {r["step"] for r in j.records if r.get("event") == "mailed"}
    for step in sorted(done - mailed):
        send_step(judge, cc, j, step, now)


def adjudicate(judge: Judge, cc: CampaignConf, j: Journal, st: dict, now: datetime, *, by: str,
               paths: list | None = None, sha: str | None = None, missing: bool = False,
               reveals: list | None = None):
    """Adjudicate and archive (the intent recorded first) the campaign's current state ``st``
    (the caller's, read under the campaign's lock); the step's mails written. The
    StepResult; a refusal archives nothing (PbemError raised by the adjudication, or a result
    without a step)."""
    from ..core.step import adjudicate_campaign
    step = st["step"] + 1
    j.add(event="intent", step=step, by=by, sha256=sha, input=st["hash"], at=_iso(now))
    judge.fault("intent")
    res = adjudicate_campaign(cc.folder, list(paths or []), missing_orders=missing, reveal_paths=reveals)
    if res.step_dir is None:
        return res
    judge.fault("stepped")
    j.add(event="archived", step=step, msg=by, at=_iso(now))
    judge.fault("archived")
    send_step(judge, cc, j, step, now)
    return res


def resume(judge: Judge, cc: CampaignConf, c: Claimed, inc: Incoming, now: datetime) -> Journal | None:
    """The campaign's journal, after going on with what a killed judge left; None when the
    message needs nothing more (it was handled, or its step is archived: receipt given now)."""
    j = journal_of(cc)
    recover(judge, cc, j, now)
    if "done" in j.of_message(inc.key):
        judge.inbox.done(c)
        judge.log(now, f"{cc.id}: {c.name} was handled before: marked")
        return None
    if inc.message_id and inc.file_sha and any(
            r.get("state") == "done" and r.get("mid") == inc.message_id and r.get("file") == inc.file_sha for r in j.records):
        judge.inbox.done(c)      # the same mail delivered twice (other transport headers): acted on once
        judge.log(now, f"{cc.id}: {c.name}: the mail {inc.message_id} with the same file was handled before: not acted on again")
        return None
    mine = [r for r in j.records if r.get("event") == "archived" and r.get("msg") == inc.key]
    if mine:
        _accepted(judge, cc, j, c, inc, mine[-1]["step"], [], now)
        return None
    return j


def opened(judge: Judge, cc: CampaignConf, c: Claimed, inc: Incoming, found: tuple[str, bytes],
           now: datetime) -> tuple[Journal, Path, Campaign, dict, list[Issue]] | None:
    """How every mailed file for campaign ``cc`` is taken up (orders, a reveal, an end file):
    the file's digest noted, the journal resumed (:func:`resume`), the mail copied where the
    adjudication reads it (``judge.work_copy``) and its sender checked (``MAIL-FROM``). The
    journal, that copy, the campaign, its current state (read once) and the sender's problems; None when
    the mail needs nothing more."""
    from ..core.mail import check_senders
    inc.file_sha = hashlib.sha256(found[1]).hexdigest()
    j = resume(judge, cc, c, inc, now)
    if j is None:
        return None
    eml = judge.work_copy(cc, c)
    camp = cc.campaign()
    _, st = camp.current()
    return j, eml, camp, st, check_senders([eml], camp.manifest)


def take_orders(judge: Judge, cc: CampaignConf, c: Claimed, inc: Incoming, found: tuple[str, bytes],
                now: datetime) -> None:
    """An order file (or answer) for campaign ``cc``, by mail."""
    got = opened(judge, cc, c, inc, found, now)
    if got is None:
        return
    j, eml, _, st, issues = got
    if not any(i.is_error for i in issues):
        issues += _links_awaited(st)
    if any(i.is_error for i in issues):
        judge._refuse(c, inc, now, issues, cc.id, f"from {_who(inc)}", journal=j)
        return
    try:
        res = adjudicate(judge, cc, j, st, now, by=inc.key, paths=[eml], sha=inc.file_sha)
    except PbemError as e:
        judge._refuse(c, inc, now, e.issues, cc.id, f"from {_who(inc)}", journal=j)
        return
    if res.step_dir is None:
        judge._refuse(c, inc, now, res.issues, cc.id, f"from {_who(inc)}", journal=j)
        return
    for i in res.issues:        # the judge's own business, not the player's
        if i.code == "FILE-STALE-TEMP":
            judge.log(now, f"{cc.id}: {i.message}")
    warnings = [i for i in res.issues if not i.is_error and i.code != "FILE-STALE-TEMP"]
    _accepted(judge, cc, j, c, inc, int(res.step_dir.name), warnings, now)


def _who(inc: Incoming) -> str:
    return inc.sender[0] if inc.sender else "nobody"


def _links_awaited(st: dict) -> list[Issue]:
    if not (st.get("dice") or {}).get("request"):
        return []
    return [Issue("DICE-LINKS-AWAITED", f"the files archived in step {st['step']:03d} wait for every player's chain link: "
                  "no order file is taken until they are carried out",
                  hint="reveal your link from the mail that asks for it (pbem chain reveal ROLE.chain THIS.eml -o reveal-ROLE.yaml)")]


def _accepted(judge: Judge, cc: CampaignConf, j: Journal, c: Claimed, inc: Incoming, step: int | None,
              warnings: list[Issue], now: datetime, said: str | None = None) -> None:
    """The receipt: the file is in (archived in ``step``, or ``said``); the message done."""
    from .replies import issue_lines
    camp = cc.campaign()
    _, st = camp.current()
    said = said or f"Your file was accepted and archived in step {step:03d} of campaign {cc.id}."
    body = [said, f"sha256 of the mail: {inc.key}", ""]
    if warnings:
        body += ["Warnings (the file was accepted with them):"] + issue_lines(warnings) + [""]
    aw = awaited(st)
    body.append("Awaited now: " + (", ".join(f"{a['for']} from the {a['player']} player" for a in aw) if aw else "nothing") + ".")
    body.append("The report and the new state come in a separate mail to every player.")
    judge.reply(inc, body, "receipt", campaign=cc.id)
    judge.fault("replied")
    j.add(msg=inc.key, state="done", result="accepted", step=step, at=_iso(now), mid=inc.message_id, file=inc.file_sha)
    judge.fault("recorded")
    judge.inbox.done(c)
    judge.log(now, f"{cc.id}: {c.name} from {_who(inc)}: ACCEPTED, "
                   + (f"archived in step {step:03d}" if step is not None else said)
                   + (f" ({len(warnings)} warning(s))" if warnings else ""))
