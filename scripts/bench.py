"""Benchmarks: rune side by side with hand-written numpy, autograd, PyTorch and JAX.

    python scripts/bench.py                      # everything installed, ~1-2 minutes
    python scripts/bench.py --quick --only W1    # a smoke run
    python scripts/bench.py --plot docs/assets/bench-ratios.svg \\
        --markdown docs/assets/bench-table.md    # what the Performance page shows

Each workload is written once, as a function of a numpy-like namespace `xp`
(rune.nx, autograd.numpy, jax.numpy, torch), and each engine differentiates
it with its own transformations. Hand-written numpy (forward pass and the
derivative worked out by hand) is the floor: every engine's result is checked
against it before anything is timed, so no figure comes from a wrong result.

Timing: a warm-up call, then `--repeats` rounds in which the engines of a
workload take turns (the order rotates each round), so load on a shared
machine spreads over all of them; each sample loops until it lasts at least
`--min-sample` seconds. The table shows medians, and min and max. Garbage
collection stays on, as in a user's program. Peers that are not installed
are skipped with a note (`pip install -e ".[bench]"` brings autograd and JAX;
a CPU build of PyTorch is used when one is installed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def pin_threads(n):
    """Set every engine's thread pools to n threads: BLAS and OpenMP read these
    variables when they load, so this must run before numpy is imported."""
    if n <= 0:
        return {}
    settings = {name: str(n) for name in THREAD_VARIABLES}
    eigen = "false" if n == 1 else "true"
    settings["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_cpu_multi_thread_eigen="
                             f"{eigen} intra_op_parallelism_threads={n}").strip()
    os.environ.update(settings)
    return settings


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="few, short repeats (a CI smoke run)")
    p.add_argument("--only", help="workloads to run, e.g. W1,W3")
    p.add_argument("--engines", help=f"engines to run besides numpy, e.g. rune,autograd "
                                     f"(default: all of {', '.join(ENGINE_NAMES[1:])})")
    p.add_argument("--repeats", type=int, help="interleaved rounds (default 21, quick 3)")
    p.add_argument("--min-sample", type=float,
                   help="seconds per sample (default 0.02, quick 0.005)")
    p.add_argument("--threads", type=int, default=1,
                   help="threads for BLAS, OpenMP, torch and XLA (default 1; 0 leaves them as set)")
    p.add_argument("--json", default="bench-results.json", help="where to write the results")
    p.add_argument("--markdown", help="also write the tables to this markdown file")
    p.add_argument("--plot", help="also plot the ratios to the numpy floor to this SVG "
                                  "(and its dark variant beside it, NAME-dark.svg)")
    p.add_argument("--from-json", metavar="PATH",
                   help="measure nothing: report (and plot) the run saved in PATH")
    args = p.parse_args(argv)
    args.repeats = args.repeats or (3 if args.quick else 21)
    args.min_sample = args.min_sample or (0.005 if args.quick else 0.02)
    return args


ENGINE_NAMES = ("numpy", "rune", "rune.jit", "rune.fused", "autograd", "torch", "jax", "jax.jit")
THREAD_SETTINGS: dict = {}

if __name__ == "__main__":
    ARGS = parse_args()
    THREAD_SETTINGS = pin_threads(ARGS.threads)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's rune

# Imported after the thread settings above, on purpose.
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import numpy as np  # noqa: E402

# ---------------------------------------------------------------- workloads
# Each workload is a function of `xp`, written once for every engine, and its
# floor: the same computation in numpy with the derivative written by hand.


def chain(xp, reps):
    """W1: 40 repetitions of sin, multiply by a constant, add, tanh, exp."""
    def f(x):
        y = x
        for _ in range(reps):
            y = xp.exp(xp.tanh(xp.sin(y) * 0.5 + x))
        return y
    return f


def chain_grad_floor(x, reps):
    ys, ts = [x], []  # each repetition's input and its tanh
    for _ in range(reps):
        ts.append(np.tanh(np.sin(ys[-1]) * 0.5 + x))
        ys.append(np.exp(ts[-1]))
    ct, gx = np.ones_like(x), np.zeros_like(x)
    for k in reversed(range(reps)):
        ct = ct * ys[k + 1] * (1 - ts[k] * ts[k])  # through exp and tanh
        gx = gx + ct                               # the add's other argument
        ct = ct * 0.5 * np.cos(ys[k])              # through the multiply and sin
    return gx + ct


def mlp_loss(xp, X, Y):
    """W2: mean squared error of a tanh MLP, a function of its weights and biases."""
    def loss(params):
        W1, b1, W2, b2, W3, b3 = params
        h = xp.tanh(X @ W1 + b1)
        h = xp.tanh(h @ W2 + b2)
        d = h @ W3 + b3 - Y
        return xp.mean(d * d)
    return loss


def mlp_floor(params, X, Y):
    W1, b1, W2, b2, W3, b3 = params
    h1 = np.tanh(X @ W1 + b1)
    h2 = np.tanh(h1 @ W2 + b2)
    d = h2 @ W3 + b3 - Y
    g = d * (2 / d.size)
    gW3, gb3 = h2.T @ g, g.sum(0)
    g = (g @ W3.T) * (1 - h2 * h2)
    gW2, gb2 = h1.T @ g, g.sum(0)
    g = (g @ W2.T) * (1 - h1 * h1)
    return np.mean(d * d), [X.T @ g, g.sum(0), gW2, gb2, gW3, gb3]


def bumps(xp):
    """W3: sum(sin(x) * exp(-x*x) + tanh(x)**2)."""
    return lambda x: xp.sum(xp.sin(x) * xp.exp(-x * x) + xp.tanh(x) ** 2)


def bumps_grad_floor(x):
    t = np.tanh(x)
    return (np.cos(x) - 2 * x * np.sin(x)) * np.exp(-x * x) + 2 * t * (1 - t * t)


def cubic_sin(xp):
    """W4: sum(x**3 * sin(x)), whose Hessian-vector product is timed."""
    return lambda x: xp.sum(x ** 3 * xp.sin(x))


def cubic_sin_hvp_floor(x, v):
    x2 = x * x
    return ((6 * x - x2 * x) * np.sin(x) + 6 * x2 * np.cos(x)) * v


def layer(xp, W):
    """W5: tanh(W @ x), whose full Jacobian is timed."""
    return lambda x: xp.tanh(W @ x)


def layer_jacobian_floor(x, W):
    y = np.tanh(W @ x)
    return (1 - y * y)[:, None] * W


@dataclass
class Workload:
    name: str          # the row of the table, e.g. "W1 grad"
    task: str          # what the engine does to the model: a key of Engine.transforms
    inputs: object     # (size, rng) -> (args, consts): numpy values
    model: object      # (xp, **consts) -> the function, for every engine
    floor: object      # (*args, **consts) -> the result, in hand-written numpy
    per: str = ""      # "op": report the time per operation of the chain (W1)
    needs: tuple = ()  # rune pieces the rune variants need, e.g. "nx.matmul"


SIZES = {
    "full": dict(reps=40, w1=8, layers=(784, 512, 512, 10), batch=256, w3=10**6, w4=10**5, w5=200),
    # For tests: every check, in a fraction of a second.
    "tiny": dict(reps=2, w1=8, layers=(6, 5, 4, 3), batch=4, w3=50, w4=50, w5=5),
}


def w1_inputs(s, rng):
    return (rng.uniform(-1, 1, s["w1"]),), {"reps": s["reps"]}


def w2_inputs(s, rng):
    sizes, n = s["layers"], s["batch"]
    params = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        params += [rng.normal(0, fan_in ** -0.5, (fan_in, fan_out)), rng.normal(0, 0.1, fan_out)]
    return (params,), {"X": rng.normal(size=(n, sizes[0])), "Y": rng.normal(size=(n, sizes[-1]))}


WORKLOADS = [
    Workload("W1 forward", "forward", w1_inputs, chain, lambda x, reps: chain(np, reps)(x),
             per="op"),
    Workload("W1 grad", "grad", w1_inputs, lambda xp, reps: lambda x: xp.sum(chain(xp, reps)(x)),
             chain_grad_floor, per="op"),
    Workload("W2 MLP value+grad", "value_and_grad", w2_inputs, mlp_loss, mlp_floor,
             needs=("nx.matmul", "nx.mean")),
    Workload("W3 forward", "forward", lambda s, rng: ((rng.normal(size=s["w3"]),), {}),
             bumps, lambda x: bumps(np)(x), needs=("nx.power",)),
    Workload("W3 grad", "grad", lambda s, rng: ((rng.normal(size=s["w3"]),), {}),
             bumps, bumps_grad_floor, needs=("nx.power",)),
    Workload("W4 hvp", "hvp", lambda s, rng: ((rng.normal(size=s["w4"]),
                                               rng.normal(size=s["w4"])), {}),
             cubic_sin, cubic_sin_hvp_floor, needs=("nx.power",)),
    Workload("W5 jacobian", "jacobian",
             lambda s, rng: ((rng.normal(size=s["w5"]),),
                             {"W": rng.normal(0, s["w5"] ** -0.5, (s["w5"], s["w5"]))}),
             layer, layer_jacobian_floor, needs=("nx.matmul",)),
]

# What the project aims for: (row, engine, baseline engine, at most this ratio).
TARGETS = [
    ("W1 grad", "rune", "autograd", 0.5),
    ("W1 grad", "rune.jit", "numpy", 1.5),
    ("W2 MLP value+grad", "rune", "numpy", 1.2),
    ("W3 grad", "rune", "numpy", 1.2),
    ("W4 hvp", "rune", "numpy", 1.5),
    ("W5 jacobian", "rune", "numpy", 2.0),
    # Issue 16: rune.jit with fusion (numexpr) near JAX's jit (XLA fuses loops).
    ("W1 grad", "rune.fused", "numpy", 0.2),
    ("W2 MLP value+grad", "rune.fused", "numpy", 1.0),
    ("W3 grad", "rune.fused", "numpy", 0.5),
    ("W4 hvp", "rune.fused", "numpy", 0.6),
    ("W5 jacobian", "rune.fused", "jax.jit", 1.0),
]

# ------------------------------------------------------------------ engines


class Unavailable(Exception):
    """An engine or a piece of one is missing: its cells are skipped with this note."""


@dataclass
class Engine:
    name: str
    xp: object          # the numpy-like namespace the models are written against
    array: object       # numpy array -> the engine's array
    transforms: dict    # task -> (function -> the function the task times)
    to_numpy: object = np.asarray
    sync: object = lambda out: out  # waits for an asynchronous result (JAX)
    version: str = ""


def make_engine(name, threads=0):
    """The engine called `name`; raises Unavailable when it is not installed."""
    try:
        return _FACTORIES[name](name, threads)
    except ImportError as e:
        how = "pip install torch==2.13.0" if e.name == "torch" else 'pip install -e ".[bench]"'
        raise Unavailable(f"{name} is not installed ({e.name}); {how}") from None


def _version(package):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def _numpy(name, threads):
    return Engine(name, np, np.asarray, {}, version=np.__version__)


def _rune(name, threads):
    import rune
    from rune import nx

    if name == "rune.fused":
        try:
            import numexpr  # noqa: F401
        except ImportError:
            raise Unavailable('numexpr is not installed; pip install -e ".[fast]"') from None
    # rune.jit: the numpy replay, one numpy call per equation; rune.fused: groups
    # of elementwise equations as numexpr kernels (what rune.jit does by default
    # when numexpr is installed).
    wrap = {"rune.jit": lambda f: rune.jit(f, fuse=False),
            "rune.fused": lambda f: rune.jit(f, fuse=True)}.get(name, lambda f: f)
    return Engine(name, nx, nx.array, {
        "forward": wrap,
        "grad": lambda f: wrap(rune.grad(f)),
        "value_and_grad": lambda f: wrap(rune.value_and_grad(f)),
        "hvp": lambda f: wrap(lambda x, v: rune.hvp(f, (x,), (v,))),
        "jacobian": lambda f: wrap(rune.jacrev(f)),
    }, version=_version("rune-autodiff"))


def _autograd(name, threads):
    import autograd
    import autograd.numpy as anp

    return Engine(name, anp, np.array, {
        "forward": lambda f: f,
        "grad": autograd.grad,
        "value_and_grad": autograd.value_and_grad,
        "hvp": autograd.hessian_vector_product,
        "jacobian": autograd.jacobian,
    }, version=_version("autograd"))


def _torch(name, threads):
    import torch
    import torch.func

    if threads > 0:
        torch.set_num_threads(threads)

    def value_and_grad(f):  # the tape, as a PyTorch user writes it
        def value_and_grad_f(x):
            leaves = [p.detach().requires_grad_() for p in (x if isinstance(x, list) else [x])]
            out = f(leaves if isinstance(x, list) else leaves[0])
            grads = torch.autograd.grad(out, leaves)
            return out.detach(), (list(grads) if isinstance(x, list) else grads[0])
        return value_and_grad_f

    return Engine(name, torch, torch.tensor, {
        "forward": lambda f: f,
        "grad": lambda f: (lambda x: value_and_grad(f)(x)[1]),
        "value_and_grad": value_and_grad,
        "hvp": lambda f: (lambda x, v: torch.func.jvp(torch.func.grad(f), (x,), (v,))[1]),
        "jacobian": torch.func.jacrev,
    }, to_numpy=lambda t: t.detach().numpy(), version=torch.__version__)


def _jax(name, threads):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    wrap = jax.jit if name == "jax.jit" else (lambda f: f)
    return Engine(name, jnp, jnp.asarray, {
        "forward": wrap,
        "grad": lambda f: wrap(jax.grad(f)),
        "value_and_grad": lambda f: wrap(jax.value_and_grad(f)),
        "hvp": lambda f: wrap(lambda x, v: jax.jvp(jax.grad(f), (x,), (v,))[1]),
        "jacobian": lambda f: wrap(jax.jacrev(f)),
    }, sync=jax.block_until_ready, version=jax.__version__)


_FACTORIES = {"numpy": _numpy, "rune": _rune, "rune.jit": _rune, "rune.fused": _rune,
              "autograd": _autograd,
              "torch": _torch, "jax": _jax, "jax.jit": _jax}


def rune_missing(needs):
    """The pieces of `needs` ("nx.matmul", "jit"...) that this rune does not have yet."""
    import rune

    missing = []
    for need in needs:
        obj = rune
        for part in need.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            missing.append(need)
    return missing

# ---------------------------------------------------------------- checking


class CheckError(AssertionError):
    """An engine's result differs from the numpy floor's."""


def leaves(result, to_numpy):
    if isinstance(result, (list, tuple)):
        return [leaf for part in result for leaf in leaves(part, to_numpy)]
    return [np.asarray(to_numpy(result))]


def check(workload, engine, got, want, rtol=1e-9):
    """Raise CheckError unless `got` matches the floor's `want` leaf by leaf."""
    got, want = leaves(got, engine.to_numpy), leaves(want, np.asarray)
    where = f"{workload.name} on {engine.name}"
    if len(got) != len(want):
        raise CheckError(f"{where}: {len(got)} results, the numpy floor has {len(want)}")
    for k, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape or g.dtype != w.dtype:
            raise CheckError(f"{where}: result {k} is {g.dtype} {g.shape}, the numpy floor's "
                             f"is {w.dtype} {w.shape}")
        error = float(np.max(np.abs(g - w), initial=0.0))
        tolerance = rtol * max(1.0, float(np.max(np.abs(w), initial=0.0)))
        if not error <= tolerance:  # catches NaN too
            raise CheckError(f"{where}: result {k} is wrong: max abs error {error:.3g} against "
                             f"the numpy floor (tolerance {tolerance:.3g})")


