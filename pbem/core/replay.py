"""`pbem replay`: re-adjudicate a whole archive from its first state and check every state,
report and roll byte for byte; a mismatch names the step, turn, phase, file and the first
differing line or field."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from .archive import heads as archive_heads
from .campaign import MANIFEST_COPY, Campaign, OrderFile, load_order_file, load_state_file
from .chain import load_reveal
from .data import load_ruleset
from .dice import commitment, receipt
from .dicesource import DiceSource, chain_source
from .errors import Issue, PbemError, Severity
from .orders import ruleset_issues
from .report import as_version, render_text, report_json, stopped_text, why_unreadable
from .roles import END_EVENT, keys_at, keys_by_step, player_change_issues, replacements_in, replay_end
from .schema import schema_dir
from .signing import campaign_keys, check
from .step import archived_refs, new_dice_digest, run_step
from .yamlio import load_yaml


@dataclass
class ReplayResult:
    steps: int = 0
    rolls: int = 0
    issues: list[Issue] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    links: int = 0
    notes: list[str] = field(default_factory=list)   # what the replay did not check, in words
    header_only: list[int] = field(default_factory=list)   # steps whose state file differs in its leading comments only


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return path or "(root)"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}" if path else str(k)
            d = first_difference(a[k], b[k], f"{path}.{k}" if path else str(k))
            if d:
                return d
        if list(a.keys()) != list(b.keys()):
            return (path or "(root)") + " (key order)"
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}[{min(len(a), len(b))}]"
        return None
    return None if a == b else (path or "(root)")


class _Stop(Exception):
    """The replay stops at the first difference (its issues are in the result already)."""


@dataclass
class _Run:
    """A replay in progress: the campaign, what was checked so far and the state reached."""
    camp: Campaign
    res: ReplayResult
    g: Any
    rs: Any
    state: dict[str, Any]
    prev_path: Path
    key: str | None                   # None: chain mode (the dice come from the players' links)
    receipts: bool                    # order files are named by their receipt (keyed), not their sha256
    keys: dict[str, Any]
    start_keys: dict[str, Any] | None
    archive_heads: dict[int, str]
    unsigned: dict[str, int] = field(default_factory=dict)
    signed: dict[str, int] = field(default_factory=dict)      # files whose signature was checked, per player
    chain_keys: dict[str, str] = field(default_factory=dict)  # chain mode: the keys of the steps replayed so far
    before: tuple[Any, ...] | None = None       # the state before the last step, its order files, its received files
    last_link: dict[str, int] = field(default_factory=dict)   # chain mode: the last link each player revealed
    received_by_step: dict[int, dict[str, Any]] = field(default_factory=dict)   # files received for a phase awaiting others
    key_copies: list[tuple[int, dict[str, str]]] = field(default_factory=list)   # (step, keys) of each archived manifest copy (pbem player replace)
    states: Callable[[int, dict[str, Any]], None] | None = None   # given each state found byte-identical

    def keys_at(self, step: int) -> dict[str, str]:
        """The keys in force at ``step``: the newest archived manifest at or before it."""
        return keys_at(self.key_copies, step, self.keys)

    def fail(self, *issues: Issue) -> NoReturn:
        self.res.issues += issues
        raise _Stop


def replay_campaign(folder: Path, *, key_path: Path | None = None,
                    states: Callable[[int, dict[str, Any]], None] | None = None) -> ReplayResult:
    """Replay the archive step by step against its files. ``states(k, state)``: given each state
    the replay has made again and found byte-identical to the archived file of step ``k`` (the
    book draws them without reading the files again); None keeps no state beyond the current one."""
    camp = Campaign(folder)
    res = ReplayResult()
    dirs = camp.step_dirs()
    if not dirs:
        res.issues.append(Issue("REPLAY-EMPTY", "the campaign has no steps"))
        return res
    run = _start(camp, res, dirs, key_path)
    if run is None:
        return res
    run.states = states
    try:
        for k, d in enumerate(dirs[1:], start=1):
            _replay_step(run, k, d)
    except _Stop:
        return res
    _signature_notes(run)
    return res


def _start(camp: Campaign, res: ReplayResult, dirs: list[Path], key_path: Path | None) -> _Run | None:
    """The first state checked against the key (or the chain heads), the manifest and the
    archive's layout; None when the key does not match."""
    prev_path = camp.state_path(dirs[0])
    state, _ = load_state_file(prev_path)
    chain = state["dice"].get("mode") == "chain"
    key = None
    if not chain:
        key = camp.read_key(key_path)
        if commitment(key) != state["dice"]["commitment"]:
            res.issues.append(Issue("DICE-KEY-MISMATCH", "the revealed key does not match the commitment in the first state",
                                    file=str(prev_path)))
            return None
    g, rs = load_ruleset(state["scenario"])
    res.issues += ruleset_issues(state, rs)
    res.issues += manifest_issues(camp, state, res.notes)
    res.issues += _outside_steps(camp, dirs, res.notes)
    res.issues += _extra_files(dirs[0], {prev_path.name, MANIFEST_COPY}, "step 000")
    run = _Run(camp=camp, res=res, g=g, rs=rs, state=state, prev_path=prev_path, key=key,
               receipts=bool(state["dice"].get("receipts")) and key is not None,
               keys=campaign_keys(camp.manifest), start_keys=_start_keys(camp),
               # step -> the archive head after it: the links a chain step asks for are bound to it (a
               # game master's key is not: the head, which reads every file, is not needed then)
               archive_heads=dict(archive_heads(camp.root, camp.manifest["id"])) if chain else {},
               key_copies=keys_by_step(camp))
    res.lines += replacements_in(run.key_copies)
    if chain:
        res.lines.append(f"step 000: {prev_path.name} (initial state, hash-chain heads: "
                         + ", ".join(f"{p} {h[:16]}..." for p, h in sorted(state['dice']['heads'].items())) + ")")
    else:
        res.lines.append(f"step 000: {prev_path.name} (initial state, commitment {state['dice']['commitment'][:16]}...)")
    return run


