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


def _echo(text: str = "", *, err: bool = False, style: str | None = None, subsequent: str | None = None) -> None:
    """Print for a person: wrapped to the terminal's width (COLUMNS), never inside a command
    or an id, in colour on a terminal (not in a pipe, not with NO_COLOR)."""
    from .core.term import echo
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
    from .core.errors import ExitCode, Issue, PbemError
    there = [p for p in paths if p is not None and os.path.lexists(p)]
    if there:
        hint = ("choose another name, or add --force to replace it" if force_hint
                else "choose another name (pbem never replaces it)")
        raise PbemError([Issue("FILE-EXISTS", f"{p} already exists (your own file, not the campaign archive)"
                               if force_hint else f"{p} already exists", file=str(p), hint=hint) for p in there], ExitCode.IO)


def _write_own_file(path, data, *, force: bool) -> None:
    """Write one of the user's own output files: atomically, and over an existing file only
    with --force."""
    from .core.errors import PbemError
    from .core.files import atomic_write
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
    from .core.files import atomic_write
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
    from .core.errors import Issue, Severity
    from .core.signing import is_public_key
    p = Path(value)
    if not p.is_file() or (p.stat().st_size < 200 and is_public_key(p.read_text("ascii", "replace").strip().lower())):
        return      # a head or a public key given as 64 hex digits, or a file holding just them
    _print_issues([Issue("KEY-SECRET-FILE", f"{value} holds {what}; only its public part was used",
                         file=str(value), severity=Severity.WARNING,
                         hint="fine for your own file; if a player sent it to you, they must make a new one (`pbem key new` / `pbem chain new`) "
                              "and give only the public key or head it prints")])


