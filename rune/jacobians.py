"""Jacobians and Hessians, built from jvp, vjp and vmap.

`jacfwd` pushes every basis tangent of the inputs through `jvp` (one batched
call, by vmap); `jacrev` pulls every basis cotangent of the outputs through
one pullback (also batched). The Jacobian of an output of shape S_out with
respect to an input of shape S_in has shape S_out + S_in.
"""

from __future__ import annotations


from . import ptree
from .arguments import check_differentiable, flatten_tensors, normalize_argnums, split_aux
from .forward import jvp
from .primitives import shape as _shape
from .reverse import grad, vjp
from .vmap import map_basis


def _partial(f, args, nums, kwargs):
    """f as a function of the arguments at `nums` only, the others (and the
    keyword arguments, which are never differentiated) fixed."""
    def f_of(*diff):
        full = list(args)
        for i, value in zip(nums, diff):
            full[i] = value
        return f(*full, **kwargs)
    return f_of


def _diff_args(args, argnums, transform, holomorphic):
    nums = normalize_argnums(argnums, len(args), transform)
    diff = tuple(args[i] for i in nums)
    leaves, structure = flatten_tensors(diff, "args", transform, nums)
    check_differentiable(leaves, structure, transform, argnums, nums)
    for leaf, name in zip(leaves, ptree.paths(structure, "args")):
        if leaf.dtype.kind == "c" and not holomorphic:
            raise TypeError(f"{transform}: {name} is complex; pass holomorphic=True for "
                            f"the Jacobian of a holomorphic function")
    return nums, leaves, structure


def _with_aux(f, transform):
    """f, checked to return a pair (output, aux), with errors naming `transform`."""
    return lambda *args: split_aux(f(*args), transform)


def _unpack(result, argnums):
    return result if isinstance(argnums, (tuple, list)) else result[0]


def _move_batch_last(block, out_shape, in_shape):
    """(n_in, *out) -> (*out, *in): the batched axis goes behind the output's."""
    block = _shape.moveaxis(block, 0, len(block.shape) - 1)
    return _shape.reshape(block, shape=tuple(out_shape) + tuple(in_shape))


def jacfwd(f, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of f by forward mode: one jvp per input element, batched.

    Returns a function of f's arguments giving, for each output leaf, the
    Jacobian with respect to argnums (structured like the arguments when
    argnums is a tuple). Best when inputs are fewer than outputs.

    Args:
      f: a function of tensors (or structures of them) returning tensors (or
        structures of them).
      argnums: the positional argument (an int) or arguments (a tuple) to
        differentiate with respect to. Keyword arguments of the call pass
        through to f, not differentiated.
      has_aux: f returns a pair (output, aux); the function then returns
        (jacobian, aux), aux undifferentiated.
      holomorphic: allow complex inputs, for a holomorphic f.

    Raises:
      TypeError: calling the function: an argument to differentiate that is
        not a tensor, or has an integer dtype, or (without holomorphic) a
        complex one; has_aux and f does not return a pair.
      ValueError: calling the function: argnums out of range or repeated.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.jacfwd(lambda x: x * x)(nx.array([1.0, 2.0])))
    float64 [2, 2]
    [[2, 0],
     [0, 4]]
    """
    return _jacfwd(f, argnums, has_aux, holomorphic, "rune.jacfwd")


def _jacfwd(f, argnums, has_aux, holomorphic, transform):
    """`rune.jacfwd`, its errors naming `transform` (rune.hessian uses it too)."""

    def jacobian(*args, **kwargs):
        nums, leaves, structure = _diff_args(args, argnums, transform, holomorphic)
        f_diff = _partial(f, args, nums, kwargs)
        if has_aux:  # f's output must be a pair: [0] would quietly index a tensor
            f_diff = _with_aux(f_diff, transform)
        primals = tuple(ptree.unflatten(structure, leaves))
        # Forward mode computes f's output (and aux) along with the tangents:
        # each push returns them, the same for every basis tangent, so f runs
        # once per input leaf and never on its own.
        found = {}  # the output's and aux's structures, from the first push

        def push(t, k):
            tangents = [t if j == k else _shape.zeros_like(x) for j, x in enumerate(leaves)]
            pushed = jvp(f_diff, primals, tuple(ptree.unflatten(structure, tangents)),
                         has_aux=has_aux)
            out, out_tangent, aux = pushed if has_aux else (*pushed, None)
            out_leaves, found["out"] = ptree.flatten(out)
            aux_leaves, found["aux"] = ptree.flatten(aux)
            return out_leaves + aux_leaves, ptree.leaves(out_tangent)

        if not leaves:  # nothing to differentiate (an empty dict): f's output alone
            out, aux = f_diff(*primals) if has_aux else (f_diff(*primals), None)
            out_leaves, found["out"] = ptree.flatten(out)
        columns = []  # one entry per input leaf: a list over output leaves
        for k, leaf in enumerate(leaves):
            same, blocks = map_basis(lambda t, k=k: push(t, k), leaf)
            if k == 0:
                num_out = found["out"].num_leaves
                out_leaves, aux = same[:num_out], ptree.unflatten(found["aux"], same[num_out:])
            columns.append([_move_batch_last(b, o.shape, leaf.shape)
                            for b, o in zip(blocks, out_leaves)])
        result = ptree.unflatten(found["out"], [
            _unpack(ptree.unflatten(structure, [columns[k][i] for k in range(len(leaves))]),
                    argnums)
            for i in range(len(out_leaves))
        ])
        return (result, aux) if has_aux else result

    return jacobian


def jacrev(f, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of f by reverse mode: one pullback per output element, batched.

    Same result as `jacfwd`; best when outputs are fewer than inputs.

    Args:
      f: a function of tensors (or structures of them) returning tensors (or
        structures of them).
      argnums: the positional argument (an int) or arguments (a tuple) to
        differentiate with respect to. Keyword arguments of the call pass
        through to f, not differentiated.
      has_aux: f returns a pair (output, aux); the function then returns
        (jacobian, aux), aux undifferentiated.
      holomorphic: allow complex inputs, for a holomorphic f.

    Raises:
      TypeError: calling the function: an argument to differentiate that is
        not a tensor, or has an integer dtype, or (without holomorphic) a
        complex one; has_aux and f does not return a pair.
      ValueError: calling the function: argnums out of range or repeated.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.jacrev(lambda x: x * x)(nx.array([1.0, 2.0])))
    float64 [2, 2]
    [[2, 0],
     [0, 4]]
    """
    return _jacrev(f, argnums, has_aux, holomorphic, "rune.jacrev")