def _replay_step(run: _Run, k: int, d: Path) -> None:
    """Step ``k`` (folder ``d``) adjudicated again and compared with its archive; raises _Stop
    at the first difference."""
    if d.name != f"{k:03d}":
        run.fail(Issue("REPLAY-GAP", f"expected steps/{k:03d}, found {d.name}", file=str(d)))
    rpath = d / "report.json"
    archived_raw, archived, listed = _archived_report(run, rpath)
    if _ended_by_agreement(run, k, d, archived, archived_raw, listed):
        return
    ofs = _archived_orders(run, k, d, listed)
    state = run.state
    where = f"step {k:03d} (turn {state['turn']}, {state['phase']})"
    sig = _signatures([(of.raw, oname, of.player, "order file") for (oname, _), of in zip(listed, ofs)],
                      run.keys_at(k), run.start_keys, run.unsigned, where, d, run.signed)
    if sig:
        run.fail(*sig)
    source: DiceSource | str
    reveals: list[Any] = []
    request = None
    if run.key is None:     # chain mode
        source, reveals, request = _chain_dice(run, k, d, rpath, archived, ofs, where)
    else:
        source = run.key
    # A step without order files was adjudicated with --missing-orders.
    rec = _received(state, run.received_by_step)
    outcome, report, text_state, new_state, out_name = run_step(run.g, run.rs, state, run.prev_path.name, ofs, source,
                                                                 reveals=reveals or None, missing_orders=not ofs,
                                                                 received=rec, request=request)
    # an archive written by an earlier pbem is compared in its own report format
    report = as_version(report, archived.get("schema") if isinstance(archived, dict) else None)
    _compare_report(run, k, d, report, archived, archived_raw)
    if new_state is None or out_name is None or text_state is None:      # (all three or none)
        run.fail(Issue("REPLAY-REFUSED", f"{where}: the archived orders are refused on replay", file=str(d)))
    spath = d / out_name
    header_only = _compare_state(run, k, spath, where, report, archived, text_state)
    res = run.res
    res.issues += _extra_files(d, {o for o, _ in listed} | {rv.name for rv in reveals}
                               | {"report.json", "report.txt", out_name, MANIFEST_COPY}, f"step {k:03d}")
    res.rolls += len(report["rolls"])
    res.steps += 1
    links = f"; {len(reveals)} chain link(s) verified" if reveals else ""
    same = "identical"
    if header_only:
        # the comment lines at the top of a state file are covered by no hash: an earlier pbem
        # wrote other ones, and anyone may add some; said, with what differs (issue 29)
        res.header_only.append(k)
        archived_text = run.camp.inside(spath).read_bytes().decode("utf-8", "replace")
        same = ("identical but for the comment lines at its top, which no hash covers (an earlier pbem wrote others, "
                "or someone edited them)" + _line_diff(text_state, archived_text))
    res.lines.append(f"step {k:03d}: {out_name} {same}; {len(report['rolls'])} roll(s) recomputed{links}; {stopped_text(report['stopped'])}")
    res.links += len(reveals)
    _advance(run, k, state, new_state, ofs, spath)
    if isinstance(source, DiceSource):
        run.chain_keys = source.chain_keys
        if report.get("stopped") == "void" and reveals:
            run.chain_keys.pop(reveals[0].orders, None)   # spent with the void orders


