"""The JSON Schemas in schemas/: valid themselves, accepted by the rule data and by what the
engine writes, and refusing typical mistakes in order files with the right SCHEMA- codes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from pbem.core.canon import state_hash
from pbem.core.dice import ScriptedDice
from pbem.core.schema import load_schema, schema_dir, validate
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]
# (Battle for Germany state and order files are checked with their game's schemas, which extend
# the core's envelope state/orders)
SCHEMAS = ["bfg-crt", "bfg-terrain", "bfg-turns", "bfg-rulings", "bfg-orders", "bfg-state", "campaign", "report", "judge"]
RULE_FILES = {"crt": "bfg-crt", "terrain": "bfg-terrain", "turns": "bfg-turns", "rulings": "bfg-rulings"}
SHA = "0123456789abcdef" * 4


def load(text: str, name: str = "orders.yaml"):
    return load_yaml(text.encode("utf-8"), name)


def issues_of(text: str, schema: str = "bfg-orders"):
    loaded = load(text)
    return validate(loaded.data, schema, marks=loaded.marks, filename="orders.yaml")


def codes(issues) -> list[str]:
    return [i.code for i in issues]


# ------------------------------------------------------------------------------ the schemas
ALL_SCHEMAS = sorted(p.name[:-len(".schema.json")] for p in schema_dir().glob("*.schema.json"))


def test_the_schemas_are_there():
    assert set(SCHEMAS) <= set(ALL_SCHEMAS)


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_schema_is_valid_2020_12(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://pbem.example/schemas/{name}.schema.json"
    assert schema["title"] and schema["description"]
    if name in ENVELOPES:
        # the core's envelope is open: every file is checked with its game's schema, which
        # extends it (allOf + unevaluatedProperties: false) and is closed
        assert schema["additionalProperties"] is True
        assert any(load_schema(g)["additionalProperties"] is False for g in ALL_SCHEMAS if g.endswith("-" + name))
    else:
        assert schema["additionalProperties"] is False


ENVELOPES = ("state", "orders")


def test_game_schemas_extend_the_envelope_for_editors():
    """On disk a game's state and orders schemas extend the envelope the standard way, so
    that editors (yaml-language-server) follow them; pbem reads them merged and closed."""
    import json
    for name in ALL_SCHEMAS:
        raw = json.loads((schema_dir() / f"{name}.schema.json").read_text("utf-8"))
        for env in ENVELOPES:
            if name.endswith("-" + env):
                assert raw["allOf"] == [{"$ref": f"{env}.schema.json"}]
                assert raw["unevaluatedProperties"] is False
                merged = load_schema(name)
                assert set(load_schema(env)["properties"]) <= set(merged["properties"])


def _walk(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, path + (i,))


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_property_has_a_description(name):
    missing = []
    for path, node in _walk(load_schema(name)):
        props = node.get("properties")
        if path and path[-1] in ("properties",):
            continue  # a property literally named "properties"
        if isinstance(props, dict):
            for key, sub in props.items():
                if not (isinstance(sub, dict) and isinstance(sub.get("description"), str) and sub["description"]):
                    missing.append("/".join(map(str, path + ("properties", key))))
    assert not missing, missing


@pytest.mark.parametrize("name", SCHEMAS)
def test_objects_are_closed_unless_open_on_purpose(name):
    """Every object schema with declared properties says what it does with others."""
    schema = load_schema(name)
    open_on_purpose = {
        "bfg-state": {("properties", "captured", "additionalProperties"), ("properties", "berlin"),
                  ("properties", "resume"),
                  ("properties", "result", "oneOf", 1), ("$defs", "decision", "properties", "context")},
        "report": {("properties", "events", "items")},
    }.get(name, set())
    for path, node in _walk(schema):
        if isinstance(node.get("properties"), dict) and path[-1:] != ("properties",) \
                and "if" not in path and "then" not in path and "else" not in path:
            if path in open_on_purpose:
                continue
            assert "additionalProperties" in node, path


# ------------------------------------------------------------------------------ rule data
@pytest.mark.parametrize("stem", sorted(RULE_FILES))
def test_rule_files_validate(stem):
    path = ROOT / "rules" / "bfg" / f"{stem}.yaml"
    loaded = load_yaml(path.read_bytes(), str(path))
    issues = validate(loaded.data, RULE_FILES[stem], marks=loaded.marks, filename=str(path))
    assert issues == [], "\n".join(i.format() for i in issues)
    # the editor hint on the first line names the same schema
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=../../schemas/{RULE_FILES[stem]}.schema.json"


def _rules(stem: str) -> dict:
    path = ROOT / "rules" / "bfg" / f"{stem}.yaml"
    return load_yaml(path.read_bytes(), str(path)).data


def test_crt_refuses_short_column_and_unknown_result():
    doc = _rules("crt")
    doc["results"]["1:1"] = ["Ex", "Dr", "Dr", "Ar", "Ar"]
    doc["results"]["2:1"][0] = "NE"
    doc["cells"][0]["die"] = 7
    found = codes(validate(doc, "bfg-crt"))
    assert "SCHEMA-MINITEMS" in found and "SCHEMA-ENUM" in found and "SCHEMA-MAXIMUM" in found


def test_provenance_rulebook_needs_section_and_public_needs_source():
    doc = _rules("crt")
    doc["below_lowest"]["provenance"] = {"status": "rulebook"}
    doc["above_highest"]["provenance"] = {"status": "public", "note": "somewhere"}
    issues = validate(doc, "bfg-crt")
    assert codes(issues) == ["SCHEMA-REQUIRED", "SCHEMA-REQUIRED"]
    assert {i.message for i in issues} == {"missing required field 'section'", "missing required field 'source'"}


def test_terrain_field_provenance_map_and_section_normalised():
    doc = _rules("terrain")
    doc["terrain"]["clear"]["provenance"]["move_cost"] = {"status": "rulebook", "section": 5}
    assert validate(doc, "bfg-terrain") == []
    assert doc["terrain"]["clear"]["provenance"]["move_cost"]["section"] == "5"
    doc["terrain"]["clear"]["provenance"]["speed"] = {"status": "provisional"}
    assert "SCHEMA-ADDITIONALPROPERTIES" in codes(validate(doc, "bfg-terrain"))


def test_terrain_needs_move_cost_unless_prohibited():
    doc = _rules("terrain")
    del doc["terrain"]["clear"]["move_cost"]
    assert codes(validate(doc, "bfg-terrain")) == ["SCHEMA-REQUIRED"]
    doc = _rules("terrain")
    doc["terrain"]["sea"]["prohibited"] = "yes"
    assert sorted(codes(validate(doc, "bfg-terrain"))) == ["SCHEMA-REQUIRED", "SCHEMA-TYPE"]


def test_turns_need_all_five_boxes():
    doc = _rules("turns")
    del doc["turns"][0]["replacements"]["allied-italy"]
    doc["turns"][1]["replacements"]["german"] = 1
    assert sorted(codes(validate(doc, "bfg-turns"))) == ["SCHEMA-ADDITIONALPROPERTIES", "SCHEMA-REQUIRED"]


def test_rulings_unknown_key_and_value():
    doc = _rules("rulings")
    doc["retreat_hexes"]["value"] = 0
    doc["retreat_lenght"] = {"value": 1, "provenance": {"status": "provisional"}}
    issues = validate(doc, "bfg-rulings")
    assert sorted(codes(issues)) == ["SCHEMA-ADDITIONALPROPERTIES", "SCHEMA-MINIMUM"]
    assert "did you mean 'retreat_hexes'" in [i for i in issues if i.code == "SCHEMA-ADDITIONALPROPERTIES"][0].message


# ------------------------------------------------------------------------------ orders
GOOD_ORDERS = f"""\
# yaml-language-server: $schema=../schemas/orders.schema.json
schema: pbem/orders/v1
game: bfg
campaign: club-2025
player: soviet
turn: 3
state: {SHA}
phases:
  - phase: soviet.replacement
    replacements:
      - {{unit: guards-5, hex: 1026}}
      - hex: 0926
    courland_entry:
      - {{unit: baltic-2, hex: 3524}}
  - phase: soviet.movement
    moves:
      - {{unit: belorussian-1, path: [1519, 1518, 1517]}}
      - {{unit: belorussian-2, to: 1616}}
      - {{unit: ukrainian-3, path: []}}
    note: push to the Oder
  - phase: soviet.combat
    attacks:
      - target: 1616
        units: [belorussian-1, belorussian-2]
        advance: belorussian-1
        ex_losses: [belorussian-2]
        retreats: {{belorussian-1: 1518, belorussian-2: '1617'}}
      - targets: [1415, 1416]
        units: [ukrainian-3]
        advance: ukrainian-3@1415
      - target: '0812'
        units: [ukrainian-4]
        advance: ask
