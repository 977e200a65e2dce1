"""``pbem judge CONFIG --once | --wait`` and ``pbem agent CONFIG ...``: the only place the judge
and the agent read the wall clock."""
from __future__ import annotations

from pathlib import Path

import click

from ..cli.app import main
from ..cli.common import EXIT_HELP, _echo


@main.command("judge", epilog=EXIT_HELP)
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--once", is_flag=True, help="Handle the mails there and the deadlines due, then stop (for cron).")
@click.option("--wait", is_flag=True, help="Go on: look into the Maildir every `poll` of the configuration (default 1m) until stopped (SIGTERM or Ctrl-C stop it between two mails).")
@click.option("--check", is_flag=True, help="Only check the configuration file and the campaigns it names.")
@click.option("--quiet", is_flag=True, help="Write the log to its file only, not also to the screen.")
def judge_cmd(config, once, wait, check, quiet):
    """Serve campaigns by mail (a mail robot).

    Reads the mails that arrive in the Maildir of CONFIG (a YAML file, see docs/judge.md):
    each is matched to its campaign and player, checked at once and answered with every
    problem or a receipt; the campaign is adjudicated when it has what it needs, and the
    step's mails are written into the outbox Maildir. At a deadline the late players are
    reminded, after the grace period the missing-orders default applies. A mail with the
    subject `status` gets what is awaited, from whom, by when."""

    from ..core.errors import ExitCode, Issue, PbemError
    from .config import load_config
    from .judge import Judge, JudgeLog
    if sum((once, wait, check)) != 1:
        raise PbemError([Issue("USAGE-JUDGE", "give one of --once (for cron), --wait (a loop) or --check")], ExitCode.USAGE)
    cfg = load_config(config)
    if check:
        _echo(f"OK: {config}: {len(cfg.campaigns)} campaign(s): " + ", ".join(c.id for c in cfg.campaigns))
        return
    judge = Judge(cfg, log=JudgeLog(cfg.log, None if quiet else _echo))
    _run(judge, once, cfg.poll.total_seconds(), f"judge started: {len(cfg.campaigns)} campaign(s), "
                                                 f"looking into {cfg.maildir} every {cfg.poll.total_seconds():g} s")


def _run(judge, once: bool, seconds: float, started: str) -> None:
    """``judge`` (a Judge or an Agent) for one round (``--once``) or, with ``--wait``, round
    after round (:func:`_loop`): `pbem judge` and `pbem agent` run their robot alike."""
    from datetime import datetime, timezone
    if once:
        try:
            judge.run_once(datetime.now(timezone.utc))
        finally:
            judge.close()
        return
    _loop(judge, seconds, started)


def _loop(judge, seconds: float, started: str) -> None:
    """``judge`` (a Judge or an Agent) round after round until SIGTERM or Ctrl-C."""
    import signal
    import threading
    from datetime import datetime, timezone
    stop = threading.Event()

    def _stop(signum, frame):
        stop.set()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    judge.log(datetime.now(timezone.utc), started)
    while not stop.is_set():
        judge.run_once(datetime.now(timezone.utc))
        if judge.fetcher is not None:
            judge.fetcher.wait(seconds, stop.is_set)     # IMAP IDLE where offered: woken by new mail
        else:
            stop.wait(seconds)
    judge.close()
    judge.log(datetime.now(timezone.utc), started.split()[0] + " stopped")


@main.command("agent", epilog=EXIT_HELP)
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--once", is_flag=True, help="Answer the link requests there, then stop (for cron).")
@click.option("--wait", is_flag=True, help="Go on: look for mail every `poll` (IMAP IDLE where offered) until stopped.")
@click.option("--check", is_flag=True, help="Only check the configuration file.")
@click.option("--quiet", is_flag=True, help="Write the log to its file only, not also to the screen.")
def agent_cmd(config, once, wait, check, quiet):
    """A player's robot: answers link requests.

    Reads the judge's mails for one player (a Maildir or IMAP, see CONFIG and docs/judge.md):
    for each mail that asks for the player's chain link, checks the archive head it names
    against every mail seen before, reveals the link (`pbem chain reveal`, never the same link
    twice) and mails the reveal to the judge. It signs nothing but reveals."""

    from ..core.errors import ExitCode, Issue, PbemError
    from .agent import Agent, load_agent_config
    from .judge import JudgeLog
    if sum((once, wait, check)) != 1:
        raise PbemError([Issue("USAGE-AGENT", "give one of --once (for cron), --wait (a loop) or --check")], ExitCode.USAGE)
    cfg = load_agent_config(config)
    if check:
        _echo(f"OK: {config}: the {cfg.player} player of campaign {cfg.campaign}, answering {cfg.judge}")
        return
    agent = Agent(cfg, log=JudgeLog(cfg.log, None if quiet else _echo))
    _run(agent, once, cfg.poll, f"agent started: the {cfg.player} player of {cfg.campaign}")
