"""How a scenario is played (DG2 3.0, 12.0-17.3): players, forces, who commands each force,
the sequence of player-turns and their phases, who may attack whom, and the scenario rules.

All of it is data: the ``play`` block of a scenario file (``scenarios/bfg/*.yaml``, schema
``bfg-scenario``). A scenario file without one (the Historical scenario) is played with the
defaults below, which are the rules of the two-player game: the sequence of 3.0, the command of
2.5, the attack limits of 3.0/6.3/6.4 and the Historical special rules of 12.2. Every value keeps
its provenance so that ``pbem data check`` and the reports can say where it comes from.

A *phase group* is what the sequence runs three phases for (replacement, movement, combat): the
phase ids are ``<group>.<step>``. In the two- and four-player games each group is one force
(``soviet``, ``west-german``, ...); in the three-player game one German group (``german``) runs
both German forces (16.1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .sequence import PLAYER_TITLES as PLAYER_TITLES_FALLBACK

FORCES = ("soviet", "west-german", "western-allied", "east-german")
GERMAN = ("east-german", "west-german")

# The defaults: the two-player game (2.5, 3.0, 6.3, 6.4) and the Historical special rules (12.2).
DEFAULT_PLAYERS = (("soviet", "Soviet player"), ("western", "Western Allied player"))
DEFAULT_CONTROL = {"soviet": "soviet", "west-german": "soviet", "western-allied": "western", "east-german": "western"}
DEFAULT_SEQUENCE = (
    ("soviet", (("soviet", ("soviet",), ("east-german",)), ("west-german", ("west-german",), ("western-allied",)))),
    ("western", (("western-allied", ("western-allied",), ("west-german",)), ("east-german", ("east-german",), ("soviet",)))),
)
_R = {"status": "rulebook"}
DEFAULT_RULES: dict[str, tuple[Any, dict]] = {
    "t1_west_german_attacks": (True, {**_R, "section": "12.2.1"}),
    "draw_without_berlin": (True, {**_R, "section": "12.2.3"}),
    "berlin_falls": ("remove-germans", {**_R, "section": "12.2.2"}),
    "after_berlin_falls": ("no-attacks", {**_R, "section": "12.2.2"}),
    "boundary": ("binding", {**_R, "section": "5.41, 5.42"}),
    "german_berlin": ("forbidden", {**_R, "section": "5.43"}),
    "german_retreat_across": ("change-side", {**_R, "section": "5.41"}),
    "map_area": ("whole", {**_R, "section": "2.2"}),
    "german_replacements": ("by-box", {**_R, "section": "7.11, 7.21"}),
    "triple_move": (False, {**_R, "section": "16.32"}),
    "allies_hostile": (False, {**_R, "section": "6.3"}),
    "polish_attack_each_other": (True, {**_R, "section": "6.0"}),
    "pregame_die": (None, {**_R, "section": "15.22"}),
    "victory": ("vp", {**_R, "section": "11.0"}),
    "berlin_deadline": (None, {**_R, "section": "17.32"}),
    "city_start": ("nearest", {"status": "provisional", "note": "each city starts with the side of the nearest unit (ties German)"}),
}
DEFAULT_OPTIONS = {"german_east_front": "12.3 optional rule: all German replacements are taken as East German (lifts 12.2.1)"}



@dataclass(frozen=True)
class PhaseGroup:
    id: str                     # the phase-id prefix: <id>.replacement / .movement / .combat
    forces: tuple[str, ...]     # forces whose units act in these phases
    attacks: tuple[str, ...]    # forces their units may attack (3.0, 6.3, 6.4, 15.24, 16.1)
    player: str                 # the player who runs them
    player_turn: str            # the player-turn they belong to (its player's id)


@dataclass(frozen=True)
class Play:
    players: tuple[str, ...]
    titles: dict
    control: dict               # force -> player (2.5, 16.0, 17.0)
    groups: tuple[PhaseGroup, ...]
    rules: dict                 # name -> value
    rules_prov: dict            # name -> provenance
    options: dict               # optional rule -> description
    prov: dict = field(default_factory=dict)
    from_data: bool = False     # False: the built-in defaults (Historical scenario)

    @property
    def forces(self) -> tuple[str, ...]:
        return tuple(f for f in FORCES if f in self.control)

    def rule(self, name: str) -> Any:
        return self.rules[name]

    def group(self, gid: str) -> PhaseGroup:
        for g in self.groups:
            if g.id == gid:
                return g
        raise KeyError(gid)

    def has_group(self, gid: str) -> bool:
        return any(g.id == gid for g in self.groups)

    def group_of_force(self, force: str) -> str:
        """The phase group whose phases move and fight ``force``'s units (its first one)."""
        for g in self.groups:
            if force in g.forces:
                return g.id
        return force

    def title(self, player: str) -> str:
        return self.titles.get(player) or PLAYER_TITLES_FALLBACK.get(player, f"{player} player")


