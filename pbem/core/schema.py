"""JSON Schema validation of loaded YAML documents, with player-friendly issues.

Schemas live in ``schemas/<name>.schema.json`` of the shipped data (JSON Schema 2020-12).

:func:`validate` does two things:

1. **Normalisation, in place.**  The strict YAML loader reads an unquoted
   ``hex: 1005`` as the int 1005 but ``hex: 0101`` as the string "0101".
   Wherever the schema says exactly ``"type": "string"``, an int found in the
   document is replaced by its decimal string.  This is lossless because the
   loader only makes ints from canonical decimals (no leading zeros, no
   ``-0``).  Booleans are never converted.
2. **Validation.**  Every error becomes an :class:`~pbem.core.errors.Issue`
   with code ``SCHEMA-<KEYWORD>`` (``SCHEMA-TYPE``, ``SCHEMA-REQUIRED``, ...),
   a message a player can act on, the document path, the offending value and
   the field's ``description`` as hint; with ``marks`` the issue also gets
   its line and column.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pbem  # its __version__ when a marker is keyed (a test sets another)

from .errors import Issue, did_you_mean
from .fastschema import is_valid
from .shipped import data_root

if TYPE_CHECKING:  # jsonschema is imported when a document is really checked (it is slow to import)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = ["schema_dir", "load_schema", "validate", "normalise", "check_fully", "cache_dir"]

_TEXT_LIMIT = 80
_BOOL_WORDS = {"yes", "no", "y", "n", "on", "off", "true", "false"}
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean",
               int: "integer", float: "number", type(None): "null"}


def schema_dir() -> Path:
    """The ``schemas`` directory of the shipped data (see :func:`pbem.core.shipped.data_root`)."""
    return data_root() / "schemas"


def _read_schema(name: str) -> dict[str, Any]:
    """The schema file ``name`` as it is written (its bytes read once a process)."""
    loaded: dict[str, Any] = json.loads(_schema_bytes(name))
    return loaded


def _schema_bytes(name: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or ".." in name:
        raise ValueError(f"bad schema name: {name!r}")
    return _file_bytes(schema_dir() / f"{name}.schema.json")


@functools.lru_cache(maxsize=256)
def _file_bytes(path: Path) -> bytes:
    """A schema file's bytes, read once a process (a command reads a schema for its check and
    again for the digest of the list of the shipped data)."""
    return path.read_bytes()


def _base_name(ref: str) -> str | None:
    m = re.fullmatch(r"([A-Za-z0-9_.-]+)\.schema\.json", ref)
    return m.group(1) if m else None


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """Load ``schemas/<name>.schema.json`` (cached; do not mutate the result).

    A game's schema extends the core's envelope the standard way, ``"allOf": [{"$ref":
    "state.schema.json"}]`` with ``"unevaluatedProperties": false`` (editors follow that).
    pbem reads it as one closed schema: the envelope's properties, ``required`` and
    ``$defs``, with the game's own definitions taking the place of the envelope's where both
    define one (a game only narrows the envelope)."""
    doc = _read_schema(name)
    bases = [_base_name(a.get("$ref", "")) for a in doc.get("allOf", []) if isinstance(a, dict)]
    if not bases or None in bases:
        return doc
    merged: dict[str, Any] = {}
    for b in bases:
        base = load_schema(b)
        merged.update({k: v for k, v in base.items() if k not in ("properties", "required", "$defs")})
        merged.setdefault("properties", {}).update(base.get("properties", {}))
        merged.setdefault("$defs", {}).update(base.get("$defs", {}))
        merged.setdefault("required", [])
        merged["required"] += [r for r in base.get("required", []) if r not in merged["required"]]
    for k, v in doc.items():
        if k in ("allOf", "properties", "required", "$defs", "unevaluatedProperties"):
            continue
        merged[k] = v
    merged["properties"].update(doc.get("properties", {}))
    merged["$defs"].update(doc.get("$defs", {}))
    merged["required"] += [r for r in doc.get("required", []) if r not in merged["required"]]
    if doc.get("unevaluatedProperties") is False:
        merged["additionalProperties"] = False
    return merged


def schema_files(names: Iterable[str]) -> dict[str, bytes]:
    """The schema files ``names`` and every file they refer to, as on disk: file name ->
    bytes (``pbem new`` copies them into a campaign for editors)."""
    out: dict[str, bytes] = {}
    todo = list(names)
    while todo:
        n = todo.pop()
        fname = f"{n}.schema.json"
        if fname in out:
            continue
        out[fname] = _schema_bytes(n)
        for a in json.loads(out[fname]).get("allOf", []):
            b = _base_name(a.get("$ref", "")) if isinstance(a, dict) else None
            if b:
                todo.append(b)
    return dict(sorted(out.items()))


@functools.cache
def _named_validator(name: str) -> Draft202012Validator:
    """Cached validator for a named schema."""
    return _make_validator(load_schema(name))


def _make_validator(schema: dict[str, Any]) -> Draft202012Validator:
    """A 2020-12 validator with format checking."""
    from jsonschema import Draft202012Validator  # slow: only where a document is really checked
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


# ---------------------------------------------------------------------------
# Normalisation


def _resolve_local(root: dict[str, Any], ref: str) -> Any:
    """Follow a local ``#/...`` JSON pointer; None when it cannot be followed."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    pointer = ref[1:]
    if not pointer:
        return root
    if not pointer.startswith("/"):
        return None
    for part in pointer[1:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _expand(root: dict[str, Any], schema: Any) -> list[dict[str, Any]]:
    """``schema`` plus the schemas its ``$ref`` chain points to."""
    result: list[dict[str, Any]] = []
    seen: set[int] = set()
    while isinstance(schema, dict) and id(schema) not in seen:
        seen.add(id(schema))
        result.append(schema)
        ref = schema.get("$ref")
        schema = _resolve_local(root, ref) if isinstance(ref, str) else None
    return result


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    """Compiled regex, or None if Python cannot compile it."""
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _property_schemas(schemas: list[dict[str, Any]], key: str) -> list[Any]:
    """Subschemas that apply to property ``key`` of an object."""
    found: list[Any] = []
    for schema in schemas:
        matched = False
        properties = schema.get("properties")
        if isinstance(properties, dict) and key in properties:
            found.append(properties[key])
            matched = True
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            for pattern, subschema in patterns.items():
                regex = _compiled(pattern)
                if regex is not None and regex.search(key):
                    found.append(subschema)
                    matched = True
        additional = schema.get("additionalProperties")
        if not matched and isinstance(additional, dict):
            found.append(additional)
    return found


def _item_schemas(schemas: list[dict[str, Any]], index: int) -> list[Any]:
    """Subschemas that apply to item ``index`` of an array."""
    found: list[Any] = []
    for schema in schemas:
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and index < len(prefix):
            found.append(prefix[index])
        elif isinstance(schema.get("items"), dict):
            found.append(schema["items"])
    return found


def _wants_string(schemas: list[dict[str, Any]]) -> bool:
    """True if one of the schemas wants a string and no number: ``"type": "string"`` or a
    type list with "string" and without "integer"/"number" (e.g. ``["string", "array"]``)."""
    for schema in schemas:
        t = schema.get("type")
        if t == "string":
            return True
        if isinstance(t, list) and "string" in t and "integer" not in t and "number" not in t:
            return True
    return False


def normalise(doc: Any, schema: dict[str, Any]) -> None:
    """Turn ints into decimal strings, in place, where ``schema`` wants a string.

    Follows ``properties``, ``patternProperties``, ``additionalProperties``
    (object form), ``items``, ``prefixItems`` and local ``$ref``; ignores
    ``oneOf``/``anyOf``/``allOf``.  The root itself is never replaced.
    """
    # what a key (an index) of a node under the same subschemas leads to -- the subschemas of
    # its value and whether they want a string -- worked out once a call: the hundreds of
    # units, zones and entries of a state share a few dozen (issue 35)
    memo: dict[tuple[Any, ...], tuple[list[dict[str, Any]], bool]] = {}
    stack: list[tuple[Any, list[dict[str, Any]]]] = [(doc, _expand(schema, schema))]
    while stack:
        node, schemas = stack.pop()
        if not schemas:
            continue
        ids = tuple(map(id, schemas))
        if isinstance(node, dict):
            keys: Iterable[Any] = list(node)
            is_map, by_index = True, True
        elif isinstance(node, list):
            keys = range(len(node))
            is_map, by_index = False, any("prefixItems" in sc for sc in schemas)
        else:
            continue
        for key in keys:
            where = (is_map, ids, key) if by_index else (is_map, ids)
            known = memo.get(where)
            if known is None:
                subschemas = _property_schemas(schemas, key) if is_map else _item_schemas(schemas, key)
                expanded = [s for sub in subschemas for s in _expand(schema, sub)]
                known = memo[where] = (expanded, bool(expanded) and _wants_string(expanded))
            expanded, wants_string = known
            if not expanded:
                continue
            value = node[key]
            if type(value) is int and wants_string:
                node[key] = str(value)
            elif isinstance(value, (dict, list)):
                stack.append((value, expanded))


# ---------------------------------------------------------------------------
# Errors -> issues


def _json_type(value: Any) -> str:
    """JSON type name of a Python value."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _text(value: Any) -> str:
    """repr of the value, truncated to 80 characters."""
    text = repr(value)
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT - 3] + "..."


def _field_name(path: tuple[Any, ...]) -> str:
    """The last named element of a path, for messages."""
    for part in reversed(path):
        if isinstance(part, str):
            return f"'{part}'"
    return "the value"


def _listing(values: Any) -> str:
    """Comma-separated list of values as YAML would show them."""
    return ", ".join(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
                     for v in values)


def _type_message(error: ValidationError, path: tuple[Any, ...]) -> str:
    """Message for a ``type`` error."""
    expected = error.validator_value
    expected_list = [expected] if isinstance(expected, str) else list(expected)
    value = error.instance
    name = _field_name(path)
    if "boolean" in expected_list and isinstance(value, str) \
            and value.lower() in _BOOL_WORDS:
        return f"{name} must be true or false, not {value!r}: write true or false"
    if "integer" in expected_list and isinstance(value, str) \
            and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        return f"{name} must be a whole number written without quotes or leading zeros, " \
               f"not {value!r}"
    if expected_list == ["string"] and value is None:
        return f"{name} must be text, but it is empty (or null)"
    if expected_list == ["string"] and isinstance(value, bool):
        word = str(value).lower()
        return f"{name} must be text, not {word}: write \"{word}\" in quotes if you mean " \
               f"the word"
    wanted = " or ".join(expected_list)
    return f"{name} must be {_article(wanted)}{wanted}, not {_article(_json_type(value))}" \
           f"{_json_type(value)} ({_text(value)})"


def _article(word: str) -> str:
    """'an ' or 'a ' for a type name."""
    return "an " if word[:1] in "aeiou" else "a "


def _allowed_properties(schema: Mapping[str, Any]) -> list[str]:
    """Declared property names of an object schema."""
    properties = schema.get("properties")
    return list(properties) if isinstance(properties, dict) else []


def _unknown_properties(error: ValidationError) -> list[str]:
    """Properties that triggered an additionalProperties error."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    allowed = set(_allowed_properties(error.schema))
    patterns = [p for p in (error.schema.get("patternProperties") or {})]
    unknown = []
    for key in instance:
        if key in allowed:
            continue
        if any((regex := _compiled(p)) is not None and regex.search(key) for p in patterns):
            continue
        unknown.append(key)
    return unknown


def _suggest(word: Any, choices: list[Any]) -> str:
    """`` (did you mean 'x'?)`` for a close string match, else ''."""
    return did_you_mean(word, [c for c in choices if isinstance(c, str)])


def _missing_property(error: ValidationError) -> str | None:
    """The property named by a ``required`` error."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    missing = [p for p in (error.validator_value or []) if p not in instance]
    for name in missing:
        if error.message.startswith(repr(name)):
            return str(name)
    return missing[0] if missing else None


def _description(root: dict[str, Any], schema: Any) -> str | None:
    """The first ``description`` along ``schema``'s local ``$ref`` chain."""
    for candidate in _expand(root, schema):
        if isinstance(candidate.get("description"), str):
            return str(candidate["description"])
    return None


def _message_and_hint(error: ValidationError, path: tuple[Any, ...],
                      root: dict[str, Any]) -> tuple[str, str | None, list[str]]:
    """Friendly message, hint and (for unknown fields) the unknown keys."""
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    hint = schema.get("description") if isinstance(schema.get("description"), str) else None
    unknown: list[str] = []
    if keyword == "type":
        message = _type_message(error, path)
    elif keyword == "required":
        name = _missing_property(error)
        message = f"missing required field '{name}'"
        prop = (schema.get("properties") or {}).get(name)
        hint = _description(root, prop) or hint
    elif keyword == "additionalProperties":
        unknown = _unknown_properties(error)
        allowed = _allowed_properties(schema)
        names = ", ".join(f"'{k}'" for k in unknown) or "?"
        message = f"unknown field{'s' if len(unknown) > 1 else ''} {names}"
        if len(unknown) == 1:
            message += _suggest(unknown[0], allowed)
        message += f"; allowed fields: {', '.join(allowed)}" if allowed else \
            "; no other fields are allowed here"
    elif keyword == "enum":
        choices = list(error.validator_value)
        message = f"{_text(error.instance)} is not one of the allowed values: " \
                  f"{_listing(choices)}{_suggest(error.instance, choices)}"
    elif keyword == "const":
        message = f"{_field_name(path)} must be {_text(error.validator_value)}, " \
                  f"not {_text(error.instance)}"
    elif keyword == "pattern":
        message = f"{_text(error.instance)} does not have the expected form " \
                  f"(pattern {error.validator_value})"
    elif keyword in ("oneOf", "anyOf") and error.context:
        missing = sorted({name for e in error.context if e.validator == "required"
                          if (name := _missing_property(e)) is not None})
        if missing and all(e.validator == "required" for e in error.context if not e.path):
            message = f"{_field_name(path)} needs one of the fields " + " or ".join(f"'{m}'" for m in missing)
        else:
            from jsonschema.exceptions import best_match  # slow: see _make_validator
            best = best_match(error.context)
            message = f"{_field_name(path)} does not match any allowed form; closest: " \
                      f"{best.message}"
    elif keyword == "oneOf":
        message = f"{_field_name(path)} matches more than one allowed form: give only one of the alternatives"
    else:
        message = error.message
    return message, hint, unknown


def _sort_key(error: ValidationError) -> tuple[Any, ...]:
    """Sort errors by document path (ints before strings), then keyword."""
    return (tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part))
                  for part in error.absolute_path),
            str(error.validator), error.message)


