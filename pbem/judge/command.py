"""``pbem judge CONFIG --once | --wait``: the only place the judge reads the wall clock."""
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
    from datetime import datetime, timezone

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
    if once:
        try:
            judge.run_once(datetime.now(timezone.utc))
        finally:
            judge.close()
        return
    _loop(judge, cfg.poll.total_seconds())


def _loop(judge, seconds: float) -> None:
    import signal
    import threading
    from datetime import datetime, timezone
    stop = threading.Event()

    def _stop(signum, frame):
        stop.set()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    judge.log(datetime.now(timezone.utc), f"judge started: {len(judge.cfg.campaigns)} campaign(s), "
                                          f"looking into {judge.cfg.maildir} every {seconds:g} s")
    while not stop.is_set():
        judge.run_once(datetime.now(timezone.utc))
        if judge.fetcher is not None:
            judge.fetcher.wait(seconds, stop.is_set)     # IMAP IDLE where offered: woken by new mail
        else:
            stop.wait(seconds)
    judge.close()
    judge.log(datetime.now(timezone.utc), "judge stopped")
