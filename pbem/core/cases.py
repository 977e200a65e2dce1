"""Table-driven rule cases (like the Diplomacy DATC), game-neutral: tests/cases/<game>/<section>-<name>.yaml.

A case (schemas/case.schema.json, checked when it is loaded) describes a small position, the
phase, the orders, the scripted dice, and what must come out: issue codes, events (a
subsequence, each a subset match), unit locations, the pending decision, parts of the state. A
case may continue with ``then:`` steps (answers to decisions, next phases); a step with
``missing_orders: true`` is adjudicated as the game master's ``--missing-orders`` (no file from
the awaited player). A case with a top-level ``xfail: "reason"`` states a rule the engine does
not apply yet.

The runner reaches the game through ONE adapter function, :func:`game_kit`, which returns the
game's case kit (the module ``Game.cases_kit`` declares, its ``kit()``): ``setup(case) -> (ruleset, state)``,
``rehash(state)``, ``submission(state, orders)``, ``dice(values)``,
``adjudicate(ruleset, state, subs, dice, missing_orders=)`` and ``validate(ruleset, state, subs)``;
optionally ``case_keys`` (``{"case": {key: schema}, "expect": {key: schema}}``: the game's own
keys of a case and of its expectations, added to schemas/case.schema.json's closed lists when a
case of the game is loaded) and ``check(expect, outcome, label)`` (compares those expectations,
raising :class:`CaseError`). ``orders`` is one order file (without its header) or a list of
them, one per player sending orders in the step. A ``then:`` step may start over from the
case's start (``from_start``), go to a phase first (``phase``: the kit's ``at_phase(ruleset,
state, phase)``, the phases between are skipped), merge keys into the state (``patch``: dicts deeply, null removes a key), or
only validate its orders (``validate_only``: ``pbem validate``, no dice, the state unchanged;
the first step too). Cases may stand in sub-folders of the game's
folder (tests/cases/<game>/**/*.yaml).
A second game adds that module (declared as its ``cases_kit``) and a folder of cases, nothing else.
"""
from __future__ import annotations

import copy
import functools
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import games
from .errors import Severity
from .schema import load_schema, validate as validate_doc
from .yamlio import load_yaml


class CaseError(AssertionError):
    """A case whose outcome differs from its expectations (or a malformed case file)."""


def game_kit(game: str) -> Any:   # the kit module's ``kit()``: a game's own object
    """The one adapter between the runner and a game: the case kit the game declares
    (``Game.cases_kit``, a module with ``kit()``)."""
    g = games.game(game)
    if not g.cases_kit:
        raise CaseError(f"{game}: the game declares no case kit (Game.cases_kit)")
    kit = importlib.import_module(g.cases_kit).kit()
    kit.state_schema = g.state_schema
    return kit


def has_kit(game: str) -> bool:
    """Whether the game runs rule cases in this format (it declares ``Game.cases_kit``). A game
    without one may keep other YAML files under tests/cases/<game>/ for its own tests."""
    try:
        g = games.game(game)
    except Exception:  # noqa: BLE001 - an unknown folder is not a game's case folder
        return False
    return bool(g.cases_kit)


@functools.cache
def case_schema(game: str) -> dict[str, Any]:
    """schemas/case.schema.json with the game's own keys (its kit's ``case_keys``) added to the
    closed lists of a case's keys and of ``expect``'s; a game may not redefine a core key."""
    schema = copy.deepcopy(load_schema("case"))
    keys = getattr(game_kit(game), "case_keys", None) or {}
    for where, props in (("case", schema["properties"]), ("expect", schema["$defs"]["expect"]["properties"])):
        for k, v in (keys.get(where) or {}).items():
            if k in props:
                raise ValueError(f"{game}: the case key {where}.{k} is the core's")
            props[k] = v
    return schema


def load_case(path: Path) -> dict[str, Any]:
    """Read a case file and check it against schemas/case.schema.json (with its game's keys)."""
    case: dict[str, Any] = load_yaml(path.read_bytes(), str(path)).data
    bad = [i for i in validate_doc(case, case_schema(game_of(path))) if i.is_error]
    if bad:
        raise CaseError(f"{path.name}: not a valid case file: " + "; ".join(i.format() for i in bad))
    return case


def game_of(path: Path) -> str:
    """The game of a case file: the name of its folder (tests/cases/<game>/[...]/<case>.yaml)."""
    for p in path.parents:
        if p.parent.name == "cases":
            return p.name
    return path.parent.name


@dataclass
class Step:
    """One adjudicated step of a case: its input state, submissions and outcome."""
    index: int
    state: dict[str, Any]
    subs: list[Any]
    missing_orders: bool
    expect: dict[str, Any]
    outcome: Any
    extra: dict[str, Any] = field(default_factory=dict)