decisions:
  - id: t03.west-german.combat.c1.retreat.ss-panzer-6
    choice: '1210'
  - id: t03.west-german.combat.c2.ex
    choice: [belorussian-1, belorussian-2]
standing:
  retreat: auto
  advance: none
  ex_losses: ask
  replacement_ties: auto
  courland_port: ask
comment: good luck
"""


def test_good_orders_validate_and_hexes_become_strings():
    loaded = load(GOOD_ORDERS)
    issues = validate(loaded.data, "bfg-orders", marks=loaded.marks, filename="orders.yaml")
    assert issues == [], "\n".join(i.format() for i in issues)
    doc = loaded.data
    assert doc["phases"][0]["replacements"][0]["hex"] == "1026"
    assert doc["phases"][0]["replacements"][1]["hex"] == "0926"
    assert doc["phases"][1]["moves"][0]["path"] == ["1519", "1518", "1517"]
    assert doc["phases"][1]["moves"][1]["to"] == "1616"
    assert doc["phases"][2]["attacks"][0]["target"] == "1616"
    assert doc["phases"][2]["attacks"][0]["retreats"] == {"belorussian-1": "1518", "belorussian-2": "1617"}
    assert doc["phases"][2]["attacks"][1]["targets"] == ["1415", "1416"]
    assert doc["phases"][0]["courland_entry"][0]["hex"] == "3524"


def test_courland_exit_and_minimal_orders():
    text = f"""\
