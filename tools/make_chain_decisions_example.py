#!/usr/bin/env python3
"""Make examples/bfg-chain-decisions: a small Battle for Germany campaign (Historical scenario)
with dice WITHOUT a referee (hash chains, README "Dice without a referee") and several
mid-phase decisions (retreats, an Ex loss choice, advances) answered by answer files.

Why it exists (issue 8): a step that answers a decision must not reset the chain counter. In
this campaign order files and answer files alternate, so every order file after an answer
must use the NEXT link of each chain (link n for the n-th order file of the campaign), never a
link already published in the archive. The script plays the campaign the way the fixed system
must work and checks exactly that:

* every order file gets the reveals of link n = (order files so far) + 1 of both players,
  made by ``pbem chain reveal``; if pbem offers another link (the bug of issue 8: link 1 again
  after an answer), the script stops and says so, writing nothing into examples/;
* answer files (``pbem orders template`` with ``choice:`` filled in) bring no reveal;
* at the end ``pbem replay`` must pass, the archived reveal indices must be 1, 2, 3, ... with
  no link used twice, the decisions must include a retreat, an Ex loss choice and an advance,
  and no chain seed may appear in any archived file.

The chains are made from fixed seeds (derived below from SEED_PHRASE), so the example is
reproducible: running the script again gives the same archive byte for byte. The seeds and
chain files stay in a temporary folder, OUT of the archive; they are in this script only
because this is a demo (in a real game each seed stays on its player's machine).

The orders are the opening moves of examples/bfg-historical; attacks leave advances, retreats
and Ex losses to be decided (``advance: ask``, no ``retreats:``/``ex_losses:``) so that the
adjudication stops and the owner answers. Later orders depend on the dice, so each planned
move or attack that ``pbem validate`` refuses is dropped (reported) before adjudication.
Seed attempts 1, 2, ... are tried in order until the campaign shows all three decision kinds.

Usage::

    python tools/make_chain_decisions_example.py            # writes examples/bfg-chain-decisions
    python tools/make_chain_decisions_example.py --out DIR  # somewhere else (must not exist)
    python tools/make_chain_decisions_example.py --check    # make it in a temp dir, compare with examples/
"""
from __future__ import annotations

import argparse
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

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402
from tools.example_output import check_or_write  # noqa: E402

EXAMPLE = ROOT / "examples" / "bfg-chain-decisions"
CAMPAIGN_ID = "nogm-dec"
SEED_PHRASE = "pbem example bfg-chain-decisions: demo chains, never use for a real game"
CHAIN_LENGTH = 100
PLAYERS = {"soviet": "Anna:anna@example.org", "western": "Ben:ben@example.org"}
MAX_ATTEMPTS = 12

