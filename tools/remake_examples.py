#!/usr/bin/env python3
"""Re-make an example campaign archive (examples/NAME) from its own order files.

When the rules, the report wording or the state format change, the archives in examples/ no
longer replay byte for byte (tests/test_examples.py). This tool plays each example again on the
current code, step by step, exactly as it was first played:

* a fresh campaign with the example's scenario, id, title, players, options, standing orders
  at the start, missing-orders defaults and game master, and the SAME dice: the published
  ``private/dice.key`` (game-master mode) or the same chain heads (mode ``chain``);
* for every archived step, its order files (``steps/NNN/orders-*.yaml``) with only what must
  change rewritten: the ``state:`` hash (the new current state's), and the
  ``# yaml-language-server`` schema comment of a file that changes anyway (pointing to
  ``schemas/`` of this repository, relative to the archive); every other byte, comments
  included, is kept. In chain mode each reveal (``steps/NNN/reveal-*.yaml``) keeps its
  published link and index and names the sha256 of the rewritten orders. A step without order
  files was adjudicated with ``--missing-orders`` and is again;
* each step goes through ``pbem adjudicate`` (the public command line, via click's CliRunner)
  and must end where it ended before (same turn, phase, awaited player, pending decisions):
  otherwise the tool stops, names the step and its problems, and leaves the example untouched.

Any change of a state's content (rules, data digest, state format, engine version) changes its
hash, and so every die after it (the phase keys hash the state): the steps after it then
usually no longer play as before. The tool names the first such step; edit that step's order
file inside the example (it is rewritten anyway: the hash line, the reveals of a chain
campaign are re-made to match) and run the tool again.

On success the new archive is built beside the example and swapped in; the README and any
other file of the example outside ``campaign.yaml``, ``private/`` and ``steps/`` is kept. A
summary lists the steps whose report.txt changed (line counts and the first differing line),
and warns when the example's README names steps that no longer exist or step/roll counts that
are no longer true.

With ``--adapt`` the tool fits the archive to the new position instead of stopping (used for
issue 9, whose rule fixes and rulings changed every die): pending decisions are answered by
their player's archived answer file (the next ones before the next order file; the archived
choice where still legal) or else with the first legal choice (a new step); an answer file
whose decisions are no longer asked is left out (its standing orders go with the player's next
order file); each order entry ``pbem validate`` refuses becomes a comment ``# dropped by
tools/remake_examples.py --adapt (refused now: CODE): ...``; when pbem asks again for a phase
of the file just applied, the file's remaining phases are resent. Every adaptation is listed.

Usage::

    python tools/remake_examples.py --adapt examples/bfg-historical   # fit it to the new rules
    python tools/remake_examples.py examples/bfg-historical [more ...]
    python tools/remake_examples.py --all
    python tools/remake_examples.py --check --all      # re-make into a temp dir, compare, change nothing

``--check`` exits 0 when every archive comes out byte-identical, 1 when some differ (the
differences are listed), 2 when a step can no longer be re-made.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402
from pbem.core.actions import new_campaign  # noqa: E402
from pbem.core.campaign import Campaign  # noqa: E402
from pbem.core.canon import sha256_hex  # noqa: E402
from pbem.core.errors import PbemError  # noqa: E402
from pbem.core.yamlio import load_yaml  # noqa: E402

KEPT_BY_ENGINE = {"campaign.yaml", "private", "steps", "schemas"}   # made by pbem; everything else is copied
STATE_LINE = re.compile(rb"^(state:[ \t]*)(['\"]?)([0-9a-fA-F]{64})(\2)", re.M)
SCHEMA_LINE = re.compile(rb"^(#[ \t]*yaml-language-server:[ \t]*\$schema=)([^\r\n]*)", re.M)
ORDERS_LINE = re.compile(rb"^(orders:[ \t]*)(['\"]?)([0-9a-fA-F]{64})(\2)", re.M)
ORDER_FILE = re.compile(r"^orders-(\d+)-.*\.yaml$")


class RemakeError(Exception):
    """A step can no longer be re-made: the message names the step and its problems."""


@dataclass
class Outcome:
    example: Path
    steps: int = 0
    identical: bool = False
    changed_reports: list[str] = field(default_factory=list)
    changed_files: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    adaptations: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- reading the example
def _yaml(raw: bytes, name: str):
    return load_yaml(raw, name, max_bytes=50_000_000, max_nodes=5_000_000).data


def _step_dirs(folder: Path) -> list[Path]:
    sd = folder / "steps"
    return sorted(p for p in sd.iterdir() if p.is_dir() and p.name.isdigit()) if sd.is_dir() else []


def _state_file(step_dir: Path) -> Path:
    cands = sorted(p for p in step_dir.glob("*.yaml") if not p.name.startswith(("orders-", "reveal-")))
    if len(cands) != 1:
        raise RemakeError(f"{step_dir}: expected one state file, found {len(cands)}")
    return cands[0]


def _order_files(step_dir: Path) -> list[Path]:
    found = []
    for p in step_dir.glob("orders-*.yaml"):
        m = ORDER_FILE.match(p.name)
        if not m:
            raise RemakeError(f"{p}: not an archived order file name (orders-N-PLAYER-SHA12.yaml)")
        found.append((int(m.group(1)), p))
    return [p for _, p in sorted(found)]


def _creation_args(folder: Path) -> dict:
    """The arguments of pbem's ``new_campaign`` that give the example's first state again."""
    manifest = _yaml((folder / "campaign.yaml").read_bytes(), str(folder / "campaign.yaml"))
    dirs = _step_dirs(folder)
    if not dirs:
        raise RemakeError(f"{folder}: no steps/000")
    first = _yaml(_state_file(dirs[0]).read_bytes(), str(_state_file(dirs[0])))
    standing = first.get("standing") or {}
    # `pbem new` gives every player the same values, each only the keys that can be asked of
    # them (courland_port: the player of the East Germans, Game.standing_keys_for)
    start_standing: dict = {}
    for values in standing.values():
        for k, v in (values or {}).items():
            if start_standing.setdefault(k, v) != v:
                raise RemakeError(f"{folder}: the players start with different standing orders ({standing}); "
                                  "`pbem new` gives every player the same ones")
    dice = manifest.get("dice") or {}
    args = dict(scenario=manifest["scenario"], campaign_id=manifest["id"], title=manifest.get("title"),
                players={p: dict(v) for p, v in manifest["players"].items()},
                options={k: True for k, v in (manifest.get("options") or {}).items() if v},
                standing=start_standing or None,
                missing_defaults=dict(manifest["missing_orders"]) if manifest.get("missing_orders") else None,
                gm=manifest.get("gm"))
    # an archive keeps the form it was started with: the chain protocol of its first state,
    # and a copy of the manifest in steps/000 only if it had one
    args["archive_manifest"] = (dirs[0] / "campaign.json").is_file()
    args["receipts"] = bool((first.get("dice") or {}).get("receipts"))
    args["resume_by_reference"] = (first.get("dice") or {}).get("resume") == "files"
    args["keys_in_state"] = "keys" in first
    if dice.get("mode") == "chain":
        args["chain_heads"] = dict(dice["heads"])
        args["chain_protocol"] = (first.get("dice") or {}).get("protocol", 1)
        if dice.get("witness"):
            args["witness"] = dict(dice["witness"])
    else:
        key_path = folder / "private" / "dice.key"
        if not key_path.is_file():
            raise RemakeError(f"{folder}: no private/dice.key: a game-master campaign can only be re-made with its published key")
        args["key_hex"] = key_path.read_text("ascii").strip()
    return args


# ----------------------------------------------------------------------------- rewriting files
def rewrite_orders(raw: bytes, new_state_hash: str, schema_ref: str | None, *, schema_policy: str) -> bytes:
    """The order file with its ``state:`` hash set to ``new_state_hash``; its schema comment is
    pointed to ``schema_ref`` when the file changes anyway (``auto``) or always (``fix``)."""
    m = STATE_LINE.search(raw)
    if not m:
        raise RemakeError("no top-level `state: <64 hex digits>` line")
    out = raw[:m.start(3)] + new_state_hash.encode("ascii") + raw[m.end(3):]
    fix = schema_policy == "fix" or (schema_policy == "auto" and out != raw)
    if fix and schema_ref:
        out = SCHEMA_LINE.sub(lambda s: s.group(1) + schema_ref.encode("utf-8"), out, count=1)
    return out


def rewrite_reveal(raw: bytes, new_orders_sha: str) -> bytes:
    """The reveal with the same player, index and link, naming the rewritten orders' sha256."""
    m = ORDERS_LINE.search(raw)
    if not m:
        raise RemakeError("no `orders: <64 hex digits>` line")
    return raw[:m.start(3)] + new_orders_sha.encode("ascii") + raw[m.end(3):]


