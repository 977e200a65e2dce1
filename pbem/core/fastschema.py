"""A fast yes/no check of a document against a JSON Schema (issue 18: importing jsonschema
and building its validator is most of what `pbem validate` costs).

:func:`is_valid` answers True only where jsonschema's Draft 2020-12 validator would report no
error at all, for the keywords pbem's schemas use, with jsonschema's own meaning of each
(``integer`` takes 1.0, ``True`` is not 1, ``pattern`` searches, ``if`` picks ``then`` or
``else`` ...). A schema holding anything else (``format``, a reference outside the schema, a
keyword not listed here) gets None: not decided. :func:`pbem.core.schema.validate` asks
jsonschema whenever the answer is not True, so every problem is still reported by jsonschema,
in its words; this only spares a valid document the import."""
from __future__ import annotations

import re
from typing import Any

#: keywords that only annotate (nothing to check)
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples",
                          "deprecated", "readOnly", "writeOnly", "then", "else", "markdownDescription"})
#: keywords :func:`_ok` checks
_CHECKED = frozenset({"type", "properties", "additionalProperties", "required", "items", "enum", "const",
                      "pattern", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems",
                      "uniqueItems", "minProperties", "propertyNames", "oneOf", "anyOf", "allOf", "if", "$ref"})
_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})


#: id of a schema -> (the schema, whether :func:`supported`): schemas are loaded once (cached)
_SUPPORTED: dict[int, tuple[Any, bool]] = {}


class _Undecided(Exception):
    """Something :func:`_ok` does not know: the answer is jsonschema's."""


