"""``pbem player replace`` (issue 34): a vacant role taken over by a replacement player."""
from __future__ import annotations

from pathlib import Path

import click

from .app import main
from .common import EXIT_HELP, _echo


@main.group("player")
def player_group():
    """The players of a campaign: a vacant role taken over (replace)."""


@player_group.command("replace", epilog=EXIT_HELP)
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
