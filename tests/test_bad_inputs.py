"""A catalogue of bad inputs, each run through the real command line.

One row per bad input: its name, how the file (or the campaign damage) is made, the command,
the exit code and the error code expected. Every row must be refused

* with its own error code (the exact code; no other error is printed),
* with a non-zero exit code and no traceback,
* with a message that names file:line where the input has a line,
* and with nothing written: the whole ``tmp_path`` tree (the campaign folder, the order files,
  everything else) has the same entries, the same bytes and the same symlink targets after the
  command as before.

Rows marked ``trap`` are the inputs a YAML 1.1 reader gets wrong (``0422`` as octal, ``1005``
as a number): pbem must read them as hex ids, so they pass (or reach the rules, which then
speak about the hex, not about the YAML).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.core.step import adjudicate_campaign

KEY = "5" * 64
OTHER_KEY = "6" * 64
PLAYERS = {"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}

# A legal Soviet move: yu-1 stands at 0423 outside enemy ZOC; 0422 and 0424 are next to it.
MOVE_OK = "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: 0422}\n"
# An attack that stops (with KEY and these players) at a decision of the Soviet player.
ATTACK = ("phases:\n  - phase: soviet.combat\n    attacks:\n"
          "      - {target: 2424, units: [sov-1gt, sov-2gt, sov-8ga]}\n")


# ----------------------------------------------------------------------------- campaigns
def _make_fresh(folder: Path) -> None:
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1", players=PLAYERS, options={},
                 key_hex=KEY)


def _orders_text(folder: Path, body: str, player: str = "soviet", **header) -> str:
    """An order file for the current state of the campaign in ``folder``: the header (each
    field can be replaced, or dropped with None) and ``body``."""
    _, st = Campaign(folder).current()
    head = {"schema": "pbem/orders/v1", "game": st["game"], "campaign": f"'{st['campaign']}'",
            "player": player, "turn": st["turn"], "state": st["hash"]}
    head.update(header)
    return "".join(f"{k}: {v}\n" for k, v in head.items() if v is not None) + body


def _answer(folder: Path, *, legal: bool, player: str = "soviet") -> str:
    """An answer to the campaign's pending decision: its last option, or sov-13 (not an option)."""
    _, st = Campaign(folder).current()
    d = st["pending"][0]
    choice = d["options"][-1] if legal else (["sov-13"] if isinstance(d["options"][-1], list) else "sov-13")
    return _orders_text(folder, f"decisions:\n  - {{id: {d['id']}, choice: {json.dumps(choice)}}}\n", player)


@pytest.fixture(scope="session")
def templates(tmp_path_factory) -> dict[str, Path]:
    """Campaigns made once and copied into each test: fresh (step 000), pending (step 001
    stopped at a Soviet Ex-loss decision), played (step 002: the decision answered)."""
    root = tmp_path_factory.mktemp("templates")
    fresh = root / "fresh"
    _make_fresh(fresh)
    pending = root / "pending"
    p = root / "attack.yaml"
    # The dice depend on the data digest (in the state) and on the order file: a comment line
    # varies the file until the attack stops at a Soviet decision, so that a change of the rule
    # data does not break the fixture (a refused or non-Soviet outcome writes nothing).
    for n in range(40):
        probe = root / f"probe-{n}"
        shutil.copytree(fresh, probe)
        p.write_text(_orders_text(probe, ATTACK) + f"# try {n}\n")
        res = adjudicate_campaign(probe, [p])
        if res.state and res.state["pending"] and res.state["pending"][0]["player"] == "soviet":
            break
    shutil.copytree(probe, pending)
    assert res.state and res.state["pending"][0]["player"] == "soviet", res.issues
    played = root / "played"
    shutil.copytree(pending, played)
    a = root / "answer.yaml"
    a.write_text(_answer(played, legal=True))
    res = adjudicate_campaign(played, [a])
    assert res.step_dir and res.step_dir.name == "002", res.issues
    return {"fresh": fresh, "pending": pending, "played": played}


@dataclass
class Ctx:
    """What a row's ``make`` works with: ``tmp`` (the test's tmp_path) and ``camp`` (a copy of
    the row's base campaign in it, named c1)."""
    tmp: Path
    camp: Path

    def file(self, name: str, data: bytes | str) -> Path:
        p = self.tmp / name
        p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return p

    def orders(self, body: str = "phases: []\n", *, name: str = "orders.yaml", player: str = "soviet",
               **header) -> Path:
        return self.file(name, _orders_text(self.camp, body, player, **header))

    def text(self, body: str = "phases: []\n", **header) -> str:
        return _orders_text(self.camp, body, **header)

    def state(self, step: str | None = None) -> Path:
        d = self.camp / "steps" / step if step else Campaign(self.camp).step_dirs()[-1]
        return Campaign(self.camp).state_path(d)

    def step(self, n: int) -> Path:
        return self.camp / "steps" / f"{n:03d}"

    def edit(self, path: Path, old: str, new: str) -> None:
        text = path.read_text("utf-8")
        assert old in text, (path, old)
        os.chmod(path, 0o644)
        path.write_text(text.replace(old, new, 1), "utf-8")

    def adjudicate(self, *paths: Path) -> None:
        res = adjudicate_campaign(self.camp, list(paths))
        assert res.step_dir is not None, [i.format() for i in res.issues]