schema: pbem/orders/v1
game: bfg
campaign: '2025'
player: western
turn: 1
state: {SHA}
phases:
  - phase: east-german.replacement
    courland_exit: {{unit: panzer-3, port: Stettin}}
  - phase: east-german.movement
    moves:
      - {{unit: panzer-4, to: 1601, exit: west, remove: [us-1, us-3]}}
"""
    loaded = load(text)
    assert validate(loaded.data, "bfg-orders", marks=loaded.marks) == []
    assert loaded.data["campaign"] == "2025"
    port = load(text.replace("port: Stettin", "port: 3012")).data
    assert validate(port, "bfg-orders") == []
    assert port["phases"][0]["courland_exit"]["port"] == "3012"
    standing_only = f"schema: pbem/orders/v1\ngame: bfg\ncampaign: c1\nplayer: soviet\nstate: {SHA}\nstanding: {{retreat: ask}}\n"
    assert issues_of(standing_only) == []


def _line_of(needle: str) -> int:
    """1-based line of ``needle`` in GOOD_ORDERS."""
    return next(n for n, line in enumerate(GOOD_ORDERS.splitlines(), start=1) if needle in line)


def _bad(old: str, new: str):
    assert old in GOOD_ORDERS
    return issues_of(GOOD_ORDERS.replace(old, new, 1))


def test_unknown_field():
    issues = _bad("    note: push to the Oder", "    notes: push to the Oder")
    assert codes(issues) == ["SCHEMA-ADDITIONALPROPERTIES"]
    assert "unknown field 'notes'" in issues[0].message and "did you mean 'note'" in issues[0].message
    assert issues[0].line == _line_of("    note: push to the Oder") and issues[0].path == ("phases", 1)


def test_unknown_top_level_field():
    issues = _bad("comment: good luck", "coment: good luck")
    assert codes(issues) == ["SCHEMA-ADDITIONALPROPERTIES"]
    assert "did you mean 'comment'" in issues[0].message


def test_short_hex_is_a_pattern_error():
    issues = _bad("hex: 1026", "hex: 101")
    assert codes(issues) == ["SCHEMA-PATTERN"]
    assert issues[0].path == ("phases", 0, "replacements", 0, "hex")
    assert issues[0].text == "'101'"
    assert issues[0].hint and "hex id" in issues[0].hint
    assert issues[0].line == _line_of("{unit: guards-5, hex: 1026}")


def test_hex_out_of_range():
    assert codes(_bad("to: 1616", "to: 3627")) == ["SCHEMA-PATTERN"]
    assert codes(_bad("path: [1519, 1518, 1517]", "path: [1519, 1500]")) == ["SCHEMA-PATTERN"]


def test_path_and_to_together():
    issues = _bad("{unit: belorussian-2, to: 1616}", "{unit: belorussian-2, to: 1616, path: [1616]}")
    assert codes(issues) == ["SCHEMA-ONEOF"]
    assert issues[0].path == ("phases", 1, "moves", 1)


def test_neither_path_nor_to():
    assert codes(_bad("{unit: belorussian-2, to: 1616}", "{unit: belorussian-2}")) == ["SCHEMA-ONEOF"]


def test_target_and_targets_together_or_neither():
    assert codes(_bad("      - targets: [1415, 1416]", "      - target: 1414\n        targets: [1415, 1416]")) == ["SCHEMA-ONEOF"]
    assert codes(_bad("      - targets: [1415, 1416]\n", "      - units_note: x\n")) == \
        ["SCHEMA-ADDITIONALPROPERTIES", "SCHEMA-ONEOF"]
    assert codes(_bad("targets: [1415, 1416]", "targets: []")) == ["SCHEMA-MINITEMS"]


def test_attack_needs_units():
    assert codes(_bad("units: [ukrainian-4]", "units: []")) == ["SCHEMA-MINITEMS"]


def test_standing_yes_is_not_a_choice():
    issues = _bad("  retreat: auto", "  retreat: yes")
    assert codes(issues) == ["SCHEMA-ENUM"]
    assert issues[0].path == ("standing", "retreat")
    assert "ask, auto" in issues[0].message


def test_standing_unknown_key():
    assert codes(_bad("  advance: none", "  advance: auto")) == ["SCHEMA-ENUM"]
    assert codes(_bad("  advance: none", "  advanse: none")) == ["SCHEMA-ADDITIONALPROPERTIES"]


def test_bad_phase_name_and_header():
    assert codes(_bad("phase: soviet.movement", "phase: soviet.move")) == ["SCHEMA-PATTERN"]
    assert codes(_bad("schema: pbem/orders/v1", "schema: pbem/orders/v2")) == ["SCHEMA-CONST"]
    assert codes(_bad(f"state: {SHA}", "state: abc")) == ["SCHEMA-PATTERN"]
    assert codes(_bad("turn: 3", "turn: 0")) == ["SCHEMA-MINIMUM"]
    assert codes(_bad("turn: 3", "turn: '3'")) == ["SCHEMA-TYPE"]
    assert codes(_bad("player: soviet\n", "")) == ["SCHEMA-REQUIRED"]


def test_unit_ids_and_advance_forms():
    assert codes(_bad("{unit: guards-5, hex: 1026}", "{unit: 5-guards, hex: 1026}")) == ["SCHEMA-PATTERN"]
    assert codes(_bad("advance: ukrainian-3@1415", "advance: ukrainian-3@14")) == ["SCHEMA-PATTERN"]
    assert codes(_bad("retreats: {belorussian-1: 1518,", "retreats: {belorussian-1: 18,")) == ["SCHEMA-PATTERN"]


def test_remove_at_most_two():
    text = GOOD_ORDERS.replace("{unit: ukrainian-3, path: []}",
                               "{unit: ukrainian-3, path: [], exit: east, remove: [a, b, c]}")
    assert codes(issues_of(text)) == ["SCHEMA-MAXITEMS"]
    assert codes(issues_of(text.replace("exit: east", "exit: north").replace(", c]", "]"))) == ["SCHEMA-ENUM"]


def test_decision_choice_forms():
    assert codes(_bad("choice: [belorussian-1, belorussian-2]", "choice: []")) == ["SCHEMA-MINITEMS"]
    # an unquoted hex id that loads as an int becomes the string "1210" (lossless)
    assert codes(_bad("choice: '1210'", "choice: 1210")) == []


# ------------------------------------------------------------------------------ campaign, report
CAMPAIGN = f"""\
schema: pbem/campaign/v1
game: bfg
scenario: bfg-historical
id: club-2025
title: Club game
players:
  soviet: {{name: Anna, email: anna@example.org}}
  western: {{name: Bert}}