def prepare(workload, engine, size="full"):
    """Check one engine on one workload and return the call to time."""
    missing = rune_missing(workload.needs) if engine.name.startswith("rune") else []
    if missing:
        raise Unavailable(f"rune lacks {', '.join(missing)} (not in this version of rune)")
    args, consts = workload.inputs(SIZES[size], np.random.default_rng(0))
    want = workload.floor(*args, **consts)
    if engine.name == "numpy":
        def run():
            return workload.floor(*args, **consts)
    else:
        model = workload.model(engine.xp, **{k: to_engine(engine, v) for k, v in consts.items()})
        fn = engine.transforms[workload.task](model)
        engine_args = [to_engine(engine, a) for a in args]

        def run():
            return engine.sync(fn(*engine_args))
    check(workload, engine, run(), want)
    return run


def to_engine(engine, value):
    """numpy arrays (and lists of them) as the engine's arrays; other values as they are."""
    if isinstance(value, list):
        return [to_engine(engine, v) for v in value]
    return engine.array(value) if isinstance(value, np.ndarray) else value

# ------------------------------------------------------------------- timing


@dataclass
class Cell:
    workload: Workload
    engine: str
    run: object
    number: int = 1                             # calls per sample
    samples: list = field(default_factory=list)  # seconds per call


