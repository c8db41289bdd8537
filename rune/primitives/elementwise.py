"""Elementwise primitives: numpy ufuncs with their derivative rules.

Each line gives a primitive's name, its numpy implementation and the factor
its tangent is multiplied by (`Scaled`): d sin(x) = t * cos(x). Linear
primitives (add, negative, real...) give their transpose rules beside them.
Arguments broadcast as in numpy; the transpose rules sum cotangents back to
each argument's shape (`fit`).
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, Scaled, binder
from . import shape as _shape

# ------------------------------------------------------------------ families


def _dtype_of(x):
    dtype = getattr(x, "dtype", None)
    return dtype if dtype is not None else type(x)  # a Python scalar stays weak


def _abstract(impl, cache):
    """Shape by broadcasting; dtype by running impl on one-element samples."""

    def abstract_eval(*args, **params):
        shapes = [a.shape if hasattr(a, "shape") else np.shape(a) for a in args]
        first = shapes[0]
        shape = first if all(s == first for s in shapes) else np.broadcast_shapes(*shapes)
        key = tuple(_dtype_of(a) for a in args)
        if params:
            key = (key, tuple(sorted(params.items())))
        dtype = cache.get(key)
        if dtype is None:
            samples = [np.ones((), a.dtype) if hasattr(a, "dtype") else a for a in args]
            with np.errstate(all="ignore"):
                dtype = cache[key] = np.asarray(impl(*samples, **params)).dtype
        return shape, dtype

    return abstract_eval


def _batch(prim):
    """vmap rule shared by the family: line batch axes up in front, then apply."""
    return lambda values, dims, **params: (
        prim.bind(*_shape.align_batch(values, dims), **params), 0)


def elementwise(name, impl, factors=None, *, jvp_rules=None, transpose_rules=None,
                zero_derivative=False, arity=None, takes_params=False):
    """The function applying a new elementwise primitive (see `core.binder`).

    `factors` gives one Scaled factor per argument; primitives whose tangent is
    not a product give `jvp_rules` instead. Linear ones give `transpose_rules`.
    The number of arguments (`arity`) is the number of rules unless given;
    `takes_params` says that the primitive also takes keyword parameters
    (integer_pow's n), which the one- and two-argument fast paths do not.
    """
    prim = Primitive(name, impl, _abstract(impl, {}))
    if factors is not None:
        jvp_rules = tuple(Scaled(f) if f is not None else None for f in factors)
    prim.jvp_rules = jvp_rules
    prim.transpose_rules = transpose_rules
    prim.zero_derivative = zero_derivative
    prim.batch = _batch(prim)
    if arity is None and jvp_rules is not None:
        arity = len(jvp_rules)
    return binder(prim, None if takes_params else arity)


def linear(name, impl, jvp_rules, transpose_rules, takes_params=False):
    """An elementwise primitive linear in its arguments: its jvp applies it to tangents."""
    return elementwise(name, impl, jvp_rules=jvp_rules, transpose_rules=transpose_rules,
                       takes_params=takes_params)


def fit(ct, var):
    """A cotangent brought back to a variable's shape and dtype.

    Broadcasting copies a value along new axes, so its transpose sums them;
    a real variable receives the real part of a complex cotangent.
    """
    if ct.shape != var.shape:
        ct = _shape.sum_to_shape(ct, var.shape)
    if ct.dtype != var.dtype:
        ct = astype(real(ct) if var.dtype.kind != "c" else ct, dtype=var.dtype)
    return ct


# ------------------------------------------------------------ linear ones

def as_output(t, ans):
    """A tangent in its output's dtype: in x32 + y64, x's tangent becomes float64,
    and in x + 1j, complex (the Scaled rules get this from their factor)."""
    return t if t.dtype == ans.dtype else astype(t, dtype=ans.dtype)


# A real Python number added never changes the dtype: the hot case, checked first.
_REAL_SCALARS = (int, float)

add = linear("add", np.add,
             (lambda t, ans, x, y: t if type(y) in _REAL_SCALARS else as_output(t, ans),
              lambda t, ans, x, y: t if type(x) in _REAL_SCALARS else as_output(t, ans)),
             (lambda ct, x, y: fit(ct, x), lambda ct, x, y: fit(ct, y)))
subtract = linear("subtract", np.subtract,
                  (lambda t, ans, x, y: t if type(y) in _REAL_SCALARS else as_output(t, ans),
                   lambda t, ans, x, y: as_output(negative(t), ans)),
                  (lambda ct, x, y: fit(ct, x), lambda ct, x, y: fit(negative(ct), y)))
negative = linear("negative", np.negative,
                  (lambda t, ans, x: negative(t),),
                  (lambda ct, x: negative(ct),))
# multiply is linear in each argument with the other fixed: that is how the
# record uses it, always with one tangent and one constant.
multiply = elementwise("multiply", np.multiply, (lambda ans, x, y: y, lambda ans, x, y: x),
                       transpose_rules=(lambda ct, x, y: fit(multiply(ct, y), x),
                                        lambda ct, x, y: fit(multiply(x, ct), y)))
multiply.primitive.multilinear = True
def _inverse(y):
    """1 / y, not reciprocal(y): numpy's reciprocal of an integer is an integer (1 // y).
    A Python 0 gives numpy's inf (a Python number still: weakly typed), not
    ZeroDivisionError, so that d(x / 0.0)/dx is inf as x / 0.0 is."""
    try:
        return 1 / y
    except ZeroDivisionError:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.divide(1, y).item()


divide = elementwise("divide", np.divide, (lambda ans, x, y: _inverse(y),
                                           lambda ans, x, y: negative(ans / y)),
                     transpose_rules=(lambda ct, x, y: fit(divide(ct, y), x), None))
real = linear("real", np.real,
              (lambda t, ans, x: real(t),),
              (lambda ct, x: fit(ct, x),))
imag = linear("imag", np.imag,
              (lambda t, ans, x: imag(t),),
              (lambda ct, x: fit(multiply(ct, -1j), x),))
conj = linear("conj", np.conj,
              (lambda t, ans, x: conj(t),),
              (lambda ct, x: conj(ct),))


def _astype_impl(x, dtype):
    x = np.asarray(x)
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        x = x.real  # numpy warns and drops the imaginary part; we say so in the docs
    return x.astype(dtype)


def _astype_jvp(t, ans, x, dtype):
    return astype(t, dtype=dtype) if ans.dtype.kind in "fc" else None


astype = linear("astype", _astype_impl, (_astype_jvp,),
                (lambda ct, x, dtype: astype(real(ct) if x.dtype.kind != "c" else ct,
                                             dtype=x.dtype),),
                takes_params=True)

# ------------------------------------------------------------ smooth ones
# Complex arguments: these are holomorphic, and the factor is f'(z).

_LN2, _LN10 = float(np.log(2)), float(np.log(10))


def _complex(real_part, imag_part, dtype):
    """real + imag j from its parts: (inf) * 1j would be nan + inf j."""
    out = np.empty(np.broadcast(real_part, imag_part).shape, dtype)
    out.real, out.imag = real_part, imag_part
    return out


def expm1_impl(x, xp=np, complex_from=_complex):
    """numpy's expm1, with the standard's values at complex zeros, infinities and NaNs.

    numpy's complex expm1 is exp(a) cos(b) - 1 + i exp(a) sin(b) computed as is,
    where inf * 0 and inf * cos(inf) make NaNs that the limits of exp(z) - 1 do
    not have. On the real axis the result is expm1(a) + b j (+0 at -0). At
    a = -inf it is -1 (exp vanishes); at a = +inf, inf cis(b) for finite b and
    inf + NaN j otherwise. `xp` and `complex_from` are jax.numpy's for the JAX
    backend's lowering (XLA's complex exp has no such limits either).
    """
    out = xp.expm1(x)
    if out.dtype.kind != "c":
        return out
    a, b = xp.real(x), xp.imag(x)
    on_axis, infinite = b == 0, xp.isinf(a)
    if xp is np and not (on_axis.any() or infinite.any()):
        return out  # the common case, at numpy's speed
    with np.errstate(all="ignore"):
        finite_b = xp.isfinite(b)
        at_infinity = complex_from(
            xp.where(a < 0, -1.0, xp.where(finite_b, a * xp.cos(b), a)),
            xp.where(finite_b, xp.where(a < 0, xp.copysign(0.0, xp.sin(b)), a * xp.sin(b)),
                     xp.where(a < 0, 0.0, xp.nan)),
            out.dtype)
        out = xp.where(infinite & ~on_axis, at_infinity, out)
        return xp.where(on_axis, complex_from(xp.expm1(a) + 0.0, b, out.dtype), out)


sin = elementwise("sin", np.sin, (lambda ans, x: cos(x),))
cos = elementwise("cos", np.cos, (lambda ans, x: negative(sin(x)),))
tan = elementwise("tan", np.tan, (lambda ans, x: 1 + ans * ans,))
arcsin = elementwise("arcsin", np.arcsin, (lambda ans, x: reciprocal(sqrt(1 - x * x)),))
arccos = elementwise("arccos", np.arccos, (lambda ans, x: negative(reciprocal(sqrt(1 - x * x))),))
arctan = elementwise("arctan", np.arctan, (lambda ans, x: reciprocal(1 + x * x),))
sinh = elementwise("sinh", np.sinh, (lambda ans, x: cosh(x),))
cosh = elementwise("cosh", np.cosh, (lambda ans, x: sinh(x),))
tanh = elementwise("tanh", np.tanh, (lambda ans, x: 1 - ans * ans,))
arcsinh = elementwise("arcsinh", np.arcsinh, (lambda ans, x: reciprocal(sqrt(x * x + 1)),))
arccosh = elementwise("arccosh", np.arccosh,
                      (lambda ans, x: reciprocal(sqrt(x - 1) * sqrt(x + 1)),))
arctanh = elementwise("arctanh", np.arctanh, (lambda ans, x: reciprocal(1 - x * x),))
exp = elementwise("exp", np.exp, (lambda ans, x: ans,))


expm1 = elementwise("expm1", expm1_impl, (lambda ans, x: ans + 1,))
log = elementwise("log", np.log, (lambda ans, x: reciprocal(x),))
log1p = elementwise("log1p", np.log1p, (lambda ans, x: reciprocal(x + 1),))
# The constants are Python floats: a numpy float64 would turn float32 into float64.
log2 = elementwise("log2", np.log2, (lambda ans, x: reciprocal(x * _LN2),))
log10 = elementwise("log10", np.log10, (lambda ans, x: reciprocal(x * _LN10),))
sqrt = elementwise("sqrt", np.sqrt, (lambda ans, x: 0.5 / ans,))  # sqrt'(0) = inf
square = elementwise("square", np.square, (lambda ans, x: 2 * x,))
reciprocal = elementwise("reciprocal", np.reciprocal, (lambda ans, x: negative(ans * ans),))


exp2 = elementwise("exp2", np.exp2, (lambda ans, x: ans * _LN2,))
cbrt = elementwise("cbrt", np.cbrt, (lambda ans, x: 1 / (3 * ans * ans),))  # cbrt'(0) = inf


def _factor_is(function, other, negated=False):
    """Say that `function`'s Scaled factor is `other` of the argument (negated)."""
    function.primitive.jvp_rules[0].same_as = (other.primitive, negated)


