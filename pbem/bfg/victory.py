"""City control and victory (DG2 11.0, 12.2.3; 13.2, 14.0, 15.25, 16.31, 17.32).

A city is controlled by the side whose units occupy it; otherwise by the side whose ZOC alone
reaches it (free of the other sides' units and ZOC); otherwise by the side of the last unit to
pass through it or next to it (rulings.yaml ``city_control``). The Soviet player scores the
cities held by Soviet and Soviet-allied units, the Western Allied player those held by Western
Allied units; a Soviet garrison city without its garrison scores nothing (10.1).

The scenario's ``victory`` rule says how the game is won: ``vp`` (11.0, 15.25; 12.2.3 adds the
draw without Berlin), ``occupy`` (14.0: the cities each player's units occupy at the end),
``vp-else-german`` (16.31: the German player wins if neither other side holds Berlin) and
``berlin-race`` (17.32: who entered Berlin first by turn 10; two players may win). With the
13.2 option the SS units under the Western Allied player take cities for the Germans (they
are German units): a city they alone occupy or reach by ZOC gives the Western Allies nothing
(rulings ``ss_cities``).
"""
from __future__ import annotations

from .board import CAMP_OF, Board, city_side_of
from .context import Ctx

SIDES = ("soviet", "western", "german")


def city_owner(board: Board, h: str) -> str:
    """11.0. SS units under the Western Allied player (13.2) take cities for the Germans: they
    are German units, and the Western Allies score only cities their own units control or
    occupy (rulings ``ss_cities``)."""
    occ = board.occ.get(h)
    if occ:
        side = _occupier(board.units, occ)
        if side is not None:
            return side
    reach = board.city_zoc_sides(h)     # (a set of SIDES)
    if len(reach) == 1:
        return next(iter(reach))
    return board.state["city_last"].get(h, "german")


def _city_zoc_from(rs) -> dict[str, tuple[str, ...]]:
    """Hex -> the cities a unit in it reaches by ZOC (:meth:`Ruleset.zoc_sources` of each city,
    turned round): worked out once per ruleset."""
    out = rs.city_zoc_from_kept
    if out is None:
        acc: dict[str, list[str]] = {}
        for c in rs.city_hexes:
            if c in rs.grid:
                for x in rs.zoc_sources(c):
                    acc.setdefault(x, []).append(c)
        out = rs.city_zoc_from_kept = {x: tuple(cs) for x, cs in acc.items()}
    return out


def city_owners(board: Board) -> dict[str, str]:
    """:func:`city_owner` of every city (in ``rs.city_hexes`` order), in one pass over the
    occupied hexes: the sides that reach each city by ZOC are gathered from the units, not
    looked for next to each city (city control is worked out after every phase)."""
    rs = board.rs
    occ, units = board.occ, board.units
    zoc_from = _city_zoc_from(rs)
    reach: dict[str, set[str]] = {}      # city -> the sides whose units reach it (Board.city_zoc_sides)
    for x, us in occ.items():
        cs = zoc_from.get(x)
        if cs is None:
            continue
        for u in us:
            side = city_side_of(units[u])
            for c in cs:
                r = reach.get(c)
                if r is None:
                    reach[c] = {side}
                else:
                    r.add(side)
    last = board.state["city_last"]
    out = {}
    for h in rs.city_hexes:
        here = occ.get(h)
        owner = _occupier(units, here) if here else None
        if owner is None:
            r = reach.get(h)
            owner = next(iter(r)) if r is not None and len(r) == 1 else last.get(h, "german")
        out[h] = owner
    return out


def _occupier(units: dict, here: list[str]) -> str | None:
    """The side of a city its units ``here`` give it (11.0), None when units of two camps
    share it (then its ZOC decides): 13.2, a city occupied only by SS units is occupied by German
    units only (:func:`pbem.bfg.board.city_side_of`)."""
    if len(here) == 1:       # (most occupied cities: one unit)
        return city_side_of(units[here[0]])
    camps = {CAMP_OF.get(units[u]["force"], "western") for u in here}
    if len(camps) != 1:
        return None
    c = camps.pop()
    return "german" if c == "german" or all(units[u].get("ss_half") for u in here) else c


def update_control(ctx: Ctx) -> None:
    st = ctx.state
    ctl = st["control"]
    for h, new in city_owners(ctx.board).items():
        old = ctl.get(h)
        if new != old:
            ctl[h] = new
            ctx.emit("control", hex=h, city=ctx.rs.cities[h].name, old=old, new=new, rule="DG2 11.0")