def calibrate(run, min_sample):
    """Calls per sample so that a sample lasts at least min_sample (after a warm-up)."""
    run()
    start = time.perf_counter()
    run()
    once = time.perf_counter() - start
    return max(1, int(min_sample / max(once, 1e-9)) + 1)


def time_row(cells, repeats, min_sample):
    """Interleaved rounds: within a round every engine takes its turn."""
    for cell in cells:
        cell.number = calibrate(cell.run, min_sample)
    for r in range(repeats):
        k = r % len(cells)
        for cell in cells[k:] + cells[:k]:  # rotate who goes first
            run = cell.run
            start = time.perf_counter()
            for _ in range(cell.number):
                run()
            cell.samples.append((time.perf_counter() - start) / cell.number)
        gc.collect()  # between rounds, so that no engine inherits another's garbage


def median(xs):
    return float(np.median(xs))

# ------------------------------------------------------------------ report


def fmt(x):
    return "–" if x is None else f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.3g}"


def ratio(results, row, engine, base):
    a, b = results.get((row, engine)), results.get((row, base))
    return None if a is None or b is None else a["median"] / b["median"]


def report(results, rows, engines, notes, header):
    """The markdown: the run, one table per workload, the targets, notes.

    Engines are rows and each workload has its own table, so that a table is
    five columns wide and fits a phone's screen: median, spread, and the
    ratios to the numpy floor and to HIPS autograd.
    """
    lines = [f"- {line}" for line in header] + [""]
    lines += ["For each workload: the median time of a call (W1: per operation of the chain), "
              "the fastest and slowest sample, and the median's ratio to hand-written numpy "
              "and to HIPS autograd. Lower is better.", ""]
    for row in rows:
        lines += workload_table(results, row, engines)
    lines += ["### Targets", "", "| target | measured | |", "|---|---:|---|"]
    for row, engine, base, at_most in TARGETS:
        if row in rows:
            r = ratio(results, row, engine, base)
            verdict = "–" if r is None else "PASS" if r <= at_most else "MISS"
            lines.append(f"| {row}: {engine} ≤ {at_most} × {base} | {fmt(r)} | {verdict} |")
    lines += [""] + [f"- skipped {n}" for n in notes]
    return "\n".join(lines) + "\n"


