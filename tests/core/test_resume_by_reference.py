"""Issue 20: what a player learns from a pending decision is only what the table would show at
that moment. While a phase waits for a decision, a campaign's state (mailed to every player,
archived, shown in the book) names the order files still being carried out (sha256 or receipt,
and step) instead of keeping them; the caller reads them back from the archive when the answer
comes. Campaigns started before keep their orders in the state (their archives replay byte for
byte: tests/test_examples.py); a campaign started now has ``dice.resume: files``."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from pbem.core.campaign import load_order_file, load_state_file
from pbem.core.canon import sha256_hex
from pbem.core.data import load_ruleset
from pbem.core.dice import Dice
from pbem.core.game import Submission
from pbem.core.kernel import adjudicate
from pbem.core.orders import submissions

EX = Path(__file__).resolve().parents[2] / "examples" / "bfg-chain-decisions"


def _dice(*, step, orders_digest, state_hash):
    # keyed on the step and the orders only, so that both forms of the state roll the same dice
    return Dice(sha256_hex(f"{step}|{orders_digest}".encode()), prefix=f"bfg/test/{step}/")


def _orders():
    """The example's first order file: the Soviet movement and six attacks, then the
    West-German phases; the combat phase stops at decisions before the later attacks."""
    p = sorted((EX / "steps" / "001").glob("orders-*.yaml"))[0]
    return submissions([load_order_file(p, name=p.name)])


def _answer(state: dict) -> list[Submission]:
    """Every pending decision answered with its first choice, one file per player."""
    by: dict[str, list] = {}
    for d in state["pending"]:
        by.setdefault(d["player"], []).append({"id": d["id"], "choice": d["options"][0]})
    return [Submission(player=p, doc={"player": p, "turn": state["turn"], "decisions": ds},
                       digest=sha256_hex(json.dumps([state["step"], p, ds]).encode()), name=f"{p}.yaml")
            for p, ds in sorted(by.items())]


def _play(by_reference: bool):
    """The first order file through the kernel, then answers until the orders are carried out,
    as the caller does (the files a state names read back from the archive)."""
    g, rs = load_ruleset("bfg-historical")
    state, _ = load_state_file(sorted((EX / "steps" / "000").glob("*.yaml"))[0])
    state = copy.deepcopy(state)
    state["dice"].pop("resume", None)               # (the example is of the old form)
    if by_reference:
        state["dice"]["resume"] = "files"
    subs, archive, outs = _orders(), {}, []
    while subs and len(outs) < 30:
        for s in subs:
            archive[(state["step"] + 1, s.player, s.digest)] = s
        names = ((state.get("resume") or {}).get("files") or {}).items()
        received = [archive[(r["step"], p, r["sha256"])] for p, r in names]
        out = adjudicate(g, rs, state, subs, _dice, received=received)
        assert out.state is not None, [i.format() for i in out.issues]
        outs.append(out)
        state = out.state
        subs = _answer(state) if out.stopped == "pending" else []
    return outs


def _position(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("hash", "previous", "dice", "resume")}


def _events(out) -> list:
    return [{k: v for k, v in e.items() if k != "key_inputs"} for e in out.events]


def test_a_pending_state_names_the_orders_it_carries_out_and_keeps_none():
    new = _play(True)
    assert [o.stopped for o in new][:5].count("pending") >= 3
    kinds = [d["kind"] for o in new if o.stopped == "pending" for d in o.state["pending"]]
    assert "retreat" in kinds and "advance" in kinds
    first = new[0].state
    res = first["resume"]
    assert set(res) >= {"files", "players", "base", "index"} and "doc" not in res and "docs" not in res
    assert res["files"]["soviet"]["step"] == 1 and len(res["files"]["soviet"]["sha256"]) == 64
    for o in new:
        if o.stopped != "pending":
            continue
        assert not _leaks(json.dumps(o.state) + json.dumps(o.events)), o.state["step"]
    assert _leaks(json.dumps(_play(False)[0].state))        # (what an old campaign's state shows)


def _leaks(text: str) -> list[str]:
    """The later orders of the file (attacks 2-6, the West-German phases) found in ``text``."""
    later = ['"attacks"', '"phases"', '["sov-1gt", "sov-2gt"]', '["sov-3uf", "sov-46", "sov-6gt"]',
             '["bg-1", "bg-2"]', '["wg-5pz", "wg-66", "wg-7", "wg-1"]', '["wg-10", "wg-76pz"]']
    return [w for w in later if w in text]


def test_answering_resumes_with_the_same_result_as_the_old_form():
    old, new = _play(False), _play(True)
    assert "doc" in old[0].state["resume"]                    # an old campaign: the orders kept
    for a, b in zip(old, new):
        assert a.stopped == b.stopped
        assert _position(a.state) == _position(b.state)
        assert _events(a) == _events(b)
        assert a.rolls == b.rolls


def test_an_order_file_changed_in_the_archive_stops_the_resume():
    import pytest

    from pbem.core.errors import PbemError
    g, rs = load_ruleset("bfg-historical")
    pending = _play(True)[0].state
    with pytest.raises(PbemError) as e:
        adjudicate(g, rs, pending, _answer(pending), _dice, received=[])
    assert e.value.issues[0].code == "FILE-ARCHIVE"
