#!/usr/bin/env python3
"""Convert BlitzWAR land cases written in the old land-runner format (top-level ``phase``/``turn``,
``orders: {player: phase entry}``; made on branches older than the core runner taking BlitzWAR) to
the core's case format (schemas/case.schema.json with BlitzWAR's keys), in place:

    python3 tools/blitzwar_land_case_to_core.py tests/cases/blitzwar/land/*.yaml

Files already in the core format (with ``start``) are left alone. ``issues`` get ``warnings_too``
(the old runner compared every issue). A file's comments are not kept."""
import sys, yaml
from pathlib import Path

class D(yaml.SafeDumper):
    pass
D.add_representer(str, lambda d, v: d.represent_scalar('tag:yaml.org,2002:str', v,
                  style="'" if (v[:1].isdigit() or v in ('yes','no','on','off','null','true','false') or ':' in v or v == '') else None))

def convert(path: Path):
    c = yaml.safe_load(path.read_text())
    if "start" in c:
        return
    out = {}
    words = path.stem.split("-", 1)
    out["case"] = f"{words[0]} {words[1].replace('-', ' ')}" if len(words) > 1 else words[0]
    out["title"] = c.pop("title")
    out["rule"] = str(c.pop("rule"))
    start = {"phase": c.pop("phase")}
    if "turn" in c:
        start["turn"] = c.pop("turn")
    orders = c.pop("orders", None)
    exp = c.pop("expect")
    dice = c.pop("dice", None)
    out.update(c)  # players, position, supply, control, war, sea_control, marks
    out["start"] = start
    if orders:
        out["orders"] = [{"player": p, "phases": [dict({"phase": start["phase"]}, **(e or {}))]} for p, e in orders.items()]
    if dice:
        out["dice"] = dice
    if "issues" in exp:
        exp = dict(exp)
        # the land runner compared every issue, warnings too
        items = list(exp.items())
        exp = {}
        for k, v in items:
            exp[k] = v
            if k == "issues":
                exp["warnings_too"] = True
    out["expect"] = exp
    path.write_text(yaml.dump(out, Dumper=D, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120))

for a in sys.argv[1:]:
    convert(Path(a))
