"""The answer to a mail whose subject is ``status`` (``status CAMPAIGN`` for one campaign): for
each campaign the sender plays in (or the game master runs), where it stands, what is awaited
from whom, and by when."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..core.kernel import awaited
from .config import CampaignConf
from .mailbox import Claimed
from .replies import Incoming

if TYPE_CHECKING:
    from .judge import Judge


def campaign_lines(cc: CampaignConf, now: datetime) -> list[str]:
    from ..core.data import load_ruleset
    from ..core.mail import phase_title, result_phrase
    from .deadlines import _default_words, schedule
    from .judge import when
    from .steps import journal_of
    camp = cc.campaign()
    _, st = camp.current()
    g, _ = load_ruleset(st["scenario"])
    players = camp.manifest.get("players") or {}
    L = [f"Campaign {cc.id} ({camp.manifest.get('title', st['scenario'])}): turn {st['turn']}, "
         f"{phase_title(g, st['phase'])}, step {st['step']:03d}."]
    if st.get("result"):
        return L + [f"  The game is over: {result_phrase(st['result'])}."]
    for a in awaited(st):
        name = (players.get(a["player"]) or {}).get("name", a["player"])
        L.append(f"  Awaited: {a['for']} from the {a['player']} player ({name}).")
    for p in sorted(st.get("received") or {}):
        L.append(f"  Received already for this phase: the orders of the {p} player.")
    sched = schedule(cc, journal_of(cc), st)
    if sched is not None:
        due, end = sched
        late = sorted({a["player"] for a in awaited(st)})
        L.append(f"  Deadline: {when(due)}; grace period until {when(end)}; then "
                 f"{_default_words(camp.manifest, st, late)}.")
        if now >= due:
            L.append("  The deadline has passed.")
    else:
        L.append("  Deadline: the clock starts at the judge's next round.")
    return L


def answer_status(judge: Judge, c: Claimed, inc: Incoming, words: list[str], now: datetime) -> None:
    from .judge import iso, when
    mine = judge.campaign_of_sender(inc)
    if judge.is_gm(inc):
        mine = list(judge.cfg.campaigns)
    named = [w for w in words if judge.cfg.by_id(w)]
    if named:
        mine = [cc for cc in mine if cc.id in named]
    if mine:
        body = []
        for cc in mine:
            body += campaign_lines(cc, now) + [""]
        body.append(f"(the judge's time: {when(now)})")
    else:
        body = ["Your address plays in no campaign this judge serves"
                + (" among " + ", ".join(words) if words else "") + ".",
                "Campaigns served: " + ", ".join(cc.id for cc in judge.cfg.campaigns) + "."]
    judge.reply(inc, body, "status", campaign=mine[0].id if len(mine) == 1 else None,
                subject=f"Re: status{(' ' + ' '.join(words)) if words else ''}")
    judge.fault("replied")
    judge.own.add(msg=inc.key, state="done", result="status", at=iso(now))
    judge.fault("recorded")
    judge.inbox.done(c)
    judge.log(now, f"{','.join(cc.id for cc in mine) or '-'}: {c.name}: status asked by "
                   f"{inc.sender[0] if inc.sender else 'nobody'}: answered")
