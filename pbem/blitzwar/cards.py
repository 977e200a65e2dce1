"""Replacement cards (10): the phase 2.cards, the checks of the cards part of an order file (seals
and openings) and the card revealed in the replacement phase (11.1, 11.3); the replacements
themselves are pbem/blitzwar/replacements.py, the supply losses pbem/blitzwar/supply_losses.py.

The state keeps, per major side (axis, allies, ussr; the Allied deck serves the UK and the USA,
10.1), ``cards[side]``::

    deck:    limited | total          # the deck picks come from now (10.2)
    total_from: 20                    # the turn of the switch (10.2), once it happened
    queue:   [{turn: 3, card: axis-l2, deck: limited}, {turn: 4, card: sealed, deck: limited}]
    played:  [{turn: 2, card: axis-l1}]   # revealed cards ("none": nothing, ruling card-not-opened / card-void)
    modernised: {"9": 1}              # USSR: withheld counters made available, by kind index (11.8)

A pick is OPEN (``cards: {side: [card, ...]}`` in the 2.cards entry: anyone who reads the file
sees it) or SEALED (core sealed choices, ``pbem seal --id cards-<side>-t<NN>``: the state holds
"sealed", never the card, until the owner opens it in the file covering turn NN's replacement
phase). Turn 1 picks the cards of turns 2, 3 and 4; the cards phase of turn t the card of turn
t+3 (10.1). A card is free when it is in the side's current deck and not queued; played cards
come back (11.3). With no pick, pbem picks openly the first free card in deck order (the
missing-orders default).

"""
from __future__ import annotations

import re

from ..core.errors import Issue, Severity, did_you_mean
from .context import SIDES, Ctx
from .diplomacy import us_entry_due
from .world import is_provisional

SEAL_ID = re.compile(r"^cards-(axis|allies|ussr)-t(\d\d)$")
MAJOR_NATION = {"axis": "GER", "allies": "UK", "ussr": "USSR"}


def seal_id(side: str, turn: int) -> str:
    return f"cards-{side}-t{turn:02d}"


# ------------------------------------------------------------------------------ the cards state
def side_cards(state: dict, side: str) -> dict:
    cards = state.setdefault("cards", {})
    return cards.setdefault(side, {"deck": "limited", "queue": [], "played": []})


def pick_turns(w, turn: int) -> list[int]:
    """The turns whose cards the cards phase of ``turn`` picks (10.1)."""
    ts = [2, 3, 4] if turn == w.first_turn else [turn + 3]
    return [t for t in ts if t >= w.first_replacement_turn and t <= w.last_turn]


def deck_cards(w, side: str, kind: str) -> list[str]:
    return [c.id for c in w.decks[(side, kind)].cards]


def card_of(w, cid: str):
    for d in w.decks.values():
        for c in d.cards:
            if c.id == cid:
                return c
    return None


def picking_deck(w, state: dict, side: str) -> str:
    """The deck (limited | total) the side picks from in this turn's cards phase: before that
    phase has run, the one it will switch to (10.2), so that the template and the checks of a
    file offer what the phase accepts."""
    sc = (state.get("cards") or {}).get(side) or {}
    deck = sc.get("deck", "limited")
    if deck != "total" and state.get("phase") in ("1.diplomacy", "2.cards"):
        if state.get("phase") == "1.diplomacy" and us_entry_due(w, state, state["turn"]):
            # 9.3: the US joins in this turn's diplomacy phase, before the cards phase (10.2)
            state = dict(state, flags=dict(state.get("flags") or {}, us_at_war=state["turn"]))
        if total_war_due(Ctx(rs=w, state=state, turn=state["turn"], phase="2.cards"), side):
            return "total"
    return deck


def free_cards(w, state: dict, side: str) -> list[str]:
    """10.1, 11.3: the cards of the deck the side picks from (:func:`picking_deck`) that are not
    queued (open ones; a sealed card is not known and cannot be excluded)."""
    sc = (state.get("cards") or {}).get(side) or {"deck": "limited", "queue": []}
    queued = {q["card"] for q in sc.get("queue", [])}
    return [c for c in deck_cards(w, side, picking_deck(w, state, side)) if c not in queued]