def _advance(run: _Run, k: int, state: dict[str, Any], new_state: dict[str, Any], ofs: list[OrderFile], spath: Path) -> None:
    """Step ``k`` found identical: the replay goes on from ``new_state`` (given to ``run.states``)."""
    _keep_archived(run, k, new_state, ofs)
    run.before = (state, ofs, _received(state, run.received_by_step))
    run.state = new_state
    run.prev_path = spath
    if run.states is not None:
        run.states(k, new_state)


def _ended_by_agreement(run: _Run, k: int, d: Path, archived: dict[str, Any], archived_raw: bytes,
                        listed: list[tuple[str, str]]) -> bool:
    """A step that ended the game by agreement (a concession or a draw, ``pbem end``, issue
    34) made again from its end files (:func:`pbem.core.roles.replay_end`); False for any other step."""
    if not any(isinstance(e, dict) and e.get("type") == END_EVENT for e in archived.get("events") or []):
        return False
    ended = replay_end(run, k, d, archived_raw, listed)
    if ended is None:
        raise _Stop
    run.state = ended
    return True


def _archived_report(run: _Run, rpath: Path) -> tuple[bytes, dict[str, Any], list[tuple[str, str]]]:
    """A step's archived report.json: its bytes, its document and the order files it lists."""
    try:
        raw = run.camp.inside(rpath).read_bytes()
        archived = json.loads(raw)
        listed = [(str(o["file"]), str(o["sha256"])) for o in archived["orders"]]
    except PbemError as e:
        run.fail(*e.issues)
    except (OSError, ValueError, TypeError, KeyError) as e:
        run.fail(Issue("REPLAY-REPORT", f"cannot read {rpath}: {why_unreadable(e)}", file=str(rpath)))
    return raw, archived, listed


def _archived_orders(run: _Run, k: int, d: Path, listed: list[tuple[str, str]]) -> list[OrderFile]:
    """The order files the report lists, each checked against its sha256 (or receipt)."""
    ofs = []
    for oname, osha in listed:
        p = d / oname
        try:
            of = load_order_file(run.camp.inside(p), name=oname)
        except PbemError as e:
            run.fail(*e.issues)
        if run.receipts and run.key is not None:
            of = replace(of, digest=receipt(run.key, of.raw))
        if of.digest != osha:
            run.fail(Issue("HASH-ORDERS", f"step {k:03d}: {oname} was changed after it was adjudicated (sha256 differs)",
                           file=str(p)))
        ofs.append(of)
    return ofs


