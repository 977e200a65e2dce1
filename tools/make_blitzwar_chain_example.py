#!/usr/bin/env python3
"""Make examples/blitzwar-chain-signed: a three-player BlitzWAR campaign (turns 1-2) played by
mail as new users would play it (issue 17, "Done when"): dice WITHOUT a referee (hash chains,
protocol 2), every file signed by its player (Ed25519), one player missing for a stretch.

What the script does, step by step, only with the commands the README gives:

* each player makes a signing key and a hash chain (here from published demo seeds, so that
  the example can be made again byte for byte; a real player runs ``pbem key new`` and
  ``pbem chain new``, whose secrets never leave their machine);
* ``pbem new --dice chain --commit ROLE=HEAD --player-key ROLE=PUBLIC`` with the players'
  e-mails and ``--missing-orders-default ussr=no-orders``; ``pbem mail --step 0`` mails the start;
* every order or answer file is written from ``pbem orders template``, signed (``pbem sign``),
  put into an e-mail from the player's own address (Python's email package, the file
  attached), checked (``pbem validate MAIL.eml``) and adjudicated (``pbem adjudicate
  MAIL.eml --mail outbox``);
* when a step archives files whose dice need links, each player saves the mail pbem wrote to
  them and reveals from it (``pbem chain reveal ROLE.chain MAIL.eml -o reveal.yaml --key``),
  mails the signed reveal, and ``pbem adjudicate --reveal MAIL.eml ...`` carries the files out;
* decisions are answered by their owner (the first legal choice; an advance: the first one
  that moves);
* the USSR player sends nothing from its own phases of turn 1 to the shared phases of turn 2:
  ``pbem adjudicate --missing-orders`` passes those phases (no die is rolled then: an absent
  player whose link is asked for stalls a hash-chain game); then the USSR is back;
* the Axis plan is tools/make_blitzwar_example.py's (attack the Polish stacks);
* at the end ``pbem replay`` must pass and ``pbem head --check`` must match the last mail of
  every player.

The game master's mails (the outbox, not part of the example) are written without their map
picture (:func:`no_map_pictures`): they are read for their text only, and the picture was most
of the make time.

The keys and chains are published in the example's private/ (demo values: never use them for
a real game). Seed attempts 1, 2, ... are tried in order until the campaign shows a decision
answered in mid-phase followed by fresh links for the dice after it (protocol 2, issue 17 way 3).

Usage::

    python tools/make_blitzwar_chain_example.py             # writes examples/blitzwar-chain-signed (must not exist)
    python tools/make_blitzwar_chain_example.py --replace   # replaces it
    python tools/make_blitzwar_chain_example.py --check     # make it in a temp dir, compare with examples/
    python tools/make_blitzwar_chain_example.py --out DIR   # somewhere else
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import re
import shutil
import sys
import tempfile
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402
from tools.example_output import check_or_write  # noqa: E402

_spec = importlib.util.spec_from_file_location("make_blitzwar_example", ROOT / "tools" / "make_blitzwar_example.py")
bw = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("make_blitzwar_example", bw)
_spec.loader.exec_module(bw)

EXAMPLE = ROOT / "examples" / "blitzwar-chain-signed"
CAMPAIGN_ID = "bwsig"
SEED_PHRASE = "pbem example blitzwar-chain-signed: published demo keys and chains, never use for a real game"
CHAIN_LENGTH = 20
PLAYERS = {"axis": ("Anna", "anna@example.org"), "allies": ("Ben", "ben@example.org"), "ussr": ("Chen", "chen@example.org")}
GM = "gm@example.org"
ABSENT = "ussr"
LAST_TURN = 2
MAX_ATTEMPTS = 12
MAX_STEPS = 60


class Stop(Exception):
    """The campaign cannot be made as wanted: why, in words."""


def pbem(*args) -> tuple[int, str]:
    res = CliRunner().invoke(pbem_cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def must(codes: tuple[int, ...], *args) -> str:
    code, out = pbem(*args)
    if code not in codes:
        raise Stop(f"pbem {' '.join(str(a) for a in args)}: exit {code}\n{out}")
    return out


def seed(kind: str, player: str, attempt: int) -> str:
    return hashlib.sha256(f"{SEED_PHRASE}/{attempt}/{kind}/{player}".encode()).hexdigest()


def secrets(folder: Path, attempt: int) -> dict[str, dict]:
    """Each player's key file and chain file (what `pbem key new` and `pbem chain new` write,
    from the demo seeds): player -> {key, chain, public, head}."""
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
        (folder / f"{p}.chain").write_text(dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"), "utf-8")
        out[p] = {"key": folder / f"{p}.key", "chain": folder / f"{p}.chain", "public": public_of(priv), "head": head}
    # the neutral witness (issue 29): a chain only, whose link keys any die rolled with missing orders
    s = seed("chain", "witness", attempt)
    doc = {"schema": CHAIN_SCHEMA, "player": "witness", "length": CHAIN_LENGTH, "seed": s, "head": link(s, CHAIN_LENGTH, 0)}
    (folder / "witness.chain").write_text(dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"), "utf-8")
    out["witness"] = {"chain": folder / "witness.chain", "head": doc["head"]}
    return out


def mail_from(player: str, attachment: Path, out: Path, subject: str) -> Path:
    """The player's e-mail to the game master with ``attachment``, as a mail client writes it."""
    name, addr = PLAYERS[player]
    m = EmailMessage()
    m["From"] = f"{name} <{addr}>"
    m["To"] = GM
    m["Subject"] = subject
    m.set_content(f"Hello,\n\n{subject}: the signed file is attached.\n\n{name}\n")
    data = attachment.read_bytes()
    m.add_attachment(data, maintype="application", subtype="yaml", filename=attachment.name)
    m.set_boundary("pbem-example-" + hashlib.sha256(data).hexdigest()[:24])   # no random boundary: reproducible
    out.write_bytes(bytes(m))
    return out