@dataclass(frozen=True)
class Bad:
    name: str
    make: Callable[[Ctx], list]       # makes the input, returns the command's arguments
    exit: int                         # expected exit code
    code: str | None                  # the expected error code (None: a trap row that passes)
    line: bool = False                # the message must name file:line
    base: str = "fresh"               # fresh | pending | played
    trap: bool = False
    warn: str | None = None           # a warning code the output must show


def _adj(ctx: Ctx, p: Path) -> list:
    return ["adjudicate", ctx.camp, p]


def orders_row(name: str, body_or_bytes, exit: int, code: str | None, *, line: bool = True,
               cmd: str = "adjudicate", base: str = "fresh", trap: bool = False, warn: str | None = None,
               **header) -> Bad:
    """A row whose input is one order file given to ``pbem adjudicate`` (or validate)."""
    def make(ctx: Ctx) -> list:
        if isinstance(body_or_bytes, bytes):
            p = ctx.file("orders.yaml", body_or_bytes)
        elif callable(body_or_bytes):
            p = ctx.file("orders.yaml", body_or_bytes(ctx))
        else:
            p = ctx.orders(body_or_bytes, **header)
        return [cmd, ctx.camp, p]
    return Bad(name, make, exit, code, line=line, base=base, trap=trap, warn=warn)


# ----------------------------------------------------------------------------- makers
def _alias_bomb(ctx: Ctx) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return ctx.text("comment: x\n") + "\n".join(lines) + "\n"


def _deep(ctx: Ctx) -> str:
    return ctx.text("comment: " + "[" * 100_000 + "]" * 100_000 + "\n")


def _many_nodes(ctx: Ctx) -> str:
    return ctx.text("phases: [" + ",".join(["0"] * 300_000) + "]\n")


