"""Buffer reuse for the numpy replay: write results into dead temporaries.

A ufunc called without `out=` allocates its result; on 10⁶ floats that is
8 MB whose pages fault in on every call. Once a temporary's last use has
passed, a later ufunc making an array of the same shape and dtype can write
into it instead (`c = sin(b, out=a)`), as XLA assigns buffers.

Only arrays that nothing else can see are reused: results of ufuncs (always
fresh arrays), that are neither inputs nor outputs, and whose every user is
a ufunc or a fused kernel (a reshape or a slice would make a view that
outlives the temporary's last use).
"""

from __future__ import annotations

import numpy as np

from ..graph import Var
from .fused import Fused


def _makes_fresh_array(prim, params, out) -> bool:
    """Whether the equation's impl is a one-result ufunc or a fused kernel
    making an n-d array (so it also accepts `out=`)."""
    if type(out) is not Var or len(out.shape) == 0:
        return False
    return isinstance(prim, Fused) or (isinstance(prim.impl, np.ufunc) and prim.impl.nout == 1
                                       and not params)


def plan(equations, keep, last_use) -> dict:
    """{index of an equation: the dead Var whose buffer its ufunc writes into}.

    `keep`: ids of the inputs and outputs (never reused); `last_use`: id of
    each temporary -> index of the equation that uses it last.
    """
    users_ok: dict = {}  # id -> whether every user is a ufunc or a kernel
    for prim, args, _, _ in equations:
        elementwise = isinstance(prim.impl, np.ufunc) or isinstance(prim, Fused)
        for a in args:
            users_ok[id(a)] = users_ok.get(id(a), True) and elementwise
    reusable = {}  # id -> Var: temporaries whose buffers may be written once dead
    for prim, _, params, out in equations:
        if (_makes_fresh_array(prim, params, out) and id(out) not in keep
                and users_ok.get(id(out), True)):
            reusable[id(out)] = out
    dying: dict = {}
    for key, n in last_use.items():
        if key in reusable:
            dying.setdefault(n, []).append(reusable[key])
    free: dict = {}  # (shape, dtype) -> dead Vars whose buffers are free
    reuse = {}
    for n, (prim, args, params, out) in enumerate(equations):
        # A buffer dying here may be written by this very call if it is a
        # ufunc's (numpy allows it); a kernel reads its arguments block by
        # block in an order of its own, so it is given another buffer.
        for var in dying.get(n, ()):
            if var is not out:
                free.setdefault((var.shape, var.dtype), []).append(var)
        if _makes_fresh_array(prim, params, out):
            buffers = free.get((out.shape, out.dtype), ())
            own = [i for i, var in enumerate(buffers)
                   if not (isinstance(prim, Fused) and any(var is a for a in args))]
            if own:
                reuse[n] = buffers.pop(own[-1])
        if any(var is out for var in dying.get(n, ())):  # a result nothing uses
            free.setdefault((out.shape, out.dtype), []).append(out)
    return reuse