def _chain_dice(run: _Run, k: int, d: Path, rpath: Path, archived: dict[str, Any], ofs: list[OrderFile],
                where: str) -> tuple[DiceSource, list[Any], tuple[Any, ...] | None]:
    """Chain mode: the step's reveals (checked, signed, never reused) and the dice source they
    make; with the request of the step before when that step asked for links."""
    reveals = _reveals(run, d, rpath, archived, where)
    state = run.state
    rec = _received(state, run.received_by_step)
    req = state["dice"].get("request")
    request = None
    if req is not None:
        # the step that asked for links archived the orders: the reveals must name its head
        source, bad = chain_source(run.chain_keys, state, req["orders"], reveals, head=run.archive_heads.get(k - 1),
                                   players=req.get("players"))
        request = run.before
        if ofs:
            bad = bad + [Issue("DICE-LINKS-AWAITED", f"{where}: order files in a step that takes the reveals only", file=str(d))]
    elif reveals:
        # protocol 1: the reveals came with the orders
        source, bad = chain_source(run.chain_keys, state, new_dice_digest(state, ofs, rec, not ofs), reveals)
    else:
        source, bad = chain_source(run.chain_keys, state, None, [])
    if bad:
        run.fail(*[replace(i, message=f"{where}: {i.message}", file=str(d / i.file) if i.file else str(d))
                   for i in bad])
    return source, reveals, request


def _reveals(run: _Run, d: Path, rpath: Path, archived: dict[str, Any], where: str) -> list[Any]:
    """The reveals the report lists, checked against their sha256 and signatures; a link
    revealed twice stops the replay."""
    reveals = []
    try:
        for r in (archived.get("dice") or {}).get("reveals") or []:
            rv = load_reveal(run.camp.inside(d / str(r["file"])).read_bytes(), str(r["file"]))
            if rv.digest != r["sha256"]:
                run.fail(Issue("HASH-REVEAL", f"{where}: {r['file']} was changed after it was adjudicated",
                               file=str(d / str(r["file"]))))
            reveals.append(rv)
    except PbemError as e:
        run.fail(*e.issues)
    except (OSError, KeyError, TypeError) as e:
        run.fail(Issue("REPLAY-REPORT", f"{where}: cannot read the reveals: {why_unreadable(e)}", file=str(rpath)))
    sig = _signatures([(rv.raw, rv.name, rv.player, "reveal") for rv in reveals], run.keys_at(int(d.name)), run.start_keys,
                      run.unsigned, where, d, run.signed)
    if sig:
        run.fail(*sig)
    for rv in reveals:
        if rv.index <= run.last_link.get(rv.player, 0):
            run.fail(Issue("REPLAY-LINK-REUSED", f"{where}: the {rv.player} player's chain link {rv.index} was revealed before (last link {run.last_link[rv.player]}): a reused link lets the dice be previewed",
                           file=str(d / rv.archive_name)))
        run.last_link[rv.player] = rv.index
    return reveals


def _compare_report(run: _Run, k: int, d: Path, report: dict[str, Any], archived: dict[str, Any], archived_raw: bytes) -> None:
    """The replayed report.json and report.txt against the archived ones (a step's texts are
    not kept: the replay's memory stays flat with the campaign's length, issue 35)."""
    rpath = d / "report.json"
    mine = report_json(report).encode("utf-8")
    if mine != archived_raw:
        mine_doc = json.loads(mine)
        diff = first_difference(mine_doc, archived)
        at = _where_in_report(k, mine_doc, archived, diff)
        run.fail(Issue("REPLAY-REPORT-DIFFERS", f"{at}: report.json differs at {diff}" + _line_diff(mine.decode("utf-8"), archived_raw.decode("utf-8", "replace")),
                       file=str(rpath)))
    text = render_text(report, run.g, run.rs)
    tpath = d / "report.txt"
    archived_text = run.camp.inside(tpath).read_bytes() if tpath.is_file() else b""
    if archived_text != text.encode("utf-8"):
        at = _where_in_report(k, report, archived, None)
        run.fail(Issue("REPLAY-TEXT-DIFFERS", f"{at}: report.txt differs" + _line_diff(text, archived_text.decode("utf-8", "replace")),
                       file=str(tpath)))