def _big_sparse(ctx: Ctx) -> list:
    p = ctx.tmp / "big.yaml"
    with open(p, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    return _adj(ctx, p)


def _big_state(ctx: Ctx) -> list:
    p = ctx.tmp / "big-state.yaml"
    with open(p, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    return ["show", p]


def _big_real(ctx: Ctx) -> list:
    p = ctx.file("big.yaml", ctx.text("comment: '" + "x" * 1_100_000 + "'\n"))
    return _adj(ctx, p)


def _directory(ctx: Ctx) -> list:
    (ctx.tmp / "orders.yaml").mkdir()
    return _adj(ctx, ctx.tmp / "orders.yaml")


def _fifo(ctx: Ctx) -> list:
    os.mkfifo(ctx.tmp / "orders.yaml")
    return _adj(ctx, ctx.tmp / "orders.yaml")


def _replayed(ctx: Ctx) -> list:
    p = ctx.orders(MOVE_OK)
    ctx.adjudicate(p)
    return _adj(ctx, p)


def _two_files(ctx: Ctx) -> list:
    a = ctx.orders(MOVE_OK, name="a.yaml")
    b = ctx.orders(MOVE_OK.replace("0422", "0424"), name="b.yaml")
    return ["adjudicate", ctx.camp, a, b]


def _hand_edited_state(ctx: Ctx) -> Path:
    """The current state with one value changed by hand (the hash left as it was)."""
    sp = ctx.state()
    ctx.edit(sp, '  sov-8ga:\n    at: "2425"', '  sov-8ga:\n    at: "2426"')
    return sp


def _show_edited(ctx: Ctx) -> list:
    return ["show", _hand_edited_state(ctx)]


def _validate_edited(ctx: Ctx) -> list:
    p = ctx.orders(MOVE_OK)
    return ["validate", _hand_edited_state(ctx), p]


def _adjudicate_edited(ctx: Ctx) -> list:
    p = ctx.orders(MOVE_OK)
    _hand_edited_state(ctx)
    return ["adjudicate", ctx.camp, p]


def _replay(ctx: Ctx) -> list:
    return ["replay", ctx.camp]


def _tamper_orders(ctx: Ctx) -> list:
    of = next(ctx.step(1).glob("orders-*.yaml"))
    os.chmod(of, 0o644)
    of.write_bytes(of.read_bytes().replace(b"sov-8ga", b"sov-2gt", 1))
    return _replay(ctx)


def _tamper_report(ctx: Ctx) -> list:
    rp = ctx.step(1) / "report.json"
    os.chmod(rp, 0o644)
    rep = json.loads(rp.read_text())
    rep["rolls"][0]["value"] = 7 - rep["rolls"][0]["value"]
    rp.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n")
    return _replay(ctx)


def _tamper_report_txt(ctx: Ctx) -> list:
    ctx.edit(ctx.step(1) / "report.txt", "attack 1 on 2424", "attack 1 on 2425")
    return _replay(ctx)


def _tamper_state(ctx: Ctx) -> list:
    """An archived state changed and its hash recomputed: only replay can tell."""
    from pbem.core.campaign import render_state
    from pbem.core.yamlio import load_yaml
    sp = ctx.state("001")
    st = load_yaml(sp.read_bytes(), max_bytes=50_000_000, max_nodes=5_000_000).data
    st["standing"]["western"]["retreat"] = "auto"
    os.chmod(sp, 0o644)
    sp.write_text(render_state(st))
    return _replay(ctx)


def _missing_step(ctx: Ctx) -> list:
    shutil.rmtree(ctx.step(1))
    return _replay(ctx)


def _missing_report(ctx: Ctx) -> list:
    (ctx.step(1) / "report.json").unlink()
    return _replay(ctx)


def _report_not_a_report(ctx: Ctx) -> list:
    rp = ctx.step(1) / "report.json"
    os.chmod(rp, 0o644)
    rp.write_text("[1, 2, 3]\n")
    return _replay(ctx)


def _missing_archived_state(ctx: Ctx) -> list:
    ctx.state("001").unlink()
    return _replay(ctx)


def _symlinked_orders(ctx: Ctx) -> list:
    """An archived order file replaced by a symlink to an identical file outside the campaign."""
    of = next(ctx.step(1).glob("orders-*.yaml"))
    outside = ctx.tmp / "outside.yaml"
    outside.write_bytes(of.read_bytes())
    of.unlink()
    of.symlink_to(outside)
    return _replay(ctx)


def _dotdot_orders(ctx: Ctx) -> list:
    """report.json names its order file ../../../outside.yaml (an identical copy)."""
    rp = ctx.step(1) / "report.json"
    rep = json.loads(rp.read_text())
    of = ctx.step(1) / rep["orders"][0]["file"]
    (ctx.tmp / "outside.yaml").write_bytes(of.read_bytes())
    rep["orders"][0]["file"] = "../../../outside.yaml"
    os.chmod(rp, 0o644)
    rp.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n")
    return _replay(ctx)


def _symlinked_step(ctx: Ctx) -> list:
    """The last step folder is a symlink to a folder outside the campaign."""
    last = ctx.step(2)
    outside = ctx.tmp / "elsewhere"
    shutil.copytree(last, outside)
    shutil.rmtree(last)
    last.symlink_to(outside, target_is_directory=True)
    return ["show", ctx.camp]


def _symlinked_step_adjudicate(ctx: Ctx) -> list:
    _symlinked_step(ctx)  # without the symlink, this adjudication writes steps/003
    return ["adjudicate", ctx.camp, "--missing-orders"]


def _wrong_key(cmd: str) -> Callable[[Ctx], list]:
    def make(ctx: Ctx) -> list:
        k = ctx.file("revealed.key", OTHER_KEY + "\n")
        if cmd == "replay":
            return ["replay", ctx.camp, "--key", k]
        return ["adjudicate", ctx.camp, ctx.orders(MOVE_OK), "--key", k]
    return make


def _garbage_key(ctx: Ctx) -> list:
    k = ctx.file("revealed.key", "not a key\n")
    return ["replay", ctx.camp, "--key", k]


def _missing_key(ctx: Ctx) -> list:
    return ["adjudicate", ctx.camp, ctx.orders(MOVE_OK), "--key", ctx.tmp / "nokey"]


def _dice_bad_hex(ctx: Ctx) -> list:
    return ["dice", "verify", "bfg/c1/t01/soviet.combat/c1-2424/d6", "--key-hex", "zz" * 32, "--game", "bfg",
            "--campaign-id", "c1", "--step", "t01/soviet.combat", "--orders", "0" * 64, "--state", "0" * 64]


def _dice_bad_hex_campaign(ctx: Ctx) -> list:
    return ["dice", "verify", ctx.camp, "bfg/c1/t01/soviet.combat/c1-2424/d6", "--key-hex", "12"]


def _dice_wrong_key_hex(ctx: Ctx) -> list:
    return ["dice", "verify", ctx.camp, "bfg/c1/t01/soviet.combat/c1-2424/d6", "--key-hex", OTHER_KEY]


def _dice_raw_bad_label(ctx: Ctx) -> list:
    return ["dice", "verify", "a label with spaces", "--key-hex", KEY, "--game", "bfg", "--campaign-id", "c1",
            "--step", "t01/soviet.combat", "--orders", "0" * 64, "--state", "0" * 64]


def _dice_raw_missing_key(ctx: Ctx) -> list:
    return ["dice", "verify", "bfg/c1/t01/soviet.combat/c1-2424/d6", "--key", ctx.tmp / "nokey", "--game", "bfg",
            "--campaign-id", "c1", "--step", "t01/soviet.combat", "--orders", "0" * 64, "--state", "0" * 64]


def _dice_logged_changed(ctx: Ctx) -> list:
    rp = ctx.step(1) / "report.json"
    rep = json.loads(rp.read_text())
    roll = rep["rolls"][0]
    roll["value"] = 7 - roll["value"]
    os.chmod(rp, 0o644)
    rp.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n")
    return ["dice", "verify", ctx.camp, roll["label"]]


def _dice_unknown_label(ctx: Ctx) -> list:
    return ["dice", "verify", ctx.camp, "bfg/c1/t09/soviet.combat/c1-0101/d6"]


def _dice_broken_report(ctx: Ctx) -> list:
    rp = ctx.step(1) / "report.json"
    os.chmod(rp, 0o644)
    rp.write_text("{ not json")
    return ["dice", "verify", ctx.camp, "bfg/c1/t01/soviet.combat/c1-2424/d6"]


def _new_non_empty(ctx: Ctx) -> list:
    (ctx.tmp / "g").mkdir()
    (ctx.tmp / "g" / "notes.txt").write_text("mine\n")
    return ["new", ctx.tmp / "g", "--scenario", "bfg-historical", "--id", "g", "--player", "soviet=A",
            "--player", "western=B"]


def _new_over_campaign(ctx: Ctx) -> list:
    return ["new", ctx.camp, "--scenario", "bfg-historical", "--id", "c1", "--player", "soviet=A",
            "--player", "western=B"]


def _template_exists(ctx: Ctx) -> list:
    p = ctx.file("mine.yaml", "my own notes\n")
    return ["orders", "template", ctx.camp, "--player", "soviet", "-o", p]


def _not_campaign(ctx: Ctx) -> list:
    (ctx.tmp / "plain").mkdir()
    return ["adjudicate", ctx.tmp / "plain", ctx.orders(MOVE_OK)]


def _broken_manifest(ctx: Ctx) -> list:
    ctx.edit(ctx.camp / "campaign.yaml", "schema:", "notes: mine\nschema:")
    return ["show", ctx.camp]


def _two_states(ctx: Ctx) -> list:
    p = ctx.orders(MOVE_OK)
    sp = ctx.state()
    shutil.copy(sp, sp.with_name("zz-" + sp.name))
    return ["adjudicate", ctx.camp, p]


def _missing_flag(ctx: Ctx) -> list:
    return ["adjudicate", ctx.camp, ctx.orders(MOVE_OK), "--missing-orders"]


def _no_orders(ctx: Ctx) -> list:
    return ["adjudicate", ctx.camp]


def _show_orders_file(ctx: Ctx) -> list:
    return ["show", ctx.orders(MOVE_OK)]


def _validate_swapped(ctx: Ctx) -> list:
    return ["validate", ctx.orders(MOVE_OK), ctx.state()]


def _state_as_orders(ctx: Ctx) -> list:
    return ["adjudicate", ctx.camp, ctx.state()]


def _stale_temp_file(ctx: Ctx) -> list:
    """A file (not a folder) where this very process would make its temporary step folder
    (CliRunner runs pbem in the test's process, so the pid is known)."""
    p = ctx.orders(MOVE_OK)
    (ctx.camp / "steps" / f".001.tmp-{os.getpid()}").write_text("junk\n")
    return ["adjudicate", ctx.camp, p]


def _decision(legal: bool, player: str = "soviet") -> Callable[[Ctx], str]:
    return lambda ctx: _answer(ctx.camp, legal=legal, player=player)


def _cmd(fn: Callable[[Ctx], list], name: str, exit: int, code: str | None, *, line: bool = False,
         base: str = "fresh") -> Bad:
    return Bad(name, fn, exit, code, line=line, base=base)


BOM = b"\xef\xbb\xbf"

CATALOGUE: list[Bad] = [
    # --- YAML syntax and encoding
    orders_row("yaml-unclosed-bracket",
               "phases:\n  - phase: soviet.movement\n    moves: [{unit: yu-1, to: 0422}\n", 2, "YAML-SYNTAX"),
    orders_row("yaml-bad-indentation",
               "phases:\n  - phase: soviet.movement\n     moves: []\n", 2, "YAML-SYNTAX"),
    orders_row("yaml-tab-indentation", "phases:\n\t- phase: soviet.movement\n", 2, "YAML-TAB"),
    orders_row("utf8-bom", lambda ctx: BOM + ctx.text().encode(), 2, "YAML-ENCODING"),
    orders_row("utf16-file", lambda ctx: ctx.text().encode("utf-16"), 2, "YAML-ENCODING"),
    orders_row("utf16-no-bom", lambda ctx: ctx.text().encode("utf-16-le"), 2, "YAML-ENCODING"),
    orders_row("latin1-bytes", lambda ctx: ctx.text("comment: Stra\xdfe\n").encode("latin-1"), 2, "YAML-ENCODING"),
    orders_row("nul-byte", "comment: a\x00b\n", 2, "YAML-CONTROL-CHAR"),
    orders_row("escape-char", "comment: a\x1b[31mred\n", 2, "YAML-CONTROL-CHAR"),
    orders_row("binary-file", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 2, "YAML-ENCODING"),
    orders_row("multi-document", "phases: []\n---\nphases: []\n", 2, "YAML-MULTIDOC"),
    orders_row("alias-bomb", _alias_bomb, 2, "YAML-ALIAS"),
    orders_row("merge-key", "standing: &s {retreat: auto}\ncomment: {<<: *s}\n", 2, "YAML-ALIAS"),
    orders_row("python-tag", "comment: !!python/object/apply:os.system ['touch /tmp/pwned']\n", 2, "YAML-TAG"),
    orders_row("deeply-nested", _deep, 2, "YAML-DEPTH"),
    orders_row("too-many-nodes", _many_nodes, 2, "YAML-TOO-MANY-NODES"),
    orders_row("empty-file", b"", 2, "YAML-EMPTY", line=False),
    orders_row("comments-only", b"# nothing here\n# really\n", 2, "YAML-EMPTY", line=False),
    orders_row("duplicate-key", "phases: []\n", 2, "YAML-DUPLICATE-KEY", player="soviet\nplayer: western"),
    orders_row("duplicate-key-in-flow",
               "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: 0422, to: 0424}\n",
               2, "YAML-DUPLICATE-KEY"),
    # --- YAML 1.1 traps: hex ids are strings, yes/no are words
    orders_row("trap-to-0422-octal-in-yaml-1.1-is-hex-0422", MOVE_OK, 0, None, cmd="validate", trap=True),
    orders_row("trap-hex-0101-reaches-the-rules-as-0101",
               "phases:\n  - phase: soviet.replacement\n    replacements:\n      - {hex: 0101}\n",
               3, "BFG-REPL-EMPTY", cmd="validate", trap=True),
    orders_row("trap-path-2726-an-int-to-yaml-is-hex-2726",
               "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: pk-2, path: [2726]}\n",
               0, None, cmd="validate", trap=True),
    orders_row("trap-attack-advance-no-is-the-word-no-not-false",
               "phases:\n  - phase: soviet.combat\n    attacks:\n"
               "      - {target: 2424, units: [sov-1gt, sov-2gt, sov-8ga], advance: no}\n",
               0, None, cmd="validate", trap=True, warn="BFG-ADVANCE-UNIT"),
    orders_row("hex-101-without-leading-zero",
               "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: 101}\n", 2, "SCHEMA-PATTERN"),
    orders_row("hex-0x-number",
               "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: 0x1F}\n", 2, "SCHEMA-PATTERN"),
    orders_row("standing-retreat-yes", "standing: {retreat: yes}\n", 2, "SCHEMA-ENUM"),
    orders_row("standing-advance-no", "standing: {advance: no}\n", 2, "SCHEMA-ENUM"),
    orders_row("standing-retreat-true", "standing: {retreat: true}\n", 2, "SCHEMA-TYPE"),
    # --- schema
    orders_row("unknown-field", "phases: []\nsignature: Anna\n", 2, "SCHEMA-ADDITIONALPROPERTIES"),
    orders_row("unknown-field-in-phase", "phases:\n  - phase: soviet.movement\n    mvoes: []\n", 2,
               "SCHEMA-ADDITIONALPROPERTIES"),
    orders_row("missing-field-state", "phases: []\n", 2, "SCHEMA-REQUIRED", state=None),
    orders_row("missing-field-unit",
               "phases:\n  - phase: soviet.movement\n    moves:\n      - {to: 0422}\n", 2, "SCHEMA-REQUIRED"),
    orders_row("wrong-type-turn", "phases: []\n", 2, "SCHEMA-TYPE", turn="'one'"),
    orders_row("wrong-type-moves", "phases:\n  - phase: soviet.movement\n    moves: {unit: yu-1}\n", 2, "SCHEMA-TYPE"),
    orders_row("wrong-type-document", b"- a list\n- not a mapping\n", 2, "SCHEMA-TYPE"),
    orders_row("huge-integer", "phases: []\n", 2, "SCHEMA-TYPE", turn="9" * 5000),
    orders_row("path-and-to", "phases:\n  - phase: soviet.movement\n    moves:\n"
               "      - {unit: yu-1, to: 0422, path: [0422]}\n", 2, "SCHEMA-ONEOF"),
    orders_row("other-schema-version", "phases: []\n", 2, "SCHEMA-CONST", schema="pbem/orders/v2"),
    # --- orders that do not fit the game
    orders_row("orders-for-another-turn", MOVE_OK, 3, "ORDERS-TURN", turn=2),
    orders_row("orders-without-turn", MOVE_OK, 3, "ORDERS-TURN-MISSING", turn=None),
    orders_row("orders-for-another-phase", "phases:\n  - phase: western-allied.movement\n    moves: []\n",
               3, "ORDERS-PHASE"),
    orders_row("phases-out-of-order", "phases:\n  - phase: soviet.combat\n  - phase: soviet.movement\n",
               3, "ORDERS-PHASE-ORDER"),
    orders_row("phase-content-mismatch", "phases:\n  - phase: soviet.movement\n    attacks: []\n",
               3, "ORDERS-PHASE-CONTENT"),
    orders_row("orders-for-another-player", MOVE_OK, 3, "ORDERS-NOT-YOUR-TURN", player="western"),
    orders_row("orders-for-unknown-player", MOVE_OK, 3, "ORDERS-PLAYER", player="german"),
    # a well-formed BlitzWAR order file (BlitzWAR has its own orders schema now, which a Battle
    # for Germany move does not pass) given to a Battle for Germany campaign
    orders_row("orders-for-another-game", "phases: []\n", 4, "ORDERS-GAME", game="blitzwar"),
    orders_row("orders-for-another-campaign", MOVE_OK, 4, "ORDERS-CAMPAIGN", campaign="c2"),
    orders_row("orders-against-another-state", MOVE_OK, 4, "HASH-ORDERS-STATE", state="a" * 64),
    _cmd(_replayed, "replayed-old-order-file", 4, "HASH-ORDERS-REPLAYED"),
    orders_row("unit-moved-twice", "phases:\n  - phase: soviet.movement\n    moves:\n"
               "      - {unit: yu-1, to: 0422}\n      - {unit: yu-1, to: 0424}\n", 3, "BFG-UNIT-TWICE"),
    orders_row("unit-attacks-twice", "phases:\n  - phase: soviet.combat\n    attacks:\n"
               "      - {target: 2424, units: [sov-8ga]}\n      - {target: 2525, units: [sov-8ga]}\n",
               3, "BFG-ATTACK-UNIT-TWICE"),
    _cmd(_two_files, "two-files-with-phase-orders", 3, "ORDERS-SEVERAL"),
    _cmd(_no_orders, "no-orders-at-all", 64, "USAGE-NO-FILES"),   # issue 33: the command line lacks the files
    _cmd(_missing_flag, "missing-orders-flag-with-a-file", 64, "ORDERS-MISSING-FLAG"),
    # --- decisions
    orders_row("decision-illegal-choice", _decision(False), 3, "ORDERS-DECISION-CHOICE", base="pending"),
    orders_row("decision-when-none-pending",
               "decisions:\n  - {id: t01.soviet.combat.c1.ex, choice: [sov-8ga]}\n", 3, "ORDERS-NO-PENDING"),
    orders_row("decision-by-the-other-player", _decision(True, "western"), 3, "ORDERS-PLAYER",
               base="pending"),
    orders_row("phase-orders-while-decision-pending", MOVE_OK, 3, "ORDERS-PHASE", base="pending"),
    # --- states edited by hand
    _cmd(_show_edited, "state-edited-by-hand-show", 4, "HASH-STATE"),
    _cmd(_validate_edited, "state-edited-by-hand-validate", 4, "HASH-STATE"),
    _cmd(_adjudicate_edited, "state-edited-by-hand-adjudicate", 4, "HASH-STATE"),
    _cmd(_show_orders_file, "show-an-order-file", 2, "FILE-NOT-STATE", line=True),
    _cmd(_validate_swapped, "validate-with-arguments-swapped", 2, "FILE-NOT-STATE", line=True),
    _cmd(_state_as_orders, "a-state-file-given-as-orders", 2, "FILE-NOT-ORDERS", line=True),
    # --- the archive
    _cmd(_tamper_orders, "archive-order-file-changed", 4, "HASH-ORDERS", base="played"),
    _cmd(_tamper_report, "archive-report.json-changed", 4, "REPLAY-REPORT-DIFFERS", base="played"),
    _cmd(_tamper_report_txt, "archive-report.txt-changed", 4, "REPLAY-TEXT-DIFFERS", base="played"),
    _cmd(_tamper_state, "archive-state-changed-hash-recomputed", 4, "REPLAY-STATE-DIFFERS", base="played"),
    _cmd(_missing_step, "archive-step-missing", 4, "REPLAY-GAP", base="played"),
    _cmd(_missing_report, "archive-report.json-missing", 4, "REPLAY-REPORT", base="played"),
    _cmd(_report_not_a_report, "archive-report.json-not-a-report", 4, "REPLAY-REPORT", base="played"),
    _cmd(_missing_archived_state, "archive-state-file-missing", 4, "REPLAY-STATE-MISSING", base="played"),
    _cmd(_two_states, "archive-two-state-files-in-a-step", 2, "FILE-ARCHIVE"),
    _cmd(_broken_manifest, "campaign.yaml-broken", 2, "SCHEMA-ADDITIONALPROPERTIES"),
    _cmd(_not_campaign, "not-a-campaign-folder", 2, "FILE-NOT-CAMPAIGN"),
    # --- paths outside the campaign folder
    _cmd(_symlinked_orders, "outside-archived-order-file-is-a-symlink-out", 2, "FILE-OUTSIDE", base="played"),
    _cmd(_dotdot_orders, "outside-report.json-names-a-dotdot-order-file", 2, "FILE-OUTSIDE", base="played"),
    _cmd(_symlinked_step, "outside-step-folder-is-a-symlink-out-show", 2, "FILE-OUTSIDE", base="played"),
    _cmd(_symlinked_step_adjudicate, "outside-step-folder-is-a-symlink-out-adjudicate", 2, "FILE-OUTSIDE",
         base="played"),
    # --- dice keys
    _cmd(_wrong_key("replay"), "wrong-revealed-key-replay-key", 4, "DICE-KEY-MISMATCH", base="played"),
    _cmd(_wrong_key("adjudicate"), "wrong-key-adjudicate-key", 4, "DICE-KEY-MISMATCH"),
    _cmd(_garbage_key, "key-file-not-a-key", 4, "DICE-KEY-FORMAT", base="played"),
    _cmd(_missing_key, "key-file-missing", 4, "DICE-KEY-MISSING"),
    _cmd(_dice_bad_hex, "dice-verify-key-hex-not-hex-raw-mode", 4, "DICE-KEY-FORMAT"),
    _cmd(_dice_bad_hex_campaign, "dice-verify-key-hex-too-short", 4, "DICE-KEY-FORMAT", base="played"),
    _cmd(_dice_wrong_key_hex, "dice-verify-wrong-key-hex", 4, "DICE-KEY-MISMATCH", base="played"),
    _cmd(_dice_logged_changed, "dice-verify-logged-roll-changed", 4, "DICE-ROLL-MISMATCH", base="played"),
    _cmd(_dice_raw_bad_label, "dice-verify-raw-label-with-spaces", 64, "USAGE-DICE"),
    _cmd(_dice_raw_missing_key, "dice-verify-raw-key-file-missing", 4, "DICE-KEY-MISSING"),
    _cmd(_dice_unknown_label, "dice-verify-unknown-label", 4, "DICE-LABEL-UNKNOWN", base="played"),
    _cmd(_dice_broken_report, "dice-verify-with-a-broken-report.json", 4, "REPLAY-REPORT", base="played"),
    # --- files
    _cmd(_big_sparse, "50-mb-file", 2, "FILE-TOO-LARGE"),
    _cmd(_big_state, "50-mb-state-file-show", 2, "FILE-TOO-LARGE"),
    _cmd(_big_real, "1.1-mb-order-file", 2, "FILE-TOO-LARGE"),
    _cmd(_directory, "directory-given-as-file", 2, "FILE-UNREADABLE"),
    _cmd(_fifo, "fifo-given-as-file", 2, "FILE-UNREADABLE"),
    _cmd(lambda ctx: _adj(ctx, ctx.tmp / "nothere.yaml"), "missing-file", 2, "FILE-NOT-FOUND"),
    _cmd(_new_non_empty, "new-into-a-non-empty-folder", 74, "FILE-EXISTS"),
    _cmd(_new_over_campaign, "new-over-an-existing-campaign", 74, "FILE-EXISTS"),
    _cmd(_stale_temp_file, "stale-temp-file-in-steps", 74, "FILE-WRITE"),
    _cmd(_template_exists, "orders-template-o-an-existing-file", 74, "FILE-EXISTS"),
]

_ISSUE_RE = re.compile(r"\b(error|warning) ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):")


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: kind, bytes digest or symlink target, mode."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            rel = str(p.relative_to(root))
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(p, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                out[rel] = ("file", h.hexdigest(), stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("dir" if stat.S_ISDIR(st.st_mode) else "other", stat.S_IMODE(st.st_mode))
    return out


def test_catalogue_is_large_and_names_are_unique():
    names = [c.name for c in CATALOGUE]
    assert len(set(names)) == len(names)
    assert sum(1 for c in CATALOGUE if not c.trap) >= 40


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_bad_input(case: Bad, tmp_path: Path, templates) -> None:
    camp = tmp_path / "c1"
    shutil.copytree(templates[case.base], camp, symlinks=True)
    ctx = Ctx(tmp_path, camp)
    args = [str(a) for a in case.make(ctx)]
    before = snapshot(tmp_path)
    t0 = time.monotonic()
    r = CliRunner().invoke(main, args)
    elapsed = time.monotonic() - t0
    out = r.output
    # no crash: a clean exit, never a traceback
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        "".join(__import__("traceback").format_exception(r.exception))
    assert "Traceback" not in out
    assert r.exit_code == case.exit, out
    errors = {m.group(2) for m in _ISSUE_RE.finditer(out) if m.group(1) == "error"}
    if case.code is None:
        assert not errors, out
    else:
        assert errors == {case.code}, out
    if case.warn:
        assert re.search(r"warning " + re.escape(case.warn) + ":", out), out
    if case.line and case.code:
        assert re.search(r"\.yaml:\d+(:\d+)?: error " + re.escape(case.code or ""), out), out
    # nothing written (an accepted trap row is run with `validate`, which never writes)
    assert snapshot(tmp_path) == before
    assert elapsed < 5, f"took {elapsed:.1f}s"


def test_fifty_megabytes_refused_before_reading(tmp_path: Path, templates, monkeypatch) -> None:
    """The size check comes first: the 50 MB file is never read, let alone parsed."""
    import builtins
    camp = tmp_path / "c1"
    shutil.copytree(templates["fresh"], camp)
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    real_open = builtins.open

    def guarded(file, *a, **kw):
        assert Path(file) != big, "the 50 MB file was opened"
        return real_open(file, *a, **kw)
    monkeypatch.setattr(builtins, "open", guarded)
    t0 = time.monotonic()
    r = CliRunner().invoke(main, ["adjudicate", str(camp), str(big)])
    assert r.exit_code == 2 and "FILE-TOO-LARGE" in r.output
    assert time.monotonic() - t0 < 2


def test_campaign_reached_through_a_symlink_is_not_outside(tmp_path: Path, templates) -> None:
    """The FILE-OUTSIDE checks resolve the campaign folder too: a campaign opened through a
    symlinked path (a link in the GM's home, say) works as usual."""
    real = tmp_path / "real"
    shutil.copytree(templates["played"], real)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert CliRunner().invoke(main, ["show", str(link)]).exit_code == 0
    r = CliRunner().invoke(main, ["replay", str(link)])
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output
    # the campaign must declare a default before --missing-orders applies it
    man = real / "campaign.yaml"
    man.write_text(man.read_text() + 'missing_orders: {soviet: "no-orders", western: "no-orders"}\n')
    r = CliRunner().invoke(main, ["adjudicate", str(link), "--missing-orders"])
    assert r.exit_code in (0, 5), r.output
    assert (real / "steps" / "003").is_dir()


def test_trap_hex_0101_is_read_as_the_text_0101(tmp_path: Path, templates) -> None:
    """YAML 1.1 reads 0101 as the octal 65 and 1005 as a number: pbem reads both as hex ids."""
    from pbem.core.campaign import load_order_file
    camp = tmp_path / "c1"
    shutil.copytree(templates["fresh"], camp)
    body = "phases:\n  - phase: soviet.replacement\n    replacements:\n      - {hex: 0101}\n      - {hex: 1005}\n"
    p = Ctx(tmp_path, camp).orders(body)
    assert [r["hex"] for r in load_order_file(p).doc["phases"][0]["replacements"]] == ["0101", "1005"]
    r = CliRunner().invoke(main, ["validate", str(camp), str(p)])
    assert "YAML-" not in r.output and "SCHEMA-" not in r.output, r.output
