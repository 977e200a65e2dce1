"""A step's report is laid out twice (report.txt and the terminal of `pbem adjudicate`); its
events are described once for both (issue 18: "every event is described twice")."""
from __future__ import annotations

from pbem.core.report import _console, render, render_text


class CountingGame:
    def __init__(self):
        self.calls = 0

    def player_title(self, rs, player):
        return f"{player} player"

    def describe_event(self, rs, ev):
        self.calls += 1
        return [f"{ev['type']} {ev.get('n', '')}".strip()]


def _report(events):
    return {"schema": "pbem/report/v2", "game": "toy", "campaign": "c", "step": 1,
            "input": {"state": "s.yaml", "hash": "0" * 64}, "orders": [], "output": None, "stopped": "complete",
            "dice": {"algorithm": "a", "commitment": "0" * 64}, "rolls": [], "events": events, "issues": [],
            "provisional": []}


def test_a_report_laid_out_twice_describes_each_event_once():
    g = CountingGame()
    events = [{"type": "phase", "turn": 1, "phase": "p"}] + [{"type": "move", "n": i, "turn": 1, "phase": "p"} for i in range(5)]
    report = _report(events)
    text = render_text(report, g, None)
    render(dict(report, issues=[]), g, None, _console(80))
    assert g.calls == len(events)
    assert "move 4" in text
    # another report (another list of events) is described anew, even with equal events
    assert render_text(_report([dict(e) for e in events]), g, None) == text
    assert g.calls == 2 * len(events)
