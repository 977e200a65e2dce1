"""The judge's configuration file (``schemas/judge.schema.json``), read with the project's
strict YAML loader and checked against its schema: every problem at once, with file:line."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path

from ..core.campaign import Campaign
from ..core.errors import ExitCode, Issue, PbemError
from ..core.files import read_bytes_limited
from ..core.schema import validate
from ..core.yamlio import Loaded, load_yaml
from .remote import Account, account

DEFAULTS = {"orders": "3d", "grace": "1d"}
_PART = re.compile(r"([0-9]+)([dhms])")
_UNIT = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def duration(text: str) -> timedelta:
    """``3d``, ``72h``, ``1d12h``, ``90m`` as a timedelta (the schema checked the form)."""
    return timedelta(seconds=sum(int(n) * _UNIT[u] for n, u in _PART.findall(text)))


@dataclass(frozen=True)
class Deadlines:
    """The time given after the step that awaits something, by what is awaited, and the grace."""
    orders: timedelta
    grace: timedelta
    decision: timedelta | None = None
    links: timedelta | None = None
    phases: dict[str, timedelta] = field(default_factory=dict)

    def given(self, phase: str, kinds: set[str]) -> timedelta:
        """The time given for a state at ``phase`` awaiting ``kinds`` (orders, decision, links)."""
        if "links" in kinds and self.links is not None:
            return self.links
        if "decision" in kinds and self.decision is not None:
            return self.decision
        return self.phases.get(phase, self.orders)


@dataclass
class CampaignConf:
    folder: Path
    id: str
    deadlines: Deadlines
    observers: list[str] = field(default_factory=list)

    def campaign(self) -> Campaign:
        return Campaign(self.folder)


@dataclass
class JudgeConfig:
    path: Path
    address: str
    maildir: Path
    outbox: Path
    aside: Path
    log: Path
    state: Path
    poll: timedelta
    campaigns: list[CampaignConf]
    game_master: str | None = None
    imap: Account | None = None
    imap_folder: str = "INBOX"
    smtp: Account | None = None

    def by_id(self, cid: str) -> CampaignConf | None:
        return next((c for c in self.campaigns if c.id == cid), None)


def _deadlines(doc: dict | None, base: dict) -> Deadlines:
    d = dict(base) | {k: v for k, v in (doc or {}).items() if k != "phases"}
    phases = dict(base.get("phases") or {}) | dict((doc or {}).get("phases") or {})
    return Deadlines(orders=duration(d["orders"]), grace=duration(d["grace"]),
                     decision=duration(d["decision"]) if d.get("decision") else None,
                     links=duration(d["links"]) if d.get("links") else None,
                     phases={p: duration(v) for p, v in phases.items()})


def _address_problems(doc: dict, path: Path, marks) -> list[Issue]:
    """JUDGE-ADDRESS for an ``address``, ``game_master`` or observer that is not one e-mail address."""
    from email import policy
    from email.message import EmailMessage
    out = []
    given: list[tuple[str, object, tuple]] = [(key, doc[key], (key,)) for key in ("address", "game_master") if key in doc]
    for k, c in enumerate(doc.get("campaigns") or []):
        given += [(f"campaigns[{k}].observers[{i}]", o, ("campaigns", k, "observers", i))
                  for i, o in enumerate(c.get("observers") or [])]
    for key, value, at in given:
        m = EmailMessage(policy=policy.default)
        try:
            m["To"] = value
            ok = len(m["To"].addresses) == 1 and "@" in m["To"].addresses[0].addr_spec and not m["To"].defects
        except Exception:  # noqa: BLE001 - the email package says no in many ways
            ok = False
        if not ok:
            out.append(Issue("JUDGE-ADDRESS", f"{key}: {value!r} is not one e-mail address", file=str(path),
                             line=(marks.get(at) or (None,))[0], text=str(value),
                             hint="one address, e.g. 'pbem judge <judge@example.org>'"))
    return out


def load_checked(path: Path, schema: str) -> Loaded:
    """The YAML file ``path`` (1 MB at the most), checked against the schema ``schema``: the
    judge's and the agent's configuration files are read the same way. PbemError with every
    schema problem at once."""
    loaded = load_yaml(read_bytes_limited(path, 1_000_000), str(path))
    issues = validate(loaded.data, schema, marks=loaded.marks, filename=str(path))
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    return loaded


def beside(path: Path) -> Callable[[str], Path]:
    """How a path written in the configuration file ``path`` is read: a relative one is taken
    from the file's folder (the judge's and the agent's files alike)."""
    here = path.parent

    def rel(p: str) -> Path:
        return (here / p) if not Path(p).is_absolute() else Path(p)
    return rel


def load_config(path: Path) -> JudgeConfig:
    """The configuration in ``path``; PbemError with every problem at once (YAML, schema, a
    campaign folder that is none, two campaigns with one id)."""
    path = Path(path)
    loaded = load_checked(path, "judge")
    doc = loaded.data
    here = path.parent
    rel = beside(path)
    base = dict(DEFAULTS) | {k: v for k, v in (doc.get("deadlines") or {}).items()}
    camps: list[CampaignConf] = []
    problems: list[Issue] = []
    for k, c in enumerate(doc["campaigns"]):
        folder = rel(c["folder"])
        line = (loaded.marks.get(("campaigns", k, "folder")) or (None,))[0]
        try:
            cid = str(Campaign(folder).manifest["id"])
        except PbemError as e:
            problems += [Issue("JUDGE-CAMPAIGN", f"campaigns[{k}]: {i.message}", file=str(path), line=line, hint=i.hint)
                         for i in e.issues]
            continue
        if any(x.id == cid for x in camps):
            problems.append(Issue("JUDGE-CAMPAIGN", f"campaigns[{k}]: the campaign {cid} is served twice", file=str(path),
                                  line=line, hint="list each campaign folder once"))
            continue
        camps.append(CampaignConf(folder=folder, id=cid, deadlines=_deadlines(c.get("deadlines"), base),
                                  observers=list(c.get("observers") or [])))
    problems += _address_problems(doc, path, loaded.marks)
    accounts = {kind: account(kind, doc[kind], here) for kind in ("imap", "smtp") if doc.get(kind)}
    if "imap" in accounts:
        import importlib.util
        if importlib.util.find_spec("imapclient") is None:
            problems.append(Issue("JUDGE-IMAP", "imap: the IMAP client library (imapclient) is not installed",
                                  file=str(path), line=(loaded.marks.get(("imap",)) or (None,))[0],
                                  hint="pip install 'pbem[judge]'"))
    for kind, a in accounts.items():
        try:
            a.password()        # a password file others may read, or a variable not set: said now
        except PbemError as e:
            problems += [replace(i, line=i.line or (loaded.marks.get((kind,)) or (None,))[0],
                                 file=i.file or str(path)) for i in e.issues]
    if problems:
        raise PbemError(problems, ExitCode.INVALID)
    maildir = rel(doc["maildir"])
    return JudgeConfig(path=path, address=doc["address"], maildir=maildir, outbox=rel(doc["outbox"]),
                       aside=rel(doc["aside"]) if doc.get("aside") else maildir / ".Aside",
                       log=rel(doc.get("log") or "judge.log"), state=rel(doc.get("state") or ".pbem-judge"),
                       poll=duration(doc.get("poll") or "1m"), campaigns=camps, game_master=doc.get("game_master"),
                       imap=accounts.get("imap"), imap_folder=(doc.get("imap") or {}).get("folder") or "INBOX",
                       smtp=accounts.get("smtp"))
