"""What the commands do, without click or printing: each returns data and issues, so the CLI,
the tests and later front ends share one path. Files are read here and written only through
:mod:`pbem.core.campaign` (atomic, never overwriting)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import __version__
from .campaign import (Campaign, OrderFile, check_orders_against_state, load_order_file,
                       load_state_file, orders_archive_name, parse_order_bytes, render_state,
                       state_file_name)
from .canon import sha256_hex, state_hash
from .data import load_ruleset
from .dice import ALGORITHM, Dice, commitment, derive_phase_key, new_key, roll_value
from .errors import ExitCode, Issue, PbemError, Severity, exit_code_for
from .games import game_of_scenario
from .report import build_report, render_text, report_json, stopped_text


class _NoDice(Dice):
    """Dice for a phase whose key is unknown (no reveals were needed): rolling is a bug."""

    def __init__(self, prefix: str) -> None:
        self._start(prefix)

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        raise PbemError([Issue("DICE-NO-KEY", f"a die ({full_label}) is needed but no dice key is known for these orders")])


@dataclass
class DiceSource:
    """Where a step's dice keys come from: the game master's key (mode ``gm``), or the
    players' revealed hash-chain links (mode ``chain``, see :mod:`pbem.core.chain`): then each
    order file's sha256 maps to the key combined from the links revealed for it."""
    mode: str = "gm"
    key: str | None = None
    chain_keys: dict[str, str] = field(default_factory=dict)

    def key_for(self, orders_digest: str) -> str | None:
        return self.key if self.mode == "gm" else self.chain_keys.get(orders_digest)


def dice_factory(source: "DiceSource | str", game: str, campaign: str):
    if isinstance(source, str):
        source = DiceSource(key=source)

    def make(*, step: str, orders_digest: str, state_hash: str) -> Dice:
        prefix = f"{game}/{campaign}/{step}/"
        key_hex = source.key_for(orders_digest)
        if key_hex is None:
            return _NoDice(prefix)
        pk = derive_phase_key(key_hex, game=game, campaign=campaign, step=step,
                              orders_digest=orders_digest, state_hash=state_hash)
        return Dice(pk, prefix=prefix)
    return make


# ----------------------------------------------------------------------------- new
def new_campaign(folder: Path, *, scenario: str, campaign_id: str, players: dict[str, dict],
                 options: dict[str, bool], standing: dict[str, str] | None = None,
                 title: str | None = None, key_hex: str | None = None,
                 chain_heads: dict[str, str] | None = None,
                 missing_defaults: dict[str, str] | None = None, gm: str | None = None) -> Campaign:
    import re
    gid = game_of_scenario(scenario)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", campaign_id or ""):
        raise PbemError([Issue("NEW-ID", f"campaign id {campaign_id!r}: use letters, digits, '.', '_' and '-' (it goes into file names and dice labels)")],
                        ExitCode.USAGE)
    g, rs = load_ruleset(scenario)
    needed = rs.play.players
    issues = []
    for p in needed:
        if p not in players:
            issues.append(Issue("NEW-PLAYER-MISSING", f"scenario {scenario} needs the player {p!r}",
                                hint="--player " + p + "=NAME[:EMAIL]"))
    for p in players:
        if p not in needed:
            issues.append(Issue("NEW-PLAYER-UNKNOWN", f"scenario {scenario} has no player {p!r}", hint="players: " + ", ".join(needed)))
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    if chain_heads is not None:
        missing = sorted(set(needed) - set(chain_heads))
        if missing or set(chain_heads) - set(needed):
            raise PbemError([Issue("NEW-CHAIN", f"--dice chain needs one head per player ({', '.join(needed)}); missing: {', '.join(missing) or '-'}",
                                   hint="each player: pbem chain new --player ROLE -o ROLE.chain, then --commit ROLE=HEAD")], ExitCode.USAGE)
    key = None if chain_heads is not None else (key_hex or new_key())
    com = commitment(key) if key else None
    st = g.new_state(rs, campaign=campaign_id, players={p: players[p]["name"] for p in sorted(players)},
                     commitment=com, algorithm=ALGORITHM, options=options, engine_version=__version__,
                     standing=standing)
    manifest = {
        "schema": "pbem/campaign/v1",
        "game": gid,
        "scenario": scenario,
        "id": campaign_id,
        "title": title or f"{g.TITLE}: {scenario}",
        "players": {p: dict(players[p]) for p in sorted(players)},
        "dice": {"algorithm": ALGORITHM, "commitment": com},
        "options": dict(st["options"]),
        "engine": __version__,
    }
    if gm:
        manifest["gm"] = gm
    if missing_defaults:
        manifest["missing_orders"] = {p: missing_defaults[p] for p in sorted(missing_defaults)}
    if chain_heads is not None:
        # No referee: the players' chain heads replace the game master's commitment.
        heads = {p: chain_heads[p] for p in sorted(chain_heads)}
        manifest["dice"] = {"algorithm": ALGORITHM, "mode": "chain", "heads": heads}
        st["dice"] = {"algorithm": ALGORITHM, "mode": "chain", "heads": heads, "used": 0, "revealed": {}}
    return Campaign.create(folder, manifest, st, key)


