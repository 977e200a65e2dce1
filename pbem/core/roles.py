"""A vacant role taken over by a replacement player (issue 34): ``pbem player replace CAMPAIGN
ROLE --email ADDRESS --key PUBLIC``.

campaign.yaml takes the new address and key at once, and names the key it replaces
(``replaces``): a key swapped in campaign.yaml without that stays refused (the keys in force come
from the archive). The next adjudicated step archives the manifest as changed
(``steps/NNN/campaign.json``, the mechanism of ``pbem missing-default``), so that replay checks
every file against the key in force at its step: the newest archived manifest at or before it.
The old player's key is refused from that step on. The role keeps its name (the states carry
the players' names)."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import ExitCode, Issue, PbemError


def replace_player(camp, role: str, email: str | None, key: str) -> dict:
    """campaign.yaml's entry for ``role`` with the new e-mail and key (returned); every problem at once."""
    from .campaign import MANIFEST, SCHEMA_FOLDER
    from .files import atomic_write
    from .schema import validate
    from .signing import is_public_key, trusted_keys
    from .yamlio import dump_yaml
    players = dict(camp.manifest.get("players") or {})
    issues = []
    if role not in players:
        issues.append(Issue("USAGE-PLAYER", f"this campaign has no player {role!r}", text=role,
                            hint="players: " + ", ".join(sorted(players))))
    if not is_public_key(key):
        issues.append(Issue("USAGE-KEY", f"{key!r} is no public key (64 hex digits: pbem key new prints it)", text=key))
    old = trusted_keys(camp).get(role)
    if old is not None and old == key:
        issues.append(Issue("USAGE-KEY", f"the {role} player has this key already: a replacement brings a new key", text=key))
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    entry = {"name": players[role]["name"]} | ({"email": email} if email else {}) | {"key": key}
    if old is not None:
        entry["replaces"] = old
    players[role] = entry
    m = dict(camp.manifest) | {"players": players}
    found = validate(m, "campaign", filename=MANIFEST)
    if any(i.is_error for i in found):
        raise PbemError(found, ExitCode.USAGE)
    atomic_write(camp.root / MANIFEST, dump_yaml(m, header=f"yaml-language-server: $schema={SCHEMA_FOLDER}/campaign.schema.json\npbem campaign manifest"),
                 overwrite=True)
    camp.manifest = m
    return entry


def pending_keys(manifest: dict, archived: dict[str, str]) -> dict[str, str]:
    """The keys of campaign.yaml that replace an archived one the way ``pbem player replace``
    does (the entry names the key it replaces)."""
    out = {}
    for p, info in (manifest.get("players") or {}).items():
        if isinstance(info, dict) and p in archived and info.get("key") not in (None, archived[p]) \
                and info.get("replaces") == archived[p]:
            out[p] = info["key"]
    return out


def player_change_issues(before: dict, after: dict, where: str, path: Path) -> list[Issue]:
    """What an archived manifest copy may change in the players of the one before: a player's
    e-mail, and a key only in place of the one its entry says it replaces (or where none was)."""
    out = []
    bp, ap = before.get("players") or {}, after.get("players") or {}
    if sorted(bp) != sorted(ap):
        return [Issue("REPLAY-MANIFEST", f"{where} changes the players of the campaign", file=str(path))]
    for p in sorted(ap):
        b, a = bp[p] or {}, ap[p] or {}
        if a.get("name") != b.get("name"):
            out.append(Issue("REPLAY-MANIFEST", f"{where} changes the {p} player's name", file=str(path)))
        if b.get("key") and a.get("key") != b.get("key") and a.get("replaces") != b.get("key"):
            out.append(Issue("REPLAY-MANIFEST", f"{where} changes the {p} player's public key without naming the key it replaces",
                             file=str(path), hint="pbem player replace records a replacement"))
    return out


def keys_by_step(camp) -> list[tuple[int, dict[str, str]]]:
    """(step, player -> key) of every archived manifest copy, by step."""
    from .signing import campaign_keys
    out = []
    for n, path in camp.manifest_copies():
        try:
            doc = json.loads(camp.inside(path).read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict):
            out.append((n, campaign_keys(doc)))
    return out


def keys_at(copies: list[tuple[int, dict[str, str]]], step: int, default: dict[str, str]) -> dict[str, str]:
    """The keys in force at ``step``: those of the newest copy at or before it, with the
    ``default`` keys of players it has none for (a key added later by ``pbem key add``)."""
    force = [k for n, k in copies if n <= step]
    return dict(sorted(({**default, **force[-1]} if force else default).items()))


def replacements_in(camp) -> list[str]:
    """One line per replacement the archive records: the step and the role."""
    out = []
    prev: dict[str, str] | None = None
    for n, keys in keys_by_step(camp):
        if prev is not None:
            out += [f"step {n:03d}: the {p} player replaced (a new public key {k[:16]}...)"
                    for p, k in sorted(keys.items()) if p in prev and prev[p] != k]
        prev = keys
    return out
