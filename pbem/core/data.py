"""Component data: the YAML files under ``rules/`` and ``scenarios/``, checked against their
schemas and turned into a game's ruleset. The ruleset digest (canonical hash of every data
document) is recorded in each state, so a replay notices when the data changed."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from .canon import digest
from .errors import ExitCode, Issue, PbemError
from .files import read_bytes_limited
from .games import game, game_of_scenario
from .schema import validate
from .yamlio import load_yaml


def data_root() -> Path:
    """The folder holding ``rules/``, ``scenarios/`` and ``schemas/`` (the project root)."""
    return Path(__file__).resolve().parents[2]


def game_data_root(g) -> Path:
    """Where game ``g``'s data files are: its own folder if it brings one (a plug-in from
    another package, a test's toy game), else pbem's data root."""
    return Path(g.data_root) if getattr(g, "data_root", None) else data_root()


def load_data_doc(rel: str, schema: str | None, root: Path | None = None) -> tuple[Any, list[Issue]]:
    path = (root or data_root()) / rel
    try:
        raw = read_bytes_limited(path, 20_000_000)
        loaded = load_yaml(raw, rel)
    except PbemError as e:
        return None, list(e.issues)
    issues = validate(loaded.data, schema, marks=loaded.marks, filename=rel) if schema else []
    return loaded.data, issues


def scenario_index(g) -> dict[str, dict]:
    """The scenarios of game ``g``, discovered from its scenario folder: every YAML file whose
    ``schema`` is the game's scenario schema, by its ``id`` -> {file, title, line, players},
    ``line`` being the one-line description `pbem new --help` and `pbem scenarios` print."""
    folder = game_data_root(g) / g.scenario_dir
    out: dict[str, dict] = {}
    want = f"pbem/{g.scenario_schema or g.id + '-scenario'}/v1"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            doc = load_yaml(read_bytes_limited(path, 20_000_000), str(path)).data
        except PbemError:
            continue   # `pbem data check` reports it
        if not isinstance(doc, dict) or doc.get("schema") != want or not isinstance(doc.get("id"), str):
            continue
        players = g.scenario_players(doc)
        turns = doc.get("turns") if isinstance(doc.get("turns"), dict) else {}
        line = f"{g.title}, {doc.get('title', doc['id'])}"
        if doc.get("rules_section"):
            line += f" ({doc['rules_section']})"
        if players:
            line += ": players " + ", ".join(str(p) for p in players)
        if turns.get("first") is not None:
            line += f"; turns {turns['first']}-{turns.get('last')}"
        if doc.get("summary"):
            line += f"; {doc['summary']}"
        out[doc["id"]] = {"file": f"{g.scenario_dir}/{path.name}", "title": doc.get("title", doc["id"]),
                          "line": line, "players": players}
    return out


def load_scenario_docs(scenario: str) -> tuple[Any, dict, list[Issue]]:
    from .games import scenarios
    gid = game_of_scenario(scenario)
    g = game(gid)
    docs: dict[str, Any] = {}
    issues: list[Issue] = []
    root = game_data_root(g)
    for name, (rel, schema) in g.data_files.items():
        doc, iss = load_data_doc(rel, schema, root)
        docs[name] = doc
        issues += iss
    rel = scenarios()[scenario][1]["file"]
    doc, iss = load_data_doc(rel, g.scenario_schema or None, root)
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
def load_ruleset(scenario: str):
    """(game module, ruleset) for a scenario; raises PbemError if the data is invalid."""
    g, docs, issues = load_scenario_docs(scenario)
    if any(i.is_error for i in issues):
        raise PbemError(issues, ExitCode.INVALID)
    rs = g.build(docs, digest(docs))
    return g, rs
