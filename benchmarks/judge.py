#!/usr/bin/env python3
"""One judge serving many campaigns (issue 34): N Battle for Germany campaigns (default 100),
one turn of mail each -- the Soviet player's orders -- delivered into one Maildir, then one
``--once`` round of the judge: every mail matched to its campaign, checked, archived,
answered with a receipt, and the step's mail written to each player. Prints the time of the
round, per mail, of a round without mail (what every --wait round costs), and the peak memory of the process (the maps' pictures are drawn, as a real
judge draws them, unless --no-pictures).

Usage::

    .venv/bin/python benchmarks/judge.py [--campaigns 100] [--no-pictures] [--keep DIR]

Not run by the tests (minutes on a small machine); docs/judge.md "Serving many campaigns" gives
one run's figures and what serving thousands would take.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.judge.config import load_config
from pbem.judge.judge import Judge, JudgeLog

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)
TURN = "phases:\n  - phase: soviet.replacement\n  - phase: soviet.movement\n  - phase: soviet.combat\n"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--campaigns", type=int, default=100)
    ap.add_argument("--no-pictures", action="store_true", help="no map pictures in the mails")
    ap.add_argument("--keep", type=Path, help="make everything in DIR (kept) instead of a temporary folder")
    a = ap.parse_args()
    if a.no_pictures:
        import pbem.bfg as g
        g.GAME.draw_map = None
    root = a.keep or Path(tempfile.mkdtemp(prefix="pbem-judge-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        lines = []
        for k in range(a.campaigns):
            cid = f"c{k:04d}"
            new_campaign(root / "games" / cid, scenario="bfg-historical", campaign_id=cid,
                         players={"soviet": {"name": f"Anna {k}", "email": f"anna{k}@example.org"},
                                  "western": {"name": f"Ben {k}", "email": f"ben{k}@example.org"}},
                         options={}, key_hex=f"{k:064x}", chain_heads=None,
                         standing={"retreat": "auto", "advance": "none", "ex_losses": "auto"},
                         missing_defaults={"soviet": "no-orders", "western": "no-orders"})
            lines.append(f"  - folder: games/{cid}\n")
        (root / "judge.yaml").write_text("schema: pbem/judge/v1\naddress: 'pbem judge <judge@example.net>'\n"
                                         "maildir: mail/inbox\noutbox: mail/outbox\ncampaigns:\n" + "".join(lines))
        made = time.perf_counter() - t
        cfg = load_config(root / "judge.yaml")
        for d in ("new", "cur", "tmp"):
            (cfg.maildir / d).mkdir(parents=True, exist_ok=True)
        for k, cc in enumerate(cfg.campaigns):
            st = Campaign(cc.folder).current()[1]
            m = EmailMessage(policy=policy.default)
            m["From"] = f"Anna {k} <anna{k}@example.org>"
            m["To"] = "judge@example.net"
            m["Subject"] = f"{cc.id}: turn 1"
            m["Message-ID"] = f"<{k}.bench@example.org>"
            m.set_content("My orders.\n")
            m.add_attachment((f"schema: pbem/orders/v1\ngame: bfg\ncampaign: {cc.id}\nplayer: soviet\n"
                              f"turn: {st['turn']}\nstate: {st['hash']}\n" + TURN).encode(),
                             maintype="application", subtype="yaml", filename="orders.yaml")
            name = f"{1700000000 + k}.M{k}P{os.getpid()}.bench"
            (cfg.maildir / "tmp" / name).write_bytes(m.as_bytes(policy=policy.default))
            os.rename(cfg.maildir / "tmp" / name, cfg.maildir / "new" / name)
        before = peak_mb()
        judge = Judge(cfg, log=JudgeLog(cfg.log))
        t = time.perf_counter()
        cpu = time.process_time()
        handled = judge.run_once(T0)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        t = time.perf_counter()
        judge.run_once(T0.replace(minute=5))       # no mail: only every campaign's deadlines looked at
        idle = time.perf_counter() - t
        written = len(list((cfg.outbox / "new").iterdir()))
        stepped = sum(Campaign(cc.folder).current()[1]["step"] == 1 for cc in cfg.campaigns)
        print(f"{a.campaigns} campaigns made in {made:.1f} s")
        print(f"one judge round: {handled} mails handled, {stepped} campaigns adjudicated, {written} mails written"
              f"{' (no map pictures)' if a.no_pictures else ''}")
        print(f"  {took:.1f} s wall, {cpu:.1f} s CPU: {1000 * took / max(handled, 1):.0f} ms per mail")
        print(f"an idle round (no mail; every campaign's deadlines looked at): {idle:.2f} s, "
              f"{1000 * idle / a.campaigns:.1f} ms per campaign")
        print(f"  peak memory: {peak_mb():.0f} MB (before the round: {before:.0f} MB)")
    finally:
        if a.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