def _compare_state(run: _Run, k: int, spath: Path, where: str, report: dict[str, Any], archived: dict[str, Any], text_state: str) -> bool:
    """The replayed state file against the archived one; True when only its comment header
    differs (written by an earlier pbem, e.g. another schema line: the archive stands)."""
    if not spath.is_file():
        run.fail(Issue("REPLAY-STATE-MISSING", f"{where}: {spath.name} is missing", file=str(spath.parent)))
    archived_state_raw = run.camp.inside(spath).read_bytes()
    if archived_state_raw == text_state.encode("utf-8"):
        return False
    if _body(archived_state_raw) == _body(text_state.encode("utf-8")):
        return True
    try:
        other = load_yaml(archived_state_raw, str(spath), max_bytes=50_000_000, max_nodes=5_000_000).data
        diff = first_difference(load_yaml(text_state, "replayed", max_bytes=50_000_000, max_nodes=5_000_000).data, other)
    except PbemError:
        diff = "(unreadable archived state)"
    at = _where_in_report(k, report, archived, None)
    run.fail(Issue("REPLAY-STATE-DIFFERS", f"{at}: {spath.name} differs at {diff}"
                   + _line_diff(text_state, archived_state_raw.decode("utf-8", "replace")), file=str(spath)))


def _signature_notes(run: _Run) -> None:
    """What the replay says of the signatures it checked (and did not)."""
    res = run.res
    if run.signed:
        res.lines.append(f"signatures: {sum(run.signed.values())} file(s) signed by their player and checked ("
                         + ", ".join(f"{p} {n}" for p, n in sorted(run.signed.items())) + ")")
    if run.unsigned:
        res.notes.append("signatures: " + ", ".join(f"{n} file(s) of the {p} player" for p, n in sorted(run.unsigned.items()))
                         + " are unsigned (no public key of that player in campaign.yaml when they were sent): who sent them was not checked")
    elif not run.keys:
        res.notes.append("signatures: the campaign holds no player's public key: who sent each file was not checked")


def _start_keys(camp: Campaign) -> dict[str, str] | None:
    """The public keys of the manifest as the campaign started (None: no copy archived)."""
    start = _manifest_copy(camp)
    return None if start is None else campaign_keys(start)


def _missing_defaults_issues(camp: Campaign, m: dict[str, Any], start: dict[str, Any], notes: list[str],
                             differs: Callable[[str, Any, Any, str], None]) -> list[Issue]:
    """Missing-orders defaults may be added after the start (``pbem missing-default``, issue
    33): the step adjudicated next archives the manifest again (steps/NNN/campaign.json), which
    may differ from the one before only by defaults added. campaign.yaml holds the newest, or
    adds to it what the next step will archive."""
    out: list[Issue] = []
    before, src, prev = start.get("missing_orders") or {}, f"steps/000/{MANIFEST_COPY}", start
    for n, path in camp.manifest_copies()[1:]:
        where = f"steps/{n:03d}/{MANIFEST_COPY}"
        try:
            doc = json.loads(camp.inside(path).read_bytes())
        except (OSError, ValueError):
            doc = None
        if not isinstance(doc, dict):
            out.append(Issue("REPLAY-MANIFEST", f"{where} is not the manifest pbem wrote", file=str(path)))
            continue
        mo = doc.get("missing_orders") or {}
        changed = [k for k in ("schema", "game", "scenario", "id", "dice", "options", "gm") if doc.get(k) != start.get(k)]
        out += player_change_issues(prev, doc, where, path)    # a replacement (pbem player replace, issue 34)
        prev = doc
        if changed or any(mo.get(p) != v for p, v in before.items()):
            out.append(Issue("REPLAY-MANIFEST", f"{where} changes more than the missing-orders defaults it may add: "
                             + ", ".join(changed or ["missing_orders"]), file=str(path)))
        before, src = mo, where
    out += _defaults_in_force(camp)
    now = m.get("missing_orders") or {}
    if now != before:
        if all(now.get(p) == v for p, v in before.items()):
            notes.append("campaign.yaml adds missing-orders defaults the next step archives: "
                         + ", ".join(f"{p}={now[p]}" for p in sorted(now) if p not in before))
        else:
            differs("missing_orders", now, before, src)
    return out