def total_war_due(ctx: Ctx, side: str) -> str | None:
    """10.2: why ``side`` picks from its total-war deck from this turn on (None: not yet)."""
    marks = set(ctx.state.get("marks") or [])
    f = ctx.state.get("flags") or {}
    # 10.2 (宣戦布告): the US entry (9.3), not its joining the Allies in autumn 1941 (19)
    us_at_war = "us-entry" in marks or f.get("us_at_war") is not None
    if side in ("axis", "allies") and us_at_war:
        return "the USA is at war with the Axis (9.3)"
    if side == "axis" and f.get("first_soviet_attack_axis") is not None and int(f["first_soviet_attack_axis"]) < ctx.turn:
        return "the USSR attacked Germany, West Poland or Romania last turn or before"
    if side == "ussr":
        if "soviet-total-war" in marks:
            return "summer 1942 (calendar)"
        if f.get("first_attack_ussr") is not None and int(f["first_attack_ussr"]) < ctx.turn:
            return "the Axis attacked the USSR or East Poland last turn or before"
        if f.get("german_in_finland") is not None and int(f["german_in_finland"]) < ctx.turn:
            return "German units moved into Finland last turn or before"
    return None


# ------------------------------------------------------------------------------ checks of a file
def check_file(w, state: dict, sub, covers: list[str]) -> list[Issue]:
    """The cards part of one order file: seal and open entries named cards-<side>-tNN (10.1,
    11.3). ``covers``: the phases the file gives orders for."""
    out = _seal_issues(w, state, sub) + _open_issues(w, state, sub, covers)
    if "2.cards" in covers:
        out += _picks_and_seals(w, state, sub)
    # an open: entry there that breaks the schema is set aside for these checks: it is not
    # missing (the schema error says what is wrong with it), so no BW-OPEN-MISSING for it
    broken_open = any(d and d[0] == "open" for d in getattr(sub, "dropped", ()))
    if "3.replacements" in covers and not broken_open:
        out += _opening_missing(state, sub)
    return out


def _seal_issues(w, state: dict, sub) -> list[Issue]:
    """10.1: each seal: entry of the file names a card this player picks in this cards phase."""
    out: list[Issue] = []
    player, turn = sub.player, state["turn"]
    early = state["phase"] in ("1.diplomacy", "2.cards")
    for i, s in enumerate(sub.doc.get("seal") or []):
        m = SEAL_ID.match(str(s.get("id", "")))
        if not m:
            # BlitzWAR seals nothing but replacement cards: any other id would be recorded and
            # never opened nor used (a mistyped card-axis-t04 left the turn-4 card to the default)
            out.append(Issue("BW-SEAL-ID", f"{s.get('id')!r} is not the id of a replacement card: BlitzWAR seals only "
                             f"cards, as cards-SIDE-tNN (10.1){_seal_guess(w, state, player, s.get('id'))}",
                             path=("seal", i, "id"), text=str(s.get("id")), rule="10.1",
                             hint="seal ids now: " + (", ".join(_seal_ids_now(w, state, player)) or "none")))
            continue
        side, t = m.group(1), int(m.group(2))
        if state["sides"].get(side) != player:
            out.append(Issue("BW-CARD-SIDE", f"{s['id']}: the {side} side's cards are picked by the {state['sides'].get(side)} player",
                             path=("seal", i, "id"), text=str(s["id"]), rule="10.1"))
        elif not early or t not in pick_turns(w, turn):
            want = ", ".join(seal_id(side, x) for x in pick_turns(w, turn)) if early else "none now"
            out.append(Issue("BW-SEAL-TURN", f"{s['id']}: the cards phase of turn {turn} picks the card(s) of turn(s) "
                             f"{', '.join(map(str, pick_turns(w, turn)))} (10.1)", path=("seal", i, "id"), text=str(s["id"]),
                             rule="10.1", hint=f"seal ids now: {want}"))
    return out


