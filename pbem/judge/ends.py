"""A game ended by agreement, by mail (issue 34; ``pbem end``): a player's end file
(``schema: pbem/end/v1``) concedes, or proposes or agrees to a draw. The judge checks each as it
comes (sender, schema, signature, the state it names), keeps it with the campaign
(``judge/ends/NNN/``, NNN the step it was written against), and archives the step that ends the
game when a player concedes or every player's part of a draw is in. A step adjudicated meanwhile
makes the parts kept for the older state stale: a draw is agreed on one state."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..core.errors import PbemError
from .config import CampaignConf
from .mailbox import Claimed
from .replies import Incoming
from .steps import _accepted, _iso, _who, keep_part, opened, send_step

if TYPE_CHECKING:
    from .judge import Judge


def take_end(judge: Judge, cc: CampaignConf, c: Claimed, inc: Incoming, found: tuple[str, bytes], now: datetime) -> None:
    from ..core.roles import end_campaign, end_issues
    from ..core.signing import trusted_keys
    got = opened(judge, cc, c, inc, found, now)
    if got is None:
        return
    j, _, camp, st, issues = got
    players = sorted(camp.manifest.get("players") or {})
    more, doc = end_issues(st, players, trusted_keys(camp), found[0], found[1])
    issues += more
    if any(i.is_error for i in issues) or doc is None:
        judge._refuse(c, inc, now, issues, cc.id, f"from {_who(inc)}: an end file", journal=j)
        return
    mine = keep_part(cc, "ends", st["step"], doc["player"], found[1], replace=bool(doc.get("concede")))
    folder = mine.parent
    parts = [(p.name, p.read_bytes()) for p in sorted(folder.glob("*.yaml"))]
    if doc.get("concede"):
        parts = [(mine.name, found[1])]          # a concession ends the game alone
    step = st["step"] + 1
    if doc.get("concede") or set(players) <= {p.stem for p in folder.glob("*.yaml")}:
        # the step will be archived: recorded first, as for orders (a restart finds the file in it)
        j.add(event="intent", step=step, by=inc.key, sha256=inc.file_sha, input=st["hash"], at=_iso(now))
    try:
        sd, issues, waiting = end_campaign(camp, parts)
    except PbemError as e:
        judge._refuse(c, inc, now, e.issues, cc.id, f"from {_who(inc)}: an end file", journal=j)
        return
    if any(i.is_error for i in issues):
        judge._refuse(c, inc, now, issues, cc.id, f"from {_who(inc)}: an end file", journal=j)
        return
    if sd is None:
        _accepted(judge, cc, j, c, inc, None, [], now,
                  said=f"Your part of a draw in campaign {cc.id} (step {st['step']:03d}) is in; still awaited: the parts of "
                       + ", ".join(waiting) + ". The game goes on until every player agrees.")
        return
    j.add(event="archived", step=step, msg=inc.key, at=_iso(now))
    send_step(judge, cc, j, step, now)
    _accepted(judge, cc, j, c, inc, step, [], now)