# ----------------------------------------------------------------------------- loading
def _expand_mail(paths: list[Path], issues: list[Issue]) -> list:
    """``paths`` with each e-mail (.eml, mbox) replaced by the order files it carries, as
    (name, bytes) (:mod:`pbem.core.mail`); its problems (MAIL-*) go to ``issues``."""
    from .mail import expand
    return expand(paths, issues)


def load_orders(paths: list[Path], state: dict) -> tuple[list[OrderFile], list[Issue]]:
    ofs, issues = [], []
    for p in _expand_mail(paths, issues):
        try:
            of = parse_order_bytes(p[1], p[0]) if isinstance(p, tuple) else load_order_file(p)
        except PbemError as e:
            issues += e.issues
            continue
        issues += check_orders_against_state(of, state)
        ofs.append(of)
    return ofs, issues


def submissions(g, ofs: list[OrderFile]):
    from importlib import import_module
    Sub = import_module(g.__name__ + ".engine").Submission
    return [Sub(player=of.player, doc=of.doc, digest=of.digest, name=of.name) for of in ofs]


def locate(issues: list[Issue], ofs: list[OrderFile]) -> list[Issue]:
    """Attach file:line to engine issues (which carry document paths only)."""
    by_name = {o.name: o for o in ofs}
    out = []
    for i in issues:
        of = by_name.get(i.file) if i.file else (_owner(i, ofs) if ofs else None)
        if of is not None and i.line is None:
            i = i.located(of.name, of.marks)
        out.append(i)
    return out


def _owner(issue: Issue, ofs: list[OrderFile]) -> OrderFile:
    for o in ofs:
        if o.doc.get("phases") or o.doc.get("decisions"):
            return o
    return ofs[0]


# ----------------------------------------------------------------------------- validate
def validate_files(state_path: Path, order_paths: list[Path]) -> list[Issue]:
    state, _ = load_state_file(state_path)
    g, rs = load_ruleset(state["scenario"])
    issues = ruleset_issues(state, rs)
    ofs, iss = load_orders(order_paths, state)
    issues += iss
    if any(i.is_error for i in iss):
        return issues
    issues += locate(g.validate(rs, state, submissions(g, ofs)), ofs)
    return issues


def ruleset_issues(state: dict, rs) -> list[Issue]:
    if state["ruleset"]["digest"] != rs.digest:
        return [Issue("DATA-CHANGED", "the rules/scenario data differ from those this campaign was started with",
                      severity=Severity.WARNING,
                      hint="replays need the data of the campaign; check `git log rules/ scenarios/`")]
    return []


# ----------------------------------------------------------------------------- adjudicate
@dataclass
class StepResult:
    report: dict
    text: str
    issues: list[Issue] = field(default_factory=list)
    step_dir: Path | None = None
    state: dict | None = None
    exit_code: ExitCode = ExitCode.OK
    game: Any = None        # the game module and ruleset that adjudicated (for rendering)
    ruleset: Any = None


