"""Courland (DG2 8.0).

Four East German and two Soviet units start in the Courland box. In each East German
replacement phase one German unit may leave: a die roll of 1 sinks it (destroyed-unit box);
otherwise it lands at Stettin or Rostock, as its player chooses, but never as a third unit
there (5.3, rulings ``replacement_stacking``: no dead end). Once all four have left, the
two Soviet units may enter on north-edge hexes 3523-3526 in a Soviet replacement phase. Neither
counts against the replacement limits.
"""
from __future__ import annotations

from ..core.errors import Issue
from .board import camp
from .context import Ctx, PhaseOrdersInvalid, entry_overstack
from .events import touch_hex


def courland_units(ctx: Ctx, camp: str) -> list[str]:
    b = ctx.board
    return sorted(u for u, s in b.units.items() if s["at"] == "courland" and b.camp(u) == camp)


def ports(ctx: Ctx, uid: str | None = None) -> list[str]:
    """The ports a unit leaving Courland may land at (8.0): Stettin or Rostock, free of enemy
    units and (5.3, rulings ``replacement_stacking``) not already holding two units. A third unit
    landed in a port whose land neighbours are all enemy-held or in enemy ZOC could never leave,
    and every later movement order of its player would break 5.3: the landing is refused where
    it would break the stacking limit, as a replacement's placement is (7.26)."""
    b = ctx.board
    return sorted(c.hex for c in ctx.rs.cities.values()
                  if c.courland_port and not b.enemy_in_hex(c.hex, "german")
                  and _port_room(ctx, c.hex, uid) is None)


def _port_room(ctx: Ctx, h: str, uid: str | None) -> str | None:
    """Why a unit leaving Courland may not land at ``h`` under 5.3, or None."""
    there = ctx.board.units_in(h)
    if len(there) >= 2:
        return f"it already holds {len(there)} units ({', '.join(there)}); at most 2 may stack (5.3)"
    return None


def _wrong_phase(ctx: Ctx, allowed: str, what: str, where: tuple, text: str) -> None:
    """8.0: German units leave Courland only in the East German replacement phase (the German
    one in the three-player game, 16.1), the Soviet units enter only in a Soviet replacement
    phase (the same player runs other replacement phases: the Soviet player the West German one)."""
    if ctx.phase != allowed:
        raise PhaseOrdersInvalid([Issue("BFG-COURLAND-PHASE", f"{what} only in the {allowed} phase, not in {ctx.phase}",
                                        path=where, text=text, rule="DG2 8.0")])


def check_courland_exit(ctx: Ctx, order: dict) -> str | None:
    """Every check of a Courland exit order that comes before its die (``pbem validate`` runs
    these too): the phase, the unit, the port. Returns the port ordered (hex), if any."""
    where = tuple(order.get("_path", ())) or ("courland_exit",)
    uid = order.get("unit")
    text = f"{{unit: {uid}, port: {order.get('port')}}}"
    _wrong_phase(ctx, f"{ctx.rs.play.group_of_force('east-german')}.replacement", "a German unit may leave Courland", where, text)
    if uid not in courland_units(ctx, "german"):
        raise PhaseOrdersInvalid([Issue("BFG-COURLAND-UNIT", f"{uid!r} is not a German unit in the Courland box",
                                        path=where, text=text, rule="DG2 8.0",
                                        hint=f"units there: {', '.join(courland_units(ctx, 'german')) or 'none'}")])
    opts = ports(ctx, uid)
    port = order.get("port")
    if port is not None and port != "ask":
        by_name = ctx.rs.city_by_name.get(str(port).lower())
        port = by_name.hex if by_name else port
        if port not in [c.hex for c in ctx.rs.cities.values() if c.courland_port]:
            raise PhaseOrdersInvalid([Issue("BFG-COURLAND-PORT", f"{order.get('port')!r} is not Stettin or Rostock",
                                            path=where, text=text, rule="DG2 8.0")])
        full = _port_room(ctx, port, uid)
        if full and port not in opts:
            raise PhaseOrdersInvalid([Issue("BFG-COURLAND-PORT", f"{uid} may not land at {ctx.rs.cities[port].name}: {full}",
                                            path=where, text=text, rule="DG2 8.0, 5.3",
                                            hint=("ports it may land at: " + ", ".join(ctx.rs.cities[h].name for h in opts)) if opts
                                            else "no port can take it: it stays in Courland (rulings.yaml replacement_stacking)")])
    if not opts:
        raise PhaseOrdersInvalid([Issue("BFG-COURLAND-PORT",
                                        "neither Stettin nor Rostock can take a unit (each holds enemy units or already two units, 5.3): no unit can leave Courland now",
                                        path=where, text=text, rule="DG2 8.0, 5.3",
                                        hint="a landing may not break the stacking limit (rulings.yaml replacement_stacking)")])
    return port


def port_ahead(ctx: Ctx, order: dict) -> dict | None:
    """For ``pbem validate``: the port decision a Courland exit without a port will stop at
    if the die lands the unit (2-6), or None (a port ordered, one port only, or the standing
    order courland_port: auto)."""
    uid = order.get("unit")
    opts = ports(ctx, uid)
    if order.get("port") not in (None, "ask") or len(opts) < 2 or ctx.standing(ctx.player, "courland_port") == "auto":
        return None
    return {"id": f"t{ctx.turn:02d}.{ctx.phase}.courland", "player": ctx.player, "kind": "courland-port",
            "prompt": f"{uid} leaves Courland: land it at Stettin or Rostock (if the die is 2-6)", "options": opts}