def _issue_for(error: ValidationError, marks: Mapping[tuple[Any, ...], tuple[int, int]] | None,
               filename: str | None, root: dict[str, Any]) -> Issue:
    """Turn one validation error into an Issue."""
    path = tuple(error.absolute_path)
    message, hint, unknown = _message_and_hint(error, path, root)
    line = column = None
    if unknown and marks:
        position = marks.get(path + (unknown[0],))
        if position is not None:
            line, column = position
    issue = Issue(code="SCHEMA-" + str(error.validator).upper(), message=message,
                  file=filename, line=line, column=column, path=path,
                  text=_text(error.instance), hint=hint)
    if marks is not None:
        issue = issue.located(filename, marks)
    return issue


def _errors(doc: Any, schema_name_or_dict: str | dict[str, Any], schema: dict[str, Any]) -> list[ValidationError]:
    """The schema errors of ``doc`` (normalised), sorted: none when :mod:`.fastschema` finds it
    valid (it says so only when jsonschema would: then jsonschema is not even imported), else
    jsonschema's."""
    if is_valid(doc, schema):
        return []
    if isinstance(schema_name_or_dict, str):
        validator = _named_validator(schema_name_or_dict)
    else:
        validator = _make_validator(schema)
    return sorted(validator.iter_errors(doc), key=_sort_key)