def body_of(mail: Path) -> str:
    return BytesParser(policy=policy.default).parsebytes(mail.read_bytes()).get_body(("plain",)).get_content()


class Game:
    def __init__(self, camp: Path, work: Path, keys: dict, log) -> None:
        self.camp, self.work, self.keys, self.log = camp, work, keys, log
        self.outbox = work / "outbox"
        self.inbox = camp.parent / (camp.name + ".inbox")     # the players' mails, published with the example
        self.inbox.mkdir()
        self.steps: list[dict] = []
        self.n = 0

    def step_no(self) -> int:
        return max(int(p.name) for p in (self.camp / "steps").iterdir() if p.name.isdigit())

    def note(self, sh: dict, player: str, kind: str, what: str) -> None:
        self.steps.append({"step": self.step_no(), "turn": sh["turn"], "phase": sh["phase"], "player": player, "kind": kind, "what": what})
        self.log(f"step {self.step_no():03d} t{sh['turn']} {sh['phase']}: {player} {kind} ({what})")

    def send(self, player: str, text: str, what: str) -> str:
        """Sign the file, mail it, validate and adjudicate the mail (mails out to the outbox)."""
        self.n += 1
        f = self.work / f"{player}-{CAMPAIGN_ID}-{self.step_no() + 1:03d}.yaml"
        f.write_text(bw.archived(text), "utf-8")
        must((0,), "sign", f, "--key", self.keys[player]["key"])
        mail = mail_from(player, f, self.inbox / f"step-{self.step_no() + 1:03d}-from-{player}.eml", f"{CAMPAIGN_ID}: {what}")
        code, out = pbem("validate", self.camp, mail)
        if code != 0:
            raise Stop(f"pbem validate refuses {what} ({mail.name}, exit {code}):\n{out}\n--- the file:\n{f.read_text('utf-8')}")
        return must((0, 5, 6), "adjudicate", self.camp, mail, "--mail", self.outbox)

    def reveal(self, sh: dict) -> None:
        """Every asked player saves pbem's mail to them, reveals from it (signed) and mails the
        reveal; then anyone carries the archived files out."""
        k = self.step_no()
        args, who = [], []
        for a in sh["awaiting"]:
            if a.get("for") != "links":
                continue
            p = a["player"]
            if p == "witness":       # missing orders rolled a die: the witness reveals (no signing key, no mail)
                r = self.work / f"reveal-witness-{k + 1:03d}.yaml"
                must((0,), "chain", "reveal", self.keys[p]["chain"], self.camp, "-o", r)
                args += ["--reveal", r]
                who.append(p)
                continue
            if p == ABSENT and self.absent_now(sh):
                raise Stop(f"step {k:03d} asks for the link of the {p} player, who is away: the game would stall")
            mail = self.outbox / f"step-{k:03d}-to-{p}.eml"
            if not re.search(rf"pbem chain reveal {p}\.chain THIS\.eml -o reveal-{p}-\d{{3}}\.yaml --key {p}\.key", body_of(mail)):
                raise Stop(f"the mail to {p} of step {k:03d} does not say how to reveal:\n{body_of(mail)}")
            r = self.work / f"reveal-{p}-{k + 1:03d}.yaml"
            must((0,), "chain", "reveal", self.keys[p]["chain"], mail, "-o", r, "--key", self.keys[p]["key"])
            args += ["--reveal", mail_from(p, r, self.inbox / f"step-{k + 1:03d}-from-{p}.eml", f"{CAMPAIGN_ID}: my link for step {k:03d}")]
            who.append(p)
        must((0, 5, 6), "adjudicate", self.camp, *args, "--mail", self.outbox)
        self.note(sh, ", ".join(who), "links", f"links of {', '.join(who)} for the files archived in step {k:03d}")

    def absent(self, sh: dict) -> bool:
        """The USSR player sends nothing from its own turn 1 to the shared phases of turn 2 (no
        die is rolled then, so no link of theirs is asked for: an absent player whose link is
        asked stalls a hash-chain game, README "Dice without a referee")."""
        aw = [a["player"] for a in sh["awaiting"] if a.get("for") == "orders"]
        return aw == [ABSENT] and self.absent_now(sh)

    def play(self) -> None:
        from pbem.core.data import load_ruleset
        _, world = load_ruleset("blitzwar-1939")
        planned: list[dict] = []
        while True:
            sh = bw.show(self.camp)
            if sh["turn"] > LAST_TURN and sh["phase"] == "1.diplomacy" and not sh.get("received") and not sh["pending"]:
                return
            if len(self.steps) >= MAX_STEPS:
                raise Stop(f"{len(self.steps)} steps and turn {LAST_TURN} is not over: turn {sh['turn']} {sh['phase']}")
            if any(a.get("for") == "links" for a in sh["awaiting"]):
                self.reveal(sh)
                continue
            if sh["pending"]:
                player = sh["pending"][0]["player"]
                tpl = bw.template(self.camp, player, self.work / f"tpl-{self.n}.yaml")
                ids = [d["id"] for d in sh["pending"] if d["player"] == player]
                self.send(player, bw.answer_file(tpl, sh["pending"], player), f"my answer to {', '.join(ids)}")
                self.note(sh, player, "answer", ", ".join(ids))
                continue
            if self.absent(sh):
                must((0, 5, 6), "adjudicate", self.camp, "--missing-orders", "--mail", self.outbox)
                self.note(sh, ABSENT, "missing", "nothing from the USSR player: pbem adjudicate --missing-orders")
                continue
            aw = [a["player"] for a in sh["awaiting"] if a.get("for") == "orders" and not (a["player"] == ABSENT and self.absent_now(sh))]
            if not aw:
                raise Stop(f"nothing awaited and no decision pending: {sh}")
            player = aw[0]
            tpl = bw.template(self.camp, player, self.work / f"tpl-{self.n}.yaml")
            phase = sh["phase"]
            if player == "axis" and phase == "axis.9.combat":
                phases, what = bw.axis_combat_again(bw.state_of(self.camp), world, planned)
                text = bw.orders_file(tpl, phases, what)
            elif player == "axis" and phase.startswith("axis."):
                phases, what = bw.axis_plan(sh["turn"], bw.state_of(self.camp), world)
                planned = phases[-1]["attacks"]
                text = bw.orders_file(tpl, phases, what)
            else:
                what, text = "the template as it is (default set-up, card picks and placement)", tpl
            self.send(player, text, f"my orders for turn {sh['turn']}")
            self.note(sh, player, "orders", what)

    def absent_now(self, sh: dict) -> bool:
        return ((sh["turn"] == 1 and sh["phase"].startswith(f"{ABSENT}."))
                or (sh["turn"] == 2 and sh["phase"] in ("1.diplomacy", "2.cards", "3.replacements")))