def run_step(g, rs, state: dict, state_name: str, ofs: list[OrderFile], source: "DiceSource | str",
             *, missing_orders: bool = False, reveals: list | None = None) -> tuple[Any, dict, str, dict | None, str | None]:
    """The pure part of a step: adjudicate and build the report and the new state text.
    ``reveals`` (chain mode): the checked reveals this step consumes."""
    subs = submissions(g, ofs)
    factory = dice_factory(source, state["game"], state["campaign"])
    outcome = g.adjudicate(rs, state, subs, factory, missing_orders=missing_orders)
    outcome.issues = locate(outcome.issues, ofs)
    if outcome.state is not None and reveals:
        d = dict(outcome.state["dice"])
        d["used"] = reveals[0].index
        d["revealed"] = {r.player: {"index": r.index, "link": r.link} for r in sorted(reveals, key=lambda r: r.player)}
        outcome.state["dice"] = d
    new_state = None
    text_state = None
    out_name = None
    out_hash = None
    if outcome.state is not None:
        text_state = render_state(outcome.state)
        new_state = dict(outcome.state)
        new_state["hash"] = state_hash(outcome.state)
        out_name = state_file_name(new_state)
        out_hash = new_state["hash"]
    orders_meta = [{"file": orders_archive_name(of, i + 1), "player": of.player, "sha256": of.digest}
                   for i, of in enumerate(ofs)]
    report = build_report(game=state["game"], campaign=state["campaign"], step=state["step"] + 1,
                          input_state=state_name, input_hash=state["hash"], orders=orders_meta,
                          outcome=outcome, output_state=out_name, output_hash=out_hash,
                          dice=dice_report(state, reveals))
    return outcome, report, text_state, new_state, out_name


def dice_report(state: dict, reveals: list | None) -> dict:
    d = state["dice"]
    if d.get("mode") != "chain":
        return {"algorithm": d["algorithm"], "commitment": d["commitment"]}
    out = {"algorithm": d["algorithm"], "mode": "chain", "heads": d["heads"]}
    if reveals:
        out["reveals"] = [{"file": r.archive_name, "player": r.player, "index": r.index, "link": r.link,
                           "orders": r.orders, "sha256": r.digest} for r in sorted(reveals, key=lambda r: r.player)]
    return out


def archived_digests(camp: Campaign) -> dict[str, str]:
    """sha256 of every order file in the archive -> the step that adjudicated it."""
    out = {}
    for d in camp.step_dirs()[1:]:
        for p in d.glob("orders-*.yaml"):
            out[sha256_hex(p.read_bytes())] = d.name
    return out


def chain_keys_from_archive(camp: Campaign, upto: int) -> dict[str, str]:
    """Chain mode: sha256 of every archived order file -> the dice key of its step's reveals,
    for steps before ``upto`` (a resumed phase keeps the dice of the step that began it)."""
    from .chain import combine
    out: dict[str, str] = {}
    for d in camp.step_dirs()[1:upto]:
        rep = json.loads(camp.inside(d / "report.json").read_text("utf-8"))
        rv = rep.get("dice", {}).get("reveals")
        if rv:
            key = combine({r["player"]: r["link"] for r in rv}, sorted(rep["dice"]["heads"]))
            for o in rep["orders"]:
                out[o["sha256"]] = key
    return out


def chain_source(known: dict[str, str], state: dict, ofs: list[OrderFile], reveals: list) -> tuple[DiceSource, list[Issue]]:
    """Check this step's reveals and build its dice source (chain mode). ``known``: the keys of
    the earlier steps' order files (:func:`chain_keys_from_archive`)."""
    from .chain import check_reveals, step_key
    new_orders = [of for of in ofs if of.doc.get("phases")]
    digest = new_orders[0].digest if new_orders else None
    issues = check_reveals(reveals, state, digest)
    source = DiceSource(mode="chain", chain_keys=dict(known))
    if digest and not issues:
        source.chain_keys[digest] = step_key(reveals, state["dice"]["heads"])
    return source, issues


