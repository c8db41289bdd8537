"""The jit page without numexpr (the `fast` extra): its blocks pass, those of
its Fusion section skip, as the page says at its top. The test extra installs
numexpr, so its import is blocked here, in every process the check starts."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_jit_page_passes_without_numexpr(tmp_path):
    (tmp_path / "numexpr.py").write_text('raise ImportError("blocked by the test")\n')
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    completed = subprocess.run(
        [sys.executable, "-m", "rune.literate", "check", "docs/jit-and-graphs.md"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "0 failed, 3 skipped" in completed.stdout + completed.stderr