def steps_of(case: dict[str, Any]) -> list[dict[str, Any]]:
    first = {"orders": case.get("orders"), "expect": case["expect"], "dice": case.get("dice", {}),
             "missing_orders": case.get("missing_orders", False), "validate_only": case.get("validate_only", False)}
    return [first] + list(case.get("then", []))


@dataclass
class Validated:
    """The outcome of a ``validate_only`` step: ``pbem validate``'s issues, no dice, no new state."""
    issues: list[Any]
    stopped: str
    events: list[Any] = field(default_factory=list)
    state: Any = None


def merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``patch`` merged in (dicts deeply, null removes the key, anything else
    replaces it)."""
    out = dict(base)
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def run_case(path: Path, case: dict[str, Any] | None = None, *, check: bool = True) -> tuple[Any, list[Step]]:
    """Adjudicate every step of the case; with ``check`` compare each outcome with its
    expectations (raising :class:`CaseError`) and every new state with the state schema."""
    case = case if case is not None else load_case(path)
    kit = game_kit(game_of(path))
    rs, st = kit.setup(case)
    first = st
    dice = case.get("dice", {})
    done: list[Step] = []
    for n, step in enumerate(steps_of(case)):
        if step.get("from_start"):
            st = first
        if step.get("phase"):
            st = kit.rehash(kit.at_phase(rs, st, step["phase"]))
        if step.get("patch"):
            st = kit.rehash(merge(st, step["patch"]))
        dice = step.get("dice", dice)
        missing = bool(step.get("missing_orders"))
        orders = step.get("orders") or []
        subs = [kit.submission(st, o) for o in (orders if isinstance(orders, list) else [orders])]
        if step.get("validate_only"):
            issues = list(kit.validate(rs, st, subs))
            out = Validated(issues, "refused" if any(i.is_error for i in issues) else "complete")
        else:
            out = kit.adjudicate(rs, st, subs, kit.dice(dice), missing_orders=missing)
        done.append(Step(n, st, subs, missing, step["expect"], out))
        label = f"{path.stem} step {n}"
        if check:
            check_outcome(step["expect"], out, label)
            if hasattr(kit, "check"):
                kit.check(step["expect"], out, label)
        if out.state is None:
            continue  # refused or only validated: the state is unchanged; later steps start from the same one
        st = kit.rehash(out.state)
        if check:
            bad = [i for i in validate_doc(st, kit.state_schema) if i.is_error]
            if bad:
                raise CaseError(f"{label}: the state breaks its schema: " + "; ".join(i.format() for i in bad))
    return rs, done


def subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(subset(a, b) for a, b in zip(want, got))
    return bool(want == got)


def _fail(cond: bool, msg: str) -> None:
    if not cond:
        raise CaseError(msg)


def check_outcome(exp: dict[str, Any], out: Any, label: str) -> None:
    if "stopped" in exp:
        _fail(out.stopped == exp["stopped"],
              f"{label}: stopped {out.stopped}, want {exp['stopped']}; issues {[i.code + ' ' + i.message for i in out.issues]}")
    if "issues" in exp:
        got = [i.code for i in out.issues if i.severity == Severity.ERROR or exp.get("warnings_too")]
        _fail(got == exp["issues"], f"{label}: issues {[(i.code, i.message) for i in out.issues]}, want {exp['issues']}")
    if "events" in exp:
        k = 0
        for want in exp["events"]:
            while k < len(out.events) and not subset(want, out.events[k]):
                k += 1
            _fail(k < len(out.events), f"{label}: no event matching {want} (in order) among:\n" + "\n".join(map(str, out.events)))
            k += 1
    if "no_events" in exp:
        for want in exp["no_events"]:
            _fail(not any(subset(want, e) for e in out.events), f"{label}: unexpected event {want}")
    if "units" in exp:
        for uid, loc in exp["units"].items():
            u = out.state["units"][uid]
            if isinstance(loc, dict):
                _fail(subset(loc, u), f"{label}: {uid} is {u}, want {loc}")
            else:
                _fail(u["at"] == loc, f"{label}: {uid} is at {u['at']}, want {loc}")
    if "pending" in exp:
        _fail(bool(out.state["pending"]), f"{label}: no pending decision")
        _fail(subset(exp["pending"], out.state["pending"][0]), f"{label}: pending {out.state['pending'][0]}")
    if "state" in exp:
        for k2, v in exp["state"].items():
            _fail(subset(v, out.state[k2]), f"{label}: state.{k2} = {out.state[k2]}, want {v}")


def validate_step(path: Path, rs: Any, step: Step) -> list[Any]:
    """``pbem validate`` on the step's input: the game's validate with the same submissions."""
    found: list[Any] = game_kit(game_of(path)).validate(rs, step.state, step.subs)
    return found