def _defaults_in_force(camp: Campaign) -> list[Issue]:
    """Every step that played a player's missing orders did so with a default declared for
    that player in the manifest in force at that step (the newest copy at or before it)."""
    out: list[Issue] = []
    unreadable = object()
    copies: list[tuple[int, Any]] = []    # each copy read once, not once per step after it
    for k, path in camp.manifest_copies():
        try:
            copies.append((k, json.loads(camp.inside(path).read_bytes())))
        except (OSError, ValueError):
            copies.append((k, unreadable))
    for d in camp.step_dirs()[1:]:
        n = int(d.name)
        in_force = [doc for k, doc in copies if k <= n]
        if not in_force or in_force[-1] is unreadable:
            continue
        force = in_force[-1]
        try:
            rep = json.loads(camp.inside(d / "report.json").read_bytes())
        except (OSError, ValueError):
            continue
        declared = (force.get("missing_orders") or {}) if isinstance(force, dict) else {}
        for ev in (rep.get("events") or []) if isinstance(rep, dict) else []:
            p = ev.get("player") if isinstance(ev, dict) and ev.get("type") == "missing-orders" else None
            if p is not None and p not in declared:
                out.append(Issue("REPLAY-MANIFEST", f"step {n:03d} played the {p} player's missing orders, but no "
                                 "missing-orders default was declared for that player then", file=str(d)))
    return out


