"""Signed files: every order, answer, reveal and opening file carries its player's signature.

Each player makes a key pair once (``pbem key new --player ussr -o ussr.key``: an Ed25519 key,
the private key file readable by its owner only) and gives the public key to the campaign
(``pbem new ... --player-key ussr=PUBLIC`` or, later, ``pbem key add CAMPAIGN ussr PUBLIC``).
``pbem sign FILE --key ussr.key`` (or ``pbem chain reveal``/``pbem seal`` with ``--key``)
appends one line::

    # pbem-signature: ed25519 ussr <base64 signature>

a YAML comment, so the file stays an ordinary order file, and the last line, so it survives
mail clients that keep the attachment (or the body) as it is. The signature is Ed25519 over
``b"pbem-signature/v1\\0" + PLAYER + b"\\0" + every byte before that line``.

One signature, one file (issue 29): the dice are keyed on a file's bytes (its sha256, or its
receipt), so a signed file is accepted in exactly the form ``pbem sign`` wrote: the bytes
signed, the signature line with its base64 as written, one LF, nothing after it. A variant
with blanks after the line, no final newline, CRLF line ends where LF were signed (or the
reverse) is refused (``SIG-FORM``, ``SIG-LINE-ENDS``), never repaired: otherwise whoever holds
the dice key (the game master) could pick among several accepted files with different dice.

When the campaign holds a player's public key, every file of that player is checked when it
arrives and again by ``pbem replay``: a file without the line (``SIG-MISSING``: also a file cut
off at a line boundary, since the signature is the last line), with a signature that does not
match (``SIG-BAD``: a byte changed), or signed by another player than the one it names
(``SIG-WRONG-PLAYER``: the Allies sending ``player: ussr``) is refused. A campaign started
before keys existed keeps working: its files are unsigned, and replay says that who sent them
was not checked.
"""
from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .errors import ExitCode, Issue, PbemError
from .files import read_bytes_limited
from .yamlio import dump_yaml, load_yaml

if TYPE_CHECKING:
    from .campaign import Campaign

KEY_SCHEMA = "pbem/key/v1"
MARK = b"# pbem-signature: "
_DOMAIN = b"pbem-signature/v1\x00"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_LINE = re.compile(rb"^# pbem-signature: ed25519 ([a-z][a-z0-9_-]*) ([A-Za-z0-9+/]{86}==)[ \t]*$")

# One e-mail address, nothing else (no display name, no list, no line break): what the mails'
# To and From need.
EMAIL_RE = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def player_spec_problems(spec: str, name: str, email: str | None) -> list[Issue]:
    """Why ``--player ROLE=NAME[:EMAIL]`` cannot be used (a name with a line break or another
    control character would break the mails' headers; an e-mail must be one address)."""
    out = []
    if not name or _CONTROL.search(name):
        out.append(Issue("USAGE-PLAYER", f"--player {spec!r}: the name must be one line of text (no line break or control character)",
                         hint="write ROLE=NAME[:EMAIL], e.g. soviet=Anna:anna@example.org"))
    if email is not None and not EMAIL_RE.match(email):
        out.append(Issue("USAGE-EMAIL", f"--player {spec!r}: {email!r} is not one e-mail address",
                         hint="one address only, without a name, a comma or a line break: e.g. anna@example.org"))
    return out


# ----------------------------------------------------------------------------- keys
def _ed() -> ModuleType:
    from cryptography.hazmat.primitives.asymmetric import ed25519  # slow: only where a key is used
    return ed25519


def new_key_pair() -> tuple[str, str]:
    """(private key hex, public key hex) of a fresh Ed25519 key pair."""
    from cryptography.hazmat.primitives import serialization as s  # slow: only where a key is used
    k = _ed().Ed25519PrivateKey.generate()
    priv = k.private_bytes(s.Encoding.Raw, s.PrivateFormat.Raw, s.NoEncryption()).hex()
    return priv, public_of(priv)


