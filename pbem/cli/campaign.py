"""Starting and running a campaign: `pbem new`, `scenarios`, `adjudicate`."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .app import main
from .arrivals import _sender_issues, _signature_warnings
from .common import EXIT_HELP, _echo, _next_commands, _print_issues, _warn_secret_given
from .gamehelp import (
    _GameHelpOption,
    _help_auto,
    _help_option,
    _help_player_new,
    _help_scenario,
    _help_standing,
    _ScenarioEpilog,
)
from .mailing import _write_mail


@main.command("new", cls=_ScenarioEpilog)
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--scenario", "-s", required=True, cls=_GameHelpOption, help="Scenario id (see `pbem scenarios`).",
              help_fn=_help_scenario)
@click.option("--id", "campaign_id", required=True, help="Game id: written in every state and order file.")
@click.option("--player", "-p", "players", multiple=True, required=True, metavar="ROLE=NAME[:EMAIL]", cls=_GameHelpOption,
              help="A player: role, name and optional e-mail (the roles of each scenario). Repeat for each player.",
              help_fn=_help_player_new)
@click.option("--option", "options", multiple=True, metavar="NAME", cls=_GameHelpOption,
              help="Turn on an optional rule of the game.", help_fn=_help_option)
@click.option("--auto-decisions", is_flag=True, cls=_GameHelpOption,
              help="Start every player with the game's `auto` standing orders.", help_fn=_help_auto)
@click.option("--standing", "standing_specs", multiple=True, metavar="ROLE:KEY=VALUE", cls=_GameHelpOption,
              help="A player's standing order for the whole campaign. Repeat.", help_fn=_help_standing)
@click.option("--title", help="A title for the campaign.")
@click.option("--dice", "dice_mode", type=click.Choice(["gm", "chain"]), default="gm", show_default=True,
              help="gm: the game master keeps a secret dice key; chain: no referee, every player commits to a hash chain (see `pbem chain --help`).")
@click.option("--commit", "commits", multiple=True, metavar="ROLE=HEAD|FILE",
              help="With --dice chain: a player's chain head (hex), or their .chain file to read the head from. Repeat for each player.")
@click.option("--witness", "witness_spec", metavar="NAME=HEAD|FILE",
              help="With --dice chain: a neutral witness and his chain's head (or his .chain file; `pbem chain new --player witness`). He gives no orders; his link keys, with the present players', every die rolled with missing orders, so that nobody present knows those dice when sending his file. Needed with --missing-orders-default.")
@click.option("--witness-email", "witness_email", metavar="ADDRESS",
              help="With --witness: his e-mail (campaign.yaml): the mails that ask for links with missing orders go to him too, and `pbem judge` takes his reveals from this address.")
@click.option("--missing-orders-default", "missing_defaults", multiple=True, metavar="ROLE=no-orders",
              help="What happens when ROLE sends nothing by the deadline and the GM adjudicates with --missing-orders: no-orders (no moves, no attacks, no replacements; pending decisions take their `auto` default).")
@click.option("--gm", "gm_email", metavar="EMAIL", help="The game master's e-mail: the sender of the messages `adjudicate --mail` writes.")
@click.option("--player-key", "player_keys", multiple=True, metavar="ROLE=PUBLIC|FILE",
              help="A player's public signing key (the 64 hex digits `pbem key new` prints; your own key file works too, never ask a player for theirs: it is secret): every file of that player must then be signed (`pbem sign`). Repeat for each player.")
@click.option("--unsigned", is_flag=True,
              help="Play without signing keys, knowingly: who sent a file, and whether it was cut short, is then not checked (every mail says so). Without --player-key and without --unsigned, pbem new warns.")
@click.option("--no-manifest-copy", is_flag=True, hidden=True,
              help="Tools that re-make an archive of an earlier pbem: no steps/000/campaign.json.")
@click.option("--resume-in-state", is_flag=True, hidden=True,
              help="Tools that re-make an archive of an earlier pbem: a pending phase's orders kept in the state.")
def new_cmd(folder, scenario, campaign_id, players, options, auto_decisions, standing_specs, title, dice_mode, commits, missing_defaults, gm_email, player_keys,
            witness_spec, witness_email, unsigned, no_manifest_copy, resume_in_state):
    """Start a campaign in FOLDER.

    Writes the initial state and the manifest. With the game master's dice (--dice gm, the
    default) also the dice key: its hash (commitment) is published in every state, the key
    itself is written to FOLDER/private/dice.key for the game master, who keeps it secret until
    the end or a dispute. With hash chains (--dice chain) there is no key: the players' chain
    heads are published instead, and each keeps their own .chain file.
    """
    from ..core.actions import new_campaign
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.signing import EMAIL_RE
    pl = _player_specs(players)
    if gm_email is not None and not EMAIL_RE.match(gm_email):
        raise PbemError([Issue("USAGE-EMAIL", f"--gm {gm_email!r} is not one e-mail address",
                               hint="write one address, e.g. gm@example.org")], ExitCode.USAGE)
    _add_player_keys(pl, player_keys)
    if unsigned and player_keys:
        raise PbemError([Issue("USAGE-UNSIGNED", "--unsigned and --player-key contradict each other")], ExitCode.USAGE)
    opts = {o: True for o in options}
    # unknown options are refused by the scenario itself (USAGE-OPTION, with its own list)
    standing = None
    per_player = None
    if auto_decisions or standing_specs:
        from ..core.data import load_ruleset
        gmod = load_ruleset(scenario)[0]
        if auto_decisions:
            standing = dict(gmod.auto_standing)
        per_player = _standing_specs(standing_specs, pl, gmod)
    heads = _chain_heads(dice_mode, commits)
    witness = _witness(witness_spec)
    if witness_email is not None:
        if witness is None or not EMAIL_RE.match(witness_email):
            raise PbemError([Issue("USAGE-WITNESS", f"--witness-email {witness_email!r}: one e-mail address, with --witness",
                                   hint="e.g. --witness Wendy=HEAD --witness-email wendy@example.org")], ExitCode.USAGE)
        witness["email"] = witness_email
    camp = new_campaign(folder, scenario=scenario, campaign_id=campaign_id, players=pl, options=opts,
                        standing=standing, player_standing=per_player, title=title, chain_heads=heads,
                        missing_defaults=dict(s.split("=", 1) if "=" in s else (s, "") for s in missing_defaults) or None,
                        gm=gm_email, archive_manifest=not no_manifest_copy,
                        resume_by_reference=not resume_in_state, witness=witness)
    _say_created(camp, folder, campaign_id, scenario, heads, pl)
    if not player_keys and not unsigned:
        from ..core.errors import Severity
        _print_issues([Issue("NEW-UNSIGNED", "no player gives a signing key: an unsigned campaign, in which who sent a file, and whether it "
                             "was cut short, is not checked (every mail says so)", severity=Severity.WARNING,
                             hint="each player: pbem key new --player ROLE -o ROLE.key, then pbem new ... --player-key ROLE=PUBLIC; "
                                  "or say it is meant: pbem new ... --unsigned")], err=True)


def _player_specs(players) -> dict[str, dict]:
    """``--player ROLE=NAME[:EMAIL]`` as {role: {name, email}}."""
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.signing import player_spec_problems
    pl = {}
    for spec in players:
        if "=" not in spec:
            raise PbemError([Issue("USAGE-PLAYER", f"--player {spec!r}: write ROLE=NAME[:EMAIL]")], ExitCode.USAGE)
        role, rest = spec.split("=", 1)
        name, _, email = rest.partition(":")
        bad = player_spec_problems(spec, name.strip(), email.strip() if email else None)
        if bad:
            raise PbemError(bad, ExitCode.USAGE)
        pl[role.strip()] = {"name": name.strip()} | ({"email": email.strip()} if email else {})
    return pl


def _add_player_keys(pl: dict[str, dict], player_keys) -> None:
    """``--player-key ROLE=PUBLIC|FILE``: each player's public key into ``pl``; no two alike."""
    from ..core.errors import ExitCode, Issue, PbemError
    for spec in player_keys:
        from ..core.signing import public_from_spec
        role, _, val = spec.partition("=")
        if role.strip() not in pl or not val:
            raise PbemError([Issue("USAGE-KEY", f"--player-key {spec!r}: write ROLE=PUBLIC-KEY with ROLE one of " + ", ".join(pl))], ExitCode.USAGE)
        pl[role.strip()]["key"] = public_from_spec(val, role.strip())
        _warn_secret_given(val, f"the {role.strip()} player's SECRET signing key")
    if player_keys:
        from ..core.signing import duplicate_key_problems
        dup = duplicate_key_problems({r: v.get("key") for r, v in pl.items()})
        if dup:
            raise PbemError(dup, ExitCode.INVALID)


