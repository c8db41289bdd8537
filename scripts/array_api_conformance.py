"""Run the Array API standard's conformance suite on rune.nx (or another namespace).

The suite is data-apis/array-api-tests (MIT) with the standard's own repository,
data-apis/array-api, as its `array-api` submodule (the signatures and special
cases are read from it). Both are pinned here, once; the first run clones them
into .array-api-tests/ (git ignores it), later runs reuse the copy.

    python scripts/array_api_conformance.py                  # rune.nx, 10 examples
    python scripts/array_api_conformance.py --module numpy   # the baseline
    python scripts/array_api_conformance.py --source DIR -- array_api_tests/test_fft.py -x

Its own dependencies (hypothesis, ndindex, pytest-json-report) are in the test
extra. For rune.nx, tests/array_api_xfails.txt marks the cases that fail only
because tensors are immutable. The counts are pytest's last line; issue 28 records them beside numpy's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ("https://github.com/data-apis/array-api-tests",
         "55fcc60179efa2680ddd6cd926ddf17b83530e2b")  # 2026-04-03
SPEC = ("https://github.com/data-apis/array-api",
        "5f847a3858875c682ae901aa22b0413bf24be9da")  # the suite's submodule at that commit
API_VERSION = "2024.12"
# the cases that fail only because tensors never change (x[i] = v raises)
XFAILS = ROOT / "tests" / "array_api_xfails.txt"


def _checkout(url: str, commit: str, where: Path):
    """A shallow clone of `url` at `commit` in `where` (nothing if already there)."""
    if (where / ".git").exists():
        return
    where.mkdir(parents=True, exist_ok=True)
    for command in (["git", "init", "-q"], ["git", "remote", "add", "origin", url],
                    ["git", "fetch", "-q", "--depth", "1", "origin", commit],
                    ["git", "checkout", "-q", "FETCH_HEAD"]):
        subprocess.run(command, cwd=where, check=True)


def suite_directory(source: Path | None) -> Path:
    """The suite's directory, with the standard's repository as its `array-api`."""
    if source is not None:
        if not (source / "array-api" / "src" / "array_api_stubs").is_dir():
            sys.exit(f"--source {source}: expected array-api-tests with its array-api "
                     f"submodule checked out (array-api/src/array_api_stubs is missing)")
        return source
    where = ROOT / ".array-api-tests"
    _checkout(*SUITE, where)
    _checkout(*SPEC, where / "array-api")
    return where


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default="rune.nx", help="the namespace tested")
    parser.add_argument("--version", default=API_VERSION, help="the standard's revision")
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--source", type=Path, help="an existing checkout of the suite")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    directory = suite_directory(args.source)
    env = {**os.environ, "ARRAY_API_TESTS_MODULE": args.module,
           "ARRAY_API_TESTS_VERSION": args.version,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    # test files or ids among the extra arguments replace the whole suite
    paths = [a for a in args.pytest_args if a.startswith("array_api_tests")] or [
        "array_api_tests"]
    options = [a for a in args.pytest_args if a not in paths]
    command = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider",
               f"--max-examples={args.max_examples}", "--disable-deadline", "--derandomize",
               "--continue-on-collection-errors", "-rfE", "--tb=line", *options]
    if args.module == "rune.nx":
        command.append(f"--xfails-file={XFAILS}")
    return subprocess.run(command, cwd=directory, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