def adjudicate_campaign(folder: Path, order_paths: list[Path], *, key_path: Path | None = None,
                        missing_orders: bool = False, reveal_paths: list[Path] | None = None) -> StepResult:
    from .chain import load_reveal
    camp = Campaign(folder)
    spath, state = camp.current()
    g, rs = load_ruleset(state["scenario"])
    chain = state["dice"].get("mode") == "chain"
    key = None
    if not chain:
        key = camp.read_key(key_path)
        if commitment(key) != state["dice"]["commitment"]:
            raise PbemError([Issue("DICE-KEY-MISMATCH", "the dice key does not match the commitment published in the state",
                                   hint="use the key pbem new wrote to CAMPAIGN/private/dice.key")])
        if reveal_paths:
            raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "this campaign's dice come from the game master's key, not from hash chains")],
                            ExitCode.USAGE)
    issues = ruleset_issues(state, rs)
    ofs, iss = load_orders(order_paths, state)
    replayed = archived_digests(camp)
    again = [Issue("HASH-ORDERS-REPLAYED", f"{of.name} was already adjudicated in step {replayed[of.digest]}",
                   file=of.name, hint="an order file counts once; write new orders from `pbem orders template`")
             for of in ofs if of.digest in replayed]
    if again:
        raise PbemError(again)
    issues += iss
    if any(i.is_error for i in iss):
        raise PbemError(issues)
    if missing_orders and ofs:
        raise PbemError([Issue("ORDERS-MISSING-FLAG", "--missing-orders is for a player who sent nothing; do not give order files with it")], ExitCode.USAGE)
    if missing_orders:
        late = (state.get("pending") or [{}])[0].get("player") or (state.get("awaiting") or {}).get("player")
        if late not in (camp.manifest.get("missing_orders") or {}):
            raise PbemError([Issue("ORDERS-NO-DEFAULT", f"the campaign declares no default for the {late} player when orders are missing",
                                   hint="start campaigns with `pbem new ... --missing-orders-default ROLE=no-orders` to allow it")],
                            ExitCode.USAGE)
    # Issues archived in report.json must name the order files as the archive (and a replay)
    # names them, not by the GM's local path: otherwise `pbem replay` fails on every step that
    # reported a warning (report.json differs at issues[0].file).
    local = {orders_archive_name(of, i + 1): of.name for i, of in enumerate(ofs)}
    ofs = [replace(of, name=orders_archive_name(of, i + 1)) for i, of in enumerate(ofs)]
    reveals = []
    source: DiceSource | str = key
    if chain:
        # reveals, like orders, may arrive as e-mail (.eml / mbox with the reveal attached)
        mail_issues: list[Issue] = []
        reveals = [load_reveal(p[1], p[0]) if isinstance(p, tuple) else load_reveal(p)
                   for p in _expand_mail(list(reveal_paths or []), mail_issues)]
        if mail_issues:
            raise PbemError(mail_issues)
        source, bad = chain_source(chain_keys_from_archive(camp, state["step"] + 1), state, ofs, reveals)
        if bad:
            raise PbemError(bad)
    outcome, report, text_state, new_state, out_name = run_step(g, rs, state, spath.name, ofs, source,
                                                                 missing_orders=missing_orders,
                                                                 reveals=reveals or None)
    text = render_text(report, g, rs)
    if new_state is None:
        # Refused: nothing is archived, so point the player at the files they gave.
        back = [replace(i, file=local.get(i.file, i.file)) for i in outcome.issues]
        res = StepResult(report=report, text=text, game=g, ruleset=rs, issues=issues + back)
        res.exit_code = exit_code_for(res.issues) or ExitCode.ILLEGAL
        return res
    files = {}
    for i, of in enumerate(ofs):
        files[orders_archive_name(of, i + 1)] = of.raw
    for r in reveals:
        files[r.archive_name] = r.raw
    files["report.json"] = report_json(report).encode("utf-8")
    files["report.txt"] = text.encode("utf-8")
    files[out_name] = text_state.encode("utf-8")
    sd = camp.write_step(new_state["step"], files)
    res = StepResult(report=report, text=text, game=g, ruleset=rs, issues=issues + outcome.issues, step_dir=sd, state=new_state)
    res.exit_code = ExitCode.PENDING if outcome.stopped == "pending" else ExitCode.OK
    return res


# ----------------------------------------------------------------------------- replay
@dataclass
class ReplayResult:
    steps: int = 0
    rolls: int = 0
    issues: list[Issue] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    links: int = 0


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return path or "(root)"
    if isinstance(a, dict):
        for k in list(a.keys()) + [k for k in b.keys() if k not in a]:
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


