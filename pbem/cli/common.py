"""What every command shares: printing for a person, the user's own files (written
atomically, never over an existing one without --force; secrets mode 0600), the next commands
to run, and the last resort for an unexpected exception."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import __version__
from ..core.exitcodes import exit_help

EXIT_HELP = exit_help()  # generated from pbem.core.errors.ExitCode / EXIT_MEANINGS
BUG_HINT = ("This is a bug in pbem {version}: please report it with the command you ran and its input "
            "files. Run it again with --debug (or PBEM_DEBUG=1) to see the traceback.")


_state = {"debug": False, "quick_exit": False}  # --debug of this invocation; see interactive()


def set_debug(on: bool) -> None:
    _state["debug"] = bool(on)


def debugging() -> bool:
    """Whether tracebacks are shown: --debug, or PBEM_DEBUG=1."""
    return _state["debug"] or os.environ.get("PBEM_DEBUG", "") not in ("", "0")


def interactive(command):
    """A command a player runs to look (``show``, ``validate``, ``orders template``: issue 35,
    a first run within twice `pbem --help`), or the game master to write a step's mails again
    (``mail``: every file it writes is written whole by ``atomic_write`` before it returns, so
    nothing is left to flush but the terminal). It builds many small objects, none in a cycle,
    and ends soon after: the cyclic garbage collector is paused while it runs (it scanned every
    object alive some 50 times for nothing, 2% of the command), and the process, once its
    output is flushed, ends without tearing the interpreter down (freeing every module and
    object one by one, and a last full collection: 5% of the command; see ``_Group.main``).
    Called in the test's process (click's runner) it changes nothing but the collector, as
    it was after it."""
    import functools

    @functools.wraps(command)
    def run(*args, **kwargs):
        import gc
        was = gc.isenabled()
        gc.disable()
        set_quick_exit(True)
        try:
            return command(*args, **kwargs)
        finally:
            if was:
                gc.freeze()     # what the command made goes to the oldest generation unscanned
                gc.unfreeze()
                gc.enable()
    return run


def set_quick_exit(on: bool) -> None:
    _state["quick_exit"] = bool(on)


def quick_exit_wanted() -> bool:
    """Whether the command run asked to end its process without the interpreter's teardown."""
    return bool(_state["quick_exit"])


def _echo(text: str = "", *, err: bool = False, style: str | None = None, subsequent: str | None = None) -> None:
    """Print for a person: wrapped to the terminal's width (COLUMNS), never inside a command
    or an id, in colour on a terminal (not in a pipe, not with NO_COLOR)."""
    from ..core.term import echo
    ctx = click.get_current_context(silent=True)
    # the game's own names in colour (Game.term_styles), set by a command that knows the game
    words = ctx.find_root().meta.get("pbem.term_styles") if ctx is not None else None
    echo(text, err=err, style=style, subsequent=subsequent, words=words)


def _print_issues(issues, *, err: bool = True) -> None:
    for i in issues:
        _echo(i.format(), err=err)


def _refuse_existing(paths, *, force_hint: bool) -> None:
    """FILE-EXISTS for the user's own output files (not the campaign archive): say whose file
    it is, and offer --force where replacing it is harmless."""
    from ..core.errors import ExitCode, Issue, PbemError
    there = [p for p in paths if p is not None and os.path.lexists(p)]
    if there:
        hint = ("choose another name, or add --force to replace it" if force_hint
                else "choose another name (pbem never replaces it)")
        raise PbemError([Issue("FILE-EXISTS", f"{p} already exists (your own file, not the campaign archive)"
                               if force_hint else f"{p} already exists", file=str(p), hint=hint) for p in there], ExitCode.IO)


def _write_own_file(path, data, *, force: bool) -> None:
    """Write one of the user's own output files: atomically, and over an existing file only
    with --force."""
    from ..core.errors import PbemError
    from ..core.files import atomic_write
    if not force:
        _refuse_existing([path], force_hint=True)
    try:
        atomic_write(path, data, overwrite=force)
    except PbemError as e:
        if any(i.code == "FILE-EXISTS" for i in e.issues):   # appeared meanwhile
            _refuse_existing([path], force_hint=True)
        raise


def _write_secret(path, data) -> None:
    """Write a secret of the user's own (a chain, an opening, a signing key): never over an
    existing file, and readable by its owner only (mode 0600) from the first byte on."""
    from ..core.files import atomic_write
    old = os.umask(0o077)
    try:
        atomic_write(path, data)
    finally:
        os.umask(old)
    os.chmod(path, 0o600)