# Forward over reverse (a Hessian-vector product) asks forward mode for sin x
# and cos x once as values and once as factors: JVPTrace reuses them.
_factor_is(sin, cos)
_factor_is(cos, sin, negated=True)
_factor_is(sinh, cosh)
_factor_is(cosh, sinh)


def _hypot_share(mine, ans):
    """d hypot(x, y) / dx = x / hypot: taken as 0 at the origin (a kink, as abs'(0))."""
    at_origin = equal(ans, 0)
    return where(at_origin, 0, mine / where(at_origin, 1, ans))


hypot = elementwise("hypot", np.hypot, (lambda ans, x, y: _hypot_share(x, ans),
                                        lambda ans, x, y: _hypot_share(y, ans)))
# d log(e^x + e^y) / dx = e^(x - ans): a weight in [0, 1], never overflowing.
logaddexp = elementwise("logaddexp", np.logaddexp, (lambda ans, x, y: exp(x - ans),
                                                    lambda ans, x, y: exp(y - ans)))
logaddexp2 = elementwise("logaddexp2", np.logaddexp2, (lambda ans, x, y: exp2(x - ans),
                                                       lambda ans, x, y: exp2(y - ans)))


def _sigmoid_impl(x):
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return 1 / (1 + np.exp(-x))
    # exp of a negative number only: no overflow for large |x|.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


