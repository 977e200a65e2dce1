"""Combat (DG2 6.0-6.9).

Attacks are checked first (who may attack whom, adjacency, one attack per unit and hex,
multi-hex attacks, the turn-1 West German obligation of 12.2.1), then resolved one by one in
the order written, each result applied at once (6.1). Odds are rounded in the defender's
favour to a column of the CRT; terrain multipliers are cumulative (6.82); a river counts only
when every attacker attacks across one (6.81); fortresses help Germans only and fall to the
first Western Allied unit that enters (6.83).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from ..core.errors import Issue
from .board import CAMP_OF, Board, is_hex
from .boundary import after_retreat, entry_violation, follow_side, home_theater
from .context import Ctx, PhaseOrdersInvalid, prov_note
from .events import touch_hex
from .losses import eliminate
from .movement import check_unit_for_phase
from .play import default_play
from .ruleset import is_provisional
from .sequence import FORCE_TITLES, split

# Who may attack whom in each combat phase of the two-player game (3.0, 6.3, 6.4); a scenario's
# data gives its own (``play.sequence[].phases[].attacks``: 15.24, 16.1), see targets_of.
TARGETS = {g.id: g.attacks for g in default_play().groups}
RESULT_TEXT = {
    "De": "all defenders eliminated",
    "Ae": "all attackers eliminated",
    "Ex": "exchange: all defenders eliminated; attackers whose printed attack totals at least the defenders' printed defence are eliminated",
    "Ar": "attackers retreat",
    "Dr": "defenders retreat",
}


def targets_of(ctx: Ctx, group: str) -> tuple[str, ...]:
    """Forces the units of phase group ``group`` may attack: the scenario's sequence says
    (3.0, 6.3, 6.4; 15.24; 16.1), and once the Soviets and Western Allies are enemies (13.1)
    they may also attack each other."""
    play = ctx.rs.play
    t = play.group(group).attacks if play.has_group(group) else TARGETS[group]
    if ctx.board.hostile_allies():
        forces = play.group(group).forces if play.has_group(group) else (group,)
        for mine, theirs in (("soviet", "western-allied"), ("western-allied", "soviet")):
            if mine in forces and theirs not in t:
                t = t + (theirs,)
    return t


# ---------------------------------------------------------------------------- checking
def check_attacks(ctx: Ctx, orders: dict) -> list[Issue]:
    board = ctx.board
    rs = ctx.rs
    issues: list[Issue] = []
    used_units: dict[str, int] = {}
    used_hexes: dict[str, int] = {}
    attacks = orders.get("attacks", [])
    no_attacks = board.state.get("flags", {}).get("no_attacks")
    # (the forces the phasing force may attack, once for every attack; the attack's text is
    # written only for a problem)
    allowed = targets_of(ctx, split(ctx.phase)[0]) if attacks and not no_attacks else ()
    units, grid = board.units, rs.grid
    adjacent = grid.adjacent
    for n, atk in enumerate(attacks, start=1):
        where = tuple(atk.get("_path", ())) or ("attacks", n - 1)
        tg = atk["targets"]
        if no_attacks:
            issues.append(Issue("BFG-ATTACK-FORBIDDEN", "after Berlin has fallen the Soviets and the Western Allies may not attack each other",
                                path=where, text=_attack_text(atk), rule="DG2 12.2.2"))
            continue
        issues += _target_issues(ctx, atk, n, used_hexes, where, allowed)
        if not atk["units"]:
            issues.append(Issue("BFG-ATTACK-NO-UNITS", "an attack needs at least one unit", path=where, text=_attack_text(atk), rule="DG2 6.0"))
        for k, uid in enumerate(atk["units"]):
            bad = check_unit_for_phase(ctx, uid, where + ("units", k), "attack")
            if bad:
                issues.append(bad)
                continue
            if uid in used_units:
                issues.append(Issue("BFG-ATTACK-UNIT-TWICE", f"{uid} already attacks in attack {used_units[uid]}",
                                    path=where, text=_attack_text(atk), rule="DG2 6.5"))
                continue
            used_units[uid] = n
            at = units[uid]["at"]
            for h in tg:
                if h not in grid:
                    continue
                if not adjacent(at, h):
                    issues.append(Issue("BFG-ATTACK-NOT-ADJACENT", f"{uid} at {at} is not adjacent to {h}",
                                        path=where, text=_attack_text(atk), rule="DG2 6.0, 6.7",
                                        hint="in a multi-hex attack every attacker must be adjacent to every defending hex"))
                elif rs.hexside_prohibited(at, h):
                    issues.append(Issue("BFG-ATTACK-HEXSIDE", f"{uid} may not attack across the prohibited hexside {at}/{h}",
                                        path=where, text=_attack_text(atk), rule="DG2 4.4, 6.21"))
    # 12.2.1: on turn 1 the West Germans make at least two attacks on Western Allied units.
    need = t1_attacks_needed(ctx)
    if need and len(attacks) < need:
        issues.append(Issue("BFG-T1-ATTACKS", f"on turn 1 the West Germans must make at least {need} attacks on Western Allied units; the orders make {len(attacks)}",
                            path=("attacks",), rule="DG2 12.2.1",
                            hint="optional rule 12.3 (all German replacements East German) lifts this"))
    return issues


def _target_issues(ctx: Ctx, atk: dict, n: int, used_hexes: dict[str, int], where: tuple,
                   allowed: tuple[str, ...]) -> list[Issue]:
    """The problems of attack ``n``'s target hexes (6.0, 6.5, 3.0/6.3/6.4, 15.26); records the
    hexes it attacks in ``used_hexes``. ``allowed``: the forces the phasing force may attack."""
    board, rs = ctx.board, ctx.rs
    force, _ = split(ctx.phase)
    tg = atk["targets"]
    issues: list[Issue] = []
    for h in tg:
        if h not in rs.grid:
            issues.append(Issue("BFG-ATTACK-HEX", f"{h} is not a hex of the map", path=where, text=_attack_text(atk), rule="DG2 6.0"))
            continue
        if h in used_hexes:
            issues.append(Issue("BFG-ATTACK-HEX-TWICE", f"{h} is already attacked by attack {used_hexes[h]}",
                                path=where, text=_attack_text(atk), rule="DG2 6.5",
                                hint="join the units into one attack: every unit in a hex is attacked once"))
            continue
        used_hexes[h] = n
        defenders = board.units_in(h)
        if not defenders:
            issues.append(Issue("BFG-ATTACK-EMPTY", f"{h} holds no units to attack", path=where, text=_attack_text(atk), rule="DG2 6.0"))
            continue
        forbidden = [u for u in defenders if board.units[u]["force"] not in allowed]
        if forbidden:
            who = ", ".join(f"{u} ({FORCE_TITLES[board.force(u)]})" for u in forbidden)
            issues.append(Issue("BFG-ATTACK-TARGET",
                                f"{FORCE_TITLES[force]} units may attack only {', '.join(FORCE_TITLES[f] for f in allowed)} units; {h} holds {who}",
                                path=where, text=_attack_text(atk), rule="DG2 3.0, 6.3, 6.4"))
        elif not rs.play.rule("polish_attack_each_other"):
            # 15.26: Polish exile and Polish communist units may not attack each other.
            nat_d = {rs.units[u].nation for u in defenders}
            nat_a = {rs.units[u].nation for u in atk["units"] if u in rs.units}
            for a_, d_ in (("polish-communist", "polish-exile"), ("polish-exile", "polish-communist")):
                if a_ in nat_a and d_ in nat_d:
                    issues.append(Issue("BFG-ATTACK-POLISH",
                                        f"{h} holds a {d_.replace('-', ' ')} unit; {a_.replace('-', ' ')} units may not attack it",
                                        path=where, text=_attack_text(atk), rule="DG2 15.26",
                                        hint="leave the Polish units out of this attack"))
    return issues


def _attackable_hexes(ctx: Ctx, force: str) -> int:
    """How many separate attacks the force can make at most (12.2.1 "or fewer"): every attack
    needs its own units and its own hex (6.5: a unit attacks once, a hex is attacked once), so
    this is a maximum matching of units to attackable hexes, not the number of such hexes."""
    return len(_matching(ctx, force))


def t1_attacks_needed(ctx: Ctx) -> int:
    """12.2.1: how many attacks the West German combat phase of turn 1 must make (0 if none)."""
    force, _ = split(ctx.phase)
    if (force == "west-german" and ctx.turn == 1 and ctx.state.get("scenario_rules", {}).get("t1_west_german_attacks")
            and not ctx.state.get("options", {}).get("german_east_front")):
        return min(int(ctx.rs.rulings["t1_west_german_attacks"]["value"]), _attackable_hexes(ctx, force))
    return 0


def default_attacks(ctx: Ctx) -> list[dict]:
    """The attacks of a missing-orders default (rulings ``missing_orders_attacks``): none,
    except the ones 12.2.1 makes compulsory: each made by one unit of a maximum matching of
    units to attackable hexes (lowest hex ids first), no advance."""
    need = t1_attacks_needed(ctx)
    if not need:
        return []
    force, _ = split(ctx.phase)
    pairs = sorted(_matching(ctx, force).items())[:need]
    return [{"targets": [h], "units": [uid], "advance": "none", "ex_losses": None, "retreats": {},
             "_path": ("phases", 0, "attacks", k)} for k, (h, uid) in enumerate(pairs)]


def _matching(ctx: Ctx, force: str) -> dict[str, str]:
    """Maximum matching of the force's units to hexes they may attack: {hex: unit}."""
    board = ctx.board
    allowed = targets_of(ctx, force)
    reach: dict[str, list[str]] = {}
    for uid in board.on_map_units():
        if board.force(uid) != force:
            continue
        for n in ctx.rs.neighbours(board.at(uid)):
            us = board.units_in(n)
            if us and all(board.force(u) in allowed for u in us) and not ctx.rs.hexside_prohibited(board.at(uid), n):
                reach.setdefault(uid, []).append(n)
    owner: dict[str, str] = {}  # hex -> unit attacking it

    def augment(uid: str, seen: set) -> bool:
        for h in reach[uid]:
            if h in seen:
                continue
            seen.add(h)
            if h not in owner or augment(owner[h], seen):
                owner[h] = uid
                return True
        return False
    for uid in sorted(reach):
        augment(uid, set())
    return owner


