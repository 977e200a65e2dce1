"""Build hook: ship the component data inside the package.

The top-level folders ``rules/``, ``scenarios/`` and ``schemas/`` stay the only source of the
data. A wheel (``pip install .``, ``pipx install .``, ``pip wheel .``) gets a copy of every file
under them as ``pbem/data/<folder>/...``, whatever game folders they hold (no list of files to
keep up to date). An editable install copies nothing: it reads the repository folders.
Everything else is declared in pyproject.toml.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("rules", "scenarios", "schemas")
HERE = os.path.dirname(os.path.abspath(__file__))


def _shipped(name: str) -> bool:
    """Files that belong in the package (not editor or Python leftovers)."""
    return not (name.startswith(".") or name.endswith(("~", ".pyc", ".swp", ".orig", ".rej")))


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = os.path.join(self.build_lib, "pbem", "data")
        shutil.rmtree(target, ignore_errors=True)  # no stale file of an earlier build
        for folder in DATA_FOLDERS:
            source = os.path.join(HERE, folder)
            if not os.path.isdir(source):
                raise SystemExit(f"pbem build: the data folder {folder}/ is missing")
            for dirpath, dirnames, filenames in os.walk(source):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
                rel = os.path.relpath(dirpath, HERE)
                for name in sorted(filter(_shipped, filenames)):
                    dest = os.path.join(target, rel, name)
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copyfile(os.path.join(dirpath, name), dest)


setup(cmdclass={"build_py": BuildPyWithData})
