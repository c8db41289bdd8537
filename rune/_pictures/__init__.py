"""Pictures of what the engine does, drawn as SVG from rune's own data.

The docs pages print them into ```` ```svg ```` out blocks (after a
`<!-- literate: out -->` directive), so each picture is compared with what
rune draws now, like any output, and the rune-literate MkDocs plugin shows
it as a picture. Private: the layouts are made for this site's column and
palettes and change with them; the engine's data they draw is public
(`rune.make_graph`, `rune.linearize`, `rune.jvp`, `rune.vjp`, `rune.vmap`).
"""

from .arrays import jacobian_shapes, vmap_axes
from .graphs import flow, linearize_then_transpose, program, programs

__all__ = ["flow", "program", "programs", "linearize_then_transpose", "jacobian_shapes",
           "vmap_axes"]
