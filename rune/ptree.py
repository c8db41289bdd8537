"""Structures (pytrees): nested containers whose leaves are tensors.

Transformations take and return structures: a tuple of parameters, a dict of
layers, a dataclass of weights. `flatten` turns a structure into its list of
leaves and a `Structure` that remembers the containers; `unflatten` rebuilds
it around new leaves. Tuples, lists, dicts (in key order), None (no leaves),
namedtuples and dataclasses are containers; `register` adds user classes.
Anything else is a leaf.

>>> from rune import ptree
>>> leaves, structure = ptree.flatten({"w": 1.0, "b": (2.0, 3.0)})
>>> leaves
[2.0, 3.0, 1.0]
>>> structure
{'b': (*, *), 'w': *}
>>> ptree.unflatten(structure, [20.0, 30.0, 10.0])
{'b': (20.0, 30.0), 'w': 10.0}
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, NamedTuple

import numpy as np

__all__ = [
    "flatten", "unflatten", "leaves", "structure", "map", "register", "paths", "ravel",
    "Structure",
]


class _NodeType(NamedTuple):
    to_children: Callable  # node -> (children, aux): aux is hashable context
    from_children: Callable  # (aux, children) -> node


_registry: dict[type, _NodeType] = {}


def register(cls: type, to_children: Callable, from_children: Callable) -> None:
    """Make instances of `cls` containers.

    Args:
      cls: the class to register.
      to_children: `node -> (children, aux)`, the children a sequence of
        sub-structures and `aux` any hashable data needed to rebuild the node.
      from_children: `(aux, children) -> node`.

    Raises:
      TypeError: `cls` is not a class or is registered already, or
        to_children or from_children is not a function.

    >>> from rune import ptree
    >>> class Pair:
    ...     def __init__(self, a, b): self.a, self.b = a, b
    >>> ptree.register(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    >>> ptree.leaves(Pair(1.0, [2.0]))
    [1.0, 2.0]
    """
    if not isinstance(cls, type):
        raise TypeError(f"register: cls must be a class, got {cls!r}")
    if cls in _registry or cls in (tuple, list, dict, type(None)):
        raise TypeError(f"register: {cls.__name__} is registered already")
    for name, fn in (("to_children", to_children), ("from_children", from_children)):
        if not callable(fn):
            raise TypeError(f"register: {name} must be a function, got {fn!r}")
    _registry[cls] = _NodeType(to_children, from_children)


def _node_type(node) -> _NodeType | None:
    cls = type(node)
    found = _registry.get(cls)
    if found is not None:
        return found
    if cls is tuple or cls is list:
        return _SEQUENCE
    if cls is dict:
        return _DICT
    if node is None:
        return _NONE
    if isinstance(node, tuple) and hasattr(cls, "_fields"):
        return _NAMEDTUPLE
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return _DATACLASS
    return None


def _dict_children(d):
    try:
        keys = sorted(d)
    except TypeError:  # keys of mixed types: keep insertion order
        keys = list(d)
    return [d[k] for k in keys], tuple(keys)


def _dataclass_children(obj):
    names = tuple(f.name for f in dataclasses.fields(obj) if f.init)
    return [getattr(obj, n) for n in names], (type(obj), names)


_SEQUENCE = _NodeType(lambda s: (s, None), None)  # from_children uses the node's class
_DICT = _NodeType(_dict_children, lambda keys, ch: dict(zip(keys, ch)))
_NONE = _NodeType(lambda n: ((), None), lambda aux, ch: None)
_NAMEDTUPLE = _NodeType(lambda t: (tuple(t), type(t)), lambda cls, ch: cls(*ch))
_DATACLASS = _NodeType(
    _dataclass_children, lambda aux, ch: aux[0](**dict(zip(aux[1], ch)))
)


class Structure:
    """The shape of a structure without its leaves; compare with ==.

    It prints with `*` for each leaf: `(*, [*, *])`. Structures are hashable,
    and `num_leaves` counts the leaves. `ptree.flatten` and `ptree.structure`
    make them.

    Args:
      kind: the container's class, or None for a leaf.
      aux: the container's hashable data (a dict's keys...), None for a leaf.
      children: a tuple of Structures, one per child.

    Raises:
      TypeError: a child that is not a Structure.

    >>> from rune import ptree
    >>> s = ptree.structure((1.0, [2.0, 3.0]))
    >>> s, s.num_leaves, s == ptree.structure((0, [0, 0]))
    ((*, [*, *]), 3, True)
    """

    __slots__ = ("kind", "aux", "children", "num_leaves")

    def __init__(self, kind, aux, children):
        self.kind = kind  # None for a leaf, else the container's class
        self.aux = aux
        self.children = children
        try:
            self.num_leaves = 1 if kind is None else sum(c.num_leaves for c in children)
        except AttributeError:
            raise TypeError(f"Structure: children must be Structures, got "
                            f"{[type(c).__name__ for c in children]}") from None

    def __eq__(self, other):
        return (
            isinstance(other, Structure)
            and self.kind is other.kind
            and self.aux == other.aux
            and self.children == other.children
        )

    def __hash__(self):
        return hash((self.kind, self.aux, self.children))

    def __repr__(self):
        if self.kind is None:
            return "*"
        inner = [repr(c) for c in self.children]
        if self.kind is tuple:
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        if self.kind is list:
            return "[" + ", ".join(inner) + "]"
        if self.kind is dict:
            return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(self.aux, inner)) + "}"
        if self.kind is type(None):
            return "None"
        if dataclasses.is_dataclass(self.kind):
            fields = ", ".join(f"{n}={c}" for n, c in zip(self.aux[1], inner))
            return f"{self.kind.__name__}({fields})"
        if issubclass(self.kind, tuple) and hasattr(self.kind, "_fields"):
            fields = ", ".join(f"{n}={c}" for n, c in zip(self.kind._fields, inner))
            return f"{self.kind.__name__}({fields})"
        return f"{self.kind.__name__}(" + ", ".join(inner) + ")"


_LEAF = Structure(None, None, ())


def flatten(tree, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list, Structure]:
    """The leaves of `tree` in order, and its `Structure`.

    Dicts give their values in sorted key order.

    Args:
      tree: any structure: nested tuples, lists, dicts, namedtuples, dataclasses,
        registered classes; anything else is a leaf.
      is_leaf: None, or a predicate: a node for which it returns True is a
        leaf even if it is a container.

    Returns:
      `(leaves, structure)`: a list, and the `Structure` to rebuild the tree.

    Raises:
      TypeError: is_leaf is neither None nor a function.

    >>> from rune import ptree
    >>> ptree.flatten([1.0, (2.0, None)])
    ([1.0, 2.0], [*, (*, None)])
    """
    if is_leaf is not None and not callable(is_leaf):
        raise TypeError(f"flatten: is_leaf must be a function or None, got {is_leaf!r}")
    leaves: list = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(node, leaves, is_leaf):
    node_type = None if is_leaf is not None and is_leaf(node) else _node_type(node)
    if node_type is None:
        leaves.append(node)
        return _LEAF
    children, aux = node_type.to_children(node)
    kind = type(node)
    return Structure(kind, aux, tuple(_flatten(c, leaves, is_leaf) for c in children))


def unflatten(structure: Structure, leaves) -> Any:
    """Rebuild a structure of `structure`'s shape around `leaves`.

    Args:
      structure: a `Structure` (from `ptree.flatten` or `ptree.structure`).
      leaves: a sequence of `structure.num_leaves` leaves, in order.

    Raises:
      TypeError: structure is not a Structure, or leaves is not a sequence.
      ValueError: the number of leaves is not `structure.num_leaves`.

    >>> from rune import ptree
    >>> ptree.unflatten(ptree.structure({"a": 0, "b": (0, 0)}), [1, 2, 3])
    {'a': 1, 'b': (2, 3)}
    """
    if not isinstance(structure, Structure):
        raise TypeError(f"unflatten: structure must be a Structure (from ptree.flatten), "
                        f"got {type(structure).__name__}")
    try:
        leaves = list(leaves)
    except TypeError:
        raise TypeError(f"unflatten: leaves must be a sequence, got "
                        f"{type(leaves).__name__}") from None
    if len(leaves) != structure.num_leaves:
        raise ValueError(
            f"unflatten: the structure {structure} has {structure.num_leaves} leaves, "
            f"got {len(leaves)}"
        )
    return _unflatten(structure, iter(leaves))


def _unflatten(structure, leaves):
    if structure.kind is None:
        return next(leaves)
    children = [_unflatten(c, leaves) for c in structure.children]
    kind = structure.kind
    if kind is tuple or kind is list:
        return kind(children)
    node_type = _registry.get(kind) or _node_type_of_kind(kind)
    return node_type.from_children(structure.aux, children)


def _node_type_of_kind(kind):
    if kind is dict:
        return _DICT
    if kind is type(None):
        return _NONE
    if dataclasses.is_dataclass(kind):
        return _DATACLASS
    return _NAMEDTUPLE


def paths(structure: Structure, root: str = "") -> list[str]:
    """Where each leaf sits, as Python would index it: `root[0]['w']`.

    Used by error messages to name the leaf that is wrong.

    Args:
      structure: a `Structure`.
      root: the name of the whole structure, in front of each path.

    Raises:
      TypeError: structure is not a Structure.

    >>> from rune import ptree
    >>> ptree.paths(ptree.structure(({"w": 1.0}, [2.0])), "args")
    ["args[0]['w']", 'args[1][0]']
    """
    if not isinstance(structure, Structure):
        raise TypeError(f"paths: structure must be a Structure (from ptree.flatten), got "
                        f"{type(structure).__name__}")
    if structure.kind is None:
        return [root]
    kind, aux = structure.kind, structure.aux
    if kind is dict:
        keys = [f"[{k!r}]" for k in aux]
    elif dataclasses.is_dataclass(kind):
        keys = [f".{name}" for name in aux[1]]
    elif issubclass(kind, tuple) and hasattr(kind, "_fields"):
        keys = [f".{name}" for name in kind._fields]
    else:
        keys = [f"[{i}]" for i in range(len(structure.children))]
    return [p for key, child in zip(keys, structure.children) for p in paths(child, root + key)]


def leaves(tree, is_leaf=None) -> list:
    """The leaves of `tree`, in order (dict entries by sorted key).

    Args:
      tree: any structure: nested tuples, lists, dicts, namedtuples, dataclasses,
        registered classes; anything else is a leaf.
      is_leaf: None, or a predicate: a node for which it returns True is a
        leaf even if it is a container.

    Raises:
      TypeError: is_leaf is neither None nor a function.

    >>> from rune import ptree
    >>> ptree.leaves({"b": [1, 2], "a": 3})
    [3, 1, 2]
    """
    return flatten(tree, is_leaf)[0]


def structure(tree, is_leaf=None) -> Structure:
    """The `Structure` of `tree`: its containers, with `*` for each leaf.

    Args:
      tree: any structure: nested tuples, lists, dicts, namedtuples, dataclasses,
        registered classes; anything else is a leaf.
      is_leaf: None, or a predicate: a node for which it returns True is a
        leaf even if it is a container.

    Raises:
      TypeError: is_leaf is neither None nor a function.

    >>> from rune import ptree
    >>> ptree.structure({"w": [1, 2], "b": 3})
    {'b': *, 'w': [*, *]}
    """
    return flatten(tree, is_leaf)[1]


def map(fn: Callable, tree, *rest, is_leaf=None):
    """Apply `fn` to each leaf (and to the matching leaves of `rest`).

    Args:
      fn: a function of one leaf of `tree` and the matching leaf of each of `rest`.
      tree: any structure: nested tuples, lists, dicts, namedtuples, dataclasses,
        registered classes; anything else is a leaf.
      *rest: more trees of the same structure as `tree`.
      is_leaf: None, or a predicate: a node for which it returns True is a
        leaf even if it is a container.

    Returns:
      A tree of `tree`'s structure holding fn's results.

    Raises:
      TypeError: fn is not a function, or is_leaf is neither None nor a function.
      ValueError: a tree of `rest` has another structure than `tree`, naming
        both.

    >>> from rune import ptree
    >>> ptree.map(lambda a, b: a + b, (1, [2]), (10, [20]))
    (11, [22])
    """
    if not callable(fn):
        raise TypeError(f"map: fn must be a function, got {fn!r}")
    flat, struct = flatten(tree, is_leaf)
    others = []
    for i, other in enumerate(rest):
        other_flat, other_struct = flatten(other, is_leaf)
        if other_struct != struct:
            raise ValueError(
                f"map: argument {i + 1} has structure {other_struct}, "
                f"expected {struct} (the structure of the first tree)"
            )
        others.append(other_flat)
    return unflatten(struct, [fn(*xs) for xs in zip(flat, *others)])


def ravel(tree):
    """The leaves of `tree` as one vector, and the function that rebuilds the tree.

    JAX's `ravel_pytree` (autograd's `flatten`): every leaf is flattened and
    the pieces are joined in leaf order, in the leaves' common dtype (numpy's
    promotion). `unravel(vector)` cuts a vector of that length back into
    leaves of the original shapes and dtypes, inside the original
    containers. Both directions are rune operations, so derivatives and
    every transformation pass through them.

    Args:
      tree: any structure whose leaves are tensors, numpy arrays or numbers.

    Returns:
      (vector, unravel): a 1-d tensor, and a function of one 1-d tensor of
      the same length returning a tree of `tree`'s structure.

    Raises:
      TypeError: a leaf is not numeric (a string, an object).
      ValueError: (from unravel) a vector that is not 1-d of the right length.

    >>> from rune import nx, ptree
    >>> vector, unravel = ptree.ravel({"w": nx.ones((2, 2)), "b": nx.array([5.0])})
    >>> print(vector)
    float64 [5] [5, 1, 1, 1, 1]
    >>> print(unravel(vector * 2)["w"])
    float64 [2, 2]
    [[2, 2],
     [2, 2]]
    """
    from . import nx  # structures come first: nx's tensors are leaves of them

    flat_leaves, struct = flatten(tree)
    tensors = [nx.creation.as_tensor(leaf, "ptree.ravel") for leaf in flat_leaves]
    dtype = np.result_type(*[t.dtype for t in tensors]) if tensors else nx.float64
    sizes = [t.size for t in tensors]
    pieces = [nx.reshape(nx.astype(t, dtype), (-1,)) for t in tensors]
    vector = nx.concatenate(pieces) if pieces else nx.zeros(0, dtype)

    def unravel(vector):
        vector = nx.creation.as_tensor(vector, "ptree.ravel's unravel")
        if vector.shape != (sum(sizes),):
            raise ValueError(f"unravel: expected a vector of shape ({sum(sizes)},), the "
                             f"length ravel gave, got shape {vector.shape}")
        out, start = [], 0
        for t, size in zip(tensors, sizes):
            piece = nx.reshape(vector[start:start + size], t.shape)
            out.append(nx.astype(piece, t.dtype))
            start += size
        return unflatten(struct, out)

    return vector, unravel