def workload_table(results, row, engines):
    """The markdown lines of one workload's table, engines as rows."""
    unit = next(r["unit"] for (w, _), r in results.items() if w == row)
    bases = [b for b in ("numpy", "autograd") if (row, b) in results]
    lines = [f"### {row}", "", f"| engine | {unit} | min–max | "
             + " | ".join(f"× {b}" for b in bases) + " |", "|---|" + "---:|" * (2 + len(bases))]
    for engine in engines:
        r = results.get((row, engine))
        if r is not None:
            lines.append(f"| {engine} | {fmt(r['median'])} | {fmt(r['min'])}–{fmt(r['max'])} | "
                         + " | ".join(fmt(ratio(results, row, engine, b)) for b in bases) + " |")
    if row == "W3 grad" and ("W3 forward", "numpy") in results:
        floor = results[("W3 forward", "numpy")]["median"]
        lines += ["", "A gradient costs at least one forward pass; as a multiple of numpy's "
                  "forward: " + ", ".join(f"{e} {fmt(results[(row, e)]['median'] / floor)}"
                                          for e in engines if (row, e) in results) + "."]
    return lines + [""]


# Colours of the plot's two variants (Material's default and slate palettes):
# rune's bars in the site's indigo, the peers' in grey.
PLOT_PALETTES = {
    "light": dict(text="#1f2328", muted="#57606a", grid="#d0d7de", rune="#3f51b5", peer="#9aa3ad"),
    "dark": dict(text="#e6edf3", muted="#aab4be", grid="#3d444d", rune="#8c9eff", peer="#6e7781"),
}
PLOT_FONT_SIZE = 13  # pt of the SVG; the page shows it at 12 px or more even on a phone


