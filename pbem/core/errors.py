"""Structured problems ("issues"), exit codes and the exception that carries them.

Every problem pbem reports -- a YAML syntax error, a schema violation, an illegal
move, a hash mismatch -- is an :class:`Issue` with a stable ``code``.  Codes are
grouped by prefix, and the prefix decides the process exit code
(:func:`exit_code_for`):

* ``YAML-``, ``SCHEMA-``, ``FILE-``, ``MAIL-``, ``DATA-``  -> :attr:`ExitCode.INVALID`
* ``HASH-``, ``REPLAY-``, ``DICE-``, ``ORDERS-GAME``/``-CAMPAIGN``  -> :attr:`ExitCode.MISMATCH`
* ``USAGE-``, ``NEW-``, ``MAP-``  -> :attr:`ExitCode.USAGE`; ``FILE-EXISTS``, ``FILE-WRITE`` -> :attr:`ExitCode.IO`
* anything else (rule codes such as ``BFG-MOVE-ZOC``) -> :attr:`ExitCode.ILLEGAL`

The whole table is :data:`EXIT_BY_CODE` and :data:`EXIT_BY_PREFIX`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from enum import Enum
from typing import Any

# the exit codes: their own light module (`pbem --help` prints them without loading this one)
from .exitcodes import EXIT_MEANINGS as EXIT_MEANINGS, ExitCode as ExitCode, exit_help as exit_help
from .lazyclass import dataclass  # made when first used (issue 35)


class Severity(str, Enum):
    """How bad an issue is.  Only errors change the exit code."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Issue:
    """One problem found in an input file or during adjudication.

    ``line`` and ``column`` are 1-based.  ``path`` is the location inside the
    loaded document, e.g. ``("phases", 1, "moves", 3, "path")``.
    """

    code: str
    message: str
    severity: Severity = Severity.ERROR
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: tuple[Any, ...] = ()
    text: str | None = None
    rule: str | None = None
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        """True when this issue has error severity."""
        return self.severity == Severity.ERROR

    def located(
        self,
        file: str | None,
        marks: Mapping[tuple[Any, ...], tuple[int, int]] | None,
    ) -> Issue:
        """Return a copy with ``file``, ``line`` and ``column`` filled in.

        The position comes from the longest prefix of ``self.path`` found in
        ``marks`` (as produced by :func:`pbem.core.yamlio.load_yaml`).  Fields
        that are already set are kept: an issue that already knows its file or
        line is not moved.
        """
        new_file = self.file if self.file is not None else file
        line, column = self.line, self.column
        if line is None and marks:
            position = _longest_prefix_mark(self.path, marks)
            if position is not None:
                line, column = position
        if (new_file, line, column) == (self.file, self.line, self.column):
            return self
        return replace(self, file=new_file, line=line, column=column)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict; ``None`` fields are omitted, ``path`` is a list."""
        result: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "severity": Severity(self.severity).value,
        }
        for name in ("file", "line", "column"):
            value = getattr(self, name)
            if value is not None:
                result[name] = value
        result["path"] = list(self.path)
        for name in ("text", "rule", "hint"):
            value = getattr(self, name)
            if value is not None:
                result[name] = value
        return result

    def format(self) -> str:
        """Human-readable text, e.g.::

            orders.yaml:12:5: error BFG-MOVE-ZOC: cannot leave a ZOC [DG2 4.3]
                > move: A12 0101-0102
                hint: stop in the first hex of an enemy ZOC
        """
        head = f"{Severity(self.severity).value} {self.code}: {self.message}"
        location = self._location()
        if location:
            head = f"{location}: {head}"
        if self.line is None and self.path:
            head += f" (at {format_path(self.path)})"
        if self.rule and not cites(self.message, self.rule):
            head += f" [{self.rule}]"
        lines = [head]
        if self.text is not None:
            lines.extend(f"    > {part}" for part in self.text.splitlines() or [""])
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)

    def _location(self) -> str:
        """``file:line:column`` with the parts that are known."""
        if self.line is None:
            return self.file or ""
        location = f"{self.file or '<input>'}:{self.line}"
        if self.column is not None:
            location += f":{self.column}"
        return location


def cites(message: str, rule: str) -> bool:
    """True when ``message`` cites ``rule`` in parentheses already ("... (15.3)", "(11.3, 11.5)",
    "(15.3: double)"): the rule is then not printed a second time as `` [15.3]``."""
    return re.search(r"\((?:[^()]*[\s,;])?" + re.escape(rule) + r"(?=[),;:])", message) is not None


def did_you_mean(word: Any, *pools: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for the closest string of the first pool that has a close match
    (a player's own units before every unit of the game, say), else ''. Every game's messages
    about an unknown id use it."""
    if not isinstance(word, str):
        return ""
    # letters typed for the digits they look like (ger-i3-l, ger-i3-O) and case come first
    plain = word.strip().lower().translate(str.maketrans("lo", "10"))
    for pool in pools:
        strings = sorted({c for c in pool if isinstance(c, str)})
        same = [c for c in strings if c != word and c.lower().translate(str.maketrans("lo", "10")) == plain]
        if same:
            return f" (did you mean '{same[0]}'?)"
        import difflib  # only where a word is not found (it is slow to import, issue 35)
        match = difflib.get_close_matches(word, strings, n=1, cutoff=0.6)
        if match:
            return f" (did you mean '{match[0]}'?)"
    return ""


