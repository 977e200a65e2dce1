"""Campaign folders, state files and order files.

A campaign folder::

    CAMPAIGN/
      campaign.yaml                 the manifest: game, scenario, players, dice commitment
      private/dice.key              the game master's dice key: never send it (reveal it at the end)
      steps/000/<state file>        the initial state
      steps/001/orders-<player>-<sha12>.yaml   the order files adjudicated, byte for byte
      steps/001/report.json         what happened: events, every roll with its label, digests
      steps/001/report.txt          the same report as text (what is mailed to the players)
      steps/001/<state file>        the state after the step

A step is written into ``steps/.NNN.tmp-*`` and then renamed to ``steps/NNN`` in one atomic
operation that fails if ``steps/NNN`` exists: a crash leaves the campaign at the previous step,
and no archived file is ever overwritten.
"""
from __future__ import annotations

import copy
import json
import marshal
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from .awaiting import awaited_players
from .canon import canonical_json, sha256_hex, state_hash, state_json
from .errors import ExitCode, Issue, PbemError, Severity
from .files import atomic_write, ensure_inside, read_bytes_limited, step_folders
from .games import game
from .lazyclass import dataclass  # made when first used (issue 35)
from .schema import _named_validator, _unknown_properties, schema_files, validate
from .yamlio import Loaded, Marks, dump_state_yaml, dump_yaml, load_yaml

MANIFEST = "campaign.yaml"
MANIFEST_COPY = "campaign.json"   # steps/000/campaign.json: the manifest as the campaign started
KEY_FILE = Path("private") / "dice.key"
MAX_ORDERS_BYTES = 1_000_000
MAX_STATE_BYTES = 20_000_000


@dataclass
class OrderFile:
    name: str
    raw: bytes
    doc: dict[str, Any]
    marks: Marks
    digest: str        # sha256 of the exact bytes
    path_map: dict[tuple[Any, ...], list[int]] | None = None   # a checkable part of a schema-invalid file (checkable_part)
    dropped: tuple[Any, ...] = ()            # (checkable_part) the document paths of the entries left out

    @property
    def player(self) -> str:
        # the schema requires it: None only in a file the schema refuses
        return cast(str, self.doc.get("player"))


def state_file_name(state: dict[str, Any]) -> str:
    tag = "-decision" if state.get("pending") else ""
    return f"{state['campaign']}-{state['step']:03d}-t{state['turn']:02d}-{state['phase']}{tag}.yaml"


SCHEMA_FOLDER = "schemas"


def render_state(state: dict[str, Any], schema: str = "state") -> str:
    """The state file text, with its hash computed over the canonical form. Its first line
    names the game's state schema in the campaign's own ``schemas/`` folder (written by
    ``pbem new``), so that editors resolve it from ``steps/NNN/``."""
    return render_state_hashed(state, schema)[0]


def render_state_hashed(state: dict[str, Any], schema: str = "state") -> tuple[str, str]:
    """:func:`render_state` and the hash it wrote (a state is hashed once)."""
    st = dict(state)
    st.pop("hash", None)
    st["hash"] = sha256_hex(state_json(st))
    header = (f"yaml-language-server: $schema=../../{SCHEMA_FOLDER}/{schema}.schema.json\n"
              f"pbem state: {st['game']} campaign {st['campaign']}, step {st['step']}, turn {st['turn']}, {st['phase']}\n"
              "written by pbem: do not edit (its hash would no longer match)")
    # the parts of the state the same as in the state written before are not laid out again
    return dump_state_yaml(st, header=header), st["hash"]


def _other_kind(doc: Any, kind: str, what: str, name: str, hint: str) -> None:
    """Refuse at once, with one clear issue, a pbem file of another kind (an order file given
    where a state is expected, ...) instead of listing every field it lacks."""
    sch = doc.get("schema") if isinstance(doc, dict) else None
    if isinstance(sch, str) and sch.startswith("pbem/") and not sch.startswith(f"pbem/{kind}/"):
        raise PbemError([Issue(f"FILE-NOT-{kind.upper()}", f"{name} is not {what}: it is a {sch} file",
                               file=name, line=1, hint=hint)], ExitCode.INVALID)