@contextlib.contextmanager
def no_map_pictures():
    """The game master's mails to the outbox without the map picture: the example keeps the
    players' mails only (mail/), the outbox's are read for their text (the head, the links
    asked), and drawing the PNG of every step was most of the make time (about 4 s a step).
    Otherwise each mail is as `pbem adjudicate --mail` writes it, its attachments less the
    picture (the texts read from it are the same)."""
    from pbem.core import mail
    real = mail._pictures
    mail._pictures = lambda *a, **k: []
    try:
        yield
    finally:
        mail._pictures = real


def shows_fresh_links_after_an_answer(steps: list[dict]) -> bool:
    return any(a["kind"] == "answer" and b["kind"] == "links" and b["step"] == a["step"] + 1 for a, b in zip(steps, steps[1:]))


def make(out: Path, log=print) -> tuple[list[dict], int]:
    for attempt in range(1, MAX_ATTEMPTS + 1):
        for p in (out, out.parent / (out.name + ".inbox")):
            if p.exists():
                shutil.rmtree(p)
        work = Path(tempfile.mkdtemp(prefix="pbem-bwsig-"))
        try:
            keys = secrets(work / "secrets", attempt)
            args = ["new", out, "--scenario", "blitzwar-1939", "--id", CAMPAIGN_ID, "--title",
                    "BlitzWAR 1939: hash-chain dice and signed files, by mail", "--dice", "chain", "--gm", GM,
                    "--missing-orders-default", f"{ABSENT}=no-orders", "--witness", f"Wendy={keys['witness']['head']}"]
            for p, (name, addr) in PLAYERS.items():
                args += ["--player", f"{p}={name}:{addr}", "--commit", f"{p}={keys[p]['head']}", "--player-key", f"{p}={keys[p]['public']}"]
            must((0,), *args)
            game = Game(out, work, keys, log=lambda *a: None)
            must((0,), "mail", out, "--step", "0", "-o", game.outbox)     # the start, to every player
            game.play()
            if not shows_fresh_links_after_an_answer(game.steps):
                log(f"seed attempt {attempt}: no decision followed by fresh links; next seeds")
                continue
            text = must((0,), "replay", out)
            if "REPLAY OK" not in text or "signatures: " not in text:
                raise Stop(f"pbem replay does not say OK with signatures checked:\n{text}")
            for p in PLAYERS:
                last = game.outbox / f"step-{game.step_no():03d}-to-{p}.eml"
                must((0,), "head", out, "--check", last)
            # publish the demo secrets (never for a real game) and the players' mails
            priv = out / "private"
            priv.mkdir(exist_ok=True)
            for p in PLAYERS:
                for kind in ("key", "chain"):
                    shutil.copyfile(keys[p][kind], priv / f"{p}.{kind}")
            shutil.move(str(game.inbox), str(out / "mail"))
            text = must((0,), "replay", out)
            if "REPLAY OK" not in text:
                raise Stop(f"pbem replay of the published folder fails:\n{text}")
            for s in game.steps:
                log(f"step {s['step']:03d} t{s['turn']} {s['phase']}: {s['player']} {s['kind']} ({s['what']})")
            return game.steps, attempt
        finally:
            shutil.rmtree(work, ignore_errors=True)
    raise Stop(f"no seed attempt 1-{MAX_ATTEMPTS} shows a decision followed by fresh links")