def validate(doc: Any, schema_name_or_dict: str | dict[str, Any], *,
             marks: Mapping[tuple[Any, ...], tuple[int, int]] | None = None,
             filename: str | None = None, raw: bytes | None = None) -> list[Issue]:
    """Normalise ``doc`` in place (see module docstring), validate it, return issues.

    ``schema_name_or_dict`` is a schema name (``"orders"``) or a schema dict.
    Issues are sorted by document path.  Unknown fields are located at the
    line of the first unknown key's value; other issues at the longest path
    prefix found in ``marks``.

    With ``raw`` (the bytes ``doc`` was loaded from) and a named schema, a document already
    found valid is only normalised: one of pbem's own data files, byte for byte (see "The
    shipped data" below), or one with a validity marker (see "Validity markers").
    """
    if isinstance(schema_name_or_dict, str):
        schema = load_schema(schema_name_or_dict)
        if raw is not None and _use_markers and _shipped_valid(doc, schema_name_or_dict, raw):
            return []
        key = _valid_key(schema_name_or_dict, raw) if raw is not None else None
        if key is not None and _marked_valid(key) is not None:
            normalise(doc, schema)
            return []
    else:
        key = None
        schema = schema_name_or_dict
    normalise(doc, schema)
    errors = _errors(doc, schema_name_or_dict, schema)
    # A value of the wrong type gets one issue (SCHEMA-TYPE), not also enum/const/pattern ones.
    mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    errors = [e for e in errors if e.validator == "type" or tuple(e.absolute_path) not in mistyped]
    issues = [_issue_for(error, marks, filename, schema) for error in errors]
    if key is not None and not issues:
        _mark_valid(key)
    return issues


