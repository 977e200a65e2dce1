"""Dice without a referee: each player's hash chain (mode ``chain``).

The ceremony (two players, no game master)
-------------------------------------------
1. Each player runs ``pbem chain new --player P -o P.chain`` on their own machine: a random
   256-bit seed ``s`` and a length ``N``. The chain's links are ``link_i = H^(N-i)(s)`` for
   i = 1..N and its *head* is ``H^N(s)`` (H = SHA-256 of the raw 32 bytes). Only the head is
   published: ``pbem new ... --dice chain --commit P=HEAD`` writes both heads into the
   campaign. Nobody can compute a player's next link from what is published.
2. Protocol 2 (campaigns started by this pbem, ``dice.protocol: 2``): order and answer files
   are adjudicated alone. Where the run meets a die whose key is unknown, the step archives the
   files (immutable from then on) and the state asks for links (``dice.request``: the digest
   the dice are keyed on; ``awaiting`` ``links`` of every player, or with missing orders of
   the players present). Each player reveals link ``i = used + 1`` of their chain for that
   request (``pbem chain reveal``: the reveal names the digest and the archive's head after
   the step that archived the files, and a record next to the chain file refuses to reveal a
   link for anything else); the next step takes the reveals only and carries the archived
   files out from the state before them. With missing orders (a player away) the request asks
   the players present and the *witness* named at ``pbem new`` (issue 29): a neutral chain whose
   link nobody present knows when he sends his file. After a decision the dice that follow are keyed anew
   (the rolls made before it keep their key: ``resume.epochs``), so they need fresh links
   revealed after the answer is archived. Files refused with the links shown are ``void``:
   the links stay spent. Protocol 1 (campaigns started before; ``pbem new`` makes protocol 2
   only): the phasing player sent the orders with their reveal, the others revealed after
   seeing them.
3. pbem checks every revealed link against the player's last one (``H^k(link_i) ==
   link_(i-k)``, the head for the first; a player absent for missing orders skips links) and
   the dice key is ``SHA-256("pbem-chain/v1" || link of each revealing player, in player
   order)``; the phase keys and rolls are then derived exactly as in GM mode
   (``pbem.core.dice``).

What it protects against: the phasing player cannot preview the dice when writing orders (the
other players' links are still secret), nor pick other orders once a link is shown (links are
revealed only for archived files, bound to the archive head); the other players cannot change
the dice after seeing the orders (their links are fixed by the published heads); the player who
answers a decision cannot steer the dice after it; nobody holds a key that previews every die.
What it cannot prevent: the last player to reveal can compute the dice first and refuse to
reveal (a stall, not a bias): campaigns should agree that a missing reveal by the deadline
forfeits.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from .canon import sha256_hex
from .errors import ExitCode, Issue, PbemError
from .files import read_bytes_limited
from .lazyclass import dataclass  # made when first used (issue 35)
from .schema import validate
from .yamlio import Marks, dump_yaml, load_yaml

PREFIX = b"pbem-chain/v1"


def _h(b: bytes) -> bytes:
    return hashlib.sha256(b).digest()


def new_chain(length: int = 1000) -> tuple[str, str]:
    """(seed hex, head hex) of a fresh chain of ``length`` links."""
    import secrets  # only for a new chain: its import (random, hmac) is a tenth of `pbem --help`
    seed = secrets.token_bytes(32)
    return seed.hex(), link(seed.hex(), length, 0)


def link(seed_hex: str, length: int, index: int) -> str:
    """Link ``index`` (0 = the head, 1 = the first revealed ... ``length`` = the seed)."""
    if not 0 <= index <= length:
        raise ValueError(f"link {index} is outside a chain of {length}")
    x = bytes.fromhex(seed_hex)
    for _ in range(length - index):
        x = _h(x)
    return x.hex()


def follows(previous_hex: str, link_hex: str) -> bool:
    """True if ``link_hex`` is the link after ``previous_hex`` (its SHA-256 is the previous)."""
    try:
        return _h(bytes.fromhex(link_hex)).hex() == previous_hex
    except ValueError:
        return False


def combine(links: dict[str, str], players: list[str]) -> str:
    """The step's dice key (hex) from every player's revealed link, in ``players`` order."""
    data = PREFIX + b"".join(bytes.fromhex(links[p]) for p in players)
    return hashlib.sha256(data).hexdigest()


def protocol(dice: dict[str, Any]) -> int | None:
    """The chain protocol of a campaign's ``dice`` (a state's): 2 for every campaign ``pbem new``
    makes, 1 for a campaign started before issue 17 (no ``protocol`` in its states); None for a
    game master's dice."""
    if (dice or {}).get("mode") != "chain":
        return None
    return int(dice.get("protocol", 1))


