"""Replacements (DG2 7.0-7.26).

The Turn Record Track gives how many units each destroyed-unit box returns this turn; they do
not accumulate (7.2). Soviet and German replacements come back weakest attack first (7.21);
Western Allies choose freely. Entry: Germans next to Berlin on their side of the boundary,
else on the other side, else lost (7.22-7.24); Soviets on the east edge from 0926 north;
Western Allies on the west edge; Allied/Italy units in Italy on the south edge (7.25). A
replacement may enter in an enemy ZOC but then may not move that movement phase (7.26).

An order entry may name the unit, or give only the hex and let pbem take the weakest; when
several are equally weak, the owner chooses (a pending decision unless a standing order says
``replacement_ties: auto``, which takes the first by id).
"""
from __future__ import annotations

from ..core.errors import Issue
from .board import Board
from .context import Ctx, PhaseOrdersInvalid, entry_overstack
from .courland import courland_entry, courland_exit, courland_window
from .events import touch_hex
from .movement import unknown_unit
from .sequence import split

WEAKEST_FIRST = ("soviet", "east-german", "west-german")
GERMAN_BOXES = ("east-german", "west-german")


def _forces(ctx: Ctx, group: str) -> tuple[str, ...]:
    play = ctx.rs.play
    return play.group(group).forces if play.has_group(group) else (group,)


def weakest_first(ctx: Ctx, group: str) -> bool:
    """7.21: Soviet and German replacements come back weakest first (16.33: over all Germans)."""
    return any(f in WEAKEST_FIRST for f in _forces(ctx, group))


def boxes_for_phase(ctx: Ctx, group: str) -> list[str]:
    opt = ctx.state.get("options", {}).get("german_east_front")
    out: list[str] = []
    for force in _forces(ctx, group):
        if force == "western-allied":
            out += ["western-allied", "allied-italy"]
        elif force == "west-german":
            out += [] if opt else ["west-german"]
        elif force == "east-german":
            out += ["east-german", "west-german"] if opt else ["east-german"]
        else:
            out += [force]
    return list(dict.fromkeys(out))


def pooled(ctx: Ctx, group: str) -> bool:
    """One German allotment for both boxes: optional rule 12.3 (in the East German phase), or
    the three-player game's German replacement phase (16.33)."""
    forces = _forces(ctx, group)
    if "east-german" in forces and ctx.state.get("options", {}).get("german_east_front"):
        return True
    return ctx.rs.play.rule("german_replacements") == "pooled" and any(f in GERMAN_BOXES for f in forces)


def allotment(ctx: Ctx, group: str) -> dict[str, int]:
    """Units each box may return in this phase (12.3 and 16.33 pool both German allotments)."""
    rs = ctx.rs
    if pooled(ctx, group):
        return {"german": rs.replacements(ctx.turn, "east-german") + rs.replacements(ctx.turn, "west-german")}
    return {b: rs.replacements(ctx.turn, b) for b in boxes_for_phase(ctx, group)}


def pool_of(box: str, force: str, pooled: bool) -> str:
    return "german" if pooled and box in GERMAN_BOXES else box


def berlin_entry(board: Board, theater: str) -> list[str]:
    rs = board.rs
    if not rs.berlin:
        return []
    return [h for h in rs.neighbours(rs.berlin) if h in rs.playable and rs.theater(h) == theater]


def entry_hexes(ctx: Ctx, box: str, force: str) -> tuple[list[str], str | None]:
    """(legal entry hexes, force the unit enters as) for a unit from ``box`` (7.22-7.25)."""
    board = ctx.board
    rs = ctx.rs
    if box in ("east-german", "west-german") and rs.play.rule("german_replacements") == "pooled" \
            and rs.play.rule("boundary") == "lifted":
        # 16.33: no boundary limits: any hex next to Berlin; the unit is East or West German by
        # the side it enters on (7.11).
        both = [h for h in rs.neighbours(rs.berlin) if h in rs.playable and not board.enemy_in_hex(h, "german")] if rs.berlin else []
        return both, "by-hex"
    if box in ("east-german", "west-german"):
        side = "east" if force == "east-german" else "west"
        own = [h for h in berlin_entry(board, side) if not board.enemy_in_hex(h, "german")]
        if own:
            return own, force
        other_side = "west" if side == "east" else "east"
        # 14.0: where only the map east of the boundary is in play, the west is no "other side".
        from .boundary import map_closed
        other = [h for h in berlin_entry(board, other_side) if not board.enemy_in_hex(h, "german") and not map_closed(board, h)]
        if other:
            return other, ("west-german" if other_side == "west" else "east-german")
        return [], None
    if box == "soviet":
        return [h for h in rs.soviet_entry if h in rs.playable and not board.other_side_in_hex(h, "soviet")], "soviet"
    if box == "western-allied":
        return [h for h in rs.western_entry if h in rs.playable and not board.other_side_in_hex(h, "western")], "western-allied"
    if box == "allied-italy":
        return [h for h in rs.italy_entry if h in rs.playable and not board.other_side_in_hex(h, "western")], "western-allied"
    return [], None


