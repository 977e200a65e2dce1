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

Out: :func:`compose` writes, per player, a ready-to-send message for an adjudicated step:
the text report in the body with what is awaited from whom, the next state file,
``report.json`` and (when the game can draw one) the map picture as attachments: a PNG when a
converter is installed, else the SVG (:func:`_picture`). The bytes are
deterministic: the Message-ID is derived from campaign, step and player, the MIME boundaries
from a hash of the content, and there is no Date header unless one is given (mail clients
add it when sending). pbem sends nothing itself.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ExitCode, Issue, PbemError, Severity
from .files import atomic_write, read_bytes_limited

if TYPE_CHECKING:   # the email package is imported where a mail is read or written, so that
    # `pbem validate` of a plain order file does not pay for it
    from email.message import EmailMessage, Message

MAX_MAIL_BYTES = 25_000_000
SNIFF_BYTES = 8192
MAIL_SUFFIXES = (".eml", ".mbox")
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
YAML_SUFFIXES = (".yaml", ".yml")
DEFAULT_SENDER = "pbem@localhost"
_HEADERS = ("From", "To", "Cc", "Subject", "Date", "Message-ID", "Message-Id", "MIME-Version",
            "Mime-Version", "Received", "Return-Path", "Delivered-To", "Content-Type", "Reply-To",
            "X-Mailer", "User-Agent")
_FIELD = re.compile(rb"^([!-9;-~]+):")
_ORDERS_LINE = re.compile(r"^schema:[ \t]*[\"']?pbem/orders/", re.MULTILINE)
_QUOTED_ORDERS_LINE = re.compile(r"^>[> \t]*schema:[ \t]*[\"']?pbem/orders/", re.MULTILINE)
_YAML_START = re.compile(r"^(#|---|\.\.\.|[A-Za-z_][A-Za-z0-9_-]*:(?:[ \t]|$))")
_HINT_ATTACH = "attach the .yaml file, or send the orders as plain text in the body"


# ----------------------------------------------------------------------------- detection
def is_mail(path: Path | str, raw: bytes) -> bool:
    """True for an e-mail: a ``.eml``/``.mbox`` file name, or content that starts with an mbox
    ``From `` line or with RFC 5322 header fields (among them one a mail always has, such as
    From, Subject or Message-ID). ``raw`` may be only the first few kilobytes. An order file
    is never taken for a mail: its top-level keys are no mail headers."""
    if Path(path).suffix.lower() in MAIL_SUFFIXES:
        return True
    if raw.startswith(b"From "):
        return True
    known = False
    for line in raw.splitlines()[:200]:
        if not line.strip():
            break                                   # end of the header block
        if line[:1] in (b" ", b"\t"):
            continue                                # a folded header line
        m = _FIELD.match(line)
        if not m:
            return False
        known = known or m.group(1).decode("ascii") in _HEADERS
    return known


