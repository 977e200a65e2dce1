"""Table-driven rule cases of every game: tests/cases/<game>/<section>-<name>.yaml, run by the
game-neutral runner pbem/core/cases.py (see there for the format; schemas/case.schema.json).
A second game adds a folder of cases (and its case kit, the module its Game declares as cases_kit), nothing here.

Also (issue 9, validation agrees with adjudication): every step a case expects to be refused is
refused by ``validate`` too, with the same error codes (what adjudicate refuses, validate
reports before any die is rolled); and no order file adjudicate accepts gets an error from
``validate``."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case, run_case, validate_step

from pbem.core.cases import has_kit

# Every case of every game whose game has a case kit (Game.cases_kit), sub-folders too.
ROOT = Path(__file__).resolve().parent / "cases"
CASES = sorted(p for g in ROOT.iterdir() if g.is_dir() and has_kit(g.name) for p in g.glob("**/*.yaml"))
IDS = [p.relative_to(ROOT).with_suffix("").as_posix() for p in CASES]


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_case(path: Path) -> None:
    case = load_case(path)
    if not case.get("xfail"):
        run_case(path, case)
        return
    # ``xfail: "reason"``: the case states the rule as pbem should apply it; the engine does not yet.
    try:
        run_case(path, case)
    except Exception as e:  # noqa: BLE001 - any failure of an xfail case is the expected one
        pytest.xfail(f"{case['xfail']} [{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}]")
    pytest.fail(f"XPASS: {path.stem} passes; remove its `xfail:` ({case['xfail']})")


def _refused_cases() -> list[Path]:
    out = []
    for p in CASES:
        text = p.read_text(encoding="utf-8")
        if "stopped: refused" in text:
            out.append(p)
    return out


REFUSED = _refused_cases()


@pytest.mark.parametrize("path", REFUSED, ids=[p.relative_to(ROOT).with_suffix("").as_posix() for p in REFUSED])
def test_validate_refuses_what_adjudicate_refuses(path: Path) -> None:
    """Issue 9: every order kind adjudicate checks, validate checks the same way."""
    case = load_case(path)
    if case.get("xfail"):
        pytest.skip("xfail case")
    rs, steps = run_case(path, case, check=False)
    for step in steps:
        if step.outcome.stopped != "refused" or not step.subs:
            continue
        adj = sorted({i.code for i in step.outcome.issues if i.is_error})
        val = validate_step(path, rs, step)
        got = sorted({i.code for i in val if i.is_error})
        assert set(adj) == set(got), (f"{path.stem} step {step.index}: adjudicate refuses with {adj}, "
                                      f"validate reports errors {got}: " + "; ".join(i.format() for i in val))


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_validate_accepts_what_adjudicate_accepts(path: Path) -> None:
    case = load_case(path)
    if case.get("xfail"):
        pytest.skip("xfail case")
    rs, steps = run_case(path, case, check=False)
    for step in steps:
        if step.outcome.stopped == "refused" or not step.subs or step.state.get("pending"):
            continue
        val = [i for i in validate_step(path, rs, step) if i.is_error]
        assert not val, f"{path.stem} step {step.index}: adjudicate accepts ({step.outcome.stopped}), validate: " + \
            "; ".join(i.format() for i in val)
