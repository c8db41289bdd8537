"""Primitives that carry functions or graphs: custom rules, checkpoint, control flow.

  call.py           CallPrimitive (rules in a table keyed by the trace's kind),
                    linear_call and the helpers its rules share.
  subgraphs.py      functions traced to graphs, and graphs transformed (jvp,
                    linearize, transpose, batch): what control flow carries.
  custom.py         custom_jvp, custom_vjp, custom_transpose.
  rematerialize.py  checkpoint (recompute in the backward pass).
  control.py        cond, while_loop, fori_loop, scan: the public functions.
  control_rules.py  their primitives (cond, while, scan) and rule tables.

They sit above the transformations (forward, reverse, vmap, jit), whose
machinery their rules reuse; rune/primitives below holds numeric operations only.
"""

from .rematerialize import checkpoint
from .control import cond, fori_loop, scan, while_loop
from .custom import custom_jvp, custom_transpose, custom_vjp

__all__ = ["checkpoint", "custom_jvp", "custom_transpose", "custom_vjp",
           "cond", "fori_loop", "scan", "while_loop"]