def courland_exit(ctx: Ctx, order: dict) -> None:
    port = check_courland_exit(ctx, order)
    uid: str = order["unit"]        # check_courland_exit refused an order without a unit of the box
    opts = ports(ctx, uid)
    value = ctx.dice.roll(f"courland-{uid}/d6", 6)
    ev = ctx.emit("courland", unit=uid, roll={"label": ctx.dice.prefix + f"courland-{uid}/d6", "value": value}, rule="DG2 8.0")
    if value == 1:
        box = "east-german"
        ctx.board.place(uid, f"box:{box}")
        ev.update(result="lost at sea", box=box)
        return
    choice, how = ctx.decide(id=f"t{ctx.turn:02d}.{ctx.phase}.courland", player=ctx.player, kind="courland-port",
                             options=opts, ordered=port if port != "ask" else None, auto=lambda: opts[0],
                             standing_key="courland_port",
                             prompt=f"{uid} leaves Courland: land it at Stettin or Rostock",
                             context={"unit": uid, "roll": value,
                                      "ports": {h: ctx.rs.cities[h].name for h in opts}})
    ctx.board.place(uid, choice)
    ev.update(result=f"lands at {ctx.rs.cities[choice].name}", hex=choice, chosen_by=how)
    touch_hex(ctx, uid, choice)
    if not courland_units(ctx, "german"):
        ctx.emit("courland-cleared", text="all German units have left Courland: the Soviet units there may enter from 3523-3526", rule="DG2 8.0")


def check_courland_entry_phase(ctx: Ctx, entries: list) -> None:
    """8.0: the Courland entry is a Soviet replacement phase's (what comes before any die)."""
    _wrong_phase(ctx, f"{ctx.rs.play.group_of_force('soviet')}.replacement", "the Soviet units in Courland may enter",
                 _entry_path(entries), "courland_entry")


def _entry_path(entries: list) -> tuple:
    """Where the ``courland_entry`` list is in the order file."""
    return tuple((entries[0] if entries and isinstance(entries[0], dict) else {}).get("_path", ())[:-1]) or ("courland_entry",)


def courland_entry(ctx: Ctx, entries: list) -> None:
    check_courland_entry_phase(ctx, entries)
    issues = []
    if courland_units(ctx, "german"):
        issues.append(Issue("BFG-COURLAND-EARLY", "the Soviet units may leave Courland only after all four German units have left",
                            path=_entry_path(entries), rule="DG2 8.0"))
        raise PhaseOrdersInvalid(issues)
    if ctx.state.get("flags", {}).get("courland_closed"):
        issues.append(Issue("BFG-COURLAND-LATE", "the Soviet units in Courland could enter only at the first Soviet replacement phase after the Germans left; they stay there",
                            path=_entry_path(entries), rule="DG2 8.0", hint="rulings.yaml courland_soviets"))
        raise PhaseOrdersInvalid(issues)
    for i, ent in enumerate(entries):
        where = tuple(ent.get("_path", ())) or ("courland_entry", i)
        uid, h = ent.get("unit"), ent.get("hex")
        text = f"{{unit: {uid}, hex: {h}}}"
        if uid not in courland_units(ctx, "soviet"):
            issues.append(Issue("BFG-COURLAND-UNIT", f"{uid!r} is not a Soviet unit in the Courland box",
                                path=where, text=text, rule="DG2 8.0"))
            continue
        if h not in ctx.rs.courland_entry or ctx.board.other_side_in_hex(h, "soviet"):
            issues.append(Issue("BFG-COURLAND-HEX", f"{uid} may enter only at a free hex of {', '.join(ctx.rs.courland_entry)}",
                                path=where, text=text, rule="DG2 8.0"))
            continue
        over = entry_overstack(ctx, uid, h)
        if over:
            issues.append(Issue("BFG-REPL-STACK", f"{uid} may not enter at {h}: {over}",
                                path=where, text=text, rule="DG2 5.3, 7.26, 8.0"))
            continue
        ctx.board.place(uid, h)
        ctx.board.units[uid]["entered"] = {"turn": ctx.turn, "phase_force": "soviet",
                                           "in_zoc": ctx.board.in_enemy_zoc(h, "soviet"), "double": False}
        ctx.emit("courland-entry", unit=uid, hex=h, rule="DG2 8.0")
        touch_hex(ctx, uid, h)
    if issues:
        raise PhaseOrdersInvalid(issues)


def courland_window(ctx: Ctx) -> None:
    """8.0 (次の, rulings ``courland_soviets``): at the end of the first Soviet replacement phase
    that begins with every German unit gone from Courland, the Soviet units still there have
    missed their one chance to enter: they stay in Courland for the rest of the game."""
    if ctx.phase != f"{ctx.rs.play.group_of_force('soviet')}.replacement":
        return
    flags = ctx.state.setdefault("flags", {})
    if flags.get("courland_closed"):
        return
    # (whether each camp still has a unit in Courland: one look at the units)
    camps = {camp(s["force"]) for s in ctx.board.units.values() if s["at"] == "courland"}
    if "german" in camps or "soviet" not in camps:
        return
    flags["courland_closed"] = True
    ctx.emit("courland-closed", units=courland_units(ctx, "soviet"), rule="DG2 8.0",
             text="the Soviet units in Courland did not enter at the first Soviet replacement phase after the Germans left: they stay there for the rest of the game")
