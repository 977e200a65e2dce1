"""Component data: the YAML files under ``rules/`` and ``scenarios/``, checked against their
schemas and turned into a game's ruleset. The ruleset digest (canonical hash of every data
document) is recorded in each state, so a replay notices when the data changed."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .canon import data_digest, digest
from .errors import ExitCode, Issue, PbemError, Severity
from .files import read_bytes_limited
from .games import game, game_of_scenario
from .schema import _mark_valid, _marked_valid, _valid_key, shipped_listed, validate
from .shipped import data_root
from .yamlio import Loaded, load_known_yaml, load_yaml

if TYPE_CHECKING:
    from .game import Game

# Files the user's data folder cannot replace: the schemas say what the engine understands.
_NOT_REPLACEABLE = ("schemas/",)
_DATA_FOLDERS = ("rules", "scenarios", "schemas")  # of a data folder (as setup.py ships them)

_user_root: Path | None = None


def set_user_data(folder: Path | str | None) -> None:
    """Use FOLDER (``pbem --data`` / ``PBEM_DATA``) before the shipped data: a file there, at
    the same relative path (e.g. ``rules/bfg/crt.yaml``), replaces the shipped one; every file
    it lacks comes from the shipped data. Schemas always come from the package."""
    global _user_root
    root = Path(folder).resolve() if folder else None
    if root is not None and not root.is_dir():
        raise PbemError([Issue("USAGE-DATA", f"the data folder {folder} does not exist",
                               hint="give a folder laid out like the shipped data: rules/<game>/..., scenarios/<game>/...")],
                        ExitCode.USAGE)
    if root != _user_root:
        _user_root = root
        load_ruleset.cache_clear()


def user_data() -> Path | None:
    """The user's data folder, if one is in use."""
    return _user_root


def data_path(rel: str) -> Path:
    """Where the data file ``rel`` (e.g. ``rules/bfg/crt.yaml``) is read from."""
    if _user_root is not None and not rel.startswith(_NOT_REPLACEABLE):
        candidate = _user_root / rel
        if candidate.is_file():
            return candidate
    return data_root() / rel


def user_data_files() -> tuple[list[str], list[Issue]]:
    """The files of the user's data folder that replace shipped ones, and a warning for each
    file there that replaces nothing (a misspelt name would otherwise be ignored silently)."""
    if _user_root is None:
        return [], []
    used: list[str] = []
    issues: list[Issue] = []
    shipped = data_root()
    mine = [p for top in _DATA_FOLDERS for p in (_user_root / top).rglob("*") if p.is_file()]
    for path in sorted(mine):
        rel = path.relative_to(_user_root).as_posix()
        if rel.startswith(".") or "/." in rel:
            continue
        if (shipped / rel).is_file() and not rel.startswith(_NOT_REPLACEABLE):
            used.append(rel)
        else:
            why = ("schemas cannot be replaced" if rel.startswith(_NOT_REPLACEABLE)
                   else "pbem ships no file of that name")
            issues.append(Issue("DATA-USER-UNUSED", f"{path} is not used: {why}", severity=Severity.WARNING,
                                file=str(path), hint="name it like the shipped file it replaces, e.g. rules/bfg/crt.yaml"))
    return used, issues


def game_data_root(g: Game[Any]) -> Path:
    """Where game ``g``'s data files are: its own folder if it brings one (a plug-in from
    another package, a test's toy game), else pbem's data root."""
    return Path(g.data_root) if g.data_root else data_root()


def load_data_doc(rel: str, schema: str | None, root: Path | None = None) -> tuple[Any, list[Issue]]:
    if root is None or root == data_root():
        path = data_path(rel)  # pbem's shipped data, or the user's file that replaces it
        # A file of the user's data folder is named by its own path, so its owner finds it.
        name = rel if path == data_root() / rel else str(path)
    else:
        path, name = root / rel, rel
    try:
        raw = read_bytes_limited(path, 20_000_000)
    except PbemError as e:
        return None, list(e.issues)
    key, kept = _kept_doc(schema, raw) if isinstance(schema, str) and schema else (None, None)
    if kept is not None:
        return kept, []
    parsed, _last_parsed[:] = list(_last_parsed), []
    if parsed and parsed[0] == raw and parsed[1] == name:
        loaded = parsed[2]     # the scenario file, parsed a moment ago to find it (_scenario_entry)
    else:
        try:
            loaded = _parse(raw, name, schema)
        except PbemError as e:
            return None, list(e.issues)
    issues = validate(loaded.data, schema, marks=loaded.marks, filename=name, raw=raw) if schema else []
    if key is not None and not issues:
        _keep_doc(key, loaded.data)
    return loaded.data, issues


def _parse(raw: bytes, name: str, schema: str | None) -> Loaded:
    """A data file loaded: one of pbem's own, byte for byte, without the checks and the marks
    only a problem needs (it has none: :func:`pbem.core.yamlio.load_known_yaml`), any other
    file (the user's, a changed one) by :func:`load_yaml`, every check made."""
    if isinstance(schema, str) and schema and shipped_listed(schema, raw):
        return load_known_yaml(raw, name)
    return load_yaml(raw, name)


