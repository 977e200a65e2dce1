"""The rule index of a game (``rules/<game>/index.yaml``, schema ``rule-index``): every numbered
rule of the rulebook and, under each, the distinct statements it makes, each traced to the rule
cases that test it (``cases:``) or explained (``none:``, why no case: flavour, a component,
covered by another statement). Game-neutral: any game with a rulebook and rule cases
(tests/cases/<game>/, pbem/core/cases.py) can have one.

The index keeps the rulebook's list of headings as data (``headings:``, examples and scenario
special rules included), so :func:`check` can tell a rule left out of the index from one that
does not exist. :func:`check` returns every problem at once:

* ``RULEINDEX-HEADING``: a heading with no entry under ``rules:``, or an entry under ``rules:``
  that is not a heading;
* ``RULEINDEX-CASE-MISSING``: a statement cites a case file that does not exist;
* ``RULEINDEX-CASE-NOT-CITING``: a statement cites a case that does not cite the rule back (the
  rule's section number is neither in the case's file name nor in its ``rule:`` field; a bare
  chapter number such as BlitzWAR's 7 counts at the start of the file name or as a whole item
  of ``rule:``, and only for an index with bare-numbered headings; a clarification is clar-N,
  cited as "clar. N" or "clarN");
* ``RULEINDEX-CASE-UNKNOWN-RULE``: a case cites a section number that is no heading of the
  index (a misprint, or a rule missing from the index);
* ``RULEINDEX-STATEMENT-OPEN`` (warning): a statement with neither ``cases`` nor ``none``;
* ``RULEINDEX-CASE-UNINDEXED`` (warning): a case no statement cites.

:func:`coverage` counts statements, statements with a case and statements with ``none``
(``pbem data rules GAME`` prints it).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Issue, Severity
from .schema import validate as validate_doc
from .yamlio import load_yaml

SCHEMA = "rule-index"
# A section number as cases and rule fields write it: 5.41, 12.2.1, 6.0 (at least one dot)
SECTION = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w]|\.\d)")
# A bare chapter number (a rulebook whose chapters have no subsections: BlitzWAR 4, 7, 18): only
# at the start of a case's file name ("7-named-source") or as a whole item of its rule: field
# ("7, 13.4.5"); counted only by an index that has bare-numbered headings (see check)
CHAPTER_NAME = re.compile(r"^(\d+)-")
CHAPTER_ITEM = re.compile(r"^\d+$")
# A numbered clarification or erratum ("clar. 7" in a rule: field, "clar8" in a file name): heading
# id clar-N
CLAR = re.compile(r"(?<![a-z])clar\.?\s*(\d+)", re.IGNORECASE)


def sections_in(text: str) -> set[str]:
    """The section numbers a case's file name or ``rule:`` field names ("13.1-with-13.2-x" ->
    {13.1, 13.2}; "DG2 10.1, 11.0; rulings.yaml x" -> {10.1, 11.0}) and its clarifications
    ("clar. 7" or "clar7" -> clar-7)."""
    return set(SECTION.findall(text)) | {f"clar-{n}" for n in CLAR.findall(text)}


def chapters_in(name: str, rule: str = "") -> set[str]:
    """The bare chapter numbers a case cites: at the start of its file name ("7-named-source" ->
    {7}) and as whole items of its ``rule:`` field ("19, 9.3, 10.2" -> {19}; "13.1, 6" -> {6})."""
    out = set(CHAPTER_NAME.findall(name))
    out |= {item.strip() for item in re.split(r"[,;]", rule) if CHAPTER_ITEM.match(item.strip())}
    return out


@dataclass
class Case:
    """What the index needs of one rule case: its name (file stem), path and the sections it cites."""
    name: str
    path: Path
    cites: set[str] = field(default_factory=set)
    chapters: set[str] = field(default_factory=set)   # bare chapter numbers (chapters_in)


def load_cases(folder: Path) -> dict[str, Case]:
    """Every case file under ``folder`` (sub-folders too), by file stem; each cites the section
    numbers of its name and of its ``rule:`` field."""
    out: dict[str, Case] = {}
    for p in sorted(folder.glob("**/*.yaml")):
        doc = load_yaml(p.read_bytes(), str(p)).data
        rule = str(doc.get("rule", "")) if isinstance(doc, dict) else ""
        out[p.stem] = Case(p.stem, p, sections_in(p.stem) | sections_in(rule), chapters_in(p.stem, rule))
    return out


def load_index(path: Path) -> tuple[dict[str, Any] | None, list[Issue]]:
    """The index at ``path`` checked against schemas/rule-index.schema.json."""
    if not path.is_file():
        return None, [Issue("RULEINDEX-MISSING", f"no rule index at {path}", file=str(path),
                            hint="write rules/<game>/index.yaml (schema rule-index)")]
    loaded = load_yaml(path.read_bytes(), str(path))
    issues = validate_doc(loaded.data, SCHEMA, marks=loaded.marks, filename=str(path))
    return loaded.data, issues


def heading_section(h: dict[str, Any]) -> str:
    """The section number cases cite a heading by: its ``section`` (an example: the rule it
    belongs to) or its id."""
    return str(h.get("section") or h["id"])


def statements(index: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(rule id, statement) for every statement of the index, in order."""
    for rid, sts in (index.get("rules") or {}).items():
        for st in sts or []:
            yield str(rid), st


