"""The e-mail sniffer (issue 35): `validate` and `adjudicate` tell an e-mail from an order file
without importing the e-mail machinery, and import it when a file is one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pbem.core.mailsniff import any_mail, read_mail

ROOT = Path(__file__).resolve().parents[2]


def test_any_mail_is_read_mail_on_each_file(tmp_path):
    files = {"o.yaml": b"schema: pbem/orders/v1\nplayer: axis\n", "m.txt": b"From: a@b\nSubject: x\n\nschema: pbem/orders/v1\n",
             "x.eml": b"garbage", "box": b"From a@b Mon Jan  1 00:00:00 2026\nSubject: x\n\n", "empty": b""}
    for name, raw in files.items():
        (tmp_path / name).write_bytes(raw)
        p = tmp_path / name
        assert any_mail([p]) == (read_mail(p) is not None), name
    assert not any_mail([tmp_path / "missing.yaml", tmp_path])
    assert any_mail([("name#body", b"...")])


def test_validate_of_order_files_does_not_import_the_mail_module():
    example = ROOT / "examples" / "blitzwar-1939"
    state = next(p for p in sorted((example / "steps" / "121").glob("*.yaml")) if not p.name.startswith("orders-"))
    orders = sorted((example / "steps" / "122").glob("orders-*.yaml"))
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "pbem", "validate", str(state), *map(str, orders)],
                       capture_output=True, text=True)
    imported = [ln.rsplit("|", 1)[-1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")]
    assert "pbem.core.mailsniff" in imported and "pbem.core.orders" in imported, r.stderr[-2000:]
    assert "pbem.core.mail" not in imported