def _stop_point(state: dict) -> dict:
    """Where a step ended: what must come out the same for the next archived files to fit."""
    return {"turn": state.get("turn"), "phase": state.get("phase"), "awaiting": state.get("awaiting"),
            "pending": [(d.get("id"), d.get("player")) for d in state.get("pending") or []],
            "over": bool(state.get("result"))}


# ----------------------------------------------------------------------------- re-making
def _adjudicate(camp_dir: Path, orders: list[Path], reveals: list[Path], missing: bool) -> tuple[int, str]:
    args = ["adjudicate", str(camp_dir), *map(str, orders)]
    for r in reveals:
        args += ["--reveal", str(r)]
    if missing:
        args.append("--missing-orders")
    res = CliRunner().invoke(pbem_cli, args, catch_exceptions=True)
    text = res.output
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        import traceback
        text += "".join(traceback.format_exception(type(res.exception), res.exception, res.exception.__traceback__))
    return res.exit_code, text


def remake(folder: Path, out: Path, *, schema_policy: str = "auto", log=print, adapt: bool = False,
           notes: list[str] | None = None) -> int:
    """Re-make example ``folder`` into the new folder ``out``; returns the number of steps.
    Raises RemakeError naming the step when one can no longer be re-made. With ``adapt`` the
    archive is fitted to the new position instead (see ``remake_adaptive``); every adaptation
    is appended to ``notes``."""
    folder = Path(folder)
    args = _creation_args(folder)
    try:
        new_campaign(out, **args)
    except PbemError as e:
        raise RemakeError(f"{folder}: cannot start the campaign again:\n" + "\n".join(i.format() for i in e.issues)) from e
    if adapt:
        return remake_adaptive(folder, out, schema_policy=schema_policy, notes=notes if notes is not None else [])
    scratch = Path(tempfile.mkdtemp(prefix="pbem-remake-files-"))
    dirs = _step_dirs(folder)
    try:
        for k, d in enumerate(dirs[1:], start=1):
            if d.name != f"{k:03d}":
                raise RemakeError(f"{folder}: expected steps/{k:03d}, found {d.name}")
            where = f"{folder.name} step {d.name}"
            _, state = Campaign(out).current()
            # where the archived file will be: its schema comment is relative to it
            schema_ref = os.path.relpath(ROOT / "schemas" / "orders.schema.json", folder.resolve() / "steps" / d.name)
            work = scratch / d.name
            work.mkdir()
            orders, digests = [], {}
            for p in _order_files(d):
                raw = p.read_bytes()
                try:
                    new = rewrite_orders(raw, state["hash"], schema_ref, schema_policy=schema_policy)
                except RemakeError as e:
                    raise RemakeError(f"{where}: {p.name}: {e}") from None
                digests[sha256_hex(raw)] = sha256_hex(new)
                target = work / p.name
                target.write_bytes(new)
                orders.append(target)
            reveals = []
            for p in sorted(d.glob("reveal-*.yaml")):
                raw = p.read_bytes()
                m = ORDERS_LINE.search(raw)
                named = m.group(3).decode().lower() if m else None
                if named not in digests and len(digests) == 1:
                    named = next(iter(digests))   # the order file was edited by hand to fix it: the step's only one
                if named not in digests:
                    raise RemakeError(f"{where}: {p.name} names no order file of this step")
                target = work / p.name
                target.write_bytes(rewrite_reveal(raw, digests[named]))
                reveals.append(target)
            code, text = _adjudicate(out, orders, reveals, missing=not orders)
            made = out / "steps" / d.name
            if code not in (0, 5) or not made.is_dir():
                how = "with --missing-orders" if not orders else "with " + ", ".join(p.name for p in orders)
                shown = text.replace(str(work) + os.sep, f"steps/{d.name}/")   # name the file the developer can edit
                raise RemakeError(f"{where} (turn {state['turn']}, {state['phase']}) is refused now ({how}; exit {code}):\n"
                                  + _tail(shown))
            was = _stop_point(_yaml(_state_file(d).read_bytes(), str(_state_file(d))))
            now = _stop_point(_yaml(_state_file(made).read_bytes(), str(_state_file(made))))
            if was != now:
                diffs = [f"  {key}: was {was[key]!r}, now {now[key]!r}" for key in was if was[key] != now.get(key)]
                raise RemakeError(f"{where} now stops at a different point, so the next archived files no longer fit:\n"
                                  + "\n".join(diffs))
        return len(dirs) - 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ----------------------------------------------------------------------------- adapting (--adapt)