def read_mail(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is an e-mail (:func:`is_mail`), else None without reading
    more than its first bytes. Anything but a regular file of at most MAX_MAIL_BYTES is left to
    the order file loader (which refuses it with its FILE-* code), except a ``.eml``/``.mbox``
    name, read here with the same checks."""
    p = Path(path)
    if p.suffix.lower() in MAIL_SUFFIXES:
        return read_bytes_limited(p, MAX_MAIL_BYTES)
    try:
        info = os.stat(p)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MAIL_BYTES:
        return None
    try:
        with open(p, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return None
    if not is_mail(p, head):
        return None
    return read_bytes_limited(p, MAX_MAIL_BYTES)


def expand(paths: list, issues: list[Issue]) -> list:
    """``paths`` with every e-mail replaced by the orders it carries, as (name, bytes); other
    paths are kept as they are. The problems of the e-mails are appended to ``issues``."""
    out: list = []
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


@dataclass
class _Part:
    label: str
    ctype: str
    filename: str | None
    data: bytes = b""
    text: str | None = None


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
    except Exception as e:  # the email package raises many kinds of errors on damaged input
        return [], [issue("MAIL-UNREADABLE", f"the message cannot be read ({type(e).__name__}: {e})",
                          "give the message as saved by the mail client (.eml), or the order file itself")]
    if len(attached) > 1:
        return [], [issue("MAIL-SEVERAL-ORDERS", f"{len(attached)} YAML attachments: " + ", ".join(p.label.split("#", 1)[1] for p in attached),
                          "send one order file per message (each player's orders in their own message)")]
    if attached:
        return [(attached[0].label, attached[0].data)], []
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
        return [(orders[0].label, _body_orders(orders[0].text).encode("utf-8"))], []
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


def _filename(part: Message) -> str | None:
    try:
        f = part.get_filename()
    except Exception:  # a damaged RFC 2231 parameter
        return None
    return str(f) if f else None


def _safe(fname: str) -> str:
    """A file name to show in ``NAME#file``: no folders, no control characters."""
    base = re.split(r"[/\\]", fname)[-1]
    return "".join(c if c.isprintable() else "_" for c in base) or "attachment"


def _attachment_bytes(part: Message) -> bytes:
    data = part.get_payload(decode=True) or b""
    cte = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    if part.get_content_maintype() == "text" and cte != "base64":
        data = data.replace(b"\r\n", b"\n")      # canonical mail line ends back to the file's
    return data


def _text_of(part: Message) -> str:
    data = part.get_payload(decode=True) or b""
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


# ----------------------------------------------------------------------------- composing
@dataclass
class Outgoing:
    """One message written by :func:`compose`: the player, the .eml file name, the message."""
    player: str
    filename: str
    message: EmailMessage


def mail_name(step: int, player: str) -> str:
    return f"step-{step:03d}-to-{player}.eml"


def phase_title(g, phase: str) -> str:
    """``soviet.replacement`` -> ``Soviet replacement phase`` (the game's own titles if it has them)."""
    f = getattr(g, "phase_title", None)
    if callable(f):
        return f(phase)
    force, _, step = phase.partition(".")
    return " ".join(w.capitalize() for w in force.split("-")) + (f" {step}" if step else "") + " phase"


def subject(g, state: dict) -> str:
    st = state
    head = f"[pbem] {st['game']} {st['campaign']} - turn {st['turn']} {phase_title(g, st['phase'])} - step {st['step']:03d}"
    if st.get("result"):
        r = st["result"]
        return head + f" (game over: {'draw' if r.get('draw') else str(r.get('winner')) + ' wins'})"
    aw = st.get("awaiting")
    if aw:
        return head + f" (awaiting: {aw['player']} {aw['for']})"
    return head


def _sender(manifest: dict, sender: str | None) -> str:
    gm = sender or manifest.get("gm")
    if isinstance(gm, dict):
        gm = gm.get("email")
    return str(gm) if gm else DEFAULT_SENDER


def _awaited_text(g, state: dict, manifest: dict, player: str, state_file: str) -> list[str]:
    players = manifest.get("players", {})

    def who(p: str) -> str:
        name = (players.get(p) or {}).get("name") or state.get("players", {}).get(p, p)
        return f"the {p} player ({name})"
    L = []
    if state.get("result"):
        r = state["result"]
        L.append("The game is over: " + ("a draw" if r.get("draw") else f"the {r.get('winner')} player wins")
                 + (f" - {r['reason']}" if r.get("reason") else "") + ".")
        return L
    aw = state.get("awaiting")
    if not aw:
        return L
    p = aw["player"]
    mine = p == player
    pend = [d for d in state.get("pending") or [] if d.get("player") == p]
    if aw["for"] == "decision" and pend:
        d = pend[0]
        L.append(f"Awaited now: a decision from {who(p)}" + (" - that is you." if mine else "."))
        L.append(f"  {d['id']}: {d.get('prompt', '')}; options: {', '.join(str(o) for o in d.get('options', []))}")
        what = "the answer file"
    else:
        L.append(f"Awaited now: {aw['for']} from {who(p)} for turn {state['turn']}, {phase_title(g, state['phase'])}"
                 + (" - that is you." if mine else "."))
        what = "the order file"
    if mine:
        L.append(f"Write {what} from the attached state file, check it, and send it back attached to a reply:")
        mine_file = f"{p}-{state['campaign']}-{state['step'] + 1:03d}.yaml"
        L.append(f"  pbem orders template {state_file} --player {p} -o {mine_file}")
        L.append(f"  pbem validate {state_file} {mine_file}")
    else:
        L.append("Nothing is awaited from you now.")
    return L


def compose(*, g, rs, manifest: dict, report: dict, text: str, state: dict, state_bytes: bytes,
            report_bytes: bytes, sender: str | None = None, date: str | None = None,
            ) -> tuple[list[Outgoing], list[Issue], list[str]]:
    """The messages of one adjudicated step, one per player of the manifest: (messages,
    warnings, notes). ``state`` is the new state, ``state_bytes``/``report_bytes`` the archived
    state file and report.json, ``text`` the text report. ``date`` (an RFC 5322 date) is the
    only source of a Date header: there is none by default."""
    state_file = report["output"]["state"]
    step = state["step"]
    warnings: list[Issue] = []
    notes: list[str] = []
    picture = _picture(g, rs, state, report, state_file, notes, warnings)
    subj = subject(g, state)
    frm = _sender(manifest, sender)
    thread_seed = f"{state['campaign']}\0" + json.dumps(manifest.get("dice"), sort_keys=True)
    out = []
    for player, info in sorted((manifest.get("players") or {}).items()):
        from email import policy
        from email.headerregistry import Address
        from email.message import EmailMessage
        msg = EmailMessage(policy=policy.default)
        msg["From"] = frm
        email = (info or {}).get("email")
        if email:
            msg["To"] = Address(display_name=info.get("name", ""), addr_spec=email)
        else:
            warnings.append(Issue("MAIL-NO-ADDRESS", f"the {player} player has no e-mail in campaign.yaml: "
                                  f"{mail_name(step, player)} has no To", severity=Severity.WARNING,
                                  hint="add the recipient in the mail client before sending"))
        msg["Subject"] = subj
        if date:
            msg["Date"] = date
        # the state hash covers the campaign, its dice commitment and the whole position
        seed = f"{state['campaign']}\0{step}\0{player}\0{state.get('hash', '')}"
        msg["Message-ID"] = f"<pbem.{_h(seed)[:32]}.{step:03d}.{player}@pbem.localhost>"
        # every message of the campaign to this player refers to one thread id: clients group them
        msg["References"] = f"<pbem.{_h(thread_seed + chr(0) + player)[:32]}@pbem.localhost>"
        msg["X-Pbem-Campaign"] = str(state["campaign"])
        msg["X-Pbem-Step"] = f"{step:03d}"
        body = text.rstrip("\n") + "\n\n" + "-" * 72 + "\n"
        body += "\n".join(_awaited_text(g, state, manifest, player, state_file)) + "\n\n"
        body += __import__("pbem.core.archive", fromlist=["head_line"]).head_line(manifest, state)  # the archive's head
        att = [f"{state_file} (the new state)", "report.json (every event and die roll, for `pbem replay`)"]
        if picture is not None:
            att.append(f"{picture[0]} ({picture[2]})")
        body += "Attached: " + "; ".join(att) + ".\n"
        body += "".join(f"({n})\n" for n in notes)
        body += "Written by `pbem adjudicate --mail`; pbem sends nothing itself.\n"
        msg.set_content(body, cte="quoted-printable")
        msg.add_attachment(state_bytes, maintype="application", subtype="yaml", filename=state_file)
        msg.add_attachment(report_bytes, maintype="application", subtype="json", filename="report.json")
        if picture is not None:
            name, data, _, subtype = picture
            msg.add_attachment(data, maintype="image", subtype=subtype, filename=name)
        _fix_boundaries(msg, seed)
        out.append(Outgoing(player, mail_name(step, player), msg))
    return out, warnings, notes


def _picture(g, rs, state: dict, report: dict, state_file: str, notes: list[str],
             warnings: list[Issue]) -> tuple[str, bytes, str, str] | None:
    """The map picture of a step's mails: (file name, bytes, what the body says of it, image
    subtype), or None (with a note why). A PNG (palette colours: about 230 KB for Battle for
    Germany) when a converter is present; the SVG (about 400 KB, which many mail clients cannot
    show) only when there is none, with a warning to the game master. Every player can draw
    the SVG from the attached state and report.json."""
    draw = getattr(g, "draw_map", None)
    if draw is None:
        notes.append("no map picture: this game cannot draw one yet")
        return None
    try:
        pic = draw(rs, state, report=report)
    except Exception as e:  # the step is archived already: the messages go without the picture
        notes.append(f"no map picture: drawing it failed ({type(e).__name__}: {e})")
        return None
    svg = pic.encode("utf-8") if isinstance(pic, str) else bytes(pic)
    base = f"{state['campaign']}-{state['step']:03d}-map"
    from .png import compact_png, png_converter, svg_to_png
    if png_converter() is not None:
        try:
            png = compact_png(svg_to_png(svg.decode("utf-8")))
        except PbemError as e:
            warnings.append(Issue("MAIL-MAP-SVG", f"the map goes as SVG: {e.issues[0].message}",
                                  severity=Severity.WARNING))
        else:
            return (f"{base}.png", png, "the map; to zoom and see unit details, draw it as SVG: "
                    f"pbem map {state_file} --report report.json -o {base}.svg", "png")
    else:
        warnings.append(Issue("MAIL-MAP-SVG", f"no PNG converter here: the map goes as SVG ({len(svg) // 1000} KB), "
                              "which many mail clients cannot show", severity=Severity.WARNING,
                              hint="install one for a small PNG preview instead: pip install 'pbem[png]' "
                                   "(or rsvg-convert, or inkscape)"))
    return f"{base}.svg", svg, "the map: open it in a web browser", "svg+xml"


def _h(s: str | bytes) -> str:
    return hashlib.sha256(s.encode("utf-8") if isinstance(s, str) else s).hexdigest()


def _fix_boundaries(msg: EmailMessage, seed: str) -> None:
    """Deterministic MIME boundaries, from a hash of the seed and the content (a boundary must
    not occur in the content: a hash of it does not)."""
    content = _h(b"".join(p.get_payload(decode=True) or b"" for p in msg.walk() if not p.is_multipart()))
    for k, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{_h(f'{seed}{chr(0)}{content}{chr(0)}{k}')[:40]}")


def outbox_targets(folder: Path, campaign_folder: Path) -> list[Path]:
    """The .eml files ``pbem adjudicate --mail FOLDER`` will write for the campaign's next step;
    FILE-EXISTS (before anything is adjudicated) if one of them exists."""
    from .campaign import Campaign
    camp = Campaign(campaign_folder)
    _, st = camp.current()
    paths = [Path(folder) / mail_name(st["step"] + 1, p) for p in sorted(camp.manifest.get("players") or {})]
    there = [p for p in paths if os.path.lexists(p)]
    if there:
        raise PbemError([Issue("FILE-EXISTS", f"{p} already exists", file=str(p),
                               hint="pbem never overwrites a file; give another --mail folder or move the old messages")
                         for p in there], ExitCode.IO)
    return paths


def write_step_mail(campaign_folder: Path, res, folder: Path, *, sender: str | None = None,
                    date: str | None = None) -> tuple[list[tuple[Path, Outgoing]], list[Issue], list[str]]:
    """Compose and write the messages of the step ``res`` (a StepResult of
    :func:`pbem.core.actions.adjudicate_campaign`) into ``folder``, from the archived files.
    Never overwrites (FILE-EXISTS)."""
    from .campaign import Campaign
    camp = Campaign(campaign_folder)
    report = res.report
    sd = Path(res.step_dir)
    state_bytes = read_bytes_limited(camp.inside(sd / report["output"]["state"]), 50_000_000)
    report_bytes = read_bytes_limited(camp.inside(sd / "report.json"), 50_000_000)
    msgs, warnings, notes = compose(g=res.game, rs=res.ruleset, manifest=camp.manifest, report=report, text=res.text,
                                    state=res.state, state_bytes=state_bytes, report_bytes=report_bytes,
                                    sender=sender, date=date)
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PbemError([Issue("FILE-WRITE", f"cannot make the folder {folder}: {e.strerror or e}", file=str(folder))],
                        ExitCode.IO) from None
    written = []
    for m in msgs:
        p = folder / m.filename
        from email import policy
        atomic_write(p, m.message.as_bytes(policy=policy.default))
        written.append((p, m))
    return written, warnings, notes