def supported(schema: Any, root: bool = True) -> bool:
    """Whether every keyword of ``schema`` (and of its subschemas) is one :func:`_ok` checks."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    for k, v in schema.items():
        if k in ("properties", "$defs"):
            if not isinstance(v, dict) or not all(supported(s, False) for s in v.values()):
                return False
        elif k in ("oneOf", "anyOf", "allOf"):
            if not isinstance(v, list) or not all(supported(s, False) for s in v):
                return False
        elif k in ("items", "additionalProperties", "propertyNames", "if", "then", "else"):
            if not supported(v, False):
                return False
        elif k == "$ref":
            if not isinstance(v, str) or not (v == "#" or v.startswith("#/")) or "%" in v:
                return False        # only a JSON pointer inside the schema
        elif k == "$id" and not root:
            return False            # a new base for references: not followed here
        elif k == "format":
            if v != "email":
                return False        # only the format pbem's schemas use (campaign.yaml's e-mails)
        elif k == "type":
            if not all(t in _TYPES for t in ([v] if isinstance(v, str) else v)):
                return False
        elif k not in _CHECKED and k not in _ANNOTATIONS:
            return False
    return True


def is_valid(doc: Any, schema: dict[str, Any]) -> bool | None:
    """True when ``doc`` is valid against ``schema`` (as jsonschema would find it), False when
    it is not, None when this check cannot say (see the module's docstring)."""
    known = _SUPPORTED.get(id(schema))
    if known is None or known[0] is not schema:
        known = _SUPPORTED[id(schema)] = (schema, supported(schema))
    if not known[1]:
        return None
    try:
        return _ok(doc, schema, schema)
    except _Undecided:
        return None


def _is_type(inst: Any, t: str) -> bool:
    if t == "object":
        return isinstance(inst, dict)
    if t == "array":
        return isinstance(inst, list)
    if t == "string":
        return isinstance(inst, str)
    if t == "boolean":
        return isinstance(inst, bool)
    if t == "null":
        return inst is None
    if isinstance(inst, bool):
        return False
    if t == "integer":
        return isinstance(inst, int) or (isinstance(inst, float) and inst.is_integer())
    return isinstance(inst, (int, float))        # number


def _equal(a: Any, b: Any) -> bool:
    """jsonschema's ``equal``: True and 1 differ, 1 and 1.0 do not, recursively."""
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


def _resolve(root: dict[str, Any], ref: str) -> Any:
    node: Any = root
    for part in ref[1:].split("/")[1:] if ref != "#" else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise _Undecided
        node = node[part]
    return node


#: id of a subschema -> (it, its plan): which of the keywords :func:`_ok` checks it holds, read
#: once a process (issue 35: asking a schema of some 60 keywords for each of twenty keywords at
#: every value of a state was most of the time `pbem show` spent checking it)
_PLANS: dict[int, tuple[dict[str, Any], tuple[Any, ...]]] = {}
_NUMBER_KEYS = ("minimum", "maximum")
_COMBINED_KEYS = ("allOf", "anyOf", "oneOf", "if")


def _plan(s: dict[str, Any]) -> tuple[Any, ...]:
    """(types, $ref, has enum, has const, object keywords?, array keywords?, string keywords?,
    number keywords?, combining keywords?) of the subschema ``s``."""
    known = _PLANS.get(id(s))
    if known is not None and known[0] is s:
        return known[1]
    t = s.get("type") if "type" in s else None
    plan = (None if t is None else (t,) if isinstance(t, str) else tuple(t),
            s.get("$ref"),
            "enum" in s, "const" in s,
            any(k in s for k in ("properties", "required", "minProperties", "additionalProperties", "propertyNames")),
            any(k in s for k in ("items", "minItems", "maxItems", "uniqueItems")),
            any(k in s for k in ("pattern", "minLength", "maxLength", "format")),
            any(k in s for k in _NUMBER_KEYS),
            any(k in s for k in _COMBINED_KEYS))
    _PLANS[id(s)] = (s, plan)
    return plan


_JSON_TYPES = (dict, list, str, int, float, type(None))


def _ok(inst: Any, s: Any, root: dict[str, Any]) -> bool:
    """Whether ``inst`` is valid against the subschema ``s`` (the keywords in this order: type,
    $ref, enum, const, those of its JSON type, allOf, anyOf, oneOf, if)."""
    if s is True:
        return True
    if s is False:
        return False
    if not isinstance(inst, _JSON_TYPES):
        raise _Undecided
    types, ref, enum, const, obj, arr, text, number, combined = _plan(s)
    if types is not None:
        for x in types:
            if _is_type(inst, x):
                break
        else:
            return False
    if ref is not None and not _ok(inst, _resolve(root, ref), root):
        return False
    if enum and not any(_equal(e, inst) for e in s["enum"]):
        return False
    if const and not _equal(inst, s["const"]):
        return False
    if isinstance(inst, dict):
        if obj and not _object_ok(inst, s, root):
            return False
    elif isinstance(inst, list):
        if arr and not _array_ok(inst, s, root):
            return False
    elif isinstance(inst, str):
        if text:
            if not _string_ok(inst, s):
                return False
            if s.get("format") == "email" and "@" not in inst:   # jsonschema's FORMAT_CHECKER
                return False
    elif number and _is_type(inst, "number"):
        if "minimum" in s and inst < s["minimum"]:
            return False
        if "maximum" in s and inst > s["maximum"]:
            return False
    return not combined or _combined_ok(inst, s, root)


def _combined_ok(inst: Any, s: dict[str, Any], root: dict[str, Any]) -> bool:
    """allOf, anyOf, oneOf (exactly one valid) and if/then/else."""
    if "allOf" in s and not all(_ok(inst, x, root) for x in s["allOf"]):
        return False
    if "anyOf" in s and not any(_ok(inst, x, root) for x in s["anyOf"]):
        return False
    if "oneOf" in s:
        n = sum(1 for x in s["oneOf"] if _ok(inst, x, root))
        if n != 1:
            return False
    if "if" in s:
        branch = "then" if _ok(inst, s["if"], root) else "else"
        if branch in s and not _ok(inst, s[branch], root):
            return False
    return True


_ABSENT = object()


def _object_ok(inst: dict[str, Any], s: dict[str, Any], root: dict[str, Any]) -> bool:
    """properties and additionalProperties (one pass over the object's own keys, not over every
    property the schema names: the answer is the same, all must hold), required, minProperties,
    propertyNames."""
    props = s.get("properties") or {}
    ap = s.get("additionalProperties", _ABSENT)
    for k, v in inst.items():
        sub = props.get(k, _ABSENT)
        if sub is not _ABSENT:
            if not _ok(v, sub, root):
                return False
        elif ap is False or (isinstance(ap, dict) and not _ok(v, ap, root)):
            return False
    if "required" in s and any(k not in inst for k in s["required"]):
        return False
    if "minProperties" in s and len(inst) < s["minProperties"]:
        return False
    return "propertyNames" not in s or all(_ok(k, s["propertyNames"], root) for k in inst)


def _array_ok(inst: list[Any], s: dict[str, Any], root: dict[str, Any]) -> bool:
    if "items" in s and not all(_ok(x, s["items"], root) for x in inst):
        return False
    if "minItems" in s and len(inst) < s["minItems"]:
        return False
    if "maxItems" in s and len(inst) > s["maxItems"]:
        return False
    if s.get("uniqueItems"):
        for i in range(1, len(inst)):
            if any(_equal(inst[j], inst[i]) for j in range(i)):
                return False
    return True


def _string_ok(inst: str, s: dict[str, Any]) -> bool:
    if "pattern" in s and not re.search(s["pattern"], inst):
        return False
    if "minLength" in s and len(inst) < s["minLength"]:
        return False
    return not ("maxLength" in s and len(inst) > s["maxLength"])