ITEM_LINE = re.compile(r"^(\s*)- ")
KEY_LINE = re.compile(r"^(\s*)([A-Za-z_]+):\s*(#.*)?$")
CHOICE_BLANK = "    choice: ''   # write one of the legal choices"


@dataclass
class _Archived:
    step: str                 # the archived step's folder name
    path: Path                # its order file
    raw: bytes
    doc: dict
    reveals: list[Path]

    @property
    def player(self) -> str:
        return self.doc.get("player")

    @property
    def answers_only(self) -> bool:
        return bool(self.doc.get("decisions")) and not self.doc.get("phases")


def _current_state_path(camp: Path) -> Path:
    return _state_file(_step_dirs(camp)[-1])


def _cli(*args) -> tuple[int, str]:
    res = CliRunner().invoke(pbem_cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def _standing_block(text: str) -> str:
    """The file's ``standing:`` mapping with the comment lines just above it ('' if none)."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, ln in enumerate(lines) if ln.startswith("standing:")), None)
    if at is None:
        return ""
    start = at
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    end = at + 1
    while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
        end += 1
    return "".join(lines[start:end])


def _head_comments(text: str) -> str:
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    return "".join(lines[:n])


def _answer_text(camp: Path, player: str, pending: list[dict], archived: _Archived | None, schema_ref: str,
                 notes: list[str], where: str) -> str:
    """An answer file for ``player``'s pending decisions, from ``pbem orders template``: each
    choice the archived file's where it still applies, else the first legal one. An archived
    answer file keeps its head comments and its standing orders; a new one has neither."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-remake-answer-"))
    try:
        code, out = _cli("orders", "template", camp, "--player", player, "-o", tmp / "t.yaml")
        if code != 0:
            raise RemakeError(f"{where}: pbem orders template failed:\n{_tail(out)}")
        text = (tmp / "t.yaml").read_text("utf-8")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    mine = [d for d in pending if d["player"] == player]
    chunks = text.split(CHOICE_BLANK)
    if len(chunks) != len(mine) + 1:
        raise RemakeError(f"{where}: the answer template for {player} holds {len(chunks) - 1} choices, the state {len(mine)} decisions")
    old = {}
    if archived is not None:
        for d in archived.doc.get("decisions") or []:
            old[d.get("id")] = d.get("choice")
        old_lines = archived.raw.decode("utf-8").splitlines()
    body = chunks[0]
    for d, rest in zip(mine, chunks[1:]):
        was = old.get(d["id"])
        if was is not None and str(was) in [str(o) for o in d["options"]]:
            # the archived answer line, its comment included
            line = next((ln for ln in old_lines if ln.strip().startswith("choice:") and
                         re.search(r"choice:\s*['\"]?" + re.escape(str(was)) + r"['\"]?(\s|$)", ln)), None)
            # (a list answer, e.g. exchange losses, is written back as a list: JSON is YAML flow)
            # (the template's comment after the blank choice may go on, "; a counter's id ...": the
            # line written keeps a comment for it to go on in)
            body += (line if line is not None else f"    choice: {json.dumps(was)}   # the archived answer") + rest
        else:
            pick = d["options"][0]
            body += f"    choice: {json.dumps(pick)}   # answered by tools/remake_examples.py --adapt: the first legal choice" + rest
            notes.append(f"{where}: {player} answers {d['id']} with the first legal choice {pick!r}"
                         + (f" (the archive answered {was!r}, no longer legal)" if was is not None else
                            " (a decision the archive did not answer here)"))
    # the template's standing orders are dropped: the archived file's are kept, a new file sets none
    own = _standing_block(text)
    if own:
        body = body.replace(own, "")
    body = body.rstrip("\n") + "\n"
    if archived is not None:
        atext = archived.raw.decode("utf-8")
        keep = _standing_block(atext)
        if keep:
            body += keep
    body = SCHEMA_LINE.sub(lambda s: s.group(1) + schema_ref.encode("utf-8"), body.encode("utf-8"), count=1).decode("utf-8")
    return body


