"""What the commands do, without click or printing: each returns data and issues, so the CLI,
the tests and later front ends share one path. Files are read here and written only through
:mod:`pbem.core.campaign` (atomic, never overwriting)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .. import __version__
from .campaign import Campaign, OrderFile, load_state_file
from .canon import data_digest
from .data import load_ruleset, load_scenario_docs
from .errors import ExitCode, Issue, PbemError
from .games import game_of_scenario, scenarios
from .orders import (
    archived_digests,
    by_line,
    load_orders,
    only_schema_errors,
    replayed_issues,
    rule_issues,
    ruleset_issues,
)


# ----------------------------------------------------------------------------- new
def new_key() -> str:
    """A new secret dice key (:func:`pbem.core.dice.new_key`). The dice module is imported
    where dice are made, not by `pbem validate` (issue 35: it brings ``secrets``, ``random``
    and ``hmac``, about 2 ms of a first run)."""
    from .dice import new_key as make
    return make()


def new_campaign(folder: Path, *, scenario: str, campaign_id: str, players: dict[str, dict[str, Any]],
                 options: dict[str, bool], standing: dict[str, str] | None = None,
                 title: str | None = None, key_hex: str | None = None,
                 chain_heads: dict[str, str] | None = None,
                 missing_defaults: dict[str, str] | None = None, gm: str | None = None,
                 engine_version: str | None = None,
                 player_standing: dict[str, dict[str, str]] | None = None,
                 chain_protocol: int = 2, archive_manifest: bool = True, receipts: bool = True,
                 resume_by_reference: bool = True, witness: dict[str, str] | None = None,
                 keys_in_state: bool = True) -> Campaign:
    """``witness``, ``keys_in_state``: :func:`_trust_fields` (issue 29). ``engine_version``: recorded as the version that started the campaign (default: this
    pbem's); tools that re-make an archive give the original one, and the original's
    ``chain_protocol`` (1: reveals given with the orders, the first version; 2: links revealed
    only for archived orders, and fresh links after a decision, :mod:`pbem.core.chain`) and
    ``archive_manifest`` (whether steps/000 keeps a copy of the manifest) and ``receipts``
    (game master: order files are named by a keyed receipt, :func:`pbem.core.dice.receipt`,
    not by their sha256, until carried out) and ``resume_by_reference`` (issue 20: while a
    decision is pending, the state names the order files still being carried out, by sha256 and
    step, instead of keeping them: ``dice.resume: files``; earlier campaigns kept them)."""
    gid = game_of_scenario(scenario)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", campaign_id or ""):
        raise PbemError([Issue("NEW-ID", f"campaign id {campaign_id!r}: use letters, digits, '.', '_' and '-' (it goes into file names and dice labels)")],
                        ExitCode.USAGE)
    g, rs = load_ruleset(scenario)
    needed = _players_needed(rs, scenario, players, missing_defaults)
    if chain_heads is not None:
        missing = sorted(set(needed) - set(chain_heads))
        if missing or set(chain_heads) - set(needed):
            raise PbemError([Issue("NEW-CHAIN", f"--dice chain needs one head per player ({', '.join(needed)}); missing: {', '.join(missing) or '-'}",
                                   hint="each player: pbem chain new --player ROLE -o ROLE.chain, then --commit ROLE=HEAD")], ExitCode.USAGE)
    _witness_problems(chain_heads, witness, missing_defaults, needed, chain_protocol)
    key = None if chain_heads is not None else (key_hex or new_key())
    com, algorithm = _commitment(key)
    st = g.new_state(rs, campaign=campaign_id, players={p: players[p]["name"] for p in sorted(players)},
                     commitment=com, algorithm=algorithm, options=options, engine_version=engine_version or __version__,
                     standing=standing)
    # One player's standing orders for the campaign (pbem new --standing), over the common ones.
    for p, orders in sorted((player_standing or {}).items()):
        keys = g.standing_keys_for(rs, p)
        st["standing"].setdefault(p, {}).update({k: v for k, v in orders.items() if k in keys})
        st["standing"][p] = dict(sorted(st["standing"][p].items()))
    manifest: dict[str, Any] = {
        "schema": "pbem/campaign/v1",
        "game": gid,
        "scenario": scenario,
        "id": campaign_id,
        "title": title or f"{g.title}: {scenario}",
        "players": {p: dict(players[p]) for p in sorted(players)},
        "dice": {"algorithm": algorithm, "commitment": com},
        "options": dict(st["options"]),
        "engine": __version__,
    }
    if gm:
        manifest["gm"] = gm
    if missing_defaults:
        manifest["missing_orders"] = {p: missing_defaults[p] for p in sorted(missing_defaults)}
    _dice_markers(st, manifest, chain_heads, chain_protocol, receipts, resume_by_reference)
    _trust_fields(st, manifest, players, witness, keys_in_state)
    return Campaign.create(folder, manifest, st, key, schemas=(g.state_schema, g.orders_schema),
                           archive_manifest=archive_manifest)


def _commitment(key: str | None) -> tuple[str | None, str]:
    """(the commitment to the dice key, None without one; the dice algorithm)."""
    from .dice import ALGORITHM, commitment
    return (commitment(key) if key else None), ALGORITHM


def _trust_fields(st: dict[str, Any], manifest: dict[str, Any], players: dict[str, dict[str, Any]], witness: dict[str, str] | None,
                  keys_in_state: bool) -> None:
    """Issue 29. ``keys_in_state``: the players' public signing keys given at ``pbem new`` are
    carried in the state too (``keys``), so that a player's own ``pbem validate`` checks
    signatures (tools re-making an archive started before give False). ``witness`` (hash
    chains): {name, head[, email]} of the neutral witness whose link keys, with the present players',
    every die rolled with missing orders; hash chains with a missing-orders default need one
    (NEW-WITNESS, :func:`_witness_problems`)."""
    keys = {p: players[p]["key"] for p in sorted(players) if players[p].get("key")}
    if keys and keys_in_state:
        st["keys"] = keys
    if witness:
        w = {"name": witness["name"], "head": witness["head"]}
        st["dice"]["witness"] = w
        # his e-mail (the judge mails him the links requests and takes his reveals): the manifest only
        manifest["dice"] = {**manifest["dice"], "witness": {**w, **({"email": witness["email"]} if witness.get("email") else {})}}


def _witness_problems(chain_heads: dict[str, Any] | None, witness: dict[str, Any] | None, missing_defaults: dict[str, Any] | None,
                      needed: list[str], chain_protocol: int) -> None:
    """A witness goes with hash chains (protocol 2), under a name no player has; hash chains
    with a missing-orders default need one: otherwise the player present alone knows the only
    link keying the dice of a phase carried out without the absent one, and could pick his file
    (comment-only variants) for the dice he likes before sending it (issue 29)."""
    if witness and (chain_heads is None or chain_protocol < 2):
        raise PbemError([Issue("NEW-WITNESS", "--witness goes with --dice chain: the witness reveals links of a hash chain")], ExitCode.USAGE)
    from .chain import WITNESS
    if witness and WITNESS in needed:
        raise PbemError([Issue("NEW-WITNESS", f"a player of this scenario is called {WITNESS!r}, the witness's name in reveals")], ExitCode.USAGE)
    if chain_heads is not None and chain_protocol >= 2 and missing_defaults and not witness:
        raise PbemError([Issue("NEW-WITNESS", "hash chains with a missing-orders default need a witness: with a player away, the dice of "
                               "the phase would be keyed by the present players' links alone, which they know before sending their files",
                               hint="a neutral person makes a chain (pbem chain new --player witness -o witness.chain) and gives its head: "
                                    "pbem new ... --witness NAME=HEAD; he gives no orders, only reveals a link when missing orders roll a die")],
                       ExitCode.USAGE)


def _dice_markers(st: dict[str, Any], manifest: dict[str, Any], chain_heads: dict[str, str] | None, chain_protocol: int,
                  receipts: bool, resume_by_reference: bool) -> None:
    """The campaign's protocol markers in ``dice``: receipts (game master) or the chain, and
    how a pending phase keeps its orders (``resume: files``, issue 20)."""
    if chain_heads is None:
        if receipts:
            from .dice import RECEIPT
            st["dice"]["receipts"] = RECEIPT
    else:
        _chain_dice(st, manifest, chain_heads, chain_protocol)
    if resume_by_reference:
        st["dice"]["resume"] = "files"


def _chain_dice(st: dict[str, Any], manifest: dict[str, Any], chain_heads: dict[str, str], chain_protocol: int) -> None:
    """No referee: the players' chain heads replace the game master's commitment."""
    from .dice import ALGORITHM
    heads = {p: chain_heads[p] for p in sorted(chain_heads)}
    manifest["dice"] = {"algorithm": ALGORITHM, "mode": "chain", "heads": heads}
    st["dice"] = {"algorithm": ALGORITHM, "mode": "chain", "heads": heads, "used": 0, "revealed": {}}
    if chain_protocol >= 2:
        st["dice"]["protocol"] = chain_protocol


def _players_needed(rs: Any, scenario: str, players: dict[str, dict[str, Any]], missing_defaults: dict[str, str] | None) -> list[str]:
    """The players the scenario needs with the players given (USAGE when one is missing, unknown,
    or has a missing-orders default that cannot apply)."""
    needed: list[str] = rs.play.players
    # A scenario may be played by different numbers of players (play.modes: mode -> {player:
    # sides}, e.g. BlitzWAR with two or three players, 2): the players given choose the mode.
    for mode in (getattr(rs.play, "modes", None) or {}).values():
        if set(players) == set(mode):
            needed = list(mode)
            break
    issues = []
    for p in needed:
        if p not in players:
            issues.append(Issue("NEW-PLAYER-MISSING", f"scenario {scenario} needs the player {p!r}",
                                hint="--player " + p + "=NAME[:EMAIL]"))
    for p in players:
        if p not in needed:
            issues.append(Issue("NEW-PLAYER-UNKNOWN", f"scenario {scenario} has no player {p!r}", hint="players: " + ", ".join(needed)))
    for p, v in sorted((missing_defaults or {}).items()):
        # a default for a player not in the game would never apply, and the real player would
        # have none (played by hand: ussr=no-orders in a two-player BlitzWAR game was accepted)
        if p not in needed:
            issues.append(Issue("NEW-MISSING-DEFAULT", f"--missing-orders-default {p}={v}: this game has no player {p!r}",
                                text=f"{p}={v}", hint="players: " + ", ".join(needed)))
        elif v != "no-orders":
            issues.append(Issue("NEW-MISSING-DEFAULT", f"--missing-orders-default {p}={v}: the only default is no-orders",
                                text=f"{p}={v}", hint=f"--missing-orders-default {p}=no-orders"))
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    return needed


# ----------------------------------------------------------------------------- validate
def validate_files(state_path: Path, order_paths: list[Path], campaign: Path | None = None) -> list[Issue]:
    """Every problem of the order files against the state; with ``campaign`` (the folder the
    state is the current state of) also a file adjudicated already (HASH-ORDERS-REPLAYED, as
    `adjudicate` says it: one meaning, one exit code)."""
    state, _ = load_state_file(state_path)
    g, rs = load_ruleset(state["scenario"])
    issues = ruleset_issues(state, rs)
    parts: list[OrderFile] = []
    ofs, iss = load_orders(order_paths, state, parts)
    if campaign is not None:
        replayed = archived_digests(Campaign(campaign))
        again = replayed_issues(ofs, replayed, state)
        if again:
            # a file sent twice: said once, as `adjudicate` says it, not also as written against
            # an older state (its `state:` is that of the step that took it)
            issues += again
            sent_twice = {a.file for a in again}
            ofs = [of for of in ofs if of.digest not in replayed]
            iss = [i for i in iss if i.file is None or i.file not in sent_twice]
            if not ofs and not any(i.is_error for i in iss):
                return issues + iss
    issues += iss
    if any(i.is_error for i in iss):
        if only_schema_errors(iss) and parts:
            # every problem at once: the rules are checked on what the schema errors leave
            issues = by_line(issues + rule_issues(g, rs, state, parts))
        return issues
    return issues + rule_issues(g, rs, state, ofs)


# ----------------------------------------------------------------------------- dice verify
def find_roll(folder: Path, label: str) -> tuple[dict[str, Any], dict[str, Any]]:
    camp = Campaign(folder)
    for d in camp.step_dirs()[1:]:
        rpath = d / "report.json"
        try:
            rep = json.loads(camp.inside(rpath).read_bytes())
            rep["rolls"], rep["events"]
        except (OSError, ValueError, TypeError, KeyError) as e:
            from .report import why_unreadable
            raise PbemError([Issue("REPLAY-REPORT", f"cannot read {rpath}: {why_unreadable(e)}", file=str(rpath),
                                   hint="`pbem replay` checks the whole archive")]) from None
        for r in rep["rolls"]:
            if r["label"] == label:
                phase = None
                for ev in rep["events"]:
                    if ev["type"] == "phase" and label.startswith(f"{rep['game']}/{rep['campaign']}/{ev['key_inputs']['step']}/"):
                        phase = ev
                return r, {"report": str(d / "report.json"), **(phase["key_inputs"] if phase else {})}
    raise PbemError([Issue("DICE-LABEL-UNKNOWN", f"no roll labelled {label!r} in the campaign's reports")])


def verify(key_hex: str, *, game: str, campaign: str, step: str, orders: str, state: str, label: str, sides: int = 6) -> dict[str, Any]:
    from .dice import derive_phase_key, roll_value
    pk = derive_phase_key(key_hex, game=game, campaign=campaign, step=step, orders_digest=orders, state_hash=state)
    return {"phase_key": pk, "label": label, "sides": sides, "value": roll_value(pk, label, sides)}


# ----------------------------------------------------------------------------- data check
def data_check(scenario: str | None = None) -> tuple[list[Issue], list[dict[str, Any]]]:
    issues: list[Issue] = []
    provisional: list[dict[str, Any]] = []
    scen = [scenario] if scenario else sorted(scenarios())
    seen_items = set()
    for s in scen:
        g, docs, iss = load_scenario_docs(s)
        issues += iss
        if any(i.is_error for i in iss):
            continue
        rs = g.build(docs, data_digest(docs))
        issues += g.consistency(rs)
        for p in rs.provisional_items():
            key = (p["file"], p["item"])
            if key not in seen_items:
                seen_items.add(key)
                provisional.append(p)
    return issues, provisional