sigmoid = elementwise("sigmoid", _sigmoid_impl, (lambda ans, x: ans * (1 - ans),))


def _pow_base_factor(ans, x, y):
    # y * x**(y-1), written so that y = 0 gives 0 rather than 0 * inf at x = 0.
    if isinstance(y, (int, float)):  # x ** 3: keep the exponent a (weakly typed) scalar
        if y == 0:
            return _shape.zeros_like(ans)
        return y * x if y == 2 else y * power(x, y - 1)  # x ** 2 is common: skip x ** 1
    return y * power(x, where(equal(y, 0), 1, y - 1))


def _pow_exponent_factor(ans, x, y):
    # log(x) * x**y, with the 0 ** y corner (log 0 = -inf) given 0 as its limit.
    if isinstance(x, (int, float, complex)):  # 2 ** y: log 2 stays a (weakly typed) number
        return ans * np.log(x).item() if x != 0 else _shape.zeros_like(ans)
    at_zero = equal(x, 0)
    return where(at_zero, 0, ans * log(where(at_zero, 1, x)))


general_power = elementwise("power", np.power, (_pow_base_factor, _pow_exponent_factor))


def _integer_pow_impl(x, n):
    # Square and multiply: for whole exponents this is several times faster
    # than numpy's power, which goes through pow() (negative bases are slow).
    result = None
    while n:
        if n & 1:
            result = x if result is None else result * x
        n >>= 1
        if n:
            x = x * x
    return result