def _drop_items(text: str, bad: dict[int, list[str]]) -> tuple[str, list[str]]:
    """Replace each list entry (moves, attacks, replacements, ...) holding a refused line by a
    comment naming it; a list left empty becomes ``[]``. Returns the text and the dropped entries."""
    lines = text.splitlines(keepends=True)
    spans = {}
    for ln_no, codes in bad.items():
        i = ln_no - 1
        while i >= 0 and not (ITEM_LINE.match(lines[i]) and len(ITEM_LINE.match(lines[i]).group(1)) >= 4):
            if not lines[i].startswith((" ", "\t")) or (ITEM_LINE.match(lines[i]) and len(ITEM_LINE.match(lines[i]).group(1)) < 4):
                i = -1
                break
            i -= 1
        if i < 0:
            raise RemakeError(f"line {ln_no} ({', '.join(codes)}) is in no entry that can be dropped")
        ind = len(ITEM_LINE.match(lines[i]).group(1))
        j = i + 1
        while j < len(lines) and lines[j].strip() and not lines[j].lstrip().startswith("#") and \
                len(lines[j]) - len(lines[j].lstrip()) > ind:
            j += 1
        spans.setdefault((i, j), set()).update(codes)
    dropped = []
    for (i, j), codes in sorted(spans.items(), reverse=True):
        ind = ITEM_LINE.match(lines[i]).group(1)
        entry = " ".join(ln.strip() for ln in lines[i:j])[2:]
        entry_wo_comment = re.sub(r"\s+#.*$", "", entry)
        dropped.append(entry_wo_comment)
        lines[i:j] = [f"{ind}# dropped by tools/remake_examples.py --adapt (refused now: {', '.join(sorted(codes))}): "
                      f"{entry_wo_comment}\n"]
    # a list left without entries
    for k, ln in enumerate(lines):
        m = KEY_LINE.match(ln)
        if not m:
            continue
        ind = len(m.group(1))
        items = False
        for nxt in lines[k + 1:]:
            if not nxt.strip() or nxt.lstrip().startswith("#"):
                continue
            items = len(nxt) - len(nxt.lstrip()) >= ind and nxt.lstrip().startswith("- ")
            break
        if not items and m.group(2) in ("moves", "attacks", "replacements", "strategic", "rail", "sea"):
            lines[k] = f"{m.group(1)}{m.group(2)}: []" + (f"   {m.group(3)}" if m.group(3) else "") + "\n"
    return "".join(lines), list(reversed(dropped))