def _chain_heads(dice_mode: str, commits) -> dict[str, str] | None:
    """``--commit ROLE=HEAD|FILE`` with ``--dice chain``: each player's chain head (None: gm dice)."""
    from ..core.errors import ExitCode, Issue, PbemError
    if dice_mode != "chain":
        if commits:
            raise PbemError([Issue("USAGE-COMMIT", "--commit goes with --dice chain")], ExitCode.USAGE)
        return None
    heads = {}
    for spec in commits:
        role, _, val = spec.partition("=")
        if len(val) == 64 and all(c in "0123456789abcdef" for c in val):
            heads[role.strip()] = val
        else:
            from ..core.chain import load_chain_file
            heads[role.strip()] = load_chain_file(Path(val))["head"]
            _warn_secret_given(val, f"the {role.strip()} player's SECRET hash chain (its seed gives every link)")
    return heads


def _witness(spec: str | None) -> dict[str, str] | None:
    """``--witness NAME=HEAD|FILE``: the witness's name and chain head (None: no witness)."""
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.signing import player_spec_problems
    if spec is None:
        return None
    name, _, val = spec.rpartition("=")
    name = name.strip()
    if not name or not val or player_spec_problems(spec, name, None):
        raise PbemError([Issue("USAGE-WITNESS", f"--witness {spec!r}: write NAME=HEAD (the head `pbem chain new --player witness` printed) or NAME=FILE",
                               hint="the name is one line of text, e.g. --witness Wendy=3fa9...")], ExitCode.USAGE)
    if len(val) == 64 and all(c in "0123456789abcdef" for c in val):
        return {"name": name, "head": val}
    from ..core.chain import load_chain_file
    doc = load_chain_file(Path(val))
    if doc["player"] != "witness":
        raise PbemError([Issue("USAGE-WITNESS", f"{val} is the chain of the {doc['player']} player, not a witness's",
                               hint="the witness makes his own: pbem chain new --player witness -o witness.chain")], ExitCode.USAGE)
    _warn_secret_given(val, "the witness's SECRET hash chain (its seed gives every link)")
    return {"name": name, "head": doc["head"]}