def check(index: dict[str, Any], cases: dict[str, Case], *, file: str = "index.yaml") -> list[Issue]:
    """Every problem of the index against its headings and the cases (see the module's doc)."""
    out: list[Issue] = []
    heads = {str(h["id"]): h for h in index.get("headings", [])}
    rules = {str(k): v for k, v in (index.get("rules") or {}).items()}
    for hid in heads:
        if hid not in rules:
            out.append(Issue("RULEINDEX-HEADING", f"heading {hid} ({heads[hid].get('title', '')}) has no entry under rules:",
                             file=file, path=("headings",), hint="add its statements, each with cases: or none:"))
    for rid in rules:
        if rid not in heads:
            out.append(Issue("RULEINDEX-HEADING", f"rules: {rid} is not a heading of the rulebook (headings:)",
                             file=file, path=("rules", rid)))
    # bare chapter numbers count only for an index with bare-numbered headings (BlitzWAR's 7); in
    # one without (Battle for Germany's 7.0), "7-x" cites nothing, as before
    bare = any(re.fullmatch(r"\d+", heading_section(h)) for h in heads.values())

    def cites(case: Case) -> set[str]:
        return case.cites | case.chapters if bare else case.cites

    cited: set[str] = set()
    for rid, st in statements(index):
        h = heads.get(rid)
        sec = heading_section(h) if h else rid
        if not st.get("cases") and not st.get("none"):
            out.append(Issue("RULEINDEX-STATEMENT-OPEN", f"{rid}: no case and no none: for '{st.get('says')}'",
                             severity=Severity.WARNING, file=file, path=("rules", rid),
                             hint="write the case that tests it, or say why none is needed"))
        for c in st.get("cases") or []:
            cited.add(c)
            case = cases.get(c)
            if case is None:
                out.append(Issue("RULEINDEX-CASE-MISSING", f"{rid}: the case {c} does not exist", file=file,
                                 path=("rules", rid), text=st.get("says")))
            elif sec not in cites(case):
                out.append(Issue("RULEINDEX-CASE-NOT-CITING",
                                 f"{rid}: the case {c} does not cite {sec} back (its name and rule: field cite {', '.join(sorted(cites(case))) or 'nothing'})",
                                 file=file, path=("rules", rid), text=st.get("says"),
                                 hint=f"add {sec} to the case's rule: field, or cite the case under the rule it tests"))
    sections = {heading_section(h) for h in heads.values()} | set(heads)
    for name, case in sorted(cases.items()):
        for s in sorted(cites(case) - sections):
            out.append(Issue("RULEINDEX-CASE-UNKNOWN-RULE", f"the case {name} cites {s}, which is no heading of the index",
                             file=str(case.path), hint="correct the section number, or add the heading to the index"))
        if name not in cited:
            out.append(Issue("RULEINDEX-CASE-UNINDEXED", f"no statement of the index cites the case {name}",
                             severity=Severity.WARNING, file=str(case.path),
                             hint="cite it under the statement it tests"))
    return out


def coverage(index: dict[str, Any], cases: dict[str, Case] | None = None) -> dict[str, Any]:
    """Counts: headings, statements, statements with a case, statements explained by ``none``,
    and per rule the same (``by_rule``)."""
    by_rule: dict[str, dict[str, int]] = {}
    total = cased = none = 0
    for rid, st in statements(index):
        r = by_rule.setdefault(rid, {"statements": 0, "cased": 0, "none": 0})
        r["statements"] += 1
        total += 1
        if st.get("cases"):
            r["cased"] += 1
            cased += 1
        elif st.get("none"):
            r["none"] += 1
            none += 1
    out: dict[str, Any] = {"headings": len(index.get("headings", [])), "statements": total, "cased": cased,
                           "none": none, "open": total - cased - none, "by_rule": by_rule}
    if cases is not None:
        cited = {c for _, st in statements(index) for c in st.get("cases") or []}
        out["cases"] = len(cases)
        out["cases_cited"] = len(cited & set(cases))
    return out


def coverage_lines(cov: dict[str, Any]) -> list[str]:
    """The coverage as lines of text (``pbem data rules``)."""
    lines = []
    for rid, r in cov["by_rule"].items():
        lines.append(f"  {rid:<16} {r['statements']:>3} statement(s): {r['cased']} with a case, {r['none']} none")
    pct = (100.0 * (cov["cased"] + cov["none"]) / cov["statements"]) if cov["statements"] else 0.0
    lines.append(f"{cov['headings']} heading(s); {cov['statements']} statement(s): {cov['cased']} with a case, "
                 f"{cov['none']} with none (explained), {cov['open']} open; {pct:.0f}% cased or explained")
    if "cases" in cov:
        lines.append(f"{cov['cases']} case file(s), {cov['cases_cited']} cited by the index")
    return lines


def game_index(game: str, cases_dir: Path | None = None) -> tuple[dict[str, Any] | None, dict[str, Case] | None, list[Issue]]:
    """The index of ``game`` (rules/<game>/index.yaml of the data in use), its cases
    (``cases_dir``, default tests/cases/<game>/ beside the shipped data: a source checkout)
    and every problem of both; cases None when there is no case folder."""
    from .data import data_path
    from .shipped import data_root
    rel = f"rules/{game}/index.yaml"
    path = data_path(rel)
    index, issues = load_index(path)
    if index is None or any(i.is_error for i in issues):
        return index, None, issues
    folder = cases_dir or data_root() / "tests" / "cases" / game
    if not folder.is_dir():
        return index, None, issues + [Issue("RULEINDEX-NO-CASES", f"no case folder {folder}: coverage counted from the index alone",
                                            severity=Severity.WARNING, hint="give --cases tests/cases/<game> of a source checkout")]
    cases = load_cases(folder)
    return index, cases, issues + check(index, cases, file=rel)
