"""Deadlines, as the Diplomacy judges taught players to expect them: the clock of a step starts
when the judge first sees it (recorded in the campaign's journal); at the deadline the late
players get a reminder and the others a notice; at the end of the grace period the campaign's
missing-orders default is applied (``adjudicate --missing-orders``), where the campaign declares
one for every late player. Chain links have no default (a missing reveal stalls the game: the
players agree what follows), nor has a player without a declared default: the game master is
told, once. The time is ``now``, given by the caller."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING

from ..core.errors import PbemError
from ..core.kernel import awaited
from .config import CampaignConf
from .journal import Journal
from .mailbox import locked
from .replies import compose
from .steps import adjudicate, journal_of, recover

if TYPE_CHECKING:
    from .judge import Judge


def _parse(s: str) -> datetime:
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def schedule(cc: CampaignConf, j: Journal, state: dict) -> tuple[datetime, datetime] | None:
    """(deadline, end of grace) of the state's step, None when nothing is awaited or its
    clock has not started."""
    aw = awaited(state)
    opened = j.of_step(state["step"]).get("opened")
    if not aw or state.get("result") or opened is None:
        return None
    start = _parse(opened["at"])
    due = start + cc.deadlines.given(state["phase"], {a["for"] for a in aw})
    return due, due + cc.deadlines.grace


def tick(judge: Judge, cc: CampaignConf, now: datetime) -> None:
    with locked(cc.folder / "judge" / "lock"):
        j = journal_of(cc)
        recover(judge, cc, j, now)
        camp = cc.campaign()
        _, st = camp.current()
        if not awaited(st) or st.get("result"):
            return
        from .judge import iso
        if "opened" not in j.of_step(st["step"]):
            j.add(event="opened", step=st["step"], at=iso(now))
        sched = schedule(cc, j, st)
        assert sched is not None
        due, end = sched
        recs = j.of_step(st["step"])
        if now >= due and "reminded" not in recs:
            _remind(judge, cc, camp.manifest, st, due, end, now)
            j.add(event="reminded", step=st["step"], at=iso(now))
        if now >= end and "missing" not in recs and "stalled" not in recs:
            _missing(judge, cc, j, camp.manifest, st, now)


def _addr(manifest: dict, player: str) -> str | None:
    info = (manifest.get("players") or {}).get(player) or {}
    if not info.get("email"):
        return None
    from email.headerregistry import Address
    return str(Address(display_name=str(info.get("name", player)), addr_spec=str(info["email"])))


def _what(state: dict, player: str) -> str:
    kinds = sorted({a["for"] for a in awaited(state) if a["player"] == player})
    return " and ".join("a decision" if k == "decision" else "your chain link" if k == "links" else "your orders" for k in kinds)


def _remind(judge: Judge, cc: CampaignConf, manifest: dict, st: dict, due: datetime, end: datetime,
            now: datetime) -> None:
    from .judge import when
    late = sorted({a["player"] for a in awaited(st)})
    where = f"campaign {cc.id}, turn {st['turn']}, {st['phase']}, step {st['step']:03d}"
    seed = f"{cc.id}\0{st['step']}\0{st.get('hash', '')}"
    default = _default_words(manifest, st, late)
    for p in sorted(manifest.get("players") or {}):
        to = _addr(manifest, p)
        if to is None:
            continue
        if p in late:
            subj = f"[pbem] {cc.id}: REMINDER - the deadline has passed: {_what(st, p)} for step {st['step']:03d}"
            body = [f"The deadline for {_what(st, p)} ({where}) was {when(due)}.",
                    f"The grace period ends {when(end)}; then {default}.",
                    "Send them to this address as soon as you can (`pbem validate` checks them first)."]
        else:
            subj = f"[pbem] {cc.id}: deadline passed, waiting for " + ", ".join(late)
            body = [f"The deadline of {where} was {when(due)}; still awaited from: " + ", ".join(late) + ".",
                    f"They were reminded; the grace period ends {when(end)}; then {default}."]
        judge.sender.send(f"{cc.id}-remind-{st['step']:03d}-{p}",
                          compose(sender=judge.cfg.address, to=to, subject=subj, body=body, seed=seed + p, kind="remind",
                                  campaign=cc.id))
    judge.log(now, f"{cc.id}: step {st['step']:03d}: deadline {when(due)} passed; reminded " + ", ".join(late))


def _default_words(manifest: dict, st: dict, late: list[str]) -> str:
    declared = manifest.get("missing_orders") or {}
    if any(a["for"] == "links" for a in awaited(st)):
        return "the game stalls until every link is revealed (there is no default for a chain link)"
    if all(p in declared for p in late):
        return "the campaign's missing-orders default applies (no moves, no attacks, no replacements; decisions take their auto default)"
    return "the game master decides (the campaign declares no missing-orders default for " + ", ".join(
        p for p in late if p not in declared) + ")"


def _missing(judge: Judge, cc: CampaignConf, j: Journal, manifest: dict, st: dict, now: datetime) -> None:
    from .judge import iso
    late = sorted({a["player"] for a in awaited(st)})
    declared = manifest.get("missing_orders") or {}
    if any(a["for"] == "links" for a in awaited(st)) or not all(p in declared for p in late):
        why = _default_words(manifest, st, late)
        j.add(event="stalled", step=st["step"], at=iso(now))
        judge.log(now, f"{cc.id}: step {st['step']:03d}: grace period over, still awaited from {', '.join(late)}: {why}")
        judge.notify_gm(f"{cc.id}-stalled-{st['step']:03d}", f"{cc.id}: stalled at step {st['step']:03d}",
                        [f"The grace period of step {st['step']:03d} is over; still awaited from {', '.join(late)}.",
                         f"Then {why}."])
        return
    try:
        res = adjudicate(judge, cc, j, st, now, by=f"missing-{st['step']:03d}", missing=True)
    except PbemError as e:
        j.add(event="stalled", step=st["step"], at=iso(now), codes=[i.code for i in e.issues])
        judge.log(now, f"{cc.id}: step {st['step']:03d}: the missing-orders default was REFUSED: "
                       + "; ".join(i.message for i in e.issues))
        return
    j.add(event="missing", step=st["step"], at=iso(now), archived=res.step_dir.name if res.step_dir else None)
    judge.log(now, f"{cc.id}: step {st['step']:03d}: grace period over: missing orders of {', '.join(late)}; "
                   + (f"archived step {res.step_dir.name}" if res.step_dir else "REFUSED"))