def _say_created(camp, folder, campaign_id, scenario, heads, pl) -> None:
    """What `pbem new` prints: the campaign, its dice, standing orders and the next commands."""
    path, st = camp.current()
    _echo(f"campaign {campaign_id} ({scenario}) created in {folder}")
    _echo(f"initial state: {path}")
    if heads is not None:
        _echo("dice: hash chains (no referee); heads: " + ", ".join(f"{p} {h}" for p, h in sorted(heads.items())))
        w = st["dice"].get("witness")
        if w:
            _echo(f"witness: {w['name']}, chain head {w['head']} (his link keys every die rolled with missing orders)")
    else:
        _echo(f"dice commitment: {st['dice']['commitment']}")
        _echo(f"dice key (game master only, keep it secret): {camp.key_path()}")
    for role, so in sorted((st.get("standing") or {}).items()):
        if so:
            _echo(f"standing orders of the {role} player: " + ", ".join(f"{k}={v}" for k, v in so.items()))
    if any((info or {}).get("email") for info in (camp.manifest.get("players") or {}).values()):
        # by mail: the first message gives every player the initial state and what to send (once)
        import shlex
        _echo(f"Mail: pbem mail {shlex.quote(str(folder))} --step 0 -o OUTBOX   (each player's first message: "
              "the initial state and the commands to write orders)")
    for line in _next_commands(folder, st):
        _echo(line)


def _standing_items(rest: str) -> list[str]:
    """``KEY=VALUE,KEY=VALUE`` split into items; a piece without ``=`` belongs to the value
    before it, so values that hold commas (``intercept=over paris,lille keep 1``) stay whole."""
    items: list[str] = []
    for piece in rest.split(","):
        if "=" not in piece and items:
            items[-1] += "," + piece
        else:
            items.append(piece)
    return items