dice: {{algorithm: hmac-sha256-rej64/v1, commitment: {SHA}}}
options: {{german_east_front: false}}
standing: {{retreat: ask}}
engine: 0.1.0
created: 1 March 2025
missing_orders: {{soviet: no-orders}}
"""


def test_campaign_manifest():
    assert issues_of(CAMPAIGN, "campaign") == []
    assert codes(issues_of(CAMPAIGN.replace("german_east_front: false", "german_east_front: no"), "campaign")) == ["SCHEMA-TYPE"]
    assert codes(issues_of(CAMPAIGN.replace("id: club-2025", "id: -club"), "campaign")) == ["SCHEMA-PATTERN"]
    assert codes(issues_of(CAMPAIGN.replace("soviet: no-orders", "soviet: skip"), "campaign")) == ["SCHEMA-ENUM"]
    assert codes(issues_of(CAMPAIGN.replace("anna@example.org", "anna"), "campaign")) == ["SCHEMA-FORMAT"]
    assert codes(issues_of(CAMPAIGN.replace("{name: Bert}", "{email: b@example.org}"), "campaign")) == ["SCHEMA-REQUIRED"]


# ------------------------------------------------------------------------------ engine output
def _ruleset():
    """A small made-up Battle for Germany position on an all-clear map (real rules/bfg data)."""
    from pbem.bfg.ruleset import build_ruleset
    rows = {str(r): "c" * 26 for r in range(1, 36)}
    map_doc = {
        "grid": {"rows": 35, "columns": 26, "offset": "even-rows-east"},
        "terrain": {"legend": {"c": "clear"}, "rows": rows},
        "hexsides": {"rivers": [], "prohibited": []},
        "cities": {"list": [
            {"hex": "2014", "name": "Berlin", "vp": 10, "berlin": True, "garrison": True},
            {"hex": "3012", "name": "Stettin", "vp": 1, "courland_port": True},
            {"hex": "1020", "name": "Breslau", "vp": 2},
        ]},
        "fortresses": {"hexes": ["1010"]},
        "theater_boundary": {"east_from": {str(r): 14 for r in range(1, 36)}, "both": ["2014"]},
        "yugoslavia": {"hexes": []},
        "italy": {"hexes": []},
        "edges": {"german_exit": {"west": ["1601"], "east": ["0926"], "south": ["0112"]},
                  "soviet_replacement": ["0926", "1026"], "western_replacement": ["1601"],
                  "italy_replacement": ["0112"], "courland_entry": ["3523", "3524"]},
    }
    scenario_doc = {"id": "bfg-test", "turns": {"first": 1, "last": 2}, "units": [
        {"id": "belorussian-1", "nation": "soviet", "force": "soviet", "type": "front",
         "attack": 6, "defense": 6, "move": 4, "hex": "1018"},
        {"id": "army-9", "nation": "german", "force": "east-german", "type": "army",
         "attack": 3, "defense": 3, "move": 4, "hex": "1019"},
        {"id": "baltic-2", "nation": "soviet", "force": "soviet", "type": "front",
         "attack": 4, "defense": 4, "move": 4, "hex": "courland"},
        {"id": "us-1", "nation": "american", "force": "western-allied", "type": "army",
         "attack": 4, "defense": 4, "move": 5, "hex": "1005"},
        {"id": "army-7", "nation": "german", "force": "west-german", "type": "army",
         "attack": 2, "defense": 2, "move": 4, "hex": "1007"},
    ]}
    docs = {"map": map_doc, "scenario": scenario_doc}
    for stem in RULE_FILES:
        docs[stem] = _rules(stem)
    return build_ruleset(docs, SHA)


def _check_state_file(state: dict) -> dict:
    """The state as pbem writes it (render_state) and reads it back (load_yaml + schema)."""
    from pbem.core.campaign import render_state
    text = render_state(state)
    loaded = load_yaml(text, "state.yaml")
    issues = validate(loaded.data, "bfg-state", marks=loaded.marks, filename="state.yaml")
    assert issues == [], "\n".join(i.format() for i in issues)
    assert loaded.data["hash"] == state_hash(loaded.data)
    return loaded.data


def _check_report(state_in: dict, outcome, ofs) -> dict:
    from pbem.core.campaign import orders_archive_name, state_file_name
    from pbem.core.report import build_report, report_json
    out = _check_state_file(outcome.state) if outcome.state is not None else None
    report = build_report(game="bfg", campaign=state_in["campaign"], step=state_in["step"] + 1,
                          input_state=state_file_name(state_in), input_hash=state_in["hash"],
                          orders=[{"file": orders_archive_name(of, i + 1), "player": of.player, "sha256": of.digest}
                                  for i, of in enumerate(ofs)],
                          outcome=outcome, output_state=state_file_name(out) if out else None,
                          output_hash=out["hash"] if out else None, dice=dict(state_in["dice"]))
    report = json.loads(report_json(report))
    issues = validate(report, "report")
    assert issues == [], "\n".join(i.format() for i in issues)
    return report


def test_engine_states_and_reports_validate(tmp_path):
    """A campaign made with the real manifest/state writers, one combat that stops at a retreat
    decision, the answer, and a refused file: manifest, every state and every report validate."""
    from pbem.bfg import adjudicate
    from pbem.bfg.scenario import initial_state
    from pbem.core.campaign import Campaign, parse_order_bytes
    from pbem.core.dice import ALGORITHM, commitment
    from pbem.core.game import Submission
    rs = _ruleset()
    key = "ab" * 32
    players = {"soviet": {"name": "Anna", "email": "anna@example.org"}, "western": {"name": "Bert"}}
    st0 = initial_state(rs, campaign="club-2025", players={p: v["name"] for p, v in players.items()},
                        commitment=commitment(key), algorithm=ALGORITHM, options={"german_east_front": False},
                        engine_version="0.1.0", standing={"retreat": "ask"})
    manifest = {"schema": "pbem/campaign/v1", "game": "bfg", "scenario": "bfg-historical", "id": "club-2025",
                "title": "Battle for Germany: bfg-historical", "players": players,
                "dice": {"algorithm": ALGORITHM, "commitment": commitment(key)},
                "options": dict(st0["options"]), "engine": "0.1.0"}
    camp = Campaign.create(tmp_path / "camp", manifest, st0, key)   # validates the manifest
    _, st0 = camp.current()                                         # validates the state file
    assert st0["players"] == {"soviet": "Anna", "western": "Bert"}

    def dice(*, step, orders_digest, state_hash):
        return ScriptedDice({"c1-1019/d6": 3}, prefix=f"bfg/club-2025/{step}/")

    def order_file(text, name):
        of = parse_order_bytes(text.encode("utf-8"), name)          # validates against orders
        return of, Submission(player=of.player, doc=of.doc, digest=of.digest, name=of.name)

    of1, sub1 = order_file(f"""\
