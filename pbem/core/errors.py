"""Structured problems ("issues"), exit codes and the exception that carries them.

Every problem pbem reports -- a YAML syntax error, a schema violation, an illegal
move, a hash mismatch -- is an :class:`Issue` with a stable ``code``.  Codes are
grouped by prefix, and the prefix decides the process exit code
(:func:`exit_code_for`):

* ``YAML-``, ``SCHEMA-``, ``FILE-``, ``MAIL-``  -> :attr:`ExitCode.INVALID`
* ``HASH-``, ``REPLAY-``, ``DICE-``  -> :attr:`ExitCode.MISMATCH`
* anything else (rule codes such as ``BFG-MOVE-ZOC``) -> :attr:`ExitCode.ILLEGAL`
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from typing import Any, Iterable, Mapping


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
    path: tuple = ()
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
        marks: Mapping[tuple, tuple[int, int]] | None,
    ) -> "Issue":
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
        if self.rule:
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
    path: tuple, marks: Mapping[tuple, tuple[int, int]]
) -> tuple[int, int] | None:
    """Position of the longest prefix of ``path`` present in ``marks``."""
    path = tuple(path)
    for end in range(len(path), -1, -1):
        position = marks.get(path[:end])
        if position is not None:
            return position
    return None


class ExitCode(IntEnum):
    """Process exit codes of the ``pbem`` command."""

    OK = 0
    INVALID = 2  # schema / syntax / file errors in the input
    ILLEGAL = 3  # rule violations
    MISMATCH = 4  # hash / replay / verification mismatch
    PENDING = 5  # adjudication stopped at a pending decision (not an error)
    WAITING = 6  # orders accepted; the phase waits for other players (not an error)
    USAGE = 64
    INTERNAL = 70
    IO = 74


_INVALID_PREFIXES = ("YAML-", "SCHEMA-", "FILE-", "MAIL-")
_MISMATCH_PREFIXES = ("HASH-", "REPLAY-", "DICE-")


def exit_code_for(issues: Iterable[Issue]) -> ExitCode:
    """Exit code for a list of issues; warnings never change it.

    INVALID wins over MISMATCH, which wins over ILLEGAL.
    """
    codes = [issue.code for issue in issues if issue.severity == Severity.ERROR]
    if not codes:
        return ExitCode.OK
    if any(code.startswith(_INVALID_PREFIXES) for code in codes):
        return ExitCode.INVALID
    if any(code.startswith(_MISMATCH_PREFIXES) for code in codes):
        return ExitCode.MISMATCH
    return ExitCode.ILLEGAL


class PbemError(Exception):
    """An error made of one or more issues, with the exit code to use.

    ``exit_code`` defaults to :func:`exit_code_for` of the issues
    (INTERNAL if none of them is an error: raising without one is a bug).
    """

    def __init__(
        self,
        issues: Issue | Iterable[Issue],
        exit_code: ExitCode | None = None,
    ) -> None:
        if isinstance(issues, Issue):
            issues = [issues]
        self.issues: list[Issue] = list(issues)
        if exit_code is None:
            exit_code = exit_code_for(self.issues)
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
