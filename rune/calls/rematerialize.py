"""`rune.checkpoint`: recompute a function in the backward pass instead of keeping its record.

Under reverse mode a checkpointed call is one `linear_call` equation of the
record (rune/calls/call.py) that keeps only the call's arguments: its
tangent map runs jvp of the function, its transpose linearizes the function
again and runs that record backward.
"""

from __future__ import annotations

import functools

from .. import ptree
from ..arguments import FlatFunction
from ..core import split_by_trace
from ..forward import jvp_flat
from ..nx.random import recording_states, replaying
from ..nx.tensor import Tensor
from ..reverse import evaluate_backward, linearize_flat
from .call import check_not_closed_over, flat_arguments, placed, record_call, top_trace

__all__ = ["checkpoint"]


def checkpoint(f):
    """f, recomputed during the backward pass instead of kept in the record.

    Under reverse mode the record keeps, for each operation, the values its
    derivative needs (cos x for sin x...). A checkpointed f keeps only its
    arguments: its operations are recorded as one equation, and the backward
    pass runs f again (under a fresh linearization) to pull the cotangent
    back. Same derivatives; less memory held between the passes, for f's
    cost once more. Outside reverse mode it is f.

    Random numbers f draws from `nx.random` generators (dropout) are drawn
    again the same when f is recomputed: each generator's state before f's
    first draw is saved and restored for the recomputation (as PyTorch's
    checkpoint does), so the gradient belongs to the value; afterwards the
    generators go on as if f had run once.

    Args:
      f: a function of tensors (or structures of them) that takes every
        differentiated value it uses as an argument.

    Raises:
      ValueError: calling the result under reverse mode: f uses a
        differentiated value that is not one of its arguments (a closure;
        pass it as an argument).
      TypeError: calling the result under reverse mode: f returns something
        other than tensors, numpy arrays or numbers.

    >>> import rune
    >>> from rune import nx
    >>> block = rune.checkpoint(lambda x: nx.sin(nx.sin(x)))
    >>> print(rune.grad(lambda x: nx.sum(block(x)))(nx.array([0.0])))
    float64 [1] [1]
    """

    @functools.wraps(f)
    def checkpointed(*args):
        trace = top_trace(ptree.leaves(args))
        if trace is None or trace.kind != "linearize":
            return f(*args)
        leaves, structure = flat_arguments(args)
        primals, tangents = split_by_trace(trace, leaves)
        flat_f = FlatFunction(f, structure, "rune.checkpoint")
        with recording_states() as draws:  # recomputations replay f's random numbers
            outs = flat_f(*primals)  # one level down: f's operations are not recorded
        check_not_closed_over("rune.checkpoint", trace, outs)
        tangent_at = [i for i, t in enumerate(tangents) if t is not None]
        # The recomputations differentiate f along its tensors; Python numbers stay put.
        tensor_at = [i for i, x in enumerate(primals) if isinstance(x, Tensor)]
        tensors = [primals[i] for i in tensor_at]

        def f_of_tensors(*ts):
            with replaying(draws):
                return flat_f(*placed(ts, tensor_at, primals))

        def forward(*ts):
            along = placed(ts, tangent_at, [None] * len(primals))
            return jvp_flat(f_of_tensors, tensors, [along[i] for i in tensor_at],
                            "rune.checkpoint")[1]

        def transpose_all(out_cts):
            _, in_vars, out_vars, record = linearize_flat(f_of_tensors, tensors, "rune.checkpoint")
            cts = evaluate_backward(record, out_vars, out_cts, in_vars)
            return placed(cts, tensor_at, [None] * len(primals))

        if tangent_at:
            name = f"checkpoint({getattr(f, '__name__', 'f')})"
            outs = record_call(trace, name, outs, tangents, tangent_at, forward, transpose_all)
        return ptree.unflatten(flat_f.out_structure, outs)

    return checkpointed