def _open_issues(w, state: dict, sub, covers: list[str]) -> list[Issue]:
    """11.1: each open: entry opens a card of this player's sides in the file covering the
    replacement phase of the card's turn."""
    out: list[Issue] = []
    player, turn = sub.player, state["turn"]
    for i, o in enumerate(sub.doc.get("open") or []):
        m = SEAL_ID.match(str(o.get("id", "")))
        if not m:
            continue
        side, t = m.group(1), int(m.group(2))
        if state["sides"].get(side) != player:
            out.append(Issue("BW-CARD-SIDE", f"{o['id']}: the {side} side's cards are opened by the {state['sides'].get(side)} player",
                             path=("open", i, "id"), text=str(o["id"]), rule="10.1"))
        elif t != turn or "3.replacements" not in covers:
            out.append(Issue("BW-OPEN-WHEN", f"{o['id']} is opened in the file covering the replacement phase of turn {t} "
                             f"(11.1); this file covers {', '.join(covers) or 'no phase'} of turn {turn}",
                             path=("open", i, "id"), text=str(o["id"]), rule="11.1",
                             hint=f"keep the opening file; send the open: entry with your turn-{t} replacement orders"))
    return out


def _opening_missing(state: dict, sub) -> list[Issue]:
    """Ruling card-not-opened: a sealed card not opened in this file gives nothing this turn;
    say so before the file goes (the player may simply have forgotten to copy the entry)."""
    out: list[Issue] = []
    turn = state["turn"]
    opened = {str(o.get("id")) for o in sub.doc.get("open") or [] if isinstance(o, dict)}
    at = next((("phases", i) for i, p in enumerate(sub.doc.get("phases") or [])
               if isinstance(p, dict) and p.get("phase") == "3.replacements"), ())
    for side in SIDES:
        if state["sides"].get(side) != sub.player:
            continue
        q = next((x for x in ((state.get("cards") or {}).get(side) or {}).get("queue", []) if x["turn"] == turn), None)
        if q and q["card"] == "sealed" and seal_id(side, turn) not in opened:
            out.append(Issue("BW-OPEN-MISSING", f"the {side} card of turn {turn} is sealed and this file, which covers "
                             f"the replacement phase, does not open it: the {side} side gets nothing from its card "
                             f"this turn (11.1, ruling card-not-opened)", severity=Severity.WARNING, path=at,
                             text="3.replacements", rule="11.1",
                             hint=f"copy the open: entry of your opening file for {seal_id(side, turn)} "
                                  "into this file: open: [{id: ..., nonce: ..., choice: ...}]"))
    return out


def _picks_and_seals(w, state: dict, sub) -> list[Issue]:
    """10.1: a card the side sealed for an earlier turn is not free. pbem cannot see a sealed
    card until it is opened: an open pick (or the default, the first free card in deck order)
    equal to the card this very file opens is refused (BW-CARD-NOT-FREE); for the cards still
    sealed it warns (BW-CARD-SEALED-PICK), as the pick is void if it is one of them (ruling
    card-void: the first free card comes instead)."""
    out: list[Issue] = []
    if state["turn"] == w.first_turn:
        return out          # turn 1 picks all three turns at once: BW-CARDS-COUNT checks seals and picks
    opened = {str(o.get("id")): o.get("choice") for o in sub.doc.get("open") or [] if isinstance(o, dict)}
    for i, ph in enumerate(sub.doc.get("phases") or []):
        if not isinstance(ph, dict) or ph.get("phase") != "2.cards":
            continue
        for side in SIDES:
            if state["sides"].get(side) != sub.player:
                continue
            sc = (state.get("cards") or {}).get(side) or {}
            sealed = [q["turn"] for q in sc.get("queue", []) if q["card"] == "sealed"]
            if not sealed or not pick_turns(w, state["turn"]):
                continue
            picks = list(((ph.get("cards") or {}).get(side)) or [])
            where = ("phases", i, "cards", side) if picks else ("phases", i)
            pick: str | None = picks[0] if picks else next(iter(free_cards(w, state, side)), None)   # None: no card free
            how = "your open pick" if picks else "the default pick (no pick in the file)"
            mine = {t: opened.get(seal_id(side, t)) for t in sealed if seal_id(side, t) in opened}
            same = [t for t, c in mine.items() if c == pick]
            if same:
                # an open pick is refused; the default (no pick) is always accepted, and warned
                # about: the card-void ruling gives the first free card when it comes
                out.append(Issue("BW-CARD-NOT-FREE" if picks else "BW-CARD-SEALED-PICK",
                                 f"{pick}, {how} for turn {pick_turns(w, state['turn'])[0]}, is the card this file opens "
                                 f"for turn {same[0]}: it is not free (10.1)" + ("" if picks else
                                 "; when it comes it is void and the first free card comes instead (ruling card-void)"),
                                 severity=Severity.ERROR if picks else Severity.WARNING, path=where + ((0,) if picks else ()),
                                 text=str(pick), rule="10.1", hint="pick another card: free now: " + ", ".join(
                                     c for c in free_cards(w, state, side) if c != pick)))
                continue
            still = [t for t in sealed if t not in mine]
            if still:
                out.append(Issue("BW-CARD-SEALED-PICK", f"the {side} side sealed the card(s) of turn(s) {', '.join(map(str, still))}: "
                                 f"pbem cannot see them, so it cannot check that {pick}, {how}, is not one of them; a sealed "
                                 "card is not free (10.1), and a pick of it is void when it comes (the first free card "
                                 "instead, ruling card-void)", severity=Severity.WARNING, path=where, text=str(pick),
                                 rule="10.1", hint="check it against your opening files (pbem seal wrote them)"))
    return out


