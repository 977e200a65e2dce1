"""Text for people: line wrapping that never breaks a command or an id, the terminal's width,
and colour on a terminal (rich), off for pipes and with ``NO_COLOR``.

Wrapping is pure (no terminal involved), so the archived report, wrapped at a fixed width,
is the same on every machine; only what is printed on screen follows the terminal."""
from __future__ import annotations

import os
import re
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

DEFAULT_WIDTH = 100   # a report in a pipe or a file without COLUMNS: the archived report's width
UNWRAPPED = 10_000    # other lines in a pipe without COLUMNS: one line each, for grep
MIN_WIDTH = 20

# The commands a line may name; "pbem <one of these> ..." is kept on one line.
COMMANDS = ("new", "scenarios", "orders", "validate", "adjudicate", "show", "map", "replay", "dice", "data", "chain")
_COMMAND = re.compile(r"pbem (?:" + "|".join(COMMANDS) + r")\b")
# A problem's head "file:line:col: error CODE:" is one piece (what grep and editors look for).
_ISSUE_HEAD = re.compile(r" *(?:\S+: )?(?:error|warning) [A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*:")
# A bare number or a printed strength right after an id belongs to it ("sov-47 7", "pk-1 (3-4-4):",
# "eg-cl-39pz 2-3-4@1234,").
_GLUED = re.compile(r"(?:\d+(?:-\d+)*(?:@\w+)?(?:\(G\))?|\(\d+-\d+-\d+\))[,;:)]?$")

# Colours: the sides, results and problems (rich style names).
SIDE_STYLES = {"Soviet": "red", "Western Allied": "blue", "Western Allies": "blue",
               "East German": "green", "West German": "green", "German": "green"}
SIDE_STYLES_BY_ID = {"soviet": "red", "western": "blue", "german": "green", "east-german": "green",
                     "west-german": "green", "western-allied": "blue"}


def atoms(text: str) -> list[str]:
    """The pieces of ``text`` a line may be broken between: words, except that a `quoted` span,
    a ``pbem ...`` command (to the end of the text or of its clause) and an id with its number
    or strength stay together."""
    out: list[str] = []
    i, n = 0, len(text)
    m = _ISSUE_HEAD.match(text)
    if m:
        out.append(m.group(0).strip())
        i = m.end()
    while i < n:
        if text[i] == " ":
            i += 1
            continue
        if text[i] == "`" or text.startswith("(`", i):
            # a quoted span, with what is glued to its end ("`pbem show`)," stays one piece)
            start = i
            j = text.find("`", text.index("`", i) + 1)
            j = n if j < 0 else j + 1
            while j < n and text[j] != " ":
                j += 1
            out.append(text[start:j])
            i = j
            continue
        m = _COMMAND.match(text, i)
        if m and (i == 0 or text[i - 1] in " (\"'"):
            # a command runs to the end of its clause
            end = n
            for stop in ("; ", "  ", " (", ")"):
                k = text.find(stop, m.end())
                if k >= 0:
                    end = min(end, k + (1 if stop == ")" else 0))
            out.append(text[i:end].rstrip())
            i = end
            continue
        j = text.find(" ", i)
        j = n if j < 0 else j
        if text[i] in "{[":
            # a bracketed example or list ({unit: ID, to: 'RRCC'}) stays whole
            depth, k = 0, i
            while k < n:
                depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(text[k], 0)
                k += 1
                if depth == 0:
                    break
            if depth == 0 and k - i <= 60:
                j = max(j, k)
                while j < n and text[j] != " ":
                    j += 1
        word = text[i:j]
        if out and _GLUED.fullmatch(word) and (out[-1] == "=" or (
                not out[-1].endswith((":", ",", ";")) and re.search(r"[a-z]-?\w*\d\w*$|[a-z]+-\w+$", out[-1]))):
            out[-1] += " " + word
        else:
            out.append(word)
        i = j
    return out


def wrap_atoms(pieces: list[str], width: int, *, indent: str = "", subsequent: str | None = None) -> list[str]:
    """Fill ``pieces`` into lines of at most ``width`` columns, breaking only between pieces; a
    piece too long for any line stays whole on a line of its own."""
    subsequent = indent + "    " if subsequent is None else subsequent
    lines: list[str] = []
    cur = indent
    fresh = True
    for p in pieces:
        if fresh:
            cur += p
            fresh = False
        elif len(cur) + 1 + len(p) <= width:
            cur += " " + p
        else:
            lines.append(cur)
            cur = subsequent + p
    if not fresh or not lines:
        lines.append(cur)
    return lines


def wrap(text: str, width: int, *, subsequent: str | None = None) -> list[str]:
    """Wrap one line of text to ``width``; continuation lines are indented by four more spaces
    than the line (or by ``subsequent``). Never breaks a command, a quoted span or an id."""
    if len(text) <= width:
        return [text]
    indent = text[: len(text) - len(text.lstrip(" "))]
    return wrap_atoms(atoms(text), width, indent=indent, subsequent=subsequent)