def public_of(private_hex: str) -> str:
    from cryptography.hazmat.primitives import serialization as s  # slow: only where a key is used
    k = _ed().Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return str(k.public_key().public_bytes(s.Encoding.Raw, s.PublicFormat.Raw).hex())


def is_public_key(text: str) -> bool:
    return isinstance(text, str) and bool(_HEX64.match(text))


def key_file_text(player: str, private_hex: str) -> str:
    return dump_yaml({"schema": KEY_SCHEMA, "player": player, "private": private_hex, "public": public_of(private_hex)},
                     header="pbem signing key: SECRET - keep it on your own machine; give only `public` to the campaign")


def load_key_file(path: Path | str) -> dict[str, Any]:
    """The key file ``path`` (KEY-FILE when it is not one)."""
    raw = read_bytes_limited(Path(path), 10_000)
    doc: dict[str, Any] = load_yaml(raw, str(path)).data
    ok = (isinstance(doc, dict) and doc.get("schema") == KEY_SCHEMA and isinstance(doc.get("player"), str)
          and is_public_key(doc.get("private", "")) and is_public_key(doc.get("public", "")))
    if not ok or public_of(doc["private"]) != doc["public"]:
        raise PbemError([Issue("KEY-FILE", f"{path} is not a pbem signing key file",
                               file=str(path), hint="make one with `pbem key new --player ROLE -o ROLE.key`")], ExitCode.INVALID)
    return doc


def public_from_spec(value: str, player: str | None = None) -> str:
    """A public key given as 64 hex digits, or read from a file holding them, or from a key
    file (its `public`). A key file made for another player than ``player`` is refused
    (KEY-PLAYER): that player could never sign with it (`pbem sign` signs as the key file's
    player only)."""
    if is_public_key(value.strip().lower()):
        return value.strip().lower()
    p = Path(value)
    if p.is_file() and p.stat().st_size < 200:
        text = p.read_text("ascii", "replace").strip().lower()
        if is_public_key(text):
            return text
    doc = load_key_file(value)
    if player is not None and doc["player"] != player:
        raise PbemError([Issue("KEY-PLAYER", f"{value} is the {doc['player']} player's key file, not the {player} player's",
                               file=str(value), hint=f"give the {player} player's public key (`pbem key new --player {player}` printed it)")],
                        ExitCode.INVALID)
    return str(doc["public"])


def duplicate_key_problems(keys: dict[str, str | None]) -> list[Any]:
    """KEY-DUPLICATE for a public key given to several players (player -> public key): each
    key file signs as one player only, so all but one of them could never sign."""
    by_key: dict[str, list[str]] = {}
    for pl, k in sorted(keys.items()):
        if k:
            by_key.setdefault(k, []).append(pl)
    return [Issue("KEY-DUPLICATE", f"the players {', '.join(ps)} were given the same public key {k[:16]}...: each player makes their own (`pbem key new --player ROLE`)",
                  text=k) for k, ps in by_key.items() if len(ps) > 1]


# ----------------------------------------------------------------------------- signatures
def split(raw: bytes) -> tuple[bytes, tuple[str, bytes] | None, bool]:
    """(the signed bytes, (signer, signature) or None, whether a signature line was found
    somewhere other than at the end: then it signs nothing). The last line is recognised even
    when it is not in the one form a signed file has (:func:`form_problem` says what is off)."""
    body = raw
    if body.endswith(b"\n"):
        body = body[:-1]
    if body.endswith(b"\r"):
        body = body[:-1]
    cut = body.rfind(b"\n") + 1
    last = body[cut:]
    m = _LINE.match(last)
    if m:
        return raw[:cut], (m.group(1).decode("ascii"), base64.b64decode(m.group(2))), False
    return raw, None, MARK in raw


def signature_line(player: str, sig: bytes) -> bytes:
    """The one signature line ``pbem sign`` writes (canonical base64, one LF)."""
    return MARK + b"ed25519 " + player.encode("ascii") + b" " + base64.b64encode(sig) + b"\n"