integer_pow = elementwise(
    "integer_pow", _integer_pow_impl,
    (lambda ans, x, n: n * x if n == 2 else n * integer_pow(x, n=n - 1) if n > 1 else 1,),
    takes_params=True)
_MAX_INTEGER_POW = 32


def power(x, y):
    """x ** y; a float tensor to a small whole power multiplies (`integer_pow`).

    Not a primitive's function itself: it picks one of two (`general_power`).
    """
    if type(y) is int and 0 < y <= _MAX_INTEGER_POW and getattr(x, "dtype", None) is not None \
            and x.dtype.kind in "fc":
        return integer_pow(x, n=y)
    return general_power(x, y)


# -y, not negative(y): a Python number must stay one (weakly typed) in the factor.
arctan2 = elementwise("arctan2", np.arctan2, (lambda ans, y, x: x / (x * x + y * y),
                                              lambda ans, y, x: -y / (x * x + y * y)))


def _max_share(x, y, ans):
    """1 where x wins, 0.5 at ties (the cotangent splits evenly), 0 where y wins."""
    dtype = ans.dtype
    return astype(greater(x, y), dtype=dtype) + astype(equal(x, y), dtype=dtype) * 0.5


maximum = elementwise("maximum", np.maximum, (lambda ans, x, y: _max_share(x, y, ans),
                                              lambda ans, x, y: _max_share(y, x, ans)))
minimum = elementwise("minimum", np.minimum, (lambda ans, x, y: _max_share(y, x, ans),
                                              lambda ans, x, y: _max_share(x, y, ans)))
mod = elementwise("mod", np.mod, (lambda ans, x, y: 1,
                                  lambda ans, x, y: negative(floor_divide(x, y))))


def _abs_jvp(t, ans, x):
    if x.dtype.kind != "c":
        return t * sign(x)  # abs'(0) = sign(0) = 0
    # d|z| = Re(conj(z) dz) / |z|, and 0 at z = 0 (where conj(z) is 0 too).
    safe = where(equal(ans, 0), 1, ans)
    return real(t * (conj(x) / safe))


absolute = elementwise("absolute", np.absolute, jvp_rules=(_abs_jvp,))


def _where_jvp(branch):
    def rule(t, ans, c, x, y):
        zero = _shape.zeros_like(t)
        return as_output(where(c, t, zero) if branch == 1 else where(c, zero, t), ans)
    return rule


where = linear("where", np.where,
               (lambda t, ans, c, x, y: None, _where_jvp(1), _where_jvp(2)),
               (None,
                lambda ct, c, x, y: fit(where(c, ct, _shape.zeros_like(ct)), x),
                lambda ct, c, x, y: fit(where(c, _shape.zeros_like(ct), ct), y)))