def _seal_ids_now(w, state: dict, player: str) -> list[str]:
    """The card seal ids ``player`` may use now (the cards phase of this turn, 10.1)."""
    if state["phase"] not in ("1.diplomacy", "2.cards"):
        return []
    return [seal_id(side, t) for side in SIDES if state["sides"].get(side) == player for t in pick_turns(w, state["turn"])]


def _seal_guess(w, state: dict, player: str, sid) -> str:
    every = [seal_id(side, t) for side in SIDES for t in range(w.first_turn, w.last_turn + 1)]
    return did_you_mean(sid, _seal_ids_now(w, state, player), every)


def check_sealed_choice(w, state: dict, player: str, sid: str, choice) -> str | None:
    """`pbem seal`: why ``choice`` cannot be sealed as ``sid`` now (None: it can). BlitzWAR
    seals only replacement cards: another id would be sealed and never used."""
    m = SEAL_ID.match(str(sid))
    if not m:
        return (f"BlitzWAR seals only replacement cards, as cards-SIDE-tNN (10.1){_seal_guess(w, state, player, sid)}; "
                f"seal ids now: {', '.join(_seal_ids_now(w, state, player)) or 'none'}")
    side, t = m.group(1), int(m.group(2))
    if state["sides"].get(side) != player:
        return f"the {side} side's cards are picked by the {state['sides'].get(side)} player (10.1)"
    turns = pick_turns(w, state["turn"])
    if state["phase"] not in ("1.diplomacy", "2.cards") or t not in turns:
        return (f"the cards phase of turn {state['turn']} picks the card(s) of turn(s) {', '.join(map(str, turns)) or 'none'}"
                + ("" if state["phase"] in ("1.diplomacy", "2.cards") else " and is over") + " (10.1)")
    sc = (state.get("cards") or {}).get(side) or {}
    deck = picking_deck(w, state, side)
    queued = {q["card"] for q in sc.get("queue", [])}
    free = [c for c in deck_cards(w, side, deck) if c not in queued]
    if choice not in free:
        return (f"{choice!r} is not a free card of the {side} {deck}-war deck (10.1): free now: {', '.join(free)}"
                + ("; cards you sealed already must differ too" if any(q["card"] == "sealed" for q in sc.get("queue", [])) else ""))
    return None


def sealed_for(state: dict, side: str, turn: int) -> dict | None:
    return (state.get("sealed") or {}).get(seal_id(side, turn))


