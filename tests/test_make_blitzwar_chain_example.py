"""tools/make_blitzwar_chain_example.py plays examples/blitzwar-chain-signed by mail, as new users
would (issue 17, "Done when"): hash-chain dice, every file signed, one player missing for a
stretch. The example is made again byte for byte from its published demo keys and chains, and
tests/test_examples.py replays it with the other examples."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "blitzwar-chain-signed"
_spec = importlib.util.spec_from_file_location("make_blitzwar_chain_example", ROOT / "tools" / "make_blitzwar_chain_example.py")
maker = importlib.util.module_from_spec(_spec)
sys.modules["make_blitzwar_chain_example"] = maker
_spec.loader.exec_module(maker)


def test_the_example_is_made_again_identical(capsys):
    assert maker.main(["--check"]) == 0, capsys.readouterr()
    assert "identical" in capsys.readouterr().out


def test_test_examples_replays_it():
    import test_examples
    assert EXAMPLE in test_examples.CAMPAIGNS


def test_every_file_is_signed_mailed_by_its_player_and_links_follow_an_answer():
    r = CliRunner().invoke(main, ["replay", str(EXAMPLE)])
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
    n = int(re.search(r"signatures: (\d+) file\(s\) signed by their player and checked", r.output).group(1))
    archived = [p for p in (EXAMPLE / "steps").glob("*/*.yaml") if p.name.startswith(("orders-", "reveal-"))]
    assert n == len(archived) > 0 and "unsigned" not in r.output
    assert len(list((EXAMPLE / "mail").glob("*.eml"))) == n      # each came by mail from its player
    text = (EXAMPLE / "README.md").read_text("utf-8")
    assert "--missing-orders" in text and "answer to" in text and "links of" in text
    # the demo secrets are published so anyone can make it again; no link record is
    assert sorted(p.name for p in (EXAMPLE / "private").iterdir()) == sorted(
        f"{p}.{k}" for p in ("allies", "axis", "ussr") for k in ("chain", "key"))