def _next_commands(where, st: dict) -> list[str]:
    """The commands to run next on the campaign (or state) ``where`` in state ``st``, one per
    awaited player, with the file names the mails use."""
    from .core.kernel import awaited
    if st.get("result") or st.get("phase") == "end":
        if (st.get("dice") or {}).get("mode") == "chain":
            return [f"Next: the game is over; anyone can check the archive with `pbem replay {where}`"]
        return [f"Next: the game is over; the game master publishes private/dice.key and anyone runs `pbem replay {where}`"]
    keyed: set = set()
    if Path(where).is_dir():        # players with a signing key: their files are signed
        try:
            from .core.campaign import Campaign
            keyed = {p for p, info in (Campaign(where).manifest.get("players") or {}).items()
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
            key = f" --key {p}.key" if p in keyed else ""
            line = (f"Next: the {p} player: pbem chain reveal {p}.chain {where} -o reveal-{p}.yaml{key}   "
                    f"(then anyone: pbem adjudicate {where} --reveal reveal-ROLE.yaml ... with every player's)")
        out.append(line)
    return out


def _fail(e) -> None:
    _print_issues(e.issues)
    sys.exit(int(e.exit_code))


# ------------------------------------------------------------------ help from the games' own words
def _games() -> list:
    """Every game pbem knows (built-in, registered, plug-ins), for help texts: imported only
    when a help page is printed."""
    from .core.games import game, game_ids
    out = []
    for gid in game_ids():
        try:
            out.append(game(gid))
        except Exception:  # noqa: BLE001 - a broken plug-in must not break the help
            continue
    return out


def _roles_by_game() -> dict[str, list[str]]:
    """Game title -> the roles (player ids) of its scenarios, in scenario order."""
    from .core.games import game, scenarios
    out: dict[str, list[str]] = {}
    for sid, (gid, info) in sorted(scenarios().items()):
        roles = out.setdefault(game(gid).title, [])
        roles += [p for p in info.get("players") or [] if p not in roles]
    return out


def _each_game(words) -> str:
    """``Title: words; Title: words`` over the games that have some."""
    return "; ".join(f"{g.title}: {w}" for g in _games() for w in [words(g)] if w)


def _help_player_new() -> str:
    from .core.games import scenarios
    roles = "; ".join(f"{sid}: {', '.join(info.get('players') or [])}" for sid, (_, info) in sorted(scenarios().items()))
    return f"A player: role, name and optional e-mail. The roles of each scenario: {roles}. Repeat for each player."


def _help_option() -> str:
    words = _each_game(lambda g: "; ".join(f"{k} = {v}" for k, v in g.option_help.items()))
    return "Turn on an optional rule (" + (words or "none yet") + ")."


def _help_auto() -> str:
    return ("Start every player with the game's `auto` standing orders (" + _each_game(
        lambda g: ", ".join(f"{k}={v}" for k, v in g.auto_standing.items())) + "): the adjudication then stops only "
        "where a player asked to be asked.")


def _help_standing() -> str:
    keys = _each_game(lambda g: ", ".join(f"{k}={'|'.join(v)}" + (f" ({g.standing_help[k]})" if k in g.standing_help else "")
                                          for k, v in g.standing_keys.items()))
    return ("A player's standing order for the whole campaign (until that player changes it in an order file), "
            "ROLE:KEY=VALUE, e.g. western:advance=none or axis:losses=infantry-first; ROLE:auto sets all of ROLE's as "
            f"--auto-decisions does. Keys: {keys}. Repeat.")


def _help_player_template() -> str:
    return ("The player the template is for: a role of the campaign ("
            + "; ".join(f"{t}: {', '.join(r)}" for t, r in _roles_by_game().items()) + ").")


def _help_zone() -> str:
    return ("What is next to ZONE, what stands there and who controls it, instead of the summary ("
            + _each_game(lambda g: g.place_help) + "). Repeat for several.")


class _GameHelpOption(click.Option):
    """An option whose help is built from the games' declarations when it is printed."""

    def __init__(self, *args, help_fn=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._help_fn = help_fn

    def get_help_record(self, ctx):
        if self._help_fn is not None:
            self.help = self._help_fn()
        return super().get_help_record(ctx)


class _GameHelpCommand(click.Command):
    """A command whose help ends with each game's own words (``game_words(game)``), added when
    the help is printed."""

    def __init__(self, *args, game_words=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._game_words = game_words

    def format_help_text(self, ctx, formatter):
        if self._game_words is not None and not getattr(self, "_worded", False):
            extra = "\n\n".join(w for g in _games() for w in [self._game_words(g)] if w)
            import inspect
            self.help = inspect.cleandoc(self.help or "") + ("\n\n" + extra if extra else "")
            self._worded = True
        super().format_help_text(ctx, formatter)


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

    def format_help_text(self, ctx, formatter):
        if self.help and "{games}" in self.help:
            self.help = self.help.replace("{games}", ", ".join(g.title for g in _games()))
        super().format_help_text(ctx, formatter)

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
    """pbem: a play-by-email adjudicator for board wargames ({games}).

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
@click.option("--scenario", "-s", required=True, help="Scenario id, e.g. bfg-historical or blitzwar-1939 (see `pbem scenarios`).")
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
@click.option("--missing-orders-default", "missing_defaults", multiple=True, metavar="ROLE=no-orders",
              help="What happens when ROLE sends nothing by the deadline and the GM adjudicates with --missing-orders: no-orders (no moves, no attacks, no replacements; pending decisions take their `auto` default).")
@click.option("--gm", "gm_email", metavar="EMAIL", help="The game master's e-mail: the sender of the messages `adjudicate --mail` writes.")
@click.option("--player-key", "player_keys", multiple=True, metavar="ROLE=PUBLIC|FILE",
              help="A player's public signing key (the 64 hex digits `pbem key new` prints; your own key file works too, never ask a player for theirs: it is secret): every file of that player must then be signed (`pbem sign`). Repeat for each player.")
@click.option("--chain-protocol", type=click.IntRange(1, 2), default=2, hidden=True,
              help="Tools that re-make an archive of an earlier pbem: 1 = reveals given with the orders.")
@click.option("--no-manifest-copy", is_flag=True, hidden=True,
              help="Tools that re-make an archive of an earlier pbem: no steps/000/campaign.json.")
def new_cmd(folder, scenario, campaign_id, players, options, auto_decisions, standing_specs, title, dice_mode, commits, missing_defaults, gm_email, player_keys,
            chain_protocol, no_manifest_copy):
    """Start a campaign in FOLDER.

    Writes the initial state, the manifest and the dice key. The key's hash (commitment) is
    published in every state; the key itself is written to FOLDER/private/dice.key for the game
    master, who keeps it secret until the end or a dispute.
    """
    from .core.actions import new_campaign
    from .core.errors import ExitCode, Issue, PbemError
    from .core.signing import EMAIL_RE, player_spec_problems
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
    if gm_email is not None and not EMAIL_RE.match(gm_email):
        raise PbemError([Issue("USAGE-EMAIL", f"--gm {gm_email!r} is not one e-mail address",
                               hint="write one address, e.g. gm@example.org")], ExitCode.USAGE)
    for spec in player_keys:
        from .core.signing import public_from_spec
        role, _, val = spec.partition("=")
        if role.strip() not in pl or not val:
            raise PbemError([Issue("USAGE-KEY", f"--player-key {spec!r}: write ROLE=PUBLIC-KEY with ROLE one of " + ", ".join(pl))], ExitCode.USAGE)
        pl[role.strip()]["key"] = public_from_spec(val, role.strip())
        _warn_secret_given(val, f"the {role.strip()} player's SECRET signing key")
    if player_keys:
        from .core.signing import duplicate_key_problems
        dup = duplicate_key_problems({r: v.get("key") for r, v in pl.items()})
        if dup:
            raise PbemError(dup, ExitCode.INVALID)
    opts = {o: True for o in options}
    # unknown options are refused by the scenario itself (USAGE-OPTION, with its own list)
    standing = None
    per_player = None
    if auto_decisions or standing_specs:
        from .core.data import load_ruleset
        gmod = load_ruleset(scenario)[0]
        if auto_decisions:
            standing = dict(gmod.auto_standing)
        per_player = _standing_specs(standing_specs, pl, gmod)
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
                _warn_secret_given(val, f"the {role.strip()} player's SECRET hash chain (its seed gives every link)")
    elif commits:
        raise PbemError([Issue("USAGE-COMMIT", "--commit goes with --dice chain")], ExitCode.USAGE)
    camp = new_campaign(folder, scenario=scenario, campaign_id=campaign_id, players=pl, options=opts,
                        standing=standing, player_standing=per_player, title=title, chain_heads=heads,
                        missing_defaults=dict(s.split("=", 1) if "=" in s else (s, "") for s in missing_defaults) or None,
                        gm=gm_email, chain_protocol=chain_protocol, archive_manifest=not no_manifest_copy)
    path, st = camp.current()
    _echo(f"campaign {campaign_id} ({scenario}) created in {folder}")
    _echo(f"initial state: {path}")
    if heads is not None:
        _echo("dice: hash chains (no referee); heads: " + ", ".join(f"{p} {h}" for p, h in sorted(heads.items())))
    else:
        _echo(f"dice commitment: {st['dice']['commitment']}")
        _echo(f"dice key (game master only, keep it secret): {camp.key_path()}")
    for role, so in sorted((st.get("standing") or {}).items()):
        if so:
            _echo(f"standing orders of the {role} player: " + ", ".join(f"{k}={v}" for k, v in so.items()))
    if any((v or {}).get("email") for v in pl.values()):
        _echo(f"Next: pbem mail {folder} --step 0 -o outbox   (the start: the initial state to every player, by mail)")
    for line in _next_commands(folder, st):
        _echo(line)
    if any((info or {}).get("email") for info in (camp.manifest.get("players") or {}).values()):
        # by mail: the first message gives every player the initial state and what to send
        import shlex
        _echo(f"Mail: pbem mail {shlex.quote(str(folder))} --step 0 -o OUTBOX   (each player's first message: "
              "the initial state and the commands to write orders)")


def _standing_specs(specs, players: dict, gmod) -> dict[str, dict[str, str]]:
    """``--standing ROLE:KEY=VALUE`` (or ``ROLE:auto``) as {role: {key: value}}, checked
    against the game's standing orders."""
    from .core.errors import ExitCode, Issue, PbemError
    allowed = {k: list(v) for k, v in gmod.standing_keys.items()}
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
        for item in rest.split(","):
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


@main.command("scenarios")
def scenarios_cmd():
    """List the scenarios pbem can start."""
    from .core.games import scenarios
    for k, (g, info) in sorted(scenarios().items()):
        line = info["line"]
        _echo(f"{k:20} {line}", subsequent=" " * 21)


@main.group("orders")
def orders_grp():
    """Order files: templates."""


@orders_grp.command("template", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, dir_okay=True, path_type=Path))
@click.option("--player", "-p", required=True, cls=_GameHelpOption, help="The player the template is for: a role of the campaign.",
              help_fn=_help_player_template)
@click.option("--output", "-o", type=click.Path(path_type=Path), help="Write to this file instead of stdout (an existing file only with --force).")
@click.option("--force", is_flag=True, help="Replace the --output file if it exists (it is your own scratch file, not the archive).")
def template_cmd(state, player, output, force):
    """Write an order file to fill in.

    The file holds what awaits PLAYER in STATE (a state file or a campaign folder): the phases,
    the units with position and movement allowance, the legal choices as comments. When the
    adjudication stopped at a decision, it writes the answer file."""
    from .core.campaign import Campaign, load_state_file
    from .core.data import load_ruleset
    from .core.errors import ExitCode, Issue, PbemError
    if output and not force:
        _refuse_existing([output], force_hint=True)
    from .core.schema import schema_dir
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
    if output:
        import os
        ref = os.path.relpath(schema, Path(output).resolve().parent)
    else:
        ref = schema.as_uri()
    text = g.order_template(rs, st, player, schema_ref=ref, state_file=Path(spath).name)
    if output:
        _write_own_file(output, text, force=force)
        _echo(f"wrote {output}")
    else:
        from .core.term import term_width, wrap_comment_lines
        click.echo(wrap_comment_lines(text, term_width()), nl=False)


@main.command("validate", epilog=EXIT_HELP)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.argument("orders", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
@click.option("--any-sender", is_flag=True, help="An e-mail whose From is not the e-mail campaign.yaml gives its player is a warning, not the error MAIL-FROM.")
def validate_cmd(state, orders, as_json, any_sender):
    """Check order files; writes nothing.

    Checks ORDERS against STATE (a state file or a campaign folder) and reports every problem
    at once: file:line, the order, the rule section, a hint. Writes nothing.

    An ORDERS file may be an e-mail (.eml, or an mbox of several messages): the order file is
    taken from its .yaml attachment or its plain-text body."""
    import json
    from .core.actions import validate_files
    from .core.campaign import Campaign
    from .core.errors import exit_code_for
    spath = state
    camp = None
    if Path(state).is_dir():
        camp = Campaign(state)
        spath, _ = camp.current()
    issues = validate_files(spath, list(orders), campaign=state if camp is not None else None)
    issues += _sender_issues(_campaign_of(state), orders, any_sender)
    if camp is not None:
        issues += _signature_warnings(camp, orders)
        st = camp.current()[1]
        if (st.get("dice") or {}).get("request"):
            from .core.errors import Issue
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


def _signature_warnings(camp, orders) -> list:
    """`pbem validate CAMPAIGN FILE`: the signature problems adjudicate will refuse, early (an
    order file of a player with a key in campaign.yaml must be signed by that player)."""
    from .core.files import read_bytes_limited
    from .core.signing import campaign_keys, check
    from .core.yamlio import load_yaml
    from .core.errors import PbemError
    from .core.mail import expand
    keys = campaign_keys(camp.manifest)
    out: list = []
    if not keys:
        return out
    # an e-mail is checked as the order files it carries (its own problems: validate_files)
    for f in expand(list(orders), []):
        try:
            name, raw = (f if isinstance(f, tuple) else (str(f), read_bytes_limited(Path(f), 1_000_000)))
            doc = load_yaml(raw, name).data
        except PbemError:
            continue   # validate_files said what is wrong with it
        if isinstance(doc, dict):
            out += check(raw, name, doc.get("player"), keys, "order file")[0]
    return out


@main.command("adjudicate", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("orders", nargs=-1, type=click.Path(path_type=Path))
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="Dice key file (default CAMPAIGN/private/dice.key).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--missing-orders", is_flag=True, help="The awaited player sent no orders: apply the default (nothing happens this phase), reported as such.")
@click.option("--width", type=click.IntRange(20), default=None,
              help="Width of the printed report (default: COLUMNS, else the terminal's width, else 100). The archived report.txt is always 100 wide.")
@click.option("--reveal", "reveals", multiple=True, type=click.Path(path_type=Path),
              help="Chain-mode campaigns: every player's reveal for these orders (pbem chain reveal). Repeat.")
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
    from .core.actions import adjudicate_campaign
    from .core.report import render, report_json
    from .core.term import DEFAULT_WIDTH, console
    if mail_dir:
        from .core.mail import outbox_targets
        outbox_targets(mail_dir, campaign, mail_from)  # FILE-EXISTS, MAIL-ADDRESS before anything is adjudicated
    senders = _sender_issues(campaign, list(orders) + list(reveals), any_sender)
    if any(i.is_error for i in senders):
        # refused before adjudicating, nothing written; with every other problem of the files
        from .core.actions import by_line, validate_files
        from .core.campaign import Campaign
        from .core.errors import exit_code_for
        camp = Campaign(campaign)
        issues = senders + (by_line(validate_files(camp.current()[0], list(orders))) if orders else [])
        issues += _signature_warnings(camp, list(orders))     # a signature problem too, as validate says it
        _print_issues(issues, err=True)
        errors = sum(1 for i in issues if i.is_error)
        click.echo(f"REFUSED: {errors} error(s), {len(issues) - errors} warning(s); nothing written", err=True)
        sys.exit(int(exit_code_for(issues)))
    _print_issues(senders, err=True)
    res = adjudicate_campaign(campaign, list(orders), key_path=key_path, missing_orders=missing_orders, reveal_paths=list(reveals))
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


def _campaign_of(state) -> Path | None:
    """The campaign folder of STATE: itself, or CAMPAIGN for a state file CAMPAIGN/steps/NNN/x.yaml."""
    p = Path(state)
    if p.is_dir():
        return p
    up = p.absolute().parent.parent.parent
    if p.absolute().parent.parent.name == "steps" and (up / "campaign.yaml").is_file():
        return up
    return None


def _sender_issues(campaign, orders, any_sender: bool) -> list:
    """MAIL-FROM for the e-mails among ORDERS not sent from their player's address in the
    campaign's campaign.yaml (none without a campaign, or without e-mails among ORDERS)."""
    if campaign is None:
        return []
    from .core.mail import MAIL_SUFFIXES, check_senders, read_mail
    from .core.errors import PbemError
    mails = []
    for o in orders:
        try:
            if Path(o).suffix.lower() in MAIL_SUFFIXES or read_mail(Path(o)) is not None:
                mails.append(o)
        except PbemError:
            continue
    if not mails:
        return []
    from .core.campaign import Campaign
    return check_senders(mails, Campaign(campaign).manifest, any_sender=any_sender)


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
    from .core.errors import ExitCode, Issue, PbemError
    from .core.mail import write_step_mail
    step = int(Path(res.step_dir).name)
    again = _mail_again(campaign, step, mail_dir, mail_from, svg)
    try:
        written, warnings, notes = write_step_mail(campaign, res, mail_dir, sender=mail_from, svg=svg)
    except PbemError as e:
        _print_issues(e.issues)
        why, code = "see above", e.exit_code
    except Exception as e:  # noqa: BLE001 - a bug in composing must not hide that the step is archived
        import traceback
        if _debug or os.environ.get("PBEM_DEBUG", "") not in ("", "0"):
            traceback.print_exception(type(e), e, e.__traceback__)
        why, code = f"internal error {type(e).__name__}: {e}; " + BUG_HINT.format(version=__version__), ExitCode.INTERNAL
    else:
        for path, m in written:
            _echo(f"mail: wrote {path} (to {m.message['To'] or 'nobody: add the recipient'})", err=err)
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
@click.option("--to", "players", multiple=True, metavar="PLAYER",
              help="Only the message to this player (a role, e.g. ussr). Repeat. Default: every player.")
@click.option("--mail-from", metavar="ADDRESS", help="The From (default: the game master's e-mail in campaign.yaml, else pbem@localhost); give the one `adjudicate --mail-from` had for the same bytes.")
@click.option("--svg", is_flag=True, help="Also attach the whole map as a zipped SVG (as `adjudicate --mail-svg`).")
@click.option("--force", is_flag=True, help="Replace existing .eml files in the folder (never a file of the archive).")
def mail_cmd(campaign, step, out_dir, players, mail_from, svg, force):
    """Write the e-mails of an archived step again.

    Writes into the folder, per player, the ready-to-send message of step N (default the last)
    of CAMPAIGN, byte for byte what `pbem adjudicate --mail` wrote for it (with the same
    --mail-from and --svg), as long as the archive and the players in campaign.yaml are
    unchanged: for a message lost, or a player whose e-mail was added to campaign.yaml since.
    Reads only the archive; writes only the .eml files (an existing one only with --force)."""
    from .core.mail import check_outbox, step_messages, write_messages
    check_outbox(out_dir, campaign)
    n, msgs, warnings, notes = step_messages(campaign, step, sender=mail_from, svg=svg,
                                             players=list(players) or None)
    written = write_messages(msgs, out_dir, force=force)
    for path, m in written:
        _echo(f"mail: wrote {path} (step {n:03d}, to {m.message['To'] or 'nobody: add the recipient'})")
    for note in notes:
        _echo(f"mail: {note}")
    _print_issues(warnings)


@main.command("show", epilog=EXIT_HELP, cls=_GameHelpCommand, game_words=lambda g: g.show_help)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (turn, phase, awaiting, pending, result, and the game's summary of its position).")
@click.option("--units/--no-units", default=True, help="List the units on the map.")
@click.option("--zone", "zones", multiple=True, metavar="ZONE", cls=_GameHelpOption,
              help="What is next to ZONE, what stands there and who controls it, instead of the summary. Repeat.",
              help_fn=_help_zone)
def show_cmd(state, as_json, units, zones):
    """Summarise a state: whose move, units, points.

    STATE is a state file or a campaign folder: turn, phase, whose move, pending decisions,
    standing orders, and what each game shows of its position:"""
    import json
    from .core.campaign import Campaign, load_state_file
    from .core.data import load_ruleset
    spath = state
    if Path(state).is_dir():
        spath, st = Campaign(state).current()
    else:
        st, _ = load_state_file(state)
    g, rs = load_ruleset(st["scenario"])
    click.get_current_context().find_root().meta["pbem.term_styles"] = getattr(g, "term_styles", None)
    if zones:
        _show_zones(g, rs, st, zones)
        return
    from .core.kernel import awaited
    summ = g.summary(rs, st)
    if as_json:
        click.echo(json.dumps({"turn": st["turn"], "phase": st["phase"], "awaiting": awaited(st),
                               "received": sorted(st.get("received") or {}),
                               "pending": st["pending"], "result": st["result"], **summ}, indent=1, ensure_ascii=False))
        return
    _echo(f"{g.title} - campaign {st['campaign']} ({st['scenario']}) - {Path(spath).name}")
    _echo(f"turn {st['turn']} ({rs.turn_date(st['turn'])}), phase {st['phase']}, step {st['step']}")
    if st.get("result"):
        r = st["result"]
        won = " and ".join(r.get("winners") or [str(r["winner"])])
        _echo(style="bold yellow", text=f"GAME OVER: {'draw' if r['draw'] else won + (' win' if len(r.get('winners') or ()) > 1 else ' wins')} - {r['reason']}")
    for a in awaited(st):
        _echo(f"awaiting: {a['for']} from the {a['player']} player ({st['players'][a['player']]})")
    if (st.get("dice") or {}).get("request"):
        _echo(f"the files archived in step {st['step']:03d} wait for link {st['dice'].get('used', 0) + 1} of each awaited player's chain "
              f"(pbem chain reveal ROLE.chain CAMPAIGN -o reveal-ROLE.yaml); nothing is rolled until every link is in")
    for p in sorted(st.get("received") or {}):
        _echo(f"received: orders of the {p} player (step {st['received'][p]['step']}); the phase is carried out when every awaited player's orders are in")
    for d in st.get("pending", []):
        from .core.errors import choice_text
        opts = f"; options: {' | '.join(choice_text(o) for o in d['options'])}" if "options" in d else ""
        _echo(f"pending decision {d['id']} ({d['player']}): {d['prompt']}{opts}", style="bold yellow")
    # lines break only between unit entries, never inside one ("eg-cl-39pz 2-3-4@1234", see core.term)
    for line in g.summary_lines(rs, st, units=units):
        _echo(line)
    for role, so in sorted((st.get("standing") or {}).items()):
        if so:   # in force until the player changes them: say so, as the decisions they answer are silent
            _echo(f"standing orders of the {role} player: " + ", ".join(f"{k}={v}" for k, v in so.items()))
    for line in _next_commands(state, st):
        _echo(line)


def _show_zones(g, rs, st, zones) -> None:
    """`pbem show STATE --zone Z`: the game's neighbour lines of each zone (the game says them)."""
    from .core.errors import ExitCode, Issue, PbemError, did_you_mean
    bad = []
    out = []
    for z in zones:
        lines = g.zone_lines(rs, st, z)
        if lines is None:
            raise PbemError([Issue("USAGE-ZONE", f"{g.title} does not answer --zone yet")], ExitCode.USAGE)
        if not lines:
            bad.append(Issue("USAGE-ZONE", f"no zone {z!r} on the {g.title} map{did_you_mean(z, g.zone_ids(rs))}", text=z))
        out.append(lines)
    if bad:
        raise PbemError(bad, ExitCode.USAGE)
    for lines in out:
        for line in lines:
            _echo(line, subsequent="    ")


def _map_inputs(state_arg, *, report_path=None, last: bool = False, step: int | None = None):
    """What ``pbem map`` draws: ``(state path, state, report or None, warnings)``. STATE is a
    state file or a campaign folder (its current state); ``report_path`` a report.json;
    ``last`` the report of the step that produced the state (the report.json beside it);
    ``step`` the state a campaign's step N made, with that step marked."""
    import json
    from .core.campaign import Campaign, load_state_file
    from .core.errors import ExitCode, Issue, PbemError, Severity
    from .core.files import read_bytes_limited
    if report_path and last:
        raise PbemError([Issue("USAGE-MAP", "give --report FILE or --last, not both")], ExitCode.USAGE)
    state_arg = Path(state_arg)
    if step is not None:
        if report_path or not state_arg.is_dir():
            raise PbemError([Issue("USAGE-MAP", "--step N needs a campaign folder, and no --report")], ExitCode.USAGE)
        camp = Campaign(state_arg)
        dirs = {int(p.name): p for p in camp.step_dirs()}
        if step not in dirs:
            raise PbemError([Issue("MAP-NO-STEP", f"{state_arg} has no step {step}" + (
                f" (its steps are 0 to {max(dirs)})" if dirs else ""), file=str(state_arg))], ExitCode.USAGE)
        spath = camp.state_path(dirs[step])
        state, _ = load_state_file(spath)
        last = True
    elif state_arg.is_dir():
        spath, state = Campaign(state_arg).current()
    else:
        spath = state_arg
        state, _ = load_state_file(state_arg)
    warnings: list = []
    report = None
    if last:
        cand = Path(spath).parent / "report.json"
        if cand.is_file():
            report_path = cand
        else:
            warnings.append(Issue("MAP-NO-REPORT", f"{Path(spath).name} has no report beside it (an initial state): "
                                  "nothing to mark", severity=Severity.WARNING))
    if report_path:
        raw = read_bytes_limited(Path(report_path), 50_000_000)
        try:
            report = json.loads(raw)
            if not isinstance(report, dict) or not isinstance(report.get("events"), list):
                raise ValueError("no list of events")
        except ValueError as e:
            raise PbemError([Issue("FILE-NOT-REPORT", f"{report_path} is not a pbem report.json ({e})",
                                   file=str(report_path), hint="give the report.json of a step (steps/NNN/report.json)")],
                            ExitCode.INVALID) from None
        out = report.get("output") or {}
        if report.get("campaign") not in (None, state.get("campaign")) or out.get("hash") not in (None, state.get("hash")):
            warnings.append(Issue("MAP-REPORT-OTHER-STATE",
                                  f"the report (step {report.get('step')}) did not produce this state: its marks "
                                  "may not match the counters", file=str(report_path), severity=Severity.WARNING,
                                  hint="--last marks the step that produced the state"))
    return spath, state, report, warnings


def _map_targets(output, png: bool):
    """(svg path or None, png path or None) for ``-o OUTPUT`` and ``--png``: a name ending in
    ``.png`` is a PNG only; otherwise the SVG, and with ``--png`` the PNG beside it."""
    output = Path(output)
    if output.suffix.lower() == ".png":
        return None, output
    return output, (output.with_suffix(".png") if png else None)


@main.command("map", epilog=EXIT_HELP, cls=_GameHelpCommand, game_words=lambda g: g.map_help)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The SVG file to write (an existing file only with --force). A name ending in .png writes only a PNG.")
@click.option("--report", "report_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Mark the moves, retreats, advances and combats of this report.json.")
@click.option("--last", is_flag=True,
              help="Mark those of the step that produced STATE (for a campaign folder: its latest step).")
@click.option("--step", "step", type=click.IntRange(0), default=None,
              help="For a campaign folder: draw the state step N made, with that step marked (as --last).")
@click.option("--png", is_flag=True,
              help="Also write a PNG beside the SVG (same name, .png), through cairosvg, rsvg-convert or inkscape.")
@click.option("--scale", type=click.FloatRange(0.25, 8), default=1.0, show_default=True,
              help="Size of the picture (1: the game's own size, e.g. Battle for Germany's hexes 62 px wide).")
@click.option("--force", is_flag=True, help="Replace the picture files if they exist (your own files, not the archive).")
def map_cmd(state, output, report_path, last, step, png, scale, force):
    """Draw a state as an SVG (or PNG) map.

    Draws STATE (a state file or a campaign folder), as each game draws its map:"""
    from .core.mapdraw import draw_state
    from .core.png import svg_to_png
    _, st, report, warnings = _map_inputs(state, report_path=report_path, last=last, step=step)
    svg_path, png_path = _map_targets(output, png)
    if not force:
        _refuse_existing([svg_path, png_path], force_hint=True)
    _print_issues(warnings)
    text = draw_state(st, report, scale=scale)
    data = svg_to_png(text) if png_path else None
    if svg_path:
        _write_own_file(svg_path, text, force=force)
        _echo(f"wrote {svg_path}")
    if png_path:
        _write_own_file(png_path, data, force=force)
        _echo(f"wrote {png_path}")


@main.command("replay", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--key", "key_path", type=click.Path(path_type=Path), help="The revealed dice key (default CAMPAIGN/private/dice.key).")
@click.option("--reports", is_flag=True, help="Print the report of every step as it is re-adjudicated.")
def replay_cmd(campaign, key_path, reports):
    """Re-adjudicate and verify the whole archive.

    Replays the archive from the first state with the revealed key: every state, report and die
    must come out byte-identical. On a mismatch, names the step, turn, phase, file and first
    differing field."""
    import json
    from .core.actions import replay_campaign
    from .core.errors import exit_code_for
    res = replay_campaign(campaign, key_path=key_path)
    if reports and res.texts:
        # the verified reports, laid out for this terminal (the archived report.txt is 100 wide)
        from .core.campaign import Campaign
        from .core.data import load_ruleset
        from .core.report import render
        from .core.term import DEFAULT_WIDTH, console
        camp = Campaign(campaign)
        dirs = camp.step_dirs()
        g, rs = load_ruleset(camp.manifest["scenario"])
        con = console(default_width=DEFAULT_WIDTH)
    for i, line in enumerate(res.lines):
        if reports and 0 < i <= len(res.texts):
            render(json.loads(camp.inside(dirs[i] / "report.json").read_text("utf-8")), g, rs, con)
        _echo(line)
    for note in res.notes:
        _echo(f"not checked: {note}")
    _print_issues(res.issues)
    errors = [i for i in res.issues if i.is_error]
    from .core.archive import head as archive_head
    from .core.campaign import Campaign as _C
    h = archive_head(campaign, _C(campaign).manifest["id"], res.steps)
    if h is not None:
        _echo(f"archive head after step {h[0]:03d}: {h[1]}" + ("" if errors else " (compare it with the last mail: pbem head CAMPAIGN --check MAIL)"))
    if errors:
        _echo(f"REPLAY FAILED after {res.steps} identical step(s)")
    else:
        _echo(f"REPLAY OK: {res.steps} step(s) byte-identical, {res.rolls} roll(s) recomputed")
    sys.exit(int(exit_code_for(res.issues)))


@main.command("head", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--check", "check", metavar="MAIL|HEX",
              help="Compare with the head a mail of pbem gave (the .eml, an mbox or the body as text), or with a head you kept (64 hex digits; with --step).")
@click.option("--step", type=int, help="The step the --check HEX is the head after (default: the archive's last step).")
def head_cmd(campaign, check, step):
    """The archive's head: one hash over all steps.

    Every mail of `adjudicate --mail` says `Archive head after step NNN: ...`. Two archives
    with the same head after step N hold the same files in steps 000..N, byte for byte: compare
    the head of an archive you are shown with the one your mail gave, to tell whether it was
    cut short or rewritten."""
    from .core.archive import HEAD_LINE, compare, heads
    from .core.campaign import Campaign
    from .core.errors import Issue, PbemError
    camp = Campaign(campaign)
    hs = heads(camp.root, camp.manifest["id"])
    if not hs:
        raise PbemError([Issue("FILE-ARCHIVE", f"{campaign} has no steps")])
    if check is None:
        _echo(f"archive head after step {hs[-1][0]:03d}: {hs[-1][1]}")
        return
    wanted: list[tuple[int, str]] = []
    v = check.strip().lower()
    if len(v) == 64 and all(c in "0123456789abcdef" for c in v):
        wanted = [(hs[-1][0] if step is None else step, v)]
    else:
        from .core.files import read_bytes_limited
        raw = read_bytes_limited(Path(check), 50_000_000)
        import email
        from email import policy
        texts = [raw.decode("utf-8", "replace")]
        try:
            msg = email.message_from_bytes(raw, policy=policy.default)
            body = msg.get_body(preferencelist=("plain",))
            if body is not None:
                texts.append(body.get_content())
        except Exception:  # noqa: BLE001 - not a mail: the text itself is searched
            pass
        for t in texts:
            wanted += [(int(m.group(1)), m.group(2)) for m in HEAD_LINE.finditer(t)]
        wanted = sorted(set(wanted))
        if not wanted:
            raise PbemError([Issue("HEAD-NONE", f"{check} names no archive head (`Archive head after step NNN: ...`)",
                                   file=str(check), hint="give the mail of pbem adjudicate --mail, or the head itself")])
    bad = []
    for n, value in wanted:
        ok, why = compare(camp.root, camp.manifest["id"], n, value)
        _echo(("MATCH: " if ok else "DIFFERS: ") + why)
        if not ok:
            bad.append(Issue("HEAD-DIFFERS", why, file=str(campaign)))
    if bad:
        raise PbemError(bad)


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
@click.option("--orders", "orders_digest", help="Raw mode: the orders digest the roll's phase is keyed on (the report's key_inputs: the sha256, or receipt, of the order file).")
@click.option("--state", "state_hash", help="Raw mode: hash of the state at the start of the phase.")
@click.option("--sides", default=6, show_default=True, help="Raw mode: number of sides of the die (as logged with the roll).")
def dice_verify_cmd(args, key_path, key_hex, game, campaign_id, step, orders_digest, state_hash, sides):
    """Recompute one labelled roll.

    With CAMPAIGN and LABEL (as printed in a report) the inputs
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
            _echo(f"dice key from the revealed chain links: {key}")
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
        _echo(f"label:     {label}")
        _echo(f"inputs:    step {inputs['step']}, orders sha256 {inputs['orders']}, state {inputs['state']}")
        _echo(f"phase key: {r['phase_key']}")
        _echo(f"recomputed {r['value']}, logged {logged['value']}: {'MATCH' if r['value'] == logged['value'] else 'MISMATCH'}")
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
    _echo(f"phase key: {r['phase_key']}")
    _echo(f"{label} = {r['value']}")


@main.group("data")
def data_grp():
    """Component data (rules/ and scenarios/)."""


@data_grp.command("check", epilog=EXIT_HELP)
@click.option("--scenario", help="Only this scenario.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list the provisional values, only count them.")
@click.option("--json", "as_json", is_flag=True, help="Print the problems and the provisional values as JSON.")
def data_check_cmd(scenario, quiet, as_json):
    """Check the component data files.

    Checks every data file against its schema and for consistency (adjacency, set-up on the map,
    stacking, complete tables), and lists every PROVISIONAL value with its file, so an owner of
    the game can type in the published one. Fails on an incomplete or inconsistent set."""
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
                    _echo(f"{cur}:")
                _echo(f"  provisional: {p['item']}" + (f" - {p['note']}" if p.get("note") else ""))
        _print_issues(issues, err=False)
        errors = sum(1 for i in issues if i.is_error)
        _echo(f"{len(prov)} provisional value(s); {errors} error(s)" + ("" if errors else ": data set complete and consistent"))
    sys.exit(int(exit_code_for(issues)))


@main.group("chain")
def chain_grp():
    """Dice without a referee: hash chains.

    Each player makes a secret chain (`pbem chain new`) and gives only its head to `pbem new --dice
    chain --commit ROLE=HEAD`. Where orders (or an answer) roll a die, `pbem adjudicate`
    archives them and asks every player for the next link of their chain; each reveals it for
    those archived orders (`pbem chain reveal`), and `pbem adjudicate --reveal ...` checks each
    link against the last and derives the dice from all of them, so nobody can preview or bias
    a die.
    """


@chain_grp.command("new", epilog=EXIT_HELP)
@click.option("--player", "-p", required=True, help="Your role in the campaign, e.g. soviet or axis.")
@click.option("--length", default=1000, show_default=True, help="Number of links: one is spent each time pbem asks for links (a step whose files roll dice, again after a decision in mid-phase).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="Your SECRET chain file (never overwritten).")
def chain_new_cmd(player, length, output):
    """Make your secret hash chain.

    Prints its head: the commitment to give the others."""
    from .core.chain import CHAIN_SCHEMA, new_chain
    from .core.yamlio import dump_yaml
    _refuse_existing([output], force_hint=False)   # your secret chain: replacing it loses the chain you committed to
    seed, head = new_chain(length)
    doc = {"schema": CHAIN_SCHEMA, "player": player, "length": length, "seed": seed, "head": head}
    _write_secret(output, dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"))
    _echo(f"wrote {output} (secret)")
    _echo(f"head (publish it): {head}")


@chain_grp.command("reveal", epilog=EXIT_HELP)
@click.argument("chain_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("state", metavar="CAMPAIGN|MAIL", type=click.Path(exists=True, path_type=Path))
@click.option("--orders", "orders_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Only for campaigns started before links were asked for archived orders: the order file this reveal answers (its sha256 is bound into the reveal).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="The reveal file to send (an existing file only with --force).")
@click.option("--force", is_flag=True, help="Replace the reveal file if it exists (your own copy; the same inputs give the same reveal).")
@click.option("--key", "key_file", envvar="PBEM_KEY", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your signing key (`pbem key new`; env PBEM_KEY): the reveal is signed.")
def chain_reveal_cmd(chain_file, state, orders_file, output, force, key_file):
    """Reveal your next link for archived orders.

    CAMPAIGN|MAIL is your own copy of the campaign, or the mail (.eml) of `pbem adjudicate --mail`
    that asks for your link: when a step archived orders whose dice need links (the report says so,
    the state awaits `links`), this writes your next link bound to those orders and to the
    archive's head (the mail's `Archive head after step NNN`). A link is revealed once: your chain file's `.revealed`
    record refuses to reveal the same link for anything else."""
    from .core.campaign import Campaign, load_state_file
    from .core.canon import sha256_hex
    from .core.chain import load_chain_file, make_reveal
    from .core.errors import ExitCode, Issue, PbemError
    from .core.files import read_bytes_limited
    if not force:
        _refuse_existing([output], force_hint=True)
    camp = None
    mail_head = None
    from_mail = False
    if Path(state).is_dir():
        camp = Campaign(state)
        _, st = camp.current()
    else:
        from .core.mail import read_mail, state_of_mail
        from_mail = read_mail(Path(state)) is not None
        if from_mail:
            st, mail_head = state_of_mail(Path(state))
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
    if d.get("request") or d.get("protocol", 1) >= 2:
        if not d.get("request"):
            raise PbemError([Issue("DICE-REVEAL-EARLY", "nothing awaits your link: pbem asks for links only after it archived orders whose dice need them",
                                   hint="reveal when the report (or `pbem show`) says the step waits for every player's chain link")], ExitCode.USAGE)
        if camp is None and mail_head is None:
            why = ("the message names no archive head after this step" if from_mail
                   else "not a state file")
            raise PbemError([Issue("USAGE-CAMPAIGN", f"give your copy of the campaign folder or the mail of `pbem adjudicate --mail` that asks for your link, {why}: the reveal names the archive's head",
                                   hint=f"pbem chain reveal {chain_file} CAMPAIGN|MAIL -o {output}")], ExitCode.USAGE)
        if camp is not None:
            from .core.archive import head as archive_head
            head = archive_head(camp.root, camp.manifest["id"], st["step"])[1]
        else:
            head = mail_head
        digest = d["request"]["orders"]
        if doc["player"] not in (d["request"].get("players") or d["heads"]):
            raise PbemError([Issue("DICE-REVEAL-UNNEEDED", f"your link is not asked for: these dice are keyed by the links of {', '.join(d['request']['players'])} (the players present)",
                                   hint="keep it for the next request")], ExitCode.USAGE)
        _spend_link(chain_file, d["used"] + 1, digest, head)
        _write_own_file(output, _sign_if(make_reveal(doc, st, digest, head), key_file, doc["player"]), force=force)
        _echo(f"wrote {output}: link {d['used'] + 1} of the {doc['player']} player for the files archived in step {st['step']:03d} (archive head {head[:16]}...)")
        return
    if orders_file is None:
        raise PbemError([Issue("USAGE-ORDERS", "this campaign (started before links were asked for archived orders) needs --orders FILE")], ExitCode.USAGE)
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
    _write_own_file(output, _sign_if(make_reveal(doc, st, digest), key_file, doc["player"]), force=force)
    _echo(f"wrote {output}: link {d['used'] + 1} of the {doc['player']} player for orders {digest[:16]}...")


def _spend_link(chain_file: Path, index: int, digest: str, head: str) -> None:
    """Record, next to the secret chain file, that link ``index`` is revealed for ``digest`` in
    the archive with ``head``; refuse to reveal it for anything else (DICE-LINK-SPENT): a link
    once shown keys one set of archived orders only."""
    from .core.errors import Issue, PbemError
    rec = Path(str(chain_file) + ".revealed")
    entry = f"{index} {digest} {head}"
    lines = rec.read_text("ascii").splitlines() if rec.is_file() else []
    for ln in lines:
        parts = ln.split()
        if parts and parts[0] == str(index):
            if ln.strip() == entry:
                return
            raise PbemError([Issue("DICE-LINK-SPENT", f"link {index} of your chain was revealed already for other orders or another archive ({parts[1][:16]}..., head {parts[2][:16]}...): it is never revealed twice",
                                   file=str(rec), hint="the archive you were shown differs from the one you revealed for: compare heads with `pbem head CAMPAIGN --check`")])
    with open(rec, "a", encoding="ascii") as f:
        f.write(entry + "\n")
    os.chmod(rec, 0o600)


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

    from .core.campaign import Campaign, load_state_file
    from .core.errors import ExitCode, Issue, PbemError, choice_text
    from .core.sealed import new_opening
    from .core.yamlio import dump_yaml, load_yaml
    st = Campaign(state).current()[1] if Path(state).is_dir() else load_state_file(state)[0]
    if player not in st["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this game", hint=", ".join(st["players"]))], ExitCode.USAGE)
    if seal_id in (st.get("sealed") or {}):
        raise PbemError([Issue("SEAL-EXISTS", f"a choice sealed as {seal_id!r} exists already; it can never be changed")])
    value = load_yaml(choice.encode("utf-8"), "--choice").data
    # the game may refuse a choice that can never be legal (e.g. a BlitzWAR card that is not free, 10.1)
    from .core.data import load_ruleset
    game, rs = load_ruleset(st["scenario"])
    why = game.check_sealed(rs, st, player, seal_id, value)
    if why:
        # both, the id and the choice: the game's reason may be about either (a mistyped id)
        raise PbemError([Issue("SEAL-CHOICE", f"{seal_id}: {why}", text=f"--id {seal_id} --choice {choice_text(value)}")],
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


@main.group("key")
def key_grp():
    """Signing keys: who sent a file.

    Each player makes a key pair once (`pbem key new`) and gives the public key to the campaign
    (`pbem new --player-key ROLE=PUBLIC`, or later `pbem key add`). Then every order, answer and
    reveal file of that player must be signed (`pbem sign FILE --key ROLE.key`): a file signed by
    another player, changed after signing or cut short is refused, on arrival and by replay."""


@key_grp.command("new", epilog=EXIT_HELP)
@click.option("--player", "-p", required=True, help="Your role, e.g. soviet.")
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Your SECRET key file (mode 0600, never overwritten).")
def key_new_cmd(player, output):
    """Make your signing key pair.

    Writes the private key to OUTPUT (readable by you only) and prints the public key: give it
    to the game master (or to `pbem new --player-key ROLE=PUBLIC`)."""
    from .core.signing import key_file_text, new_key_pair
    _refuse_existing([output], force_hint=False)   # replacing a key loses the one the campaign knows
    priv, pub = new_key_pair()
    _write_secret(output, key_file_text(player, priv))
    _echo(f"wrote {output} (secret: mode 0600; keep it on your own machine)")
    _echo(f"public key of the {player} player (publish it): {pub}")


@key_grp.command("add", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("player")
@click.argument("public")
def key_add_cmd(campaign, player, public):
    """Add a player's public key to a campaign.

    PUBLIC is the key `pbem key new` printed (64 hex digits) or that player's key file. From
    now on every file of PLAYER must be signed; a key once set is never replaced."""
    from .core.campaign import Campaign
    from .core.errors import ExitCode, Issue, PbemError
    from .core.signing import public_from_spec
    camp = Campaign(campaign)
    if player not in camp.manifest["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this campaign", hint=", ".join(camp.manifest["players"]))], ExitCode.USAGE)
    pub = public_from_spec(public, player)
    _warn_secret_given(public, f"the {player} player's SECRET signing key")
    old = camp.manifest["players"][player].get("key")
    from .core.signing import duplicate_key_problems
    others = {p: (v or {}).get("key") for p, v in camp.manifest["players"].items() if p != player}
    dup = duplicate_key_problems({**others, player: pub})
    if dup:
        raise PbemError(dup, ExitCode.INVALID)
    if old == pub:
        _echo(f"the {player} player's key is already {pub}")
        return
    if old:
        raise PbemError([Issue("KEY-EXISTS", f"the {player} player already has the key {old}; a key is never replaced",
                               hint="a lost key: start a new campaign from the current state, or agree with every player")])
    camp.set_player_key(player, pub)
    _echo(f"added the {player} player's public key {pub} to {campaign}/campaign.yaml: their files must be signed from now on")


@main.command("sign", epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_file", envvar="PBEM_KEY", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your key file from `pbem key new` (env PBEM_KEY).")
def sign_cmd(files, key_file):
    """Sign your order, answer or reveal files.

    Appends the line `# pbem-signature: ed25519 ROLE ...` (a YAML comment; an earlier signature
    line is replaced). Sign the final file: any change afterwards, even a cut, is refused. A
    file that names another player than the key's is refused."""
    from .core.errors import Issue, PbemError
    from .core.files import read_bytes_limited
    from .core.signing import load_key_file, sign
    from .core.yamlio import load_yaml
    key = load_key_file(key_file)
    for f in files:
        raw = read_bytes_limited(f, 1_000_000)
        doc = load_yaml(raw, str(f)).data
        who = doc.get("player") if isinstance(doc, dict) else None
        if who != key["player"]:
            raise PbemError([Issue("SIG-WRONG-PLAYER", f"{f} says player {who!r}; the key is the {key['player']} player's",
                                   file=str(f), hint="sign only your own files")])
        _write_own_file(f, sign(raw, key["player"], key["private"]), force=True)
        _echo(f"signed {f} as the {key['player']} player")


def _sign_if(text: str, key_file, player: str) -> bytes:
    """``text`` signed with ``key_file`` (when given) as ``player``'s."""
    data = text.encode("utf-8")
    if key_file is None:
        return data
    from .core.errors import Issue, PbemError
    from .core.signing import load_key_file, sign
    key = load_key_file(key_file)
    if key["player"] != player:
        raise PbemError([Issue("SIG-WRONG-PLAYER", f"the key is the {key['player']} player's, the file the {player} player's",
                               hint="sign only your own files")])
    return sign(data, player, key["private"])


def _set_short_help(cmd: click.Command) -> None:
    """The listing in `pbem --help` shows each command's first line whole (click would cut it
    with "..." to fit a narrow terminal; a listed line wraps instead)."""
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            if sub.short_help is None and sub.help:
                sub.short_help = sub.help.strip().split("\n\n")[0].replace("\n", " ").strip()
            _set_short_help(sub)


_set_short_help(main)


if __name__ == "__main__":  # pragma: no cover
    main()
