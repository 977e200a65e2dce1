"""Strict YAML loading with positions, and a deterministic YAML emitter.

Loading (:func:`load_yaml`)
---------------------------
PyYAML's own loaders follow YAML 1.1 and silently turn ``0101`` into 65, ``no``
into False and ``1:30`` into 90, and let a duplicate key overwrite the first one.
This loader reads the parser's *event stream* (libyaml when available) and
builds the data itself, so that it can

* type scalars with a small, predictable rule set:  a *plain* scalar matching
  ``0`` or ``-?[1-9][0-9]*`` is an int, ``true``/``false`` are bools, ``null``,
  ``~`` and the empty scalar are None, and *everything else is a str*
  (``0101``, ``no``, ``1.5``, ``True``, ``0x1F``, ``1:30`` all stay strings);
  quoted scalars are always strings.  ``-0`` stays the string "-0", so that
  turning a loaded int back into a string is always lossless;
* keep every mapping key as a string (``0101:`` -> "0101", ``1:`` -> "1");
* refuse duplicate keys, anchors/aliases/merge keys, unknown tags, complex
  keys, several documents, tab indentation, control characters, BOMs and
  non-UTF-8 input, documents that are too large, too deep or have too many
  nodes;
* record the 1-based ``(line, column)`` of every value, keyed by its path in
  the document (``Loaded.marks``), so that schema and rule errors can point
  to the line of the offending order.

Events rather than ``yaml.compose``: libyaml's C composer recurses once per
nesting level (a document of 100,000 ``[`` crashes the interpreter) and expands
aliases into shared nodes without telling which node carried an anchor.  The
event stream is produced iteratively, shows anchors and aliases as they are
written, and lets the depth and node limits apply before anything is built.

Dumping (:func:`dump_yaml`)
---------------------------
A small emitter for JSON-like data (dicts with str keys, lists, str, int,
bool, None), byte-for-byte deterministic, whose output :func:`load_yaml` reads
back to an equal value.  Strings are always double-quoted, JSON style.
"""

from __future__ import annotations

import gc
import json
import marshal
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

#: PyYAML's reader compiles, when ``yaml`` is imported, the class of the characters it refuses
#: (``Reader.NON_PRINTABLE``, written as the complement of the printable ones), and ``re``'s
#: compiler spends about 58 million instructions on it, two thirds of ``import yaml`` and a
#: tenth of a first `pbem show`: it fills a table over the whole Basic Multilingual Plane one
#: code point at a time. The same class written as the short list of the characters it holds
#: compiles in a thousandth of that; it is handed to ``re``'s cache under PyYAML's own pattern,
#: so that the reader finds it there (the same matches: tests/core/test_yamlio.py compares them
#: over every code point). Nothing changes if the cache is not a dict (another Python) or PyYAML
#: writes another pattern; the pure-Python reader is the only user, libyaml's parser checks the
#: characters itself.
_PYYAML_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
_NON_PRINTABLE = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"
if isinstance(getattr(re, "_cache", None), dict):
    re._cache.setdefault((str, _PYYAML_NON_PRINTABLE, 0), re.compile(_NON_PRINTABLE))  # type: ignore[attr-defined]