def _game_schema(doc: Any, kind: str) -> str:
    """The schema of a state or order file of the game it names (``<game>-<kind>``), or the
    core's envelope schema when the game is not known (which then says what is wrong)."""
    gid = doc.get("game") if isinstance(doc, dict) else None
    if not isinstance(gid, str):
        return kind
    try:
        g = game(gid)
    except PbemError:
        return kind
    return g.state_schema if kind == "state" else g.orders_schema


def load_state_file(path: Path) -> tuple[dict[str, Any], bytes]:
    return load_state_bytes(read_bytes_limited(Path(path), MAX_STATE_BYTES), path)


def load_state_bytes(raw: bytes, path: Path | str) -> tuple[dict[str, Any], bytes]:
    """A state from its bytes (``path`` names it in messages): schema and hash checked. The
    last state checked is kept for the process: a command that reads the same bytes again
    (`pbem validate CAMPAIGN`: the campaign's current state, then the state the files are
    checked against) gets a copy of it instead of a second parse, check and hash (kept with
    marshal: a loaded state holds dicts, lists, strings, ints, booleans and None only, which it
    gives back exactly, and it needs no import, where pickle cost 6M instructions of `show`)."""
    if _last_state and _last_state[0] == raw:
        return marshal.loads(_last_state[1]), raw
    st = _load_state_bytes(raw, path)
    _last_state[:] = [raw, marshal.dumps(st)]
    return st, raw


_last_state: list[Any] = []   # [bytes, marshalled state] of the last valid state read


def _load_state_bytes(raw: bytes, path: Path | str) -> dict[str, Any]:
    loaded = load_yaml(raw, str(path), max_bytes=MAX_STATE_BYTES, max_nodes=2_000_000)
    st: dict[str, Any] = loaded.data
    _other_kind(st, "state", "a state file", str(path), "give a state file (steps/NNN/*.yaml) or a campaign folder; "
                "`pbem validate STATE ORDERS...` takes the state first")
    issues = validate(st, _game_schema(st, "state"), marks=loaded.marks, filename=str(path), raw=raw)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    h = state_hash(st)
    if st.get("hash") != h:
        raise PbemError([Issue("HASH-STATE", f"{path}: the state's hash does not match its content: it was edited by hand or damaged",
                               file=str(path), hint="use the state file pbem wrote; `pbem replay` checks the whole archive")])
    return st


def load_order_file(path: Path, *, name: str | None = None) -> OrderFile:
    raw = read_bytes_limited(Path(path), MAX_ORDERS_BYTES)
    return parse_order_bytes(raw, name or str(path))


def parse_order_bytes(raw: bytes, name: str) -> OrderFile:
    of, issues = read_order_bytes(raw, name)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    return of


# A file written from `pbem orders template` says, near its top, that it ends with END_LINE; a
# file that says so and lacks the line was cut short (at a line boundary it is still valid YAML,
# shorter orders): refused, signed or not (issue 29; a signed file also loses its signature).
END_MARK = b"# pbem order file: it ends with the line '# end of the order file'"
END_LINE = b"# end of the order file"


def with_end_line(text: str) -> str:
    """The template ``text`` with its end mark (after the schema comment) and end line."""
    lines = text.split("\n")
    at = 1 if lines and lines[0].startswith("# yaml-language-server") else 0
    lines.insert(at, END_MARK.decode("ascii") + " (a file without it was cut short and is refused)")
    out = "\n".join(lines)
    return out + ("" if out.endswith("\n") else "\n") + END_LINE.decode("ascii") + " (keep this line; write above it)\n"


def truncation_issues(raw: bytes, name: str) -> list[Issue]:
    """ORDERS-TRUNCATED for a file written from the template whose end line is gone."""
    if END_MARK not in raw:
        return []
    if any(ln.startswith(END_LINE) for ln in raw.splitlines()):
        return []
    return [Issue("ORDERS-TRUNCATED", "the file was written from `pbem orders template` but its last line "
                  f"'{END_LINE.decode('ascii')}' is gone: it was cut short (a mail or an editor lost its end)", file=name,
                  line=raw.count(b"\n") or 1, hint="send the whole file; if you deleted the line yourself, put it back at the end")]


