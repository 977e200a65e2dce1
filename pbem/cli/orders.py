"""Writing and checking order files: `pbem orders template`, `validate`, `seal`."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .app import main
from .arrivals import _campaign_of, _sender_issues, _signature_warnings
from .common import (
    EXIT_HELP,
    _echo,
    _print_issues,
    _refuse_existing,
    _sign_if,
    _write_own_file,
    _write_secret,
    interactive,
)
from .gamehelp import _GameHelpOption, _help_player_template


@main.group("orders")
def orders_grp():
    """Order files: templates."""


@orders_grp.command("template", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, dir_okay=True, path_type=Path))
@click.option("--player", "-p", required=True, cls=_GameHelpOption, help="The player the template is for: a role of the campaign.",
              help_fn=_help_player_template)
@click.option("--output", "-o", type=click.Path(path_type=Path), help="Write to this file instead of stdout (an existing file only with --force).")
@click.option("--force", is_flag=True, help="Replace the --output file if it exists (it is your own scratch file, not the archive).")
@interactive
def template_cmd(state, player, output, force):
    """Write an order file to fill in.

    The file holds what awaits PLAYER in STATE (a state file or a campaign folder): the phases,
    the units with position and movement allowance, the legal choices as comments. When the
    adjudication stopped at a decision, it writes the answer file."""
    from ..core.campaign import Campaign, load_state_file
    from ..core.data import load_ruleset
    from ..core.errors import ExitCode, Issue, PbemError
    if output and not force:
        _refuse_existing([output], force_hint=True)
    from ..core.schema import schema_dir
    spath = state
    if Path(state).is_dir():
        spath, st = Campaign(state).current()
    else:
        st, _ = load_state_file(state)
    if player not in st["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this game", hint=", ".join(st["players"]))], ExitCode.USAGE)
    if (st.get("dice") or {}).get("request"):
        raise PbemError([Issue("DICE-LINKS-AWAITED", f"the files archived in step {st['step']:03d} wait for every player's chain link: there is nothing to write now",
                               hint=f"pbem chain reveal {player}.chain CAMPAIGN|MAIL -o reveal-{player}.yaml (--key {player}.key when you sign)")])
    g, rs = load_ruleset(st["scenario"])
    schema = schema_dir() / f"{g.orders_schema}.schema.json"
    # the schema the installed pbem checks with, as an absolute file URI: it holds wherever the
    # player saves or moves the file (a mail folder), where a relative path broke (issue 33)
    ref = schema.resolve().as_uri()
    from ..core.campaign import with_end_line
    text = with_end_line(g.order_template(rs, st, player, schema_ref=ref, state_file=Path(spath).name))
    if output:
        _write_own_file(output, text, force=force)
        _echo(f"wrote {output}")
    else:
        from ..core.term import term_width, wrap_comment_lines
        click.echo(wrap_comment_lines(text, term_width()), nl=False)


@main.command("validate", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.argument("orders", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
@click.option("--any-sender", is_flag=True, help="An e-mail whose From is not the e-mail campaign.yaml gives its player is a warning, not the error MAIL-FROM.")
@interactive
def validate_cmd(state, orders, as_json, any_sender):
    """Check order files; writes nothing.

    Checks ORDERS against STATE (a state file or a campaign folder) and reports every problem
    at once: file:line, the order, the rule section, a hint. Writes nothing.

    An ORDERS file may be an e-mail (.eml, or an mbox of several messages): the order file is
    taken from its .yaml attachment or its plain-text body."""
    import json

    from ..core.actions import validate_files
    from ..core.campaign import Campaign
    from ..core.errors import exit_code_for
    spath = state
    camp = st = None
    if Path(state).is_dir():
        camp = Campaign(state)
        spath, st = camp.current()      # read once: validate_files reads the file itself
    issues = validate_files(spath, list(orders), campaign=state if camp is not None else None)
    issues += _sender_issues(_campaign_of(state), orders, any_sender)
    if camp is None:
        from ..core.campaign import load_state_file
        from ..core.errors import PbemError
        try:
            st = load_state_file(spath)[0]
        except PbemError:
            st = None       # validate_files said what is wrong with it
    issues += _signature_warnings(camp, orders, st)
    if camp is not None and st is not None and (st.get("dice") or {}).get("request"):
        from ..core.errors import Issue
        issues.insert(0, Issue("DICE-LINKS-AWAITED", f"the files archived in step {st['step']:03d} wait for every player's chain link: "
                               "no order file is taken until they are carried out", hint="pbem chain reveal ROLE.chain CAMPAIGN|MAIL -o reveal-ROLE.yaml (--key ROLE.key when you sign)"))
    if as_json:
        click.echo(json.dumps([i.to_dict() for i in issues], indent=1, ensure_ascii=False))
    else:
        _print_issues(issues, err=False)
        errors = sum(1 for i in issues if i.is_error)
        warns = len(issues) - errors
        _echo(f"{'OK' if not errors else 'REFUSED'}: {errors} error(s), {warns} warning(s)")
    sys.exit(int(exit_code_for(issues)))


@main.command("seal", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--player", "-p", required=True, help="Your player id.")
@click.option("--id", "seal_id", required=True, help="The id of the sealed choice (the game or template names it).")
@click.option("--choice", required=True, help="Your choice, as a YAML value (e.g. 3, armour, '[armour, fleet]').")
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The opening file to KEEP SECRET on your own machine (never overwritten).")
@click.option("--key", "key_file", envvar="PBEM_KEY", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your signing key (`pbem key new`; env PBEM_KEY): the opening file is signed.")
def seal_cmd(state, player, seal_id, choice, output, key_file):
    """Seal a choice: commit now, reveal later.

    For choices the others may see only later (e.g. BlitzWAR replacement cards, 10.1).

    Writes OUTPUT, the opening (your choice and a random nonce: keep it secret), and prints the
    `seal:` entry to put in your order file now. Nobody can read the choice from the commitment,
    and it can never be changed: when the time comes, copy the `open:` entry from OUTPUT into an
    order file and pbem checks it against the commitment."""
    import json

    from ..core.campaign import Campaign, load_state_file
    from ..core.errors import ExitCode, Issue, PbemError, choice_text
    from ..core.sealed import new_opening
    from ..core.yamlio import dump_yaml, load_yaml
    st = Campaign(state).current()[1] if Path(state).is_dir() else load_state_file(state)[0]
    if player not in st["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this game", hint=", ".join(st["players"]))], ExitCode.USAGE)
    if seal_id in (st.get("sealed") or {}):
        raise PbemError([Issue("SEAL-EXISTS", f"a choice sealed as {seal_id!r} exists already; it can never be changed")])
    value = load_yaml(choice.encode("utf-8"), "--choice").data
    # the game may refuse a choice that can never be legal (e.g. a BlitzWAR card that is not free, 10.1)
    from ..core.data import load_ruleset
    game, rs = load_ruleset(st["scenario"])
    why = game.check_sealed(rs, st, player, seal_id, value)
    if why:
        # both, the id and the choice: the game's reason may be about either (a mistyped id)
        raise PbemError([Issue("SEAL-CHOICE", f"{seal_id}: {why}", text=f"--id {seal_id} --choice {choice_text(value)}")],
                        ExitCode.ILLEGAL)
    # issue 30: a choice the player sealed before, beside this one and not opened yet, that this
    # one cannot go with (a BlitzWAR card sealed for two turns): refused before it is written
    from ..core.sealed import kept_openings
    for name, earlier in kept_openings(output.parent, campaign=st["campaign"], player=player):
        if earlier["id"] == seal_id or "opened" in ((st.get("sealed") or {}).get(earlier["id"]) or {}):
            continue
        why = game.sealed_clash(rs, st, player, seal_id, value, earlier["id"], earlier.get("choice"))
        if why:
            raise PbemError([Issue("SEAL-CLASH", f"{seal_id}: {why}", text=f"--id {seal_id} --choice {choice_text(value)}",
                                   hint=f"your opening {name} holds {earlier['id']}; seal another choice")],
                            ExitCode.ILLEGAL)
    _refuse_existing([output], force_hint=False)   # an earlier opening: replacing it loses the only way to open that seal
    op = new_opening(campaign=st["campaign"], player=player, id=seal_id, choice=value)
    doc = dict(op, seal={"id": seal_id, "commitment": op["commitment"]},
               open={"id": seal_id, "nonce": op["nonce"], "choice": value})
    # the entry to paste, in the list form order files take (the `open:` mapping below is one
    # item of that list: pasted as it stands it is refused, SCHEMA-TYPE)
    entry = f"open:\n  - {{id: {seal_id}, nonce: {op['nonce']}, choice: {json.dumps(value, ensure_ascii=False)}}}"
    header = ("pbem opening of a sealed choice: KEEP IT SECRET until you open it\n"
              "when the rules ask for it, put these two lines (without the #) into that order file:\n"
              + entry)
    _write_secret(output, _sign_if(dump_yaml(doc, header=header), key_file, player))
    _echo(f"wrote {output} (keep it secret; its first lines give the open: entry to send later)")
    _echo("put this in your order file now:")
    click.echo(f"seal:\n  - {{id: {seal_id}, commitment: {op['commitment']}}}")
