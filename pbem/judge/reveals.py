"""Chain links by mail (hash-chain campaigns, docs/dice-and-audit.md, "Dice without a referee"): the step that
meets a die archives the orders and asks every player for a link; each player answers the
mail that asks with the reveal ``pbem chain reveal ROLE.chain THIS.eml`` writes. The judge
checks each reveal as it comes (sender, signature, the link against the player's chain, the
orders and archive head it names), keeps it with the campaign (``judge/reveals/NNN/``) and
carries the orders out once every awaited link is in (``adjudicate --reveal ...``)."""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from ..core.errors import Issue, PbemError
from ..core.kernel import awaited_players
from .config import CampaignConf
from .mailbox import Claimed
from .replies import Incoming
from .steps import _accepted, _who, adjudicate, keep_part, opened

if TYPE_CHECKING:
    from .judge import Judge


def reveal_issues(camp, st: dict, name: str, raw: bytes) -> tuple[list[Issue], str | None]:
    """Every problem of one reveal against the campaign's request, and its player."""
    from ..core.archive import head as archive_head
    from ..core.chain import check_reveals, load_reveal
    from ..core.step import signature_issues
    req = (st.get("dice") or {}).get("request")
    if not req:
        return [Issue("DICE-REVEAL-EARLY", f"no chain link is awaited now in campaign {st['campaign']} (step {st['step']:03d})",
                      file=name, hint="reveal only when a mail of the campaign asks for your link")], None
    try:
        r = load_reveal(raw, name)
    except PbemError as e:
        return e.issues, None
    out = signature_issues(camp.manifest, [(r.raw, r.name, r.player, "reveal")])
    h = archive_head(camp.root, camp.manifest["id"], st["step"])
    out += [i for i in check_reveals([r], st, req["orders"], h[1] if h else None, req.get("players")) if i.file == name]
    if r.player not in awaited_players(st, "links"):
        out.append(Issue("DICE-REVEAL-UNNEEDED", f"the {r.player} player's link is not awaited now", file=name))
    return out, r.player


def take_reveal(judge: Judge, cc: CampaignConf, c: Claimed, inc: Incoming, found: tuple[str, bytes],
                now: datetime) -> None:
    got = opened(judge, cc, c, inc, found, now)
    if got is None:
        return
    j, _, camp, st, issues = got
    more, player = reveal_issues(camp, st, found[0], found[1])
    issues += more
    if any(i.is_error for i in issues) or player is None:
        judge._refuse(c, inc, now, issues, cc.id, f"from {_who(inc)}: a reveal", journal=j)
        return
    mine = keep_part(cc, "reveals", st["step"], player, found[1])
    folder = mine.parent
    have = {p.stem for p in folder.glob("*.yaml")}
    missing = sorted(set(awaited_players(st, "links")) - have)
    if missing:
        _accepted(judge, cc, j, c, inc, None, [], now,
                  said=f"Your chain link for step {st['step']:03d} of campaign {cc.id} is in; still awaited: the links of "
                       + ", ".join(missing) + ".")
        return
    paths = sorted(folder.glob("*.yaml"))
    sha = hashlib.sha256(mine.read_bytes()).hexdigest()
    try:
        res = adjudicate(judge, cc, j, st, now, by=inc.key, reveals=paths, sha=sha)
    except PbemError as e:
        judge._refuse(c, inc, now, e.issues, cc.id, f"from {_who(inc)}: the last reveal", journal=j)
        return
    if res.step_dir is None:
        judge._refuse(c, inc, now, res.issues, cc.id, f"from {_who(inc)}: the last reveal", journal=j)
        return
    _accepted(judge, cc, j, c, inc, int(res.step_dir.name), [], now)