import yaml  # noqa: E402 - after the reader's pattern is in re's cache
from yaml.events import (  # noqa: E402
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from pbem.core.errors import ExitCode, Issue, PbemError  # noqa: E402
from pbem.core.marshalcache import marshal_entries  # noqa: E402

__all__ = ["Loaded", "load_yaml", "load_known_yaml", "dump_yaml"]

Marks = dict[tuple[Any, ...], tuple[int, int]]

_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"

_INT_RE = re.compile(r"(?:0|-?[1-9][0-9]*)")
_MAX_INT_DIGITS = 4000  # below CPython's int/str conversion limit
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# A line whose leading whitespace contains a tab (libyaml refuses even
# tab-only blank lines in block context).
_TAB_INDENT_RE = re.compile(r"(?m)^ *\t")
_MAX_REPORTED = 20  # cap for repeated pre-parse issues (control chars, tabs)
_MAX_ISSUES = 100  # the builder stops after this many issues

_HINT_TAB = "indent with spaces"
_HINT_ALIAS = "write the values out"
_HINT_ENCODING = "save as UTF-8 without BOM"


@dataclass
class Loaded:
    """A loaded YAML document and the position of each of its values.

    ``marks`` maps a path (``()`` for the root, ``parent + (key,)`` for a
    mapping value, ``parent + (index,)`` for a sequence item) to the 1-based
    ``(line, column)`` where that value starts.
    """

    data: Any
    marks: Marks = field(default_factory=dict)


# ---------------------------------------------------------------------------
# Parser selection


class _PyParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[misc]  # PyYAML ships no types
    """Pure-Python event parser, used when PyYAML was built without libyaml."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)

    def dispose(self) -> None:
        """Nothing to release (mirrors ``CParser.dispose``)."""


def _make_parser(text: str) -> Any:
    """An object with ``get_event()`` and ``dispose()`` for ``text``."""
    if getattr(yaml, "__with_libyaml__", False):
        from yaml.cyaml import CParser  # only where PyYAML was built with libyaml

        return CParser(text)
    return _PyParser(text)


# ---------------------------------------------------------------------------
# Pre-parse checks


def _issue(code: str, message: str, filename: str, line: int | None = None,
           column: int | None = None, hint: str | None = None,
           text: str | None = None, path: tuple[Any, ...] = ()) -> Issue:
    """Shorthand for an error issue in ``filename``."""
    return Issue(code=code, message=message, file=filename, line=line,
                 column=column, hint=hint, text=text, path=path)


def _fail(issues: list[Issue]) -> PbemError:
    """The exception raised for loader issues."""
    return PbemError(issues, ExitCode.INVALID)


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of character ``index`` in ``text``."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _decode(source: bytes | str, filename: str, max_bytes: int) -> str:
    """Check size and encoding, and return the text."""
    if isinstance(source, str):
        if len(source) > max_bytes:
            raise _fail([_too_large(len(source), max_bytes, filename, "characters")])
        if source.startswith("\ufeff"):
            raise _fail([_issue("YAML-ENCODING", "the text starts with a byte order mark",
                                filename, 1, 1, _HINT_ENCODING)])
        try:
            size = len(source.encode("utf-8"))
        except UnicodeEncodeError as exc:
            line, column = _position(source, exc.start)
            raise _fail([_issue("YAML-ENCODING", "the text contains an unpaired surrogate",
                                filename, line, column, _HINT_ENCODING)]) from None
        if size > max_bytes:
            raise _fail([_too_large(size, max_bytes, filename)])
        return source
    data = bytes(source)
    if len(data) > max_bytes:
        raise _fail([_too_large(len(data), max_bytes, filename)])
    problem = _encoding_problem(data)
    if problem:
        raise _fail([_issue("YAML-ENCODING", problem, filename, 1, 1, _HINT_ENCODING)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        raise _fail([_issue("YAML-ENCODING", f"the file is not valid UTF-8 (byte "
                            f"0x{data[exc.start]:02x} at offset {exc.start})",
                            filename, line, column, _HINT_ENCODING)]) from None


def _encoding_problem(data: bytes) -> str | None:
    """Describe a BOM or a UTF-16/32 look, or return None."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "the file starts with a UTF-8 byte order mark"
    if data.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")):
        return "the file is UTF-32 encoded"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "the file is UTF-16 encoded"
    if len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        return "the file looks UTF-16 or UTF-32 encoded"
    return None


def _too_large(size: int, max_bytes: int, filename: str, unit: str = "bytes") -> Issue:
    """YAML-TOO-LARGE issue."""
    return _issue("YAML-TOO-LARGE", f"the document is {size} {unit}, more than the "
                  f"limit of {max_bytes} bytes", filename,
                  hint="split the file or remove what is not needed")


def _control_chars(text: str, filename: str) -> list[Issue]:
    """One issue per control character (capped)."""
    issues: list[Issue] = []
    for match in _CONTROL_RE.finditer(text):
        if len(issues) == _MAX_REPORTED:
            break
        line, column = _position(text, match.start())
        issues.append(_issue("YAML-CONTROL-CHAR",
                             f"control character U+{ord(match.group()):04X} is not allowed",
                             filename, line, column,
                             "remove it; write \\t, \\n or \\uXXXX escapes inside double quotes"))
    return issues


def _tab_lines(text: str) -> list[tuple[int, int]]:
    """(line, column) of each line indented with a tab (capped)."""
    if "\t" not in text:
        return []
    found = []
    for match in _TAB_INDENT_RE.finditer(text):
        line, _ = _position(text, match.start())
        found.append((line, match.group().index("\t") + 1))
        if len(found) == _MAX_REPORTED:
            break
    return found


# ---------------------------------------------------------------------------
# Event-stream builder

_EXPECT_KEY = object()  # mapping frame waits for a key
_SKIP_VALUE = object()  # the next value of the mapping is to be ignored
_MISSING = object()


class _StopBuilding(Exception):
    """Raised by the builder to stop reading after a fatal or the 100th issue."""


class _Frame:
    """An open mapping or sequence while building."""

    __slots__ = ("container", "path", "is_map", "key", "key_lines")

    def __init__(self, container: Any, path: tuple[Any, ...], is_map: bool) -> None:
        self.container = container
        self.path = path
        self.is_map = is_map
        self.key: Any = _EXPECT_KEY
        self.key_lines: dict[str, int] = {}


class _Builder:
    """Turns parser events into data, marks and issues."""

    def __init__(self, filename: str, max_depth: int, max_nodes: int,
                 track_spans: bool) -> None:
        self.filename = filename
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.track_spans = track_spans
        self.issues: list[Issue] = []
        self.marks: Marks = {}
        self.spans: list[tuple[int, int]] = []  # multi-line scalars (1-based)
        self.root: Any = _MISSING
        self.documents = 0

    # -- helpers -----------------------------------------------------------

    def error(self, code: str, message: str, mark: Any, hint: str | None = None,
              path: tuple[Any, ...] = ()) -> None:
        """Record an issue at a parser mark."""
        self.issues.append(_issue(code, message, self.filename, mark.line + 1,
                                  mark.column + 1, hint, path=path))
        if len(self.issues) >= _MAX_ISSUES:
            raise _StopBuilding

    def place(self, stack: list[_Frame], value: Any, mark: Any) -> tuple[Any, ...] | None:
        """Store a value in the open container; return its path, or None if dropped."""
        if not stack:
            self.root = value
            self.marks[()] = (mark.line + 1, mark.column + 1)
            return ()
        frame = stack[-1]
        if frame.is_map:
            key = frame.key
            frame.key = _EXPECT_KEY
            if key is _SKIP_VALUE:
                return None
            path = frame.path + (key,)
            frame.container[key] = value
        else:
            path = frame.path + (len(frame.container),)
            frame.container.append(value)
        self.marks[path] = (mark.line + 1, mark.column + 1)
        return path

    def check_anchor(self, event: Any) -> None:
        """Refuse an anchor (``&name``)."""
        if event.anchor is not None:
            self.error("YAML-ALIAS", f"anchors are not allowed (&{event.anchor})",
                       event.start_mark, _HINT_ALIAS)

    def scalar_value(self, event: Any) -> Any:
        """Type a scalar event according to the module rules."""
        tag = event.tag
        value = event.value
        if tag is None:
            if event.implicit[0]:  # plain
                return _plain_value(value)
            return value
        if tag == "!" or tag == _STR_TAG:
            return value
        if tag == _INT_TAG:
            if _INT_RE.fullmatch(value) and len(value) <= _MAX_INT_DIGITS:
                return int(value)
            self.error("YAML-TAG", f"!!int needs a decimal integer, not {value!r}",
                       event.start_mark, "write the number without the tag")
            return value
        self.error("YAML-TAG", f"tag {tag!r} is not allowed", event.start_mark,
                   "remove the tag; only !!str, !!int, !!map and !!seq are accepted")
        return value

    def check_key(self, frame: _Frame, event: ScalarEvent) -> None:
        """Handle a scalar in key position."""
        key = event.value
        tag = event.tag
        if tag is not None and tag not in ("!", _STR_TAG, _INT_TAG):
            self.error("YAML-TAG", f"tag {tag!r} is not allowed on a key",
                       event.start_mark, "remove the tag")
        if key == "<<" and tag is None and event.implicit[0]:
            self.error("YAML-ALIAS", "merge keys (<<) are not allowed",
                       event.start_mark, _HINT_ALIAS, path=frame.path)
            frame.key = _SKIP_VALUE
            return
        line = event.start_mark.line + 1
        first = frame.key_lines.get(key)
        if first is not None:
            self.error("YAML-DUPLICATE-KEY",
                       f"duplicate key {key!r} (first defined at line {first}, "
                       f"again at line {line})",
                       event.start_mark, "keep only one of them", path=frame.path + (key,))
            frame.key = _SKIP_VALUE
            return
        frame.key_lines[key] = line
        frame.key = key

    # -- main loop ---------------------------------------------------------

    def run(self, get_event: Callable[[], Any]) -> None:
        """Consume events until the end of the stream (or a fatal problem)."""
        stack: list[_Frame] = []
        nodes = 0
        skip: int | None = 0  # > 0 while ignoring the inside of a refused collection
        max_nodes = self.max_nodes
        while True:
            event = get_event()
            cls = event.__class__
            if cls is ScalarEvent or cls is MappingStartEvent or cls is SequenceStartEvent \
                    or cls is AliasEvent:
                nodes += 1
                if nodes > max_nodes:
                    self.error("YAML-TOO-MANY-NODES",
                               f"the document has more than {max_nodes} nodes",
                               event.start_mark, "split the file")
                    return
            if skip:
                skip = self.skipped(stack, event, cls, skip)
                if skip is None:
                    return
                continue
            if cls is ScalarEvent:
                self.scalar(stack, event)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                skip = self.start_collection(stack, event, cls is MappingStartEvent)
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                stack.pop()
            elif cls is AliasEvent:
                self.error("YAML-ALIAS", f"aliases are not allowed (*{event.anchor})",
                           event.start_mark, _HINT_ALIAS)
                if stack and stack[-1].is_map and stack[-1].key is _EXPECT_KEY:
                    stack[-1].key = _SKIP_VALUE
                else:
                    self.place(stack, None, event.start_mark)
            elif cls is DocumentStartEvent:
                self.documents += 1
                if self.documents > 1:
                    self.error("YAML-MULTIDOC", "only one YAML document is allowed per file",
                               event.start_mark, "remove the second '---' and what follows,"
                               " or put it in its own file")
                    return
            elif cls is StreamEndEvent:
                return

    def skipped(self, stack: list[_Frame], event: Any, cls: type, skip: int) -> int | None:
        """An event inside a refused collection: the new skip count (None: nested too deep)."""
        if cls is MappingStartEvent or cls is SequenceStartEvent:
            skip += 1
            if len(stack) + skip > self.max_depth:
                self.error("YAML-DEPTH", f"the document is nested more than "
                           f"{self.max_depth} levels deep", event.start_mark,
                           "flatten the structure")
                return None
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            skip -= 1
        return skip

    def scalar(self, stack: list[_Frame], event: Any) -> None:
        """A scalar: a key of the mapping being read, or a value placed with its line and column."""
        if event.anchor is not None:
            self.check_anchor(event)
        if self.track_spans and event.end_mark.line > event.start_mark.line:
            self.spans.append((event.start_mark.line + 1, event.end_mark.line + 1))
        frame = stack[-1] if stack else None
        if frame is None:
            self.place(stack, self.scalar_value(event), event.start_mark)
            return
        if frame.is_map:
            key = frame.key
            if key is _EXPECT_KEY:
                self.check_key(frame, event)
                return
            frame.key = _EXPECT_KEY
            if key is _SKIP_VALUE:
                return
            path = frame.path + (key,)
        else:
            path = frame.path + (len(frame.container),)
        if event.tag is None:
            value = _plain_value(event.value) if event.implicit[0] else event.value
        else:
            value = self.scalar_value(event)
        if frame.is_map:
            frame.container[key] = value
        else:
            frame.container.append(value)
        mark = event.start_mark
        self.marks[path] = (mark.line + 1, mark.column + 1)

    def start_collection(self, stack: list[_Frame], event: Any, is_map: bool) -> int:
        """Open a mapping or sequence; return the new skip count (0 or 1)."""
        self.check_anchor(event)
        tag = event.tag
        if tag is not None and tag != "!" and tag != (_MAP_TAG if is_map else _SEQ_TAG):
            self.error("YAML-TAG", f"tag {tag!r} is not allowed", event.start_mark,
                       "remove the tag")
        if stack and stack[-1].is_map and stack[-1].key is _EXPECT_KEY:
            self.error("YAML-NONSTRING-KEY", "mapping keys must be plain or quoted text",
                       event.start_mark, "write the key as text", path=stack[-1].path)
            stack[-1].key = _SKIP_VALUE
            return 1
        if len(stack) >= self.max_depth:
            # Fatal: libyaml gets slow (quadratic) on very deep flow nesting,
            # so stop reading at once.
            self.error("YAML-DEPTH", f"the document is nested more than "
                       f"{self.max_depth} levels deep", event.start_mark,
                       "flatten the structure", path=stack[-1].path)
            raise _StopBuilding
        container: Any = {} if is_map else []
        path = self.place(stack, container, event.start_mark)
        if path is None:
            return 1
        stack.append(_Frame(container, path, is_map))
        return 0


def _plain_value(value: str) -> Any:
    """Type an untagged plain scalar."""
    if not value or value == "null" or value == "~":
        return None
    if value == "true":
        return True
    if value == "false":
        return False
    first = value[0]
    if ("0" <= first <= "9" or first == "-") and len(value) <= _MAX_INT_DIGITS \
            and _INT_RE.fullmatch(value):
        return int(value)
    return value


def _too_deep(exc: yaml.YAMLError) -> bool:
    """Whether the parser itself gave up on the nesting depth (libyaml's own limit)."""
    problem = getattr(exc, "problem", None) or str(exc)
    return "nesting depth" in str(problem).lower()


def _syntax_issue(exc: yaml.YAMLError, filename: str) -> Issue:
    """Turn a PyYAML/libyaml error into a YAML-SYNTAX issue."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    message = problem
    if context:
        message += f" ({context}"
        if context_mark is not None and context_mark is not mark:
            message += f" at line {context_mark.line + 1}, column {context_mark.column + 1}"
        message += ")"
    line = mark.line + 1 if mark is not None else None
    column = mark.column + 1 if mark is not None else None
    return _issue("YAML-SYNTAX", message, filename, line, column,
                  "check indentation, colons and quotes on this line and the one before")


def _tab_issues(tabs: list[tuple[int, int]], spans: list[tuple[int, int]],
                filename: str) -> list[Issue]:
    """YAML-TAB issues for tab-indented lines not inside a multi-line scalar."""
    issues = []
    for line, column in tabs:
        if any(start < line <= end for start, end in spans):
            continue
        issues.append(_issue("YAML-TAB", "a tab is used for indentation", filename,
                             line, column, _HINT_TAB))
    return issues



@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused within the block (as it was after it): code that
    makes many small containers, none in a cycle, would else have the collector scan every
    object alive again and again. On the way out what the block made and kept is moved to the
    oldest generation unscanned (``freeze`` then ``unfreeze``): else the first young collection
    after it scans them all at once (16 ms after a mail's map)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def load_yaml(source: bytes | str, filename: str = "<input>", *,
              max_bytes: int = 5_000_000, max_depth: int = 64,
              max_nodes: int = 200_000) -> Loaded:
    """Load one strict YAML document; raise :class:`PbemError` (INVALID) on problems.

    All issues that can be found in one pass are reported together.
    """
    text = _decode(source, filename, max_bytes)
    control = _control_chars(text, filename)
    if control:
        raise _fail(control)
    tabs = _tab_lines(text)
    builder = _Builder(filename, max_depth, max_nodes, track_spans=bool(tabs))
    parser = _make_parser(text)
    syntax: Issue | None = None
    try:
        with paused_gc():  # building many small containers triggers costly collections
            builder.run(parser.get_event)
    except _StopBuilding:
        pass
    except yaml.YAMLError as exc:
        if _too_deep(exc):
            # libyaml (PyYAML >= 6.0.2's bundled one) has a nesting limit of its own (1,000) and
            # its scanner reads flow collections ahead of the events the builder counts: whoever
            # notices first, a document too deep is YAML-DEPTH.
            mark = getattr(exc, "problem_mark", None)
            builder.issues.append(_issue(
                "YAML-DEPTH", f"the document is nested more than {max_depth} levels deep",
                filename, mark.line + 1 if mark is not None else None,
                mark.column + 1 if mark is not None else None,
                "flatten the structure"))
        else:
            syntax = _syntax_issue(exc, filename)
    finally:
        parser.dispose()
    issues = builder.issues
    tab_issues = _tab_issues(tabs, builder.spans, filename)
    if syntax is not None:
        caused_by_tab = any(issue.line is not None and syntax.line is not None
                            and issue.line <= syntax.line for issue in tab_issues)
        if not caused_by_tab:
            issues.append(syntax)
    issues.extend(tab_issues)
    if syntax is None and not issues and (builder.documents == 0 or builder.root is None):
        issues.append(_issue("YAML-EMPTY", "the document is empty", filename,
                             hint="the file must contain a YAML mapping"))
    if issues:
        issues.sort(key=lambda issue: (issue.line or 0, issue.column or 0))
        raise _fail(issues)
    return Loaded(builder.root, builder.marks)


class _NotKnown(Exception):
    """Something :func:`load_known_yaml` leaves to :func:`load_yaml` (never in a shipped file)."""


def load_known_yaml(source: bytes, filename: str = "<input>") -> Loaded:
    """:func:`load_yaml` of a document known to load without an issue: one of pbem's own data
    files, byte for byte (recognised by its digest, :func:`pbem.core.schema.shipped_listed`),
    which the list of the shipped data says was loaded and found valid. The same data, typed
    by the same rules, without what only a problem needs: no marks (nothing in it is reported),
    no search for duplicate keys, tabs or control characters (issue 35: a first `pbem show` of
    BlitzWAR parses 100 KB of such files; this takes a third off the Python side of it).
    Anything such a file never holds (an anchor, an alias, another tag, a second document, a
    key that is not a scalar) goes to :func:`load_yaml`, which says what is wrong."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError:
        return load_yaml(source, filename)
    parser = _make_parser(text)
    try:
        with paused_gc():
            root = _known_build(parser.get_event)
    except (_NotKnown, yaml.YAMLError):
        return load_yaml(source, filename)
    finally:
        parser.dispose()
    return Loaded(root, {})


def _known_scalar(event: Any) -> Any:
    """A scalar's value, typed as :meth:`_Builder.scalar_value` types it."""
    tag = event.tag
    if event.anchor is not None:
        raise _NotKnown
    if tag is None:
        return _plain_value(event.value) if event.implicit[0] else event.value
    if tag == "!" or tag == _STR_TAG:
        return event.value
    if tag == _INT_TAG and _INT_RE.fullmatch(event.value) and len(event.value) <= _MAX_INT_DIGITS:
        return int(event.value)
    raise _NotKnown


def _known_build(get_event: Callable[[], Any]) -> Any:
    """The data of the events of a known document (see :func:`load_known_yaml`)."""
    stack: list[Any] = []       # the open containers
    keys: list[Any] = []        # for each: the key read and not placed yet (_EXPECT_KEY), None in a list
    root: Any = _MISSING
    documents = 0
    while True:
        event = get_event()
        cls = event.__class__
        if cls is ScalarEvent:
            value = _known_scalar(event)
            if not stack:
                root = value
                continue
            key = keys[-1]
            if key is None:
                stack[-1].append(value)
            elif key is _EXPECT_KEY:
                if event.value == "<<" and event.tag is None and event.implicit[0]:
                    raise _NotKnown
                keys[-1] = event.value
            else:
                stack[-1][key] = value
                keys[-1] = _EXPECT_KEY
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            is_map = cls is MappingStartEvent
            tag = event.tag
            if event.anchor is not None or (tag is not None and tag != "!" and tag != (_MAP_TAG if is_map else _SEQ_TAG)):
                raise _NotKnown
            container: Any = {} if is_map else []
            if stack:
                key = keys[-1]
                if key is None:
                    stack[-1].append(container)
                elif key is _EXPECT_KEY:
                    raise _NotKnown                 # a collection as a key
                else:
                    stack[-1][key] = container
                    keys[-1] = _EXPECT_KEY
            else:
                root = container
            stack.append(container)
            keys.append(_EXPECT_KEY if is_map else None)
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            stack.pop()
            keys.pop()
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _NotKnown
        elif cls is StreamEndEvent:
            if root is _MISSING or root is None:
                raise _NotKnown
            return root
        elif cls is AliasEvent:
            raise _NotKnown


# ---------------------------------------------------------------------------
# Emitter

_PLAIN_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_RESERVED_KEYS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})
# Characters json.dumps leaves raw but YAML treats as line breaks, BOM or
# non-printable: DEL, C1 controls (incl. NEL), LS, PS, BOM, U+FFFE, U+FFFF.
_YAML_ESCAPE_RE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_FLOW_LIMIT = 100
_SIMPLE_KEY_LIMIT = 1000  # YAML parsers refuse implicit keys over 1024 characters