# [bytes, name, Loaded] of the scenario file _scenario_entry parsed last, handed once to
# load_data_doc (a command finds its scenario's file, then reads it: one parse, not two)
_last_parsed: list[Any] = []


# A valid data file is also kept as its normalised document, in JSON, under the same digest as
# its validity marker (pbem.core.schema): the next command reads that instead of parsing the
# YAML again. Kept only when the JSON gives back exactly the same document (same canonical
# digest); a damaged copy is ignored.

def _kept_doc(schema: str, raw: bytes) -> tuple[str | None, Any]:
    """(the file's marker key, its kept document or None)."""
    key = _valid_key(schema, raw)
    if key is None:
        return None, None
    payload = _marked_valid(key, kind="docs")
    if payload:
        try:
            return key, json.loads(payload)
        except ValueError:
            pass
    return key, None


def _keep_doc(key: str, doc: Any) -> None:
    try:
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        if digest(json.loads(text)) != digest(doc):
            return
    except (TypeError, ValueError):
        return
    _mark_valid(key, text.encode("utf-8"), kind="docs")


def scenario_index(g: Game[Any]) -> dict[str, dict[str, Any]]:
    """The scenarios of game ``g``, discovered from its scenario folder: every YAML file whose
    ``schema`` is the game's scenario schema, by its ``id`` -> {file, title, line, players},
    ``line`` being the one-line description `pbem new --help` and `pbem scenarios` print."""
    folder = game_data_root(g) / g.scenario_dir
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    # One reading per process (a command asks several times: the catalogue, then the ruleset),
    # unless a file changed meanwhile (tests write scenario files).
    schema = g.scenario_schema if isinstance(g.scenario_schema, str) else id(g.scenario_schema)
    seen = (id(g), getattr(g, "id", ""), getattr(g, "title", ""), schema, str(folder), tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in paths))
    if seen not in _index_memo:
        _index_memo[seen] = _scenario_index(g, folder, paths)
    return {k: dict(v) for k, v in _index_memo[seen].items()}


_index_memo: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}


def scenario_file(g: Game[Any], scenario: str) -> str | None:
    """The data file of ``scenario`` of game ``g`` (its path under the data root), None when
    the game has no such scenario. Reads only the file whose ``id:`` line names it (`pbem show`,
    `validate`, `orders template` need one scenario, not the catalogue); the whole index when no
    file's line does, or several do."""
    folder = game_data_root(g) / g.scenario_dir
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    # once per process (a command asks twice: which game, then its file), unless a file changed
    seen = (id(g), scenario, str(folder), tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in paths))
    if seen not in _file_memo:
        _file_memo[seen] = _scenario_file(g, scenario, paths)
    return _file_memo[seen]


_file_memo: dict[tuple[Any, ...], str | None] = {}


def _scenario_file(g: Game[Any], scenario: str, paths: list[Path]) -> str | None:
    import re
    want = _scenario_schema_id(g)
    line = re.compile(rb"^id:[ \t]*[\"']?" + re.escape(scenario.encode()) + rb"[\"']?[ \t]*(#.*)?\r?$", re.M)
    hits = []
    for path in paths:
        try:
            raw = read_bytes_limited(path, 20_000_000)
        except PbemError:
            continue
        if want.encode() in raw and line.search(raw):
            hits.append((path, raw))
    if len(hits) == 1:
        entry = _scenario_entry(g, *hits[0], want)
        if entry is not None and entry[0] == scenario:
            return str(entry[1]["file"])
    info = g.scenarios().get(scenario)
    return info["file"] if info else None


def _scenario_schema_id(g: Game[Any]) -> str:
    return f"pbem/{g.scenario_schema or g.id + '-scenario'}/v1"