def replay_campaign(folder: Path, *, key_path: Path | None = None) -> ReplayResult:
    from .yamlio import load_yaml
    camp = Campaign(folder)
    res = ReplayResult()
    dirs = camp.step_dirs()
    if not dirs:
        res.issues.append(Issue("REPLAY-EMPTY", "the campaign has no steps"))
        return res
    from .chain import load_reveal
    prev_path = camp.state_path(dirs[0])
    state, _ = load_state_file(prev_path)
    chain = state["dice"].get("mode") == "chain"
    key = None
    if not chain:
        key = camp.read_key(key_path)
        if commitment(key) != state["dice"]["commitment"]:
            res.issues.append(Issue("DICE-KEY-MISMATCH", "the revealed key does not match the commitment in the first state",
                                    file=str(prev_path)))
            return res
    g, rs = load_ruleset(state["scenario"])
    res.issues += ruleset_issues(state, rs)
    if chain:
        res.lines.append(f"step 000: {prev_path.name} (initial state, hash-chain heads: "
                         + ", ".join(f"{p} {h[:16]}..." for p, h in sorted(state['dice']['heads'].items())) + ")")
    else:
        res.lines.append(f"step 000: {prev_path.name} (initial state, commitment {state['dice']['commitment'][:16]}...)")
    chain_keys: dict[str, str] = {}   # chain mode: the keys of the steps replayed so far
    for k, d in enumerate(dirs[1:], start=1):
        if d.name != f"{k:03d}":
            res.issues.append(Issue("REPLAY-GAP", f"expected steps/{k:03d}, found {d.name}", file=str(d)))
            return res
        rpath = d / "report.json"
        try:
            archived_report_raw = camp.inside(rpath).read_bytes()
            archived = json.loads(archived_report_raw)
            listed = [(str(o["file"]), str(o["sha256"])) for o in archived["orders"]]
        except PbemError as e:
            res.issues += e.issues
            return res
        except (OSError, ValueError, TypeError, KeyError) as e:
            res.issues.append(Issue("REPLAY-REPORT", f"cannot read {rpath}: {_why(e)}", file=str(rpath)))
            return res
        ofs = []
        for oname, osha in listed:
            p = d / oname
            try:
                of = load_order_file(camp.inside(p), name=oname)
            except PbemError as e:
                res.issues += e.issues
                return res
            if of.digest != osha:
                res.issues.append(Issue("HASH-ORDERS", f"step {k:03d}: {oname} was changed after it was adjudicated (sha256 differs)",
                                        file=str(p)))
                return res
            ofs.append(of)
        where = f"step {k:03d} (turn {state['turn']}, {state['phase']})"
        source: DiceSource | str | None = key
        reveals = []
        if chain:
            try:
                for r in (archived.get("dice") or {}).get("reveals") or []:
                    rv = load_reveal(camp.inside(d / str(r["file"])).read_bytes(), str(r["file"]))
                    if rv.digest != r["sha256"]:
                        res.issues.append(Issue("HASH-REVEAL", f"{where}: {r['file']} was changed after it was adjudicated",
                                                file=str(d / str(r["file"]))))
                        return res
                    reveals.append(rv)
            except PbemError as e:
                res.issues += e.issues
                return res
            except (OSError, KeyError, TypeError) as e:
                res.issues.append(Issue("REPLAY-REPORT", f"{where}: cannot read the reveals: {_why(e)}", file=str(rpath)))
                return res
            source, bad = chain_source(chain_keys, state, ofs, reveals)
            if bad:
                res.issues += [replace(i, message=f"{where}: {i.message}", file=str(d / i.file) if i.file else str(d))
                               for i in bad]
                return res
        # A step without order files was adjudicated with --missing-orders.
        outcome, report, text_state, new_state, out_name = run_step(g, rs, state, prev_path.name, ofs, source,
                                                                     reveals=reveals or None, missing_orders=not ofs)
        mine = report_json(report).encode("utf-8")
        if mine != archived_report_raw:
            diff = first_difference(json.loads(mine), archived)
            res.issues.append(Issue("REPLAY-REPORT-DIFFERS", f"{where}: report.json differs at {diff}", file=str(rpath)))
            return res
        text = render_text(report, g, rs)
        tpath = d / "report.txt"
        if not tpath.is_file() or camp.inside(tpath).read_bytes() != text.encode("utf-8"):
            res.issues.append(Issue("REPLAY-TEXT-DIFFERS", f"{where}: report.txt differs", file=str(tpath)))
            return res
        if new_state is None:
            res.issues.append(Issue("REPLAY-REFUSED", f"{where}: the archived orders are refused on replay", file=str(d)))
            return res
        spath = d / out_name
        if not spath.is_file():
            res.issues.append(Issue("REPLAY-STATE-MISSING", f"{where}: {out_name} is missing", file=str(d)))
            return res
        archived_state_raw = camp.inside(spath).read_bytes()
        if archived_state_raw != text_state.encode("utf-8"):
            try:
                other = load_yaml(archived_state_raw, str(spath), max_bytes=50_000_000, max_nodes=5_000_000).data
                diff = first_difference(load_yaml(text_state, "replayed", max_bytes=50_000_000, max_nodes=5_000_000).data, other)
            except PbemError:
                diff = "(unreadable archived state)"
            res.issues.append(Issue("REPLAY-STATE-DIFFERS", f"{where}: {out_name} differs at {diff}", file=str(spath)))
            return res
        res.rolls += len(report["rolls"])
        res.steps += 1
        res.texts.append(text)
        links = f"; {len(reveals)} chain link(s) verified" if reveals else ""
        res.lines.append(f"step {k:03d}: {out_name} identical; {len(report['rolls'])} roll(s) recomputed{links}; {stopped_text(report['stopped'])}")
        res.links += len(reveals)
        state = new_state
        prev_path = spath
        if chain:
            chain_keys = source.chain_keys
    return res


