"""One adjudication step of a campaign: read the order files (and, in chain mode, the
reveals), run the kernel, build the report and archive the step atomically."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .archive import head as archive_head
from .campaign import (
    MANIFEST_COPY,
    Campaign,
    OrderFile,
    load_order_file,
    load_state_file,
    orders_archive_name,
    render_state_hashed,
    state_file_name,
)
from .canon import canonical_json, sha256_hex
from .chain import WITNESS, load_reveal
from .data import load_ruleset
from .dice import commitment, receipt
from .dicesource import DiceSource, NeedLinks, chain_keys_from_archive, chain_source, dice_factory
from .errors import ExitCode, Issue, PbemError, Severity, exit_code_for
from .kernel import Outcome, adjudicate, awaited_players, orders_digest, phase_players, set_awaiting
from .orders import (
    archived_digests,
    by_line,
    expand_mail,
    load_orders,
    locate,
    only_schema_errors,
    replayed_issues,
    rule_issues,
    ruleset_issues,
    submissions,
)
from .report import build_report, render_text, report_json
from .signing import check, trusted_keys

if TYPE_CHECKING:
    from .game import Game


@dataclass
class StepResult:
    report: dict[str, Any]
    text: str
    issues: list[Issue] = field(default_factory=list)
    step_dir: Path | None = None
    state: dict[str, Any] | None = None
    exit_code: ExitCode = ExitCode.OK
    game: Any = None        # the game and ruleset that adjudicated (for rendering)
    ruleset: Any = None


def naming(state: dict[str, Any], key: str | None) -> Callable[[bytes], str] | None:
    """How order files are named (archive, states, reports, dice keys): their sha256, or in a
    game master's campaign with receipts, their receipt keyed with the dice key."""
    if (state.get("dice") or {}).get("receipts") and key:
        return lambda raw: receipt(key, raw)
    return None


def named(ofs: list[OrderFile], name: Callable[[bytes], str] | None) -> list[OrderFile]:
    return ofs if name is None else [replace(of, digest=name(of.raw)) for of in ofs]


