"""docs/code-you-did-not-write.md checks the derivatives rune takes through scipy and
scikit-learn against finite differences. These tests show that the checks would
notice a wrong one: the page's blocks run again with the derivative of one function
the libraries call made wrong (its values kept), and the page's check of that
library call must be the block that fails, with GradientCheckError.

Each case runs in a process of its own: scipy reads SCIPY_ARRAY_API when it is
imported, and keeps the function it found for a namespace once it has called it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "code-you-did-not-write.md"

# Runs the page's python blocks in order, in one namespace (the raises blocks left
# out), after `wrong_derivative` has replaced one function; prints the first line of
# the block that raised, and the exception's type.
PROGRAM = """
import contextlib
import io
import sys

import rune
from rune import nx
from rune.literate import read_page


def wrong_derivative(module, name):
    '''module.name with its values, and 1.5 times its derivative.'''
    right = getattr(module, name)

    def wrong(*args, **kwargs):
        out = right(*args, **kwargs)
        scale = lambda y: y + 0.5 * (y - rune.detach(y))
        return tuple(map(scale, out)) if isinstance(out, tuple) else scale(out)

    setattr(module, name, wrong)


{sabotage}
namespace = {{"__name__": "__main__"}}
for block in read_page(sys.argv[1]).python_blocks:
    if block.raises:
        continue
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # what the page prints
            exec(compile("\\n".join(block.fence.body_lines), "page", "exec"), namespace)
    except Exception as error:
        print(block.fence.body_lines[0], type(error).__name__, sep="\\n")
        break
else:
    print("no block failed")
"""

CASES = {
    # scipy.special.erf runs rune.scipy.special.erf (nx.special): the first check
    "special.erf": ("import rune.scipy.special; wrong_derivative(rune.scipy.special, 'erf')",
                    "rune.check_grads(loss, (x,), order=2)"),
    # scipy's special.stdtr (behind stats.ttest_1samp's p-value) calls betainc
    "special.betainc": ("import rune.scipy.special; "
                        "wrong_derivative(rune.scipy.special, 'betainc')",
                        "print(nx.special is rune.scipy.special)"),
    # signal.convolve(method="fft") transforms with nx.fft
    "nx.fft.irfft": ("wrong_derivative(nx.fft, 'irfft')",
                     "kernel = nx.array([0.25, 0.5, 0.25])"),
    # PCA fits with nx.linalg.svd
    "nx.linalg.svd": ("wrong_derivative(nx.linalg, 'svd')",
                      "rng = np.random.default_rng(0)"),
}


def run_page(sabotage: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(sabotage=sabotage), str(PAGE)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_derivative_fails_the_pages_check_of_its_caller(case):
    pytest.importorskip("sklearn")
    sabotage, failing_block = CASES[case]
    assert run_page(sabotage) == [failing_block, "GradientCheckError"]