def _why(e: Exception) -> str:
    """Why an archived report could not be read, in words."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    if isinstance(e, KeyError):
        return f"no field {e}"
    if isinstance(e, TypeError):
        return "not a report (wrong structure)"
    return str(e)


# ----------------------------------------------------------------------------- dice verify
def find_roll(folder: Path, label: str) -> tuple[dict, dict]:
    camp = Campaign(folder)
    for d in camp.step_dirs()[1:]:
        rpath = d / "report.json"
        try:
            rep = json.loads(camp.inside(rpath).read_bytes())
            rep["rolls"], rep["events"]
        except (OSError, ValueError, TypeError, KeyError) as e:
            raise PbemError([Issue("REPLAY-REPORT", f"cannot read {rpath}: {_why(e)}", file=str(rpath),
                                   hint="`pbem replay` checks the whole archive")]) from None
        for r in rep["rolls"]:
            if r["label"] == label:
                phase = None
                for ev in rep["events"]:
                    if ev["type"] == "phase" and label.startswith(f"{rep['game']}/{rep['campaign']}/{ev['key_inputs']['step']}/"):
                        phase = ev
                return r, {"report": str(d / "report.json"), **(phase["key_inputs"] if phase else {})}
    raise PbemError([Issue("DICE-LABEL-UNKNOWN", f"no roll labelled {label!r} in the campaign's reports")])


def verify(key_hex: str, *, game: str, campaign: str, step: str, orders: str, state: str, label: str, sides: int = 6) -> dict:
    pk = derive_phase_key(key_hex, game=game, campaign=campaign, step=step, orders_digest=orders, state_hash=state)
    return {"phase_key": pk, "label": label, "sides": sides, "value": roll_value(pk, label, sides)}


# ----------------------------------------------------------------------------- data check
def data_check(scenario: str | None = None) -> tuple[list[Issue], list[dict]]:
    from .data import load_scenario_docs
    from .games import SCENARIO_LINES
    from .canon import digest
    issues: list[Issue] = []
    provisional: list[dict] = []
    scen = [scenario] if scenario else sorted(SCENARIO_LINES)
    seen_items = set()
    for s in scen:
        g, docs, iss = load_scenario_docs(s)
        issues += iss
        if any(i.is_error for i in iss):
            continue
        rs = g.build(docs, digest(docs))
        issues += g.consistency(rs)
        for p in rs.provisional_items():
            key = (p["file"], p["item"])
            if key not in seen_items:
                seen_items.add(key)
                provisional.append(p)
    return issues, provisional