def archived_refs(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The archived order files a state needs read back, (player, {sha256, step}): those it lists
    as received for the current phase, and those of a phase stopped at a pending decision that
    it names rather than keeps (``resume.files``, issue 20)."""
    refs = dict(state.get("received") or {})
    refs.update((state.get("resume") or {}).get("files") or {})
    return sorted(refs.items())


def received_files(camp: Campaign, state: dict[str, Any], name: Callable[[bytes], str] | None = None) -> list[OrderFile]:
    """The order files the state lists as received for the current phase, or names as being
    carried out by a pending phase (archived in earlier steps, read back and checked against
    their sha256, or their receipt: ``name``)."""
    out = []
    for player, rec in archived_refs(state):
        d = camp.root / "steps" / f"{rec['step']:03d}"
        found = sorted(d.glob(f"orders-*-{player}-{rec['sha256'][:12]}.yaml"))
        if not found:
            raise PbemError([Issue("FILE-ARCHIVE", f"the {player} player's received orders (or those being carried out) are missing from {d}", file=str(d))])
        of = named([load_order_file(camp.inside(found[0]), name=found[0].name)], name)[0]
        if of.digest != rec["sha256"]:
            raise PbemError([Issue("HASH-ORDERS", f"{found[0]} was changed after it was received (sha256 differs)", file=str(found[0]))])
        out.append(of)
    return out


def new_dice_digest(state: dict[str, Any], ofs: list[OrderFile], received: list[OrderFile], missing_orders: bool) -> str | None:
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


def signature_issues(keys: dict[str, str], files: list[tuple[bytes, str, str, str]]) -> list[Issue]:
    """The signature problems of the files (raw, name, player it names, what it is) with the
    campaign's public keys (:func:`pbem.core.signing.trusted_keys`)."""
    out: list[Issue] = []
    for raw, name, player, what in files:
        out += check(raw, name, player, keys, what)[0]
    return out


def run_step(g: Game[Any], rs: Any, state: dict[str, Any], state_name: str, ofs: list[OrderFile], source: DiceSource | str,
             *, missing_orders: bool = False, reveals: list[Any] | None = None,
             received: list[OrderFile] | None = None,
             request: tuple[Any, ...] | None = None) -> tuple[Outcome, dict[str, Any], str | None, dict[str, Any] | None, str | None]:
    """The pure part of a step: adjudicate and build the report and the new state text (None,
    with the new state and its file name, when the orders are refused).
    ``reveals`` (chain mode): the checked reveals this step consumes; ``received``: the order
    files of earlier steps the state lists as received; ``request`` (chain mode, a state that
    asked for links): (the state before the step that archived the orders, those order files,
    the files that state had received)."""
    outcome = _outcome(g, rs, state, ofs, source, missing_orders, reveals, received or [], request)
    if state["dice"].get("receipts"):
        _receipt_events(state, outcome, (received or []) + ofs)
    if outcome.state is not None and reveals:
        d = dict(outcome.state["dice"])
        d.pop("request", None)
        d["used"] = reveals[0].index
        # the players absent (missing orders) keep their last revealed link
        new = {r.player: {"index": r.index, "link": r.link} for r in reveals}
        d["revealed"] = dict(sorted({**(d.get("revealed") or {}), **new}.items()))
        outcome.state["dice"] = d
    new_state = None
    text_state = None
    out_name = None
    out_hash = None
    if outcome.state is not None:
        text_state, out_hash = render_state_hashed(outcome.state, g.state_schema)
        new_state = dict(outcome.state)
        new_state["hash"] = out_hash
        out_name = state_file_name(new_state)
    orders_meta = [{"file": orders_archive_name(of, i + 1), "player": of.player, "sha256": of.digest}
                   for i, of in enumerate(ofs)]
    report = build_report(game=state["game"], campaign=state["campaign"], step=state["step"] + 1,
                          input_state=state_name, input_hash=state["hash"], orders=orders_meta,
                          outcome=outcome, output_state=out_name, output_hash=out_hash,
                          dice=dice_report(state, reveals))
    return outcome, report, text_state, new_state, out_name


def _outcome(g: Game[Any], rs: Any, state: dict[str, Any], ofs: list[OrderFile], source: DiceSource | str, missing_orders: bool,
             reveals: list[Any] | None, received: list[OrderFile], request: tuple[Any, ...] | None) -> Outcome:
    """The kernel's outcome of the step, its issues located in the order files."""
    factory = dice_factory(source, state["game"], state["campaign"])
    req = state["dice"].get("request") if state["dice"].get("mode") == "chain" else None
    if req is None:
        try:
            outcome = adjudicate(g, rs, state, submissions(ofs), factory, missing_orders=missing_orders,
                                 received=submissions(received))
        except NeedLinks as nl:
            outcome = links_outcome(state, nl.digest, ofs, missing_orders)
        outcome.issues = locate(outcome.issues, ofs)
        return outcome
    # The links asked for are in: carry out the orders archived by the previous step on the
    # state before it (``request``: that state, those files, the files it had received),
    # exactly as far as they went, now with the key of the links.
    assert request is not None, "a state that asked for links is stepped with its request"
    base, req_files, base_received = request
    try:
        outcome = adjudicate(g, rs, base, submissions(req_files), factory, missing_orders=req["missing_orders"],
                             received=submissions(base_received))
    except NeedLinks:
        raise PbemError([Issue("DICE-NO-KEY", "the revealed links do not give the key these orders need")]) from None
    outcome.issues = locate(outcome.issues, req_files)
    if outcome.state is None:
        outcome = void_outcome(base, state, req_files, outcome)
    assert outcome.state is not None
    outcome.state["step"] = state["step"] + 1
    outcome.state["previous"] = state["hash"]
    outcome.events.insert(0, {"type": "links", "turn": base["turn"], "phase": base["phase"],
                              "players": sorted(r.player for r in reveals or []),
                              "index": (reveals or [None])[0].index if reveals else None, "orders": req["orders"],
                              "archived": state["step"]})
    return outcome


def _receipt_events(state: dict[str, Any], outcome: Outcome, files: list[OrderFile]) -> None:
    """A game master's campaign with receipts: the files received are named by their receipt
    (a sha256 would let others guess them), and the files carried out now by both (a file a
    pending phase still carries out, once that phase is done)."""
    for ev in outcome.events:
        if ev.get("type") == "received" and "sha256" in ev:
            ev["receipt"] = ev.pop("sha256")
    if outcome.state is None or outcome.stopped in ("waiting", "refused", "links"):
        return
    # a phase stopped at a decision names the files still being carried out (issue 20): their
    # sha256 is given once they are carried out, not before (it would let others test a guess)
    later = {r["sha256"] for r in ((outcome.state.get("resume") or {}).get("files") or {}).values()}
    carried = [of for of in files if (of.doc.get("phases") or of.doc.get("decisions")) and of.digest not in later]
    if carried:
        outcome.events.append({"type": "digests", "turn": state["turn"], "phase": state["phase"],
                               "files": [{"player": of.player, "receipt": of.digest, "sha256": sha256_hex(of.raw)}
                                         for of in carried]})


def links_outcome(state: dict[str, Any], digest: str, ofs: list[OrderFile], missing_orders: bool) -> Outcome:
    """Chain mode: the orders need a die whose links nobody has revealed yet. The step archives
    the files (immutable from now on) and asks every player for their next link, bound to
    these orders and to the archive that holds them; nothing is rolled, nothing else changes."""
    work = copy.deepcopy(state)
    work.pop("hash", None)
    work["step"] = state["step"] + 1
    work["previous"] = state["hash"]
    d = dict(work["dice"])
    d["request"] = {"orders": digest, "files": [{"player": of.player, "sha256": of.digest} for of in ofs],
                    "missing_orders": bool(missing_orders)}
    work["dice"] = d
    absent = sorted(set(awaited_players(state) or [x["player"] for x in state.get("pending") or []])) if missing_orders else []
    # Whose links key these dice: every player's; with missing orders, those of the players
    # present (an absent player would stall the game), or everybody's if nobody is.
    players = sorted(p for p in d["heads"] if p not in absent) or sorted(d["heads"])
    if missing_orders and d.get("witness"):
        # ... and the witness's (issue 29): the player present alone knows his own link before
        # sending his file; the dice of a phase carried out without a player also take a link
        # nobody present knows then
        players = sorted(players + [WITNESS])
    if absent or WITNESS in players:
        d["request"]["players"] = players
    set_awaiting(work, [{"player": p, "for": "links"} for p in players])
    ev = {"type": "links-needed", "turn": state["turn"], "phase": state["phase"], "orders": digest,
          "index": d.get("used", 0) + 1, "players": players}
    if missing_orders:
        ev["missing_orders"] = absent
    return Outcome(state=work, events=[ev], stopped="links")


def void_outcome(base: dict[str, Any], state: dict[str, Any], files: list[OrderFile], refused: Outcome) -> Outcome:
    """Chain mode: the archived orders, carried out with the links revealed for them, are
    refused. The links are shown: they are spent for good (recorded in this step), the orders
    are void and new orders are awaited, as before them."""
    work = copy.deepcopy(base)
    work.pop("hash", None)
    ev = {"type": "files-void", "turn": base["turn"], "phase": base["phase"], "players": sorted({of.player for of in files}),
          "archived": state["step"], "issues": sorted({i.code for i in refused.issues if i.is_error})}
    return Outcome(state=work, events=[ev], issues=[replace(i, severity=Severity.WARNING) for i in refused.issues], stopped="void")


def request_inputs(camp: Campaign, state: dict[str, Any]) -> tuple[dict[str, Any], list[OrderFile], list[OrderFile]]:
    """Chain mode, a state that asked for links: the state before it, the order files it
    archived (checked against their sha256) and the files that state had received."""
    req = state["dice"]["request"]
    dirs = camp.step_dirs()
    k = state["step"]
    if len(dirs) <= k or dirs[k].name != f"{k:03d}":
        raise PbemError([Issue("FILE-ARCHIVE", f"steps/{k:03d} is missing")])
    base, _ = load_state_file(camp.state_path(dirs[k - 1]))
    files = []
    for i, f in enumerate(req["files"]):
        p = dirs[k] / f"orders-{i + 1}-{f['player']}-{f['sha256'][:12]}.yaml"
        of = load_order_file(camp.inside(p), name=p.name)
        if of.digest != f["sha256"]:
            raise PbemError([Issue("HASH-ORDERS", f"{p} was changed after it was archived (sha256 differs)", file=str(p))])
        files.append(of)
    return base, files, received_files(camp, base)


def dice_report(state: dict[str, Any], reveals: list[Any] | None) -> dict[str, Any]:
    d = state["dice"]
    if d.get("mode") != "chain":
        out = {"algorithm": d["algorithm"], "commitment": d["commitment"]}
        if d.get("receipts"):
            out["receipts"] = True      # the orders' `sha256` fields hold receipts (keyed), not SHA-256
        return out
    out = {"algorithm": d["algorithm"], "mode": "chain", "heads": d["heads"]}
    if reveals:
        out["reveals"] = [{"file": r.archive_name, "player": r.player, "index": r.index, "link": r.link,
                           "orders": r.orders, "sha256": r.digest} for r in sorted(reveals, key=lambda r: r.player)]
    return out


def adjudicate_campaign(folder: Path, order_paths: list[Path], *, key_path: Path | None = None,
                        missing_orders: bool = False, reveal_paths: list[Path] | None = None) -> StepResult:
    camp = Campaign(folder)
    cleaned = camp.clean_stale_temps()   # left by a pbem killed mid-step: said, and removed
    spath, state = camp.current()
    g, rs = load_ruleset(state["scenario"])
    key = _gm_key(camp, state, key_path, reveal_paths)
    issues = cleaned + ruleset_issues(state, rs)
    name = naming(state, key)
    keys = trusted_keys(camp)   # read once: it lists the archive and reads its newest manifest copy
    ofs, iss = _accepted_orders(camp, g, rs, state, order_paths, name, issues, keys)
    issues += iss
    _check_missing_orders(camp, state, ofs, missing_orders)
    received = received_files(camp, state, name)
    # Issues archived in report.json must name the order files as the archive (and a replay)
    # names them, not by the GM's local path: otherwise `pbem replay` fails on every step that
    # reported a warning (report.json differs at issues[0].file).
    local = {orders_archive_name(of, i + 1): of.name for i, of in enumerate(ofs)}
    ofs = [replace(of, name=orders_archive_name(of, i + 1)) for i, of in enumerate(ofs)]
    reveals: list[Any] = []
    source: DiceSource | str
    request = None
    if key is None:     # chain mode
        source, reveals, request = _chain_inputs(camp, state, ofs, reveal_paths or [], received, missing_orders, keys)
    else:
        source = key
    outcome, report, text_state, new_state, out_name = run_step(g, rs, state, spath.name, ofs, source,
                                                                 missing_orders=missing_orders,
                                                                 reveals=reveals or None, received=received,
                                                                 request=request)
    if new_state is None or text_state is None or out_name is None:      # (all three or none)
        return _refused(g, rs, state, ofs, outcome, report, local, issues)
    text = render_text(report, g, rs)
    files = {}
    for i, of in enumerate(ofs):
        files[orders_archive_name(of, i + 1)] = of.raw
    for r in reveals:
        files[r.archive_name] = r.raw
    files["report.json"] = report_json(report).encode("utf-8")
    files["report.txt"] = text.encode("utf-8")
    files[out_name] = text_state.encode("utf-8")
    if camp.manifest_amended():
        # missing-orders defaults added since the newest copy (`pbem missing-default`, issue 33):
        # the manifest as it holds from this step on, in the archive for replay
        files[MANIFEST_COPY] = canonical_json(camp.manifest) + b"\n"
    sd = camp.write_step(new_state["step"], files)
    res = StepResult(report=report, text=text, game=g, ruleset=rs, issues=issues + outcome.issues, step_dir=sd, state=new_state)
    # a step that stops for new orders (old archives' "orders-invalid") or for chain links
    # waits, as one waiting for other players does
    res.exit_code = {"pending": ExitCode.PENDING, "waiting": ExitCode.WAITING, "links": ExitCode.WAITING,
                     "orders-invalid": ExitCode.WAITING}.get(outcome.stopped, ExitCode.OK)
    return res


def _gm_key(camp: Campaign, state: dict[str, Any], key_path: Path | None, reveal_paths: list[Path] | None) -> str | None:
    """The game master's dice key, checked against the state's commitment; None in chain mode."""
    if state["dice"].get("mode") == "chain":
        return None
    key = camp.read_key(key_path)
    if commitment(key) != state["dice"]["commitment"]:
        raise PbemError([Issue("DICE-KEY-MISMATCH", "the dice key does not match the commitment published in the state",
                               hint="use the key pbem new wrote to CAMPAIGN/private/dice.key")])
    if reveal_paths:
        raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "this campaign's dice come from the game master's key, not from hash chains")],
                        ExitCode.USAGE)
    return key


