import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "bfg"))

# The suite keeps its validity markers (pbem.core.schema) to itself, not in the user's cache.
import os
import tempfile

os.environ.setdefault("PBEM_CACHE_DIR", tempfile.mkdtemp(prefix="pbem-test-cache-"))
# ... and reads the shipped data, whatever data folder the developer uses (pbem --data).
os.environ.pop("PBEM_DATA", None)
# ... and prints at the width a pipe gets, whatever COLUMNS the shell or pytest-xdist (80) exports.
os.environ.pop("COLUMNS", None)
# ... and holds BlitzWAR's index of the counters by place to the scan of every counter at each
# question (a counter moved other than by pbem.blitzwar.context.move_counter fails where it runs).
from pbem.blitzwar import context as _blitzwar_context

_blitzwar_context.CHECK_PLACES = True
