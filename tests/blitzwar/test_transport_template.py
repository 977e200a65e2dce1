"""The sea transport phase's order template (14, issue 20 "what the players see"): the order
forms and costs, what each controlled port holds that can sail and where to (x2 where doubled),
the beachheads usable this turn with the corps they take and the ports of their sea, the units
on a beachhead; flying air units and enemy-held ports are not offered."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem.blitzwar.cases import case_state, world
from pbem.blitzwar.transport import template_lines

CASES = Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "transport"


def lines(name: str) -> list[str]:
    g, w = world()
    case = yaml.safe_load((CASES / name).read_text(encoding="utf-8"))
    st = case_state(w, g, case)
    return template_lines(w, st, st["phase"])


def test_example_20_2_template():
    out = lines("20.2-norway-landing.yaml")
    text = "\n".join(out)
    assert "land: [{counter: ID, beachhead: ZONE}]" in text
    port = next(x for x in out if x.strip().startswith("#   scapa-flow:"))
    assert "uk-inf-1, us-arm-1" in port and "portsmouth (x2)" in port and " liverpool," in port
    assert not any(x.strip().startswith("#   trondheim:") for x in out)      # Axis-held, flying air: not offered
    assert "trondheim (norwegian-sea, 3 beachheads: 6 corps) from scapa-flow" in text
    assert out[-1].strip() == "transport: []"


def test_units_on_a_beachhead_and_winter():
    text = "\n".join(lines("14.1.2-stay-lost-or-back.yaml"))
    assert "on a beachhead" in text and "uk-i1-3 @ narvik (norwegian-sea)" in text and "uk-air-9" not in text
    text = "\n".join(lines("14.1.2-winter-mediterranean-blue-line-america.yaml"))
    assert "winter: landings only in the Mediterranean and the Persian Gulf" in text
    assert "sicily (south-central-med, 1 beachhead: 2 corps, 3 from tunis) from tunis" in text