def form_problem(raw: bytes) -> str | None:
    """Why a file with a signature line is not in the one form a signed file has (None: it is):
    the bytes signed, then exactly the line ``pbem sign`` wrote, ending in one LF, and nothing
    after it. Each other form (trailing blanks, no final newline, a CRLF line end, another
    spelling of the same base64) would be another file with the same signature, and another
    sha256 keying other dice (issue 29): refused, not repaired."""
    body, sig, _ = split(raw)
    if sig is None:
        return None
    line = raw[len(body):]
    want = signature_line(sig[0], sig[1])
    if line == want:
        return None
    if not line.endswith(b"\n"):
        return "the file does not end with a newline after the signature line"
    if line.endswith(b"\r\n"):
        return "the signature line ends with CRLF, not LF (the line ends were changed after signing)"
    if line.rstrip(b"\n").rstrip(b" \t") != want.rstrip(b"\n"):
        return ("the signature is written another way than pbem sign wrote it (its base64 spelling)"
                if line.rstrip(b"\n").rstrip(b" \t").split(b" ")[:3] == want.split(b" ")[:3] else
                "the signature line differs from the one pbem sign writes")
    return "blanks follow the signature on its line"


def _message(player: str, body: bytes) -> bytes:
    return _DOMAIN + player.encode("ascii") + b"\x00" + body


def sign(raw: bytes, player: str, private_hex: str) -> bytes:
    """``raw`` with its signature line (an earlier signature line is replaced)."""
    body, _, _ = split(raw)
    if body and not body.endswith(b"\n"):
        body += b"\n"
    k = _ed().Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return body + signature_line(player, k.sign(_message(player, body)))


def _valid(public_hex: str, player: str, body: bytes, sig: bytes) -> bool:
    """Whether ``sig`` signs exactly ``body`` (no other form of it: issue 29)."""
    from cryptography.exceptions import InvalidSignature  # slow: only where a signature is checked
    try:
        pk = _ed().Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        pk.verify(sig, _message(player, body))
        return True
    except (ValueError, InvalidSignature):
        return False


def _line_ends_changed(public_hex: str, player: str, body: bytes, sig: bytes) -> bool:
    """Whether ``sig`` signs ``body`` with other line ends (CRLF made LF, or LF made CRLF)."""
    lf = body.replace(b"\r\n", b"\n")
    return any(b != body and _valid(public_hex, player, b, sig) for b in (lf, lf.replace(b"\n", b"\r\n")))


def check(raw: bytes, name: str, claimed: str | None, keys: dict[str, str], what: str = "file") -> tuple[list[Issue], str]:
    """The signature problems of a file that says it comes from player ``claimed``, with the
    campaign's public keys ``keys`` (player -> hex). Returns (issues, status) with status
    ``signed`` (checked and good), ``unsigned`` (no key for the player, no signature: nothing
    checked) or ``bad``."""
    body, sig, misplaced = split(raw)
    key = keys.get(claimed) if claimed else None
    # the file the player signs: an attachment named MAIL#FILE is their FILE, not the mail
    own = name.rsplit("#", 1)[-1] if "#" in name else name
    if sig is None:
        if key:
            why = ("its signature line is not the last line (something was added after it)" if misplaced
                   else "it has no signature line (a file cut short loses it)")
            return [Issue("SIG-MISSING", f"the {claimed} player's {what} is not signed: {why}", file=name,
                          hint=f"the {claimed} player signs the final file: pbem sign {own} --key {claimed}.key")], "bad"
        return [], "unsigned"
    signer, s = sig
    if signer != claimed:
        good = signer in keys and _valid(keys[signer], signer, body, s)
        return [Issue("SIG-WRONG-PLAYER", f"the {what} says player {claimed!r} but is signed by the {signer} player"
                      + ("" if good else " (and that signature does not match either)"), file=name,
                      hint="a player may send only their own files")], "bad"
    form = form_problem(raw)
    if form and key:
        return [Issue("SIG-FORM", f"the {claimed} player's {what} is not in the form it was signed in: {form}", file=name,
                      hint="send the file exactly as `pbem sign` wrote it, as an attachment (an editor or a mail body may change "
                           f"blanks and line ends); or sign the final file again: pbem sign {own} --key {claimed}.key")], "bad"
    if not key:
        return [Issue("SIG-NO-KEY", f"the {what} is signed by the {signer} player, but the campaign holds no public key of theirs: the signature cannot be checked",
                      file=name, hint=f"the game master adds it: pbem key add CAMPAIGN {signer} PUBLIC-KEY")], "bad"
    if not _valid(key, signer, body, s):
        for other, k in sorted(keys.items()):
            if other != signer and _valid(k, other, body, s) or (other != signer and _valid(k, signer, body, s)):
                return [Issue("SIG-WRONG-PLAYER", f"the {what} says player {claimed!r} but was signed with the {other} player's key",
                              file=name, hint="a player may send only their own files")], "bad"
        if _line_ends_changed(key, signer, body, s):
            return [Issue("SIG-LINE-ENDS", f"the {claimed} player's {what} has other line ends (CRLF or LF) than the file that was signed",
                          file=name, hint="send the file exactly as `pbem sign` wrote it, as an attachment (a mail body or an editor "
                                          f"may change line ends); or sign the final file again: pbem sign {own} --key {claimed}.key")], "bad"
        return [Issue("SIG-BAD", f"the {claimed} player's signature does not match the {what}: it was changed after signing, or signed with another key",
                      file=name, hint=f"the {claimed} player signs the final file again: pbem sign {own} --key {claimed}.key")], "bad"
    return [], "signed"


