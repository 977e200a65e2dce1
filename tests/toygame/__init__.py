"""A toy game of a few lines that exercises what the core offers every game (pbem.core.game):
three players who give their orders for one phase at once, a choice each player seals in turn 1
and opens in turn 2, and a decision per player, all pending at once, answered with a structured
choice the game validates.

Turn N has one phase, ``play``, for every player at once: each sends ``{phase: play, bet: 1..3}``
(in turn 1 also ``seal`` of ``secret-<player>``, in turn 2 its ``open``). Then each player rolls a
die (label ``roll-<player>``); score = bet + die (+ the opened secret in turn 2). Every player
then splits the score into ``{attack: x, defend: y}`` (x + y = score): a decision each, all
pending at once. The player with the best attack - next player's defend gets a point.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.errors import Issue
from pbem.core.game import Game, NeedDecision, PhaseOrdersInvalid, PhaseRun, Submission

PLAYERS = ("amber", "blue", "cyan")


class Ruleset:
    def __init__(self, docs: dict[str, Any], digest: str) -> None:
        self.docs, self.digest = docs, digest
        self.id, self.version = "toy", "1"
        sc = docs["scenario"]
        self.scenario_id = sc["id"]
        self.last_turn = int(sc["turns"]["last"])

        class Play:
            players = tuple(p["id"] for p in sc["play"]["players"])
        self.play = Play()

    def provisional_items(self) -> list[Any]:
        return []

    def turn_date(self, turn: int) -> str:
        return f"round {turn}"


class ToyGame(Game[Ruleset]):   # typed against the seam: every hook's rs is a Ruleset
    id = "toy"
    title = "Toy duel"
    data_root = Path(__file__).resolve().parent
    scenario_dir = "scenarios"
    scenario_schema = ""
    standing_keys = {"split": ("ask", "auto")}
    auto_standing = {"split": "auto"}
    # what the core needs of a game (pbem.core.game.Game's declarations): the CLI's help shows them
    roles = PLAYERS
    status = "the whole duel"
    option_help = {"long": "a third round"}
    standing_help = {"split": "how a score is split into attack and defend"}
    example_scenario = "toy-duel"
    example_standing = "amber:split=auto"

    def build(self, docs: dict[str, Any], digest: str) -> Ruleset:
        return Ruleset(docs, digest)

    def new_state(self, rs: Ruleset, *, campaign: str, players: dict[str, Any], commitment: str | None, algorithm: str,
                  options: dict[str, Any], engine_version: str, standing: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"schema": "pbem/state/v1", "game": "toy", "campaign": campaign, "scenario": rs.scenario_id,
                "ruleset": {"id": rs.id, "version": rs.version, "digest": rs.digest}, "engine": engine_version,
                "dice": {"algorithm": algorithm, "commitment": commitment}, "players": dict(players),
                "options": {k: True for k in options if k in self.option_help}, "step": 0, "previous": None, "turn": 1, "phase": "play",
                "awaiting": [{"player": p, "for": "orders"} for p in sorted(players)],
                "standing": {p: dict(standing or {}) for p in sorted(players)}, "pending": [], "result": None,
                "scores": {p: 0 for p in sorted(players)}, "points": {p: 0 for p in sorted(players)}}

    def acting_players(self, rs: Ruleset, state: dict[str, Any], phase: str | None = None) -> list[str]:
        return list(PLAYERS) if state["phase"] != "end" else []

    def orderable_phases(self, rs: Ruleset, state: dict[str, Any], player: str) -> list[str]:
        return ["play"]

    def check_orders(self, rs: Ruleset, state: dict[str, Any], sub: Submission) -> list[Issue]:
        out = []
        for i, ph in enumerate(sub.doc.get("phases") or []):
            if ph.get("phase") != "play":
                out.append(Issue("TOY-PHASE", f"no phase {ph.get('phase')!r}", path=("phases", i, "phase")))
            if ph.get("bet") not in (1, 2, 3):
                out.append(Issue("TOY-BET", "bet 1, 2 or 3", path=("phases", i, "bet"), text=str(ph.get("bet"))))
        mine = f"secret-{sub.player}"
        if state["turn"] == 1 and not any(e["id"] == mine for e in sub.doc.get("seal") or []):
            out.append(Issue("TOY-SEAL", f"turn 1: seal your secret number as {mine}", path=("seal",)))
        if state["turn"] == 2 and not any(e["id"] == mine for e in sub.doc.get("open") or []):
            out.append(Issue("TOY-OPEN", f"turn 2: open {mine}", path=("open",)))
        return out

    def check_choice(self, rs: Ruleset, decision: dict[str, Any], choice: Any) -> str | None:
        if not isinstance(choice, dict) or set(choice) != {"attack", "defend"} \
                or not all(isinstance(v, int) and v >= 0 for v in choice.values()):
            return "the choice is {attack: N, defend: N}"
        if choice["attack"] + choice["defend"] != decision["context"]["score"]:
            return f"attack + defend must make the score, {decision['context']['score']}"
        return None

    def run_phase(self, run: PhaseRun[Ruleset]) -> None:
        st = run.state
        scores: dict[str, int] = {}
        for p in PLAYERS:
            o = run.orders[p]
            bet = o.get("bet", 1)
            bonus = 0
            if st["turn"] == 2:
                opened = run.opened.get(f"secret-{p}") or (st.get("sealed", {}).get(f"secret-{p}", {}).get("opened") or {})
                if not opened:
                    raise PhaseOrdersInvalid([Issue("TOY-OPEN", f"the {p} player's secret is not opened")])
                bonus = int(opened["choice"])
            scores[p] = bet + run.dice.roll(f"roll-{p}", 6) + bonus
        st["scores"] = scores
        splits: dict[str, Any] = {}
        asks: list[dict[str, Any]] = []
        for p in PLAYERS:
            did = f"t{st['turn']:02d}.split.{p}"
            if did in run.answers:
                splits[p] = run.answers[did]
            elif p in run.auto_players or st["standing"].get(p, {}).get("split") == "auto":
                splits[p] = {"attack": scores[p], "defend": 0}
            else:
                asks.append({"id": did, "player": p, "kind": "split", "turn": st["turn"], "phase": "play",
                             "prompt": f"split your score {scores[p]} into attack and defend",
                             "choice_schema": {"type": "object"}, "context": {"score": scores[p]}})
        if asks:
            raise NeedDecision(asks)
        best = max(PLAYERS, key=lambda p: (splits[p]["attack"] - splits[PLAYERS[(PLAYERS.index(p) + 1) % 3]]["defend"], p))
        st["points"][best] += 1
        run.events.append({"type": "toy-point", "turn": st["turn"], "phase": "play", "player": best, "splits": splits})

    def advance(self, rs: Ruleset, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        if state["turn"] >= rs.last_turn + (1 if state["options"].get("long") else 0):
            state["phase"] = "end"
            top = max(state["points"].values())
            state["result"] = {"winners": sorted(p for p, v in state["points"].items() if v == top)}
            events.append({"type": "game-over", "turn": state["turn"], "phase": "play", **state["result"]})
        else:
            state["turn"] += 1

    def order_template(self, rs: Ruleset, state: dict[str, Any], player: str, *, schema_ref: str, state_file: str) -> str:
        return f"# toy orders of {player}\nschema: pbem/orders/v1\ngame: toy\ncampaign: {state['campaign']}\nplayer: {player}\nturn: {state['turn']}\nstate: {state['hash']}\n"

    def describe_event(self, rs: Ruleset, ev: dict[str, Any]) -> list[str]:
        return [f"{ev['type']}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type",))]


GAME = ToyGame()