def _fit_orders(camp: Path, text: str, name: str, where: str, notes: list[str], scratch: Path) -> str:
    """Drop the entries ``pbem validate`` refuses at the current position, until it accepts."""
    for _ in range(12):
        target = scratch / name
        target.write_text(text, "utf-8")
        code, out = _cli("validate", _current_state_path(camp), target)
        if code == 0:
            return text
        bad: dict[int, list[str]] = {}
        for line in out.splitlines():
            m = re.match(rf"^{re.escape(str(target))}:(\d+)(?::\d+)?: error ([A-Z0-9-]+)", line)
            if m:
                bad.setdefault(int(m.group(1)), []).append(m.group(2))
        if not bad:
            raise RemakeError(f"{where}: {name} is refused and names no line:\n" + _tail(out.replace(str(target), name)))
        try:
            text, dropped = _drop_items(text, bad)
        except RemakeError as e:
            raise RemakeError(f"{where}: {name}: {e}:\n" + _tail(out.replace(str(target), name))) from None
        for d in dropped:
            notes.append(f"{where}: dropped from {name} (refused now): {d}")
    raise RemakeError(f"{where}: {name} still refused after dropping entries")


def _run(camp: Path, path: Path, reveals: list[Path], where: str) -> None:
    code, text = _adjudicate(camp, [path], reveals, missing=False)
    if code not in (0, 5, 6):       # 6: archived, waiting for the other players' files
        raise RemakeError(f"{where}: {path.name} is refused now (exit {code}):\n" + _tail(text.replace(str(path.parent) + os.sep, "")))