# ------------------------------------------------------------------------------ 10: the cards phase
def run_cards(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    """10.1, 10.2: the cards phase: each side's switch to its total-war deck, then its picks
    (open, sealed or the default); every problem of every side at once."""
    st = ctx.state
    issues: list[Issue] = []
    for player, o in sorted(orders_by_player.items()):
        p = o.get("_path", ("phases",))
        for side in sorted(o.get("cards") or {}):
            if st["sides"].get(side) != player:
                issues.append(Issue("BW-CARD-SIDE", f"the {side} side's cards are picked by the {st['sides'].get(side)} player, not {player}",
                                    path=p + ("cards", side), text=side, rule="10.1"))
    if issues:
        ctx.refuse(issues)
    for side in SIDES:     # every problem at once: each side, each pick (refused together below)
        if side not in st["sides"]:
            continue
        sc = side_cards(st, side)
        why = total_war_due(ctx, side)
        if why and sc["deck"] != "total":
            sc["deck"] = "total"
            sc["total_from"] = ctx.turn
            ctx.emit("card-deck", rule="10.2", side=side, deck="total", why=why)
        if pick_turns(ctx.rs, ctx.turn):
            issues += _pick(ctx, side, orders_by_player.get(st["sides"][side]) or {})
    if issues:
        ctx.refuse(issues)
    st["cards"] = {s: st["cards"][s] for s in sorted(st.get("cards") or {})}


def _pick(ctx: Ctx, side: str, o: dict) -> list[Issue]:
    """10.1: the side's cards of the turns this phase picks, queued: sealed ones as "sealed",
    the open picks in turn order, the first free card of the deck for the others (default)."""
    st, sc = ctx.state, side_cards(ctx.state, side)
    turns = pick_turns(ctx.rs, ctx.turn)
    issues: list[Issue] = []
    p = o.get("_path", ("phases",)) + ("cards", side)
    picks = list((o.get("cards") or {}).get(side) or [])
    open_turns = [t for t in turns if sealed_for(st, side, t) is None]
    if len(picks) > len(open_turns):
        issues.append(Issue("BW-CARDS-COUNT", f"{len(picks)} open card(s) for the {side} side; this cards phase picks "
                          f"{len(open_turns)} more (turn(s) {', '.join(map(str, open_turns)) or 'none'}: 10.1)",
                          path=p, rule="10.1", hint="one card a turn; a sealed card (pbem seal) needs no open pick"))
    deck = deck_cards(ctx.rs, side, sc["deck"])
    queued = {q["card"] for q in sc["queue"]}
    k = 0
    for t in turns:
        if sealed_for(st, side, t) is not None:
            sc["queue"].append({"turn": t, "card": "sealed", "deck": sc["deck"]})
            ctx.emit("card-picked", rule="10.1", side=side, for_turn=t, card="sealed", how="sealed")
            continue
        card, how = (picks[k], "order") if k < len(picks) else (next(c for c in deck if c not in queued), "default")
        if how == "order":
            k += 1
            if card not in deck or card in queued:
                free = [c for c in deck if c not in queued]
                what = ("is picked twice in this file (one card a turn)" if card in picks[:k - 1] else "is queued already"
                        if card in queued else f"is not a card of the {side} {sc['deck']}-war deck{did_you_mean(card, free, deck)}")
                issues.append(Issue("BW-CARD-NOT-FREE", f"{card} {what} (10.1, 10.2)", path=p + (k - 1,), text=str(card),
                                    rule="10.1", hint="free now: " + ", ".join(free)))
                continue
        queued.add(card)
        sc["queue"].append({"turn": t, "card": card, "deck": sc["deck"]})
        ctx.emit("card-picked", rule="10.1", side=side, for_turn=t, card=card, how=how)
    sc["queue"].sort(key=lambda q: q["turn"])
    return issues


# ------------------------------------------------------------------------------ 11.1, 11.3: the card of the replacement phase
def reveal(ctx: Ctx, side: str) -> dict | None:
    """11.1, 11.3: the side's card of this turn, taken off the queue (None: nothing comes)."""
    sc = side_cards(ctx.state, side)
    entry = next((q for q in sc["queue"] if q["turn"] == ctx.turn), None)
    if entry is None:
        return None
    sc["queue"].remove(entry)
    card = entry["card"]
    how = "open"
    if card == "sealed":
        s = sealed_for(ctx.state, side, ctx.turn) or {}
        if "opened" not in s:
            sc["played"].append({"turn": ctx.turn, "card": "none"})
            ctx.emit("card-not-opened", rule="11.1", side=side, id=seal_id(side, ctx.turn),
                     text="no opening of the sealed card: nothing from the card this turn (ruling card-not-opened)")
            return None
        card, how = s["opened"]["choice"], "opened"
        # 10.1: the card must have been free when it was picked: in the deck of the pick and not
        # one of the cards queued then (the cards of the three turns before it)
        before = {x["card"] for x in sc["played"] if ctx.turn - 3 <= x["turn"] < ctx.turn}
        if not isinstance(card, str) or card not in deck_cards(ctx.rs, side, entry["deck"]) or card in before:
            sc["played"].append({"turn": ctx.turn, "card": "none"})
            ctx.emit("card-void", rule="10.1", side=side, id=seal_id(side, ctx.turn), card=card,
                     text=(f"{card} was queued when it was picked" if card in before else
                           f"{card} is not a card of the {side} {entry['deck']}-war deck") +
                     ": the card is void, nothing from it this turn (ruling card-void)")
            return None
    else:
        before = {x["card"] for x in sc["played"] if ctx.turn - 3 <= x["turn"] < ctx.turn}
        if card in before:
            # 10.1, ruling card-void: an open (or default) pick of a card the side had sealed for
            # an earlier turn (pbem could not see it then) was not free when it was picked: the
            # first card free now comes instead, as the default pick would have given
            queued = {q["card"] for q in sc["queue"]}
            free = [c for c in deck_cards(ctx.rs, side, entry["deck"]) if c not in before and c not in queued]
            ctx.emit("card-void", rule="10.1", side=side, card=card, instead=free[0] if free else None,
                     text=f"{card} was queued (sealed) when it was picked openly or by default for this turn: "
                          + (f"{free[0]}, the first free card, comes instead" if free else "no card is free: nothing this turn")
                          + " (ruling card-void)")
            if not free:
                sc["played"].append({"turn": ctx.turn, "card": "none"})
                return None
            card = free[0]
    sc["played"].append({"turn": ctx.turn, "card": card})
    c = card_of(ctx.rs, card)
    extra = {}
    deck = ctx.rs.decks.get((side, entry["deck"]))
    if deck is not None and is_provisional(deck.provenance):
        # the contents of the printed cards are not public: the card's units decide what comes
        extra["provisional"] = [{"item": f"replacement card {card}: " + ", ".join(f"{k} {v}" for k, v in c.units.items() if v),
                                 "note": deck.provenance.get("note", "")}]
    ctx.emit("card-revealed", rule="11.3", side=side, card=card, how=how, units=dict(c.units), **extra)
    return dict(c.units)


def turn_card(ctx: Ctx, side: str):
    """The card the side revealed in this turn's replacement phase (None: nothing came)."""
    sc = side_cards(ctx.state, side)
    last = sc["played"][-1] if sc["played"] else None
    return card_of(ctx.rs, last["card"]) if last and last["turn"] == ctx.turn and last["card"] != "none" else None


def british_corps_on_card(ctx: Ctx, side: str, units: dict) -> int:
    """11.5: the British corps among the card's ``units``: every corps of an Allied limited-war
    card, one corps of a total-war card (the deck's british_corps), none for another side."""
    if side != "allies":
        return 0
    corps = int(units.get("infantry", 0)) + int(units.get("armour", 0))
    card = turn_card(ctx, side)
    if card is None or card.kind != "total":
        return corps
    return min(corps, ctx.rs.decks[("allies", "total")].british_corps or 1)


def major_nations(ctx: Ctx, side: str) -> tuple[str, ...]:
    """The major nations a side's cards serve (10.1: the Allied deck serves the UK and the USA)."""
    return ("UK", "US") if side == "allies" else (MAJOR_NATION[side],)


def summary(w, state: dict) -> dict:
    out = {}
    for side, sc in sorted((state.get("cards") or {}).items(), key=lambda x: SIDES.index(x[0]) if x[0] in SIDES else 9):
        out[side] = {"deck": sc.get("deck", "limited"),
                     "queue": [{"turn": q["turn"], "card": q["card"]} for q in sc.get("queue", [])],
                     "last": sc["played"][-1] if sc.get("played") else None}
    return out
