"""The rule index (pbem/core/ruleindex.py, issue 32): every game's rules/<game>/index.yaml is
valid, covers every heading it lists, and agrees with the game's rule cases (every cited case
exists and cites the rule back; no case cites a rule the index lacks; every statement is cased
or explained). The checker itself is tested on small made-up indexes, so it serves any game."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.core.ruleindex import Case, chapters_in, check, coverage, load_cases, load_index, sections_in

ROOT = Path(__file__).resolve().parents[2]
INDEXES = sorted(ROOT.glob("rules/*/index.yaml"))


@pytest.mark.parametrize("path", INDEXES, ids=[p.parent.name for p in INDEXES])
def test_index_agrees_with_headings_and_cases(path):
    index, issues = load_index(path)
    assert not [i for i in issues if i.is_error], "\n".join(i.format() for i in issues)
    game = index["game"]
    assert game == path.parent.name
    cases = load_cases(ROOT / "tests" / "cases" / game)
    problems = check(index, cases, file=str(path.relative_to(ROOT)))
    assert not problems, "\n".join(i.format() for i in problems)
    cov = coverage(index, cases)
    assert cov["open"] == 0 and cov["statements"] == cov["cased"] + cov["none"]


def test_bfg_index_lists_every_numbered_heading_of_the_rulebook():
    """The headings kept as data name every section the Battle for Germany rulebook numbers,
    down to 6.83 and 17.32, and both worked examples of 7.2."""
    index, _ = load_index(ROOT / "rules" / "bfg" / "index.yaml")
    ids = [h["id"] for h in index["headings"]]
    for must in ("1.0", "5.41", "6.83", "6.94", "7.26", "12.2.1", "13.2", "15.26", "16.33", "17.32",
                 "6.1 Example", "7.2 Example 1", "7.2 Example 2"):
        assert must in ids
    assert len(ids) == len(set(ids))


def test_blitzwar_index_lists_every_numbered_heading_of_the_rulebook():
    """BlitzWAR (issue 31): every chapter (bare where it has no subsections: 4, 7, 18, 19),
    every section down to 13.4.5 and 16.3.2, the worked examples 20.1/20.2 and the ten
    clarifications of 2007 (clar-1 ... clar-10)."""
    index, _ = load_index(ROOT / "rules" / "blitzwar" / "index.yaml")
    ids = [h["id"] for h in index["headings"]]
    for must in ("1", "4", "7", "8", "9", "9.6", "11.10", "12.4", "13.4.5", "14.1.2", "16.3.2", "17.5",
                 "18", "19", "20.1", "20.2"):
        assert must in ids
    assert [i for i in ids if i.startswith("clar-")] == [f"clar-{n}" for n in range(1, 11)]
    assert len(ids) == len(set(ids))


def test_sections_in_names_and_rule_fields():
    assert sections_in("13.1-with-13.2-boundary-binds") == {"13.1", "13.2"}
    assert sections_in("DG2 12.2.1, 6.5; rulings.yaml t1_west_german_attacks") == {"12.2.1", "6.5"}
    assert sections_in("DG2 7.21, 7.2 Example 1; rules/bfg/turns.yaml") == {"7.21", "7.2"}
    assert sections_in("6.1-odds-rounded-down-19-7") == {"6.1"}


def _index(rules, headings=None):
    heads = headings or [{"id": "1.0", "title": "One"}, {"id": "1.1", "title": "Two"},
                         {"id": "1.1 Example", "title": "Ex", "section": "1.1"}]
    return {"schema": "pbem/rule-index/v1", "game": "toy", "rulebook": {"title": "t", "edition": "e"},
            "headings": heads, "rules": rules}


def _case(name, *cites):
    return Case(name, Path(f"{name}.yaml"), set(cites) | sections_in(name))


def test_checker_finds_every_kind_of_problem():
    index = _index({
        "1.0": [{"says": "a", "cases": ["1.0-a", "1.0-gone"]}, {"says": "b"}],
        "1.1 Example": [{"says": "ex", "cases": ["1.0-b"]}],
        "2.0": [{"says": "c", "none": "flavour"}],
    })
    cases = {"1.0-a": _case("1.0-a"), "1.0-b": _case("1.0-b"), "1.0-c": _case("1.0-c", "3.5")}
    codes = sorted(i.code for i in check(index, cases))
    assert codes == sorted(["RULEINDEX-HEADING",            # 1.1 has no entry
                            "RULEINDEX-HEADING",            # 2.0 is no heading
                            "RULEINDEX-CASE-MISSING",       # 1.0-gone
                            "RULEINDEX-STATEMENT-OPEN",     # 'b'
                            "RULEINDEX-CASE-NOT-CITING",    # 1.0-b does not cite 1.1 (the example's section)
                            "RULEINDEX-CASE-UNKNOWN-RULE",  # 1.0-c cites 3.5
                            "RULEINDEX-CASE-UNINDEXED"])    # 1.0-c cited by no statement
    cov = coverage(index, cases)
    assert (cov["statements"], cov["cased"], cov["none"], cov["open"]) == (4, 2, 1, 1)


def test_clean_index_has_no_problem():
    index = _index({"1.0": [{"says": "a", "cases": ["1.0-a"]}], "1.1": [{"says": "b", "none": "a component"}],
                    "1.1 Example": [{"says": "ex", "cases": ["1.0-a"]}]})
    assert check(index, {"1.0-a": _case("1.0-a", "1.1")}) == []


def test_bare_chapters_and_clarifications_are_read():
    """BlitzWAR's chapters 4-7, 18 and 19 have no subsections: a case cites one bare, at the start
    of its file name or as a whole item of rule: (never inside a dotted number or a word); the
    2007 clarifications are clar-N ('clar. 7' in rule:, 'clar8' in a file name)."""
    assert chapters_in("7-named-source", "7") == {"7"}
    assert chapters_in("19-the-usa-joins-the-allies", "19, 9.3, 10.2, 14.1.1") == {"19"}
    assert chapters_in("13.1-snow-where-based", "13.1, 6") == {"6"}
    assert chapters_in("17.4-x", "7, 8, 16.5, 17.4") == {"7", "8"}
    assert chapters_in("16.2-eight-to-one", "16.2") == set()
    assert chapters_in("6.83-fortress-1944", "DG2 6.83, rulings.yaml x 2") == set()
    assert sections_in("13.5, clar. 7") == {"13.5", "clar-7"}
    assert sections_in("17.2-clar8-retreat-tiers") == {"17.2", "clar-8"}
    assert sections_in("declared") == set()


def test_bare_chapters_count_only_where_the_index_has_bare_headings():
    """A bare chapter cites its heading in an index whose headings include bare chapters (BlitzWAR);
    in one without (Battle for Germany: 7.0), "7-x" still cites nothing, so the index is no looser,
    and a bare number that is no heading is reported there only where bare headings exist."""
    bare = [{"id": "7", "title": "Supply"}, {"id": "7.1", "title": "Sub"},
            {"id": "clar-1", "title": "Clarification 1"}]
    case = Case("7-named-source", Path("7-named-source.yaml"), set(), {"7"})
    assert check(_index({"7": [{"says": "a", "cases": ["7-named-source"]}],
                         "7.1": [{"says": "b", "none": "x"}],
                         "clar-1": [{"says": "c", "cases": ["7.1-clar1-x"]}]}, bare),
                 {"7-named-source": case, "7.1-clar1-x": _case("7.1-clar1-x")}) == []
    dotted = [{"id": "7.0", "title": "Supply"}]
    codes = [i.code for i in check(_index({"7.0": [{"says": "a", "cases": ["7-named-source"]}]}, dotted),
                                   {"7-named-source": case})]
    assert codes == ["RULEINDEX-CASE-NOT-CITING"]
    stray = Case("9-x", Path("9-x.yaml"), set(), {"9"})
    codes = [i.code for i in check(_index({"7": [{"says": "a", "cases": ["7-named-source", "9-x"]}],
                                           "7.1": [{"says": "b", "none": "x"}],
                                           "clar-1": [{"says": "c", "none": "x"}]}, bare),
                                   {"7-named-source": case, "9-x": stray})]
    assert sorted(codes) == ["RULEINDEX-CASE-NOT-CITING", "RULEINDEX-CASE-UNKNOWN-RULE"]


def test_pbem_data_rules_prints_the_coverage():
    from pbem.cli import main
    r = CliRunner().invoke(main, ["data", "rules", "bfg"])
    assert r.exit_code == 0, r.output
    last = [ln for ln in r.output.splitlines() if "statement(s):" in ln and "heading(s)" in ln]
    assert last and "0 open" in last[0] and "100% cased or explained" in last[0]
    r = CliRunner().invoke(main, ["data", "rules", "nogame"])
    assert r.exit_code != 0 and "RULEINDEX-MISSING" in r.output