def remake_adaptive(folder: Path, out: Path, *, schema_policy: str, notes: list[str]) -> int:
    """Play the example's archived files again, fitting them to the position the current rules
    give (``--adapt``): pending decisions are answered by the archived answer file of their
    player (the next ones before the next order file), else with the first legal choice (a new
    step); an answer file whose decisions are no longer asked is dropped (its standing orders go
    with that player's next order file); entries of an order file that are refused now are
    dropped (each replaced by a comment naming it). Returns the number of steps made."""
    items: list[_Archived] = []
    for d in _step_dirs(folder)[1:]:
        files = _order_files(d)
        if len(files) != 1:
            raise RemakeError(f"{folder.name} step {d.name}: --adapt handles steps with one order file, this has {len(files)}")
        raw = files[0].read_bytes()
        items.append(_Archived(d.name, files[0], raw, _yaml(raw, str(files[0])) or {}, sorted(d.glob("reveal-*.yaml"))))
    scratch = Path(tempfile.mkdtemp(prefix="pbem-remake-adapt-"))
    used: set[int] = set()
    carried: dict[str, tuple[str, str]] = {}     # player -> (standing block, the archived step it came from)
    made = 0

    def schema_ref_for(step_no: int) -> str:
        return os.path.relpath(ROOT / "schemas" / "orders.schema.json", folder.resolve() / "steps" / f"{step_no:03d}")

    def answer(player: str, pending: list[dict], arch: _Archived | None, where: str) -> None:
        nonlocal made
        text = _answer_text(out, player, pending, arch, schema_ref_for(made + 1), notes, where)
        name = arch.path.name if arch else f"orders-1-{player}.yaml"
        work = scratch / f"{made + 1:03d}"
        work.mkdir(exist_ok=True)
        (work / name).write_text(text, "utf-8")
        _run(out, work / name, [], where)
        made += 1

    def settle(idx: int, where: str) -> None:
        while True:
            _, state = Campaign(out).current()
            pending = state.get("pending") or []
            if not pending:
                break
            p0 = pending[0]["player"]
            # the archived answer file of that player, up to the next order file
            found = None
            for k in range(idx, len(items)):
                if k in used:
                    continue
                if not items[k].answers_only:
                    break
                if items[k].player == p0:
                    found = k
                    break
            if found is None:
                notes.append(f"{where}: new step {made + 1:03d}: {p0} answers "
                             + ", ".join(d["id"] for d in pending if d["player"] == p0) + " (not asked in the archive here)")
                answer(p0, pending, None, f"{folder.name} new step {made + 1:03d}")
                continue
            arch = items[found]
            used.add(found)
            if found != idx or made + 1 != int(arch.step):
                notes.append(f"{where}: archived step {arch.step} ({p0}'s answer file) is step {made + 1:03d} now")
            answer(p0, pending, arch, f"{folder.name} archived step {arch.step}")
            if found == idx:
                break

    last: dict = {}

    def resend() -> bool:
        """The game awaits new orders of the player whose file was applied last, for a phase of
        that file (its later phases no longer fit the position reached): send those phases again."""
        nonlocal made
        _, state = Campaign(out).current()
        aw = state.get("awaiting") or {}
        aw = aw[0] if isinstance(aw, list) and aw else aw
        if state.get("pending") or not last or aw.get("for") != "orders" or aw.get("player") != last["player"] \
                or state.get("turn") != last["turn"] or state.get("phase") not in last["phases"]:
            return False
        text = last["text"]
        lines = text.splitlines(keepends=True)
        starts = [i for i, ln in enumerate(lines) if re.match(r"^\s*- phase:\s*['\"]?" + re.escape(state["phase"]) + r"['\"]?\s*(#.*)?$", ln)]
        first = next((i for i, ln in enumerate(lines) if re.match(r"^\s*- phase:", ln)), None)
        if not starts or first is None:
            return False
        lines[first:starts[0]] = []
        text = "".join(lines)
        text = rewrite_orders(text.encode("utf-8"), state["hash"], None, schema_policy="keep").decode("utf-8")
        text = text.replace("\nschema:", f"\n# resent by tools/remake_examples.py --adapt: the phases from {state['phase']} on, "
                            "which pbem asked for again\nschema:", 1)
        where = f"{folder.name} new step {made + 1:03d}"
        work = scratch / f"{made + 1:03d}"
        work.mkdir(exist_ok=True)
        text = _fit_orders(out, text, last["name"], where, notes, work)
        (work / last["name"]).write_text(text, "utf-8")
        if last["reveals"]:
            raise RemakeError(f"{where}: pbem asks the {last['player']} player for new orders for {state['phase']}, "
                              "which need new chain links: the tool cannot reveal them")
        notes.append(f"{where}: {last['player']} sends the phases from {state['phase']} on again (pbem asked for new orders)")
        _run(out, work / last["name"], [], where)
        made += 1
        last["text"] = text
        return True

    try:
        for idx, it in enumerate(items):
            if idx in used:
                continue
            where = f"{folder.name} archived step {it.step}"
            while True:      # answers and resent phases until the archived file fits
                settle(idx, where)
                if idx in used or not resend():
                    break
            if idx in used:
                continue
            _, state = Campaign(out).current()
            if it.answers_only:
                ids = ", ".join(str(d.get("id")) for d in it.doc.get("decisions") or [])
                block = _standing_block(it.raw.decode("utf-8"))
                notes.append(f"{where}: {it.player}'s answer file dropped: {ids} no longer asked"
                             + ("; its standing orders go with the player's next order file" if block else ""))
                if block:
                    carried[it.player] = (block, it.step)
                continue
            aw = state.get("awaiting") or {}
            aw = aw[0] if isinstance(aw, list) and aw else aw
            if aw.get("player") != it.player or aw.get("for") != "orders":
                raise RemakeError(f"{where}: the archive's next file is {it.player}'s orders, but the game awaits {aw}")
            step_no = made + 1
            text = rewrite_orders(it.raw, state["hash"], schema_ref_for(step_no), schema_policy=schema_policy).decode("utf-8")
            if it.player in carried:
                block, src = carried.pop(it.player)
                if "\nstanding:" in text or text.startswith("standing:"):
                    notes.append(f"{where}: the standing orders of dropped archived step {src} are not added: this file sets its own")
                else:
                    text = text.rstrip("\n") + "\n" + block
                    notes.append(f"{where}: the standing orders of dropped archived step {src} added to this file")
            work = scratch / f"{step_no:03d}"
            work.mkdir(exist_ok=True)
            text = _fit_orders(out, text, it.path.name, where, notes, work)
            target = work / it.path.name
            target.write_text(text, "utf-8")
            reveals = []
            for r in it.reveals:
                t = work / r.name
                t.write_bytes(rewrite_reveal(r.read_bytes(), sha256_hex(target.read_bytes())))
                reveals.append(t)
            _run(out, target, reveals, where)
            made += 1
            last.clear()
            last.update(player=it.player, turn=it.doc.get("turn"), name=it.path.name, text=text, reveals=bool(reveals),
                        phases=[p.get("phase") for p in it.doc.get("phases") or []])
            if made != int(it.step):
                notes.append(f"{where} is step {made:03d} now")
        # the archive ended after its last file: the phases pbem asks for again and, when the
        # archive did not end at a decision, the decisions that follow, until it stops as it did
        last_dir = _step_dirs(folder)[-1]
        ended_pending = bool(_yaml(_state_file(last_dir).read_bytes(), str(last_dir)).get("pending"))
        while True:
            if not ended_pending:
                settle(len(items), f"{folder.name} after archived step {items[-1].step if items else '000'}")
            if not resend():
                break
        return made
    except RemakeError as e:
        if not notes:
            raise
        raise RemakeError(f"{e}\n  adaptations before it:\n" + "\n".join(f"    {n}" for n in notes)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _tail(text: str, lines: int = 40) -> str:
    """The problems pbem printed (the issue lines), else the end of its output."""
    ls = text.rstrip().splitlines()
    issues = [ln for ln in ls if re.search(r"\b(error|warning)\b|[A-Z]+-[A-Z-]+", ln)]
    pick = issues[-lines:] if issues else ls[-lines:]
    return "\n".join("  " + ln for ln in pick)


def _copy_kept(folder: Path, out: Path) -> None:
    for p in sorted(folder.iterdir()):
        if p.name in KEPT_BY_ENGINE:
            continue
        if p.is_dir():
            shutil.copytree(p, out / p.name)
        else:
            shutil.copy2(p, out / p.name)


# ----------------------------------------------------------------------------- comparing
def _files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file()}