def choice_text(choice: Any) -> str:
    """A decision's option as a player writes it in YAML (``[pol-i2-3/infantry, pol-i1-1/infantry]``,
    ``stay``), not as Python prints it (``['pol-i2-3/infantry']``)."""
    if isinstance(choice, (list, tuple)):
        return "[" + ", ".join(choice_text(c) for c in choice) + "]"
    if isinstance(choice, dict):
        return "{" + ", ".join(f"{k}: {choice_text(v)}" for k, v in choice.items()) + "}"
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return "null" if choice is None else str(choice)


def format_path(path: Iterable[Any]) -> str:
    """Render a document path as ``phases[1].moves[3].path``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "<root>"


def _longest_prefix_mark(
    path: tuple[Any, ...], marks: Mapping[tuple[Any, ...], tuple[int, int]]
) -> tuple[int, int] | None:
    """Position of the longest prefix of ``path`` present in ``marks``."""
    path = tuple(path)
    for end in range(len(path), -1, -1):
        position = marks.get(path[:end])
        if position is not None:
            return position
    return None


# The one table from issue codes to exit codes: an exact code first, then the longest
# matching prefix; any other code is a rule of a game (ILLEGAL).
EXIT_BY_CODE: dict[str, ExitCode] = {
    "FILE-EXISTS": ExitCode.IO,
    "FILE-WRITE": ExitCode.IO,
    "ORDERS-GAME": ExitCode.MISMATCH,
    "ORDERS-CAMPAIGN": ExitCode.MISMATCH,
    "ORDERS-TRUNCATED": ExitCode.INVALID,   # a file written from the template lost its end (issue 29)
    # the player's orders for the phase are in already: the same file again is HASH-ORDERS-REPLAYED,
    # another one this; both a file that does not fit the campaign's state (as HASH-ORDERS-STATE)
    "ORDERS-ALREADY-RECEIVED": ExitCode.MISMATCH,
    "ORDERS-MISSING-FLAG": ExitCode.USAGE,
    "ORDERS-NO-DEFAULT": ExitCode.USAGE,
    "DICE-REVEAL-UNNEEDED": ExitCode.USAGE,
    # protocol 2: a reveal before the orders are archived: a file that does not fit the state
    # (as HASH-ORDERS-STATE), not a wrong command line (issue 33)
    "DICE-REVEAL-EARLY": ExitCode.MISMATCH,
    "DICE-LINKS-AWAITED": ExitCode.USAGE,  # orders given while the archived ones wait for links
    "SEAL-MISMATCH": ExitCode.MISMATCH,  # an opening that does not match its commitment
    "GAME-UNKNOWN": ExitCode.INVALID,
    "GAME-NOT-PLAYABLE": ExitCode.USAGE,  # data and listing only, no adjudication yet
    "SCENARIO-UNKNOWN": ExitCode.INVALID,
    "MAP-PNG-UNAVAILABLE": ExitCode.UNAVAILABLE,  # no SVG to PNG converter installed
    "MAIL-FROM": ExitCode.MISMATCH,        # a message not from the player its order file names
    "MAIL-NO-STEP": ExitCode.USAGE,        # `pbem mail --step N` of a step not archived
    "MAIL-PLAYER": ExitCode.USAGE,         # `pbem mail --to P` of a player not in the campaign
    "MAIL-OUTBOX": ExitCode.USAGE,         # messages asked to go into the campaign's archive
    "MAIL-NOT-WRITTEN": ExitCode.IO,       # the step is archived, its messages could not be written
    "BOOK-IN-ARCHIVE": ExitCode.USAGE,     # `pbem book -o` inside the campaign folder (or holding it)
    "BOOK-NOT-A-BOOK": ExitCode.IO,        # `pbem book --replace` of a folder pbem book did not write
}
EXIT_BY_PREFIX: dict[str, ExitCode] = {
    "YAML-": ExitCode.INVALID,
    "SCHEMA-": ExitCode.INVALID,
    "FILE-": ExitCode.INVALID,
    "MAIL-": ExitCode.INVALID,
    "DATA-": ExitCode.INVALID,
    "HASH-": ExitCode.MISMATCH,
    "REPLAY-": ExitCode.MISMATCH,
    "DICE-": ExitCode.MISMATCH,
    "SIG-": ExitCode.MISMATCH,      # a file not signed by the player it names (pbem.core.signing)
    "HEAD-": ExitCode.MISMATCH,     # an archive head that differs (pbem head --check)
    "JUDGE-": ExitCode.INVALID,     # the judge's configuration (pbem judge --check): its credentials too
    "END-": ExitCode.MISMATCH,      # an end file for another state or campaign, or the game over (pbem end, issue 34)
    "KEY-": ExitCode.INVALID,
    "USAGE-": ExitCode.USAGE,
    "NEW-": ExitCode.USAGE,
    "MAP-": ExitCode.USAGE,
    "INTERNAL-": ExitCode.INTERNAL,
}
# When several issues are errors, the first class in this order decides.
_PRECEDENCE = (ExitCode.INTERNAL, ExitCode.USAGE, ExitCode.IO, ExitCode.INVALID,
               ExitCode.MISMATCH, ExitCode.ILLEGAL)
# Exit codes that are not a class of problem but a stop: a caller may ask for them.
_STOPS = (ExitCode.PENDING, ExitCode.WAITING, ExitCode.INTERNAL)


def exit_code_of(code: str) -> ExitCode:
    """The exit code of one issue code (:data:`EXIT_BY_CODE`, then :data:`EXIT_BY_PREFIX`)."""
    if code in EXIT_BY_CODE:
        return EXIT_BY_CODE[code]
    best = max((p for p in EXIT_BY_PREFIX if code.startswith(p)), key=len, default=None)
    return EXIT_BY_PREFIX[best] if best is not None else ExitCode.ILLEGAL


def exit_code_for(issues: Iterable[Issue]) -> ExitCode:
    """Exit code for a list of issues; warnings never change it.

    Each error's code goes through :func:`exit_code_of`; INTERNAL wins over USAGE, then IO,
    INVALID, MISMATCH and ILLEGAL.
    """
    found = {exit_code_of(issue.code) for issue in issues if issue.severity == Severity.ERROR}
    for candidate in _PRECEDENCE:
        if candidate in found:
            return candidate
    return ExitCode.OK


class PbemError(Exception):
    """An error made of one or more issues, with the exit code to use.

    The exit code comes from the issues through the one table (:func:`exit_code_for`), so a
    code means the same exit status wherever it is raised. ``exit_code`` is only honoured for
    a stop that is not a problem class (PENDING, WAITING, INTERNAL) or when no issue is an
    error; without an error issue and without it, the code is INTERNAL (raising without one is
    a bug).
    """

    def __init__(
        self,
        issues: Issue | Iterable[Issue],
        exit_code: ExitCode | None = None,
    ) -> None:
        if isinstance(issues, Issue):
            issues = [issues]
        self.issues: list[Issue] = list(issues)
        from_table = exit_code_for(self.issues)
        if exit_code is None or (exit_code not in _STOPS and from_table != ExitCode.OK):
            exit_code = from_table
        if exit_code == ExitCode.OK:
            exit_code = ExitCode.INTERNAL
        self.exit_code: ExitCode = exit_code
        super().__init__(self._summary())

    def _summary(self) -> str:
        """Exception message: the first issue, plus a count of the others."""
        if not self.issues:
            return "pbem error"
        first = self.issues[0]
        more = len(self.issues) - 1
        text = f"{first.code}: {first.message}"
        return text + (f" (and {more} more)" if more else "")

    def __str__(self) -> str:
        return "\n".join(issue.format() for issue in self.issues) or "pbem error"
