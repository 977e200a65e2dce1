"""The command-line help built from every game's declarations (pbem.core.game.Game: title,
roles, options, standing keys and their help, places, what `show` and `map` give), read only
when a help page is printed."""
from __future__ import annotations

from collections.abc import Callable

import click

from .common import EXIT_HELP


# ------------------------------------------------------------------ help from the games' own words
def _games() -> list:
    """Every game pbem knows (built-in, registered, plug-ins), for help texts: imported only
    when a help page is printed."""
    from ..core.games import game, game_ids
    out = []
    for gid in game_ids():
        try:
            out.append(game(gid))
        except Exception:  # noqa: BLE001 - a broken plug-in must not break the help
            continue
    return out


def _roles_by_game() -> dict[str, list[str]]:
    """Game title -> the roles (player ids) it declares (``Game.roles``); a game that declares
    none: the roles of its scenarios, in scenario order."""
    out: dict[str, list[str]] = {}
    for g in _games():
        roles = list(g.roles)
        if not roles:
            for info in g.scenarios().values():
                roles += [p for p in info.get("players") or [] if p not in roles]
        if roles:
            out[g.title] = roles
    return out


def _either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _examples(of) -> str:
    """``e.g. X or Y``: one example of each game that gives one (``of(game)``), or ""."""
    words = [w for g in _games() for w in [of(g)] if w]
    return f"e.g. {_either(words)}" if words else ""


def _role_examples() -> str:
    """``e.g. soviet or axis``: the first role each game declares."""
    return _examples(lambda g: next(iter(_roles_by_game().get(g.title) or []), ""))


def _help_scenario() -> str:
    ex = _examples(lambda g: g.example_scenario)
    return f"Scenario id, {ex} (see `pbem scenarios`)." if ex else "Scenario id (see `pbem scenarios`)."


def _help_role(lead: str, tail: str = "") -> Callable[[], str]:
    """A help text naming a role, with the games' first roles as examples."""
    def text() -> str:
        ex = _role_examples()
        return lead + (f", {ex}" if ex else "") + tail
    return text


def _each_game(words) -> str:
    """``Title: words; Title: words`` over the games that have some."""
    return "; ".join(f"{g.title}: {w}" for g in _games() for w in [words(g)] if w)


def _help_player_new() -> str:
    from ..core.games import scenarios
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
    ex = _examples(lambda g: g.example_standing)
    keys = _each_game(lambda g: ", ".join(f"{k}={'|'.join(v)}" + (f" ({g.standing_help[k]})" if k in g.standing_help else "")
                                          for k, v in g.standing_keys.items()))
    return ("A player's standing order for the whole campaign (until that player changes it in an order file), "
            "ROLE:KEY=VALUE" + (", " + ex if ex else "") + "; ROLE:auto sets all of ROLE's as "
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


def _scenario_help() -> str:
    from ..core.games import scenarios
    return "Scenarios (--scenario ID):\n\n" + "\n\n".join(f"{k}: {v[1]['line']}" for k, v in sorted(scenarios().items()))


class _ScenarioEpilog(click.Command):
    """`pbem new --help` lists the scenarios, read from the games' data only when asked."""

    def format_epilog(self, ctx, formatter):
        self.epilog = _scenario_help() + "\n\n" + EXIT_HELP
        super().format_epilog(ctx, formatter)