# ---------------------------------------------------------------------------
# The shipped data
#
# pbem's own data files (rules/, scenarios/ of the built-in games) are checked against their
# schemas in full when the list pbem/core/shipped-valid.json is made (tools/make_shipped_valid.py,
# pbem.core.data.shipped_valid_list), and tests/core/test_shipped_valid.py fails while the list
# is not the one the files give. For each file the list holds the digest of (the list's
# format, the bytes of the schema files the file is checked against, the schema's name, the
# file's bytes) and the places where normalise turns an int into a string. A document whose
# digest is listed is that file, byte for byte, checked against those very schemas: it is
# normalised from the list and not checked again, so a first run (no validity markers yet,
# e.g. just after an install) does not check the shipped data in Python. Anything else -- a
# file of the user's data folder that differs from the shipped one by a byte, a state, an
# order file -- is checked in full, and so is everything under check_fully() (`pbem data check`).

SHIPPED_FORMAT = "pbem-shipped-valid/1"
SHIPPED_LIST = Path(__file__).with_name("shipped-valid.json")


@functools.lru_cache(maxsize=1)
def _shipped_list() -> dict[str, dict[str, Any]]:
    """schema name -> {digest: {file, strings}} of the list; empty when it is missing or of
    another format (then every document is checked)."""
    try:
        with open(SHIPPED_LIST, encoding="utf-8") as handle:
            listed = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(listed, dict) or listed.get("format") != SHIPPED_FORMAT or not isinstance(listed.get("schemas"), dict):
        return {}
    schemas: dict[str, dict[str, Any]] = listed["schemas"]
    return schemas


