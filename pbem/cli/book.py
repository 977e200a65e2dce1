"""The campaign book: `pbem book` (issue 22; the work is in :mod:`pbem.core.book`)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .app import main
from .common import EXIT_HELP, _echo, _print_issues


@main.command("book", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--output", "-o", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The folder to write the book into (made if missing; an existing one only with --replace).")
@click.option("--replace", is_flag=True,
              help="Write the book again into a folder an earlier `pbem book` wrote (never the archive).")
@click.option("--revealed", is_flag=True,
              help="The game master's dice key is published: replay the archive with CAMPAIGN/private/dice.key "
                   "and say each step verified (hash-chain campaigns are always replayed).")
@click.option("--key", "key_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The published dice key file to replay with (implies --revealed).")
def book_cmd(campaign, out, replace, revealed, key_path):
    """Write a campaign's book: an offline web site.

    Writes into the folder an index.html (players, dice, where the campaign stands, the timeline
    of every step with a link from every combat) and a page per step (the map after the step with
    its moves and combats marked, the report, the decisions, the order files, each roll and how to
    verify it). Open index.html in any browser: no server, no network; zip the folder to mail it.
    Shows only what every player may see: never the dice key, nor an order file whose phase has
    not run yet. Reads only the archive; the same archive gives the same bytes."""
    from ..core.book import build_book
    from ..core.errors import exit_code_for
    res = build_book(campaign, out, replace=replace, revealed=revealed, key_path=key_path)
    for note in res.notes:
        _echo(f"book: {note}")
    _print_issues(res.issues)
    _echo(f"wrote {out}/index.html and {res.pages - 1} step page(s): open {out}/index.html in a web browser")
    sys.exit(int(exit_code_for(res.issues)))
