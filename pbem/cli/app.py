"""The ``pbem`` group: pbem's exit codes around click, --data and --debug."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import __version__
from .common import EXIT_HELP, _fail, _internal_error, quick_exit_wanted, set_debug, set_quick_exit


def _missing_path(e: click.UsageError) -> bool:
    """Whether a usage error is click's check of a path argument that does not exist."""
    return (isinstance(e, click.BadParameter) and isinstance(getattr(e.param, "type", None), click.Path)
            and "does not exist" in e.format_message())


#: the module that defines each command of ``main`` (importing it adds the command): a command
#: line loads only the module of its command, `pbem --help` every one (tests/test_cli_lazy.py
#: holds this list equal to what the modules define)
COMMAND_MODULES = {
    "adjudicate": "pbem.cli.campaign", "agent": "pbem.judge.command", "book": "pbem.cli.book",
    "chain": "pbem.cli.trust", "data": "pbem.cli.views", "dice": "pbem.cli.verify", "end": "pbem.cli.roles",
    "head": "pbem.cli.verify", "judge": "pbem.judge.command", "key": "pbem.cli.trust", "mail": "pbem.cli.mailing",
    "map": "pbem.cli.views", "missing-default": "pbem.cli.campaign", "new": "pbem.cli.campaign",
    "orders": "pbem.cli.orders", "player": "pbem.cli.roles", "replay": "pbem.cli.verify",
    "scenarios": "pbem.cli.campaign", "seal": "pbem.cli.orders", "show": "pbem.cli.views", "sign": "pbem.cli.trust",
    "validate": "pbem.cli.orders",
}


def load_commands(names=None) -> None:
    """Import the modules of the commands ``names`` (default: all): each adds its commands."""
    import importlib
    for module in sorted({COMMAND_MODULES[n] for n in (COMMAND_MODULES if names is None else names)
                          if n in COMMAND_MODULES}):
        if module not in sys.modules:
            importlib.import_module(module)
    _set_short_help(main)


class _Group(click.Group):
    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's standalone mode, with pbem's exit codes: a usage error exits 64 (click: 2), a
        path argument that does not exist 2 (an input error, as FILE-NOT-FOUND), an unexpected
        exception 70 with a short message (see _internal_error)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            self._standalone(args, prog_name, complete_var, **extra)
        except SystemExit as e:
            # the command line of a real process (no ``args``: click's runner in the tests
            # gives them) of an interactive command (common.interactive): it ends here, its
            # output flushed, without the interpreter's teardown (freeing every object one by
            # one and a last full collection, for a process that ends anyway)
            code = e.code
            if args is None and quick_exit_wanted() and (code is None or isinstance(code, int)):
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                except (OSError, ValueError):
                    raise e from None       # e.g. a closed pipe: the usual way out
                os._exit(code or 0)
            raise

    def _standalone(self, args, prog_name, complete_var, **extra):
        from ..core.exitcodes import ExitCode
        set_debug(False)
        set_quick_exit(False)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as e:
            # a file or folder named on the command line that is not there is an input error,
            # FILE-NOT-FOUND's 2, for every command (as `pbem validate` says it; issue 33)
            code = ExitCode.INVALID if _missing_path(e) else ExitCode.USAGE
            e.exit_code = int(code)
            e.show()
            sys.exit(int(code))
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except BrokenPipeError:  # e.g. `pbem show ... | head`
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout for the rest of the process
            sys.exit(1)
        except Exception as e:  # noqa: BLE001 - the last resort: no traceback for a user
            _internal_error(e)
        sys.exit(rv if type(rv) is int else 0)

    def list_commands(self, ctx):
        return sorted(set(self.commands) | (set(COMMAND_MODULES) if self is main else set()))

    def get_command(self, ctx, cmd_name):
        if self is main and cmd_name not in self.commands:
            # an unknown name: every command, for click's "Did you mean"
            load_commands([cmd_name] if cmd_name in COMMAND_MODULES else None)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx, formatter):
        if self is main:
            load_commands()     # the listing gives every command's first line
        super().format_commands(ctx, formatter)

    def format_help_text(self, ctx, formatter):
        if self.help and "{games}" in self.help:
            from ..core.games import game_titles
            self.help = self.help.replace("{games}", ", ".join(game_titles().values()))
        super().format_help_text(ctx, formatter)

    def invoke(self, ctx):
        from ..core.errors import PbemError
        try:
            return super().invoke(ctx)
        except PbemError as e:
            _fail(e)


@click.group(cls=_Group, epilog=EXIT_HELP)
@click.version_option(__version__, prog_name="pbem")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              envvar="PBEM_DATA", metavar="DIR",
              help="Your own data folder (env PBEM_DATA), laid out like the shipped one: a file there "
                   "(e.g. DIR/rules/bfg/crt.yaml with the published CRT) replaces the shipped file; "
                   "every other file comes from the data shipped with pbem.")
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error (env PBEM_DEBUG=1).")
def main(data_dir, debug) -> None:
    """pbem: a play-by-email adjudicator for board wargames ({games}).

    Orders are YAML files; pbem checks them against the rules, resolves them with dice nobody
    can bias, prints a report and writes the next state. Anyone can replay the archive.
    """
    set_debug(debug)
    if data_dir is not None or "pbem.core.data" in sys.modules:
        from ..core.data import set_user_data
        set_user_data(data_dir)


def _set_short_help(cmd: click.Command) -> None:
    """The listing in `pbem --help` shows each command's first line whole (click would cut it
    with "..." to fit a narrow terminal; a listed line wraps instead)."""
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            if sub.short_help is None and sub.help:
                sub.short_help = sub.help.strip().split("\n\n")[0].replace("\n", " ").strip()
            _set_short_help(sub)