def read_order_bytes(raw: bytes, name: str) -> tuple[OrderFile, list[Issue]]:
    """The order file and its schema issues (a file that is not YAML, not a mapping or another
    kind of pbem file is refused at once: PbemError)."""
    loaded: Loaded = load_yaml(raw, name, max_bytes=MAX_ORDERS_BYTES)
    doc = loaded.data
    if not isinstance(doc, dict):
        raise PbemError([Issue("SCHEMA-TYPE", "an order file is a mapping (schema:, game:, player:, ...)", file=name, line=1)])
    sch = doc.get("schema") if isinstance(doc, dict) else None
    _other_kind(doc, "orders", "an order file", name,
                "a reveal goes after --reveal: pbem adjudicate CAMPAIGN --reveal FILE ... (every asked player's)"
                if isinstance(sch, str) and sch.startswith("pbem/reveal/") else
                "give the order file written from `pbem orders template`")
    issues = validate(doc, _game_schema(doc, "orders"), marks=loaded.marks, filename=name, raw=raw)
    return OrderFile(name=name, raw=raw, doc=doc, marks=loaded.marks, digest=sha256_hex(raw)), issues


# Header fields whose schema error does not stop the rest of the file from being checked: the
# checkable part takes the state's value (the schema issue already says what is wrong).
_HEADER_FROM_STATE: dict[str, Callable[[dict[str, Any]], Any]] = {"schema": lambda st: "pbem/orders/v1", "game": lambda st: st["game"],
                      "campaign": lambda st: st["campaign"], "state": lambda st: st["hash"],
                      "turn": lambda st: st["turn"]}


