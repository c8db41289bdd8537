"""The check_grads sweep's table: one row per public differentiable function.

`SWEEP[name]` says how to call the function and on which inputs: each
argument is `(shape, low, high)`, filled with fixed pseudo-random values in
[low, high] (complex ones get an imaginary part as large as a third of the
range); `complex=True` runs the row for complex128 as well as float64.
`NO_DERIVATIVE[name]` gives the reason a public function is not in the sweep.
tests/test_census.py runs every row (order 2, both modes) and checks that
every public function of the namespaces below has a row in one of the two.

Adding a function: add its row here, under its family. (Issue 20's names —
sorting, the shape builders — go in their own section the same way.)
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from rune import nx
from rune.scipy import integrate, linalg, signal, special, stats

NAMESPACES = {"nx": nx, "nx.linalg": nx.linalg, "nx.fft": nx.fft, "nx.random": nx.random,
              "scipy.special": special, "scipy.signal": signal, "scipy.linalg": linalg,
              "scipy.integrate": integrate}


class Case(NamedTuple):
    fn: Callable
    args: tuple  # one (shape, low, high) per argument
    complex: bool = False


def unary(fn, low=-2.0, high=2.0, complex=False, shape=(2, 3)):
    return Case(fn, ((shape, low, high),), complex)


def binary(fn, x=(-2.0, 2.0), y=(-2.0, 2.0), complex=False):
    return Case(fn, (((2, 3),) + tuple(x), ((3,),) + tuple(y)), complex)


M = ((3, 3), -1.0, 1.0)  # a matrix argument; the linalg rows add n I to make it invertible


def _spd(a):
    return a @ nx.transpose(a) + 3 * nx.eye(3)


# Decompositions: complex eigh and SVD vectors carry a phase LAPACK does not fix
# smoothly, so their rows go through functions the phases leave alone.
T = ((3, 2), -1.0, 1.0)  # a tall matrix


def _adjoint(x):
    return nx.conj(nx.swapaxes(x, -1, -2))


def _hermitian(a):
    return (a + _adjoint(a)) * 0.5


def _weighted_projectors(v):
    """sum_i (i + 1) v_i v_i^H over the columns v_i: phase-free, sees every vector."""
    return (v * nx.astype(nx.arange(1.0, v.shape[-1] + 1), v.dtype)) @ _adjoint(v)


def _apart(a):
    """a + diag(0, 2, 4): eigenvalues well apart (a close pair makes the second
    derivative too large for central differences at eps 1e-4)."""
    return a + nx.diag(nx.array([0.0, 2.0, 4.0]))


def _svd_phase_free(a):
    u, s, vh = nx.linalg.svd(a, full_matrices=False)
    return (u * nx.astype(s * s, u.dtype)) @ vh


SWEEP: dict[str, Case] = {
    # ------------------------------------------------------ elementwise math
    **{f"nx.{n}": unary(getattr(nx, n), complex=True) for n in (
        "negative", "square", "exp", "expm1", "sin", "cos", "sinh", "cosh", "tanh", "arctan",
        "arcsinh", "sigmoid", "real", "imag", "conj", "conjugate", "exp2", "sinc", "abs",
        "absolute", "angle", "nan_to_num")},
    **{f"nx.{n}": unary(getattr(nx, n), 0.5, 2.0, complex=True) for n in (
        "sqrt", "reciprocal", "log", "log1p", "log2", "log10")},
    **{f"nx.{n}": unary(getattr(nx, n), -0.8, 0.8, complex=True) for n in (
        "arcsin", "arccos", "arctanh", "tan")},
    "nx.arccosh": unary(nx.arccosh, 1.2, 3.0, complex=True),
    "nx.relu": unary(nx.relu),
    "nx.cbrt": unary(nx.cbrt, 0.5, 2.0),
    "nx.fabs": unary(nx.fabs, 0.5, 2.0),
    "nx.deg2rad": unary(nx.deg2rad), "nx.radians": unary(nx.radians),
    "nx.rad2deg": unary(nx.rad2deg), "nx.degrees": unary(nx.degrees),
    "nx.real_if_close": unary(nx.real_if_close, complex=True),
    "nx.astype": unary(lambda x: nx.astype(x, nx.complex128), complex=True),
    **{f"nx.{n}": binary(getattr(nx, n), complex=True) for n in ("add", "subtract", "multiply")},
    "nx.divide": binary(nx.divide, y=(0.5, 2.0), complex=True),
    "nx.power": binary(nx.power, x=(0.5, 2.0), complex=True),
    "nx.arctan2": binary(nx.arctan2, y=(0.5, 2.0)),
    "nx.hypot": binary(nx.hypot, x=(0.5, 2.0)),
    "nx.logaddexp": binary(nx.logaddexp), "nx.logaddexp2": binary(nx.logaddexp2),
    "nx.nextafter": binary(nx.nextafter),  # the standard's 2024.12 revision
    "nx.maximum": binary(nx.maximum, y=(-1.9, 1.9)), "nx.minimum": binary(nx.minimum, y=(-1.9, 1.9)),
    "nx.fmax": binary(nx.fmax, y=(-1.9, 1.9)), "nx.fmin": binary(nx.fmin, y=(-1.9, 1.9)),
    "nx.mod": binary(nx.mod, x=(2.1, 2.7), y=(1.2, 1.4)),
    "nx.remainder": binary(nx.remainder, x=(2.1, 2.7), y=(1.2, 1.4)),
    "nx.clip": unary(lambda x: nx.clip(x, -1.0, 1.0)),
    "nx.where": binary(lambda x, y: nx.where(x > 0, x, y), complex=False),
    # ------------------------------------------------------------ reductions
    **{f"nx.{n}": unary(getattr(nx, n), complex=True) for n in (
        "sum", "prod", "mean", "var", "std", "cumsum", "logsumexp", "average",
        "nansum", "nanmean", "nanvar", "nanstd")},
    **{f"nx.{n}": unary(getattr(nx, n)) for n in ("max", "min", "nanmax", "nanmin", "softmax",
                                                   "log_softmax")},
    # ---------------------------------------------------------------- shapes
    "nx.reshape": unary(lambda x: nx.reshape(x, (3, 2)), complex=True),
    "nx.ravel": unary(nx.ravel, complex=True),
    "nx.transpose": unary(nx.transpose, complex=True),
    "nx.swapaxes": unary(lambda x: nx.swapaxes(x, 0, 1), complex=True),
    "nx.moveaxis": unary(lambda x: nx.moveaxis(x, 0, 1), complex=True),
    "nx.expand_dims": unary(lambda x: nx.expand_dims(x, 1), complex=True),
    "nx.squeeze": unary(nx.squeeze, shape=(1, 3), complex=True),
    "nx.broadcast_to": unary(lambda x: nx.broadcast_to(x, (2, 2, 3)), complex=True),
    "nx.concatenate": binary(lambda x, y: nx.concatenate([x, y[None]]), complex=True),
    "nx.stack": binary(lambda x, y: nx.stack([x[0], y]), complex=True),
    "nx.split": unary(lambda x: nx.split(x, 3, axis=1)[1], complex=True),
    "nx.tile": unary(lambda x: nx.tile(x, (2, 1)), complex=True),
    "nx.repeat": unary(lambda x: nx.repeat(x, 2, axis=0), complex=True),
    "nx.flip": unary(nx.flip, complex=True),
    "nx.pad": unary(lambda x: nx.pad(x, 1), complex=True),
    "nx.tril": unary(nx.tril, complex=True), "nx.triu": unary(nx.triu, complex=True),
    "nx.getitem": unary(lambda x: nx.getitem(x, (slice(None), 1)), complex=True),
    "nx.take": unary(lambda x: nx.take(x, nx.array([2, 0, 2]), axis=1), complex=True),
    "nx.diagonal": unary(nx.diagonal, complex=True),
    "nx.trace": unary(nx.trace, complex=True),
    "nx.gradient": unary(lambda x: nx.gradient(x, 0.5, axis=1, edge_order=2), complex=True),
    # -------------------------------------- issue 14's joining and moving names
    "nx.atleast_1d": unary(nx.atleast_1d, shape=(), complex=True),
    "nx.atleast_2d": unary(nx.atleast_2d, shape=(3,), complex=True),
    "nx.atleast_3d": unary(nx.atleast_3d, complex=True),
    "nx.vstack": binary(lambda x, y: nx.vstack([x, y]), complex=True),
    "nx.row_stack": binary(lambda x, y: nx.row_stack([x, y]), complex=True),
    "nx.hstack": binary(lambda x, y: nx.hstack([x[0], y]), complex=True),
    "nx.dstack": binary(lambda x, y: nx.dstack([x, x * y]), complex=True),
    "nx.column_stack": binary(lambda x, y: nx.column_stack([x.T, y]), complex=True),
    "nx.array_split": unary(lambda x: nx.array_split(x, 2, axis=1)[0], complex=True),
    "nx.hsplit": unary(lambda x: nx.hsplit(x, [2])[1], complex=True),
    "nx.vsplit": unary(lambda x: nx.vsplit(x, 2)[1], complex=True),
    "nx.dsplit": unary(lambda x: nx.dsplit(x, [1])[1], shape=(2, 1, 3), complex=True),
    "nx.append": binary(nx.append, complex=True),
    "nx.insert": binary(lambda x, y: nx.insert(x, [0, 2, 2], y, axis=1), complex=True),
    "nx.delete": unary(lambda x: nx.delete(x, 1, axis=1), complex=True),
    "nx.roll": unary(lambda x: nx.roll(x, (1, 2), (0, 1)), complex=True),
    "nx.rollaxis": unary(lambda x: nx.rollaxis(x, 1), complex=True),
    "nx.rot90": unary(nx.rot90, complex=True),
    "nx.flipud": unary(nx.flipud, complex=True), "nx.fliplr": unary(nx.fliplr, complex=True),
    "nx.diag": unary(lambda x: nx.diag(nx.diag(x, 1), -1), complex=True),
    "nx.diagflat": unary(nx.diagflat, complex=True),
    "nx.kron": binary(nx.kron, complex=True),
    "nx.select": binary(lambda x, y: nx.select([x.real > 0, y.real < 0], [x * y, y], x),
                        complex=True),
    "nx.put_along_axis": binary(lambda x, y: nx.put_along_axis(
        x, nx.array([[1], [2]]), nx.reshape(y[:2], (2, 1)), axis=1), complex=True),
    # -------------------------------------------------------------- products
    "nx.matmul": Case(nx.matmul, (((2, 3), -1, 1), ((3, 2), -1, 1)), True),
    "nx.dot": Case(nx.dot, (((2, 3), -1, 1), ((3,), -1, 1)), True),
    "nx.inner": Case(nx.inner, (((2, 3), -1, 1), ((3,), -1, 1)), True),
    "nx.outer": Case(nx.outer, (((2,), -1, 1), ((3,), -1, 1)), True),
    "nx.tensordot": Case(lambda a, b: nx.tensordot(a, b, 1), (((2, 3), -1, 1), ((3, 2), -1, 1)),
                         True),
    "nx.einsum": Case(lambda a, b: nx.einsum("ij,jk->ik", a, b), (((2, 3), -1, 1),
                                                                   ((3, 2), -1, 1)), True),
    "nx.vdot": Case(nx.vdot, (((2, 3), -1, 1), ((6,), -1, 1)), True),
    "nx.cross": Case(nx.cross, (((2, 3), -1, 1), ((3,), -1, 1)), True),
    "nx.convolve": Case(lambda a, v: nx.convolve(a, v, "same"), (((5,), -1, 1), ((3,), -1, 1)),
                        True),
    "nx.correlate": Case(lambda a, v: nx.correlate(a, v, "full"), (((5,), -1, 1),
                                                                    ((3,), -1, 1)), True),
    # ----------------------------------------------------------- linear algebra
    "nx.linalg.inv": Case(lambda a: nx.linalg.inv(a + 3 * nx.eye(3)), (M,), True),
    "nx.linalg.det": Case(lambda a: nx.linalg.det(a + 3 * nx.eye(3)), (M,), True),
    "nx.linalg.slogdet": Case(lambda a: nx.linalg.slogdet(a + 3 * nx.eye(3))[1], (M,), True),
    "nx.linalg.solve": Case(lambda a, b: nx.linalg.solve(a + 3 * nx.eye(3), b),
                            (M, ((3,), -1, 1)), True),
    "nx.linalg.cholesky": Case(lambda a: nx.linalg.cholesky(_spd(a)), (M,)),
    "nx.linalg.norm": Case(nx.linalg.norm, (M,), True),
    "nx.linalg.pinv": Case(nx.linalg.pinv, (((3, 2), -1, 1),), True),
    "nx.linalg.lstsq": Case(lambda a, b: nx.linalg.lstsq(a, b)[:2], (((3, 2), -1, 1),
                                                                     ((3,), -1, 1)), True),
    "nx.linalg.matrix_power": Case(lambda a: nx.linalg.matrix_power(a + 3 * nx.eye(3), -5),
                                   (M,), True),
    "nx.linalg.cond": Case(lambda a: (nx.linalg.cond(a + 3 * nx.eye(3)),
                                      nx.linalg.cond(a + 3 * nx.eye(3), 1)), (M,), True),
    "nx.linalg.multi_dot": Case(lambda a, b: nx.linalg.multi_dot([b, a, a.T, b]),
                                (((3, 2), -1, 1), ((3,), -1, 1)), True),
    "nx.linalg.tensorsolve": Case(lambda a, b: nx.linalg.tensorsolve(
        nx.reshape(a + 3 * nx.eye(3), (3, 1, 3)), nx.reshape(b, (3, 1))),
        (M, ((3,), -1, 1)), True),
    "nx.linalg.tensorinv": Case(lambda a: nx.linalg.tensorinv(
        nx.reshape(a + 3 * nx.eye(3), (3, 1, 3)), ind=2), (M,), True),
    # numpy 2's array-API names in np.linalg
    "nx.linalg.matmul": Case(nx.linalg.matmul, (((2, 3), -1, 1), ((3, 2), -1, 1)), True),
    "nx.linalg.matrix_transpose": unary(nx.linalg.matrix_transpose, complex=True),
    "nx.linalg.vecdot": binary(nx.linalg.vecdot, complex=True),
    "nx.linalg.tensordot": Case(lambda a, b: nx.linalg.tensordot(a, b, axes=1),
                                (((2, 3), -1, 1), ((3, 2), -1, 1)), True),
    "nx.linalg.outer": Case(nx.linalg.outer, (((2,), -1, 1), ((3,), -1, 1)), True),
    "nx.linalg.trace": unary(lambda x: nx.linalg.trace(x, offset=1), shape=(2, 2, 3),
                             complex=True),
    "nx.linalg.diagonal": unary(nx.linalg.diagonal, shape=(2, 3, 2), complex=True),
    "nx.linalg.cross": Case(nx.linalg.cross, (((2, 3), -1, 1), ((3,), -1, 1)), True),
    "nx.linalg.svd": Case(_svd_phase_free, (T,), True),
    "nx.linalg.eigh": Case(lambda a: _weighted_projectors(nx.linalg.eigh(_hermitian(a))[1]),
                           (M,), True),
    "nx.linalg.eigvalsh": Case(lambda a: nx.linalg.eigvalsh(_hermitian(a)), (M,), True),
    "nx.linalg.eig": Case(lambda a: nx.linalg.eig(_apart(a)).eigenvectors, (M,), True),
    "nx.linalg.eigvals": Case(lambda a: nx.linalg.eigvals(_apart(a)), (M,), True),
    "nx.linalg.qr": Case(lambda a: nx.concatenate(nx.linalg.qr(a), axis=0), (T,), True),
    # -------------------------------------------------------------------- fft
    **{f"nx.fft.{n}": unary(getattr(nx.fft, n), complex=True) for n in (
        "fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "irfft", "irfftn", "irfft2", "hfft",
        "fftshift", "ifftshift")},
    **{f"nx.fft.{n}": unary(getattr(nx.fft, n)) for n in ("rfft", "rfftn", "rfft2", "ihfft")},
    "nx.fft.fftfreq": Case(lambda d: nx.fft.fftfreq(5, d), (((), 0.5, 2.0),)),
    "nx.fft.rfftfreq": Case(lambda d: nx.fft.rfftfreq(5, d), (((), 0.5, 2.0),)),
    # --------------------------------------------------------- scipy.special
    **{f"scipy.special.{n}": unary(getattr(special, n), 0.5, 3.0) for n in (
        "erf", "erfc", "gamma", "gammaln", "digamma", "psi", "i0", "i1", "i0e", "i1e",
        "expit")},
    **{f"scipy.special.{n}": unary(getattr(special, n), 0.5, 3.0, complex=True) for n in (
        "softmax", "log_softmax", "logsumexp")},
    **{f"scipy.special.{n}": unary(getattr(special, n), -3.0, 3.0) for n in (
        "ndtr", "log_ndtr")},
    "scipy.special.ndtri": unary(special.ndtri, 0.05, 0.95),
    "scipy.special.entr": unary(special.entr, 0.2, 3.0),
    "scipy.special.erfinv": unary(special.erfinv, -0.9, 0.9),
    "scipy.special.erfcinv": unary(special.erfcinv, 0.1, 1.9),
    "scipy.special.logit": unary(special.logit, 0.1, 0.9),
    "scipy.special.rgamma": unary(special.rgamma, -2.8, 3.0),
    **{f"scipy.special.{n}": unary(getattr(special, n), 0.5, 30.0) for n in (
        "j0", "j1", "y0", "y1")},
    "scipy.special.jn": unary(lambda x: special.jn(3, x), -30.0, 30.0),
    "scipy.special.yn": unary(lambda x: special.yn(3, x), 0.5, 30.0),
    # iv, ive: every order in x; none in v (tests/test_scipy_more.py checks that it raises)
    **{f"scipy.special.{n}": unary(lambda x, n=n: getattr(special, n)(
        nx.array([-1.5, 0.5, 3.0]), x), 0.5, 50.0) for n in ("iv", "ive")},
    "scipy.special.multigammaln": unary(lambda a: special.multigammaln(a, 3), 1.5, 4.0),
    "scipy.special.polygamma": unary(lambda x: special.polygamma(2, x), 0.5, 3.0),
    **{f"scipy.special.{n}": binary(getattr(special, n), (0.5, 3.0), (0.5, 3.0)) for n in (
        "beta", "betaln")},
    **{f"scipy.special.{n}": binary(getattr(special, n), (0.5, 3.0), (0.5, 3.0), complex=True)
       for n in ("xlogy", "xlog1py")},
    # incomplete gamma and beta: every order in x; once in a (as JAX), so a stays fixed here
    # (tests/test_scipy.py checks d/da at order 1); betainc has no derivative in a or b
    "scipy.special.gammainc": unary(lambda x: special.gammainc(nx.array([0.7, 2.0, 4.0]), x),
                                    0.5, 3.0),
    "scipy.special.gammaincc": unary(lambda x: special.gammaincc(nx.array([0.7, 2.0, 4.0]), x),
                                     0.5, 3.0),
    "scipy.special.betainc": unary(lambda x: special.betainc(nx.array([0.7, 2.0, 4.0]),
                                                             nx.array([1.5, 0.8, 3.0]), x),
                                   0.1, 0.9),
    "scipy.signal.convolve": Case(lambda a, v: signal.convolve(a, v, "same"),
                                  (((3, 4), -1, 1), ((2, 2), -1, 1)), True),
    "scipy.signal.correlate": Case(lambda a, v: signal.correlate(a, v, method="fft"),
                                   (((3, 4), -1, 1), ((2, 2), -1, 1)), True),
    # scipy.linalg (sqrtm's matrices kept near 3 I: a real principal root)
    "scipy.linalg.sqrtm": Case(lambda a: linalg.sqrtm(0.3 * a + 3 * nx.eye(3)), (M,), True),
    "scipy.linalg.solve_sylvester": Case(lambda a, b, q: linalg.solve_sylvester(
        a + 3 * nx.eye(3), b + 2 * nx.eye(2), q), (M, ((2, 2), -1, 1), ((3, 2), -1, 1)), True),
    "scipy.linalg.solve_banded": Case(lambda ab, b: linalg.solve_banded(
        (1, 1), ab + nx.array([[0.0], [4.0], [0.0]]), b), (((3, 4), -1, 1), ((4,), -1, 1)), True),
    # stats: the distributions' functions, by "scipy.stats.norm.logpdf"
    "scipy.stats.norm.logpdf": binary(stats.norm.logpdf, y=(0.5, 2.0)),
    "scipy.stats.norm.logcdf": unary(stats.norm.logcdf, -25.0, 3.0),
    "scipy.stats.norm.sf": unary(stats.norm.sf, -3.0, 25.0),
    "scipy.stats.norm.logsf": unary(stats.norm.logsf, -3.0, 25.0),
    **{f"scipy.stats.chi2.{f}": unary(lambda x, f=f: getattr(stats.chi2, f)(x, 3.5), 0.5, 6.0)
       for f in ("logpdf", "logcdf", "sf", "logsf")},
    "scipy.stats.t.logpdf": binary(stats.t.logpdf, y=(1.0, 5.0)),
    "scipy.stats.gamma.logpdf": binary(stats.gamma.logpdf, (0.5, 3.0), (0.5, 3.0)),
    "scipy.stats.beta.logpdf": Case(stats.beta.logpdf, (((3,), 0.1, 0.9), ((3,), 0.5, 3.0),
                                                        ((3,), 0.5, 3.0))),
    "scipy.stats.poisson.logpmf": Case(lambda mu: stats.poisson.logpmf(nx.array([0, 2, 5]), mu),
                                       (((3,), 0.5, 3.0),)),
    # the cdfs' relatives, in x with the shapes fixed (tests/test_scipy.py differentiates
    # them in loc, scale and the shapes that have a derivative)
    **{f"scipy.stats.t.{f}": unary(lambda x, f=f: getattr(stats.t, f)(x, 3.5), -3.0, 3.0)
       for f in ("logcdf", "sf", "logsf")},
    **{f"scipy.stats.gamma.{f}": unary(lambda x, f=f: getattr(stats.gamma, f)(x, 2.5), 0.5, 4.0)
       for f in ("logcdf", "sf", "logsf")},
    **{f"scipy.stats.beta.{f}": unary(lambda x, f=f: getattr(stats.beta, f)(x, 2.0, 3.5), 0.1, 0.9)
       for f in ("logcdf", "sf", "logsf")},
    **{f"scipy.stats.poisson.{f}": unary(
        lambda mu, f=f: getattr(stats.poisson, f)(nx.array([0.0, 2.0, 5.0]), mu), 0.5, 3.0,
        shape=(3,)) for f in ("logcdf", "sf", "logsf")},
    "scipy.stats.dirichlet.logpdf": Case(lambda x, a: stats.dirichlet.logpdf(x, a),
                                         (((3, 2), 0.1, 0.9), ((3,), 0.5, 3.0))),
    "scipy.stats.multivariate_normal.logpdf": Case(
        lambda x, a: stats.multivariate_normal.logpdf(x, cov=_spd(a)), (((2, 3), -1, 1), M)),
}

NO_DERIVATIVE: dict[str, str] = {
    **{f"nx.{n}": "builds a tensor from numbers (nothing to differentiate)" for n in (
        "array", "asarray", "create", "zeros", "ones", "full", "zeros_like", "ones_like",
        "full_like", "arange", "linspace", "eye")},
    **{f"nx.{n}": "piecewise constant: derivative zero (the sweep's zero rows are in "
                  "test_nx_elementwise)" for n in (
        "floor", "ceil", "round", "sign", "floor_divide")},
    **{f"nx.{n}": "boolean output" for n in (
        "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
        "logical_or", "logical_xor", "logical_not", "isnan", "isfinite", "isinf", "all", "any",
        "iscomplex", "isreal")},
    "nx.argmax": "integer output", "nx.argmin": "integer output",
    "scipy.integrate.odeint": "reverse mode, first order only (a custom_vjp by the adjoint "
                              "method): tests/test_integrate.py checks its gradients against "
                              "closed forms and finite differences",
    "scipy.special.gammasgn": "piecewise constant (a sign): derivative zero, checked in "
                              "tests/test_scipy_more.py",
    "nx.allclose": "returns a Python bool",
    "nx.ndim": "returns a Python int (the number of axes)",
    "nx.linalg.matrix_rank": "integer output (a count of singular values)",
    "nx.random.default_rng": "a random generator (its draws are constants)",
    # the Array API standard's additions (rune/nx/array_api.py)
    **{f"nx.{n}": "answers about dtypes, not values" for n in (
        "finfo", "iinfo", "isdtype", "can_cast", "result_type")},
    **{f"nx.{n}": "integer or boolean input and output (bits have no derivative)" for n in (
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_left_shift",
        "bitwise_right_shift")},
    "nx.from_dlpack": "builds a tensor from another library's memory (a constant)",
}

# Issue 20's builders from numbers (their table, tests/test_nx_names.py, checks
# them against numpy as CONSTANTS without naming them): counted once they exist.
ISSUE_20_BUILDERS = {f"nx.{n}": "builds a tensor from numbers" for n in (
    "tri", "tril_indices", "triu_indices", "indices", "identity", "empty", "empty_like",
    "logspace", "geomspace")}