def _group(gid, forces, attacks, player) -> PhaseGroup:
    return PhaseGroup(id=gid, forces=tuple(forces), attacks=tuple(attacks), player=player, player_turn=player)


def default_play() -> Play:
    groups = tuple(_group(gid, fs, at, pl) for pl, gs in DEFAULT_SEQUENCE for gid, fs, at in gs)
    return Play(players=tuple(p for p, _ in DEFAULT_PLAYERS), titles=dict(DEFAULT_PLAYERS),
                control=dict(DEFAULT_CONTROL), groups=groups,
                rules={k: v for k, (v, _) in DEFAULT_RULES.items()},
                rules_prov={k: p for k, (_, p) in DEFAULT_RULES.items()},
                options=dict(DEFAULT_OPTIONS), prov={**_R, "section": "2.5, 3.0, 12.0"})


def build_play(doc: dict | None) -> Play:
    """The ``play`` block of a scenario file (schema bfg-scenario), or the defaults."""
    if not doc:
        return default_play()
    players = tuple(p["id"] for p in doc["players"])
    titles = {p["id"]: p.get("title") or PLAYER_TITLES_FALLBACK.get(p["id"], p["id"]) for p in doc["players"]}
    control = dict(doc["control"])
    groups = []
    for pt in doc["sequence"]:
        for g in pt["phases"]:
            groups.append(_group(g["id"], g["forces"], g.get("attacks", []), pt["player"]))
    rules = {k: v for k, (v, _) in DEFAULT_RULES.items()}
    prov = {k: p for k, (_, p) in DEFAULT_RULES.items()}
    for k, entry in (doc.get("rules") or {}).items():
        rules[k] = entry["value"]
        prov[k] = entry.get("provenance") or doc.get("provenance") or {"status": "provisional"}
    options = {k: v["text"] for k, v in (doc.get("options") or {}).items()}
    return Play(players=players, titles=titles, control=control, groups=tuple(groups), rules=rules,
                rules_prov=prov, options=options, prov=doc.get("provenance") or {}, from_data=True)


def consistency(play: Play) -> list[tuple[str, str]]:
    """(code, message) for a play block that cannot be played."""
    out = []
    ids = [g.id for g in play.groups]
    if len(set(ids)) != len(ids):
        out.append(("DATA-SEQUENCE", f"a phase group appears twice in the sequence: {ids}"))
    for g in play.groups:
        if g.player not in play.players:
            out.append(("DATA-SEQUENCE", f"player-turn {g.player} is not one of the players {list(play.players)}"))
        for f in g.forces:
            if f not in play.control:
                out.append(("DATA-SEQUENCE", f"phase group {g.id}: force {f} is not in play (control)"))
            elif play.control[f] != g.player:
                out.append(("DATA-CONTROL", f"phase group {g.id}: force {f} is commanded by {play.control[f]}, not by {g.player} whose player-turn it is in"))
        for f in g.attacks:
            if f not in FORCES:
                out.append(("DATA-SEQUENCE", f"phase group {g.id} attacks an unknown force {f}"))
    for f, p in play.control.items():
        if p not in play.players:
            out.append(("DATA-CONTROL", f"force {f} is commanded by {p}, who is not a player"))
        if not any(f in g.forces for g in play.groups):
            out.append(("DATA-SEQUENCE", f"force {f} is in play but no phase of the sequence runs it"))
    for p in play.players:
        if p not in play.control.values():
            out.append(("DATA-CONTROL", f"player {p} commands no force"))
    pg = play.rules.get("pregame_die")
    if pg and not any(g.player == pg["player_turn"] for g in play.groups):
        out.append(("DATA-RULE", f"pregame_die: no player-turn {pg['player_turn']}"))
    return out
