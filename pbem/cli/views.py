"""Looking at a position and at the data: `pbem show`, `map`, `data check`."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .app import main
from .common import (
    EXIT_HELP,
    _echo,
    _next_commands,
    _print_issues,
    _refuse_existing,
    _write_own_file,
    interactive,
)
from .gamehelp import _GameHelpCommand, _GameHelpOption, _help_zone


@main.command("show", epilog=EXIT_HELP, cls=_GameHelpCommand, game_words=lambda g: g.show_help)
@click.argument("state", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (turn, phase, awaiting, pending, result, and the game's summary of its position).")
@click.option("--units/--no-units", default=True, help="List the units on the map.")
@click.option("--zone", "zones", multiple=True, metavar="ZONE", cls=_GameHelpOption,
              help="What is next to ZONE, what stands there and who controls it, instead of the summary. Repeat.",
              help_fn=_help_zone)
@interactive
def show_cmd(state, as_json, units, zones):
    """Summarise a state: whose move, units, points.

    STATE is a state file or a campaign folder: turn, phase, whose move, pending decisions,
    standing orders, and what each game shows of its position:"""
    import json

    from ..core.campaign import Campaign, load_state_file
    from ..core.data import load_ruleset
    spath, camp = state, None
    if Path(state).is_dir():
        camp = Campaign(state)      # campaign.yaml read once for the whole command
        spath, st = camp.current()
    else:
        st, _ = load_state_file(state)
    g, rs = load_ruleset(st["scenario"])
    click.get_current_context().find_root().meta["pbem.term_styles"] = g.term_styles
    if zones:
        _show_zones(g, rs, st, zones)
        return
    from ..core.awaiting import awaited
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
    from ..core.chain import dice_summary
    from ..core.signing import campaign_keys, signing_summary, state_keys
    _echo(dice_summary(st.get("dice") or {}))
    keys = {**(campaign_keys(camp.manifest) if camp is not None else {}), **state_keys(st)}
    _echo(signing_summary(keys, sorted(st.get("players") or {})))
    for a in awaited(st):
        w = (st.get("dice") or {}).get("witness") or {}
        who = (f"the witness ({w.get('name')})" if a["player"] == "witness" and a["player"] not in st["players"]
               else f"the {a['player']} player ({st['players'][a['player']]})")
        _echo(f"awaiting: {a['for']} from {who}")
    if (st.get("dice") or {}).get("request"):
        _echo(f"the files archived in step {st['step']:03d} wait for link {st['dice'].get('used', 0) + 1} of each awaited player's chain "
              f"(pbem chain reveal ROLE.chain CAMPAIGN -o reveal-ROLE.yaml); nothing is rolled until every link is in")
    for p in sorted(st.get("received") or {}):
        _echo(f"received: orders of the {p} player (step {st['received'][p]['step']}); the phase is carried out when every awaited player's orders are in")
    for d in st.get("pending", []):
        from ..core.errors import choice_text
        opts = f"; options: {' | '.join(choice_text(o) for o in d['options'])}" if "options" in d else ""
        _echo(f"pending decision {d['id']} ({d['player']}): {d['prompt']}{opts}", style="bold yellow")
    # lines break only between unit entries, never inside one ("eg-cl-39pz 2-3-4@1234", see core.term)
    for line in g.summary_lines(rs, st, units=units):
        _echo(line)
    for role, so in sorted((st.get("standing") or {}).items()):
        if so:   # in force until the player changes them: say so, as the decisions they answer are silent
            _echo(f"standing orders of the {role} player: " + ", ".join(f"{k}={v}" for k, v in so.items()))
    for line in _next_commands(state, st, camp):
        _echo(line)


def _show_zones(g, rs, st, zones) -> None:
    """`pbem show STATE --zone Z`: the game's neighbour lines of each zone (the game says them)."""
    from ..core.errors import ExitCode, Issue, PbemError, did_you_mean
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

    from ..core.campaign import Campaign, load_state_file
    from ..core.errors import ExitCode, Issue, PbemError, Severity
    from ..core.files import read_bytes_limited
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
              help="Size of the picture (1: the game's own size).")
@click.option("--force", is_flag=True, help="Replace the picture files if they exist (your own files, not the archive).")
def map_cmd(state, output, report_path, last, step, png, scale, force):
    """Draw a state as an SVG (or PNG) map.

    Draws STATE (a state file or a campaign folder), as each game draws its map:"""
    from ..core.mapdraw import draw_state
    from ..core.png import svg_to_png
    _, st, report, warnings = _map_inputs(state, report_path=report_path, last=last, step=step)
    svg_path, png_path = _map_targets(output, png)
    if not force:
        _refuse_existing([svg_path, png_path], force_hint=True)
    _print_issues(warnings)
    from ..core.progress import progress  # a bar on a terminal only (issue 33: seconds of silence)
    with progress(2 if png_path else 1, "drawing the map") as advance:
        text = draw_state(st, report, scale=scale)
        advance(what="converting the map to PNG")
        data = svg_to_png(text) if png_path else None
    if svg_path:
        _write_own_file(svg_path, text, force=force)
        _echo(f"wrote {svg_path}")
    if png_path:
        _write_own_file(png_path, data, force=force)
        _echo(f"wrote {png_path}")


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

    from ..core.actions import data_check
    from ..core.data import user_data, user_data_files
    from ..core.errors import exit_code_for
    from ..core.schema import check_fully
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


@data_grp.command("rules", epilog=EXIT_HELP)
@click.argument("game")
@click.option("--cases", "cases_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The game's case folder (default: tests/cases/GAME of the source checkout).")
@click.option("--json", "as_json", is_flag=True, help="Print the coverage and the problems as JSON.")
def data_rules_cmd(game, cases_dir, as_json):
    """Coverage of the rule index of GAME.

    The index is rules/GAME/index.yaml (docs/rule-index.md).

    Checks the index against the rulebook's headings it keeps and against the rule cases (every
    cited case exists and cites the rule back; no case cites a rule the index lacks), and
    prints per rule and in total: statements, statements with a case, statements explained by
    `none`."""
    import json

    from ..core.errors import exit_code_for
    from ..core.ruleindex import coverage, coverage_lines, game_index
    index, cases, issues = game_index(game, cases_dir)
    cov = coverage(index, cases) if index is not None else None
    if as_json:
        click.echo(json.dumps({"coverage": cov, "issues": [i.to_dict() for i in issues]}, indent=1, ensure_ascii=False))
    else:
        for line in coverage_lines(cov) if cov else []:
            _echo(line)
        _print_issues(issues, err=False)
    sys.exit(int(exit_code_for(issues)))