def run_replacement(ctx: Ctx, orders: dict) -> None:
    board = ctx.board
    rs = ctx.rs
    force, _ = split(ctx.phase)     # the phase group
    is_pooled = pooled(ctx, force)
    opt_pool = is_pooled and rs.play.rule("german_replacements") != "pooled"   # 12.3
    allot = allotment(ctx, force)
    boxes = boxes_for_phase(ctx, force)
    issues: list[Issue] = []
    taken: dict[str, int] = {}
    chosen: set[str] = set()
    for i, ent in enumerate(orders.get("replacements", [])):
        where = tuple(ent.get("_path", ())) or ("replacements", i)
        text = "{" + ", ".join(f"{k}: {v}" for k, v in ent.items() if not k.startswith("_")) + "}"
        uid = ent.get("unit")
        h = ent.get("hex")
        if uid is not None:
            bad = _named_unit_issue(ctx, uid, boxes, chosen, where, text)
        else:
            uid, bad = _choose_weakest(ctx, i, boxes, chosen, force, h, where, text)
        if bad:
            issues.append(bad)
            continue
        box = board.at(uid)[4:]
        pool = pool_of(box, force, is_pooled)
        if taken.get(pool, 0) >= allot.get(pool, 0):
            issues.append(Issue("BFG-REPL-COUNT",
                                f"turn {ctx.turn} allows {allot.get(pool, 0)} replacement(s) from the {pool} box; this is one more",
                                path=where, text=text, rule="DG2 7.2", hint="see rules/bfg/turns.yaml"))
            continue
        if weakest_first(ctx, force):
            weak = _weakest(ctx, _eligible(ctx, boxes, chosen, force))
            if uid not in weak:
                issues.append(Issue("BFG-REPL-WEAKEST",
                                    f"{uid} ({rs.units[uid].strength}) is not among the weakest destroyed units ({', '.join(f'{w} {rs.units[w].strength}' for w in weak)})",
                                    path=where, text=text, rule="DG2 7.21"))
                continue
        legal, enters_as = entry_hexes(ctx, box, board.force(uid) if box not in ("east-german", "west-german") else box)
        if opt_pool:
            legal, enters_as = entry_hexes(ctx, "east-german", "east-german")
        if not legal:
            chosen.add(uid)
            taken[pool] = taken.get(pool, 0) + 1
            ctx.emit("replacement-lost", unit=uid, box=box, rule="DG2 7.24",
                     text="every entry hex holds enemy units: the replacement is lost")
            continue
        bad = _entry_issue(ctx, uid, h, legal, where, text)
        if bad:
            issues.append(bad)
            continue
        chosen.add(uid)
        taken[pool] = taken.get(pool, 0) + 1
        assert enters_as is not None, "entry_hexes gives the force with any entry hex"
        if enters_as == "by-hex":
            enters_as = "east-german" if rs.theater(h) != "west" else "west-german"
        _place(ctx, uid, h, enters_as, box)
    if issues:
        raise PhaseOrdersInvalid(issues)
    _after_replacements(ctx, orders, force, boxes, allot, taken)


def _named_unit_issue(ctx: Ctx, uid: str, boxes: list[str], chosen: set[str], where: tuple, text: str) -> Issue | None:
    """Why the unit an order names may not come back in this phase (7.0-7.2)."""
    board, rs = ctx.board, ctx.rs
    if uid not in rs.units:
        boxed = [u for u, st in board.units.items() if str(st.get("at", "")).startswith("box:")]
        return unknown_unit(ctx, uid, where + ("unit",), text, mine=boxed)
    loc = board.at(uid)
    box = loc[4:] if loc.startswith("box:") else None
    if box not in boxes:
        return Issue("BFG-REPL-NOT-IN-BOX",
                     f"{uid} is not in a destroyed-unit box that returns units in this phase ({', '.join(boxes) or 'none'}); it is in {loc}",
                     path=where, text=text, rule="DG2 7.0, 7.1")
    if uid in chosen:
        return Issue("BFG-UNIT-TWICE", f"{uid} is brought back twice", path=where, text=text, rule="DG2 7.2")
    return None


