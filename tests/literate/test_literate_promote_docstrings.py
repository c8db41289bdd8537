"""promote and check on .py files: their docstring ``>>>`` examples, rewritten in place."""

import subprocess
import sys
from pathlib import Path

from rune.literate.docstrings import parse_module_page

REPO = Path(__file__).resolve().parents[2]

MODULE = '''\
"""Arithmetic.\r
\r
>>> double(2)\r
5\r
"""\r
\r
\r
def double(x):\r
    """Twice ``x``.\r
\r
    >>> double(21)\r
    42\r
    >>> print(double(1))   # stays as written\r
    3\r
    >>> [double(n) for n in range(3)]\r
\r
    Text after the examples.\r
    """\r
    return 2 * x\r
'''

FIXED = (
    MODULE.replace('>>> double(2)\r\n5\r\n', '>>> double(2)\r\n4\r\n')
    .replace("    3\r\n", "    2\r\n")
    .replace("    >>> [double(n) for n in range(3)]\r\n",
             "    >>> [double(n) for n in range(3)]\r\n    [0, 2, 4]\r\n")
)


def promote(*arguments, cwd):
    return subprocess.run(
        [sys.executable, "-m", "rune.literate", "promote", *arguments],
        cwd=cwd, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_docstring_examples_are_sessions_at_their_lines_of_the_module():
    page = parse_module_page(MODULE, "maths.py")
    assert [block.line for block in page.python_blocks] == [2, 10]
    assert [len(block.session) for block in page.python_blocks] == [1, 3]


def test_promote_rewrites_expected_output_in_place_and_keeps_every_other_byte(tmp_path):
    module = tmp_path / "maths.py"
    module.write_bytes(MODULE.encode())
    result = promote("--check", "maths.py", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "promote: 1 of 1 page would change" in result.stdout
    assert "-5\n+4\n" in promote("--diff", "maths.py", cwd=tmp_path).stdout
    assert module.read_bytes() == MODULE.encode()  # --check and --diff write nothing

    result = promote("maths.py", cwd=tmp_path)
    assert "promote: 1 of 1 page changed" in result.stdout, result.stdout + result.stderr
    assert module.read_bytes() == FIXED.encode()
    again = promote("--check", "maths.py", cwd=tmp_path)
    assert again.returncode == 0 and "0 of 1 page would change" in again.stdout


def test_check_runs_docstring_examples_with_the_module_globals(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "helpers.py").write_text("BASE = 10\n")
    (tmp_path / "pkg" / "maths.py").write_text(
        'from .helpers import BASE\n\n\ndef add(x):\n    """\n    >>> add(1)\n    12\n    """\n'
        "    return BASE + x\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "rune.literate", "check", "pkg/maths.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 1
    assert "pkg/maths.py:5: the pycon session printed output that differs from its expected" in result.stdout
    assert "-12\n+11" in result.stdout


def test_a_module_without_examples_has_no_blocks():
    page = parse_module_page('"""No examples."""\nx = 1\n', "plain.py")
    assert page.python_blocks == []


def test_a_passing_module_is_left_alone(tmp_path):
    (tmp_path / "ok.py").write_text('def one():\n    """\n    >>> one()\n    1\n    """\n    return 1\n')
    result = promote("ok.py", cwd=tmp_path)
    assert "promote: 0 of 1 page changed" in result.stdout, result.stdout + result.stderr
    assert "1 passed" in subprocess.run(
        [sys.executable, "-m", "rune.literate", "check", "ok.py"], cwd=tmp_path,
        capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}).stdout