def _newest_copy(camp: Campaign, start: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The newest archived manifest copy (a replacement changes its players) and where it is."""
    copies = camp.manifest_copies()
    if len(copies) > 1:
        try:
            doc = json.loads(camp.inside(copies[-1][1]).read_bytes())
            if isinstance(doc, dict):
                return doc, f"steps/{copies[-1][0]:03d}/{MANIFEST_COPY}"
        except (OSError, ValueError):
            pass
    return start, f"steps/000/{MANIFEST_COPY}"


def _manifest_copy(camp: Campaign) -> dict[str, Any] | None:
    p = camp.root / "steps" / "000" / MANIFEST_COPY
    if not p.is_file():
        return None
    try:
        doc = json.loads(camp.inside(p).read_bytes())
    except (OSError, ValueError):
        return {"unreadable": True}
    return doc if isinstance(doc, dict) else {"unreadable": True}


def _signatures(files: list[Any], keys: dict[str, Any], start_keys: dict[str, Any] | None, unsigned: dict[str, Any], where: str, d: Path,
                signed: dict[str, Any] | None = None) -> list[Issue]:
    """Signature problems of a step's archived files. A player whose key campaign.yaml holds
    now must have signed every file, except those sent before the key was added (when the
    archive keeps the manifest as started, a key it holds counts from step 001 on)."""
    out = []
    for raw, name, player, what in files:
        found, status = check(raw, name, player, keys, what)
        if status == "bad" and found[0].code == "SIG-MISSING" and (start_keys is None or player not in start_keys):
            status, found = "unsigned", []   # sent before the key was added
        if status == "unsigned":
            unsigned[player] = unsigned.get(player, 0) + 1
        elif status == "signed" and signed is not None:
            signed[player] = signed.get(player, 0) + 1
        out += [replace(i, message=f"{where}: {i.message}", file=str(d / name)) for i in found]
    return out


# what in campaign.yaml must match the archive: what the first state holds, then (when the
# archive keeps it) the manifest as the campaign started
def manifest_issues(camp: Campaign, first: dict[str, Any], notes: list[str]) -> list[Issue]:
    m = camp.manifest
    where = str(camp.root / "campaign.yaml")
    out = []

    def differs(what: str, now: Any, then: Any, source: str) -> None:
        out.append(Issue("REPLAY-MANIFEST", f"campaign.yaml contradicts the archive: {what} is {now!r}, {source} says {then!r}",
                         file=where, hint="campaign.yaml was edited: restore it from the archive (steps/000)"))
    for k, sk in (("game", "game"), ("id", "campaign"), ("scenario", "scenario")):
        if m.get(k) != first.get(sk):
            differs(k, m.get(k), first.get(sk), "the first state")
    names = {p: (v or {}).get("name") for p, v in (m.get("players") or {}).items()}
    if names != first.get("players"):
        differs("players", names, first.get("players"), "the first state")
    fd = first.get("dice") or {}
    for k in ("algorithm", "commitment", "mode", "heads"):
        if (m.get("dice") or {}).get(k) != fd.get(k):
            differs(f"dice.{k}", (m.get("dice") or {}).get(k), fd.get(k), "the first state")
    start = _manifest_copy(camp)
    if start is None:
        notes.append("campaign.yaml: its e-mails, missing-orders defaults and public keys (the archive keeps no copy "
                     "of the manifest as started: made by an earlier pbem); its game, players, scenario and dice were checked")
    elif start.get("unreadable"):
        out.append(Issue("REPLAY-MANIFEST", f"steps/000/{MANIFEST_COPY} is not the manifest pbem wrote", file=where))
    else:
        for k in ("schema", "game", "scenario", "id", "dice", "options", "gm"):
            if m.get(k) != start.get(k):
                differs(k, m.get(k), start.get(k), f"steps/000/{MANIFEST_COPY} (the manifest as the campaign started)")
        out += _missing_defaults_issues(camp, m, start, notes, differs)
        newest, src = _newest_copy(camp, start)
        sp = newest.get("players") or {}
        for p in sorted(set(sp) | set(m.get("players") or {})):
            now, then = (m.get("players") or {}).get(p) or {}, sp.get(p) or {}
            if now.get("name") != then.get("name"):
                differs(f"the {p} player's name", now.get("name"), then.get("name"), src)
            pending = bool(then.get("key")) and now.get("key") != then.get("key") and now.get("replaces") == then.get("key")
            if pending:
                notes.append(f"campaign.yaml replaces the {p} player (pbem player replace): the next step archives it")
            elif then.get("key") and now.get("key") != then.get("key"):
                differs(f"the {p} player's public key", now.get("key"), then.get("key"), src)
            if now.get("email") != then.get("email") and not pending:
                out.append(Issue("REPLAY-MANIFEST-EMAIL", f"the {p} player's e-mail is {now.get('email')!r}; {src} says {then.get('email')!r}",
                                 severity=Severity.WARNING, file=where, hint="mails now go to the new address: make sure the player asked for it"))
            if now.get("key") and not then.get("key"):
                notes.append(f"the {p} player's public key was added after the start: their files before it are unsigned")
    priv = camp.root / "private"
    others = sorted(p.name for p in priv.iterdir() if p.name != "dice.key") if priv.is_dir() else []
    if others:
        chain = (m.get("dice") or {}).get("mode") == "chain"     # no referee, no dice.key: the files are someone's own
        notes.append(f"private/: {len(others)} file(s){'' if chain else ' besides dice.key'} ({', '.join(others[:3])}{', ...' if len(others) > 3 else ''}): "
                     + ("not part of the archive" if chain else "the game master's own, not part of the archive"))
    sch = camp.root / "schemas"
    if sch.is_dir():
        changed = sorted(p.name for p in sch.iterdir() if p.is_file()
                         and (not (schema_dir() / p.name).is_file() or (schema_dir() / p.name).read_bytes() != p.read_bytes()))
        if changed:
            notes.append(f"schemas/: {len(changed)} file(s) differ from this pbem's ({', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''}): "
                         "they serve editors only; replay checks every file with its own schemas")
    return out


def _outside_steps(camp: Campaign, dirs: list[Path], notes: list[str]) -> list[Issue]:
    """Entries of steps/ that are no step folder: a folder left by a pbem killed while writing
    a step (a warning: the next adjudication removes it), anything else (refused)."""
    out = []
    sd = camp.root / "steps"
    for p in sorted(sd.iterdir()):
        if p in dirs:
            continue
        if p.is_dir() and re.fullmatch(r"\.\d{3,}\.tmp-\d+", p.name):
            out.append(Issue("REPLAY-STALE-TEMP", f"steps/{p.name} was left by a pbem killed while writing step {p.name[1:4]}: it is not part of the archive",
                             severity=Severity.WARNING, file=str(p), hint="the next `pbem adjudicate` removes it"))
        elif p.name.startswith("."):
            out.append(_hidden(p, f"steps/{p.name}"))
        else:
            out.append(Issue("REPLAY-EXTRA-FILE", f"steps/{p.name} is not a step of the archive (steps hold only folders 000, 001, ...)",
                             file=str(p), hint="remove it: nothing pbem wrote is there"))
    return out


def _hidden(p: Path, what: str) -> Issue:
    """A hidden file (a file manager's, an editor's): pbem never reads it, the archive head
    leaves it out; said, not refused."""
    return Issue("REPLAY-EXTRA-HIDDEN", f"{what} is a hidden file pbem never reads: not part of the archive (nor of its head)",
                 severity=Severity.WARNING, file=str(p))


def _extra_files(d: Path, expected: set[str], where: str) -> list[Issue]:
    """Files of a step folder its report does not list (an unlisted order file, a stray folder)."""
    extra = sorted(p.name for p in d.iterdir() if p.name not in expected)
    return [_hidden(d / name, f"{where}: {name}") if name.startswith(".") else
            Issue("REPLAY-EXTRA-FILE", f"{where}: {name} is not listed by the step's report: it is no part of the archive",
                  file=str(d / name), hint="remove it; an order file counts only when its step's report lists it")
            for name in extra]


def _keep_archived(run: _Run, k: int, new_state: dict[str, Any], ofs: list[Any]) -> None:
    """Keep the order files the new state will need read back: received ones, and those a
    pending phase carries out (``resume.files``: archived by this step, or in chain mode by the
    step before, which asked for the links)."""
    for p, r in archived_refs(new_state):
        pool = ofs if r["step"] == k else run.before[1] if run.before and r["step"] == k - 1 else []
        mine = [of for of in pool if of.player == p]
        if mine and (r["step"] == k or p not in run.received_by_step.get(r["step"], {})):
            run.received_by_step.setdefault(r["step"], {})[p] = ([of for of in mine if of.digest == r["sha256"]] or mine)[0]


def _received(state: dict[str, Any], by_step: dict[int, dict[str, Any]]) -> list[Any]:
    """The order files the state lists as received (kept from the steps replayed so far)."""
    out = []
    for p, r in archived_refs(state):
        of = by_step.get(r["step"], {}).get(p)
        if of is not None:
            out.append(of)
    return out


def _where_in_report(k: int, mine: dict[str, Any], archived: dict[str, Any], diff: str | None) -> str:
    """"step NNN (turn T, PHASE)" naming the phase where the replay first differs: the phase
    of the first differing roll or event, else of the step's first phase."""
    phase = turn = None
    for doc in (mine, archived):
        if not isinstance(doc, dict):
            continue
        m = re.match(r"(rolls|events)\[(\d+)\]", diff or "")
        events = doc.get("events") or []
        if m and m.group(1) == "events" and int(m.group(2)) < len(events):
            ev = events[int(m.group(2))]
            phase, turn = ev.get("phase"), ev.get("turn")
        elif m and m.group(1) == "rolls" and int(m.group(2)) < len(doc.get("rolls") or []):
            label = doc["rolls"][int(m.group(2))].get("label", "")
            for ev in events:
                ki = ev.get("key_inputs") or {}
                if ev.get("type") == "phase" and label.startswith(f"{doc.get('game')}/{doc.get('campaign')}/{ki.get('step')}/"):
                    phase, turn = ev.get("phase"), ev.get("turn")
        if phase is None:
            firsts = [ev for ev in events if ev.get("type") == "phase"]
            if firsts:
                phase, turn = firsts[0].get("phase"), firsts[0].get("turn")
        if phase is not None:
            break
    return f"step {k:03d} (turn {turn}, {phase})" if phase is not None else f"step {k:03d}"


def _line_diff(mine: str, archived: str) -> str:
    """"; first differing line N: archived '...', replayed '...'"."""
    a, b = archived.splitlines(), mine.splitlines()
    for n, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return f"; first differing line {n}: archived {x.strip()[:120]!r}, replayed {y.strip()[:120]!r}"
    if len(a) != len(b):
        n = min(len(a), len(b)) + 1
        return f"; line {n}: " + ("the archived file ends there" if len(a) < len(b) else "the replayed file ends there")
    return ""


def _body(raw: bytes) -> bytes:
    """A state file without its leading comment lines (which are not part of its hash)."""
    lines = raw.split(b"\n")
    k = 0
    while k < len(lines) and lines[k].startswith(b"#"):
        k += 1
    return b"\n".join(lines[k:])