def _accepted_orders(camp: Campaign, g: Game[Any], rs: Any, state: dict[str, Any], order_paths: list[Path], name: Callable[[bytes], str] | None,
                     issues: list[Issue], keys: dict[str, str]) -> tuple[list[OrderFile], list[Issue]]:
    """The order files and their warnings; raises with every problem at once (``issues``, the
    step's own, first) when a file is refused: already archived, broken, badly signed."""
    parts: list[OrderFile] = []
    ofs, iss = load_orders(order_paths, state, parts)
    ofs = named(ofs, name)
    again = replayed_issues(ofs, archived_digests(camp, name), state)
    if again:
        raise PbemError(again)
    # signatures: a player with a public key in campaign.yaml signs every file (pbem.core.signing);
    # said with the files' other problems (every problem at once)
    sig = signature_issues(keys, [(of.raw, of.name, of.player, "order file") for of in ofs])
    if any(i.is_error for i in iss):
        everything = issues + iss
        if only_schema_errors(iss) and parts:
            # every problem at once; still refused, nothing written
            everything = by_line(everything + rule_issues(g, rs, state, parts))
        raise PbemError(everything + sig, exit_code_for(iss))
    if sig:
        raise PbemError(sig)
    return ofs, iss


def _check_missing_orders(camp: Campaign, state: dict[str, Any], ofs: list[OrderFile], missing_orders: bool) -> None:
    """--missing-orders: no order files with it, and a declared default for every late player."""
    if missing_orders and ofs:
        raise PbemError([Issue("ORDERS-MISSING-FLAG", "--missing-orders is for a player who sent nothing; do not give order files with it")], ExitCode.USAGE)
    if missing_orders:
        declared = camp.manifest.get("missing_orders") or {}
        late = [d["player"] for d in state.get("pending") or []] or awaited_players(state)
        for p in late:
            if p not in declared:
                raise PbemError([Issue("ORDERS-NO-DEFAULT", f"the campaign declares no default for the {p} player when orders are missing",
                                       hint=f"declare one: `pbem missing-default {camp.root} {p}=no-orders` (or `pbem new ... "
                                            "--missing-orders-default ROLE=no-orders` at the start)")],
                                ExitCode.USAGE)