def dice_summary(dice: dict[str, Any]) -> str:
    """One line saying how a campaign's dice are made, for `pbem show`, every mail and the book
    (issue 29: which protocol a campaign uses must be visible to every player)."""
    d = dice or {}
    p = protocol(d)
    if p is None:
        return (f"Dice: the game master's key ({d.get('algorithm')}), committed {str(d.get('commitment', ''))[:16]}...; "
                "the game master can preview the dice, the players cannot")
    heads = ", ".join(f"{pl} {h[:16]}..." for pl, h in sorted((d.get("heads") or {}).items()))
    if p >= 2:
        w = d.get("witness")
        wit = (f"; witness {w['name']} (head {w['head'][:16]}...): his link keys every die rolled with missing orders"
               if w else "")
        return (f"Dice: hash chains, no referee, protocol {p} (links revealed only for files already archived); "
                f"heads {heads}{wit}")
    return (f"Dice: hash chains, no referee, protocol 1 (a campaign started before links were asked for archived "
            f"files: the links are revealed with the orders, so a link once shown may key other orders; "
            f"docs/dice-and-audit.md, \"Dice without a referee\"); heads {heads}")


# ----------------------------------------------------------------------------- files
CHAIN_SCHEMA = "pbem/chain/v1"
REVEAL_SCHEMA = "pbem/reveal/v1"


@dataclass
class Reveal:
    name: str
    raw: bytes
    digest: str
    campaign: str
    player: str
    index: int
    link: str
    orders: str
    head: str | None = None

    @property
    def archive_name(self) -> str:
        return f"reveal-{self.player}-{self.index:03d}.yaml"


def _load(path_or_bytes: Path | str | bytes, name: str, schema: str) -> tuple[dict[str, Any], Marks, bytes]:
    raw = path_or_bytes if isinstance(path_or_bytes, bytes) else read_bytes_limited(Path(path_or_bytes), 100_000)
    loaded = load_yaml(raw, name)
    issues = validate(loaded.data, schema, marks=loaded.marks, filename=name)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    return loaded.data, loaded.marks, raw


def load_chain_file(path: Path | str) -> dict[str, Any]:
    doc, _, _ = _load(path, str(path), "chain")
    return doc


def load_reveal(path_or_bytes: Path | str | bytes, name: str | None = None) -> Reveal:
    name = name or str(path_or_bytes)
    doc, _, raw = _load(path_or_bytes, name, "reveal")
    return Reveal(name=name, raw=raw, digest=sha256_hex(raw), campaign=doc["campaign"], player=doc["player"],
                  index=doc["index"], link=doc["link"], orders=doc["orders"], head=doc.get("head"))


def make_reveal(chain_doc: dict[str, Any], state: dict[str, Any], orders_digest: str, head: str | None = None) -> str:
    """The reveal file text of ``chain_doc``'s player for the next chain step of ``state``
    (``head``: protocol 2, the archive head after the step that archived the orders)."""
    index = state["dice"]["used"] + 1
    doc = {"schema": REVEAL_SCHEMA, "game": state["game"], "campaign": state["campaign"],
           "player": chain_doc["player"], "index": index,
           "link": link(chain_doc["seed"], chain_doc["length"], index), "orders": orders_digest}
    if head:
        doc["head"] = head
    return dump_yaml(doc, header="pbem hash-chain reveal: send it to the other player(s) when asked")


WITNESS = "witness"     # the player name of a witness's chain and reveals (issue 29)


def chain_heads(dice: dict[str, Any]) -> dict[str, str]:
    """Every chain of a campaign's ``dice`` by the name its reveals give: the players', and the
    witness's when one was named at ``pbem new``."""
    heads = dict(dice["heads"])
    if dice.get("witness"):
        heads[WITNESS] = dice["witness"]["head"]
    return heads


def follows_after(previous_hex: str, link_hex: str, steps: int) -> bool:
    """True if hashing ``link_hex`` ``steps`` times gives ``previous_hex`` (a player who was
    absent for some links skips them: the chain still proves the link is theirs)."""
    if steps < 1:
        return False
    try:
        x = bytes.fromhex(link_hex)
    except ValueError:
        return False
    for _ in range(steps):
        x = _h(x)
    return x.hex() == previous_hex


