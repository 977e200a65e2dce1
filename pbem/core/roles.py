"""A vacant role taken over by a replacement player (issue 34): ``pbem player replace CAMPAIGN
ROLE --email ADDRESS --key PUBLIC``.

campaign.yaml takes the new address and key at once, and names the key it replaces
(``replaces``): a key swapped in campaign.yaml without that stays refused (the keys in force come
from the archive). The next adjudicated step archives the manifest as changed
(``steps/NNN/campaign.json``, the mechanism of ``pbem missing-default``), so that replay checks
every file against the key in force at its step: the newest archived manifest at or before it.
The old player's key is refused from that step on. The role keeps its name (the states carry
the players' names)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ExitCode, Issue, PbemError

if TYPE_CHECKING:
    from .campaign import Campaign


def replace_player(camp: Campaign, role: str, email: str | None, key: str) -> dict[str, Any]:
    """campaign.yaml's entry for ``role`` with the new e-mail and key (returned); every problem at once."""
    from .campaign import MANIFEST, SCHEMA_FOLDER
    from .files import atomic_write
    from .schema import validate
    from .signing import is_public_key, trusted_keys
    from .yamlio import dump_yaml
    players = dict(camp.manifest.get("players") or {})
    issues = []
    if role not in players:
        issues.append(Issue("USAGE-PLAYER", f"this campaign has no player {role!r}", text=role,
                            hint="players: " + ", ".join(sorted(players))))
    if not is_public_key(key):
        issues.append(Issue("USAGE-KEY", f"{key!r} is no public key (64 hex digits: pbem key new prints it)", text=key))
    old = trusted_keys(camp).get(role)
    if old is not None and old == key:
        issues.append(Issue("USAGE-KEY", f"the {role} player has this key already: a replacement brings a new key", text=key))
    if issues:
        raise PbemError(issues, ExitCode.USAGE)
    entry = {"name": players[role]["name"]} | ({"email": email} if email else {}) | {"key": key}
    if old is not None:
        entry["replaces"] = old
    players[role] = entry
    m = dict(camp.manifest) | {"players": players}
    found = validate(m, "campaign", filename=MANIFEST)
    if any(i.is_error for i in found):
        raise PbemError(found)
    atomic_write(camp.root / MANIFEST, dump_yaml(m, header=f"yaml-language-server: $schema={SCHEMA_FOLDER}/campaign.schema.json\npbem campaign manifest"),
                 overwrite=True)
    camp.manifest = m
    return entry


def player_change_issues(before: dict[str, Any], after: dict[str, Any], where: str, path: Path) -> list[Issue]:
    """What an archived manifest copy may change in the players of the one before: a player's
    e-mail, and a key only in place of the one its entry says it replaces (or where none was)."""
    out = []
    bp, ap = before.get("players") or {}, after.get("players") or {}
    if sorted(bp) != sorted(ap):
        return [Issue("REPLAY-MANIFEST", f"{where} changes the players of the campaign", file=str(path))]
    for p in sorted(ap):
        b, a = bp[p] or {}, ap[p] or {}
        if a.get("name") != b.get("name"):
            out.append(Issue("REPLAY-MANIFEST", f"{where} changes the {p} player's name", file=str(path)))
        if b.get("key") and a.get("key") != b.get("key") and a.get("replaces") != b.get("key"):
            out.append(Issue("REPLAY-MANIFEST", f"{where} changes the {p} player's public key without naming the key it replaces",
                             file=str(path), hint="pbem player replace records a replacement"))
    return out


def keys_by_step(camp: Campaign) -> list[tuple[int, dict[str, str]]]:
    """(step, player -> key) of every archived manifest copy, by step."""
    from .signing import campaign_keys
    out = []
    for n, path in camp.manifest_copies():
        try:
            doc = json.loads(camp.inside(path).read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict):
            out.append((n, campaign_keys(doc)))
    return out


def keys_at(copies: list[tuple[int, dict[str, str]]], step: int, default: dict[str, str]) -> dict[str, str]:
    """The keys in force at ``step``: those of the newest copy at or before it, with the
    ``default`` keys of players it has none for (a key added later by ``pbem key add``)."""
    force = [k for n, k in copies if n <= step]
    return dict(sorted(({**default, **force[-1]} if force else default).items()))