def _attack_text(atk: dict) -> str:
    t = atk["targets"]
    tt = t[0] if len(t) == 1 else "[" + ", ".join(t) + "]"
    return f"{{target: {tt}, units: [{', '.join(str(u) for u in atk['units'])}]}}"


# ---------------------------------------------------------------------------- strengths
def attack_strength(ctx: Ctx, uid: str) -> int:
    a = ctx.rs.units[uid].attack
    if ctx.board.units[uid].get("ss_half"):
        a = a // 2  # 13.2
    return a


def hex_multiplier(ctx: Ctx, h: str, attackers: list[str]) -> tuple[int, list[dict], list[dict]]:
    """(multiplier, features, provisional notes) for defenders in ``h`` (6.8-6.83)."""
    rs = ctx.rs
    board = ctx.board
    feats: list[dict] = []
    notes: list[dict] = []
    # (a hex's terrain defence and its provisional note, worked out once per ruleset)
    cache = rs.terrain_defense_kept
    known = cache.get(h)
    if known is None:
        tdef = rs.terrain_defense(h)
        n = prov_note(rs.terrain_defense_prov(h), f"{rs.terrain[h]} defence x{tdef}") if tdef > 1 else None
        known = cache[h] = (tdef, rs.terrain[h] if tdef > 1 else None, (n["item"], n["note"]) if n else None)
    tdef, terrain, note = known
    if tdef > 1:
        feats.append({"feature": terrain, "x": tdef})
        if note:
            notes.append({"item": note[0], "note": note[1]})
    # 6.83 denies the fortress to the Allies only; an SS unit under the Western Allied player
    # (13.2) is a German unit that "defends normally" (rulings ``ss_cities``): it keeps the x2.
    if h in rs.fortresses and h not in ctx.state["fortresses_destroyed"] \
            and any(board.city_side(u) == "german" for u in board.units_in(h)):
        x = int(rs.features["fortress"]["defense"])
        feats.append({"feature": "fortress", "x": x})
    units = board.units
    river = rs.hexside_river
    rivers = []
    for a in attackers:
        r = river(units[a]["at"], h)
        if not r:
            break       # (an attacker not across a river: no river for this hex)
        rivers.append(r)
    else:
        if attackers:       # every attacker across a river
            x = int(rs.features["river"]["defense"])
            feats.append({"feature": f"river ({', '.join(sorted(set(rivers)))})", "x": x})
    if not feats:
        return 1, feats, notes
    if len(feats) == 1:
        return feats[0]["x"], feats, notes
    if ctx.rs.cumulative_rule == "subtract-one-per-extra":
        mult = sum(f["x"] for f in feats) - (len(feats) - 1)
    else:
        mult = sum(f["x"] for f in feats) - 1  # 6.82: add, then subtract 1
    if len(feats) >= 3:
        notes.append({"item": "cumulative rule with three features", "note": "add-then-subtract-one read literally (component-data A.8 item 15)"})
    return mult, feats, notes