def check_reveals(reveals: list[Reveal], state: dict[str, Any], orders_digest: str | None, head: str | None = None,
                  players: list[str] | None = None) -> list[Any]:
    """Every problem of the reveals for the next chain step of ``state`` (empty if fine).
    ``orders_digest`` is the sha256 of the order file the step adjudicates (None: no new
    orders, so no reveal is expected); ``head`` (protocol 2): the archive head after the step
    that archived those orders, which every reveal must name; ``players``: whose links key
    the dice (default: every player; missing orders: the players present)."""
    d = state["dice"]
    heads = chain_heads(d)
    out = []
    if orders_digest is None:
        if reveals:
            out.append(Issue("DICE-REVEAL-UNNEEDED", "this step brings no new orders (a decision answer or missing orders): it uses no new links",
                             file=reveals[0].name, hint="keep the reveal for the next orders"))
        return out
    index = d["used"] + 1
    seen = {}
    for r in reveals:
        if r.player in seen:
            out.append(Issue("DICE-REVEAL-DUPLICATE", f"two reveals for the {r.player} player", file=r.name))
            continue
        seen[r.player] = r
        if r.campaign != state["campaign"]:
            out.append(Issue("DICE-REVEAL-CAMPAIGN", f"the reveal is for campaign {r.campaign!r}", file=r.name))
        if r.player not in heads:
            out.append(Issue("DICE-REVEAL-PLAYER", f"{r.player!r} has no chain in this campaign", file=r.name,
                             hint="players: " + ", ".join(sorted(heads))))
            continue
        if players is not None and r.player not in players:
            out.append(Issue("DICE-REVEAL-UNNEEDED", f"the {r.player} player's link is not asked for: these dice are keyed by the links of {', '.join(players)}",
                             file=r.name, hint="keep the link for the next request"))
            continue
        if r.index < index:
            out.append(Issue("DICE-LINK-SPENT", f"link {r.index} of the {r.player} player was revealed before and is spent: a link keys one set of archived orders only",
                             file=r.name, hint=f"this step needs link {index}"))
            continue
        if r.index != index:
            out.append(Issue("DICE-REVEAL-INDEX", f"the reveal is link {r.index}; this step needs link {index}", file=r.name))
            continue
        last = d.get("revealed", {}).get(r.player) or {}
        prev = last.get("link") or heads[r.player]
        if not follows_after(prev, r.link, r.index - last.get("index", 0)):
            out.append(Issue("DICE-REVEAL-CHAIN", f"link {r.index} of the {r.player} player does not hash to the previous link: it is not from the committed chain",
                             file=r.name, hint="a reveal must come from `pbem chain reveal` with the player's own chain file"))
        if r.orders != orders_digest:
            out.append(Issue("DICE-REVEAL-ORDERS", f"the {r.player} player's reveal answers other orders (sha256 {r.orders[:16]}...), not these ({orders_digest[:16]}...)",
                             file=r.name, hint="the orders changed after the reveal: the other player must see the final orders"))
        if head is not None and r.head != head:
            out.append(Issue("DICE-REVEAL-ARCHIVE", f"the {r.player} player's reveal was made for another archive (head {(r.head or 'none')[:16]}...), not for the orders archived here (head {head[:16]}...)",
                             file=r.name, hint="reveal only for orders already archived: pbem chain reveal CHAIN CAMPAIGN -o reveal.yaml on your own copy of the archive"))
    for p in sorted(players if players is not None else d["heads"]):
        if p not in seen:
            out.append(Issue("DICE-REVEAL-MISSING", f"no reveal from the {p} player for chain link {index}",
                             hint=(f"{p}: pbem chain reveal YOUR.chain CAMPAIGN|MAIL -o reveal-{p}.yaml (the files are archived: no --orders)"
                                   if head is not None or d.get("request") else
                                   f"{p}: pbem chain reveal YOUR.chain CAMPAIGN --orders ORDERS -o reveal.yaml")))
    return out


def step_key(reveals: list[Reveal], heads: dict[str, Any]) -> str:
    """The dice key of a step from its reveals (every player's, or with missing orders, the
    present players'), in player order."""
    return combine({r.player: r.link for r in reveals}, sorted(r.player for r in reveals))
