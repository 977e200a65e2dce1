"""The ``pbem`` command line. Heavy modules are imported inside the commands so that
``pbem --help`` starts fast."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import __version__

from .core.errors import exit_help

EXIT_HELP = exit_help()  # generated from pbem.core.errors.ExitCode / EXIT_MEANINGS
BUG_HINT = ("This is a bug in pbem {version}: please report it with the command you ran and its input "
            "files. Run it again with --debug (or PBEM_DEBUG=1) to see the traceback.")

_debug = False  # --debug of this invocation


def _print_issues(issues, *, err: bool = True) -> None:
    for i in issues:
        click.echo(i.format(), err=err)


def _fail(e) -> None:
    _print_issues(e.issues)
    sys.exit(int(e.exit_code))


def _internal_error(exc: BaseException) -> None:
    """An exception pbem did not expect: a short message and a bug-report hint, exit 70; the
    traceback only with --debug or PBEM_DEBUG=1."""
    import traceback
    from .core.errors import ExitCode
    if _debug or os.environ.get("PBEM_DEBUG", "") not in ("", "0"):
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


class _Group(click.Group):
    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's standalone mode, with pbem's exit codes: a usage error exits 64 (click: 2),
        an unexpected exception 70 with a short message (see _internal_error)."""
        global _debug
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        from .core.errors import ExitCode
        _debug = False
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as e:
            e.exit_code = int(ExitCode.USAGE)
            e.show()
            sys.exit(int(ExitCode.USAGE))
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except BrokenPipeError:  # e.g. `pbem show ... | head`
            sys.stdout = open(os.devnull, "w")
            sys.exit(1)
        except Exception as e:  # noqa: BLE001 - the last resort: no traceback for a user
            _internal_error(e)
        sys.exit(rv if type(rv) is int else 0)

    def invoke(self, ctx):
        from .core.errors import PbemError
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
    """pbem: a play-by-email adjudicator for board wargames (Battle for Germany).

    Orders are YAML files; pbem checks them against the rules, resolves them with dice nobody
    can bias, prints a report and writes the next state. Anyone can replay the archive.
    """
    global _debug
    _debug = debug
    if data_dir is not None or "pbem.core.data" in sys.modules:
        from .core.data import set_user_data
        set_user_data(data_dir)


def _scenario_help() -> str:
    from .core.games import scenarios
    return "Scenarios (--scenario ID):\n\n" + "\n\n".join(f"{k}: {v[1]['line']}" for k, v in sorted(scenarios().items()))


class _ScenarioEpilog(click.Command):
    """`pbem new --help` lists the scenarios, read from the games' data only when asked."""

    def format_epilog(self, ctx, formatter):
        self.epilog = _scenario_help() + "\n\n" + EXIT_HELP
        super().format_epilog(ctx, formatter)


@main.command("new", cls=_ScenarioEpilog)
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--scenario", "-s", required=True, help="Scenario id, e.g. bfg-historical (see `pbem scenarios`).")
@click.option("--id", "campaign_id", required=True, help="Game id: written in every state and order file.")
@click.option("--player", "-p", "players", multiple=True, required=True, metavar="ROLE=NAME[:EMAIL]",
              help="A player: role (soviet, western; german in bfg-three-player; east-german, west-german in bfg-four-player), name and optional e-mail. Repeat for each player.")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="Turn on an optional rule (bfg: german_east_front = DG2 12.3; ss_to_western = DG2 13.2, bfg-expanded only).")
@click.option("--auto-decisions", is_flag=True,
              help="Start every player with the game's `auto` standing orders (bfg: `auto` for retreats, Ex losses, ties and Courland ports, `none` for advances).")
@click.option("--title", help="A title for the campaign.")
@click.option("--dice", "dice_mode", type=click.Choice(["gm", "chain"]), default="gm", show_default=True,
              help="gm: the game master keeps a secret dice key; chain: no referee, every player commits to a hash chain (see `pbem chain --help`).")
@click.option("--commit", "commits", multiple=True, metavar="ROLE=HEAD|FILE",
              help="With --dice chain: a player's chain head (hex), or their .chain file to read the head from. Repeat for each player.")