def _chain_inputs(camp: Campaign, state: dict[str, Any], ofs: list[OrderFile], reveal_paths: list[Path],
                  received: list[OrderFile], missing_orders: bool, keys: dict[str, str]) -> tuple[DiceSource, list[Any], tuple[Any, ...] | None]:
    """Chain mode: the reveals given (checked, signed), the dice source they make and, for a
    state that asked for links, the request's inputs."""
    # reveals, like orders, may arrive as e-mail (.eml / mbox with the reveal attached)
    mail_issues: list[Issue] = []
    reveals = [load_reveal(p[1], p[0]) if isinstance(p, tuple) else load_reveal(p)
               for p in expand_mail(list(reveal_paths), mail_issues)]
    if mail_issues:
        raise PbemError(mail_issues)
    sig = signature_issues(keys, [(r.raw, r.name, r.player, "reveal") for r in reveals])
    if sig:
        raise PbemError(sig)
    known = chain_keys_from_archive(camp, state["step"] + 1)
    req = state["dice"].get("request")
    request = None
    if req is not None:
        if ofs or missing_orders:
            raise PbemError([Issue("DICE-LINKS-AWAITED", f"the orders archived in step {state['step']:03d} wait for every player's chain link: this step takes the reveals only",
                                   hint="every player: pbem chain reveal ROLE.chain CAMPAIGN|MAIL -o reveal-ROLE.yaml (--key ROLE.key when you sign); then pbem adjudicate CAMPAIGN --reveal ... "
                                        "(a player who does not reveal stalls the game: agree that it forfeits)")])
        head = archive_head(camp.root, camp.manifest["id"], state["step"])
        source, bad = chain_source(known, state, req["orders"], reveals, head=head[1] if head else None,
                                   players=req.get("players"))
        request = request_inputs(camp, state)
    elif reveals and state["dice"].get("protocol", 1) >= 2:
        raise PbemError([Issue("DICE-REVEAL-EARLY", "reveals are taken only for orders already archived: pbem archives the orders first and then asks every player for a link",
                               file=reveals[0].name, hint="adjudicate the orders alone; reveal when the report asks for links")], ExitCode.MISMATCH)
    elif reveals:
        # protocol 1 (campaigns started before): reveals given with the orders
        source, bad = chain_source(known, state, new_dice_digest(state, ofs, received, missing_orders), reveals)
    else:
        source, bad = chain_source(known, state, None, [])
    if bad:
        raise PbemError(bad)
    return source, reveals, request


def _refused(g: Game[Any], rs: Any, state: dict[str, Any], ofs: list[OrderFile], outcome: Outcome, report: dict[str, Any], local: dict[str, str],
             issues: list[Issue]) -> StepResult:
    """Refused: nothing is archived, so point the player at the files they gave, and give every
    problem at once (the adjudication stops at the first phase found wrong; the checks without
    dice see the later phases too)."""
    seen = {(i.code, i.file, i.line) for i in outcome.issues}
    checked = rule_issues(g, rs, state, ofs) if state.get("phase") != "end" else []
    more = [i for i in checked if (i.code, i.file, i.line) not in seen]
    back = [replace(i, file=local.get(i.file, i.file) if i.file else i.file) for i in by_line(outcome.issues + more)]
    report = dict(report, issues=[i.to_dict() for i in back])
    text = render_text(report, g, rs)
    res = StepResult(report=report, text=text, game=g, ruleset=rs, issues=issues + back)
    res.exit_code = exit_code_for(res.issues) or ExitCode.ILLEGAL
    return res
