"""The "Using it in another project" page, run end to end in a throwaway project.

The page's files (fences with a ``title="path"``) are written into an empty
directory; then every ``$ command`` of its ``console`` blocks runs there in a
fresh interpreter, and what it prints must match the lines after it, as an out
block does (a line ``...`` matches any lines), pytest's run time shown as
``in ...``. A last ``[N]`` line is the exit status (default 0), as in cram.
"""

import importlib.metadata
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from rune.literate import output_matches

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "another-project.md"

_FILE = re.compile(r'^(?P<fence>`{3,})\w+ title="(?P<path>[^"]+)"\n(?P<body>.*?)^(?P=fence)\n', re.M | re.S)
_CONSOLE = re.compile(r"^```console\n(?P<body>.*?)^```\n", re.M | re.S)
_STATUS = re.compile(r"\[(\d+)\]")
# How each command of the page runs: in this interpreter, never a PATH lookup.
PROGRAMS = {"pytest": ["-m", "pytest"], "python": [], "mkdocs": ["-m", "mkdocs"]}


def page_files(text):
    return {match["path"]: match["body"] for match in _FILE.finditer(text)}


def page_commands(text):
    """(command, expected output, expected status) for each $ line, in page order."""
    commands = []
    for block in _CONSOLE.finditer(text):
        for chunk in re.split(r"^\$ ", block["body"], flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            lines = output.rstrip("\n").split("\n")
            status = _STATUS.fullmatch(lines[-1])
            if status:
                lines.pop()
            commands.append((command, "\n".join(lines), int(status[1]) if status else 0))
    return commands


def run(command, project):
    program, *arguments = shlex.split(command)
    if program == "pytest" and "rune_literate" not in {
        entry.name for entry in importlib.metadata.entry_points(group="pytest11")
    }:
        arguments = ["-p", "rune_literate_pytest", *arguments]
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(REPO), NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, *PROGRAMS[program], *arguments],
        cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_page_shows_a_whole_project_and_the_commands_to_run_it():
    text = PAGE.read_text()
    assert set(page_files(text)) == {"areas.py", "pyproject.toml", "mkdocs.yml", "docs/index.md"}
    page = page_files(text)["docs/index.md"]
    for feature in ("1. ", "!!! warning", '=== "Square"', "<!-- literate: raises -->",
                    "```pycon\n>>> ", "<!-- literate: skip if "):
        assert feature in page
    assert [command for command, _, _ in page_commands(text)] == [
        "pytest -q",
        "python -m rune.literate promote docs",
        "pytest -q",
        "python -m rune.literate check docs",
        "python -m rune.literate promote --check docs",
        "mkdocs build --strict --quiet",
    ]


_RUN_TIME = re.compile(r" in \d+(?:\.\d+)?s\b")  # pytest's "8 passed in 0.52s"


def test_every_command_of_the_page_prints_what_the_page_says(tmp_path):
    text = PAGE.read_text()
    for path, body in page_files(text).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body)
    for command, expected, status in page_commands(text):
        result = run(command, tmp_path)
        printed = _RUN_TIME.sub(" in ...", result.stdout + result.stderr)
        assert output_matches(expected, printed), f"$ {command}\n{printed}"
        assert result.returncode == status, f"$ {command}\n{printed}"
    # promote filled in the missing out block, in the tab's indentation.
    assert '=== "Square"\n\n    ```python\n    print(area(4, 4))\n    ```\n\n    ```out\n    16\n    ```\n' in (
        tmp_path / "docs" / "index.md"
    ).read_text()
    # The site has the plugin's stylesheet and out blocks it styles, without directives.
    html = (tmp_path / "site" / "index.html").read_text()
    assert (tmp_path / "site" / "assets" / "rune-literate" / "literate.css").is_file()
    assert html.count('class="language-out literate-out literate-wrap highlight"') == 6
    assert "<!-- literate" not in html


def test_a_stale_page_fails_the_walkthrough_build(tmp_path):
    text = PAGE.read_text()
    for path, body in page_files(text).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body.replace("    3.0\n", "    3\n"))
    result = run("mkdocs build --strict --quiet", tmp_path)
    assert result.returncode != 0
    assert "-    3\n+    3.0" in result.stderr