@click.option("--missing-orders-default", "missing_defaults", multiple=True, metavar="ROLE=no-orders",
              help="What happens when ROLE sends nothing by the deadline and the GM adjudicates with --missing-orders: no-orders (no moves, no attacks, no replacements; pending decisions take their `auto` default).")
@click.option("--gm", "gm_email", metavar="EMAIL", help="The game master's e-mail: the sender of the messages `adjudicate --mail` writes.")
def new_cmd(folder, scenario, campaign_id, players, options, auto_decisions, title, dice_mode, commits, missing_defaults, gm_email):
    """Start a campaign in FOLDER: initial state, manifest, and the dice key.

    The key's hash (commitment) is published in every state; the key itself is written to
    FOLDER/private/dice.key for the game master, who keeps it secret until the end or a dispute.
    """
    from .core.actions import new_campaign
    from .core.errors import ExitCode, Issue, PbemError
    pl = {}
    for spec in players:
        if "=" not in spec:
            raise PbemError([Issue("USAGE-PLAYER", f"--player {spec!r}: write ROLE=NAME[:EMAIL]")], ExitCode.USAGE)
        role, rest = spec.split("=", 1)
        name, _, email = rest.partition(":")
        pl[role.strip()] = {"name": name.strip()} | ({"email": email.strip()} if email else {})
    opts = {o: True for o in options}
    # unknown options are refused by the scenario itself (USAGE-OPTION, with its own list)
    standing = None
    if auto_decisions:
        from .core.data import load_ruleset
        standing = dict(load_ruleset(scenario)[0].auto_standing)
    heads = None
    if dice_mode == "chain":
        heads = {}
        for spec in commits:
            role, _, val = spec.partition("=")
            if len(val) == 64 and all(c in "0123456789abcdef" for c in val):
                heads[role.strip()] = val
            else:
                from .core.chain import load_chain_file
                heads[role.strip()] = load_chain_file(Path(val))["head"]
    elif commits:
        raise PbemError([Issue("USAGE-COMMIT", "--commit goes with --dice chain")], ExitCode.USAGE)
    camp = new_campaign(folder, scenario=scenario, campaign_id=campaign_id, players=pl, options=opts,
                        standing=standing, title=title, chain_heads=heads,
                        missing_defaults=dict(s.split("=", 1) for s in missing_defaults) or None, gm=gm_email)
    path, st = camp.current()
    click.echo(f"campaign {campaign_id} ({scenario}) created in {folder}")
    click.echo(f"initial state: {path}")
    if heads is not None:
        click.echo("dice: hash chains (no referee); heads: " + ", ".join(f"{p} {h}" for p, h in sorted(heads.items())))
    else:
        click.echo(f"dice commitment: {st['dice']['commitment']}")
        click.echo(f"dice key (game master only, keep it secret): {camp.key_path()}")
    from .core.kernel import awaited_players
    for p in awaited_players(st):
        click.echo(f"next: pbem orders template {path} --player {p}")


@main.command("scenarios")
def scenarios_cmd():
    """List the scenarios pbem can start."""
    from .core.games import scenarios
    for k, (g, info) in sorted(scenarios().items()):
        line = info["line"]
        click.echo(f"{k:20} {line}")


@main.group("orders")
def orders_grp():
    """Order files: templates."""