# ------------------------------------------------------------ stop_gradient


def _stop_gradient_jvp(primals, tangents):
    # The value passes; the tangent stops. Binding on the primal strips this
    # level, and every differentiation level around it does the same.
    return stop_gradient(primals[0]), None


stop_gradient = elementwise("stop_gradient", lambda x: x, arity=1)
stop_gradient.primitive.jvp = _stop_gradient_jvp

# ---------------------------------------------- derivative zero almost everywhere


def _sign_jvp(t, ans, x):
    """Real sign is piecewise constant; complex sign(z) = z / |z| moves along the circle.

    d(z/|z|) = (dz - s Re(conj(s) dz)) / |z| with s = sign(z), and 0 at z = 0.
    """
    if x.dtype.kind != "c":
        return None
    size = absolute(x)
    inverse = where(equal(size, 0), 0, 1 / where(equal(size, 0), 1, size))
    return (t - ans * real(conj(ans) * t)) * inverse


sign = elementwise("sign", np.sign, jvp_rules=(_sign_jvp,))


def _piecewise_constant(name, impl, arity=2, takes_params=False):
    return elementwise(name, impl, zero_derivative=True, arity=arity, takes_params=takes_params)


floor = _piecewise_constant("floor", np.floor, 1)
ceil = _piecewise_constant("ceil", np.ceil, 1)
round_ = _piecewise_constant("round", np.round, takes_params=True)  # not to shadow round


def floor_divide_impl(x, y, xp=np):
    """numpy's x // y, but floor(x / y) where x or y is infinite, as the standard
    prefers: inf // 2 is inf and 1 // -inf is -0 (numpy's are NaN and -1, which
    keep Python's x == (x // y) * y + x % y). `xp` is numpy, or jax.numpy for
    the JAX backend's lowering."""
    out = xp.floor_divide(x, y)
    if out.dtype.kind != "f":
        return out
    with np.errstate(all="ignore"):
        return xp.where(xp.isinf(x) | xp.isinf(y), xp.floor(xp.divide(x, y)), out)


floor_divide = _piecewise_constant("floor_divide", floor_divide_impl)
equal = _piecewise_constant("equal", np.equal)
not_equal = _piecewise_constant("not_equal", np.not_equal)
less = _piecewise_constant("less", np.less)
less_equal = _piecewise_constant("less_equal", np.less_equal)
greater = _piecewise_constant("greater", np.greater)
greater_equal = _piecewise_constant("greater_equal", np.greater_equal)
logical_and = _piecewise_constant("logical_and", np.logical_and)
logical_or = _piecewise_constant("logical_or", np.logical_or)
logical_not = _piecewise_constant("logical_not", np.logical_not, 1)
isnan = _piecewise_constant("isnan", np.isnan, 1)
isfinite = _piecewise_constant("isfinite", np.isfinite, 1)
isinf = _piecewise_constant("isinf", np.isinf, 1)
logical_xor = _piecewise_constant("logical_xor", np.logical_xor)
trunc = _piecewise_constant("trunc", np.trunc, 1)
signbit = _piecewise_constant("signbit", np.signbit, 1)
# Bitwise operations take integers and booleans only (numpy raises on floats),
# and no integer or boolean carries a derivative.
bitwise_and = _piecewise_constant("bitwise_and", np.bitwise_and)
bitwise_or = _piecewise_constant("bitwise_or", np.bitwise_or)
bitwise_xor = _piecewise_constant("bitwise_xor", np.bitwise_xor)
invert = _piecewise_constant("invert", np.invert, 1)
left_shift = _piecewise_constant("left_shift", np.left_shift)
right_shift = _piecewise_constant("right_shift", np.right_shift)
# The float after x towards y moves with x, one step from it: 1 in x, 0 in y
# (a step of one unit in the last place is no change that a derivative sees).
nextafter = elementwise("nextafter", np.nextafter,
                        jvp_rules=(Scaled(lambda ans, x, y: 1), lambda t, ans, x, y: None))
# C's fmod: x - trunc(x / y) * y, with the sign of x (mod has y's).
fmod = elementwise("fmod", np.fmod, (lambda ans, x, y: 1,
                                     lambda ans, x, y: negative(trunc(x / y))))