def _warn_secret_given(value: str, what: str) -> None:
    """A warning when a secret file (a key file, a chain file) was given where only its public
    part is needed: whoever holds it can sign as that player, or knows every link in advance.
    Fine for your own file; a player who sent theirs to someone else must make a new one."""
    from ..core.errors import Issue, Severity
    from ..core.signing import is_public_key
    p = Path(value)
    if not p.is_file() or (p.stat().st_size < 200 and is_public_key(p.read_text("ascii", "replace").strip().lower())):
        return      # a head or a public key given as 64 hex digits, or a file holding just them
    _print_issues([Issue("KEY-SECRET-FILE", f"{value} holds {what}; only its public part was used",
                         file=str(value), severity=Severity.WARNING,
                         hint="fine for your own file; if a player sent it to you, they must make a new one (`pbem key new` / `pbem chain new`) "
                              "and give only the public key or head it prints")])


def _next_commands(where, st: dict, camp=None) -> list[str]:
    """The commands to run next on the campaign (or state) ``where`` in state ``st``, one per
    awaited player, with the file names the mails use (``camp``: the campaign ``where``, when
    the command has it open already)."""
    from ..core.awaiting import awaited
    if st.get("result") or st.get("phase") == "end":
        if (st.get("dice") or {}).get("mode") == "chain":
            return [f"Next: the game is over; anyone can check the archive with `pbem replay {where}`"]
        return [f"Next: the game is over; the game master publishes private/dice.key and anyone runs `pbem replay {where}`"]
    keyed: set = set()
    if Path(where).is_dir():        # players with a signing key: their files are signed
        try:
            from ..core.campaign import Campaign
            keyed = {p for p, info in ((camp or Campaign(where)).manifest.get("players") or {}).items()
                     if isinstance(info, dict) and info.get("key")}
        except Exception:  # noqa: BLE001 - only a hint: a campaign that does not load names no key
            keyed = set()
    out = []
    for a in awaited(st):
        p = a["player"]
        mine = f"{p}-{st['campaign']}-{st['step'] + 1:03d}.yaml"
        line = f"Next: pbem orders template {where} --player {p} -o {mine}"
        if a.get("for") == "decision":
            line += f"   (the {p} player answers the decision)"
        if p in keyed and a.get("for") != "links":
            line += f"   (then signs it: pbem sign {mine} --key {p}.key)"
        elif a.get("for") == "links":
            # the players have their mail, not this folder: the command works from the mail
            # that asks for the link (saved as the .eml `pbem mail` names), one reveal file per link
            key = f" --key {p}.key" if p in keyed else ""
            idx = (st.get("dice") or {}).get("used", 0) + 1
            mail = f"step-{st['step']:03d}-to-{p}.eml"
            who = "the witness" if p == "witness" and p not in (st.get("players") or {}) else f"the {p} player"
            line = (f"Next: {who}, from the mail that asks for the link (or a copy of the campaign folder): "
                    f"pbem chain reveal {p}.chain {mail if p != 'witness' else 'MAIL.eml'} -o reveal-{p}-{idx:03d}.yaml{key}   "
                    f"(then: pbem adjudicate {where} --reveal reveal-ROLE-{idx:03d}.yaml ... with every reveal asked for)")
        out.append(line)
    return out


def _fail(e) -> None:
    _print_issues(e.issues)
    sys.exit(int(e.exit_code))


def _internal_error(exc: BaseException) -> None:
    """An exception pbem did not expect: a short message and a bug-report hint, exit 70; the
    traceback only with --debug or PBEM_DEBUG=1."""
    import traceback

    from ..core.errors import ExitCode
    if debugging():
        traceback.print_exception(type(exc), exc, exc.__traceback__)
    else:
        where = ""
        frames = traceback.extract_tb(exc.__traceback__)
        if frames:
            last = frames[-1]
            where = f" (at {Path(last.filename).name}:{last.lineno})"
        click.echo(f"pbem: internal error: {type(exc).__name__}: {exc}{where}", err=True)
        click.echo(BUG_HINT.format(version=__version__), err=True)
    sys.exit(int(ExitCode.INTERNAL))


def _sign_if(text: str, key_file, player: str) -> bytes:
    """``text`` signed with ``key_file`` (when given) as ``player``'s."""
    data = text.encode("utf-8")
    if key_file is None:
        return data
    from ..core.errors import Issue, PbemError
    from ..core.signing import load_key_file, sign
    key = load_key_file(key_file)
    if key["player"] != player:
        raise PbemError([Issue("SIG-WRONG-PLAYER", f"the key is the {key['player']} player's, the file the {player} player's",
                               hint="sign only your own files")])
    return sign(data, player, key["private"])
