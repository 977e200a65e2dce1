"""``pbem player replace`` (issue 34): a vacant role taken over by a replacement player."""
from __future__ import annotations

from pathlib import Path

import click

from .app import main
from .common import EXIT_HELP, _echo


@main.group("player", short_help="Players: a replacement takes a vacant role.")
def player_group():
    """The players of a campaign: a vacant role taken over (replace)."""


@player_group.command("replace", epilog=EXIT_HELP, short_help="A replacement takes ROLE over: a new key.")
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("role")
@click.option("--email", help="The replacement player's address (mails go there; the judge takes his mail from it).")
@click.option("--key", "key", required=True, metavar="PUBLIC", help="The replacement player's public key (pbem key new).")
def replace_cmd(campaign, role, email, key):
    """A replacement player takes over ROLE with a new key.

    campaign.yaml takes the new address and key at once and names the key they replace; the
    next adjudicated step archives the manifest as changed (steps/NNN/campaign.json), so that
    `pbem replay` checks every file against the key in force at its step. The old key is
    refused from now on."""
    from ..core.campaign import Campaign
    from ..core.roles import replace_player
    entry = replace_player(Campaign(campaign), role, email, key)
    _echo(f"the {role} player is replaced: {entry.get('email', 'no e-mail')}, key {key[:16]}...; "
          "in force now; the next adjudicated step archives it (campaign.json in its folder)")


@main.command("end", epilog=EXIT_HELP, short_help="End a game by agreement: concede, or draw.")
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def end_cmd(campaign, files):
    """End the game by agreement: a concession, or a draw every player agrees to.

    Each FILE is a player's end file (schema pbem/end/v1, signed where the player has a key):
    `concede: true` ends the game at once (the other players win); `draw: proposed` or
    `draw: agreed` from every player ends it in a draw. The step is archived with
    `state.result`, and `pbem replay` makes it again."""
    from ..core.campaign import Campaign
    from ..core.errors import ExitCode, PbemError, exit_code_for
    from ..core.roles import end_campaign
    step, issues, waiting = end_campaign(Campaign(campaign), [(str(f), f.read_bytes()) for f in files])
    if any(i.is_error for i in issues):
        raise PbemError(issues, exit_code_for(issues))
    if step is None:
        _echo("no end yet: a draw needs every player's file; still awaited: " + ", ".join(waiting))
        raise SystemExit(int(ExitCode.WAITING))
    _echo(f"the game ended by agreement: archived in {step}")