@orders_grp.command("template", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, dir_okay=True, path_type=Path))
@click.option("--player", "-p", required=True, help="The player the template is for (soviet, western).")
@click.option("--output", "-o", type=click.Path(path_type=Path), help="Write to this file (never overwritten) instead of stdout.")
def template_cmd(state, player, output):
    """Write an order file for what awaits PLAYER in STATE (a state file or a campaign folder):
    the phases, the units with position and movement allowance, the legal choices as comments.
    When the adjudication stopped at a decision, it writes the answer file."""
    from .core.campaign import Campaign, load_state_file
    from .core.data import load_ruleset
    from .core.errors import ExitCode, Issue, PbemError
    from .core.files import atomic_write
    from .core.schema import schema_dir
    spath = state
    if Path(state).is_dir():
        spath, st = Campaign(state).current()
    else:
        st, _ = load_state_file(state)
    if player not in st["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this game", hint=", ".join(st["players"]))], ExitCode.USAGE)
    g, rs = load_ruleset(st["scenario"])
    schema = schema_dir() / f"{g.orders_schema}.schema.json"
    if output:
        import os
        ref = os.path.relpath(schema, Path(output).resolve().parent)
    else:
        ref = schema.as_uri()
    text = g.order_template(rs, st, player, schema_ref=ref, state_file=Path(spath).name)
    if output:
        atomic_write(output, text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@main.command("validate", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.argument("orders", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def validate_cmd(state, orders, as_json):
    """Check ORDERS against STATE (a state file or a campaign folder) and report every problem
    at once: file:line, the order, the rule section, a hint. Writes nothing.

    An ORDERS file may be an e-mail (.eml, or an mbox of several messages): the order file is
    taken from its .yaml attachment or its plain-text body."""
    import json
    from .core.actions import validate_files
    from .core.campaign import Campaign
    from .core.errors import exit_code_for
    spath = state
    if Path(state).is_dir():
        spath, _ = Campaign(state).current()
    issues = validate_files(spath, list(orders))
    if as_json:
        click.echo(json.dumps([i.to_dict() for i in issues], indent=1, ensure_ascii=False))
    else:
        _print_issues(issues, err=False)
        errors = sum(1 for i in issues if i.is_error)
        warns = len(issues) - errors
        click.echo(f"{'OK' if not errors else 'REFUSED'}: {errors} error(s), {warns} warning(s)")
    sys.exit(int(exit_code_for(issues)))


@main.command("adjudicate", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("orders", nargs=-1, type=click.Path(path_type=Path))
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="Dice key file (default CAMPAIGN/private/dice.key).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--missing-orders", is_flag=True, help="The awaited player sent no orders: apply the default (nothing happens this phase), reported as such.")
@click.option("--width", type=int, default=100, show_default=True, help="Width of the printed report.")
@click.option("--reveal", "reveals", multiple=True, type=click.Path(path_type=Path),
              help="Chain-mode campaigns: every player's reveal for these orders (pbem chain reveal). Repeat.")
@click.option("--mail", "mail_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write into this folder, per player, a ready-to-send e-mail (.eml): the report, the next state, report.json and the map. pbem sends nothing itself.")
@click.option("--mail-from", metavar="ADDRESS", help="The From of the --mail messages (default pbem@localhost).")
def adjudicate_cmd(campaign, orders, key_path, as_json, missing_orders, width, reveals, mail_dir, mail_from):
    """Apply ORDERS to the campaign's current state: print the report, write the next state,
    archive the orders with their hashes. Bad orders are refused and nothing is written.

    An ORDERS file may be an e-mail (.eml, or an mbox of several messages): the order file is
    taken from its .yaml attachment or its plain-text body, and archived byte for byte."""
    from .core.actions import adjudicate_campaign
    from .core.report import render, report_json, _console
    if mail_dir:
        from .core.mail import outbox_targets
        outbox_targets(mail_dir, campaign)  # FILE-EXISTS before anything is adjudicated
    res = adjudicate_campaign(campaign, list(orders), key_path=key_path, missing_orders=missing_orders, reveal_paths=list(reveals))
    if as_json:
        click.echo(report_json(res.report), nl=False)
    else:
        render(res.report, res.game, res.ruleset, _console(width, color=sys.stdout.isatty(), file=sys.stdout))
        if res.step_dir:
            click.echo(f"archived in {res.step_dir}")
    if res.issues and not as_json:
        _print_issues([i for i in res.issues if i.is_error], err=True)
    if mail_dir and res.step_dir:
        _write_mail(campaign, res, mail_dir, mail_from, err=as_json)
    sys.exit(int(res.exit_code))


def _write_mail(campaign, res, mail_dir, mail_from, *, err: bool) -> None:
    from .core.mail import write_step_mail
    written, warnings, notes = write_step_mail(campaign, res, mail_dir, sender=mail_from)
    for path, m in written:
        click.echo(f"mail: wrote {path} (to {m.message['To'] or 'nobody: add the recipient'})", err=err)
    for n in notes:
        click.echo(f"mail: {n}", err=err)
    _print_issues(warnings)


@main.command("show", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True)
@click.option("--units/--no-units", default=True, help="List the units on the map.")
def show_cmd(state, as_json, units):
    """Summarise STATE (a state file or a campaign folder): turn, phase, whose move, units per
    side, destroyed-unit boxes, victory points, pending decisions."""
    import json
    from .core.campaign import Campaign, load_state_file
    from .core.data import load_ruleset
    spath = state
    if Path(state).is_dir():
        spath, st = Campaign(state).current()
    else:
        st, _ = load_state_file(state)
    g, rs = load_ruleset(st["scenario"])
    from .core.kernel import awaited
    summ = g.summary(rs, st)
    if as_json:
        click.echo(json.dumps({"turn": st["turn"], "phase": st["phase"], "awaiting": awaited(st),
                               "received": sorted(st.get("received") or {}),
                               "pending": st["pending"], "result": st["result"], **summ}, indent=1, ensure_ascii=False))
        return
    click.echo(f"{g.title} - campaign {st['campaign']} ({st['scenario']}) - {Path(spath).name}")
    click.echo(f"turn {st['turn']} ({rs.turn_date(st['turn'])}), phase {st['phase']}, step {st['step']}")
    if st.get("result"):
        r = st["result"]
        won = " and ".join(r.get("winners") or [str(r["winner"])])
        click.echo(f"GAME OVER: {'draw' if r['draw'] else won + (' win' if len(r.get('winners') or ()) > 1 else ' wins')} - {r['reason']}")
    for a in awaited(st):
        click.echo(f"awaiting: {a['for']} from the {a['player']} player ({st['players'][a['player']]})")
    for p in sorted(st.get("received") or {}):
        click.echo(f"received: orders of the {p} player (step {st['received'][p]['step']}); the phase is carried out when every awaited player's orders are in")
    for d in st.get("pending", []):
        opts = f"; options: {', '.join(str(o) for o in d['options'])}" if "options" in d else ""
        click.echo(f"pending decision {d['id']} ({d['player']}): {d['prompt']}{opts}")
    for line in g.summary_lines(rs, st, units=units):
        click.echo(line)


@main.command("map", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The SVG file to write (never overwritten). A name ending in .png writes only a PNG.")
@click.option("--report", "report_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Mark the moves, retreats, advances and combats of this report.json.")
@click.option("--last", is_flag=True,
              help="Mark those of the step that produced STATE (for a campaign folder: its latest step).")
@click.option("--png", is_flag=True,
              help="Also write a PNG beside the SVG (same name, .png), through cairosvg, rsvg-convert or inkscape.")
@click.option("--scale", type=click.FloatRange(0.25, 8), default=1.0, show_default=True,
              help="Size of the picture (1: hexes 62 px wide).")
def map_cmd(state, output, report_path, last, png, scale):
    """Draw STATE (a state file or a campaign folder) as an SVG picture: the hex map with
    terrain, rivers, cities and their control, the boundary, fortresses, the unit counters, the
    Courland and destroyed-unit boxes; with --report or --last, the step's moves, retreats,
    advances and combats."""
    import os
    from .core.errors import ExitCode, Issue, PbemError
    from .core.files import atomic_write
    from .core.mapdraw import draw_state, map_inputs, map_targets, svg_to_png
    _, st, report, warnings = map_inputs(state, report_path=report_path, last=last)
    svg_path, png_path = map_targets(output, png)
    targets = [p for p in (svg_path, png_path) if p is not None]
    if any(os.path.lexists(p) for p in targets):
        raise PbemError([Issue("FILE-EXISTS", f"{p} already exists", file=str(p), hint="pbem never overwrites a file; choose another name")
                         for p in targets if os.path.lexists(p)], ExitCode.IO)
    _print_issues(warnings)
    text = draw_state(st, report, scale=scale)
    data = svg_to_png(text) if png_path else None
    if svg_path:
        atomic_write(svg_path, text)
        click.echo(f"wrote {svg_path}")
    if png_path:
        atomic_write(png_path, data)
        click.echo(f"wrote {png_path}")


@main.command("replay", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="The revealed dice key (default CAMPAIGN/private/dice.key).")
@click.option("--reports", is_flag=True, help="Print the report of every step as it is re-adjudicated.")
def replay_cmd(campaign, key_path, reports):
    """Re-adjudicate the whole archive from the first state with the revealed key: every state,
    report and die must come out byte-identical. On a mismatch, names the step, turn, phase,
    file and first differing field."""
    from .core.actions import replay_campaign
    from .core.errors import exit_code_for
    res = replay_campaign(campaign, key_path=key_path)
    for i, line in enumerate(res.lines):
        if reports and 0 < i <= len(res.texts):
            click.echo(res.texts[i - 1], nl=False)
        click.echo(line)
    _print_issues(res.issues)
    errors = [i for i in res.issues if i.is_error]
    if errors:
        click.echo(f"REPLAY FAILED after {res.steps} identical step(s)")
    else:
        click.echo(f"REPLAY OK: {res.steps} step(s) byte-identical, {res.rolls} roll(s) recomputed")
    sys.exit(int(exit_code_for(res.issues)))


@main.group("dice")
def dice_grp():
    """Verifiable dice."""


@dice_grp.command("verify", epilog=EXIT_HELP)
@click.argument("args", nargs=-1, metavar="[CAMPAIGN] LABEL")
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="File with the revealed key.")
@click.option("--key-hex", help="The revealed key itself (64 hex digits).")
@click.option("--game", help="Raw mode: game id.")
@click.option("--campaign-id", help="Raw mode: campaign id.")
@click.option("--step", help="Raw mode: step, e.g. t01/soviet.combat.")
@click.option("--orders", "orders_digest", help="Raw mode: sha256 of the order file.")
@click.option("--state", "state_hash", help="Raw mode: hash of the state at the start of the phase.")
@click.option("--sides", default=6, show_default=True)
def dice_verify_cmd(args, key_path, key_hex, game, campaign_id, step, orders_digest, state_hash, sides):
    """Recompute one labelled roll. With CAMPAIGN and LABEL (as printed in a report) the inputs
    come from the archive; in raw mode give every input, so no pbem archive is needed."""
    from .core.actions import find_roll, verify
    from .core.campaign import Campaign, check_key_hex, read_key_file
    from .core.dice import commitment
    from .core.errors import ExitCode, Issue, PbemError
    if len(args) not in (1, 2):
        raise PbemError([Issue("USAGE-DICE", "give CAMPAIGN LABEL, or LABEL with the raw-mode options")], ExitCode.USAGE)
    campaign, label = (Path(args[0]), args[1]) if len(args) == 2 else (None, args[0])
    if key_hex is not None:
        key_hex = check_key_hex(key_hex.strip().lower(), "--key-hex")
    if campaign:
        camp = Campaign(campaign)
        if camp.manifest["dice"].get("mode") == "chain":
            # No referee: the key of the roll's step is combined from the archived reveals.
            from .core.actions import chain_keys_from_archive
            logged, inputs = find_roll(campaign, label)
            key = chain_keys_from_archive(camp, len(camp.step_dirs())).get(inputs.get("orders"))
            if key is None:
                raise PbemError([Issue("DICE-NO-KEY", f"no archived reveals give the key of {label}")])
            click.echo(f"dice key from the revealed chain links: {key}")
        else:
            key = key_hex or camp.read_key(key_path)
            if commitment(key) != camp.manifest["dice"]["commitment"]:
                raise PbemError([Issue("DICE-KEY-MISMATCH", "the key does not match the commitment published in campaign.yaml",
                                       hint="use the key the game master revealed")])
            logged, inputs = find_roll(campaign, label)
        try:
            r = verify(key, game=camp.manifest["game"], campaign=camp.manifest["id"], step=inputs["step"],
                       orders=inputs["orders"], state=inputs["state"], label=label, sides=logged["sides"])
        except (KeyError, TypeError, ValueError) as e:
            raise PbemError([Issue("REPLAY-REPORT", f"the report's record of roll {label} is damaged ({e!r})",
                                   file=inputs.get("report"), hint="`pbem replay` checks the whole archive")]) from None
        click.echo(f"label:     {label}")
        click.echo(f"inputs:    step {inputs['step']}, orders sha256 {inputs['orders']}, state {inputs['state']}")
        click.echo(f"phase key: {r['phase_key']}")
        click.echo(f"recomputed {r['value']}, logged {logged['value']}: {'MATCH' if r['value'] == logged['value'] else 'MISMATCH'}")
        if r["value"] != logged["value"]:
            raise PbemError([Issue("DICE-ROLL-MISMATCH", f"{label}: the key gives {r['value']}, the report logged {logged['value']}",
                                   file=inputs.get("report"), hint="`pbem replay` re-adjudicates the whole archive")])
        sys.exit(0)
    if not all([key_hex or key_path, game, campaign_id, step, orders_digest, state_hash, label]):
        raise PbemError([Issue("USAGE-DICE", "give CAMPAIGN LABEL, or raw mode: LABEL with --key-hex/--key, --game, --campaign-id, --step, --orders, --state")], ExitCode.USAGE)
    key = key_hex or read_key_file(key_path)
    try:
        r = verify(key, game=game, campaign=campaign_id, step=step, orders=orders_digest, state=state_hash, label=label, sides=sides)
    except (TypeError, ValueError) as e:
        raise PbemError([Issue("USAGE-DICE", f"cannot compute the roll: {e}")], ExitCode.USAGE) from None
    click.echo(f"phase key: {r['phase_key']}")
    click.echo(f"{label} = {r['value']}")


@main.group("data")
def data_grp():
    """Component data (rules/ and scenarios/)."""


@data_grp.command("check", epilog=EXIT_HELP)
@click.option("--scenario", help="Only this scenario.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list the provisional values, only count them.")
@click.option("--json", "as_json", is_flag=True)
def data_check_cmd(scenario, quiet, as_json):
    """Check every data file against its schema and for consistency (adjacency, set-up on the
    map, stacking, complete tables), and list every PROVISIONAL value with its file, so an owner
    of the game can type in the published one. Fails on an incomplete or inconsistent set."""
    import json
    from .core.actions import data_check
    from .core.data import user_data, user_data_files
    from .core.errors import exit_code_for
    from .core.schema import check_fully
    replaced, unused = user_data_files()
    with check_fully():  # every file against its schema, whatever the validity markers say
        issues, prov = data_check(scenario)
    issues = unused + issues
    if user_data() is not None and not as_json:
        click.echo(f"data folder {user_data()}: replaces " + (", ".join(replaced) or "no shipped file")
                   + "; everything else is the shipped data")
    if as_json:
        click.echo(json.dumps({"issues": [i.to_dict() for i in issues], "provisional": prov}, indent=1, ensure_ascii=False))
    else:
        if not quiet:
            cur = None
            for p in prov:
                if p["file"] != cur:
                    cur = p["file"]
                    click.echo(f"{cur}:")
                click.echo(f"  provisional: {p['item']}" + (f" - {p['note']}" if p.get("note") else ""))
        _print_issues(issues, err=False)
        errors = sum(1 for i in issues if i.is_error)
        click.echo(f"{len(prov)} provisional value(s); {errors} error(s)" + ("" if errors else ": data set complete and consistent"))
    sys.exit(int(exit_code_for(issues)))


@main.group("chain")
def chain_grp():
    """Dice without a referee: each player's secret hash chain.

    Each player makes a chain (`pbem chain new`) and gives only its head to `pbem new --dice
    chain --commit ROLE=HEAD`. For every order file, each player reveals the next link of their
    chain (`pbem chain reveal`), the phasing player with the orders, the others after seeing
    them; `pbem adjudicate --reveal ...` checks each link against the last and derives the dice
    from all of them, so nobody can preview or bias a die.
    """


@chain_grp.command("new", epilog=EXIT_HELP)
@click.option("--player", "-p", required=True, help="Your role, e.g. soviet.")
@click.option("--length", default=1000, show_default=True, help="Number of links (one per adjudicated order file).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="Your SECRET chain file (never overwritten).")
def chain_new_cmd(player, length, output):
    """Make your secret hash chain; prints its head (the commitment to give the others)."""
    from .core.chain import CHAIN_SCHEMA, new_chain
    from .core.files import atomic_write
    from .core.yamlio import dump_yaml
    seed, head = new_chain(length)
    doc = {"schema": CHAIN_SCHEMA, "player": player, "length": length, "seed": seed, "head": head}
    atomic_write(output, dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"))
    os.chmod(output, 0o600)
    click.echo(f"wrote {output} (secret)")
    click.echo(f"head (publish it): {head}")


@chain_grp.command("reveal", epilog=EXIT_HELP)
@click.argument("chain_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--orders", "orders_file", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The order file this reveal answers (its sha256 is bound into the reveal).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="The reveal file to send (never overwritten).")
def chain_reveal_cmd(chain_file, state, orders_file, output):
    """Reveal the next link of your chain for ORDERS on STATE (a state file or a campaign).

    Only reveal after you have received the final orders: your link, with the others', makes
    the dice of those orders."""
    from .core.campaign import Campaign, load_state_file
    from .core.canon import sha256_hex
    from .core.chain import load_chain_file, make_reveal
    from .core.errors import ExitCode, Issue, PbemError
    from .core.files import atomic_write, read_bytes_limited
    camp = None
    if Path(state).is_dir():
        camp = Campaign(state)
        _, st = camp.current()
    else:
        st, _ = load_state_file(state)
    doc = load_chain_file(chain_file)
    d = st["dice"]
    if d.get("mode") != "chain":
        raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "this campaign's dice come from the game master's key, not from hash chains")], ExitCode.USAGE)
    if d["heads"].get(doc["player"]) != doc["head"]:
        raise PbemError([Issue("DICE-REVEAL-PLAYER", f"{chain_file} is not the chain the {doc['player']} player committed to in this campaign",
                               file=str(chain_file))])
    if d["used"] + 1 > doc["length"]:
        raise PbemError([Issue("DICE-CHAIN-EXHAUSTED", f"the chain has {doc['length']} links, all used")])
    digest = sha256_hex(read_bytes_limited(orders_file, 1_000_000))
    if st.get("received") or st.get("pending"):
        # Several players' orders for one phase: the dice are keyed on all of them
        # (pbem.core.kernel.orders_digest), read from the campaign's archive.
        from .core.campaign import load_order_file
        from .core.step import new_dice_digest, received_files
        if camp is None:
            raise PbemError([Issue("USAGE-CAMPAIGN", "this phase has orders received from other players: give the campaign folder, not a state file")],
                            ExitCode.USAGE)
        digest = new_dice_digest(st, [load_order_file(orders_file)], received_files(camp, st), False)
        if digest is None:
            raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "these orders roll no new dice (a decision answer, or other players' orders are still awaited): no reveal is needed now")],
                            ExitCode.USAGE)
    atomic_write(output, make_reveal(doc, st, digest))
    click.echo(f"wrote {output}: link {d['used'] + 1} of the {doc['player']} player for orders {digest[:16]}...")