def replacements_in(copies: list[tuple[int, dict[str, str]]]) -> list[str]:
    """One line per replacement the archive records: the step and the role. ``copies``: the
    keys of the archived manifest copies (:func:`keys_by_step`, read once by the replay)."""
    out = []
    prev: dict[str, str] | None = None
    for n, keys in copies:
        if prev is not None:
            out += [f"step {n:03d}: the {p} player replaced (a new public key {k[:16]}...)"
                    for p, k in sorted(keys.items()) if p in prev and prev[p] != k]
        prev = keys
    return out


# ---------------------------------------------------------------- concessions and draws
END_SCHEMA = "pbem/end/v1"
END_EVENT = "game-ended-by-agreement"


def load_end(raw: bytes, name: str) -> tuple[dict[str, Any] | None, list[Issue]]:
    """An end file's document and its schema problems (``schemas/end.schema.json``)."""
    from .schema import validate
    from .yamlio import load_yaml
    try:
        doc = load_yaml(raw, name).data
    except PbemError as e:
        return None, e.issues
    issues = validate(doc, "end", filename=name)
    return (doc if isinstance(doc, dict) else None), issues


def end_issues(state: dict[str, Any], players: list[str], keys: dict[str, str], name: str,
               raw: bytes) -> tuple[list[Issue], dict[str, Any] | None]:
    """Every problem of one end file against the current state, and its document."""
    from .signing import check
    doc, issues = load_end(raw, name)
    if doc is None or any(i.is_error for i in issues):
        return issues, None
    if state.get("result"):
        issues.append(Issue("END-OVER", "the game is over already", file=name))
    for k, want in (("game", state["game"]), ("campaign", state["campaign"]), ("state", state["hash"])):
        if doc.get(k) != want:
            issues.append(Issue("END-STALE" if k == "state" else "END-CAMPAIGN", f"`{k}: {doc.get(k)}` is not this campaign's {k} ({want})",
                                file=name, text=str(doc.get(k)), hint="write the file against the newest state of the campaign"))
    if "turn" in doc and doc["turn"] != state["turn"]:
        issues.append(Issue("END-STALE", f"turn {doc['turn']} is not the turn of the state ({state['turn']})", file=name))
    if doc["player"] not in players:
        issues.append(Issue("END-PLAYER", f"this campaign has no player {doc['player']!r}", file=name, hint="players: " + ", ".join(players)))
    else:
        issues += check(raw, name, doc["player"], keys, "end file")[0]
    return issues, doc


