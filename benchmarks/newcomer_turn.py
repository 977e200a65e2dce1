#!/usr/bin/env python3
"""The newcomer's turn, counted in round trips: a three-player BlitzWAR campaign with hash-chain
dice (protocol 2) and signed files, played by mail with the commands a player is given, whose
Axis first turn is written as a newcomer writes it, and counted: archive steps, mails in (the
files the game master adjudicates: orders, answers, signed reveals) and mails out (the mails
``pbem adjudicate --mail`` writes, one to every player a step).

The Axis file of turn 1 (:func:`newcomer_orders`): blitz attacks on the Polish stacks, each with
``advance: all`` and ``exploit`` for each armour counter of the attack (on into the Polish zone
behind, 16.4, 17.3), and air missions, one of them over a zone the Allied air can reach, so
that the Allies may intercept it (13.2). No standing order beyond the defaults: every other
decision is answered by its owner in an answer file (the first legal choice; an advance: the
first that moves), the answer files of one round sent together, as a game master who collects
them adjudicates them.

Everyone else sends the template as it is (the card phases of turn 1). Every file is signed
(``pbem sign``) and sent in a mail from its player; every links step is answered by every asked
player with ``pbem chain reveal ROLE.chain MAIL.eml --key`` from the mail pbem wrote to them.

The same script runs on older code (copied into its checkout, it imports the pbem beside it):
the "before" figure of docs/player.md is this script run on the code before the turn was cut
down. Deterministic: published demo keys and chains, no clock, no randomness.

Usage::

    python benchmarks/newcomer_turn.py [--attempt N] [--dice chain|gm] [--json] [--keep DIR]
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# the command line in-process, its failures (Stop), a player's mail and the mails without their
# picture: the same as the chain example's tool (tools/make_blitzwar_chain_example.py), whose seeds differ
from tools.make_blitzwar_chain_example import Stop, mail_from, must, no_map_pictures, pbem  # noqa: E402

SEED_PHRASE = "pbem newcomer's turn: published demo keys and chains, never use for a real game"
PLAYERS = {"axis": ("Anna", "anna@example.org"), "allies": ("Ben", "ben@example.org"), "ussr": ("Chen", "chen@example.org")}
GM = "gm@example.org"
CHAIN_LENGTH = 40
MAX_STEPS = 40

# The newcomer's Axis turn 1 (phases axis.4-9): blitz attacks on the Polish stacks with every
# survivor advancing and the armour going on (exploit), one air unit over the first blitz and
# one over the Saar front (in reach of the French air: the Allies may intercept it)
ATTACKS = [
    # (phase, target, attacking counters, {armour counter: zones it goes on into})
    ("axis.8.blitz", "krakow", ["ger-c1-2", "ger-c2-1", "ger-i2-2"], {"ger-c1-2": ["lwow"], "ger-c2-1": ["lwow"]}),
    ("axis.8.blitz", "poznan", ["ger-c1-1", "ger-i2-1", "ger-i3-2"], {}),
    ("axis.9.combat", "warsaw", ["ger-i3-1"], {}),
]
AIR = [("ger-a1-3", "krakow"), ("ger-a1-9", "nancy")]


def seed(kind: str, player: str, attempt: int) -> str:
    return hashlib.sha256(f"{SEED_PHRASE}/{attempt}/{kind}/{player}".encode()).hexdigest()


def secrets(folder: Path, attempt: int) -> dict[str, dict]:
    """What ``pbem key new`` and ``pbem chain new`` write for each player, from demo seeds."""
    from pbem.core.chain import CHAIN_SCHEMA, link
    from pbem.core.signing import key_file_text, public_of
    from pbem.core.yamlio import dump_yaml
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for p in PLAYERS:
        priv = seed("key", p, attempt)
        (folder / f"{p}.key").write_text(key_file_text(p, priv), "utf-8")
        s = seed("chain", p, attempt)
        head = link(s, CHAIN_LENGTH, 0)
        doc = {"schema": CHAIN_SCHEMA, "player": p, "length": CHAIN_LENGTH, "seed": s, "head": head}
        (folder / f"{p}.chain").write_text(dump_yaml(doc, header="pbem hash chain: SECRET"), "utf-8")
        out[p] = {"key": folder / f"{p}.key", "chain": folder / f"{p}.chain", "public": public_of(priv), "head": head}
    return out


def fill(tpl: str, phase: str, key: str, lines: list[str]) -> str:
    """The template with ``key: []`` of ``phase`` (or, where the template has no such line, a new
    line after the phase's first entry) replaced by ``lines``, as a player fills it in."""
    rows = tpl.splitlines()
    at = rows.index(next(r for r in rows if r.startswith(f"  - phase: {phase}")))
    end = next((i for i in range(at + 1, len(rows)) if not rows[i].startswith("    ")), len(rows))
    i = next((i for i in range(at + 1, end) if rows[i].startswith(f"    {key}: []")), None)
    if i is None:
        i = next(i for i in range(at + 1, end) if not rows[i].lstrip().startswith("#"))
        rows[i + 1:i + 1] = [f"    {key}:"] + lines
    else:
        rows[i:i + 1] = [f"    {key}:"] + lines
    return "\n".join(rows) + "\n"


def newcomer_orders(tpl: str) -> str:
    """The Axis file: the template, phases 5, 7, 8 and 9 filled in as a newcomer fills them."""
    text = fill(tpl, "axis.5.air", "air", [f"      - {{counter: {c}, to: {z}}}" for c, z in AIR])
    text = fill(text, "axis.7.movement", "activate", [f"      - {{counter: {c}}}" for _, _, cs, _ in ATTACKS for c in cs])
    for phase in ("axis.8.blitz", "axis.9.combat"):
        attacks = []
        for ph, z, cs, ex in ATTACKS:
            if ph == phase:
                attacks += [f"      - target: {z}", f"        counters: [{', '.join(cs)}]", "        advance: all"]
                if ex:
                    attacks.append("        exploit: {" + ", ".join(f"{c}: [{', '.join(p)}]" for c, p in ex.items()) + "}")
        text = fill(text, phase, "attacks", attacks)
    return text


def answer_file(tpl: str, pending: list[dict], player: str) -> str:
    """The answer file from the template: the first legal choice (an advance: the first that moves)."""
    mine = [d for d in pending if d["player"] == player]
    marker = "    choice: ''   # write one of the legal choices"
    chunks = tpl.split(marker)
    if len(chunks) != len(mine) + 1:
        raise Stop(f"the answer template for {player} holds {len(chunks) - 1} choices, the state {len(mine)}:\n{tpl}")
    out = chunks[0]
    for d, rest in zip(mine, chunks[1:]):
        opts = d["options"]
        pick = next((o for o in opts if o not in ("none", "stay")), opts[0]) if d.get("kind") == "advance" else opts[0]
        out += f"    choice: {json.dumps(pick)}   # the first legal choice" + rest
    return out


class Game:
    def __init__(self, camp: Path, work: Path, keys: dict, log) -> None:
        self.camp, self.work, self.keys, self.log = camp, work, keys, log
        self.outbox = work / "outbox"
        self.inbox = work / "inbox"
        self.inbox.mkdir(parents=True)
        self.n = 0
        self.mails_in = 0

    def show(self) -> dict:
        return json.loads(must((0,), "show", self.camp, "--json"))

    def step_no(self) -> int:
        return max(int(p.name) for p in (self.camp / "steps").iterdir() if p.name.isdigit())

    def mails_out(self) -> int:
        return len(list(self.outbox.glob("*.eml"))) if self.outbox.exists() else 0

    def template(self, player: str) -> str:
        self.n += 1
        t = self.work / f"tpl-{self.n}.yaml"
        must((0,), "orders", "template", self.camp, "--player", player, "-o", t)
        return t.read_text("utf-8")

    def signed_mail(self, player: str, text: str, what: str) -> Path:
        self.n += 1
        f = self.work / f"{player}-{self.n:03d}.yaml"
        # the template's schema comment names the checkout's own folder: the same line wherever
        # the script runs, or the file's bytes (whose receipt keys the dice) and the dice differ
        f.write_text(re.sub(r"(?m)^(# yaml-language-server: \$schema=)\S*/schemas/", r"\1file:///pbem/schemas/", text), "utf-8")
        must((0,), "sign", f, "--key", self.keys[player]["key"])
        return mail_from(player, f, self.inbox / f"{self.n:03d}-from-{player}.eml", what)

    def adjudicate(self, mails: list[Path], what: str) -> None:
        for m in mails:
            code, out = pbem("validate", self.camp, m)
            if code != 0:
                raise Stop(f"pbem validate refuses {what} ({m.name}, exit {code}):\n{out}")
        self.mails_in += len(mails)
        must((0, 5, 6), "adjudicate", self.camp, *mails, "--mail", self.outbox)
        self.log(f"step {self.step_no():03d}: {what}")

    def round(self, sh: dict) -> None:
        """One round: the links asked, else the answers asked, else the orders awaited."""
        k = self.step_no()
        links = [a["player"] for a in sh["awaiting"] if a.get("for") == "links"]
        if links:
            args: list = []
            for p in links:
                mail = self.outbox / f"step-{k:03d}-to-{p}.eml"
                r = self.work / f"reveal-{p}-{k + 1:03d}.yaml"
                must((0,), "chain", "reveal", self.keys[p]["chain"], mail, "-o", r, "--key", self.keys[p]["key"])
                args.append(mail_from(p, r, self.inbox / f"reveal-{k + 1:03d}-from-{p}.eml", f"my link for step {k:03d}"))
            self.mails_in += len(args)
            must((0, 5, 6), "adjudicate", self.camp, *[x for a in args for x in ("--reveal", a)], "--mail", self.outbox)
            self.log(f"step {self.step_no():03d}: links of {', '.join(links)}")
            return
        if sh["pending"]:
            asked = sorted({d["player"] for d in sh["pending"]})
            mails = [self.signed_mail(p, answer_file(self.template(p), sh["pending"], p), "my answer") for p in asked]
            self.adjudicate(mails, "answers of " + ", ".join(f"{p} ({', '.join(d['id'] for d in sh['pending'] if d['player'] == p)})" for p in asked))
            return
        aw = [a["player"] for a in sh["awaiting"] if a.get("for") == "orders"]
        if not aw:
            raise Stop(f"nothing awaited and no decision pending: {sh}")
        p = aw[0]
        tpl = self.template(p)
        text = newcomer_orders(tpl) if p == "axis" and sh["phase"].startswith("axis.") else tpl
        self.adjudicate([self.signed_mail(p, text, f"my orders for turn {sh['turn']}")], f"orders of {p} for {sh['phase']}")


@contextlib.contextmanager
def dice_key(attempt: int):
    """``--dice gm``: the game master's dice key from the demo seed (``pbem new`` draws one)."""
    from pbem.core import actions
    real = actions.new_key
    actions.new_key = lambda: seed("dice", "gm", attempt)
    try:
        yield
    finally:
        actions.new_key = real


def play(attempt: int = 1, keep: Path | None = None, log=lambda *a: None, dice: str = "chain") -> dict:
    """Plays turn 1 to the end of the Axis phases; returns the Axis turn's counts:
    {steps, mails_in, mails_out, log}. ``dice``: ``chain`` (the players' hash chains) or ``gm``
    (the game master's key: no links steps)."""
    work = Path(tempfile.mkdtemp(prefix="pbem-newcomer-"))
    try:
        keys = secrets(work / "secrets", attempt)
        camp = work / "game"
        args = ["new", camp, "--scenario", "blitzwar-1939", "--id", "newc", "--title", "The newcomer's turn",
                "--dice", dice, "--gm", GM]
        for p, (name, addr) in PLAYERS.items():
            args += ["--player", f"{p}={name}:{addr}", "--player-key", f"{p}={keys[p]['public']}"]
            args += ["--commit", f"{p}={keys[p]['head']}"] if dice == "chain" else []
        with dice_key(attempt):
            must((0,), *args)
        lines: list[str] = []
        g = Game(camp, work, keys, log=lambda s: (lines.append(s), log(s)))
        must((0,), "mail", camp, "--step", "0", "-o", g.outbox)
        start = None
        with no_map_pictures():
            for _ in range(MAX_STEPS):
                sh = g.show()
                axis_turn = sh["turn"] == 1 and sh["phase"].startswith("axis.")
                if start is None and axis_turn and not sh["pending"] and not any(a.get("for") == "links" for a in sh["awaiting"]):
                    start = (g.step_no(), g.mails_in, g.mails_out(), len(lines))
                if start is not None and not axis_turn:
                    break
                g.round(sh)
            else:
                raise Stop(f"{MAX_STEPS} rounds and the Axis turn 1 is not over")
        if start is None:
            raise Stop("the Axis turn 1 never came")
        if keep:
            shutil.copytree(camp, keep, dirs_exist_ok=True)
        return {"steps": g.step_no() - start[0], "mails_in": g.mails_in - start[1], "mails_out": g.mails_out() - start[2],
                "log": lines[start[3]:]}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attempt", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--dice", choices=("chain", "gm"), default="chain")
    a = ap.parse_args(argv)
    try:
        r = play(a.attempt, a.keep, log=(lambda s: None) if a.json else print, dice=a.dice)
    except Stop as e:
        print(f"STOPPED: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"the Axis' first turn: {r['steps']} archive steps, {r['mails_in']} mails in, {r['mails_out']} mails out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