# The renderings of the short strings and keys met (a state repeats its ids, zone names and
# keys thousands of times: issue 35), bounded
_QUOTED: dict[str, str] = {}
_KEYS: dict[str, str] = {}
_MEMO_MAX = 20_000
_MEMO_LEN = 100


def _quote(text: str) -> str:
    """Double-quoted YAML scalar (JSON string syntax, plus extra escapes)."""
    quoted = _QUOTED.get(text)
    if quoted is not None:
        return quoted
    if _SURROGATE_RE.search(text):
        raise ValueError(f"string contains an unpaired surrogate: {text[:40]!r}")
    quoted = _YAML_ESCAPE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))
    if len(text) <= _MEMO_LEN and len(_QUOTED) < _MEMO_MAX:
        _QUOTED[text] = quoted
    return quoted


def _key(key: Any) -> str:
    """A mapping key, plain when safe, else double-quoted."""
    if type(key) is str:
        done = _KEYS.get(key)
        if done is not None:
            return done
    if not isinstance(key, str):
        raise TypeError(f"mapping keys must be str, not {type(key).__name__}: {key!r}")
    done = key if _PLAIN_KEY_RE.fullmatch(key) and key.lower() not in _RESERVED_KEYS else _quote(key)
    if type(key) is str and len(key) <= _MEMO_LEN and len(_KEYS) < _MEMO_MAX:
        _KEYS[key] = done
    return done


