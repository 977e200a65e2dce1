#!/usr/bin/env python3
"""Write pbem/core/shipped-valid.json: the list of pbem's own data files (rules/, scenarios/)
found valid against their schemas, by which a command recognises them and does not check them
again (pbem.core.schema, "The shipped data"). Run it after changing a data file or a schema;
tests/core/test_shipped_valid.py fails while the list is not the one the files give."""
from __future__ import annotations

import sys

from pbem.core.data import shipped_valid_text
from pbem.core.schema import SHIPPED_LIST


def main() -> int:
    text = shipped_valid_text()
    old = SHIPPED_LIST.read_text(encoding="utf-8") if SHIPPED_LIST.exists() else None
    if old == text:
        print(f"{SHIPPED_LIST} is up to date")
        return 0
    SHIPPED_LIST.write_text(text, encoding="utf-8")
    print(f"wrote {SHIPPED_LIST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