def _garrison_missing(board: Board, h: str, *, final: bool = False) -> bool:
    """10.1: a garrison city without its garrison scores nothing for the Soviets, whether they
    occupied it or only hold it by ZOC (then no Front ever stood there to garrison it).
    ``final``: at the end of the game 10.1 asks only whether a garrison is there, so a Soviet
    Front standing in a city whose deadline has not passed (it took the city after the last
    Soviet movement phase, e.g. by advancing in the last Soviet combat phase, or replaces a
    destroyed garrison) is its garrison at the end."""
    if not board.rs.cities[h].garrison:
        return False
    here = board.units_in(h)
    if any(board.units[uid].get("garrison") == h for uid in here):
        return False
    if final and not board.state.get("captured", {}).get(h, {}).get("missed"):
        return not any(board.rs.units[uid].is_front and board.camp(uid) == "soviet" for uid in here)
    return True


def occupier(board: Board, h: str) -> str | None:
    """The side whose units stand in ``h`` (occupy, 占領: a unit ended its move, advance,
    retreat or placement there and is still there), or None."""
    occ = board.units_in(h)
    camps = {board.camp(u) for u in occ}
    return camps.pop() if len(camps) == 1 else None


def victory_points(ctx_or_board, *, final: bool = False) -> dict:
    board = ctx_or_board.board if hasattr(ctx_or_board, "board") else ctx_or_board
    st = board.state
    rs = board.rs
    if rs.play.rule("victory") == "occupy":
        return _occupation_points(board, final=final)
    vp = {"soviet": 0, "western": 0}
    detail: dict[str, list[dict]] = {"soviet": [], "western": []}
    for h in sorted(rs.cities):
        c = rs.cities[h]
        owner = st["control"].get(h)
        if owner == "soviet" and _garrison_missing(board, h, final=final):
            detail["soviet"].append({"city": c.name, "hex": h, "vp": 0, "note": "no garrison (10.1)"})
            continue
        if owner == "german" and _ss_holds(board, h):
            detail["western"].append({"city": c.name, "hex": h, "vp": 0,
                                      "note": "held only by SS units, which are German (13.2, 11.0)"})
            continue
        if owner not in vp:
            continue
        vp[owner] += c.vp
        detail[owner].append({"city": c.name, "hex": h, "vp": c.vp})
    return {"soviet": vp["soviet"], "western": vp["western"], "cities": detail}


def _ss_holds(board: Board, h: str) -> bool:
    """An SS unit under the Western Allied player (13.2) stands in ``h`` or reaches it by ZOC."""
    return any(board.units[u].get("ss_half") for u in board.units_in(h)) \
        or any(board.units[u].get("ss_half") for n in board.rs.neighbours(h) for u in board.units_in(n))


SIDE_TITLES = {"soviet": "Soviet", "western": "Western Allies"}


def explain(vp: dict) -> list[str]:
    """Why each side has its victory points, in words (for the report and `pbem show`): the
    cities that score, and each city held but scoring 0 with the rule why (10.1, 13.2).
    ``vp``: a :func:`victory_points` result (or a report's vp event with its ``cities``)."""
    out = []
    for side, cities in (vp.get("cities") or {}).items():
        scoring = [f"{c['city']} {c['vp']}" for c in cities if not c.get("note")]
        zero = [f"{c['city']} held but scoring 0: {c['note']}" for c in cities if c.get("note")]
        parts = ([", ".join(scoring)] if scoring else []) + zero
        out.append(f"{SIDE_TITLES.get(side, side)} {vp.get(side, 0)}: {'; '.join(parts) or 'no city held'}")
    return out


def _occupation_points(board: Board, *, final: bool = False) -> dict:
    """14.0: each player scores the cities his own units occupy (in Collapse in the East the
    Western Allied player's units are the East Germans), on the map in use only: a city west of
    the boundary scores for nobody, even for a German unit forced there that would have had to
    come back in the turn after the last."""
    rs = board.rs
    players = list(rs.play.players)
    vp = {p: 0 for p in players}
    detail: dict[str, list[dict]] = {p: [] for p in players}
    east_only = rs.play.rule("map_area") == "east"
    for h in sorted(rs.cities):
        c = rs.cities[h]
        occ = board.units_in(h)
        if not occ or (east_only and rs.theater(h) == "west"):
            continue    # 14.0: only the map east of the boundary is in play (Berlin, on it, is)
        p = board.controller(occ[0])
        if p not in vp:
            continue
        if board.camp(occ[0]) == "soviet" and _garrison_missing(board, h, final=final):
            detail[p].append({"city": c.name, "hex": h, "vp": 0, "note": "no garrison (10.1)"})
            continue
        vp[p] += c.vp
        detail[p].append({"city": c.name, "hex": h, "vp": c.vp})
    out: dict[str, int | dict[str, list[dict]]] = {p: vp[p] for p in players}
    out.setdefault("soviet", 0)
    out.setdefault("western", 0)
    out["cities"] = detail
    return out