def _choose_weakest(ctx: Ctx, i: int, boxes: list[str], chosen: set[str], force: str, h, where: tuple,
                    text: str) -> tuple[str, Issue | None]:
    """An order without `unit`: the weakest destroyed unit (7.21), the owner's choice among
    equally weak ones (a decision, standing order replacement_ties)."""
    cands = _eligible(ctx, boxes, chosen, force)
    if not cands:
        return "", Issue("BFG-REPL-EMPTY", "no destroyed unit is left to bring back", path=where, text=text, rule="DG2 7.2")
    weakest = _weakest(ctx, cands) if weakest_first(ctx, force) else cands
    uid, _how = ctx.decide(id=f"t{ctx.turn:02d}.{ctx.phase}.r{i + 1}", player=ctx.player, kind="replacement",
                           options=sorted(weakest), auto=lambda: sorted(weakest)[0],
                           standing_key="replacement_ties",
                           prompt=f"Replacement {i + 1}: choose among the equally weak destroyed units",
                           context={"hex": h})
    return uid, None


def _entry_issue(ctx: Ctx, uid: str, h, legal: list[str], where: tuple, text: str) -> Issue | None:
    """Why ``uid`` may not enter at ``h`` (7.22-7.26, 5.3)."""
    if h not in legal:
        return Issue("BFG-REPL-HEX", f"{uid} may not enter at {h}; legal entry hexes: {', '.join(legal)}",
                     path=where, text=text, rule="DG2 7.22-7.25")
    over = entry_overstack(ctx, uid, h)
    if over:
        return Issue("BFG-REPL-STACK", f"{uid} may not enter at {h}: {over}",
                     path=where, text=text, rule="DG2 5.3, 7.26",
                     hint="a replacement may not break the stacking limit where it enters (rulings.yaml replacement_stacking)")
    return None


def _after_replacements(ctx: Ctx, orders: dict, force: str, boxes: list[str], allot: dict[str, int], taken: dict[str, int]) -> None:
    """Courland (8.0) after the replacements, then the replacements left unused (7.2)."""
    if "courland_entry" in orders and "courland_exit" in orders:
        # checked before the exit's die: once it is rolled nothing refuses the phase (issue 17)
        from .courland import check_courland_entry_phase
        check_courland_entry_phase(ctx, orders["courland_entry"])
    if "courland_exit" in orders:
        courland_exit(ctx, orders["courland_exit"])
    if "courland_entry" in orders:
        courland_entry(ctx, orders["courland_entry"])
    if any(u["at"] == "courland" for u in ctx.board.units.values()):
        courland_window(ctx)
    left = {p: allot[p] - taken.get(p, 0) for p in allot if allot[p] - taken.get(p, 0) > 0}
    if left:
        avail = {p: len(_eligible(ctx, boxes if p == "german" else [p], set(), force)) for p in left}
        if any(avail.values()):
            ctx.emit("replacements-unused", unused=left, available=avail, rule="DG2 7.2",
                     text="unused replacements are lost; they do not accumulate")


def _eligible(ctx: Ctx, boxes: list[str], chosen: set[str], force: str) -> list[str]:
    out = []
    for b in boxes:
        out += [u for u in ctx.board.box_units(b) if u not in chosen]
    return sorted(out)


def _weakest(ctx: Ctx, cands: list[str]) -> list[str]:
    if not cands:
        return []
    m = min(ctx.rs.units[u].attack for u in cands)
    return [u for u in cands if ctx.rs.units[u].attack == m]


def _place(ctx: Ctx, uid: str, h: str, enters_as: str, box: str) -> None:
    board = ctx.board
    u = board.units[uid]
    old_force = u["force"]
    board.set_force(uid, enters_as)
    board.place(uid, h)
    german = enters_as in ("east-german", "west-german")
    in_zoc = board.in_enemy_zoc(h, board.camp(uid))
    u["entered"] = {"turn": ctx.turn, "phase_force": enters_as, "in_zoc": in_zoc, "double": german}
    ctx.emit("replacement", unit=uid, box=box, hex=h, force=enters_as, changed_side=old_force != enters_as,
             in_zoc=in_zoc, double_move=german,
             rule="DG2 7.22" if german else "DG2 7.25")
    touch_hex(ctx, uid, h)


def replacement_summary(ctx: Ctx, group: str) -> dict:
    """What a template offers: allotment, box contents, entry hexes. Only hexes where a unit of
    the box can go are offered: not those already holding two units (5.3, rulings
    ``replacement_stacking``: placing there is refused, BFG-REPL-STACK); ``full``: the entry
    hexes left out for that reason."""
    boxes = boxes_for_phase(ctx, group)
    forces = _forces(ctx, group)
    entry, full = {}, {}
    for b in boxes:
        legal = entry_hexes(ctx, b, b if b in ("east-german", "west-german") else forces[0])[0]
        entry[b] = [h for h in legal if len(ctx.board.units_in(h)) < 2]
        full[b] = [h for h in legal if len(ctx.board.units_in(h)) >= 2]
    return {
        "allotment": allotment(ctx, group),
        "boxes": {b: ctx.board.box_units(b) for b in boxes},
        "entry": entry,
        "full": full,
    }