def _jacrev(f, argnums, has_aux, holomorphic, transform):
    """`rune.jacrev`, its errors naming `transform` (rune.hessian uses it too)."""

    def jacobian(*args, **kwargs):
        nums, leaves, structure = _diff_args(args, argnums, transform, holomorphic)
        f_diff = _partial(f, args, nums, kwargs)
        diff_args = ptree.unflatten(structure, leaves)
        if has_aux:
            out, pullback, aux = vjp(_with_aux(f_diff, transform), *diff_args, has_aux=True)
        else:
            out, pullback = vjp(f_diff, *diff_args)
        out_leaves, out_structure = ptree.flatten(out)
        rows = []
        for i, o in enumerate(out_leaves):
            def pull(ct, i=i):
                cts = [ct if j == i else _shape.zeros_like(x) for j, x in enumerate(out_leaves)]
                return ptree.leaves(pullback(ptree.unflatten(out_structure, cts)))
            blocks = map_basis(lambda ct, pull=pull: ((), pull(ct)), o)[1]
            rows.append(_unpack(ptree.unflatten(structure, [
                _shape.reshape(b, shape=tuple(o.shape) + tuple(leaf.shape))
                for b, leaf in zip(blocks, leaves)
            ]), argnums))
        result = ptree.unflatten(out_structure, rows)
        return (result, aux) if has_aux else result

    return jacobian


def hessian(f, argnums=0, holomorphic=False):
    """The Hessian of a scalar f: forward mode over reverse mode.

    Args:
      f: a function whose output is a scalar tensor.
      argnums: the positional argument (an int) or arguments (a tuple) to
        differentiate with respect to.
      holomorphic: allow complex inputs, for a holomorphic f.

    Raises:
      TypeError: calling the function: an argument to differentiate that is
        not a tensor, or has an integer dtype, or (without holomorphic) a
        complex one.
      ValueError: calling the function: argnums out of range or repeated.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.hessian(lambda x: nx.sum(x * x * x))(nx.array([1.0, 2.0])))
    float64 [2, 2]
    [[ 6,  0],
     [ 0, 12]]
    """
    # Errors name what the user called (the argument checks are the same).
    return _jacfwd(_jacrev(f, argnums, False, holomorphic, "rune.hessian"),
                   argnums, False, holomorphic, "rune.hessian")


def hvp(f, primals, tangents, holomorphic=False):
    """The Hessian-vector product of a scalar f at `primals` along `tangents`.

    Forward mode over reverse mode: the jvp of the gradient, without forming
    the Hessian. The result has the structure of `primals` (one entry per
    argument, unwrapped when there is only one).

    Args:
      f: a function whose output is a real scalar tensor.
      primals: a tuple of f's positional arguments, as for `rune.jvp`.
      tangents: a tuple of the same structure, shapes and dtypes: the vector.
      holomorphic: allow complex inputs, for a holomorphic f (as rune.hessian).

    Raises:
      TypeError: primals not a tuple, f's output not a real scalar, an
        integer argument, or a tangent of another dtype.
      ValueError: tangents of another structure or shape (naming the leaf).

    >>> import rune
    >>> from rune import nx
    >>> x = nx.array([1.0, 2.0])
    >>> print(rune.hvp(lambda x: nx.sum(x * x * x), (x,), (nx.ones_like(x),)))
    float64 [2] [6, 12]
    """
    if not isinstance(primals, (tuple, list)):
        raise TypeError(f"rune.hvp: primals must be a tuple of f's arguments, got "
                        f"{type(primals).__name__} (write (x,) for one argument)")
    argnums = tuple(range(len(primals))) if len(primals) != 1 else 0
    gradient = grad(f, argnums=argnums, holomorphic=holomorphic)
    return jvp(gradient, tuple(primals), tuple(tangents))[1]
