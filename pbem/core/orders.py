"""Order files as the commands read them: loaded (from e-mail too) and checked against the
state, their rule problems found without dice, every problem placed in its file, and the files
the archive holds already. Shared by `validate` (:mod:`pbem.core.actions`), a step
(:mod:`pbem.core.step`) and replay (:mod:`pbem.core.replay`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .campaign import (
    MAX_ORDERS_BYTES,
    Campaign,
    OrderFile,
    check_orders_against_state,
    checkable_part,
    original_path,
    read_order_bytes,
    truncation_issues,
)
from .canon import sha256_hex
from .errors import Issue, PbemError, Severity
from .files import read_bytes_limited
from .game import Submission
from .kernel import awaited_players, validate
from .mailsniff import any_mail

if TYPE_CHECKING:
    from .game import Game


def expand_mail(paths: list[Path], issues: list[Issue]) -> list[Any]:
    """``paths`` with each e-mail (.eml, mbox) replaced by the order files it carries, as
    (name, bytes) (:mod:`pbem.core.mail`); its problems (MAIL-*) go to ``issues``. The e-mail
    machinery is imported only when one of them is an e-mail (issue 35: a first `validate`)."""
    if not any_mail(list(paths)):
        return list(paths)
    from .mail import expand
    return expand(paths, issues)


def load_orders(paths: list[Path], state: dict[str, Any], partial: list[OrderFile] | None = None) -> tuple[list[OrderFile], list[Issue]]:
    """The order files and their problems. With ``partial`` (a list), the files that break
    the schema but can still be checked against the rules are added to it, without their
    broken entries (:func:`~pbem.core.campaign.checkable_part`), with the files that are whole."""
    ofs: list[OrderFile] = []
    issues: list[Issue] = []
    for p in expand_mail(paths, issues):
        try:
            raw, name = (p[1], p[0]) if isinstance(p, tuple) else (read_bytes_limited(Path(p), MAX_ORDERS_BYTES), str(p))
            of, schema_issues = read_order_bytes(raw, name)
        except PbemError as e:
            issues += e.issues
            continue
        issues += schema_issues
        issues += truncation_issues(raw, name)    # a template cut short: said with its other problems
        if any(i.is_error for i in schema_issues):
            if partial is not None and (part := checkable_part(of, state)) is not None:
                hdr = check_orders_against_state(part, state)
                issues += hdr
                if not any(i.is_error for i in hdr):
                    partial.append(part)
            continue
        issues += check_orders_against_state(of, state)
        ofs.append(of)
        if partial is not None:
            partial.append(of)
    return ofs, issues


def only_schema_errors(issues: list[Issue]) -> bool:
    """True when every error is a schema error of an order file (its other entries, and the
    other files, can still be checked against the rules)."""
    errors = [i for i in issues if i.is_error]
    return bool(errors) and all(i.code.startswith("SCHEMA-") for i in errors)


def by_line(issues: list[Issue]) -> list[Issue]:
    """Problems of several kinds together, in the order of the files' lines."""
    return sorted(issues, key=lambda i: (i.file or "", i.line or 0, i.column or 0))


def rule_issues(g: Game[Any], rs: Any, state: dict[str, Any], ofs: list[OrderFile]) -> list[Issue]:
    """Every rule problem of the order files, without dice: the envelope of each file (the
    core's kernel), then the game's checks of the files whose envelope is fine; located in
    the files (in the original file for the checkable part of a schema-invalid one)."""
    return locate(validate(g, rs, state, submissions(ofs)), ofs)


def ruleset_issues(state: dict[str, Any], rs: Any) -> list[Issue]:
    if state["ruleset"]["digest"] != rs.digest:
        return [Issue("DATA-CHANGED", "the rules/scenario data differ from those this campaign was started with",
                      severity=Severity.WARNING,
                      hint="replays need the data of the campaign; check `git log rules/ scenarios/`")]
    return []


# ----------------------------------------------------------------------------- for the kernel
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


# ----------------------------------------------------------------------------- the archive
def archived_digests(camp: Campaign, name: Callable[[bytes], str] | None = None) -> dict[str, str]:
    """sha256 (or receipt, ``name``) of every order file in the archive -> the step that
    adjudicated it."""
    out = {}
    for d in camp.step_dirs()[1:]:
        for p in d.glob("orders-*.yaml"):
            out[(name or sha256_hex)(p.read_bytes())] = d.name
    return out


def replayed_issues(ofs: list[OrderFile], replayed: dict[str, str], state: dict[str, Any]) -> list[Issue]:
    """HASH-ORDERS-REPLAYED for each file already in the archive, saying what became of it: a
    file received for a phase that still waits for other players is in and needs nothing more
    (not "adjudicated", nor "write new orders": it cannot be replaced); otherwise who is
    awaited now."""
    now = awaited_players(state)
    out = []
    for of in ofs:
        if of.digest not in replayed:
            continue
        step = replayed[of.digest]
        rec = (state.get("received") or {}).get(of.player)
        if rec and f"{rec['step']:03d}" == step:
            msg = (f"{of.name} was received already in step {step}: the {of.player} player's orders for "
                   f"{state['phase']} are in, and are carried out when every awaited player's are")
            hint = f"nothing more is needed from the {of.player} player now; still awaited: {', '.join(now) or 'nobody'}"
        else:
            msg = f"{of.name} was already adjudicated in step {step}"
            hint = "an order file counts once; " + (
                f"write new orders from `pbem orders template` (the game awaits the {of.player} player)" if of.player in now
                else f"the game awaits {', '.join(now) or 'nobody'} now")
        out.append(Issue("HASH-ORDERS-REPLAYED", msg, file=of.name, hint=hint))
    return out
