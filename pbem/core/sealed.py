"""Sealed choices: commit now, reveal later (e.g. BlitzWAR's replacement cards queued three
turns ahead, 10.1).

A player who must make a choice the others may not see yet writes it into an *opening* file
kept on their own machine (``pbem seal``), and puts only the *commitment* into an order file::

    seal:
      - {id: cards-t04, commitment: 5d41...}

The commitment is ``SHA-256(canonical_json({"campaign", "choice", "id", "nonce", "player"}))``
with a fresh random 256-bit ``nonce``: nobody can learn the choice from it, and it binds the
choice to this campaign, player and id, so it can neither be changed later nor copied by
another player. A later order file of the same player opens it::

    open:
      - {id: cards-t04, nonce: 9f86..., choice: [armour, infantry]}

pbem recomputes the commitment and refuses a mismatch (SEAL-MISMATCH), an id never committed
(SEAL-UNKNOWN), someone else's commitment (SEAL-NOT-YOURS), a second opening (SEAL-OPENED; SEAL-OPENED-TWICE within one file) and a
second commitment under one id (SEAL-EXISTS). Until its opening nothing in any state, report or
mail holds the choice: the state keeps the commitment only. Openings are checked at
adjudication and again by `pbem replay`; the game decides when a choice must be opened and what
it does (it receives the opened choices of the step).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .canon import canonical_json, sha256_hex
from .errors import Issue

if TYPE_CHECKING:
    from .game import Submission

OPENING_SCHEMA = "pbem/opening/v1"


def commitment(*, campaign: str, player: str, id: str, nonce: str, choice: Any) -> str:
    msg = canonical_json({"campaign": campaign, "choice": choice, "id": id, "nonce": nonce, "player": player})
    return sha256_hex(msg)


def new_opening(*, campaign: str, player: str, id: str, choice: Any, nonce: str | None = None) -> dict[str, Any]:
    """The opening a player keeps (with the commitment to send)."""
    import secrets  # only to seal a choice: its import (random, hmac) is a tenth of `pbem --help`
    nonce = nonce or secrets.token_hex(32)
    return {"schema": OPENING_SCHEMA, "campaign": campaign, "player": player, "id": id, "nonce": nonce,
            "choice": choice, "commitment": commitment(campaign=campaign, player=player, id=id, nonce=nonce, choice=choice)}


def kept_openings(folder: Path | str, *, campaign: str, player: str) -> list[tuple[str, dict[str, Any]]]:
    """(file name, opening) of the openings ``pbem seal`` wrote for ``player`` in ``campaign``
    that lie in ``folder`` (the player's own machine: where the new one is written), so that a
    new seal can be checked against the choices the player sealed before and has not opened yet.
    Files that are not openings are passed over."""
    from pathlib import Path

    from .errors import PbemError
    from .yamlio import load_yaml
    out = []
    for p in sorted(Path(folder).glob("*.y*ml")):
        try:
            raw = p.read_bytes()
            if b"pbem/opening/v1" not in raw[:4096]:
                continue
            doc = load_yaml(raw, p.name).data
        except (OSError, PbemError):       # unreadable, not YAML: not an opening of this player's
            continue
        if isinstance(doc, dict) and doc.get("schema") == OPENING_SCHEMA and doc.get("campaign") == campaign \
                and doc.get("player") == player and "id" in doc:
            out.append((p.name, doc))
    return out


def check(state: dict[str, Any], sub: Submission) -> list[Issue]:
    """The problems of one order file's ``seal`` and ``open`` entries against ``state``."""
    doc = sub.doc
    out: list[Issue] = []
    known = state.get("sealed") or {}
    player = doc.get("player")
    ids = set()
    for i, s in enumerate(doc.get("seal") or []):
        sid = s.get("id")
        if sid in known or sid in ids:
            out.append(Issue("SEAL-EXISTS", f"a choice sealed as {sid!r} exists already; it can never be changed",
                             path=("seal", i, "id"), text=str(sid), hint="use a new id"))
        ids.add(sid)
    opening = set()
    for i, o in enumerate(doc.get("open") or []):
        sid = o.get("id")
        if sid in opening:
            out.append(Issue("SEAL-OPENED-TWICE", f"{sid!r} is opened twice in this file; a sealed choice is opened once",
                             path=("open", i, "id"), text=str(sid), hint="remove the second `open:` entry"))
            continue
        opening.add(sid)
        entry = known.get(sid)
        if entry is None:
            out.append(Issue("SEAL-UNKNOWN", f"no choice was sealed as {sid!r}", path=("open", i, "id"), text=str(sid),
                             hint=("sealed: " + ", ".join(sorted(known))) if known else "nothing is sealed in this campaign"))
            continue
        if entry["player"] != player:
            out.append(Issue("SEAL-NOT-YOURS", f"{sid!r} was sealed by the {entry['player']} player, not by {player}",
                             path=("open", i, "id"), text=str(sid)))
            continue
        if "opened" in entry:
            out.append(Issue("SEAL-OPENED", f"{sid!r} was opened already (step {entry['opened']['step']})",
                             path=("open", i, "id"), text=str(sid)))
            continue
        c = commitment(campaign=state["campaign"], player=player, id=sid, nonce=o.get("nonce"), choice=o.get("choice"))
        if c != entry["commitment"]:
            out.append(Issue("SEAL-MISMATCH", f"the opening of {sid!r} does not match its commitment: the choice or the nonce differs from what was sealed",
                             path=("open", i), text=str(sid),
                             hint="a sealed choice can never be changed: open it with the opening file `pbem seal` wrote"))
    return out


def record(work: dict[str, Any], subs: list[Any], events: list[dict[str, Any]], *, seals: bool = True, opens: bool = True) -> None:
    """Add the step's commitments (``seals``) and openings (``opens``) to ``work['sealed']``
    (checked before)."""
    if not any((seals and s.doc.get("seal")) or (opens and s.doc.get("open")) for s in subs):
        return
    sealed = dict(work.get("sealed") or {})
    for s in subs:
        for e in (s.doc.get("seal") or []) if seals else []:
            sealed[e["id"]] = {"player": s.player, "commitment": e["commitment"], "step": work["step"], "turn": work["turn"]}
            events.append({"type": "sealed", "turn": work["turn"], "phase": work["phase"], "player": s.player,
                           "id": e["id"], "commitment": e["commitment"]})
        for e in (s.doc.get("open") or []) if opens else []:
            ent = dict(sealed[e["id"]])
            ent["opened"] = {"step": work["step"], "nonce": e["nonce"], "choice": e["choice"]}
            sealed[e["id"]] = ent
            events.append({"type": "opened", "turn": work["turn"], "phase": work["phase"], "player": s.player,
                           "id": e["id"], "choice": e["choice"]})
    work["sealed"] = {k: sealed[k] for k in sorted(sealed)}


def openings(subs: list[Any]) -> dict[str, dict[str, Any]]:
    """id -> {player, choice} of the choices this step opens."""
    return {e["id"]: {"player": s.player, "choice": e["choice"]} for s in subs for e in s.doc.get("open") or []}
