"""Promote's time grows linearly with the page: a page of 10,000 stale blocks
against one of 1,000 (the diff printing once made it quadratic: 78-128 s).

    python scripts/bench_promote.py            # prints both times and the ratio

Each page is promoted by the command line (`promote --diff`: the blocks run in
a worker process, the edits and the diff are computed, nothing is written).
The target is a ratio, not a time: ten times the blocks may take at most
TARGET times as long (linear would be 10; quadratic 100).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 20.0
F = "```"


def stale_page(blocks: int) -> str:
    return "".join(f"{F}python\nprint({n})\n{F}\n\n{F}out\nstale\n{F}\n\n" for n in range(blocks))


def promote_seconds(blocks: int, directory: Path) -> float:
    page = directory / f"page{blocks}.md"
    page.write_text(stale_page(blocks))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rune.literate", "promote", "--diff", "--quiet", page],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    with tempfile.TemporaryDirectory() as directory:
        small, large = (promote_seconds(n, Path(directory)) for n in (1_000, 10_000))
    ratio = large / small
    print(f"promote --diff: 1,000 blocks {small:.1f} s, 10,000 blocks {large:.1f} s, "
          f"ratio {ratio:.1f} (target at most {TARGET:g})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