def _drop_target(p: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The entry a schema error at document path ``p`` spoils: one order (a move, an attack,
    a replacement, a decision, a standing order), else the phase, else a header field
    (``None``: the whole document)."""
    if not p:
        return None
    if p[0] == "phases":
        if len(p) >= 4 and isinstance(p[3], int):
            return p[:4]                    # phases[i].moves[j]
        if len(p) >= 3 and p[2] != "phase":
            return p[:3]                    # phases[i].courland_exit, an unknown key, a list that is not one
        return p[:2]                        # the phase itself (its name)
    if p[0] in ("decisions", "standing"):
        return p[:2]
    return p[:1]


def checkable_part(of: OrderFile, state: dict[str, Any]) -> OrderFile | None:
    """For an order file with schema errors: a copy without the broken entries, so that the
    rest can be checked against the rules at the same time (every problem at once). Its
    ``path_map`` gives, for each list with entries left out, the original index of every
    entry kept, so that issues point at the right line. None when nothing can be checked
    (the player is unknown, or the pruned file still breaks the schema)."""
    validator = _named_validator(_game_schema(of.doc, "orders"))
    drop: set[tuple[Any, ...]] = set()
    header: set[str] = set()
    for e in validator.iter_errors(of.doc):
        p = tuple(e.absolute_path)
        if e.validator == "required" and not p:
            missing = [k for k in e.validator_value if k not in of.doc]
            header.update(missing)
            continue
        targets = [p + (k,) for k in _unknown_properties(e)] if e.validator == "additionalProperties" else [p]
        for t in targets:
            d = _drop_target(t)
            if d is None:
                return None
            if len(d) == 1 and d[0] in (*_HEADER_FROM_STATE, "player"):
                header.add(d[0])
            drop.add(d)
    if not header <= set(_HEADER_FROM_STATE):
        return None                         # no player (or a broken one): nothing to check
    path_map: dict[tuple[Any, ...], list[int]] = {}

    def build(node: Any, path: tuple[Any, ...]) -> Any:
        if isinstance(node, dict):
            return {k: build(v, path + (k,)) for k, v in node.items() if path + (k,) not in drop}
        if isinstance(node, list):
            kept = [i for i in range(len(node)) if path + (i,) not in drop]
            if len(kept) != len(node):
                path_map[path] = kept
            return [build(node[i], path + (i,)) for i in kept]
        return copy.deepcopy(node)
    doc = build(of.doc, ())
    for k in header:
        doc[k] = _HEADER_FROM_STATE[k](state)
    if not validator.is_valid(doc):
        return None
    return OrderFile(name=of.name, raw=of.raw, doc=doc, marks=of.marks, digest=of.digest, path_map=path_map,
                     dropped=tuple(sorted(drop, key=str)))


def original_path(path: tuple[Any, ...], path_map: dict[tuple[Any, ...], list[int]]) -> tuple[Any, ...]:
    """A document path of a :func:`checkable_part` turned back into the original file's."""
    out: tuple[Any, ...] = ()
    for part in path:
        kept = path_map.get(out)
        if kept is not None and isinstance(part, int) and not isinstance(part, bool) and 0 <= part < len(kept):
            part = kept[part]
        out += (part,)
    return out


def check_orders_against_state(of: OrderFile, state: dict[str, Any]) -> list[Issue]:
    """Game, campaign and state hash: orders written for another game or state are refused."""
    out = []
    d = of.doc
    if d.get("game") != state["game"]:
        out.append(Issue("ORDERS-GAME", f"the orders are for game {d.get('game')!r}; the state is {state['game']!r}", path=("game",)))
    if d.get("campaign") != state["campaign"]:
        out.append(Issue("ORDERS-CAMPAIGN", f"the orders are for campaign {d.get('campaign')!r}; the state is campaign {state['campaign']!r}",
                         path=("campaign",), text=str(d.get("campaign"))))
    # While several players' files are collected for one phase (or their answers to decisions
    # pending at once), each was written against the state that opened it, or against a state
    # written while collecting (a player answering the mail of the step that received another
    # player's file): those hashes stand too. The state before this one, when a collection is
    # going on, is the one that opened it or one written while collecting (they differ only in
    # what was received), which covers every player of a three-player phase.
    accepted = (state["hash"],) + ((state["written_against"], state.get("previous"))
                                   if state.get("written_against") else ())
    if d.get("state") not in accepted:
        out.append(Issue("HASH-ORDERS-STATE", "the orders were written against another state (its hash differs)"
                         + _which_state(d, state), path=("state",), text=str(d.get("state")),
                         hint=_state_hint(d, state)))
    return [i.located(of.name, of.marks) for i in out]


def _state_hint(d: dict[str, Any], state: dict[str, Any]) -> str:
    """What to do about a file written against another state: write a new one from the
    template when the game awaits its player, else nothing now (a file for a phase that is
    over, e.g. one passed with the missing-orders default: the game awaits someone else)."""
    now = awaited_players(state)
    player = d.get("player")
    if not now or player in now:
        return f"this state is {state['hash'][:16]}...; make a new template with `pbem orders template`"
    return (f"this state is {state['hash'][:16]}...; the game awaits the {', '.join(now)} "
            f"player{'s' if len(now) > 1 else ''} now, not the {player} player: nothing to send until "
            "a mail asks for your orders (then write them from `pbem orders template`)")


def _which_state(d: dict[str, Any], state: dict[str, Any]) -> str:
    """What a file written against another state is for, and where the game is: a file for a
    phase that is over says so, not only that a hash differs."""
    phases = [p.get("phase") for p in d.get("phases") or [] if isinstance(p, dict) and p.get("phase")]
    decisions = [x.get("id") for x in d.get("decisions") or [] if isinstance(x, dict) and x.get("id")]
    what = []
    if isinstance(d.get("turn"), int) and not isinstance(d.get("turn"), bool):
        what.append(f"turn {d['turn']}")
    if phases:
        what.append(("phases " if len(phases) > 1 else "phase ") + ", ".join(map(str, phases)))
    elif decisions:
        what.append("the decision " + ", ".join(map(str, decisions)))
    if not what:
        return ""
    now = f"turn {state.get('turn')}, {state.get('phase')}" + (f" (step {state['step']})" if "step" in state else "")
    pending = [p.get("id") for p in state.get("pending") or [] if isinstance(p, dict)]
    if pending:
        now += ", awaiting the decision " + ", ".join(map(str, pending))
    return f": this file is for {', '.join(what)}; the game is at {now}"


class Campaign:
    def __init__(self, root: Path):
        self.root = Path(root)
        mpath = self.root / MANIFEST
        if not mpath.is_file():
            raise PbemError([Issue("FILE-NOT-CAMPAIGN", f"{self.root} is not a campaign folder (no {MANIFEST})",
                                   file=str(self.root), hint="create one with `pbem new`")], ExitCode.INVALID)
        raw = read_bytes_limited(mpath, 1_000_000)
        loaded = load_yaml(raw, str(mpath))
        issues = validate(loaded.data, "campaign", marks=loaded.marks, filename=str(mpath), raw=raw)
        if any(i.is_error for i in issues):
            raise PbemError(issues, ExitCode.INVALID)
        self.manifest = loaded.data
        self._inside_dirs: set[Path] = set()    # folders found inside the campaign folder (:meth:`inside`)

    def _rewrite_manifest(self, m: dict[str, Any]) -> None:
        """Check the amended manifest ``m`` against its schema and write it over campaign.yaml
        (PbemError and nothing written if it is invalid)."""
        issues = validate(m, "campaign", filename=MANIFEST)
        if any(i.is_error for i in issues):
            raise PbemError(issues, ExitCode.INVALID)
        atomic_write(self.root / MANIFEST, dump_yaml(m, header=f"yaml-language-server: $schema={SCHEMA_FOLDER}/campaign.schema.json\npbem campaign manifest"),
                     overwrite=True)
        self.manifest = m

    def set_player_key(self, player: str, public_hex: str) -> None:
        """Add a player's public signing key to campaign.yaml (``pbem key add``)."""
        m = dict(self.manifest)
        m["players"] = {p: dict(v) for p, v in m["players"].items()}
        m["players"][player]["key"] = public_hex
        self._rewrite_manifest(m)

    def set_missing_defaults(self, defaults: dict[str, str]) -> None:
        """Add missing-orders defaults to campaign.yaml after the start (``pbem missing-default``;
        issue 33: a game master who forgot ``--missing-orders-default`` had no way out). The
        next adjudicated step archives the manifest as changed (:meth:`manifest_amended`), so
        that replay knows from which step the default holds."""
        m = dict(self.manifest)
        mo = dict(m.get("missing_orders") or {})
        mo.update(defaults)
        m["missing_orders"] = dict(sorted(mo.items()))
        self._rewrite_manifest(m)

    def manifest_copies(self) -> list[tuple[int, Path]]:
        """The manifest copies the archive holds (steps/000 at the start, a later step where its
        missing-orders defaults were changed), by step."""
        return [(int(d.name), d / MANIFEST_COPY) for d in self.step_dirs() if (d / MANIFEST_COPY).is_file()]

    def manifest_amended(self) -> bool:
        """Whether campaign.yaml's missing-orders defaults differ from the newest manifest copy
        of the archive: the next step archives campaign.yaml again (a campaign whose archive
        keeps no copy, made by an earlier pbem, never)."""
        copies = self.manifest_copies()
        if not copies:
            return False
        try:
            last = json.loads(self.inside(copies[-1][1]).read_bytes())
        except (OSError, ValueError):
            return False
        return isinstance(last, dict) and any((last.get(k) or {}) != (self.manifest.get(k) or {})
                                              for k in ("missing_orders", "players"))   # players: pbem player replace

    # ---------------------------------------------------------------- creation
    @staticmethod
    def create(root: Path, manifest: dict[str, Any], initial_state: dict[str, Any], key_hex: str | None,
               schemas: tuple[str, ...] = ("state",), archive_manifest: bool = True) -> Campaign:
        """``schemas``: the schema names copied into CAMPAIGN/schemas/ for editors (the first
        is the state schema the state files name)."""
        root = Path(root)
        if root.exists() and any(root.iterdir()):
            raise PbemError([Issue("FILE-EXISTS", f"{root} exists and is not empty", file=str(root),
                                   hint="pbem never overwrites a campaign; choose a new folder")], ExitCode.IO)
        parent = root.parent
        parent.mkdir(parents=True, exist_ok=True)
        tmp = parent / f".{root.name}.tmp-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        try:
            (tmp / "private").mkdir(parents=True)
            (tmp / "steps" / "000").mkdir(parents=True)
            (tmp / SCHEMA_FOLDER).mkdir()
            for name, data in schema_files(("campaign",) + tuple(schemas)).items():
                atomic_write(tmp / SCHEMA_FOLDER / name, data)
            atomic_write(tmp / MANIFEST, dump_yaml(manifest, header=f"yaml-language-server: $schema={SCHEMA_FOLDER}/campaign.schema.json\npbem campaign manifest"))
            if archive_manifest:
                # the manifest as the campaign started, in the archive: `pbem replay` refuses a
                # campaign.yaml that contradicts it (another game, players, dice, defaults)
                atomic_write(tmp / "steps" / "000" / MANIFEST_COPY, canonical_json(manifest) + b"\n")
            if key_hex:  # chain-mode campaigns have no game master's key
                atomic_write(tmp / KEY_FILE, key_hex + "\n")
                os.chmod(tmp / KEY_FILE, 0o600)
            text = render_state(initial_state, schemas[0])
            atomic_write(tmp / "steps" / "000" / state_file_name(initial_state), text)
            if root.exists():
                root.rmdir()
            os.rename(tmp, root)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return Campaign(root)

    # ---------------------------------------------------------------- access
    def step_dirs(self) -> list[Path]:
        return step_folders(self.root)

    def state_path(self, step_dir: Path) -> Path:
        cands = sorted(p for p in step_dir.glob("*.yaml") if not p.name.startswith(("orders-", "reveal-")))
        if len(cands) != 1:
            raise PbemError([Issue("FILE-ARCHIVE", f"{step_dir} should hold exactly one state file, found {len(cands)}",
                                   file=str(step_dir))], ExitCode.INVALID)
        self.inside(cands[0])
        return cands[0]

    def inside(self, path: Path) -> Path:
        """``path`` (under the campaign folder, or absolute) unchanged, after checking that it
        resolves inside the campaign folder: an archived file or step folder that is a symlink
        to elsewhere, or a name with ``..``, is refused (FILE-OUTSIDE). A name that is no symlink
        resolves inside when its folder does: each folder is resolved once (a replay checks some
        600 files of a few dozen folders; resolving a path reads every folder on its way)."""
        p = Path(path).absolute()
        parent = p.parent
        if p.name not in ("", ".", "..") and not os.path.islink(p):
            if parent in self._inside_dirs:
                return Path(path)
            try:
                ensure_inside(self.root.absolute(), parent)
            except PbemError:
                pass                  # refused below, naming the path itself
            else:
                if parent.is_dir():
                    self._inside_dirs.add(parent)
                return Path(path)
        ensure_inside(self.root.absolute(), p)
        return Path(path)

    def current(self) -> tuple[Path, dict[str, Any]]:
        dirs = self.step_dirs()
        if not dirs:
            raise PbemError([Issue("FILE-ARCHIVE", f"{self.root} has no steps/000", file=str(self.root))], ExitCode.INVALID)
        p = self.state_path(dirs[-1])
        st, _ = load_state_file(p)
        return p, st

    def key_path(self, override: Path | None = None) -> Path:
        return Path(override) if override else self.root / KEY_FILE

    def read_key(self, override: Path | None = None) -> str:
        return read_key_file(self.key_path(override))

    # ---------------------------------------------------------------- writing a step
    def clean_stale_temps(self) -> list[Issue]:
        """Remove the temporary step folders (``steps/.NNN.tmp-PID``) of pbem processes that
        were killed while writing a step (the process is gone): never part of the archive.
        One warning per folder removed (FILE-STALE-TEMP)."""
        out = []
        sd = self.root / "steps"
        for p in sorted(sd.iterdir()) if sd.is_dir() else []:
            m = re.fullmatch(r"\.(\d{3,})\.tmp-(\d+)", p.name)
            if not m or not p.is_dir() or p.is_symlink() or _alive(int(m.group(2))):
                continue
            shutil.rmtree(p, ignore_errors=True)
            out.append(Issue("FILE-STALE-TEMP", f"removed steps/{p.name}: a pbem killed while writing step {m.group(1)} left it (it was never part of the archive)",
                             severity=Severity.WARNING, file=str(p)))
        return out

    def write_step(self, step: int, files: dict[str, bytes]) -> Path:
        sd = self.root / "steps"
        final = sd / f"{step:03d}"
        if final.exists():
            raise PbemError([Issue("FILE-EXISTS", f"{final} already exists: this step was adjudicated before",
                                   file=str(final), hint="pbem never overwrites an archived step")], ExitCode.IO)
        tmp = sd / f".{step:03d}.tmp-{os.getpid()}"
        try:
            if tmp.exists():
                shutil.rmtree(tmp)
            tmp.mkdir(parents=True)
        except OSError as e:
            raise PbemError([Issue("FILE-WRITE", f"cannot make the temporary step folder {tmp}: {e.strerror or e}",
                                   file=str(tmp))], ExitCode.IO) from None
        crash = os.environ.get("PBEM_TEST_CRASH_AFTER_FILES")  # test hook: see _test_crash
        try:
            for k, (name, data) in enumerate(files.items()):
                _test_crash(crash, str(k))
                atomic_write(tmp / name, data)
            _test_crash(crash, str(len(files)))
            try:
                os.rename(tmp, final)  # atomic; refuses a non-empty existing target
            except OSError as e:
                raise PbemError([Issue("FILE-EXISTS", f"{final} appeared meanwhile: {e}", file=str(final))], ExitCode.IO) from e
            _test_crash(crash, "rename")
            try:
                fd = os.open(sd, os.O_RDONLY)
                os.fsync(fd)
                os.close(fd)
            except OSError:
                pass
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return final


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a pbem writing a step now: its folder is left alone)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _test_crash(setting: str | None, point: str) -> None:
    """TEST HOOK for tests/test_kill.py, inert unless the environment variable
    PBEM_TEST_CRASH_AFTER_FILES is set (never set it outside tests). The process then dies at
    once, without cleanup, like a ``kill -9``: ``os._exit(137)`` when ``point`` equals the
    variable, ``point`` being the number of files already written into the temporary step
    folder ("0", "1", ...), or "rename" just after the step folder was renamed into place."""
    if setting is not None and setting == point:
        os._exit(137)


def read_key_file(p: Path) -> str:
    """The 64-hex-digit dice key in file ``p`` (DICE-KEY-MISSING, DICE-KEY-FORMAT)."""
    p = Path(p)
    try:
        txt = read_bytes_limited(p, 10_000).decode("ascii", "replace").strip()
    except PbemError as e:
        raise PbemError([Issue("DICE-KEY-MISSING", f"cannot read the dice key {p}", file=str(p),
                               hint="the game master keeps it in CAMPAIGN/private/dice.key; give it with --key")]) from e
    return check_key_hex(txt, str(p))


def check_key_hex(txt: str, where: str) -> str:
    """``txt`` if it is a dice key (64 lower-case hex digits), else DICE-KEY-FORMAT."""
    if len(txt) != 64 or any(c not in "0123456789abcdef" for c in txt):
        raise PbemError([Issue("DICE-KEY-FORMAT", f"{where} does not hold a 64-digit hex key", file=where,
                               hint="a dice key is 64 hex digits (0-9, a-f), as pbem new wrote it to private/dice.key")])
    return txt


def orders_archive_name(of: OrderFile, index: int) -> str:
    return f"orders-{index}-{of.player}-{of.digest[:12]}.yaml"