def plot(results, rows, engines, path):
    """Draw the ratios to the numpy floor, one panel per workload, as two SVGs.

    `path` names the light variant; the dark one goes beside it, `-dark`
    added to its stem (the Performance page shows the one matching the
    palette). The figure is narrow (4.6 in) and its text large, so that it
    reads on a phone; text stays text (svg.fonttype none), searchable and sharp.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [e for e in engines if e != "numpy"]
    ratios = {(row, e): ratio(results, row, e, "numpy") for row in rows for e in shown}
    known = [r for r in ratios.values() if r]
    low, high = min(known + [1]) / 2, max(known + [1]) * 6  # room for the labels
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for variant, colours in PLOT_PALETTES.items():
        with plt.rc_context({"svg.fonttype": "none", "font.size": PLOT_FONT_SIZE,
                             "svg.hashsalt": "rune", "text.color": colours["text"],
                             "axes.edgecolor": colours["grid"],
                             "xtick.color": colours["muted"], "ytick.color": colours["text"]}):
            fig, axes = plt.subplots(len(rows), 1, sharex=True, squeeze=False,
                                     figsize=(4.6, 0.5 + len(rows) * (0.3 + 0.22 * len(shown))))
            for ax, row in zip(axes[:, 0], rows):
                _plot_panel(ax, row, shown, ratios, colours, (low, high))
            axes[-1, 0].set_xlabel("time ÷ hand-written numpy (log scale)",
                                   color=colours["muted"])
            fig.tight_layout(h_pad=0.6)
            out = path if variant == "light" else path.with_stem(path.stem + "-dark")
            # No creation date in the file: a re-drawn plot of the same run is the same file.
            fig.savefig(out, format="svg", transparent=True, metadata={"Date": None})
            plt.close(fig)


def _plot_panel(ax, row, shown, ratios, colours, xlim):
    """One workload: a bar per engine, its ratio written at the bar's end."""
    from matplotlib.ticker import FuncFormatter, NullLocator

    ys = range(len(shown))
    values = [ratios[(row, e)] for e in shown]
    bar_colours = [colours["rune"] if e.startswith("rune") else colours["peer"] for e in shown]
    ax.barh(ys, [v or 0 for v in values], height=0.7, color=bar_colours)
    for y, value in zip(ys, values):
        label = "not run" if value is None else f"{fmt(value)}×"
        ax.text(value or xlim[0], y, f" {label}", va="center", color=colours["text"])
    ax.axvline(1, color=colours["muted"], linewidth=1, linestyle="--")
    ax.set_xscale("log")
    ax.set_xlim(*xlim)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))  # not 10^k
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_yticks(list(ys), shown)
    ax.invert_yaxis()
    ax.set_title(row, loc="left", fontweight="bold", color=colours["text"])
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color=colours["grid"], linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