def _standing_specs(specs, players: dict, gmod) -> dict[str, dict[str, str]]:
    """``--standing ROLE:KEY=VALUE`` (or ``ROLE:auto``) as {role: {key: value}}, checked
    against the game's standing orders."""
    from ..core.errors import ExitCode, Issue, PbemError
    allowed = dict(gmod.standing_keys)   # a key's values may be a pattern (its own __contains__)
    auto = dict(gmod.auto_standing)
    out: dict[str, dict[str, str]] = {}
    issues = []
    for spec in specs:
        role, _, rest = spec.partition(":")
        role = role.strip()
        if role not in players:
            issues.append(Issue("USAGE-STANDING", f"--standing {spec!r}: no player {role!r} in this game",
                                hint="write ROLE:KEY=VALUE with ROLE one of " + ", ".join(players)))
            continue
        if rest.strip() == "auto":
            out.setdefault(role, {}).update(auto)
            continue
        for item in _standing_items(rest):
            key, _, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if key not in allowed or value not in allowed[key]:
                issues.append(Issue("USAGE-STANDING", f"--standing {spec!r}: {item.strip()!r} is not a standing order",
                                    hint="; ".join(f"{k}={'|'.join(v)}" for k, v in allowed.items()) + "; or ROLE:auto"))
                continue
            out.setdefault(role, {})[key] = value
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    return out


@main.command("missing-default", epilog=EXIT_HELP, short_help="Add a missing-orders default after new.")
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("defaults", nargs=-1, required=True, metavar="ROLE=no-orders...")
def missing_default_cmd(campaign, defaults):
    """Declare, after `pbem new`, what happens when a player sends nothing.

    The same as `pbem new --missing-orders-default ROLE=no-orders`, for a campaign started
    without it: from now on `pbem adjudicate CAMPAIGN --missing-orders` may play that player's
    phases (no orders) and pending decisions (their `auto` default). campaign.yaml takes it
    at once; the next adjudicated step archives the manifest as changed (steps/NNN/campaign.json),
    so that `pbem replay` knows from which step the default holds."""
    from ..core.campaign import Campaign
    from ..core.errors import ExitCode, Issue, PbemError
    camp = Campaign(campaign)
    players = sorted(camp.manifest.get("players") or {})
    want: dict[str, str] = {}
    issues = []
    for spec in defaults:
        role, _, value = spec.partition("=")
        role = role.strip()
        if role not in players:
            issues.append(Issue("USAGE-PLAYER", f"{spec!r}: this campaign has no player {role!r}", text=spec,
                                hint="players: " + ", ".join(players)))
        elif value.strip() != "no-orders":
            issues.append(Issue("USAGE-MISSING-DEFAULT", f"{spec!r}: the only default is no-orders", text=spec,
                                hint=f"pbem missing-default {campaign} {role}=no-orders"))
        else:
            want[role] = "no-orders"
    dice = camp.manifest.get("dice") or {}
    if dice.get("mode") == "chain" and not dice.get("witness"):
        # as at `pbem new` (NEW-WITNESS): without a witness the dice of a phase played for an
        # absent player would be keyed by the present players' links alone, which they know
        issues.append(Issue("NEW-WITNESS", "hash chains with a missing-orders default need a witness, and this campaign "
                            "was started without one: the present players would know the dice of a phase played "
                            "without the absent one before sending their files",
                            hint="a witness is named when the campaign starts (pbem new --witness NAME=HEAD); "
                                 "an absent player here stalls the phase: agree that a missing file forfeits"))
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    before = dict(camp.manifest.get("missing_orders") or {})
    camp.set_missing_defaults(want)
    for role in sorted(want):
        was = " (it was declared already)" if before.get(role) == want[role] else ""
        _echo(f"missing-orders default of the {role} player: {want[role]}{was}")
    if camp.manifest_amended():
        _echo(f"in force now; the next adjudicated step archives it (campaign.json in its folder): "
              f"`pbem adjudicate {campaign} --missing-orders` may play for a player who sends nothing")


@main.command("scenarios")
def scenarios_cmd():
    """List the scenarios pbem can start."""
    from ..core.games import scenarios
    for k, (_g, info) in sorted(scenarios().items()):
        line = info["line"]
        _echo(f"{k:20} {line}", subsequent=" " * 21)


@main.command("adjudicate", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("orders", nargs=-1, type=click.Path(path_type=Path))
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="Dice key file (default CAMPAIGN/private/dice.key).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--missing-orders", is_flag=True, help="The awaited player sent no orders: apply the default (nothing happens this phase), reported as such.")
@click.option("--width", type=click.IntRange(20), default=None,
              help="Width of the printed report (default: COLUMNS, else the terminal's width, else 100). The archived report.txt is always 100 wide.")