def odds_column(ctx: Ctx, att: int, dfn: int) -> str | None:
    best = None
    if dfn <= 0 or type(att) is not int or type(dfn) is not int:
        odds = Fraction(att, dfn)
        for col, r in zip(ctx.rs.crt_columns, ctx.rs.crt_ratios):
            if odds >= r:
                best = col
        if best is not None and odds > ctx.rs.crt_ratios[-1]:
            best = ctx.rs.crt_above.get("column", best)
        return best
    # att/dfn >= p/q  <=>  att*q >= p*dfn (dfn, q > 0): the same comparisons in integers
    pq = ctx.rs.crt_pq
    for col, p, q in pq:
        if att * q >= p * dfn:
            best = col
    _, p, q = pq[-1]
    if best is not None and att * q > p * dfn:
        best = ctx.rs.crt_above.get("column", best)
    return best


# ---------------------------------------------------------------------------- resolving
def run_combat(ctx: Ctx, orders: dict) -> None:
    if orders.get("_missing") and not orders.get("attacks"):
        # --missing-orders: the default makes the attacks the rules compel (12.2.1).
        orders = dict(orders, attacks=default_attacks(ctx))
        if orders["attacks"]:
            ctx.emit("default-attacks", count=len(orders["attacks"]), rule="DG2 12.2.1",
                     attacks=[{"target": a["targets"][0], "units": a["units"]} for a in orders["attacks"]],
                     text="no orders received: pbem makes the attacks 12.2.1 compels, one unit each, no advance")
    issues = check_attacks(ctx, orders)
    if issues:
        raise PhaseOrdersInvalid(issues)
    for n, atk in enumerate(orders.get("attacks", []), start=1):
        resolve(ctx, n, atk)