def compare(old: Path, new: Path, outcome: Outcome) -> None:
    a, b = _files(old), _files(new)
    outcome.removed = sorted(set(a) - set(b))
    outcome.added = sorted(set(b) - set(a))
    outcome.changed_files = sorted(k for k in set(a) & set(b) if a[k].read_bytes() != b[k].read_bytes())
    outcome.identical = not (outcome.removed or outcome.added or outcome.changed_files)
    for d in _step_dirs(old)[1:]:
        rel = f"steps/{d.name}/report.txt"
        if rel not in a or rel not in b:
            continue
        x = a[rel].read_text("utf-8").splitlines()
        y = b[rel].read_text("utf-8").splitlines()
        if x == y:
            continue
        first = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
        was = x[first] if first < len(x) else "(end)"
        now = y[first] if first < len(y) else "(end)"
        outcome.changed_reports.append(f"step {d.name}: report.txt {len(x)} -> {len(y)} lines; first difference at line {first + 1}:\n"
                                       f"      was: {was.rstrip()}\n      now: {now.rstrip()}")


def readme_warnings(folder: Path, steps: int, replay_steps: int | None = None, rolls: int | None = None) -> list[str]:
    """Steps a README names that do not exist, and step/roll counts that are no longer true."""
    out = []
    for readme in sorted(folder.glob("README*")):
        for n, line in enumerate(readme.read_text("utf-8").splitlines(), 1):
            if "step" in line.lower() or line.lstrip().startswith("|"):
                for m in re.finditer(r"(?<![\d.])(\d{3})(?![\d.])", line):
                    if int(m.group(1)) > steps and not re.match(r"\s*(roll|x|hex)", line[m.end():]):
                        # a hex id is 4 digits, so 3-digit numbers here are step numbers
                        out.append(f"{readme.name}:{n}: names step {m.group(1)}, but the campaign has steps 001-{steps:03d}")
            for m in re.finditer(r"(\d+) step\(s\)", line):
                if replay_steps is not None and int(m.group(1)) != replay_steps:
                    out.append(f"{readme.name}:{n}: says {m.group(0)}; the replay now has {replay_steps} step(s)")
            for m in re.finditer(r"(\d+) roll\(s\)", line):
                if rolls is not None and int(m.group(1)) != rolls:
                    out.append(f"{readme.name}:{n}: says {m.group(0)}; the replay now recomputes {rolls} roll(s)")
    return out


# ----------------------------------------------------------------------------- one example
def process(folder: Path, *, check: bool, schema_policy: str = "auto", log=print, adapt: bool = False) -> Outcome:
    from pbem.core.replay import replay_campaign
    folder = Path(folder)
    if not (folder / "campaign.yaml").is_file():
        raise RemakeError(f"{folder}: not a campaign folder (no campaign.yaml)")
    outcome = Outcome(example=folder)
    tmp = Path(tempfile.mkdtemp(prefix=f"pbem-remake-{folder.name}-"))
    try:
        new = tmp / folder.name
        outcome.steps = remake(folder, new, schema_policy=schema_policy, log=log, adapt=adapt, notes=outcome.adaptations)
        priv = new / "private"
        if priv.is_dir() and not any(priv.iterdir()):
            priv.rmdir()          # a chain campaign has no dice key (and git keeps no empty folder)
        _copy_kept(folder, new)
        rep = replay_campaign(new)
        bad = [i for i in rep.issues if i.is_error]
        if bad:
            raise RemakeError(f"{folder.name}: the re-made archive does not replay:\n" + "\n".join("  " + i.format() for i in bad))
        compare(folder, new, outcome)
        outcome.warnings = readme_warnings(new, outcome.steps, rep.steps, rep.rolls)
        if not check and not outcome.identical:
            _swap(folder, new)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return outcome


