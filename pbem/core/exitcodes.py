"""The process exit codes of the ``pbem`` command and their meanings: the lowest layer of
:mod:`pbem.core.errors` (which re-exports them), apart so that `pbem --help`, which lists them,
loads neither the issues nor their dataclass."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes of the ``pbem`` command (meanings: :data:`EXIT_MEANINGS`)."""

    OK = 0
    INVALID = 2  # schema / syntax / file errors in the input
    ILLEGAL = 3  # rule violations
    MISMATCH = 4  # hash / replay / verification mismatch; a file for another game, campaign or state, or sent twice
    PENDING = 5  # adjudication stopped at a pending decision (not an error)
    WAITING = 6  # step archived; it waits for more orders: other players', or new ones for orders set aside (not an error)
    USAGE = 64  # the command line itself is wrong (as sysexits EX_USAGE)
    UNAVAILABLE = 69  # a tool pbem needs is not installed here (as sysexits EX_UNAVAILABLE)
    INTERNAL = 70  # a bug in pbem (as sysexits EX_SOFTWARE)
    IO = 74  # a file could not be written, or would be overwritten (as sysexits EX_IOERR)


# One line per code, in the words `pbem --help` and docs/game-master.md use (both generated or
# checked from here).
EXIT_MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "ok",
    ExitCode.INVALID: "invalid input (YAML, schema, files, data)",
    ExitCode.ILLEGAL: "orders break a rule",
    ExitCode.MISMATCH: "hash, dice or replay mismatch, a file for another game, campaign or state, or orders already received",
    ExitCode.PENDING: "the adjudication stopped at a pending decision",
    ExitCode.WAITING: "the step was archived and waits for more orders (other players', or new ones for orders set aside)",
    ExitCode.USAGE: "usage (unknown command, missing or wrong option)",
    ExitCode.UNAVAILABLE: "a tool it needs is not installed here (e.g. an SVG to PNG converter)",
    ExitCode.INTERNAL: "internal error (a bug in pbem: please report it)",
    ExitCode.IO: "a file could not be written or already exists",
}


def exit_help() -> str:
    """The exit-code list of ``pbem --help`` and docs/game-master.md, from :data:`EXIT_MEANINGS`."""
    return "Exit codes: " + "; ".join(f"{int(c)} {EXIT_MEANINGS[c]}" for c in ExitCode) + "."