def machine_header(args, versions):
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    threads = ", ".join(f"{k}={v}" for k, v in THREAD_SETTINGS.items()) or "left as set"
    return [
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"`python scripts/bench.py {' '.join(sys.argv[1:])}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; {', '.join(f'{k} {v}' for k, v in versions.items())}",
        f"Threads: {threads}; torch threads {args.threads if args.threads > 0 else 'default'}",
        f"Repeats: {args.repeats} interleaved rounds, samples of at least {args.min_sample} s; "
        f"load average at the start {load}",
    ]


def measure(args):
    """Check and time every (workload, engine) cell; the run as a JSON-ready dict."""
    rows = [w for w in WORKLOADS if not args.only
            or w.name.split()[0] in args.only.upper().split(",")]
    wanted = ["numpy"] + [e for e in ENGINE_NAMES[1:]
                          if not args.engines or e in args.engines.split(",")]
    engines, notes, versions = [], [], {}
    for name in wanted:
        try:
            engines.append(make_engine(name, args.threads))
            versions[name.split(".")[0]] = engines[-1].version
        except Unavailable as e:
            notes.append(f"{name}: {e}")
    header = machine_header(args, versions)
    print("\n".join(header), flush=True)
    results = []
    for workload in rows:
        cells = []
        for engine in engines:
            try:
                cells.append(Cell(workload, engine.name, prepare(workload, engine)))
            except Unavailable as e:
                notes.append(f"{workload.name} on {engine.name}: {e}")
        time_row(cells, args.repeats, args.min_sample)
        # seconds per call -> microseconds per operation (W1) or milliseconds
        scale = 1e6 / (5 * SIZES["full"]["reps"]) if workload.per == "op" else 1e3
        results += [dict(workload=workload.name, engine=c.engine,
                         unit="µs/op" if workload.per == "op" else "ms",
                         median=median(c.samples) * scale, min=min(c.samples) * scale,
                         max=max(c.samples) * scale, calls_per_sample=c.number,
                         samples=len(c.samples)) for c in cells]
        print(f"{workload.name}: " + ", ".join(f"{r['engine']} {fmt(r['median'])}"
                                               for r in results[-len(cells):]), flush=True)
    header[-1] += f"; at the end {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    return {"header": header, "threads": THREAD_SETTINGS, "versions": versions,
            "notes": notes, "results": results}


def main(args):
    if args.from_json:
        run = json.loads(Path(args.from_json).read_text())
    else:
        run = measure(args)
        Path(args.json).write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n")
    results = {(r["workload"], r["engine"]): r for r in run["results"]}
    rows = [w.name for w in WORKLOADS if any(row == w.name for row, _ in results)]
    engines = [e for e in ENGINE_NAMES if any(engine == e for _, engine in results)]
    text = report(results, rows, engines, run["notes"], run["header"])
    print("\n" + text)
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(text)
    if args.plot:
        plot(results, rows, engines, args.plot)


if __name__ == "__main__":
    main(ARGS)