def _swap(folder: Path, new: Path) -> None:
    """Put ``new`` in place of ``folder``: copied beside it first, then two renames."""
    folder = folder.resolve()
    beside = folder.parent / f".{folder.name}.remake-{os.getpid()}"
    old = folder.parent / f".{folder.name}.old-{os.getpid()}"
    shutil.copytree(new, beside, symlinks=True)
    try:
        os.rename(folder, old)
        try:
            os.rename(beside, folder)
        except OSError:
            os.rename(old, folder)
            raise
    finally:
        if beside.exists():
            shutil.rmtree(beside, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def summary(o: Outcome, check: bool) -> list[str]:
    name = o.example.name
    if o.identical:
        return [f"{name}: {o.steps} step(s) re-made, byte-identical to the archive" + ("" if check else " (left as it was)")]
    verb = "would change" if check else "replaced"
    L = [f"{name}: {o.steps} step(s) re-made; {verb}: {len(o.changed_files)} file(s) differ, "
         f"{len(o.added)} new, {len(o.removed)} gone"]
    L += [f"  {r}" for r in o.changed_reports] or ["  every report.txt is unchanged"]
    other = [f for f in o.changed_files if not f.endswith("report.txt")]
    if other and check:
        L.append("  differing files: " + ", ".join(other[:12]) + (" ..." if len(other) > 12 else ""))
    if o.added and check:
        L.append("  new files: " + ", ".join(o.added[:12]) + (" ..." if len(o.added) > 12 else ""))
    if o.removed and check:
        L.append("  gone files: " + ", ".join(o.removed[:12]) + (" ..." if len(o.removed) > 12 else ""))
    return L


#: examples that only their own scripts re-make (--all leaves them out): the BlitzWAR Axis plan
#: depends on where the dice leave the units, and signed reveals are bound to the archive head
SCRIPT_MADE = {"blitzwar-1939": "tools/make_blitzwar_example.py",
               "blitzwar-chain-signed": "tools/make_blitzwar_chain_example.py",
               "bfg-chain-decisions": "tools/make_chain_decisions_example.py"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Exit: 0 done (or --check: identical); 1 --check found differences; 2 a step can no longer be re-made.")
    ap.add_argument("examples", nargs="*", type=Path, help="example folders (examples/NAME)")
    ap.add_argument("--all", action="store_true", help="every campaign in examples/ but those their own scripts make (SCRIPT_MADE)")
    ap.add_argument("--check", action="store_true", help="re-make into a temporary folder and report the differences; change nothing")
    ap.add_argument("--schema-comment", choices=["auto", "keep", "fix"], default="auto",
                    help="the `# yaml-language-server` line of order files: auto (repoint it only in files that change anyway), "
                         "keep, fix (repoint it in every file)")
    ap.add_argument("--adapt", action="store_true",
                    help="fit the archived files to the position the current rules give: drop refused order entries and answer "
                         "files whose decisions are no longer asked, answer new decisions with the first legal choice; "
                         "every adaptation is listed")
    a = ap.parse_args(argv)
    folders = list(a.examples)
    if a.all:
        folders += sorted(p.parent for p in (ROOT / "examples").glob("*/campaign.yaml")
                          if not p.parent.name.startswith(".") and p.parent.name not in SCRIPT_MADE)
        for name, script in sorted(SCRIPT_MADE.items()):
            if (ROOT / "examples" / name).is_dir():
                print(f"{name}: left out (made by {script}: run it with --check or --replace)")
    if not folders:
        ap.error("name example folders or give --all")
    rc = 0
    for f in folders:
        try:
            o = process(f, check=a.check, schema_policy=a.schema_comment, adapt=a.adapt)
        except RemakeError as e:
            print(f"FAILED {f}: {e}\n  the example is left untouched. If those orders must change now, edit the order "
                  "file in the example's steps/NNN/ (the archive is re-made from it) and run again.", file=sys.stderr)
            rc = 2
            continue
        for line in summary(o, a.check):
            print(line)
        if o.adaptations:
            print(f"  {len(o.adaptations)} adaptation(s):")
        for n in o.adaptations:
            print(f"    adapted: {n}")
        for w in o.warnings:
            print(f"  warning: {w}")
        if a.check and not o.identical and rc == 0:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
