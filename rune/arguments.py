"""Checking what users pass to the transformations, with messages that say
which argument or leaf is wrong, what was expected and what was given."""

from __future__ import annotations

import numpy as np

from . import ptree
from .nx.tensor import Tensor

_NUMBERS = (int, float, complex, bool, np.ndarray, np.generic)


def as_tensor(x, where: str):
    """A leaf as a Tensor (tracers pass through); numbers and arrays convert.

    A numpy array is copied: the caller may change it later, and a pullback
    or tangent map that kept it would then quietly compute with new values.
    """
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _NUMBERS):
        return Tensor(np.array(x))
    raise TypeError(
        f"{where}: expected a tensor, a numpy array or a number, got {type(x).__name__}"
    )


def flatten_tensors(tree, root: str, transform: str | None = None, nums=None):
    """Leaves of `tree` as tensors, and its structure.

    `root` names the tree in errors ("primals"), after `transform`'s name
    ("rune.jvp: primals[1]"). With `nums` the tree is the tuple of the
    arguments at those positions (grad's argnums), named by position.
    """
    leaves, structure = ptree.flatten(tree)
    if all(isinstance(leaf, Tensor) for leaf in leaves):
        return leaves, structure
    names = ptree.paths(structure, root)
    if nums is not None:
        names = [_argument_name(name, nums) for name in names]
    if transform is not None:
        names = [f"{transform}: {name}" for name in names]
    return [as_tensor(leaf, name) for leaf, name in zip(leaves, names)], structure


def check_structure(got, expected, what: str):
    """Raise a ValueError printing both structures when they differ."""
    if got != expected:
        raise ValueError(f"{what} has structure {got}, expected {expected}")


def check_like(value, like, where: str, what: str):
    """A tangent or cotangent leaf must have its partner's shape and dtype."""
    if value.shape != like.shape:
        raise ValueError(
            f"{where}: the {what} has shape {value.shape}, expected {like.shape} "
            f"(the shape of the value it goes with)"
        )
    if value.dtype != like.dtype:
        same_kind = np.can_cast(value.dtype, like.dtype, "same_kind")
        if value.dtype.kind == like.dtype.kind and same_kind:
            return value.astype(like.dtype)
        raise TypeError(
            f"{where}: the {what} has dtype {value.dtype}, expected {like.dtype} "
            f"(the dtype of the value it goes with)"
        )
    return value


def normalize_argnums(argnums, num_args: int, transform: str) -> tuple[int, ...]:
    """argnums as a tuple of non-negative ints, checked against the call."""
    many = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if many else (argnums,)
    if not nums:
        raise ValueError(f"{transform}: argnums is empty; give at least one argument index")
    out = []
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"{transform}: argnums must be ints, got {n!r}")
        if not -num_args <= n < num_args:
            raise ValueError(
                f"{transform}: argnums={n} is out of range for a function called with "
                f"{num_args} positional argument{'s' if num_args != 1 else ''}"
            )
        if n % num_args in out:
            raise ValueError(
                f"{transform}: argnums={argnums!r} names argument {n % num_args} twice; "
                f"each argument can be differentiated once"
            )
        out.append(n % num_args)
    return tuple(out)


def check_differentiable(leaves, structure, transform: str, argnums, nums=None):
    """Derivatives are taken with respect to float and complex inputs only.

    `nums` maps positions in `structure` back to the call's argument
    positions (for grad's argnums), so the message names the argument.
    """
    for i, leaf in enumerate(leaves):
        if leaf.dtype.kind not in "fc":
            name = _argument_name(ptree.paths(structure, "args")[i], nums)
            raise TypeError(
                f"{transform}: {name} (argnums={argnums}) has dtype {leaf.dtype}; derivatives "
                f"need float or complex inputs (convert it with .astype(nx.float64))"
            )


def _argument_name(path, nums):
    """'args[1]['w']' -> "argument 3 at ['w']" when argnums picked argument 3."""
    end = path.index("]")
    position = int(path[path.index("[") + 1:end])
    if nums is not None:
        position = nums[position]
    rest = path[end + 1:]
    return f"argument {position}" + (f" at {rest}" if rest else "")


def split_aux(out, transform: str):
    """(output, aux) of a has_aux function, which must return a pair."""
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        if isinstance(out, Tensor):  # a tracer's class says nothing to the user
            got = f"a tensor of shape {tuple(out.shape)}"
        else:
            got = f"a {type(out).__name__}" + (f" of length {len(out)}" if isinstance(
                out, (tuple, list)) else "")
        raise TypeError(
            f"{transform}: with has_aux=True the function must return a pair "
            f"(output, aux), got {got}"
        )
    return out[0], out[1]


class FlatFunction:
    """f seen as a function from a list of leaves to a list of leaves.

    Transformations work on flat lists of tensors; this rebuilds the user's
    argument structure around the leaves, calls f, and flattens what it
    returns. The output's structure (and with has_aux, the aux's leaves
    and structure) are kept on the object after the call: aux leaves are
    returned after the output's so that the transformation can strip them
    of its tracers like any output.
    """

    def __init__(self, f, in_structure, transform: str, has_aux: bool = False):
        self.f = f
        self.in_structure = in_structure
        self.transform = transform
        self.has_aux = has_aux
        self.out_structure = None
        self.aux_structure = None
        self.num_out = 0

    def __call__(self, *leaves):
        out = self.f(*ptree.unflatten(self.in_structure, leaves))
        aux_leaves = []
        if self.has_aux:
            out, aux = split_aux(out, self.transform)
            aux_leaves, self.aux_structure = ptree.flatten(aux)
        out_leaves, self.out_structure = flatten_tensors(out, f"{self.transform}: the output")
        self.num_out = len(out_leaves)
        return out_leaves + aux_leaves

    def split(self, leaves):
        """(output structure rebuilt, aux rebuilt or None) from the returned leaves."""
        out = ptree.unflatten(self.out_structure, leaves[: self.num_out])
        if not self.has_aux:
            return out, None
        return out, ptree.unflatten(self.aux_structure, leaves[self.num_out:])