def _scalar(value: Any) -> str | None:
    """Render a scalar, or return None if ``value`` is a container."""
    if type(value) is str:      # most values of a state (str subclasses: below)
        return _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (dict, list, tuple)):
        return None
    raise TypeError(f"cannot write {type(value).__name__} to YAML: {value!r}")


def _inline(value: Any) -> str | None:
    """One-line rendering (scalar, empty or short flow list), or None."""
    rendered = _scalar(value)
    if rendered is not None:
        return rendered
    if not value:
        return "{}" if isinstance(value, dict) else "[]"
    if isinstance(value, dict):
        return None
    if any(isinstance(item, (dict, list, tuple)) for item in value):
        return None
    flow = "[" + ", ".join(_scalar(item) or "" for item in value) + "]"
    return flow if len(flow) <= _FLOW_LIMIT else None


def _emit_mapping(mapping: dict[str, Any], indent: int, out: list[str]) -> None:
    """Append block-style lines for a non-empty mapping."""
    pad = " " * indent
    for key, value in mapping.items():
        rendered = _key(key)
        if len(rendered) > _SIMPLE_KEY_LIMIT:
            out.append(pad + "? " + rendered)  # explicit key: no length limit
            head = pad + ":"
        else:
            head = pad + rendered + ":"
        inline = _inline(value)
        if inline is not None:
            out.append(head + " " + inline)
            continue
        out.append(head)
        if isinstance(value, dict):
            _emit_mapping(value, indent + 2, out)
        else:
            _emit_sequence(value, indent + 2, out)