def _by_vp(vp: dict) -> dict:
    if vp["soviet"] > vp["western"]:
        w = "soviet"
    elif vp["western"] > vp["soviet"]:
        w = "western"
    else:
        w = None
    return {"winner": w, "draw": w is None, "reason": "more victory points (11.0)" if w else "equal victory points",
            "vp": {"soviet": vp["soviet"], "western": vp["western"]}}


def final_result(ctx: Ctx) -> dict:
    vp = victory_points(ctx, final=True)
    st = ctx.state
    rs = ctx.rs
    kind = rs.play.rule("victory")
    if kind == "berlin-race":
        return berlin_race(rs, st)
    if kind == "vp-else-german":
        # 16.31: the German player wins if at the end neither the Western Allies nor the Soviets
        # occupy Berlin (a unit of theirs stands in it; ZOC or a unit next to it is not enough).
        holder = occupier(ctx.board, rs.berlin) if rs.berlin else None
        if holder not in ("soviet", "western"):
            return {"winner": "german", "draw": False, "reason": "neither the Western Allies nor the Soviets occupy Berlin (16.31)",
                    "vp": {"soviet": vp["soviet"], "western": vp["western"]}}
        r = _by_vp(vp)
        if r["winner"]:
            r["reason"] = "more victory points (16.31)"
        return r
    if not st["berlin"].get("entered_by") and st.get("scenario_rules", {}).get("draw_without_berlin"):
        return {"winner": None, "draw": True, "reason": "neither side took Berlin (12.2.3)",
                "vp": {"soviet": vp["soviet"], "western": vp["western"]}}
    r = _by_vp(vp)
    if kind == "occupy" and r["winner"]:
        r["reason"] = f"more victory points for the cities occupied at the end of turn {rs.last_turn} (14.0)"
    return r


def berlin_race(rs, st: dict, *, now: bool = False) -> dict:
    """17.32: the East German player wins if the Soviets have not entered Berlin by the deadline
    turn, the West German player if the Western Allies have not; the Western Allied player wins
    if they entered it before the Soviets, the Soviet player if the Soviets entered it before
    the Western Allies. Two players may win. Victory points decide nothing here. ``now``: the
    result if the game ended at this point (for `pbem show`)."""
    deadline = rs.play.rule("berlin_deadline") or rs.last_turn
    entries = [e for e in st["berlin"].get("entries", []) if e["turn"] <= deadline]
    sides = [e["side"] for e in entries]
    winners = []
    if sides:
        winners.append(sides[0])            # first in: soviet or western
    if "soviet" not in sides:
        winners.append("east-german")
    if "western" not in sides:
        winners.append("west-german")
    order = {p: i for i, p in enumerate(rs.play.players)}
    winners.sort(key=lambda p: order.get(p, 99))
    by = "so far" if now else f"by turn {deadline}"
    if sides:
        first = entries[0]
        why = f"{'the Soviets' if first['side'] == 'soviet' else 'the Western Allies'} entered Berlin first (turn {first['turn']})"
    else:
        why = f"nobody entered Berlin {by}"
    missing = [("the Soviets" if s == "soviet" else "the Western Allies") for s in ("soviet", "western") if s not in sides]
    if sides and missing:
        why += f"; {' and '.join(missing)} did not enter it {by}"
    return {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "draw": False,
            "reason": why + " (17.32)"}


def race_lines(rs, st: dict) -> list[str]:
    """What decides the four-player game (17.32), for `pbem show`: who has entered Berlin, and
    who would win if the game ended now (victory points decide nothing there)."""
    deadline = rs.play.rule("berlin_deadline") or rs.last_turn
    entries = st["berlin"].get("entries", [])
    ent = "; ".join(f"{'Soviets' if e['side'] == 'soviet' else 'Western Allies'} turn {e['turn']} ({e['unit']})" for e in entries)
    r = berlin_race(rs, st, now=True)
    who = "the " + " and the ".join(rs.play.title(w) for w in r["winners"])
    return [f"Berlin race (17.32, victory points decide nothing): entered Berlin: {ent or 'nobody yet'} (deadline: turn {deadline})",
            f"  if the game ended now: {who} {'win' if len(r['winners']) > 1 else 'wins'} - {r['reason']}"]