# One entry per order file: the player and, per phase, the planned orders (one flow mapping
# each, so that a refused one can be dropped by its line). Turn 1 of both sides, then the
# Soviet player-turn of turn 2.
PLAN: list[tuple[str, list[tuple[str, str, list[str]]]]] = [
    ("soviet", [
        ("soviet.movement", "moves", [
            "{unit: sov-1bf, to: '2326'}",
        ]),
        ("soviet.combat", "attacks", [
            "{target: '2525', units: [sov-8ga, sov-47, sov-65, pk-1], advance: ask}",
            "{target: '2424', units: [sov-1gt, sov-2gt], advance: none}",
            "{target: '2225', units: [sov-13, sov-1bf], advance: none}",
            "{target: '1925', units: [sov-38, sov-60, sov-1uf], advance: none}",
            "{target: '1122', units: [sov-3uf, sov-46, sov-6gt], advance: none}",
            "{target: '0818', units: [bg-1, bg-2], advance: none}",
        ]),
        ("west-german.movement", "moves", []),
        ("west-german.combat", "attacks", [
            # 12.2.1: two attacks on the Western Allies on turn 1
            "{target: '1801', units: [wg-5pz, wg-66, wg-7, wg-1], advance: none}",
            "{target: '0117', units: [wg-10, wg-76pz], advance: none}",
        ]),
    ]),
    ("western", [
        ("western-allied.movement", "moves", []),
        ("western-allied.combat", "attacks", [
            "{target: '2102', units: [us-19, us-7, us-5, us-18, br-30], advance: ask}",
            "{target: '2302', units: [br-12, br-8, br-1, ca-2, us-13], advance: none}",
            "{target: '1303', units: [fr-1, fr-2, us-21], advance: none}",
            "{target: '0214', units: [br-13, us-2], advance: none}",
        ]),
        ("east-german.movement", "moves", []),
        ("east-german.combat", "attacks", [
            "{target: '0818', units: [eg-2pz, eg-68], advance: none}",
        ]),
    ]),
    ("soviet", [
        ("soviet.movement", "moves", [
            "{unit: sov-13, to: '2324'}",
            "{unit: sov-8ga, to: '2324'}",
        ]),
        ("soviet.combat", "attacks", [
            "{target: '2323', units: [sov-2gt, sov-13, sov-8ga], advance: none}",
            "{target: '2223', units: [sov-52, sov-3gt], advance: none}",
            "{target: '2724', units: [sov-2sh, sov-65], advance: none}",
            # not attacked on turn 1, so most likely still there
            "{target: '2724', units: [sov-2sh], advance: ask}",
            "{target: '2824', units: [sov-2bf], advance: ask}",
            "{target: '1824', units: [sov-4uf], advance: ask}",
        ]),
        ("west-german.movement", "moves", []),
        ("west-german.combat", "attacks", []),
    ]),
]


class Stop(Exception):
    """The campaign cannot be made (as the fixed system must play it): why, in words."""


def seed_of(player: str, attempt: int) -> str:
    return hashlib.sha256(f"{SEED_PHRASE}/{attempt}/{player}".encode()).hexdigest()


