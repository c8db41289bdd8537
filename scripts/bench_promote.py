"""Promote's time grows linearly with the page: a page of 10,000 changed blocks
against one of 1,000 (the diff printing once made it quadratic: 78-128 s for
stale out blocks; for out blocks to insert, edits a few lines apart were
diffed as one region: 1,000 blocks 69-191 s, 4,000 over 8 minutes).

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


# Each way a block changes: its out block rewritten, inserted, or rewritten
# on a page with no blank lines between blocks.
SHAPES = {
    "stale out blocks": "{F}python\nprint({n})\n{F}\n\n{F}out\nstale\n{F}\n\n",
    "missing out blocks": "{F}python\nprint({n})\n{F}\n\n",
    "stale, no blank lines": "{F}python\nprint({n})\n{F}\n{F}out\nstale\n{F}\n",
}


def stale_page(blocks: int, shape: str = "stale out blocks") -> str:
    return "".join(SHAPES[shape].format(F=F, n=n) for n in range(blocks))


def promote_seconds(blocks: int, directory: Path, shape: str = "stale out blocks") -> float:
    page = directory / f"page{blocks}.md"
    page.write_text(stale_page(blocks, shape))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rune.literate", "promote", "--diff", "--quiet", page],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    worst = 0.0
    for shape in SHAPES:
        with tempfile.TemporaryDirectory() as directory:
            small, large = (promote_seconds(n, Path(directory), shape) for n in (1_000, 10_000))
        worst = max(worst, large / small)
        print(f"promote --diff, {shape}: 1,000 blocks {small:.1f} s, 10,000 blocks "
              f"{large:.1f} s, ratio {large / small:.1f} (target at most {TARGET:g})")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
