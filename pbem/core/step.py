"""One adjudication step of a campaign: read the order files (and, in chain mode, the
reveals), run the kernel, build the report and archive the step atomically."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .campaign import (Campaign, OrderFile, load_order_file, orders_archive_name, original_path,
                       render_state, state_file_name)
from .canon import sha256_hex, state_hash
from .data import load_ruleset
from .dice import commitment
from .dicesource import DiceSource, chain_keys_from_archive, chain_source, dice_factory
from .errors import ExitCode, Issue, PbemError, exit_code_for
from .game import Submission
from .kernel import adjudicate, awaited_players, orders_digest, phase_players
from .report import build_report, render_text, report_json


@dataclass
class StepResult:
    report: dict
    text: str
    issues: list[Issue] = field(default_factory=list)
    step_dir: Path | None = None
    state: dict | None = None
    exit_code: ExitCode = ExitCode.OK
    game: Any = None        # the game and ruleset that adjudicated (for rendering)
    ruleset: Any = None


def submissions(ofs: list[OrderFile]) -> list[Submission]:
    return [Submission(player=of.player, doc=of.doc, digest=of.digest, name=of.name, dropped=of.dropped) for of in ofs]


def locate(issues: list[Issue], ofs: list[OrderFile]) -> list[Issue]:
    """Attach file:line to engine issues (which carry document paths only)."""
    by_name = {o.name: o for o in ofs}
    out = []
    for i in issues:
        of = by_name.get(i.file) if i.file else (_owner(ofs) if ofs else None)
        if of is not None and i.line is None:
            if of.path_map:
                i = replace(i, path=original_path(tuple(i.path), of.path_map))
            i = i.located(of.name, of.marks)
        out.append(i)
    return out


def _owner(ofs: list[OrderFile]) -> OrderFile:
    for o in ofs:
        if o.doc.get("phases") or o.doc.get("decisions"):
            return o
    return ofs[0]


def received_files(camp: Campaign, state: dict) -> list[OrderFile]:
    """The order files the state lists as received for the current phase (archived in earlier
    steps, read back and checked against their sha256)."""
    out = []
    for player, rec in sorted((state.get("received") or {}).items()):
        d = camp.root / "steps" / f"{rec['step']:03d}"
        found = sorted(d.glob(f"orders-*-{player}-{rec['sha256'][:12]}.yaml"))
        if not found:
            raise PbemError([Issue("FILE-ARCHIVE", f"the {player} player's received orders are missing from {d}", file=str(d))])
        of = load_order_file(camp.inside(found[0]), name=found[0].name)
        if of.digest != rec["sha256"]:
            raise PbemError([Issue("HASH-ORDERS", f"{found[0]} was changed after it was received (sha256 differs)", file=str(found[0]))])
        out.append(of)
    return out


def new_dice_digest(state: dict, ofs: list[OrderFile], received: list[OrderFile], missing_orders: bool) -> str | None:
    """The orders digest this step's new dice are keyed on, or None when it rolls no new dice:
    a decision answer (the phase keeps its dice), orders received while other players are
    still awaited, missing orders."""
    if state.get("pending"):
        return None
    new = [of for of in ofs if of.doc.get("phases")]
    if not new and not (missing_orders and received):
        return None
    expected = phase_players(state)
    have = {of.player: of for of in received + new}
    if len(expected) > 1 and not missing_orders and any(p not in have for p in expected):
        return None
    subs = [have[p] for p in expected if p in have] if len(expected) > 1 else new
    return orders_digest(submissions(subs))


def run_step(g, rs, state: dict, state_name: str, ofs: list[OrderFile], source: "DiceSource | str",
             *, missing_orders: bool = False, reveals: list | None = None,
             received: list[OrderFile] | None = None) -> tuple[Any, dict, str, dict | None, str | None]:
    """The pure part of a step: adjudicate and build the report and the new state text.
    ``reveals`` (chain mode): the checked reveals this step consumes; ``received``: the order
    files of earlier steps the state lists as received."""
    factory = dice_factory(source, state["game"], state["campaign"])
    outcome = adjudicate(g, rs, state, submissions(ofs), factory, missing_orders=missing_orders,
                         received=submissions(received or []))
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
        text_state = render_state(outcome.state, g.state_schema)
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


def adjudicate_campaign(folder: Path, order_paths: list[Path], *, key_path: Path | None = None,
                        missing_orders: bool = False, reveal_paths: list[Path] | None = None) -> StepResult:
    from .actions import _expand_mail, by_line, load_orders, only_schema_errors, rule_issues, ruleset_issues
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
    parts: list[OrderFile] = []
    ofs, iss = load_orders(order_paths, state, parts)
    replayed = archived_digests(camp)
    again = [Issue("HASH-ORDERS-REPLAYED", f"{of.name} was already adjudicated in step {replayed[of.digest]}",
                   file=of.name, hint="an order file counts once; write new orders from `pbem orders template`")
             for of in ofs if of.digest in replayed]
    if again:
        raise PbemError(again)
    issues += iss
    if any(i.is_error for i in iss):
        if only_schema_errors(iss) and parts:
            # every problem at once; still refused, nothing written
            issues = by_line(issues + rule_issues(g, rs, state, parts))
        raise PbemError(issues, exit_code_for(iss))
    if missing_orders and ofs:
        raise PbemError([Issue("ORDERS-MISSING-FLAG", "--missing-orders is for a player who sent nothing; do not give order files with it")], ExitCode.USAGE)
    if missing_orders:
        declared = camp.manifest.get("missing_orders") or {}
        late = [d["player"] for d in state.get("pending") or []] or awaited_players(state)
        for p in late:
            if p not in declared:
                raise PbemError([Issue("ORDERS-NO-DEFAULT", f"the campaign declares no default for the {p} player when orders are missing",
                                       hint="start campaigns with `pbem new ... --missing-orders-default ROLE=no-orders` to allow it")],
                                ExitCode.USAGE)
    received = received_files(camp, state)
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
        digest = new_dice_digest(state, ofs, received, missing_orders)
        source, bad = chain_source(chain_keys_from_archive(camp, state["step"] + 1), state, digest, reveals)
        if bad:
            raise PbemError(bad)
    outcome, report, text_state, new_state, out_name = run_step(g, rs, state, spath.name, ofs, source,
                                                                 missing_orders=missing_orders,
                                                                 reveals=reveals or None, received=received)
    text = render_text(report, g, rs)
    if new_state is None:
        # Refused: nothing is archived, so point the player at the files they gave, and give
        # every problem at once (the adjudication stops at the first phase found wrong; the
        # checks without dice see the later phases too).
        seen = {(i.code, i.file, i.line) for i in outcome.issues}
        checked = rule_issues(g, rs, state, ofs) if state.get("phase") != "end" else []
        more = [i for i in checked if (i.code, i.file, i.line) not in seen]
        back = [replace(i, file=local.get(i.file, i.file)) for i in by_line(outcome.issues + more)]
        report = dict(report, issues=[i.to_dict() for i in back])
        text = render_text(report, g, rs)
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
    # a step that stops for new orders (orders of a later phase set aside at the position the
    # dice left: "orders-invalid") waits for orders as one waiting for other players does
    res.exit_code = {"pending": ExitCode.PENDING, "waiting": ExitCode.WAITING,
                     "orders-invalid": ExitCode.WAITING}.get(outcome.stopped, ExitCode.OK)
    return res