@functools.lru_cache(maxsize=64)
def _schema_files_digest(name: str) -> bytes:
    """The digest of the schema files ``name`` is read from (it and those it extends)."""
    h = hashlib.sha256(SHIPPED_FORMAT.encode() + b"\0")
    for fname, data in schema_files([name]).items():
        h.update(fname.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.digest()


def shipped_key(schema: str, raw: bytes) -> str:
    """The digest by which the list names a data file (``raw``) checked against ``schema``.
    A data file's loading asks it twice of the same bytes (:func:`shipped_listed` to pick the
    loader, then the check): the last answer is kept for the very same bytes object."""
    if _LAST_KEY and _LAST_KEY[1] is raw and _LAST_KEY[0] == schema:
        return str(_LAST_KEY[2])
    h = hashlib.sha256(_schema_files_digest(schema))
    h.update(schema.encode() + b"\0" + hashlib.sha256(raw).digest())
    _LAST_KEY[:] = [schema, raw, h.hexdigest()]
    return str(_LAST_KEY[2])


_LAST_KEY: list[Any] = []       # [schema, the bytes (held: the same object), their key]


def shipped_listed(schema: str, raw: bytes) -> bool:
    """Whether the bytes ``raw`` are a shipped data file the list gives as valid against
    ``schema`` (then :func:`pbem.core.yamlio.load_known_yaml` may read them); never under
    :func:`check_fully`."""
    listed = _shipped_list().get(schema) if _use_markers else None
    if not listed:
        return False
    try:
        return isinstance(listed.get(shipped_key(schema, raw)), dict)
    except (OSError, ValueError):
        return False


def _shipped_valid(doc: Any, schema: str, raw: bytes) -> bool:
    """Whether ``doc`` (loaded from ``raw``) is a shipped data file found valid against
    ``schema``: then it is normalised from the list (in place) and True."""
    listed = _shipped_list().get(schema)
    if not listed:
        return False
    try:
        entry = listed.get(shipped_key(schema, raw))
    except (OSError, ValueError):
        return False
    if not isinstance(entry, dict) or not isinstance(entry.get("strings"), list):
        return False
    places = []
    for path in entry["strings"]:
        parent: Any = doc
        try:
            for part in path[:-1]:
                parent = parent[part]
            if type(parent[path[-1]]) is not int:
                return False
        except (KeyError, IndexError, TypeError):
            return False
        places.append((parent, path[-1]))
    for parent, last in places:
        parent[last] = str(parent[last])
    return True


def normalised_strings(doc: Any, schema: dict[str, Any]) -> list[list[Any]]:
    """Normalise ``doc`` in place; the paths of the values it turned from int into string
    (what the list of the shipped data records for a file)."""
    import copy  # only where the list is made (tools, tests)
    before = copy.deepcopy(doc)
    normalise(doc, schema)
    out: list[list[Any]] = []
    stack: list[tuple[Any, Any, list[Any]]] = [(before, doc, [])]
    while stack:
        old, new, path = stack.pop()
        keys: Iterable[Any] = list(old) if isinstance(old, dict) else range(len(old)) if isinstance(old, list) else ()
        for k in keys:
            if type(old[k]) is int and type(new[k]) is str:
                out.append([*path, k])
            elif isinstance(old[k], (dict, list)):
                stack.append((old[k], new[k], [*path, k]))
    return sorted(out, key=lambda p: [(0, x, "") if isinstance(x, int) else (1, 0, x) for x in p])


# ---------------------------------------------------------------------------
# Validity markers
#
# Checking the component data (and a campaign's state) against the schemas takes longer than
# the command that needs it, and the same bytes always give the same answer. So a document
# whose exact bytes were found valid against the exact same schema files by the same pbem
# version is not checked again: it gets a marker, a file named by the digest of (marker format,
# pbem version, every schema file, the schema's name, the document's bytes) and holding that
# digest. Different bytes or schemas are a different digest, never a trusted one; a marker
# whose content is not its own name (damaged) is ignored; a missing or unwritable cache only
# means a full check. Only valid documents are marked: problems are reported every time.
# `pbem data check` checks everything (check_fully).

_CACHE_FORMAT = b"pbem-valid/1"
_use_markers = True


def cache_dir() -> Path | None:
    """The folder of the validity markers: $PBEM_CACHE_DIR, else $XDG_CACHE_HOME/pbem, else
    ~/.cache/pbem; None (no markers) when PBEM_NO_CACHE is set."""
    if os.environ.get("PBEM_NO_CACHE", "") not in ("", "0"):
        return None
    if os.environ.get("PBEM_CACHE_DIR"):
        return Path(os.environ["PBEM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pbem"


@contextmanager
def check_fully() -> Iterator[None]:
    """Within this block every document is checked against its schema, markers or not (the
    markers of valid documents are still written)."""
    global _use_markers
    old, _use_markers = _use_markers, False
    try:
        yield
    finally:
        _use_markers = old


@functools.lru_cache(maxsize=4)
def _schemas_digest(folder: Path) -> bytes:
    h = hashlib.sha256(_CACHE_FORMAT + b"\0" + pbem.__version__.encode() + b"\0")
    for path in sorted(folder.glob("*.json")):
        h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.digest()


def _valid_key(schema: str, raw: bytes) -> str | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        h = hashlib.sha256(_schemas_digest(schema_dir()))
    except OSError:
        return None
    h.update(schema.encode() + b"\0" + hashlib.sha256(raw).digest())
    return h.hexdigest()


def _marked_valid(key: str, kind: str = "valid") -> bytes | None:
    """The payload of the marker ``key`` (b"" for a plain marker), or None when there is no
    whole marker of that name (or markers are off)."""
    folder = cache_dir()
    if not _use_markers or folder is None:
        return None
    head = key.encode() + b"\n"
    try:
        with open(folder / kind / key, "rb") as handle:
            content = handle.read()
    except (OSError, ValueError, TypeError):
        return None
    return content[len(head):] if content.startswith(head) else None


def _mark_valid(key: str, payload: bytes = b"", kind: str = "valid") -> None:
    """Write the marker atomically (a reader sees no marker or a whole one); never fails."""
    folder = cache_dir()
    if folder is None:
        return
    folder = folder / kind
    tmp = folder / f".{key}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(key.encode() + b"\n" + payload)
        os.replace(tmp, folder / key)
        _prune(folder)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


_MAX_MARKERS = 5000


def _prune(folder: Path) -> None:
    """Keep the cache small: past _MAX_MARKERS markers (a state per campaign step adds one),
    forget the least recently written half; they are only a saving."""
    entries = list(os.scandir(folder))
    if len(entries) <= _MAX_MARKERS:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for entry in entries[: len(entries) // 2]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass
