"""E-mail in and out (standard library ``email`` only, policy ``email.policy.default``).

In: ``pbem validate`` and ``pbem adjudicate`` accept an e-mail among the order files: one
message (``.eml``) or a mailbox of several (mbox, recognised by its leading ``From `` line).
:func:`extract_orders` takes the order file out of each message:

1. an attachment whose file name ends in ``.yaml``/``.yml`` or whose content type is
   application/yaml, application/x-yaml, text/yaml or text/x-yaml: its bytes exactly as sent
   (base64 or quoted-printable decoded); a ``text/*`` attachment sent as 7bit, 8bit or
   quoted-printable gets its mail line ends (CRLF) back to LF;
2. else a text/plain part that holds an order file (a line ``schema: pbem/orders/...``):
   decoded from its transfer encoding and charset (``format=flowed`` undone), re-encoded as
   UTF-8, lines before the first YAML line (a greeting such as ``Hi Ben,``) and the signature
   (from a ``-- `` line on) left out.

A message with none (MAIL-NO-ORDERS), several (MAIL-SEVERAL-ORDERS), only an HTML body
(MAIL-HTML-ONLY), orders only in quoted text (MAIL-QUOTED: pbem does not guess which lines a
reply meant), or that is no e-mail at all (MAIL-UNREADABLE) is refused. The extracted bytes
are what the archive stores and hashes: the mail around them is not kept.

Who sent it: :func:`check_senders` compares each message's From with the e-mail campaign.yaml
gives the player its order file names (MAIL-FROM: an error, a warning when accepted).

Out: :func:`compose` writes, per player, a ready-to-send message for an adjudicated step:
the text report in the body with what is awaited from whom (:func:`body_lines`, the one place
where a body is built), the next state file, ``report.json`` and (when the game can draw one)
a small PNG preview of the map (:func:`_pictures`), the whole map as a zipped SVG on request
or when no PNG converter is installed. :func:`step_messages` composes them from the archive
only, so ``pbem adjudicate --mail`` and ``pbem mail`` (any archived step, again) write the same
bytes. The bytes are deterministic: the Message-ID is derived from campaign, step and player,
the MIME boundaries from a hash of the content, and there is no Date header unless one is given
(mail clients add it when sending). pbem sends nothing itself.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .archive import HEAD_LINE, head_lines
from .awaiting import awaited  # (not through pbem.core.kernel: pbem mail needs no engine, issue 35)
from .campaign import MAX_ORDERS_BYTES, MAX_STATE_BYTES, Campaign, load_state_bytes, load_state_file
from .data import load_ruleset
from .errors import ExitCode, Issue, PbemError, Severity, choice_text
from .files import atomic_write, read_bytes_limited
from .mailsniff import (  # noqa: F401 - the names stay pbem.core.mail's too
    _HEADERS,
    MAIL_SUFFIXES,
    MAX_MAIL_BYTES,
    SNIFF_BYTES,
    is_mail,
    read_mail,
)
from .yamlio import load_yaml

if TYPE_CHECKING:   # the email package is imported where a mail is read or written, so that
    # `pbem validate` of a plain order file does not pay for it
    from collections.abc import Callable
    from email.headerregistry import Address
    from email.message import EmailMessage, Message

    from .game import Game
    from .step import StepResult

YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
YAML_SUFFIXES = (".yaml", ".yml")
DEFAULT_SENDER = "pbem@localhost"
# A message's size aimed at (issues 16, 23: mails of 336-847 KB): the map preview gets what the
# state, report.json and body leave of it, never less than PREVIEW_MIN_BUDGET.
MAIL_TARGET = 150_000
PREVIEW_MIN_BUDGET = 30_000
_ORDERS_LINE = re.compile(r"^schema:[ \t]*[\"']?pbem/orders/", re.MULTILINE)
_QUOTED_ORDERS_LINE = re.compile(r"^>[> \t]*schema:[ \t]*[\"']?pbem/orders/", re.MULTILINE)
_YAML_START = re.compile(r"^(#|---|\.\.\.|[A-Za-z_][A-Za-z0-9_-]*:(?:[ \t]|$))")
_HINT_ATTACH = "attach the .yaml file, or send the orders as plain text in the body"


def expand(paths: list[Any], issues: list[Issue]) -> list[Any]:
    """``paths`` with every e-mail replaced by the orders it carries, as (name, bytes); other
    paths are kept as they are. The problems of the e-mails are appended to ``issues``."""
    out: list[Any] = []
    for p in paths:
        try:
            raw = read_mail(p)
        except PbemError as e:
            issues += e.issues
            continue
        if raw is None:
            out.append(p)
            continue
        found, iss = _extract(raw, str(p))
        issues += iss
        out += found
    return out


# ----------------------------------------------------------------------------- extraction
def extract_orders(raw: bytes, name: str) -> list[tuple[str, bytes]]:
    """One (name, bytes) per order file found in the e-mail ``raw`` (a message, or an mbox of
    several): ``NAME#file.yaml`` or ``NAME#body``, ``NAME#3/file.yaml`` for the 3rd message of
    an mbox. Raises PbemError (MAIL-*) when a message has no order file, several, only HTML,
    only quoted orders, or is no e-mail."""
    found, issues = _extract(raw, name)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    return found


def _extract(raw: bytes, name: str) -> tuple[list[tuple[str, bytes]], list[Issue]]:
    if raw.startswith(b"From "):
        msgs = split_mbox(raw)
        if not msgs:
            return [], [Issue("MAIL-UNREADABLE", f"{name}: an mbox without any message", file=name,
                              hint="give the .eml file of the message, or the mailbox file exported by the mail client")]
        many = len(msgs) > 1
        found, issues = [], []
        for k, m in enumerate(msgs, start=1):
            f, i = _one(m, f"{name}#{k}/" if many else f"{name}#", name, f"message {k} of {len(msgs)}" if many else "")
            found += f
            issues += i
        return found, issues
    return _one(raw, f"{name}#", name, "")


def split_mbox(raw: bytes) -> list[bytes]:
    """The messages of an mbox: a new one starts at each line beginning with ``From `` (as
    Python's :mod:`mailbox` reads them); ``>From `` lines are unescaped (mboxrd) and the blank
    line that separates two messages is dropped."""
    msgs: list[list[bytes]] = []
    for line in raw.splitlines(keepends=True):
        if line.startswith(b"From "):
            msgs.append([])
            continue
        if msgs:
            if line.startswith(b">") and line.lstrip(b">").startswith(b"From "):
                line = line[1:]
            msgs[-1].append(line)
    out = []
    for m in msgs:
        if m and not m[-1].strip(b"\r\n"):
            m = m[:-1]
        out.append(b"".join(m))
    return out


class Found(tuple[Any, ...]):
    """An order file taken out of a message: the pair (name, bytes), with the message's From
    as ``sender``: (display text, lowercased address), or None when it has none or several."""
    sender: tuple[str, str] | None

    def __new__(cls, name: str, data: bytes, sender: tuple[str, str] | None = None) -> Found:
        t = super().__new__(cls, (name, data))
        t.sender = sender
        return t


def _from_address(msg: Message) -> tuple[str, str] | None:
    try:
        h = msg["From"]
        addrs = list(getattr(h, "addresses", ()) or ())
    except Exception:  # noqa: BLE001 - a damaged From header
        return None
    if len(addrs) != 1 or not addrs[0].addr_spec or "@" not in addrs[0].addr_spec:
        return None
    return str(h).strip(), addrs[0].addr_spec.lower()


@dataclass
class _Part:
    label: str
    ctype: str
    filename: str | None
    data: bytes = b""
    text: str = ""          # a text body's


def _one(raw: bytes, prefix: str, file: str, which: str) -> tuple[list[tuple[str, bytes]], list[Issue]]:
    """The orders of one message: ``prefix`` + the part's name."""
    def issue(code: str, msg: str, hint: str | None = None) -> Issue:
        return Issue(code, f"{which}: {msg}" if which else msg, file=file, hint=hint)
    try:
        from email import policy
        from email.parser import BytesParser
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        if not any(h in msg for h in _HEADERS):
            return [], [issue("MAIL-UNREADABLE", "not an e-mail message (no mail header such as From, Subject or Content-Type)",
                              "give the message as saved by the mail client (.eml), or the order file itself")]
        parts = list(msg.walk())
        attached, bodies, htmls, seen, bad = [], [], [], [], []
        for k, part in enumerate(parts):
            if part.is_multipart():
                continue
            ctype = part.get_content_type()
            fname = _filename(part)
            seen.append(ctype + (f" {fname!r}" if fname else ""))
            if (fname and fname.lower().endswith(YAML_SUFFIXES)) or ctype in YAML_TYPES:
                attached.append(_Part(prefix + _safe(fname or f"part-{k}.yaml"), ctype, fname, _attachment_bytes(part)))
            elif ctype == "text/plain":
                try:
                    text = _text_of(part)
                except (LookupError, UnicodeDecodeError) as e:
                    bad.append(issue("MAIL-UNREADABLE", f"a text part cannot be decoded: {e}",
                                     "send the orders as a .yaml attachment or as UTF-8 text"))
                    continue
                bodies.append(_Part(prefix + (_safe(fname) if fname else "body"), ctype, fname, text=text))
            elif ctype == "text/html":
                htmls.append(part)
    except Exception as e:  # noqa: BLE001 - the email package raises many kinds of errors on damaged input
        return [], [issue("MAIL-UNREADABLE", f"the message cannot be read ({type(e).__name__}: {e})",
                          "give the message as saved by the mail client (.eml), or the order file itself")]
    sender = _from_address(msg)
    if len(attached) > 1:
        return [], [issue("MAIL-SEVERAL-ORDERS", f"{len(attached)} YAML attachments: " + ", ".join(p.label.split("#", 1)[1] for p in attached),
                          "send one order file per message (each player's orders in their own message)")]
    if attached:
        return [Found(attached[0].label, attached[0].data, sender)], []
    orders = [b for b in bodies if _ORDERS_LINE.search(b.text)]
    if any(_QUOTED_ORDERS_LINE.search(b.text) for b in bodies if b not in orders):
        return [], [issue("MAIL-QUOTED", "the orders in the body are quoted text (lines starting with '>'), as in a reply; "
                          "pbem does not guess which lines are meant", _HINT_ATTACH + ", without the quoted message")]
    if any(re.search(r"^>", b.text, re.MULTILINE) for b in orders):
        return [], [issue("MAIL-QUOTED", "the body holds quoted text (lines starting with '>', as in a reply) besides the orders; "
                          "pbem does not guess where the orders end", _HINT_ATTACH + ", without the quoted message")]
    if len(orders) > 1:
        return [], [issue("MAIL-SEVERAL-ORDERS", f"{len(orders)} text parts hold orders: " + ", ".join(p.label.split("#", 1)[1] for p in orders),
                          "send one order file per message")]
    if orders:
        return [Found(orders[0].label, _body_orders(orders[0].text).encode("utf-8"), sender)], []
    if bad:
        return [], bad
    if htmls and not bodies:
        return [], [issue("MAIL-HTML-ONLY", "the message has only an HTML body; pbem reads orders from a .yaml attachment or a plain-text body",
                          _HINT_ATTACH + " (switch the mail client to plain text)")]
    return [], [issue("MAIL-NO-ORDERS", "no order file: no .yaml attachment and no plain-text body with 'schema: pbem/orders/...'",
                      "found: " + _listing(seen) + ". " + _HINT_ATTACH)]


def _listing(seen: list[str], most: int = 10) -> str:
    """The parts a message holds, each once, at most ``most`` of them."""
    kinds = list(dict.fromkeys(seen))
    if not kinds:
        return "nothing"
    return "; ".join(kinds[:most]) + (f"; and {len(kinds) - most} more" if len(kinds) > most else "")


def state_of_mail(path: Path) -> tuple[dict[str, Any], str | None]:
    """The state a mail of ``adjudicate --mail`` attaches and the archive head its body gives
    for that state's step (``Archive head after step NNN: ...``; None when the body names none):
    what ``pbem chain reveal`` needs from a player who has the mail, not the archive. The state's
    hash is checked; refused (MAIL-NO-STATE) when the message attaches no state or several."""
    from email import policy  # lazy: see the top
    from email.parser import BytesParser
    raw = read_bytes_limited(Path(path), MAX_MAIL_BYTES)
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    found = []
    texts = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        fname = _filename(part)
        if fname and fname.lower().endswith((".yaml", ".yml")):
            data = _attachment_bytes(part)
            if len(data) <= MAX_STATE_BYTES and re.search(rb"^schema:[ \t]*[\"']?pbem/state/", data, re.MULTILINE):
                found.append((fname, data))
        elif part.get_content_type() == "text/plain" and not fname:
            texts.append(_text_of(part))
    if len(found) != 1:
        raise PbemError([Issue("MAIL-NO-STATE", f"{path}: the message attaches {'no' if not found else len(found)} state file{'s' if len(found) > 1 else ''}"
                               " (give the mail of `pbem adjudicate --mail` that asks for your link, or your copy of the campaign folder)",
                               file=str(path))], ExitCode.INVALID)
    st, _ = load_state_bytes(found[0][1], f"{path}#{_safe(found[0][0])}")
    heads = {m.group(2) for t in texts for m in HEAD_LINE.finditer(t) if int(m.group(1)) == st["step"]}
    if len(heads) > 1:
        raise PbemError([Issue("HEAD-NONE", f"{path} names {len(heads)} different archive heads after step {st['step']:03d}", file=str(path))])
    return st, (heads.pop() if heads else None)


def _filename(part: Message) -> str | None:
    try:
        f = part.get_filename()
    except Exception:  # noqa: BLE001 - a damaged RFC 2231 parameter
        return None
    return str(f) if f else None


def _safe(fname: str) -> str:
    """A file name to show in ``NAME#file``: no folders, no control characters."""
    base = re.split(r"[/\\]", fname)[-1]
    return "".join(c if c.isprintable() else "_" for c in base) or "attachment"


def _payload(part: Message) -> bytes:
    """A leaf part's content, transfer-decoded."""
    data = part.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""


def _attachment_bytes(part: Message) -> bytes:
    data = _payload(part)
    cte = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    if part.get_content_maintype() == "text" and cte != "base64":
        data = data.replace(b"\r\n", b"\n")      # canonical mail line ends back to the file's
    return data


def _text_of(part: Message) -> str:
    data = _payload(part)
    charset = part.get_content_charset() or "us-ascii"
    try:
        text = data.decode(charset)
    except UnicodeDecodeError:
        if charset not in ("us-ascii", "ascii"):
            raise
        text = data.decode("utf-8")               # 8-bit text labelled us-ascii by the client
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    return text


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo RFC 3676 ``format=flowed``: lines ending with a space continue on the next line
    (the space removed when ``delsp``), a leading space added by the sender is removed. Quoted
    lines keep their ``>`` marks (they are refused anyway)."""
    out: list[str] = []
    cur: str | None = None
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        quote, body = line[:depth], line[depth:]
        if body.startswith(" "):
            body = body[1:]
        if body == "-- ":
            if cur is not None:
                out.append(cur)
                cur = None
            out.append(quote + body)
            continue
        piece = body[:-1] if (delsp and body.endswith(" ")) else body
        cur = (quote + piece) if cur is None else cur + piece
        if not body.endswith(" "):
            out.append(cur)
            cur = None
    if cur is not None:
        out.append(cur)
    return "\n".join(out)


def _body_orders(text: str) -> str:
    """The order file in a plain-text body: from the first YAML line (a comment, ``---`` or a
    ``key:``) to the signature separator ``-- `` (excluded)."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if line == "-- ":
            lines = lines[:k]
            break
    start = next((k for k, line in enumerate(lines) if _YAML_START.match(line)), 0)
    body = "\n".join(lines[start:]).rstrip("\n")
    return body + "\n"


# ----------------------------------------------------------------------------- who sent it
def check_senders(paths: list[Any], manifest: dict[str, Any], *, any_sender: bool = False) -> list[Issue]:
    """MAIL-FROM for every file (order file, answer, reveal) taken out of a message whose From
    is not the e-mail that campaign.yaml gives the player the file names (its ``player:``), or
    that has no single From: an error,
    a warning with ``any_sender``. A player without an e-mail in campaign.yaml cannot be
    checked (MAIL-FROM-UNCHECKED, a warning). Plain order files (no mail) and messages that
    cannot be read are left to the order file loader, which reports them. A From proves
    nothing against a forger (anyone can write any From): this catches mistakes, such as a
    player sending another's file, or a file forwarded from someone else."""
    players = dict(manifest.get("players") or {})
    wit = witness_recipient(manifest)
    if wit:     # a reveal of player witness: from his address only
        players["witness"] = wit
    out: list[Issue] = []
    for p in paths:
        try:
            raw = read_mail(Path(p))
        except PbemError:
            continue
        if raw is None:
            continue
        found, _ = _extract(raw, str(p))
        for f in found:
            name, data = f[0], f[1]
            try:
                doc = load_yaml(data, name, max_bytes=MAX_ORDERS_BYTES).data
                player = doc.get("player") if isinstance(doc, dict) else None
            except Exception:  # noqa: BLE001 - the loader reports it
                continue
            if not isinstance(player, str) or player not in players:
                continue
            expected = str((players.get(player) or {}).get("email") or "").strip()
            sender = getattr(f, "sender", None)
            if not expected:
                out.append(Issue("MAIL-FROM-UNCHECKED", f"{name}: campaign.yaml has no e-mail for the {player} player, so "
                                 f"the sender ({sender[0] if sender else 'none'}) was not checked", file=name,
                                 severity=Severity.WARNING, hint="add the player's e-mail to campaign.yaml"))
                continue
            if sender is not None and sender[1] == expected.lower():
                continue
            said = f"is from {sender[0]}" if sender else "has no single From address"
            out.append(Issue("MAIL-FROM", f"{name}: the message {said}, but its file is the {player} player's "
                             f"(player: {player}), whose e-mail in campaign.yaml is {expected}", file=name,
                             text=sender[0] if sender else None,
                             severity=Severity.WARNING if any_sender else Severity.ERROR,
                             hint=None if any_sender else
                             "if the player did send it from another address, accept it with --any-sender (then a "
                             "warning), or put that address in campaign.yaml; if not, ask the player for the file"))
    return out


# ----------------------------------------------------------------------------- composing
class Outgoing:
    """One message written by :func:`compose`: the player, the .eml file name, the message
    (an ``EmailMessage``, built when asked for) and its bytes (:meth:`data`): written without
    the ``email`` package in the plain case (:mod:`pbem.core.mailwrite`, the same bytes), else
    the message's. ``to``: the To header's text, or None."""

    def __init__(self, player: str, filename: str, message: EmailMessage | Callable[[], EmailMessage],
                 data: bytes | None = None, to: str | None = None) -> None:
        self.player, self.filename = player, filename
        self._message, self._data, self._to = message, data, to

    @property
    def message(self) -> EmailMessage:
        if callable(self._message):
            self._message = self._message()
        return self._message

    @property
    def to(self) -> str | None:
        if self._data is None:
            to = self.message["To"]
            return str(to) if to is not None else None
        return self._to

    def data(self) -> bytes:
        """The message's bytes, as ``message.as_bytes(policy=email.policy.default)`` writes them."""
        if self._data is None:
            from email import policy  # lazy: see the top
            return self.message.as_bytes(policy=policy.default)
        return self._data


@dataclass
class Attachment:
    """One attached file: its name, bytes, MIME type and what the body says of it."""
    filename: str
    data: bytes
    maintype: str
    subtype: str
    about: str


@dataclass
class BodyContext:
    """Everything one player's message body is made of (:func:`body_lines`)."""
    g: Game[Any]
    state: dict[str, Any]
    manifest: dict[str, Any]
    player: str
    state_file: str
    text: str                       # the text report (report.txt)
    attachments: list[Attachment]
    notes: list[str]
    footer: list[str] = field(default_factory=list)   # lines every message carries (an archive head, ...)


def mail_name(step: int, player: str) -> str:
    return f"step-{step:03d}-to-{player}.eml"


def phase_title(g: Game[Any], phase: str) -> str:
    """``soviet.replacement`` -> ``Soviet replacement phase`` (the game's own titles if it has them);
    ``end`` (a game over) -> ``end of the game``."""
    if phase == "end":
        return "end of the game"      # Battle for Germany's phase_title had no word for it (a crash at the last step)
    f = getattr(g, "phase_title", None)
    if callable(f):
        try:
            return str(f(phase))
        except Exception:  # noqa: BLE001, S110 - a phase the game has no title for: the generic words, not a lost mail
            pass
    force, _, step = phase.partition(".")
    return " ".join(w.capitalize() for w in force.split("-")) + (f" {step}" if step else "") + " phase"


def result_phrase(r: dict[str, Any]) -> str:
    """``draw``, ``allies wins`` or ``allies and ussr win`` for a state's ``result``."""
    if r.get("draw"):
        return "draw"
    winners = [str(w) for w in (r.get("winners") or ([r["winner"]] if r.get("winner") else []))]
    if not winners:
        return "over"
    return " and ".join(winners) + (" win" if len(winners) > 1 else " wins")


def _awaited(state: dict[str, Any]) -> list[dict[str, Any]]:
    return awaited(state)


def subject(g: Game[Any], state: dict[str, Any]) -> str:
    st = state
    head = f"[pbem] {st['game']} {st['campaign']} - turn {st['turn']} {phase_title(g, st['phase'])} - step {st['step']:03d}"
    if st.get("result"):
        return head + f" (game over: {result_phrase(st['result'])})"
    aw = _awaited(st)
    if aw:
        return head + " (awaiting: " + ", ".join(f"{a['player']} {a['for']}" for a in aw) + ")"
    return head


def _sender(manifest: dict[str, Any], sender: str | None) -> str:
    gm = sender or manifest.get("gm")
    if isinstance(gm, dict):
        gm = gm.get("email")
    return str(gm) if gm else DEFAULT_SENDER


def witness_recipient(manifest: dict[str, Any]) -> dict[str, str] | None:
    """The witness as a recipient, {name, email}, when campaign.yaml gives his e-mail
    (``pbem new --witness-email``) and no player is called ``witness``: the mails asking for
    his link go to him, and his reveals are taken from that address only."""
    w = (manifest.get("dice") or {}).get("witness") or {}
    if not w.get("email") or "witness" in (manifest.get("players") or {}):
        return None
    return {"name": str(w.get("name", "witness")), "email": str(w["email"])}


def _witness_name(state: dict[str, Any], p: str) -> str | None:
    """The witness's name when ``p`` is the witness of the state's hash chains (issue 29)."""
    w = (state.get("dice") or {}).get("witness")
    return w["name"] if w and p == "witness" else None


def awaited_lines(g: Game[Any], state: dict[str, Any], manifest: dict[str, Any], player: str, state_file: str) -> list[str]:
    """What is awaited from whom after the step, as ``player`` reads it: every awaited player
    (several in a simultaneous phase or when several decisions are pending), whose files were
    received already, the pending decisions, and for ``player``, if awaited, the commands that
    write and check the reply."""
    players = manifest.get("players") or {}

    def who(p: str) -> str:
        name = (players.get(p) or {}).get("name") or (state.get("players") or {}).get(p, p)
        return f"the witness ({_witness_name(state, p)})" if p not in players and _witness_name(state, p) else f"the {p} player ({name})"
    L: list[str] = []
    if state.get("result"):
        r = state["result"]
        L.append("The game is over: " + ("a draw" if r.get("draw") else f"{result_phrase(r)}")
                 + (f" - {r['reason']}" if r.get("reason") else "") + ".")
        L.append("Anyone can check the whole archive with `pbem replay` once the dice are public.")
        return L
    aw = _awaited(state)
    if not aw:
        return L
    where = f"turn {state['turn']}, {phase_title(g, state['phase'])}"
    pending = state.get("pending") or []
    L.append(f"Awaited now ({where}):")
    for a in aw:
        p = a["player"]
        kind = "a decision" if a["for"] == "decision" else str(a["for"])
        L.append(f"  - {kind} from {who(p)}" + (" - that is you" if p == player else ""))
        if a["for"] == "decision":
            for d in (d for d in pending if d.get("player") == p):
                L.append(f"      {d['id']}: {d.get('prompt', '')}; options: "
                         + " | ".join(choice_text(o) for o in d.get("options", [])))
    received = sorted(state.get("received") or {})
    if received:
        L.append("Received already for this phase: " + ", ".join(
            f"the orders of {who(p)}" + (" (yours)" if p == player else "") for p in received) + ".")
    mine = [a for a in aw if a["player"] == player]
    keyed = bool(((players.get(player) or {}) if isinstance(players.get(player), dict) else {}).get("key"))
    sign = f" --key {player}.key" if keyed else ""
    links = [a for a in mine if a["for"] == "links"]
    files = [a for a in mine if a["for"] != "links"]
    if links:
        L.append("Reveal your next chain link for the archived files: save this message (e.g. as THIS.eml),"
                 + (" reveal (signed)" if keyed else " reveal") + " and send the reveal back attached to a reply:")
        # one file name per link: no FILE-EXISTS in the next round
        L.append(f"  pbem chain reveal {player}.chain THIS.eml -o reveal-{player}-{(state.get('dice') or {}).get('used', 0) + 1:03d}.yaml{sign}")
    if files:
        what = "the answer file" if all(a["for"] == "decision" for a in files) else "the order file"
        L.append(f"Write {what} from the attached state file, {'sign it, ' if keyed else ''}check it, and send it back attached to a reply:")
        mine_file = f"{player}-{state['campaign']}-{state['step'] + 1:03d}.yaml"
        L.append(f"  pbem orders template {state_file} --player {player} -o {mine_file}")
        if keyed:       # signed before the check: validate refuses an unsigned file as adjudicate does
            L.append(f"  pbem sign {mine_file}{sign}")
        L.append(f"  pbem validate {state_file} {mine_file}")
    if mine:
        pass
    elif player in received:
        L.append("Your orders for this phase are in: nothing is awaited from you now.")
    else:
        L.append("Nothing is awaited from you now.")
    return L


def body_lines(ctx: BodyContext) -> list[str]:
    """The body of one player's message, line by line. The one place where a body is built:
    a line every message carries (a signature, the archive's head) is added here."""
    L = ctx.text.rstrip("\n").split("\n")
    L += ["", "-" * 72]
    L += awaited_lines(ctx.g, ctx.state, ctx.manifest, ctx.player, ctx.state_file)
    L.append("")
    from .chain import dice_summary  # every message says how the dice are made (issue 29)
    L.append(dice_summary(ctx.state.get("dice") or {}))
    from .signing import campaign_keys, signing_summary, state_keys
    L.append(signing_summary({**campaign_keys(ctx.manifest), **state_keys(ctx.state)}, sorted(ctx.manifest.get("players") or {})))
    L.append("Attached: " + "; ".join(f"{a.filename} ({a.about})" for a in ctx.attachments) + ".")
    L += [f"({n})" for n in ctx.notes]
    L += ctx.footer
    L.append("Written by pbem (`pbem adjudicate --mail`, or again by `pbem mail`); pbem sends nothing itself.")
    return L


def _address(player: str, info: dict[str, Any]) -> Address | Issue:
    """The To of a player's message, or a MAIL-ADDRESS issue for an e-mail or name in
    campaign.yaml that makes no address (several addresses, CR/LF, no domain)."""
    from email.headerregistry import Address  # lazy: see the top
    email = str(info.get("email") or "")
    try:
        a = Address(display_name=str(info.get("name", "")), addr_spec=email)
        if "@" not in a.addr_spec or not a.domain:
            raise ValueError("no domain")
        return a
    except Exception as e:  # noqa: BLE001 - the email package says why in its own words
        return Issue("MAIL-ADDRESS", f"the {player} player's e-mail or name in campaign.yaml makes no address: "
                     f"name {str(info.get('name', ''))!r}, e-mail {email!r} ({e})", text=email, file="campaign.yaml",
                     hint="correct it in campaign.yaml (one address per player), then write the messages with `pbem mail`")


def check_addresses(manifest: dict[str, Any], sender: str | None = None) -> list[Issue]:
    """MAIL-ADDRESS for every player's e-mail in campaign.yaml, and for the From, that makes no
    address: checked by ``adjudicate --mail`` before anything is adjudicated."""
    from .mailwrite import plain_address, plain_sender  # (a plain address is one: no email package asked)
    out = []
    wit = witness_recipient(manifest)
    for player, info in sorted({**(manifest.get("players") or {}), **({"witness": wit} if wit else {})}.items()):
        if (info or {}).get("email") and plain_address(str(info.get("name", "")), str(info["email"])) is None:
            a = _address(player, info or {})
            if isinstance(a, Issue):
                out.append(a)
    frm = _sender(manifest, sender)
    if plain_sender(frm) is not None:
        return out
    try:
        from email import policy  # lazy: see the top
        from email.message import EmailMessage
        m = EmailMessage(policy=policy.default)
        m["From"] = frm
        if len(m["From"].addresses) != 1 or "@" not in m["From"].addresses[0].addr_spec or m["From"].defects:
            raise ValueError("not one address")
    except Exception as e:  # noqa: BLE001 - the email package says why in its own words
        out.append(Issue("MAIL-ADDRESS", f"the sender {frm!r} is no e-mail address ({e})", text=frm,
                         hint="give --mail-from one address, e.g. 'GM <gm@example.net>', or correct gm: in campaign.yaml"))
    return out


def compose(*, g: Game[Any], rs: Any, manifest: dict[str, Any], report: dict[str, Any], text: str, state: dict[str, Any], state_bytes: bytes,
            report_bytes: bytes | None, sender: str | None = None, date: str | None = None,
            svg: bool = False, players: list[str] | None = None, footer: list[str] | None = None,
            ) -> tuple[list[Outgoing], list[Issue], list[str]]:
    """The messages of one adjudicated step, one per player of the manifest (or of
    ``players``): (messages, warnings, notes). ``state`` is the new state,
    ``state_bytes``/``report_bytes`` the archived state file and report.json, ``text`` the
    text report. ``date`` (an RFC 5322 date) is the only source of a Date header: there is
    none by default. ``svg``: attach the full map as a zipped SVG besides the PNG preview.
    ``footer``: lines for the end of every body (:func:`body_lines`)."""
    bad = check_addresses(manifest, sender)
    if bad:
        raise PbemError(bad, ExitCode.INVALID)
    state_file = report["output"]["state"]
    step = state["step"]
    warnings: list[Issue] = []
    notes: list[str] = []
    atts = _attachments(g, rs, state, report, text, state_bytes, report_bytes, notes, warnings, svg=svg)
    subj = subject(g, state)
    frm = _sender(manifest, sender)
    thread_seed = f"{state['campaign']}\0" + json.dumps(manifest.get("dice"), sort_keys=True)
    everyone = dict(manifest.get("players") or {})
    wit = witness_recipient(manifest)
    if wit and any(a["player"] == "witness" for a in _awaited(state)):
        everyone["witness"] = wit       # a links request with missing orders: to the witness too
    out = []
    encoded: list[Any] = []     # the attachments in base64, once for every message (mailwrite)
    for player in sorted(everyone):
        if players is not None and player not in players:
            continue
        info = everyone[player] or {}
        if not info.get("email"):
            warnings.append(Issue("MAIL-NO-ADDRESS", f"the {player} player has no e-mail in campaign.yaml: "
                                  f"{mail_name(step, player)} has no To", severity=Severity.WARNING,
                                  hint="add the recipient in the mail client before sending"))
        # the state hash covers the campaign, its dice commitment and the whole position
        seed = f"{state['campaign']}\0{step}\0{player}\0{state.get('hash', '')}"
        headers = [("From", frm), *([("To", info)] if info.get("email") else []), ("Subject", subj),
                   *([("Date", date)] if date else []),
                   ("Message-ID", f"<pbem.{_h(seed)[:32]}.{step:03d}.{player}@pbem.localhost>"),
                   # every message of the campaign to this player refers to one thread id: clients group them
                   ("References", f"<pbem.{_h(thread_seed + chr(0) + player)[:32]}@pbem.localhost>"),
                   ("X-Pbem-Campaign", str(state["campaign"])), ("X-Pbem-Step", f"{step:03d}")]
        ctx = BodyContext(g=g, state=state, manifest=manifest, player=player, state_file=state_file,
                          text=text, attachments=atts, notes=notes, footer=list(footer or []))
        body = "\n".join(body_lines(ctx)) + "\n"
        data, to = _plain_message(headers, body, atts, encoded, seed)
        out.append(Outgoing(player, mail_name(step, player), partial(_message, player, headers, body, atts, seed), data, to))
    return out, warnings, notes


def _message(player: str, headers: list[tuple[str, Any]], body: str, atts: list[Attachment], seed: str) -> EmailMessage:
    """One player's message as an ``EmailMessage`` (policy.default): the headers (To: the
    player's entry in campaign.yaml), the body in quoted-printable, the attachments."""
    from email import policy  # lazy: see the top
    from email.message import EmailMessage
    msg = EmailMessage(policy=policy.default)
    for name, value in headers:
        msg[name] = _address(player, value) if name == "To" else value
    msg.set_content(body, cte="quoted-printable")
    for a in atts:
        msg.add_attachment(a.data, maintype=a.maintype, subtype=a.subtype, filename=a.filename)
    _fix_boundaries(msg, seed)
    return msg


def _plain_message(headers: list[tuple[str, Any]], body: str, atts: list[Attachment], encoded: list[Any],
                   seed: str) -> tuple[bytes | None, str | None]:
    """The bytes of :func:`_message`'s message written without the ``email`` package
    (:mod:`pbem.core.mailwrite`) and its To, or (None, None) when it is not the plain case."""
    from . import mailwrite
    plain = []
    to = None
    for name, value in headers:
        if name == "To":
            value = to = mailwrite.plain_address(str(value.get("name", "")), str(value.get("email") or ""))
        elif name == "From":
            value = mailwrite.plain_sender(value)
        elif name == "Date":
            value = None    # (parsed and written again by the email package)
        if value is None:
            return None, None
        plain.append((name, value))
    if not encoded:
        encoded += [(a, mailwrite.base64_body(a.data)) for a in atts]
    data = mailwrite.message_bytes(plain, next(v for k, v in plain if k == "Subject"), mailwrite.text_body(body), encoded, seed)
    return data, (to if data is not None else None)


def _attachments(g: Game[Any], rs: Any, state: dict[str, Any], report: dict[str, Any], text: str, state_bytes: bytes, report_bytes: bytes | None,
                 notes: list[str], warnings: list[Issue], *, svg: bool) -> list[Attachment]:
    """The files every message of the step carries: the state, report.json and the map."""
    state_file = report["output"]["state"]
    atts = [Attachment(state_file, state_bytes, "application", "yaml", "the new state" if report_bytes is not None else "the initial state")]
    if report_bytes is not None:        # step 000 (the start) has no report
        atts.append(Attachment("report.json", report_bytes, "application", "json", "every event and die roll, for `pbem replay`"))
    # the preview gets what is left of MAIL_TARGET once the state, report.json (base64: 4/3, a
    # line end every 76) and the body (quoted-printable) are counted: a step with a big state (a pending decision) gets a smaller picture
    others = sum(len(a.data) for a in atts) * 4 * 77 // (3 * 76) + len(text.encode("utf-8")) * 11 // 10 + 4_000
    budget = max(PREVIEW_MIN_BUDGET, (MAIL_TARGET - others) * 3 // 4)
    return atts + _pictures(g, rs, state, report, state_file, notes, warnings, svg=svg, budget=budget)


def _pictures(g: Game[Any], rs: Any, state: dict[str, Any], report: dict[str, Any], state_file: str, notes: list[str],
              warnings: list[Issue], *, svg: bool = False, budget: int | None = None) -> list[Attachment]:
    """The map pictures of a step's mails, or none (with a note why): a small PNG preview
    (:func:`pbem.core.png.preview_png`: at most 900 x 680 pixels, 48 colours, 55-60 KB) when a
    converter is present; the full SVG, zipped (SVG compresses five to ten times: 40 KB for
    Battle for Germany, 200 KB for BlitzWAR), when ``svg`` is asked for, or when there is no
    converter (with the warning MAIL-MAP-SVG to the game master). Every player can draw the
    SVG from the attached state and report.json."""
    # the picture as drawn where the game gives it (pbem.core.mapdraw.Picture: the preview is
    # painted from it, its SVG text written only for an SVG attachment, issue 35), else its SVG
    draw = getattr(g, "draw_picture", None) or getattr(g, "draw_map", None)
    if draw is None:
        notes.append("no map picture: this game cannot draw one yet")
        return []
    try:
        pic = draw(rs, state, report=report if "step" in report else None)     # (the start has none)
    except Exception as e:  # noqa: BLE001 - the step is archived already: the messages go without the picture
        notes.append(f"no map picture: drawing it failed ({type(e).__name__}: {e})")
        return []
    if isinstance(pic, bytes):
        pic = pic.decode("utf-8")
    base = f"{state['campaign']}-{state['step']:03d}-map"
    from .png import PREVIEW_BUDGET, png_converter, preview_png  # lazy: its converters only for a map
    out: list[Attachment] = []
    if png_converter() is not None:
        try:
            png = preview_png(pic, budget=min(PREVIEW_BUDGET, budget or PREVIEW_BUDGET))
        except PbemError as e:
            warnings.append(Issue("MAIL-MAP-SVG", f"the map goes as SVG: {e.issues[0].message}",
                                  severity=Severity.WARNING))
            svg = True
        else:
            out.append(Attachment(f"{base}.png", png, "image", "png",
                                  "a preview of the map; to zoom and see unit details, draw it as SVG: "
                                  f"pbem map {state_file}{' --report report.json' if state['step'] else ''} -o {base}.svg"))
    else:
        warnings.append(Issue("MAIL-MAP-SVG", "no PNG converter here: the map goes as a zipped SVG, "
                              "which mail clients cannot show", severity=Severity.WARNING,
                              hint="install one for a small PNG preview instead: pip install 'pbem[png]' "
                                   "(or rsvg-convert, or inkscape)"))
        svg = True
    if svg:
        data = (pic if isinstance(pic, str) else pic.text()).encode("utf-8")
        out.append(Attachment(f"{base}.svg.zip", zipped(f"{base}.svg", data), "application", "zip",
                              f"the whole map as SVG, zipped: unzip it and open {base}.svg in a web browser"))
    return out


def zipped(name: str, data: bytes) -> bytes:
    """A zip archive holding one file ``name``: deterministic (a fixed date, no extra fields)."""
    import zipfile  # lazy: only for --svg
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        z.writestr(info, data, compresslevel=9)
    return buf.getvalue()


def _h(s: str | bytes) -> str:
    return hashlib.sha256(s.encode("utf-8") if isinstance(s, str) else s).hexdigest()


def _fix_boundaries(msg: EmailMessage, seed: str) -> None:
    """Deterministic MIME boundaries (:func:`pbem.core.mailwrite.boundary`) from the seed and
    the content."""
    from .mailwrite import boundary
    content = _h(b"".join(_payload(p) for p in msg.walk() if not p.is_multipart()))
    for k, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(boundary(seed, content, k))


# ----------------------------------------------------------------------------- writing
def _step_of(camp: Campaign, step: int | None) -> tuple[int, Path]:
    """The archived step ``step`` (default the last) of the campaign and its folder; steps/000
    is the start: its mails give every player the initial state and what is awaited."""
    dirs = {int(d.name): d for d in camp.step_dirs()}
    last = max(dirs) if dirs else 0
    n = last if step is None else int(step)
    if n not in dirs or (n == 0 and step is None):
        what = "no step is adjudicated yet" if last == 0 else f"the archived steps are 1 to {last}"
        raise PbemError([Issue("MAIL-NO-STEP", f"{camp.root} has no adjudicated step {n:03d}: {what}",
                               file=str(camp.root), hint="give --step with an archived step (steps/NNN, not 000)")],
                        ExitCode.USAGE)
    return n, dirs[n]


def start_text(manifest: dict[str, Any], state: dict[str, Any]) -> str:
    """The body's head of the mail of step 000 (the start; no report): the campaign, its
    players (and whether each signs), its dice."""
    L = [f"pbem {manifest.get('game')} - campaign {manifest.get('id')} - the start ({manifest.get('scenario')})"]
    if manifest.get("title"):
        L.append(str(manifest["title"]))
    L.append("")
    L.append("Players:")
    for p, info in sorted((manifest.get("players") or {}).items()):
        info = info or {}
        L.append(f"  {p}: {info.get('name', p)}" + (f" <{info['email']}>" if info.get("email") else "")
                 + (f"; signs every file (public key {info['key'][:16]}...)" if info.get("key") else ""))
    from .chain import dice_summary
    L.append(dice_summary(state.get("dice") or {}))
    from .signing import campaign_keys, signing_summary, state_keys
    L.append(signing_summary({**campaign_keys(manifest), **state_keys(state)}, sorted(manifest.get("players") or {})))
    return "\n".join(L) + "\n"


def step_messages(campaign_folder: Path, step: int | None = None, *, sender: str | None = None,
                  date: str | None = None, svg: bool = False, players: list[str] | None = None,
                  written: dict[str, Any] | None = None,
                  ) -> tuple[int, list[Outgoing], list[Issue], list[str]]:
    """The messages of an archived step (default the last), composed from what the archive
    holds (the state file, report.json, report.txt) and campaign.yaml (the players' names and
    e-mails): the same bytes whenever it is asked, as long as none of these changed.
    ``written``: the state of that step as this process just archived it (the StepResult's),
    taken for the state file's when that file carries its hash, instead of reading the file
    again (a parse, a schema check and a hash: the loaded state equals it, tests/test_mail_state_once.py).
    (step, messages, warnings, notes)."""
    camp = Campaign(campaign_folder)
    if players is not None:
        unknown = sorted(set(players) - set(camp.manifest.get("players") or {}))
        if unknown:
            known = ", ".join(sorted(camp.manifest.get("players") or {}))
            raise PbemError([Issue("MAIL-PLAYER", f"no player {p!r} in this campaign (players: {known})", text=p)
                             for p in unknown], ExitCode.USAGE)
    n, sd = _step_of(camp, step)
    spath = camp.state_path(sd)
    state, state_bytes = _archived_state(spath, n, written)
    if n == 0:      # the start: no report, the initial state and who plays
        report_bytes = None
        report: dict[str, Any] = {"output": {"state": spath.name}, "events": []}
        text = start_text(camp.manifest, state)
    else:
        report_bytes = read_bytes_limited(camp.inside(sd / "report.json"), 50_000_000)
        text = read_bytes_limited(camp.inside(sd / "report.txt"), 50_000_000).decode("utf-8")
        report = json.loads(report_bytes)
    if (report.get("output") or {}).get("state") != spath.name:
        raise PbemError([Issue("FILE-ARCHIVE", f"{sd}: report.json names the state {report.get('output', {}).get('state')!r}, "
                               f"the folder holds {spath.name}", file=str(sd), hint="check the archive with `pbem replay`")],
                        ExitCode.INVALID)
    g, rs = load_ruleset(state["scenario"])
    msgs, warnings, notes = compose(g=g, rs=rs, manifest=camp.manifest, report=report, text=text, state=state,
                                    state_bytes=state_bytes, report_bytes=report_bytes, sender=sender, date=date,
                                    svg=svg, players=players, footer=head_lines(camp.root, camp.manifest.get("id"), n))
    return n, msgs, warnings, notes


def _archived_state(spath: Path, step: int, written: dict[str, Any] | None) -> tuple[dict[str, Any], bytes]:
    """The state file ``spath`` of step ``step``: ``written`` (the state this process wrote
    there) when the file's bytes carry its hash, else the file read and checked."""
    if written is None or written.get("step") != step or not isinstance(written.get("hash"), str):
        return load_state_file(spath)
    raw = read_bytes_limited(spath, MAX_STATE_BYTES)
    if f'\nhash: "{written["hash"]}"'.encode() not in raw:
        return load_state_bytes(raw, spath)
    return written, raw


def outbox_targets(folder: Path, campaign_folder: Path, sender: str | None = None) -> list[Path]:
    """The .eml files ``pbem adjudicate --mail FOLDER`` will write for the campaign's next step;
    FILE-EXISTS if one of them exists, MAIL-ADDRESS if an address cannot be written (checked
    before anything is adjudicated)."""
    camp = Campaign(campaign_folder)
    # the next step's number from the last step folder's name: the state itself is loaded and
    # checked once, by the adjudication (a state whose step is not its folder's is a broken
    # archive, which `pbem replay` refuses; and write_messages never overwrites in any case)
    dirs = camp.step_dirs()
    last = int(dirs[-1].name) if dirs else camp.current()[1]["step"]      # (none: FILE-ARCHIVE)
    check_outbox(folder, campaign_folder)
    paths = [Path(folder) / mail_name(last + 1, p) for p in sorted(camp.manifest.get("players") or {})]
    _refuse_existing(paths, "pbem never overwrites a message: give another --mail folder or move the old messages")
    bad = check_addresses(camp.manifest, sender)
    if bad:
        raise PbemError(bad, ExitCode.INVALID)
    return paths


def check_outbox(folder: Path, campaign_folder: Path) -> None:
    """MAIL-OUTBOX when the messages would go into the campaign's archive (steps/, private/,
    schemas/): the archive holds only what pbem archived."""
    root = Path(campaign_folder).resolve()
    out = Path(folder).resolve()
    for sub in ("steps", "private", "schemas"):
        if out == root / sub or (root / sub) in out.parents:
            raise PbemError([Issue("MAIL-OUTBOX", f"{folder} is inside the campaign's {sub}/ folder: messages never go "
                                   "into the archive", file=str(folder), hint="give a folder outside it, e.g. outbox/")],
                            ExitCode.USAGE)


def _refuse_existing(paths: list[Path], hint: str = "give another folder or move the old messages; "
                                                   "`pbem mail` replaces them with --force") -> None:
    there = [p for p in paths if os.path.lexists(p)]
    if there:
        raise PbemError([Issue("FILE-EXISTS", f"{p} already exists", file=str(p), hint=hint) for p in there], ExitCode.IO)


def write_messages(msgs: list[Outgoing], folder: Path, *, force: bool = False) -> list[tuple[Path, Outgoing]]:
    """Write the messages into ``folder`` (made if missing), each atomically. An existing file
    is refused (FILE-EXISTS, checked for all before any is written) unless ``force``."""
    folder = Path(folder)
    if not force:
        _refuse_existing([folder / m.filename for m in msgs])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PbemError([Issue("FILE-WRITE", f"cannot make the folder {folder}: {e.strerror or e}", file=str(folder))],
                        ExitCode.IO) from None
    written = []
    for m in msgs:
        p = folder / m.filename
        atomic_write(p, m.data(), overwrite=force)
        written.append((p, m))
    return written


def write_step_mail(campaign_folder: Path, res: StepResult, folder: Path, *, sender: str | None = None,
                    date: str | None = None, svg: bool = False,
                    ) -> tuple[list[tuple[Path, Outgoing]], list[Issue], list[str]]:
    """Compose and write the messages of the step ``res`` (a StepResult of
    :func:`pbem.core.actions.adjudicate_campaign`) into ``folder``, from the archived files
    (as ``pbem mail`` does: the same bytes). Never overwrites (FILE-EXISTS)."""
    assert res.step_dir is not None, "a step written has its folder"
    step = int(Path(res.step_dir).name)
    _, msgs, warnings, notes = step_messages(campaign_folder, step, sender=sender, date=date, svg=svg, written=res.state)
    return write_messages(msgs, folder), warnings, notes