def _emit_sequence(sequence: list[Any] | tuple[Any, ...], indent: int, out: list[str]) -> None:
    """Append block-style ``- item`` lines for a non-empty sequence."""
    pad = " " * indent
    for item in sequence:
        inline = _inline(item)
        if inline is not None:
            out.append(pad + "- " + inline)
            continue
        nested: list[str] = []
        if isinstance(item, dict):
            _emit_mapping(item, indent + 2, nested)
        else:
            _emit_sequence(item, indent + 2, nested)
        nested[0] = pad + "- " + nested[0][indent + 2:]
        out.extend(nested)


def _header_lines(header: str) -> list[str]:
    """Comment lines for the optional header."""
    lines = []
    for line in header.splitlines():
        if line.startswith("#"):
            lines.append(line)
        else:
            lines.append("# " + line if line else "#")
    return lines


def dump_yaml(data: Any, *, header: str | None = None) -> str:
    """Deterministic block-style YAML for JSON-like ``data``.

    Accepts dicts with str keys (insertion order kept), lists (and tuples),
    str, int, bool and None; floats and other types raise TypeError.
    ``header`` lines come first, as ``#`` comments.  The result ends with a
    newline, and ``load_yaml(dump_yaml(x)).data == x``.
    """
    out = _header_lines(header) if header else []
    inline = _inline(data)
    if inline is not None:
        out.append(inline)
    elif isinstance(data, dict):
        _emit_mapping(data, 0, out)
    else:
        _emit_sequence(data, 0, out)
    return "\n".join(out) + "\n"