@click.option("--reveal", "reveals", multiple=True, type=click.Path(path_type=Path),
              help="Chain-mode campaigns: a player's reveal of a link for these orders (pbem chain reveal): the .yaml file, or the e-mail (.eml, mbox) it came in. Repeat for every player.")
@click.option("--mail", "mail_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write into this folder, per player, a ready-to-send e-mail (.eml): the report, the next state, report.json and the map. pbem sends nothing itself.")
@click.option("--mail-from", metavar="ADDRESS", help="The From of the --mail messages (default: the game master's e-mail in campaign.yaml, else pbem@localhost).")
@click.option("--mail-svg", is_flag=True, help="Also attach the whole map to the --mail messages as a zipped SVG (the PNG preview goes anyway).")
@click.option("--any-sender", is_flag=True, help="Accept an e-mail whose From is not the e-mail campaign.yaml gives its player (a warning instead of the error MAIL-FROM).")
def adjudicate_cmd(campaign, orders, key_path, as_json, missing_orders, width, reveals, mail_dir, mail_from, mail_svg, any_sender):
    """Adjudicate orders: report and next state.

    Applies ORDERS to the campaign's current state: prints the report, writes the next state,
    archives the orders with their hashes. Bad orders are refused and nothing is written.

    An ORDERS file may be an e-mail (.eml, or an mbox of several messages): the order file is
    taken from its .yaml attachment or its plain-text body, and archived byte for byte."""
    from ..core.report import render, report_json
    from ..core.step import adjudicate_campaign
    from ..core.term import DEFAULT_WIDTH, console
    if not (orders or reveals or missing_orders):
        # nothing to adjudicate: the command line is incomplete (64), not orders breaking a rule (3)
        from ..core.errors import ExitCode, Issue, PbemError
        raise PbemError([Issue("USAGE-NO-FILES", "adjudicate needs the order or answer files (or e-mails) to carry out",
                               hint=f"pbem adjudicate {campaign} FILE...; --missing-orders when the awaited player sent "
                                    "nothing; `pbem show` says who is awaited")], ExitCode.USAGE)
    if mail_dir:
        from ..core.mail import outbox_targets
        outbox_targets(mail_dir, campaign, mail_from)  # FILE-EXISTS, MAIL-ADDRESS before anything is adjudicated
    senders = _sender_issues(campaign, list(orders) + list(reveals), any_sender)
    if any(i.is_error for i in senders):
        # refused before adjudicating, nothing written; with every other problem of the files
        from ..core.actions import by_line, validate_files
        from ..core.campaign import Campaign
        from ..core.errors import exit_code_for
        camp = Campaign(campaign)
        issues = senders + (by_line(validate_files(camp.current()[0], list(orders))) if orders else [])
        issues += _signature_warnings(camp, list(orders))     # a signature problem too, as validate says it
        _print_issues(issues, err=True)
        errors = sum(1 for i in issues if i.is_error)
        click.echo(f"REFUSED: {errors} error(s), {len(issues) - errors} warning(s); nothing written", err=True)
        sys.exit(int(exit_code_for(issues)))
    _print_issues(senders, err=True)
    from ..core.progress import progress  # a bar on a terminal only (issue 33: seconds of silence)
    with progress(None, "adjudicating") as _:
        res = adjudicate_campaign(campaign, list(orders), key_path=key_path, missing_orders=missing_orders,
                                  reveal_paths=list(reveals))
    _print_issues([i for i in res.issues if i.code == "FILE-STALE-TEMP"], err=True)
    if as_json:
        click.echo(report_json(res.report), nl=False)
    elif res.step_dir is None:
        # Refused: no report to keep; each problem once, under the player's own file name.
        _print_issues(res.issues, err=True)
        errors = sum(1 for i in res.issues if i.is_error)
        click.echo(f"REFUSED: {errors} error(s), {len(res.issues) - errors} warning(s); nothing written", err=True)
        click.echo(f"Next: correct the orders, check them with `pbem validate {campaign} FILE`, and adjudicate again", err=True)
    else:
        render(res.report, res.game, res.ruleset, console(width=width, default_width=DEFAULT_WIDTH))
        _echo(f"archived in {res.step_dir}")
        if res.issues:
            _print_issues([i for i in res.issues if i.is_error], err=True)
        for line in _next_commands(campaign, res.state or {}):
            _echo(line)
    code = res.exit_code
    if mail_dir and res.step_dir:
        code = _write_mail(campaign, res, mail_dir, mail_from, mail_svg, err=as_json) or code
    sys.exit(int(code))
