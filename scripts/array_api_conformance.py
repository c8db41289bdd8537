"""Run the Array API standard's conformance suite on rune.nx, numpy or both.

The suite is data-apis/array-api-tests (MIT) with the standard's 2024.12
signatures and special cases from data-apis/array-api, vendored under
tests/array_api_suite/ at pinned commits (VENDORED.txt there says which, and
how to move them): CI cannot clone from GitHub.

    python scripts/array_api_conformance.py                   # rune.nx, 10 examples
    python scripts/array_api_conformance.py --module rune.nx --module numpy
    python scripts/array_api_conformance.py -- array_api_tests/test_fft.py -x
    python scripts/array_api_conformance.py --source DIR --version 2025.12  # a clone

Its own dependencies (hypothesis, ndindex, pytest-json-report) are in the test
extra. For rune.nx, tests/array_api_xfails.txt marks the cases that fail only
because tensors are immutable. Each module's counts are pytest's last line;
with several modules they are printed again together at the end.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "tests" / "array_api_suite"
API_VERSION = "2024.12"  # the revision vendored, and rune.nx's __array_api_version__
# the cases that fail only because tensors never change (x[i] = v raises)
XFAILS = ROOT / "tests" / "array_api_xfails.txt"


def suite_directory(source: Path | None, version: str) -> Path:
    """The suite's directory, with the standard's stubs for `version` in its `array-api`."""
    directory = source or VENDORED
    stubs = directory / "array-api" / "src" / "array_api_stubs" / f"_{version.replace('.', '_')}"
    if not stubs.is_dir():
        sys.exit(f"{directory}: no stubs for version {version} ({stubs} is missing); the "
                 f"vendored suite has {API_VERSION} only: give --source, a clone of "
                 f"array-api-tests with its array-api submodule")
    return directory


def run(module: str, args, directory: Path) -> tuple[int, str]:
    """pytest on the suite for one module: its return code and its last line."""
    env = {**os.environ, "ARRAY_API_TESTS_MODULE": module,
           "ARRAY_API_TESTS_VERSION": args.version,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    # test files or ids among the extra arguments replace the whole suite
    paths = [a for a in args.pytest_args if a.startswith("array_api_tests")] or [
        "array_api_tests"]
    options = [a for a in args.pytest_args if a not in paths]
    command = [sys.executable, "-u", "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider",
               f"--max-examples={args.max_examples}", "--disable-deadline", "--derandomize",
               "--continue-on-collection-errors", "-rfE", "--tb=line", *options]
    if module == "rune.nx":
        command.append(f"--xfails-file={XFAILS}")
    print(f"== {module} (Array API {args.version}, --max-examples={args.max_examples})",
          flush=True)
    last = "no output"
    with subprocess.Popen(command, cwd=directory, env=env, stdout=subprocess.PIPE,
                          text=True) as pytest:
        for line in pytest.stdout:  # shown as it comes, the last one kept
            sys.stdout.write(line)
            sys.stdout.flush()
            last = line.strip().strip("= ") or last
    return pytest.returncode, last


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append",
                        help="a namespace to test (rune.nx unless given; repeat for several)")
    parser.add_argument("--version", default=API_VERSION, help="the standard's revision")
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--source", type=Path, help="another checkout of the suite")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    directory = suite_directory(args.source, args.version)
    results = {module: run(module, args, directory) for module in args.module or ["rune.nx"]}
    if len(results) > 1:
        print("\n".join(f"{module}: {last}" for module, (_, last) in results.items()))
    return max(code for code, _ in results.values())


if __name__ == "__main__":
    sys.exit(main())