def wrap_comment_lines(text: str, width: int) -> str:
    """Wrap the full-line comments of a YAML file (an order template) to ``width``: each
    continuation is again a comment at the same indentation; a value's trailing comment moves
    above it. Other lines stay as they are (a value cannot be broken), and so do an editor's ``yaml-language-server`` directive and the rows
    of a table."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        ind = line[: len(line) - len(body)]
        m = re.match(r"(.*?\S) +# (.*)$", body)
        if len(line) > width and not body.startswith("#") and m and m.group(1).count("'") % 2 == 0 \
                and m.group(1).count('"') % 2 == 0:
            # a value with a trailing comment: the comment goes on its own lines above the value
            out += wrap_atoms(atoms(m.group(2)), width, indent=ind + "# ", subsequent=ind + "#   ")
            out.append(ind + m.group(1))
            continue
        if len(line) <= width or not body.startswith("# ") or body.startswith("# yaml-language-server:") \
                or len(re.findall(r"\S  +(?=\S)", body)) >= 2:   # a table row keeps its columns
            out.append(line)
            continue
        pieces = atoms(body[2:])
        out += wrap_atoms(pieces, width, indent=ind + "# ", subsequent=ind + "#   ")
    return "\n".join(out)


# -- the terminal ------------------------------------------------------------------------------

def term_width(stream: IO[str] | None = None, default: int = UNWRAPPED) -> int:
    """The width to print at: ``COLUMNS`` if set, else the terminal's, else ``default`` (a pipe:
    lines are not wrapped, so that grep finds them whole)."""
    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return max(MIN_WIDTH, int(env))
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        pass
    return default


def use_color(stream: IO[str] | None = None) -> bool:
    """Colour on a terminal; never with ``NO_COLOR`` (https://no-color.org) or ``TERM=dumb``;
    forced with ``FORCE_COLOR`` (also through a pipe)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def console(*, err: bool = False, width: int | None = None, color: bool | None = None,
            default_width: int = UNWRAPPED) -> Console:
    """A rich console on stdout (or stderr) at the terminal's width (``default_width`` in a
    pipe), coloured only when :func:`use_color` says so; without colour it writes no escape
    code at all."""
    from rich.console import Console  # slow: not for `pbem --help`
    stream = sys.stderr if err else sys.stdout
    width = width or term_width(stream, default_width)
    color = use_color(stream) if color is None else color
    if color:
        return Console(file=stream, width=width, force_terminal=True,
                       color_system="auto" if _isatty(stream) else "standard",
                       highlight=False, emoji=False, _environ={**os.environ, "COLUMNS": str(width)})
    return Console(file=stream, width=width, force_terminal=False, color_system=None, no_color=True,
                   highlight=False, emoji=False, legacy_windows=False, _environ={})


def _isatty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def styled(line: str, style: str | None = None, *, sides: bool = True, words: dict[str, str] | None = None) -> Text:
    """A rich Text of one printed line, with the sides' names in their colours; ``words``: a
    game's own names and their styles (:attr:`pbem.core.game.Game.term_styles`)."""
    from rich.text import Text  # slow: not for `pbem --help`
    t = Text(line, style=style or "")
    if sides:
        if words:   # a game's names: never inside an id ("axis-l4", "ger-i3-1")
            for word, st in words.items():
                t.highlight_regex(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", st)
        else:
            for word, st in SIDE_STYLES.items():
                t.highlight_regex(r"\b" + re.escape(word) + r"\b", st)
    for pat, st in ((r"\berror\b [A-Z0-9-]+", "bold red"), (r"\bwarning\b [A-Z0-9-]+", "yellow"),
                    (r"^(?:REFUSED|REPLAY FAILED|FAILED)\b.*", "bold red"), (r"^(?:OK|REPLAY OK)\b.*", "bold green"),
                    (r"MISMATCH", "bold red"), (r"\bMATCH\b", "bold green"),
                    (r"(?<= -> )[A-Z][a-z]?(?=: | \(no die\))", "bold magenta")):   # a combat result
        t.highlight_regex(pat, st)
    return t


def print_lines(lines: list[str], *, err: bool = False, style: str | None = None, con: Console | None = None,
                words: dict[str, str] | None = None) -> None:
    """Print lines already laid out: through rich in colour, else as plain text (without
    importing rich, so that plain commands start fast)."""
    stream = sys.stderr if err else sys.stdout
    if con is None and not use_color(stream):
        stream.write("".join(line + "\n" for line in lines))
        stream.flush()
        return
    c = con or console(err=err)
    for line in lines:
        c.print(styled(line, style, words=words), soft_wrap=True)


def echo(text: str = "", *, err: bool = False, style: str | None = None, con: Console | None = None,
         subsequent: str | None = None, words: dict[str, str] | None = None) -> None:
    """Print ``text`` (one or more lines) wrapped to the terminal, in colour on a terminal
    (``words``: the game's names to colour, see :func:`styled`)."""
    width = con.width if con is not None else term_width(sys.stderr if err else sys.stdout)
    print_lines([piece for line in text.split("\n") for piece in wrap(line, width, subsequent=subsequent)],
                err=err, style=style, con=con, words=words)