def readme(camp: Path, steps: list[dict], attempt: int) -> str:
    L = ["# BlitzWAR by mail: hash-chain dice and signed files (turns 1-2)", "",
         "Made by `tools/make_blitzwar_chain_example.py` (issue 17: tried as a new user would, a",
         "hash-chain BlitzWAR campaign with signed files runs by mail for two turns, one player",
         "missing, and replays). Three players, no referee: the dice come from the players' hash",
         "chains (`--dice chain`, protocol 2), every order, answer and reveal file is signed by its",
         "player (Ed25519, `pbem sign`) and came in an e-mail from the player's own address",
         "(`mail/`, the messages as the players sent them). The USSR player sent nothing from its",
         "own phases of turn 1 to the shared phases of turn 2 (`pbem adjudicate --missing-orders`,",
         "the default `no-orders` declared at `pbem new`), and was back for the Axis dice of turn 2.",
         "No die fell while it was away: a player absent when their link is asked for stalls a",
         "hash-chain game (the README's table: agree that a missing reveal forfeits). A witness,",
         "Wendy, is named at `pbem new` (`--witness`, issue 29): had a die fallen with the USSR",
         "away, her link would have keyed it with the present players', so that none of them could",
         "compute it before sending his file.", "",
         "`private/` holds the players' demo signing keys and chains (seed attempt "
         f"{attempt} of the",
         "script's published phrase): anyone can make the example again, byte for byte. In a real",
         "game each key and chain stays on its player's machine.", "",
         "Made again for issue 33 (a turn by mail in few round trips): the decisions of one attack",
         "are asked together where their options do not hang on an earlier answer (one answer file",
         "each player and attack), and the attack pbem makes to fight a blitz on keeps the blitz attack's `advance`,",
         "`losses` and `exploit` (17.1; the turn's combat record holds them, so the states and dice",
         "after such a blitz changed). Before, for issue 31, America became a port of the supply",
         "lines (7), which changed the ruleset's digest and every die.", "",
         "Check it:", "", "```sh",
         "pbem replay examples/blitzwar-chain-signed          # every state, report, roll, link and signature",
         "pbem head examples/blitzwar-chain-signed            # the archive's head after the last step",
         "python tools/make_blitzwar_chain_example.py --check  # make it again and compare",
         "```", "", "## Step by step", "",
         "| step | turn | phase | who | what |", "|---|---|---|---|---|"]
    for s in steps:
        what = {"orders": "orders (signed, by mail)", "answer": "answer to " + s["what"], "links": s["what"] + " (signed reveals, made from pbem's mail)",
                "missing": s["what"]}[s["kind"]]
        if s["kind"] == "orders" and s["phase"].startswith("axis."):
            what += ": " + s["what"]
        L.append(f"| {s['step']:03d} | {s['turn']} | {s['phase']} | {s['player']} | {what} |")
    L += ["", "What it shows:", "",
          "* links are asked for only where a die is rolled, after the files are archived (the step",
          "  before each `links` step waits with exit code 6); each reveal names the files' digest and",
          "  the archive's head, and was made by `pbem chain reveal ROLE.chain MAIL.eml` from the mail",
          "  pbem wrote to the player (no copy of the archive needed);",
          "* after a decision answered in mid-phase, the dice after it take fresh links, revealed once",
          "  the answer is archived (the answering player cannot try answers against known links);",
          "* the missing-orders default is accepted with hash chains;",
          "* `pbem replay` checks every file's signature against the public keys archived at",
          "  `pbem new` (`steps/000/campaign.json`), and every link against the committed heads.", ""]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--replace", action="store_true")
    a = ap.parse_args(argv)
    dest = a.out or EXAMPLE
    if dest.exists() and not (a.check or a.replace):
        print(f"{dest} exists: give --replace, or --check to compare", file=sys.stderr)
        return 64
    tmp = Path(tempfile.mkdtemp(prefix="pbem-make-bwsig-"))
    try:
        built = tmp / dest.name
        try:
            with no_map_pictures():
                steps, attempt = make(built, log=lambda *x: None)
        except Stop as e:
            print(f"STOPPED: {e}\nnothing was written to {dest}", file=sys.stderr)
            return 2
        (built / "README.md").write_text(readme(built, steps, attempt), "utf-8")
        print(f"made: {len(steps)} steps (seed attempt {attempt}); replay OK, heads match the mails")
        return check_or_write(dest, built, check=a.check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)



if __name__ == "__main__":
    sys.exit(main())
