"""tools/remake_examples.py re-makes an example archive from its own order files. On the
current code it must reproduce an archive byte for byte (that proves it faithful); a step that
no longer plays is named and the example is left untouched; a changed report wording or a
hand-fixed order file gives a new archive that replays."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from pbem.core.canon import sha256_hex
from pbem.core.replay import replay_campaign

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("remake_examples", ROOT / "tools" / "remake_examples.py")
remake = importlib.util.module_from_spec(_spec)
sys.modules["remake_examples"] = remake
_spec.loader.exec_module(remake)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", ["bfg-historical", "bfg-chain"])   # game-master dice, hash chains
def test_check_reproduces_the_archive_byte_for_byte(name, capsys):
    before = _tree(ROOT / "examples" / name)
    assert remake.main(["--check", str(ROOT / "examples" / name)]) == 0
    out = capsys.readouterr().out
    assert "byte-identical" in out, out
    assert _tree(ROOT / "examples" / name) == before


def test_a_step_that_no_longer_plays_is_named_and_nothing_changes(tmp_path, capsys):
    ex = tmp_path / "bfg-historical"
    shutil.copytree(ROOT / "examples" / "bfg-historical", ex)
    orders = next((ex / "steps" / "001").glob("orders-*.yaml"))
    text = orders.read_text("utf-8")
    # as if a rule fix made these orders illegal: a unit that does not exist
    assert "{unit: sov-1bf, to: '2326'}" in text
    orders.write_text(text.replace("{unit: sov-1bf, to: '2326'}", "{unit: sov-nobody, to: '2326'}", 1), "utf-8")
    before = _tree(ex)
    assert remake.main([str(ex)]) == 2
    err = capsys.readouterr().err
    assert "bfg-historical step 001" in err and "sov-nobody" in err and "untouched" in err, err
    assert f"steps/001/{orders.name}" in err                    # the file to fix, not a scratch path
    assert _tree(ex) == before


def test_new_report_wording_replaces_the_example_and_warns_about_the_readme(tmp_path, capsys, monkeypatch):
    ex = tmp_path / "bfg-historical"
    shutil.copytree(ROOT / "examples" / "bfg-historical", ex)
    n = len([d for d in (ex / "steps").iterdir() if d.name.isdigit()]) - 1      # steps 001..n
    (ex / "README.md").write_text(f"Steps 001-{n:03d} are three turns; step {n + 1:03d} is not there.\n"
                                  "REPLAY OK: 11 step(s) byte-identical, 99 roll(s)\n", "utf-8")
    from pbem.core import replay, step
    render = step.render_text
    for mod in (step, replay):     # where adjudication and replay render the text report
        monkeypatch.setattr(mod, "render_text", lambda *a, **k: render(*a, **k) + "wording v2\n")
    assert remake.main(["--check", str(ex)]) == 1
    out = capsys.readouterr().out
    assert f"would change: {n} file(s) differ" in out and "was: (end)" in out and "now: wording v2" in out, out
    assert f"names step {n + 1:03d}" in out and "99 roll(s)" in out, out
    assert remake.main([str(ex)]) == 0
    assert "replaced" in capsys.readouterr().out
    assert (ex / "steps" / f"{n:03d}" / "report.txt").read_text("utf-8").endswith("wording v2\n")
    assert (ex / "README.md").read_text("utf-8").startswith(f"Steps 001-{n:03d}")     # kept
    assert (ex / "private" / "dice.key").is_file()
    assert remake.main(["--check", str(ex)]) == 0          # stable (and it replays: the tool checks that)
    assert not list(tmp_path.glob(".*"))                                          # no leftovers beside it


def test_a_hand_fixed_order_file_in_a_chain_campaign_gets_new_reveals(tmp_path, capsys):
    ex = tmp_path / "bfg-chain"
    shutil.copytree(ROOT / "examples" / "bfg-chain", ex)
    orders = next((ex / "steps" / "012").glob("orders-*.yaml"))
    orders.write_bytes(orders.read_bytes().replace(b"\n", b"\n# fixed by hand\n", 1))
    assert remake.main([str(ex)]) == 0, capsys.readouterr().err
    new = list((ex / "steps" / "012").glob("orders-*.yaml"))
    assert len(new) == 1 and b"# fixed by hand" in new[0].read_bytes() and new[0].name != orders.name
    digest = sha256_hex(new[0].read_bytes())
    for r in (ex / "steps" / "012").glob("reveal-*.yaml"):
        old = (ROOT / "examples" / "bfg-chain" / "steps" / "012" / r.name).read_bytes()
        assert r.read_bytes() == remake.rewrite_reveal(old, digest)             # same link, new orders hash
    res = replay_campaign(ex)
    assert not [i for i in res.issues if i.is_error], [i.format() for i in res.issues]
    assert res.steps == 12 and res.links == 24


def test_rewriting_keeps_every_other_byte():
    h_old, h_new = "a" * 64, "b" * 64
    raw = (f"# yaml-language-server: $schema=../../elsewhere/orders.schema.json\n# a comment: state: {h_old}\n"
           f"schema: pbem/orders/v1\nstate: '{h_old}'   # keep me\nphases: []\n").encode()
    out = remake.rewrite_orders(raw, h_new, "../../../../schemas/orders.schema.json", schema_policy="auto")
    assert out == raw.replace(f"state: '{h_old}'".encode(), f"state: '{h_new}'".encode()).replace(
        b"../../elsewhere/", b"../../../../schemas/")
    assert remake.rewrite_orders(raw, h_old, "x", schema_policy="auto") == raw     # nothing must change
    assert remake.rewrite_orders(raw, h_old, "x", schema_policy="fix") != raw
    assert b"elsewhere" in remake.rewrite_orders(raw, h_new, "x", schema_policy="keep")
    with pytest.raises(remake.RemakeError):
        remake.rewrite_orders(b"schema: pbem/orders/v1\n", h_new, None, schema_policy="auto")


def test_adapt_drops_what_is_refused_now_and_lists_it(tmp_path, capsys):
    """--adapt (issue 9: a rule fix changed every die): an entry refused at the new position
    becomes a comment naming it, the rest of the file (its comments too) is kept, the later
    steps are fitted, and the result replays and re-makes byte for byte without --adapt."""
    ex = tmp_path / "bfg-three-player"
    shutil.copytree(ROOT / "examples" / "bfg-three-player", ex)
    orders = next((ex / "steps" / "001").glob("orders-*.yaml"))
    text = orders.read_text("utf-8")
    assert '- unit: "yu-1"\n        path: ["0424"]' in text
    text = text.replace('- unit: "yu-1"\n        path: ["0424"]', '- unit: "sov-nobody"   # no such unit\n        path: ["0424"]', 1)
    orders.write_text(text.replace("phases:\n", "# a human comment\nphases:\n", 1), "utf-8")
    # --schema-comment keep: the rewritten files' bytes (and so the dice they key) must not
    # depend on where the checkout is (a repointed comment is a path relative to it)
    assert remake.main(["--schema-comment", "keep", str(ex)]) == 2      # without --adapt: named, nothing changes
    capsys.readouterr()
    assert remake.main(["--adapt", "--schema-comment", "keep", str(ex)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "adapted: bfg-three-player archived step 001: dropped from" in out and "sov-nobody" in out, out
    new = next((ex / "steps" / "001").glob("orders-*.yaml")).read_text("utf-8")
    assert "# dropped by tools/remake_examples.py --adapt (refused now: BFG-UNIT-UNKNOWN): unit: \"sov-nobody\"" in new
    assert "# a human comment\n" in new and '- unit: "pk-2"' in new
    res = replay_campaign(ex)
    assert not [i for i in res.issues if i.is_error], [i.format() for i in res.issues]
    assert remake.main(["--check", str(ex)]) == 0


def test_drop_items_keeps_the_rest():
    text = ("phases:\n  - phase: soviet.movement\n    moves:\n      # the front\n"
            "      - {unit: a, to: '0101'}   # first\n      - {unit: b, to: '0102'}\n"
            "  - phase: soviet.combat\n    attacks:\n      - {target: '0202', units: [a],\n         advance: none}\n")
    out, dropped = remake._drop_items(text, {5: ["X-ONE"], 10: ["X-TWO"]})
    assert dropped == ["{unit: a, to: '0101'}", "{target: '0202', units: [a], advance: none}"]
    assert "      # the front\n      # dropped by tools/remake_examples.py --adapt (refused now: X-ONE): {unit: a, to: '0101'}\n" in out
    assert "      - {unit: b, to: '0102'}\n" in out
    assert "    attacks: []\n" in out
    with pytest.raises(remake.RemakeError):
        remake._drop_items(text, {2: ["X"]})            # a phase line is no entry