#: top-level key -> (marshal bytes of its value, its lines) of the states written last by
#: :func:`dump_state_yaml`
_PART_LINES: dict[str, tuple[bytes, list[str]]] = {}


#: a top-level mapping of at least this many entries (a state's counters) is laid out entry by
#: entry when it changed, the lines of an entry with the same marshal bytes as last time kept
_SPLIT = 32
_ENTRY_LINES: dict[str, dict[Any, Any]] = {}   # (pbem.core.marshalcache.marshal_entries)


def _entry_lines(sk: str, e: Any) -> list[str]:
    """The lines of one entry of a top-level mapping, at indent 2."""
    lines: list[str] = []
    _emit_mapping({sk: e}, 2, lines)
    return lines


def _emit_split(key: str, value: dict[str, Any], m: bytes, out: list[str]) -> None:
    """:func:`_emit_mapping` of ``{key: value}`` at the top level, whose marshal bytes are
    ``m``, the lines of each entry of ``value`` (at indent 2 they depend on its key and value
    alone) reused from the states written before (:func:`pbem.core.marshalcache.marshal_entries`)."""
    _emit_mapping({key: {}}, 0, out)
    out[-1] = out[-1][:-len(" {}")]               # the key's line(s) without the empty value
    cache = _ENTRY_LINES.get(key)
    if cache is None or len(cache) > 2 * len(value) + 64:
        cache = _ENTRY_LINES[key] = {}
    entries = marshal_entries(value, m, cache, _entry_lines)
    if entries is None:
        for sk, e in value.items():
            _emit_mapping({sk: e}, 2, out)
        return
    for lines in entries:
        out.extend(lines)