def campaign_keys(manifest: dict[str, Any]) -> dict[str, str]:
    """player -> public key of the players that have one in campaign.yaml."""
    return {p: info["key"] for p, info in sorted((manifest.get("players") or {}).items())
            if isinstance(info, dict) and is_public_key(info.get("key", ""))}


def state_keys(state: dict[str, Any]) -> dict[str, str]:
    """player -> public key carried in a state (campaigns started since issue 29 carry the keys
    given at ``pbem new``): a player's own ``pbem validate`` checks signatures with them."""
    return {p: k for p, k in sorted((state.get("keys") or {}).items()) if is_public_key(k)}


def trusted_keys(camp: Campaign) -> dict[str, str]:
    """player -> public key to check arriving files with: the keys archived with the manifest
    at step 0 (``steps/000/campaign.json``), never those of the editable campaign.yaml (a key
    line deleted or swapped there would let an unsigned or another player's file through);
    campaign.yaml gives only the keys of players who had none then (``pbem key add``), and a
    replacement's key that names the archived key it replaces (``pbem player replace``; the
    newest archived copy of the manifest holds the keys in force)."""
    import json

    from .roles import pending_keys
    edited = campaign_keys(camp.manifest)
    copies = [p for _, p in camp.manifest_copies()]
    if not copies:
        return edited
    try:    # the newest copy: a replacement (pbem player replace, issue 34) archived at a later step
        archived = campaign_keys(json.loads(read_bytes_limited(copies[-1], 1_000_000)))
    except (ValueError, PbemError):
        return edited
    return dict(sorted({**{p: k for p, k in edited.items() if p not in archived}, **archived,
                        **pending_keys(camp.manifest, archived)}.items()))


def signing_summary(keys: dict[str, str], players: Iterable[str]) -> str:
    """One line saying who signs (issue 29: an unsigned campaign is a visible choice, shown in
    `pbem show` and every mail): ``keys`` player -> public key, ``players`` every player."""
    signed = sorted(p for p in players if p in keys)
    if not signed:
        return ("Signatures: none - an unsigned campaign (pbem new without --player-key): who sent a file, "
                "and whether it was cut short, is not checked")
    unsigned = sorted(p for p in players if p not in keys)
    return ("Signatures: every file of " + ", ".join(signed) + " is signed (Ed25519) and checked"
            + (f"; the files of {', '.join(unsigned)} are unsigned: who sent them is not checked" if unsigned else ""))