def pbem(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(pbem_cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def _chain_file(folder: Path, player: str, attempt: int) -> tuple[Path, str]:
    from pbem.core.chain import CHAIN_SCHEMA, link
    from pbem.core.yamlio import dump_yaml
    seed = seed_of(player, attempt)
    head = link(seed, CHAIN_LENGTH, 0)
    doc = {"schema": CHAIN_SCHEMA, "player": player, "length": CHAIN_LENGTH, "seed": seed, "head": head}
    p = folder / f"{player}.chain"
    p.write_text(dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"), "utf-8")
    return p, seed


def _show(camp: Path) -> dict:
    code, out = pbem("show", camp, "--json")
    if code != 0:
        raise Stop(f"pbem show failed:\n{out}")
    return json.loads(out)


def _template(camp: Path, player: str, target: Path) -> str:
    code, out = pbem("orders", "template", camp, "--player", player, "-o", target)
    if code != 0:
        raise Stop(f"pbem orders template failed:\n{out}")
    # The template names the schema by a path from where it was written to this checkout's
    # schemas/; archived in steps/NNN/, the file names the campaign's own copy instead, so
    # that the example is the same from every checkout (and editors resolve it there).
    text = re.sub(r"(?m)\A# yaml-language-server: \$schema=\S*?([a-z-]+\.schema\.json)$",
                  r"# yaml-language-server: $schema=../../schemas/\1", target.read_text("utf-8"))
    # the files as archived, before the template's end mark and end line (issue 29) existed
    text = "".join(ln for ln in text.splitlines(keepends=True)
                   if not ln.startswith(("# pbem order file: it ends with", "# end of the order file")))
    target.write_text(text, "utf-8")
    return text


def _orders_text(header_from_template: str, player: str, turn: int, phases: list[tuple[str, str, list[str]]]) -> tuple[str, dict[int, tuple[int, int]]]:
    """The order file and, for each line holding a planned item, (phase index, item index)."""
    m = re.search(r"^state: *([0-9a-f]{64})", header_from_template, re.M)
    if not m:
        raise Stop("the order template has no state: line")
    L = [f"# Battle for Germany - campaign {CAMPAIGN_ID} - orders of the {player} player, turn {turn}",
         "# (written by tools/make_chain_decisions_example.py; decisions are left to be asked)",
         "schema: pbem/orders/v1", "game: bfg", f"campaign: {CAMPAIGN_ID}", f"player: {player}", f"turn: {turn}",
         f"state: {m.group(1)}", "phases:"]
    where = {}
    for pi, (phase, kind, items) in enumerate(phases):
        L.append(f"  - phase: {phase}")
        if not items:
            L.append(f"    {kind}: []")
            continue
        L.append(f"    {kind}:")
        for ii, it in enumerate(items):
            L.append(f"      - {it}")
            where[len(L)] = (pi, ii)
    return "\n".join(L) + "\n", where


def _write_orders(camp: Path, work: Path, n: int, player: str, phases, log) -> Path:
    header = _template(camp, player, work / f"template-{n}.yaml")
    turn = int(re.search(r"^turn: *(\d+)", header, re.M).group(1))
    phases = [(ph, kind, list(items)) for ph, kind, items in phases]
    spath = _current_state_file(camp)
    for _ in range(8):
        text, where = _orders_text(header, player, turn, phases)
        target = work / f"orders-{n}-{player}.yaml"
        target.write_text(text, "utf-8")
        code, out = pbem("validate", spath, target)
        if code == 0:
            return target
        bad = set()
        for line in out.splitlines():
            mm = re.match(rf"^{re.escape(str(target))}:(\d+)(?::\d+)?: error", line)
            if mm and int(mm.group(1)) in where:
                bad.add(where[int(mm.group(1))])
        if not bad:
            raise Stop(f"order file {n} ({player}, turn {turn}) is refused and no planned item can be dropped:\n{out}")
        for pi, ii in sorted(bad, reverse=True):
            log(f"    dropped (refused now): {phases[pi][2][ii]}")
            del phases[pi][2][ii]
    raise Stop(f"order file {n}: still refused after dropping items")


def _current_state_file(camp: Path) -> Path:
    last = sorted(p for p in (camp / "steps").iterdir() if p.name.isdigit())[-1]
    return next(p for p in sorted(last.glob("*.yaml")) if not p.name.startswith(("orders-", "reveal-")))


def _answer(camp: Path, work: Path, k: int, pending: list[dict]) -> Path:
    """The answer file of the first pending decision's player, every choice the first legal
    option (an advance: the first unit rather than none)."""
    player = pending[0]["player"]
    target = work / f"answer-{k}-{player}.yaml"
    text = _template(camp, player, target)
    mine = [d for d in pending if d["player"] == player]
    chunks = text.split("    choice: ''   # write one of the legal choices")
    if len(chunks) != len(mine) + 1:
        raise Stop(f"the answer template for {player} holds {len(chunks) - 1} choices, the state {len(mine)} decisions")
    out = chunks[0]
    for d, rest in zip(mine, chunks[1:]):
        opts = d["options"]
        pick = next((o for o in opts if o != "none"), opts[0]) if d["id"].endswith(".advance") else opts[0]
        out += f"    choice: {json.dumps(pick)}   # answered by the script: the first legal choice" + rest
    target.write_text(out, "utf-8")
    return target


def _one(awaiting) -> dict:
    """The awaited player of `pbem show --json` (a list of {player, for}; Battle for Germany
    awaits one player at a time)."""
    if isinstance(awaiting, list):
        return awaiting[0] if awaiting else {}
    return awaiting or {}


def play(out: Path, attempt: int, log=print) -> dict:
    """Play the campaign into the new folder ``out``; returns what it showed."""
    work = Path(tempfile.mkdtemp(prefix="pbem-chain-decisions-"))   # SECRET chain files: never in the archive
    try:
        chains, seeds = {}, {}
        for p in PLAYERS:
            chains[p], seeds[p] = _chain_file(work, p, attempt)
        # the example shows the first protocol (reveals given with the orders), as archived:
        # `pbem new` makes protocol 2 only (issue 29), so the campaign is started as pbem's own
        # tools re-make an archive of an earlier pbem, through the API (no copy of the
        # manifest in steps/000, and a pending phase's orders kept in the state, as archived: a
        # chain game's order files are public anyway; new campaigns name them by digest, issue 20)
        from pbem.core.actions import new_campaign
        from pbem.core.chain import load_chain_file
        players = {p: dict(zip(("name", "email"), who.split(":", 1))) for p, who in PLAYERS.items()}
        new_campaign(out, scenario="bfg-historical", campaign_id=CAMPAIGN_ID, players=players, options={},
                     title="Battle for Germany: dice without a referee, with decisions",
                     chain_heads={p: load_chain_file(chains[p])["head"] for p in PLAYERS},
                     chain_protocol=1, archive_manifest=False, resume_by_reference=False)
        links_used = 0
        decisions: list[str] = []
        steps: list[dict] = []
        k = 0
        i, n = 0, 0
        while i < len(PLAN):
            # answer every pending decision first (no reveal: an answer uses no new link)
            while True:
                st = _show(out)
                if not st["pending"]:
                    break
                k += 1
                ans = _answer(out, work, k, st["pending"])
                ids = [d["id"] for d in st["pending"] if d["player"] == st["pending"][0]["player"]]
                code, text = pbem("adjudicate", out, ans)
                if code not in (0, 5):
                    raise Stop(f"the answer to {', '.join(ids)} is refused (exit {code}):\n{text}")
                decisions += ids
                steps.append({"kind": "answer", "player": st["pending"][0]["player"], "decisions": ids})
                log(f"  step {len(steps):03d}: {st['pending'][0]['player']} answers {', '.join(ids)}")
            st = _show(out)
            aw = _one(st.get("awaiting"))
            phase = st.get("phase")
            player, phases = PLAN[i]
            names = [ph for ph, _, _ in phases]
            prev = PLAN[i - 1] if i else None
            if aw.get("for") != "orders":
                raise Stop(f"the game awaits {aw}, not orders")
            if aw.get("player") == player and (phase in names or phase.endswith(".replacement")):
                phases = phases[names.index(phase):] if phase in names else phases
                i += 1
            elif prev and aw.get("player") == prev[0] and phase in [ph for ph, _, _ in prev[1]]:
                # the player-turn's orders stopped at a phase whose orders no longer fit the
                # position (pbem asks for new orders for it): send the rest of the plan again
                player, phases = prev[0], prev[1][[ph for ph, _, _ in prev[1]].index(phase):]
            else:
                raise Stop(f"the plan's next order file is for the {player} player, but the game awaits {aw} ({phase})")
            n += 1
            orders = _write_orders(out, work, n, player, phases, log)
            expected = links_used + 1
            reveals = []
            for p in sorted(PLAYERS):
                r = work / f"reveal-{n}-{p}.yaml"
                code, text = pbem("chain", "reveal", chains[p], out, "--orders", orders, "-o", r)
                if code != 0:
                    raise Stop(f"pbem chain reveal for order file {n} failed:\n{text}")
                idx = int(re.search(r"^index: *(\d+)", r.read_text("utf-8"), re.M).group(1))
                if idx != expected:
                    raise Stop(f"order file {n} ({player}, after {len(steps)} step(s)): `pbem chain reveal` offers link {idx} of the {p} player, "
                               f"but {'link 1 is' if links_used == 1 else f'links 1-{links_used} are'} already public in the archive: "
                               f"the next order file must use link {expected}. "
                               "This is issue 8 (the chain counter is reset by a step that answers a decision); the example can be "
                               "made once it is fixed.")
                reveals += ["--reveal", r]
            code, text = pbem("adjudicate", out, orders, *reveals)
            if code not in (0, 5):
                raise Stop(f"order file {n} ({player}) with link {expected} is refused (exit {code}):\n{text}")
            links_used = expected
            steps.append({"kind": "orders", "player": player, "link": expected})
            log(f"  step {len(steps):03d}: {player} orders, link {expected} of each chain")
        priv = out / "private"
        if priv.is_dir() and not any(priv.iterdir()):
            priv.rmdir()          # pbem new makes it for a dice key; a chain campaign has none
        _verify(out, seeds, links_used)
        return {"decisions": decisions, "steps": steps, "links": links_used}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _verify(camp: Path, seeds: dict[str, str], links: int) -> None:
    code, text = pbem("replay", camp)
    if code != 0:
        raise Stop(f"pbem replay of the new campaign fails:\n{text}")
    idx = []
    for d in sorted(p for p in (camp / "steps").iterdir() if p.name.isdigit()):
        found = {int(re.search(r"^index: *(\d+)", r.read_text("utf-8"), re.M).group(1)) for r in d.glob("reveal-*.yaml")}
        if len(found) > 1:
            raise Stop(f"{d}: reveals of different links in one step")
        idx += sorted(found)
    if idx != list(range(1, links + 1)):
        raise Stop(f"the archived reveals use links {idx}: every link must be used once, in order")
    for p in camp.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            if any(s.encode() in data for s in seeds.values()) or p.suffix == ".chain":
                raise Stop(f"{p} holds a chain seed: seeds must stay out of the archive")


def kinds(decisions: list[str]) -> dict[str, list[str]]:
    out = {"retreat": [], "ex-losses": [], "advance": []}
    for d in decisions:
        if ".retreat." in d:
            out["retreat"].append(d)
        elif d.endswith(".ex"):
            out["ex-losses"].append(d)
        elif d.endswith(".advance"):
            out["advance"].append(d)
    return out


def _voids(out: Path) -> list[tuple[str, str]]:
    """(step, text) of every VOID order in the reports (issue 17: an order that no longer
    fits the position the dice left is not carried out, and the phase goes on)."""
    found = []
    for report in sorted((out / "steps").glob("*/report.txt")):
        lines = report.read_text("utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("VOID: "):
                j = i + 1
                while j < len(lines) and lines[j].startswith("    "):
                    j += 1
                found.append((report.parent.name, "\n".join(lines[i:j])))
    return found


def readme(shown: dict, attempt: int, final: dict, voids: list[tuple[str, str]] = ()) -> str:
    if final.get("pending"):
        d = final["pending"][0]
        ending = f"The campaign ends at a pending decision: `{d['id']}` of the {d['player']} player."
    else:
        aw = _one(final.get("awaiting"))
        ending = f"The campaign ends at turn {final['turn']}, {final['phase']}: the {aw.get('player')} player's orders are awaited."
    rows = []
    for i, s in enumerate(shown["steps"], start=1):
        who = {"soviet": "Anna (soviet)", "western": "Ben (western)"}[s["player"]]
        if s["kind"] == "orders":
            rows.append(f"| {i:03d} | {who} | order file, with both players' reveals of link {s['link']} |")
        else:
            rows.append(f"| {i:03d} | {who} | answer file: {', '.join('`' + d + '`' for d in s['decisions'])}; no reveal |")
    k = kinds(shown["decisions"])
    return f"""# Demo campaign: dice without a referee, with mid-phase decisions (Battle for Germany)

A short Historical-scenario campaign (turn 1 and the Soviet player-turn of turn 2) played with
**hash chains instead of a game master's key** (main README, "Dice without a referee"), in
which the adjudication stops again and again at decisions that an answer file settles:
{len(k['retreat'])} retreat(s), {len(k['ex-losses'])} Ex loss choice(s) and {len(k['advance'])} advance(s).
It shows that the chain counter survives answer steps (issue 8): the n-th order file of the
campaign is adjudicated with link n of both chains, an answer file brings no reveal and uses
no link, and no link is ever used twice. So neither player can preview a roll by rebuilding a
reveal from a link that is already in the archive.

* Players: **Anna** (`soviet`) and **Ben** (`western`), without `--auto-decisions`; the
  orders leave advances, retreats and Ex losses open (`advance: ask`, no `retreats:` or
  `ex_losses:`), so the commanding player answers each (`pbem orders template`, `choice:`).
* No `private/` folder: there is no dice key. The chain heads are in `campaign.yaml`; each
  step with orders keeps both reveals (`steps/NNN/reveal-PLAYER-NNN.yaml`).
* Made by `tools/make_chain_decisions_example.py` (seed attempt {attempt}), which plays it
  through the command line and checks the links. Its chains come from fixed demo seeds kept in
  that script, never in this archive; in a real game each seed stays on its player's machine.
  {ending}

```sh
pbem replay examples/bfg-chain-decisions      # every state, report, roll and chain link re-checked
pbem show examples/bfg-chain-decisions        # where it stands
```

| step | file from | what |
|---|---|---|
""" + "\n".join(rows) + "\n" + _void_text(voids)


def _void_text(voids) -> str:
    if not voids:
        return ""
    steps = sorted({s for s, _ in voids})
    lines = "\n".join(line for _, line in voids)
    return f"""
Orders are written before the dice fall: an order that no longer fits the position the dice
left is **void** (issue 17): the report says so with its reason (`VOID:`), it is not carried
out, and the phase goes on; nobody is asked for new orders. Here {len(voids)} order(s) became
void, in step(s) {", ".join(steps)} (the phases of an order file are played when the decisions
that interrupted it are answered, so a void can appear in an answer step's report):

```
{lines}
```

The line names what changed the position (issue 30): the die rolled last before the order was
found unfit and the answers the resumed phase was carried out with (the reports were
re-made for that wording; states and dice are unchanged).
"""


def make(out: Path, log=print) -> tuple[dict, int]:
    last = None
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if out.exists():
            shutil.rmtree(out)
        log(f"seed attempt {attempt}:")
        shown = play(out, attempt, log)
        k = kinds(shown["decisions"])
        if all(k.values()):
            (out / "README.md").write_text(readme(shown, attempt, _show(out), _voids(out)), "utf-8")
            return shown, attempt
        last = k
        log(f"  decisions {dict((a, len(b)) for a, b in k.items())}: not every kind; next seeds")
    raise Stop(f"no seed attempt 1-{MAX_ATTEMPTS} gives a retreat, an Ex loss choice and an advance (last: {last})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help=f"where to write the campaign (default {EXAMPLE.relative_to(ROOT)}); must not exist")
    ap.add_argument("--check", action="store_true", help="make it in a temporary folder and compare with the example")
    ap.add_argument("--replace", action="store_true", help="replace an existing examples/bfg-chain-decisions")
    ap.add_argument("--keep-failed", type=Path, metavar="DIR", help="if it stops, copy the campaign played so far to DIR (to look at)")
    a = ap.parse_args(argv)
    dest = a.out or EXAMPLE
    if dest.exists() and not (a.check or a.replace):
        print(f"{dest} exists: give --replace, or --check to compare", file=sys.stderr)
        return 64
    tmp = Path(tempfile.mkdtemp(prefix="pbem-make-example-"))
    try:
        built = tmp / dest.name
        try:
            shown, attempt = make(built)
        except Stop as e:
            print(f"STOPPED: {e}\nnothing was written to {dest}", file=sys.stderr)
            if a.keep_failed and built.exists():
                shutil.copytree(built, a.keep_failed)
                print(f"the campaign played so far: {a.keep_failed}", file=sys.stderr)
            return 2
        k = kinds(shown["decisions"])
        print(f"made: {len(shown['steps'])} steps, {shown['links']} chain links, decisions: "
              + ", ".join(f"{len(v)} {n}" for n, v in k.items()) + f" (seed attempt {attempt}); replay OK")
        return check_or_write(dest, built, check=a.check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)



if __name__ == "__main__":
    sys.exit(main())