def end_result(players: list[str], docs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The result the end files make: a concession ends the game (the others win), a draw
    when every player sent one; None while a draw awaits players."""
    conceded = sorted({d["player"] for d in docs if d.get("concede")})
    if conceded:
        winners = sorted(set(players) - set(conceded))
        why = " and ".join(conceded) + " conceded"
        if not winners:
            return {"winner": None, "draw": True, "reason": why}
        return {"winner": winners[0] if len(winners) == 1 else None, "draw": False, "reason": why} | (
            {"winners": winners} if len(winners) > 1 else {})
    drawn = {d["player"] for d in docs if d.get("draw")}
    if drawn >= set(players):
        return {"winner": None, "draw": True, "reason": "a draw agreed by " + ", ".join(sorted(drawn))}
    return None


def end_step(state: dict[str, Any], state_name: str, files: list[tuple[str, bytes, dict[str, Any]]],
             result: dict[str, Any]) -> dict[str, bytes]:
    """The files of the step that ends the game (end files, report, the final state): a pure
    function of the state and the end files, so that replay makes them again byte for byte."""
    from .campaign import render_state_hashed, state_file_name
    from .canon import sha256_hex
    from .data import load_ruleset
    from .kernel import Outcome
    from .report import build_report, report_json
    from .step import dice_report
    g, _ = load_ruleset(state["scenario"])
    new = {k: v for k, v in state.items() if k != "hash"}
    new.update(step=state["step"] + 1, previous=state["hash"], phase="end", result=result, awaiting=None, pending=[])
    text_state, out_hash = render_state_hashed(new, g.state_schema)
    out_name = state_file_name(new)
    names = [f"orders-end-{i + 1}-{d['player']}-{sha256_hex(raw)[:12]}.yaml" for i, (_, raw, d) in enumerate(files)]
    ev = {"type": END_EVENT, "result": result, "players": [d["player"] for _, _, d in files],
          "comments": {d["player"]: d["comment"] for _, _, d in files if d.get("comment")}}
    outcome = Outcome(events=[ev], stopped="game-over")
    report = build_report(game=state["game"], campaign=state["campaign"], step=new["step"], input_state=state_name,
                          input_hash=state["hash"], orders=[{"file": n, "player": d["player"], "sha256": sha256_hex(raw)}
                                                            for n, (_, raw, d) in zip(names, files)],
                          outcome=outcome, output_state=out_name, output_hash=out_hash, dice=dice_report(state, None))
    from .mail import result_phrase
    text = [f"step {new['step']:03d}: the game ends by agreement: {result_phrase(result)} ({result['reason']})"]
    text += [f"  {d['player']}: " + ("concedes" if d.get("concede") else f"draw {d['draw']}") + (f" - {d['comment']}" if d.get("comment") else "")
             for _, _, d in files]
    out = {n: raw for n, (_, raw, _) in zip(names, files)}
    out |= {"report.json": report_json(report).encode("utf-8"), "report.txt": ("\n".join(text) + "\n").encode("utf-8"),
            out_name: text_state.encode("utf-8")}
    return out


def end_campaign(camp: Campaign, files: list[tuple[str, bytes]]) -> tuple[Path | None, list[Issue], list[str]]:
    """Check end files against the campaign's current state and, when they end the game,
    archive the step (the step folder); else (None, issues, the players a draw still awaits)."""
    from .campaign import MANIFEST_COPY
    from .canon import canonical_json
    from .signing import trusted_keys
    path, st = camp.current()
    players = sorted(camp.manifest.get("players") or {})
    keys = trusted_keys(camp)
    issues: list[Issue] = []
    docs = []
    for name, raw in files:
        found, doc = end_issues(st, players, keys, name, raw)
        issues += found
        if doc is not None:
            docs.append((name, raw, doc))
    if len({d["player"] for _, _, d in docs}) != len(docs):
        issues.append(Issue("END-TWICE", "two end files of one player"))
    if any(i.is_error for i in issues):
        return None, issues, []
    result = end_result(players, [d for _, _, d in docs])
    if result is None:
        return None, issues, sorted(set(players) - {d["player"] for _, _, d in docs})
    out = end_step(st, path.name, docs, result)
    if camp.manifest_amended():
        out[MANIFEST_COPY] = canonical_json(camp.manifest) + b"\n"
    return camp.write_step(st["step"] + 1, out), issues, []


def replay_end(run: Any, k: int, d: Path, archived_raw: bytes, listed: list[tuple[str, str]]) -> dict[str, Any] | None:
    """Replay of a step that ended the game by agreement (its report has the event
    END_EVENT): the end files checked (sha256, schema, signature with the keys in force at the
    step) and the step made again byte for byte. The new state, or None (issues in run.res)."""
    from .campaign import MANIFEST_COPY, load_state_file
    players = sorted(run.camp.manifest.get("players") or {})
    docs, issues = [], []
    for name, sha in listed:
        raw = run.camp.inside(d / name).read_bytes()
        from .canon import sha256_hex
        if sha256_hex(raw) != sha:
            issues.append(Issue("HASH-ORDERS", f"step {k:03d}: {name} was changed after it was archived", file=str(d / name)))
        found, doc = end_issues(run.state, players, run.keys_at(k), name, raw)
        issues += [i for i in found if i.is_error]
        if doc is not None:
            docs.append((name, raw, doc))
    result = None if issues else end_result(players, [x[2] for x in docs])
    if result is None:
        issues.append(Issue("REPLAY-END", f"step {k:03d}: its end files do not end the game", file=str(d)))
        run.res.issues += issues
        return None
    want = end_step(run.state, run.prev_path.name, docs, result)
    for name, data in want.items():
        p = d / name
        if not p.is_file() or run.camp.inside(p).read_bytes() != data:
            run.res.issues.append(Issue("REPLAY-END", f"step {k:03d}: {name} differs from the step its end files make", file=str(p)))
            return None
    have = {p.name for p in d.iterdir()} - {MANIFEST_COPY}
    if have != set(want):
        run.res.issues.append(Issue("REPLAY-EXTRA", f"step {k:03d}: files besides the step's: {', '.join(sorted(have - set(want)))}", file=str(d)))
        return None
    out_name = json.loads(want["report.json"])["output"]["state"]
    run.prev_path = d / out_name
    new_state, _ = load_state_file(run.prev_path)
    run.res.steps += 1
    run.res.lines.append(f"step {k:03d}: {out_name} identical; the game ended by agreement: {result['reason']}")
    return new_state
