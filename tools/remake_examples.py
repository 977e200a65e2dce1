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

Usage::

    python tools/remake_examples.py examples/bfg-historical [more ...]
    python tools/remake_examples.py --all
    python tools/remake_examples.py --check --all      # re-make into a temp dir, compare, change nothing

``--check`` exits 0 when every archive comes out byte-identical, 1 when some differ (the
differences are listed), 2 when a step can no longer be re-made.
"""
from __future__ import annotations

import argparse
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
    kinds = {repr(sorted((v or {}).items())) for v in standing.values()}
    if len(kinds) > 1:
        raise RemakeError(f"{folder}: the players start with different standing orders ({standing}); "
                          "`pbem new` gives every player the same ones")
    start_standing = dict(next(iter(standing.values()))) if standing else {}
    dice = manifest.get("dice") or {}
    args = dict(scenario=manifest["scenario"], campaign_id=manifest["id"], title=manifest.get("title"),
                players={p: dict(v) for p, v in manifest["players"].items()},
                options={k: True for k, v in (manifest.get("options") or {}).items() if v},
                standing=start_standing or None,
                missing_defaults=dict(manifest["missing_orders"]) if manifest.get("missing_orders") else None,
                gm=manifest.get("gm"))
    if dice.get("mode") == "chain":
        args["chain_heads"] = dict(dice["heads"])
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


def remake(folder: Path, out: Path, *, schema_policy: str = "auto", log=print) -> int:
    """Re-make example ``folder`` into the new folder ``out``; returns the number of steps.
    Raises RemakeError naming the step when one can no longer be re-made."""
    folder = Path(folder)
    args = _creation_args(folder)
    try:
        new_campaign(out, **args)
    except PbemError as e:
        raise RemakeError(f"{folder}: cannot start the campaign again:\n" + "\n".join(i.format() for i in e.issues))
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
def process(folder: Path, *, check: bool, schema_policy: str = "auto", log=print) -> Outcome:
    from pbem.core.actions import replay_campaign
    folder = Path(folder)
    if not (folder / "campaign.yaml").is_file():
        raise RemakeError(f"{folder}: not a campaign folder (no campaign.yaml)")
    outcome = Outcome(example=folder)
    tmp = Path(tempfile.mkdtemp(prefix=f"pbem-remake-{folder.name}-"))
    try:
        new = tmp / folder.name
        outcome.steps = remake(folder, new, schema_policy=schema_policy, log=log)
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Exit: 0 done (or --check: identical); 1 --check found differences; 2 a step can no longer be re-made.")
    ap.add_argument("examples", nargs="*", type=Path, help="example folders (examples/NAME)")
    ap.add_argument("--all", action="store_true", help="every campaign in examples/")
    ap.add_argument("--check", action="store_true", help="re-make into a temporary folder and report the differences; change nothing")
    ap.add_argument("--schema-comment", choices=["auto", "keep", "fix"], default="auto",
                    help="the `# yaml-language-server` line of order files: auto (repoint it only in files that change anyway), "
                         "keep, fix (repoint it in every file)")
    a = ap.parse_args(argv)
    folders = list(a.examples)
    if a.all:
        folders += sorted(p.parent for p in (ROOT / "examples").glob("*/campaign.yaml") if not p.parent.name.startswith("."))
    if not folders:
        ap.error("name example folders or give --all")
    rc = 0
    for f in folders:
        try:
            o = process(f, check=a.check, schema_policy=a.schema_comment)
        except RemakeError as e:
            print(f"FAILED {f}: {e}\n  the example is left untouched. If those orders must change now, edit the order "
                  "file in the example's steps/NNN/ (the archive is re-made from it) and run again.", file=sys.stderr)
            rc = 2
            continue
        for line in summary(o, a.check):
            print(line)
        for w in o.warnings:
            print(f"  warning: {w}")
        if a.check and not o.identical and rc == 0:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