def _marshalled(value: Any) -> bytes | None:
    """The :mod:`marshal` bytes (version 2) of a mapping or list; None for another value, or one
    marshal refuses."""
    if type(value) is not dict and type(value) is not list:
        return None
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def dump_state_yaml(data: dict[str, Any], *, header: str | None = None) -> str:
    """:func:`dump_yaml` of a mapping, byte for byte: the lines of a top-level value the same
    as in the state written before are taken again (a top-level entry's lines depend on its key
    and value alone), the same value told by its :mod:`marshal` bytes (version 2: equal bytes
    are equal data of the same exact types); a value marshal refuses is written anew."""
    if not isinstance(data, dict) or not data:
        return dump_yaml(data, header=header)
    out = _header_lines(header) if header else []
    for key, value in data.items():
        m = _marshalled(value) if type(key) is str else None
        if m is not None:
            hit = _PART_LINES.get(key)
            if hit is not None and hit[0] == m:
                out.extend(hit[1])
                continue
        lines: list[str] = []
        if m is not None and type(value) is dict and value and len(value) >= _SPLIT:
            _emit_split(key, value, m, lines)
        else:
            _emit_mapping({key: value}, 0, lines)
        if m is not None:
            if len(_PART_LINES) >= 256:
                _PART_LINES.clear()
                _ENTRY_LINES.clear()
            _PART_LINES[key] = (m, lines)
        out.extend(lines)
    return "\n".join(out) + "\n"