@main.command("seal", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--player", "-p", required=True, help="Your player id.")
@click.option("--id", "seal_id", required=True, help="The id of the sealed choice (the game or template names it).")
@click.option("--choice", required=True, help="Your choice, as a YAML value (e.g. 3, armour, '[armour, fleet]').")
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The opening file to KEEP SECRET on your own machine (never overwritten).")
def seal_cmd(state, player, seal_id, choice, output):
    """Seal a choice: commit now, reveal later (e.g. BlitzWAR replacement cards, 10.1).

    Writes OUTPUT, the opening (your choice and a random nonce: keep it secret), and prints the
    `seal:` entry to put in your order file now. Nobody can read the choice from the commitment,
    and it can never be changed: when the time comes, copy the `open:` entry from OUTPUT into an
    order file and pbem checks it against the commitment."""
    from .core.campaign import Campaign, load_state_file
    from .core.errors import ExitCode, Issue, PbemError
    from .core.files import atomic_write
    from .core.sealed import new_opening
    from .core.yamlio import dump_yaml, load_yaml
    st = Campaign(state).current()[1] if Path(state).is_dir() else load_state_file(state)[0]
    if player not in st["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this game", hint=", ".join(st["players"]))], ExitCode.USAGE)
    if seal_id in (st.get("sealed") or {}):
        raise PbemError([Issue("SEAL-EXISTS", f"a choice sealed as {seal_id!r} exists already; it can never be changed")])
    value = load_yaml(choice.encode("utf-8"), "--choice").data
    op = new_opening(campaign=st["campaign"], player=player, id=seal_id, choice=value)
    doc = dict(op, seal={"id": seal_id, "commitment": op["commitment"]},
               open={"id": seal_id, "nonce": op["nonce"], "choice": value})
    atomic_write(output, dump_yaml(doc, header="pbem opening of a sealed choice: KEEP IT SECRET until you open it"))
    click.echo(f"wrote {output} (keep it secret)")
    click.echo("put this in your order file now:")
    click.echo(f"seal:\n  - {{id: {seal_id}, commitment: {op['commitment']}}}")


if __name__ == "__main__":  # pragma: no cover
    main()