schema: pbem/orders/v1
game: bfg
campaign: club-2025
player: soviet
turn: 1
state: {st0['hash']}
phases:
  - phase: soviet.combat
    attacks:
      - {{target: 1019, units: [belorussian-1], advance: belorussian-1}}
""", "soviet-t01.yaml")
    out = adjudicate(rs, st0, [sub1], dice)
    assert out.stopped == "pending", [i.format() for i in out.issues]
    assert out.state["pending"][0]["kind"] == "retreat" and "resume" in out.state
    report = _check_report(st0, out, [of1])
    assert report["rolls"] and report["output"]
    st1 = _check_state_file(out.state)

    pending = st1["pending"][0]
    from pbem.bfg.template import template
    for state, player in ((st0, "soviet"), (st0, "western"), (st1, pending["player"]), (st1, "soviet")):
        text = template(rs, state, player, schema_ref="orders.schema.json", state_file="state.yaml")
        loaded = load(text, "template.yaml")
        issues = validate(loaded.data, "bfg-orders", marks=loaded.marks, filename="template.yaml")
        assert issues == [], "\n".join(i.format() for i in issues)   # templates validate as written
    of2, sub2 = order_file(f"""\
schema: pbem/orders/v1
game: bfg
campaign: club-2025
player: {pending['player']}
state: {st1['hash']}
decisions:
  - id: {pending['id']}
    choice: '{pending['options'][-1]}'
""", "western-answer.yaml")
    out2 = adjudicate(rs, st1, [sub2], dice)
    assert out2.stopped == "complete", [i.format() for i in out2.issues]
    assert "resume" not in out2.state
    _check_report(st1, out2, [of2])

    of3, sub3 = order_file(f"""\
schema: pbem/orders/v1
game: bfg
campaign: club-2025
player: soviet
turn: 2
state: {st0['hash']}
phases: [{{phase: soviet.movement, moves: [{{unit: belorussian-1, to: 1017}}]}}]
""", "late.yaml")
    refused = adjudicate(rs, st0, [sub3], dice)
    assert refused.stopped == "refused" and refused.state is None and refused.issues
    report = _check_report(st0, refused, [of3])
    assert report["output"] is None and report["issues"][0]["code"] == "ORDERS-TURN"