def _scenario_index(g: Game[Any], folder: Path, paths: list[Path]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    want = _scenario_schema_id(g)
    for path in paths:
        try:
            raw = read_bytes_limited(path, 20_000_000)
        except PbemError:
            continue   # `pbem data check` reports it
        entry = _scenario_entry(g, path, raw, want)
        if entry is not None:
            out[entry[0]] = entry[1]
    return out


def _scenario_entry(g: Game[Any], path: Path, raw: bytes, want: str) -> tuple[str, dict[str, Any]] | None:
    """(id, {file, title, line, players}) of a scenario file of the game, None for another file."""
    if want.encode() not in raw:
        return None   # not a scenario of the game (its map, its tables): not parsed for nothing
    rel = f"{g.scenario_dir}/{path.name}"
    try:
        doc = _kept_doc(g.scenario_schema, raw)[1] if isinstance(g.scenario_schema, str) and g.scenario_schema else None
        if doc is None:
            loaded = _parse(raw, rel, g.scenario_schema if isinstance(g.scenario_schema, str) else None)
            doc = loaded.data
            _last_parsed[:] = [raw, rel, loaded]
    except PbemError:
        return None   # `pbem data check` reports it
    if not isinstance(doc, dict) or doc.get("schema") != want or not isinstance(doc.get("id"), str):
        return None
    players = g.scenario_players(doc)
    turns = doc.get("turns")
    if not isinstance(turns, dict):
        turns = {}
    line = f"{g.title}, {doc.get('title', doc['id'])}"
    if doc.get("rules_section"):
        line += f" ({doc['rules_section']})"
    if players:
        line += ": players " + ", ".join(str(p) for p in players)
    if turns.get("first") is not None:
        line += f"; turns {turns['first']}-{turns.get('last')}"
    summary = g.scenario_summary(doc)
    if summary:
        line += f"; {summary}"
    return doc["id"], {"file": rel, "title": doc.get("title", doc["id"]),
                       "line": line, "players": players}


def load_scenario_docs(scenario: str) -> tuple[Any, dict[str, Any], list[Issue]]:
    gid = game_of_scenario(scenario)
    g = game(gid)
    docs: dict[str, Any] = {}
    issues: list[Issue] = []
    root = game_data_root(g)
    for name, (rel, schema) in g.data_files.items():
        doc, iss = load_data_doc(rel, schema, root)
        docs[name] = doc
        issues += iss
    scen = scenario_file(g, scenario)  # its own game's one file: no need for every game's catalogue
    if scen is None:     # (game_of_scenario found it: only a file removed meanwhile)
        raise PbemError([Issue("SCENARIO-UNKNOWN", f"unknown scenario {scenario!r}")], ExitCode.INVALID)
    doc, iss = load_data_doc(scen, g.scenario_schema or None, root)
    docs["scenario"] = doc
    issues += iss
    # Files a scenario file refers to (e.g. a set-up shared with another scenario); only the
    # scenarios that name one get the extra document, so the others keep their digest.
    if isinstance(doc, dict) and not any(i.is_error for i in iss):
        for name, (rel2, schema2) in g.scenario_includes(doc).items():
            doc2, iss2 = load_data_doc(rel2, schema2, root)
            docs[name] = doc2
            issues += iss2
    return g, docs, issues


@lru_cache(maxsize=8)
def load_ruleset(scenario: str) -> tuple[Game[Any], Any]:
    """(game module, ruleset) for a scenario; raises PbemError if the data is invalid."""
    g, docs, issues = load_scenario_docs(scenario)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    rs = g.build(docs, data_digest(docs))
    return g, rs


def shipped_valid_list() -> dict[str, Any]:
    """The list of pbem's own data files found valid (pbem/core/shipped-valid.json, see
    :mod:`pbem.core.schema`, "The shipped data"): every data file of every built-in game that
    reads pbem's data (its data files, its scenarios and the files they refer to), read from
    the shipped data (never the user's folder), checked against its schema in full; a file
    with a problem is left out (it is then checked, and its problems reported, every time)."""
    from .games import BUILTIN
    from .schema import SHIPPED_FORMAT, check_fully, load_schema, normalised_strings, shipped_key
    files: dict[tuple[str, str], None] = {}
    for gid in sorted(BUILTIN):
        g = game(gid)
        if g.data_root:
            continue
        for rel, schema in g.data_files.values():
            files[(rel, schema)] = None
        for info in g.scenarios().values():
            files[(info["file"], g.scenario_schema)] = None
            loaded = load_yaml((data_root() / info["file"]).read_bytes(), info["file"])
            if isinstance(loaded.data, dict):
                for rel, schema in g.scenario_includes(loaded.data).values():
                    files[(rel, schema)] = None
    out: dict[str, dict[str, Any]] = {}
    with check_fully():
        for rel, schema in sorted(files):
            raw = (data_root() / rel).read_bytes()
            try:
                doc = load_yaml(raw, rel).data
            except PbemError:
                continue
            if validate(json.loads(json.dumps(doc)), schema):
                continue
            entry = {"file": rel, "strings": normalised_strings(doc, load_schema(schema))}
            out.setdefault(schema, {})[shipped_key(schema, raw)] = entry
    return {"format": SHIPPED_FORMAT, "schemas": {k: dict(sorted(v.items(), key=lambda kv: kv[1]["file"]))
                                                  for k, v in sorted(out.items())}}


def shipped_valid_text() -> str:
    """The text of pbem/core/shipped-valid.json as :func:`shipped_valid_list` makes it."""
    listed = shipped_valid_list()
    def line(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)
    schemas = ",\n".join(f"  {line(name)}: {{\n" + ",\n".join(f"   {line(k)}: {line(e)}" for k, e in entries.items()) + "\n  }"
                          for name, entries in listed["schemas"].items())
    return f'{{\n "format": {line(listed["format"])},\n "schemas": {{\n{schemas}\n }}\n}}\n'