def resolve(ctx: Ctx, n: int, atk: dict) -> None:
    rs = ctx.rs
    board = ctx.board
    units, occ, defs = board.units, board.occ, rs.units
    targets = list(atk["targets"])
    attackers = list(atk["units"])
    defenders = [u for h in targets for u in occ.get(h, ())]
    # (attack_strength of each attacker, 13.2: an SS unit's halved)
    strength = {u: defs[u].attack // 2 if units[u].get("ss_half") else defs[u].attack for u in attackers}
    att = sum(strength.values())
    hexes = []
    notes: list[dict] = []
    dfn = 0
    for h in targets:
        us = list(occ.get(h, ()))
        base = 0
        for u in us:
            base += defs[u].defense
        mult, feats, hn = hex_multiplier(ctx, h, attackers)
        if hn:
            notes += hn
        hexes.append({"hex": h, "units": us, "base": base, "features": feats, "multiplier": mult, "defense": base * mult})
        dfn += base * mult
    column = odds_column(ctx, att, dfn)
    label = f"c{n}-{'+'.join(targets)}/d6"
    # the event as ctx.emit writes it (type, turn, phase first), made at once
    ev = {"type": "combat", "turn": ctx.turn, "phase": ctx.phase, "n": n, "targets": targets,
          "attackers": [{"unit": u, "hex": units[u]["at"], "attack": strength[u]} for u in attackers],
          "defenders": defenders, "hexes": hexes, "attack": att, "defense": dfn, "odds": f"{att}:{dfn}"}
    if column is None:
        result = rs.crt_below["result"]
        ev["column"] = None
        ev["roll"] = None
        ev["result"] = result
        ev["below_lowest"] = True
        n_ = prov_note(rs.crt_below.get("provenance", rs.crt_prov), f"odds below {rs.crt_columns[0]} give {result}")
        if n_:
            notes.append(n_)
    else:
        if ctx.dice is None:
            raise RuntimeError("dice needed to resolve combat")
        value = ctx.dice.roll(label, 6)
        result = rs.crt_results[column][value - 1]
        cell_prov = rs.crt_cell_prov.get((column, value), rs.crt_prov)
        if is_provisional(cell_prov):
            notes.append({"item": f"CRT {column} die {value} = {result}", "note": cell_prov.get("note", "")})
        ev["column"] = column
        ev["roll"] = {"label": ctx.dice.prefix + label, "value": value}
        ev["result"] = result
    ev["result_text"] = RESULT_TEXT[result]
    ev["provisional"] = notes
    ctx.events.append(ev)
    apply_result(ctx, n, atk, result, attackers, defenders, targets)


def apply_result(ctx: Ctx, n: int, atk: dict, result: str, attackers: list[str], defenders: list[str], targets: list[str]) -> None:
    board = ctx.board
    units, occ = board.units, board.occ
    if result == "De":
        for u in defenders:
            eliminate(ctx, u, reason="De", combat=n)
        advance(ctx, n, atk, winners=attackers, vacated=[h for h in targets if h not in occ], attacker_won=True)
    elif result == "Ae":
        attacker_hexes = sorted({units[u]["at"] for u in attackers})     # (where they stood)
        for u in attackers:
            eliminate(ctx, u, reason="Ae", combat=n)
        advance(ctx, n, atk, winners=defenders, vacated=[h for h in attacker_hexes if h not in occ], attacker_won=False)
    elif result == "Ex":
        need = sum(ctx.rs.units[u].defense for u in defenders)
        for u in defenders:
            eliminate(ctx, u, reason="Ex", combat=n)
        losses = ex_losses(ctx, n, atk, attackers, need)
        for u in losses:
            eliminate(ctx, u, reason="Ex", combat=n)
        survivors = [u for u in attackers if u not in losses]
        advance(ctx, n, atk, winners=survivors, vacated=[h for h in targets if h not in occ], attacker_won=True)
    elif result == "Ar":
        attacker_hexes = sorted({units[u]["at"] for u in attackers})     # (where they stood)
        for u in attackers:
            retreat(ctx, n, atk, u)
        advance(ctx, n, atk, winners=[u for u in defenders if is_hex(units[u]["at"])],
                vacated=[h for h in attacker_hexes if h not in occ], attacker_won=False)
    elif result == "Dr":
        for u in defenders:
            retreat(ctx, n, atk, u)
        advance(ctx, n, atk, winners=[u for u in attackers if is_hex(units[u]["at"])],
                vacated=[h for h in targets if h not in occ], attacker_won=True)
    else:  # pragma: no cover - data check refuses unknown codes
        raise ValueError(f"unknown combat result {result!r}")


def ex_attack(ctx: Ctx, uid: str) -> int:
    """An attacker's attack strength as 6.2 Ex counts it: the printed one, but halved for an SS
    unit under the Western Allied player (13.2: its attack strength is half the printed value;
    6.2 says "printed" of the defence only; rulings ``ss_strengths``)."""
    return attack_strength(ctx, uid)


def ex_options(ctx: Ctx, attackers: list[str], need: int) -> list[list[str]]:
    """Smallest sets of attackers whose attack (printed; SS halved, 13.2) totals at least
    ``need``, the defenders' printed defence (6.2 Ex)."""
    pa = {u: ex_attack(ctx, u) for u in attackers}
    if sum(pa.values()) < need:
        return [sorted(attackers)]
    out = []
    for k in range(1, len(attackers) + 1):
        for combo in combinations(sorted(attackers), k):
            tot = sum(pa[u] for u in combo)
            if tot >= need and all(tot - pa[u] < need for u in combo):
                out.append(list(combo))
    return out


def ex_losses(ctx: Ctx, n: int, atk: dict, attackers: list[str], need: int) -> list[str]:
    opts = ex_options(ctx, attackers, need)
    player = ctx.board.controller(attackers[0])
    ordered = sorted(atk["ex_losses"]) if atk.get("ex_losses") else None
    pa = {u: ex_attack(ctx, u) for u in attackers}

    def auto():
        return min(opts, key=lambda s: (sum(pa[u] for u in s), len(s), s))
    choice, how = ctx.decide(id=f"t{ctx.turn:02d}.{ctx.phase}.c{n}.ex", player=player, kind="ex-losses",
                             options=opts, ordered=ordered, auto=auto, standing_key="ex_losses",
                             prompt=f"Exchange in attack {n}: remove attackers with printed attack of at least {need}",
                             context={"need": need, "attackers": {u: pa[u] for u in attackers}})
    ctx.emit("ex-losses", combat=n, units=choice, need=need, chosen_by=how, player=player)
    return list(choice)


def retreat_options(board: Board, uid: str, cur: str, visited: set[str]) -> list[str]:
    """6.21-6.22, 5.3, 5.43: legal hexes for one retreat step."""
    rs = board.rs
    units, occ = board.units, board.occ
    my = CAMP_OF.get(units[uid]["force"], "western")
    enemies = board.enemy_camps(my)
    defs = rs.units
    front = defs[uid].is_front
    in_zoc_of = board.in_zoc_of
    playable = rs.playable
    cand, empty = [], []
    for h in rs.neighbours(cur):
        # (each test only reads the board: the cheap ones first; a hex not playable is one
        # entry_violation refuses first)
        if h in visited or h not in playable:
            continue
        friends = occ.get(h, ())
        if len(friends) >= 2:
            continue    # (from here on at most one unit in the hex)
        if front and friends and defs[friends[0]].is_front:
            continue
        if (friends and CAMP_OF.get(units[friends[0]]["force"], "western") != my) or in_zoc_of(h, enemies):
            continue    # another side in the hex (5.3) or an enemy ZOC (6.22)
        if entry_violation(board, uid, cur, h, "retreat"):
            continue
        cand.append(h)
        if not friends:
            empty.append(h)
    return sorted(empty or cand)


def _auto_retreat(board: Board, uid: str, cur: str, opts: list[str]) -> str:
    rs = board.rs
    force = board.force(uid)
    home = home_theater(force)
    theater = rs.theater
    if CAMP_OF.get(force, "western") == "german" and rs.berlin:
        # (each hex's distance to Berlin, kept per ruleset)
        to_berlin = rs.to_berlin_kept
        distance, berlin = rs.grid.distance, rs.berlin

        def key(h):
            d = to_berlin.get(h)
            if d is None:
                d = to_berlin[h] = distance(h, berlin)
            return (0 if theater(h) in (home, "both") else 1, d, h)
    elif force == "soviet":
        def key(h):
            return (0 if theater(h) in (home, "both") else 1, -int(h[2:]), h)
    else:
        def key(h):
            return (0 if theater(h) in (home, "both") else 1, int(h[2:]), h)
    return min(opts, key=key)


def retreat(ctx: Ctx, n: int, atk: dict, uid: str) -> None:
    board = ctx.board
    rs = ctx.rs
    u = board.units[uid]
    start = u["at"]
    if not is_hex(start):
        return
    if u.get("garrison"):
        ctx.emit("retreat-ignored", unit=uid, hex=start, combat=n, rule="DG2 10.3",
                 text="a garrison ignores retreat results")
        return
    path: list[str] = []
    visited = {start}
    player = board.controller_of_force(u["force"])
    how = None
    ordered_all = atk.get("retreats") if player == ctx.player else None
    events = ctx.events
    for step in range(1, rs.retreat_hexes + 1):
        cur = u["at"]
        opts = retreat_options(board, uid, cur, visited)
        if not opts:
            events.append({"type": "retreat", "turn": ctx.turn, "phase": ctx.phase, "unit": uid, "from": start,
                           "path": path, "combat": n, "eliminated": True, "player": player, "rule": "DG2 6.23",
                           "text": "no hex to retreat into: eliminated"})
            eliminate(ctx, uid, reason="could not retreat (6.23)", combat=n)
            return
        ordered = ordered_all.get(uid) if ordered_all else None
        sfx = "" if rs.retreat_hexes == 1 else f".{step}"
        choice, how = ctx.decide(id=f"t{ctx.turn:02d}.{ctx.phase}.c{n}.retreat.{uid}{sfx}", player=player,
                                 kind="retreat", options=opts, ordered=ordered,
                                 auto=lambda: _auto_retreat(board, uid, cur, opts),  # noqa: B023 - called in this iteration
                                 standing_key="retreat",
                                 prompt=lambda: f"Retreat {uid} ({rs.units[uid].strength}) from {cur} after attack {n}",  # noqa: B023
                                 context=lambda: {"unit": uid, "from": cur, "combat": n})  # noqa: B023 - asked in this iteration
        board.place(uid, choice)
        visited.add(choice)
        path.append(choice)
        after_retreat(board, uid, cur, choice, ctx)
        touch_hex(ctx, uid, choice)
    prov = rs.rulings["retreat_hexes"].get("provenance", {})
    events.append({"type": "retreat", "turn": ctx.turn, "phase": ctx.phase, "unit": uid, "from": start, "path": path,
                   "combat": n, "chosen_by": how, "player": player,
                   "provisional": [prov_note(prov, f"retreat length {rs.retreat_hexes} hex")] if is_provisional(prov) else []})


def advance(ctx: Ctx, n: int, atk: dict, *, winners: list[str], vacated: list[str], attacker_won: bool) -> None:
    """6.9: one surviving unit of the winning side may enter a hex the combat vacated."""
    board = ctx.board
    units = board.units
    if not vacated:
        return
    winners = [u for u in winners if len(at := units[u]["at"]) == 4 and at.isdigit() and not units[u].get("garrison")]
    if not winners:
        return
    adjacent = ctx.rs.grid.adjacent
    opts_pairs = []
    for u in sorted(winners):
        at = units[u]["at"]
        for h in vacated:
            if adjacent(at, h) and not entry_violation(board, u, at, h, "advance"):
                opts_pairs.append((u, h))
    if not opts_pairs:
        return
    several = len(vacated) > 1
    options = ["none"] + [f"{u}@{h}" if several else u for u, h in opts_pairs]
    player = board.controller_of_force(units[winners[0]]["force"])
    ordered = None
    if attacker_won and player == ctx.player:
        a = atk.get("advance")
        if a is not None and a != "ask":
            ordered = a
            # `unit@hex` names the hex; with a single vacated hex the bare unit id is the option
            if not several and "@" in a and a.split("@")[1] == vacated[0]:
                ordered = a.split("@")[0]
    choice, how = ctx.decide(id=f"t{ctx.turn:02d}.{ctx.phase}.c{n}.advance", player=player, kind="advance",
                             options=options, ordered=ordered, auto=lambda: "none", standing_key="advance",
                             prompt=lambda: f"Advance after attack {n}: one unit may enter {', '.join(vacated)}",
                             context=lambda: {"vacated": vacated, "side": "attacker" if attacker_won else "defender"})
    if choice == "none":
        ctx.events.append({"type": "advance", "turn": ctx.turn, "phase": ctx.phase, "combat": n, "unit": None,
                           "chosen_by": how, "player": player})
        return
    if "@" in choice:
        uid, h = choice.split("@")
    else:
        uid, h = choice, vacated[0]
    frm = board.at(uid)
    board.place(uid, h)
    ctx.events.append({"type": "advance", "turn": ctx.turn, "phase": ctx.phase, "combat": n, "unit": uid, "from": frm,
                       "to": h, "chosen_by": how, "player": player, "rule": "DG2 6.9"})
    touch_hex(ctx, uid, h)
    if ctx.rs.play.rule("boundary") == "lifted":
        follow_side(board, uid, ctx)
