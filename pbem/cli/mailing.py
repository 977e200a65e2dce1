"""E-mail: `pbem mail` and the messages `adjudicate --mail` writes."""
from __future__ import annotations

from pathlib import Path

import click

from .. import __version__
from .app import main
from .common import BUG_HINT, EXIT_HELP, _echo, _print_issues, debugging, interactive
from .gamehelp import _GameHelpOption, _help_role


def _mail_again(campaign, step: int, mail_dir, mail_from, svg: bool) -> str:
    """The `pbem mail` command that writes a step's messages again, with the same options."""
    import shlex
    cmd = f"pbem mail {shlex.quote(str(campaign))} --step {step} -o {shlex.quote(str(mail_dir))}"
    if mail_from:
        cmd += f" --mail-from {shlex.quote(mail_from)}"
    return cmd + (" --svg" if svg else "")


def _write_mail(campaign, res, mail_dir, mail_from, svg: bool, *, err: bool):
    """Write the messages of the step just archived. A failure here does not undo the step
    (it is archived and stays so): it is reported as MAIL-NOT-WRITTEN with the `pbem mail`
    command that writes the messages again, and the exit code says it (74, or 70 for a bug)."""
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.mail import write_step_mail
    step = int(Path(res.step_dir).name)
    again = _mail_again(campaign, step, mail_dir, mail_from, svg)
    try:
        from ..core.progress import progress  # a bar on a terminal only: the map previews take seconds
        from ..core.yamlio import paused_gc
        # the collector paused: the map drawn and rasterised make 100,000 small containers, no cycle
        with progress(None, "writing the mail: drawing the map previews") as _, paused_gc():
            written, warnings, notes = write_step_mail(campaign, res, mail_dir, sender=mail_from, svg=svg)
    except PbemError as e:
        _print_issues(e.issues)
        why, code = "see above", e.exit_code
    except Exception as e:  # noqa: BLE001 - a bug in composing must not hide that the step is archived
        import traceback
        if debugging():
            traceback.print_exception(type(e), e, e.__traceback__)
        why, code = f"internal error {type(e).__name__}: {e}; " + BUG_HINT.format(version=__version__), ExitCode.INTERNAL
    else:
        for path, m in written:
            _echo(f"mail: wrote {path} (to {m.to or 'nobody: add the recipient'})", err=err)
        for n in notes:
            _echo(f"mail: {n}", err=err)
        _print_issues(warnings)
        return None
    _print_issues([Issue("MAIL-NOT-WRITTEN", f"step {step:03d} is archived in {res.step_dir}, but its messages were not "
                         f"written ({why})", hint=f"write them when the cause is mended: {again}")])
    return code


@main.command("mail", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--step", "step", type=click.IntRange(0), default=None, metavar="N",
              help="The archived step whose messages to write (default: the last; 0: the start, the initial state to every player).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The folder to write the .eml files into (made if missing).")
@click.option("--to", "players", multiple=True, metavar="PLAYER", cls=_GameHelpOption,
              help="Only the message to this player (a role). Repeat. Default: every player.",
              help_fn=_help_role("Only the message to this player (a role", "). Repeat. Default: every player."))
@click.option("--mail-from", metavar="ADDRESS", help="The From (default: the game master's e-mail in campaign.yaml, else pbem@localhost); give the one `adjudicate --mail-from` had for the same bytes.")
@click.option("--svg", is_flag=True, help="Also attach the whole map as a zipped SVG (as `adjudicate --mail-svg`).")
@click.option("--force", is_flag=True, help="Replace existing .eml files in the folder (never a file of the archive).")
@interactive
def mail_cmd(campaign, step, out_dir, players, mail_from, svg, force):
    """Write the e-mails of an archived step again.

    Writes into the folder, per player, the ready-to-send message of step N (default the last)
    of CAMPAIGN, byte for byte what `pbem adjudicate --mail` wrote for it (with the same
    --mail-from and --svg), as long as the archive and the players in campaign.yaml are
    unchanged: for a message lost, or a player whose e-mail was added to campaign.yaml since.
    Reads only the archive; writes only the .eml files (an existing one only with --force)."""
    from ..core.mail import check_outbox, step_messages, write_messages
    check_outbox(out_dir, campaign)
    from ..core.yamlio import paused_gc  # as in _write_mail
    with paused_gc():
        n, msgs, warnings, notes = step_messages(campaign, step, sender=mail_from, svg=svg,
                                                 players=list(players) or None)
    written = write_messages(msgs, out_dir, force=force)
    for path, m in written:
        _echo(f"mail: wrote {path} (step {n:03d}, to {m.to or 'nobody: add the recipient'})")
    for note in notes:
        _echo(f"mail: {note}")
    _print_issues(warnings)
