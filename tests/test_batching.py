"""Batching rules: regressions, then the sweep over every primitive.

The regressions are the cases differential testing against JAX found (issue
19): matmul's batching rule reached with a batch axis other than 0, directly
through vmap or through jacfwd and hessian, which batch the tangents.

The sweep takes each primitive of rune (tests/batching_cases.py finds them
and gives each a random use), stacks random examples along random axes (0,
1, -1, the last, or None: shared), with batch sizes 1 to 4, and checks that
vmap(f), jit(vmap(f)), vmap(jit(f)), vmap(vmap(f)), vmap(grad f), vmap of
jvp and vmap of a pullback (tangents and cotangents batched on their own
axes, as jacfwd and jacrev do) equal a Python loop over the examples, with
out_axes 0 or -1.
"""

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import rune
from rune import nx, ptree
from tests.batching_cases import CASES, registry
from tests.programs import assert_close, scale_of

# --------------------------------------------------------- matmul regressions

C = np.array([[-0.2322980698725971, -1.7397586091233566],
              [0.36469376522309327, 1.3262161791944642]])


def test_jacfwd_of_a_quadratic_form_is_its_gradient():
    # jacfwd batches the tangent of x on an axis that matmul met as axis 1.
    x = np.array([0.41750111581567617, -1.8969636682435198])
    expected = (C + C.T) @ x  # [2.414479, -5.605659], as JAX and finite differences give
    assert_close(rune.jacfwd(lambda x: nx.dot(x, C @ x))(x), expected, rtol=1e-14)
    assert_close(rune.grad(lambda x: nx.dot(x, C @ x))(x), expected, rtol=1e-14)


def test_vmap_of_matmul_over_axis_0_and_axis_1():
    a = np.arange(9.0).reshape(3, 3)
    b = np.arange(9.0).reshape(3, 3) * 0.5 + 1
    expected = [a[i] @ b[:, i] for i in range(3)]  # [10.5, 39, 76.5]
    assert_close(rune.vmap(lambda u, v: u @ v, in_axes=(0, 1))(a, b), expected, rtol=1e-14)


def test_jacfwd_through_the_stacked_outputs_of_a_scan():
    # scan's stacked ys come out batched on axis 1 and meet matmul there.
    def f(x):
        ys = rune.scan(lambda c, _: (c * 0.9 + nx.sin(c), nx.cos(c)), nx.sum(x), length=3)[1]
        return x @ ys

    x = np.array([0.3, -0.2, 0.5])
    expected = rune.grad(f)(x)  # [-0.142049, -0.517931, -1.278803], as JAX gives
    assert_close(expected, [-0.142049, -0.517931, -1.278803], rtol=1e-5)
    assert_close(rune.jacfwd(f)(x), expected, rtol=1e-13)


def test_vmap_of_a_dot_of_vectors_mapped_over_their_last_axis():
    x = np.arange(9.0).reshape(3, 3)
    expected = [x[:, i] @ x[:, i] for i in range(3)]
    assert_close(rune.vmap(lambda v: nx.dot(v, v), in_axes=1)(x), expected, rtol=1e-14)


def test_hessian_of_a_squared_matrix_vector_product():
    b = np.arange(6.0).reshape(2, 3)
    assert_close(rune.hessian(lambda x: (b @ x) @ (b @ x))(np.ones(3)), 2 * b.T @ b,
                 rtol=1e-14)


# ------------------------------------------------ the sweep over every primitive


def test_align_batch_lines_up_batch_axes_in_front():
    # The toolkit the broadcasting families' rules share (rune/primitives/shape.py).
    from rune.primitives.shape import align_batch

    x = nx.zeros((3, 5, 2, 2))  # batch axis 1 (5 examples), one leading axis, a 2x2 matrix
    y = nx.zeros((2, 2))  # unbatched: numpy broadcasts it
    v = nx.zeros((4, 5))  # batch axis 1, a vector per example (elementwise: no core axes)
    aligned = align_batch([x, y], [1, None], 2)
    assert [a.shape for a in aligned] == [(5, 3, 2, 2), (2, 2)]
    assert aligned[1] is y
    # A batched operand with fewer leading axes gets size-1 axes after its batch axis,
    # so that its batch axis meets the others' and never another leading axis.
    aligned = align_batch([x, v], [1, 1], (2, 0))
    assert [a.shape for a in aligned] == [(5, 3, 2, 2), (5, 4)]
    aligned = align_batch([v, nx.zeros((5, 3, 4))], [1, 0])
    assert [a.shape for a in aligned] == [(5, 1, 4), (5, 3, 4)]


def test_every_primitive_has_a_batching_case():
    missing = [p.name for p in registry() if p not in CASES]
    assert not missing, f"add a case to tests/batching_cases.py for: {missing}"


# A fifth of the property count per primitive: every primitive runs in CI, and
# RUNE_PROPERTY_EXAMPLES scales the long run (see tests/conftest.py).
SWEEP_EXAMPLES = max(4, settings.default.max_examples // 5)


def _axes_for(rank):
    """The in_axes the sweep tries for an argument of `rank` axes per example."""
    return sorted({0, -1, rank} | ({1} if rank >= 1 else set()), key=str) + [None]


@st.composite
def batched_calls(draw, prim):
    case = draw(CASES[prim])
    note(f"case: {case.name} shapes {case.shapes}")
    ranks = [len(s) for s in case.shapes]
    axes = [draw(st.sampled_from(_axes_for(r)), label=f"in_axes[{i}]")
            for i, r in enumerate(ranks)]
    if all(a is None for a in axes):
        axes[draw(st.integers(0, len(axes) - 1))] = 0
    sizes = sorted({n for s in case.shapes for n in s if n > 0} | {1, 2, 3, 4})
    size = draw(st.sampled_from(sizes), label="batch size")
    out_axis = draw(st.sampled_from([0, -1]), label="out_axes")
    tangent_axes = [draw(st.sampled_from(_axes_for(ranks[i])), label=f"tangent in_axes[{i}]")
                    for i in case.differentiable]
    cotangent_axis = draw(st.sampled_from([0, -1, None]), label="cotangent in_axes")
    outer_axes = [draw(st.sampled_from([0, -1, None]), label=f"outer in_axes[{i}]")
                  for i in range(len(axes))]
    if all(a is None for a in outer_axes):
        outer_axes[0] = 0
    seed = draw(st.integers(0, 2**32 - 1))
    return (case, axes, size, out_axis, tangent_axes, cotangent_axis, outer_axes,
            np.random.default_rng(seed))


def _stack(examples, axes):
    """Argument i of every example stacked along axes[i] (example 0's if None)."""
    return [nx.array(examples[0][i]) if a is None else
            nx.array(np.stack([e[i] for e in examples], axis=a))
            for i, a in enumerate(axes)]


def _unstacked(examples, axes, k):
    return [nx.array(examples[0 if a is None else k][i]) for i, a in enumerate(axes)]


def _assert_matches_loop(got, loop, out_axis, what):
    got_leaves = ptree.leaves(got)
    per_example = [ptree.leaves(one) for one in loop]
    assert len(got_leaves) == len(per_example[0]), what
    for j, leaf in enumerate(got_leaves):
        expected = np.stack([np.asarray(one[j]) for one in per_example], axis=out_axis)
        assert np.asarray(leaf).dtype == expected.dtype, (what, leaf.dtype, expected.dtype)
        assert_close(leaf, expected, rtol=1e-10, scale=scale_of(expected))


def _weights(case, example, rng):
    """Fixed random weights for each output leaf: the loss is sum(w * out)."""
    return [rng.standard_normal(np.shape(o)) for o in ptree.leaves(case.fn(*map(nx.array,
                                                                                example)))]


def _loss(case, weights):
    def loss(*args):
        total = 0.0
        for leaf, w in zip(ptree.leaves(case.fn(*args)), weights):
            term = nx.sum(leaf * w)
            total = total + (nx.real(term) if term.dtype.kind == "c" else term)
        return total
    return loss


def _tangent(rng, x):
    t = rng.standard_normal(np.shape(x))
    return t + 1j * rng.standard_normal(np.shape(x)) if np.iscomplexobj(x) else t


def check_batching(prim, call):
    case, axes, size, out_axis, tangent_axes, cotangent_axis, outer_axes, rng = call
    examples = [case.sample(rng) for _ in range(size)]
    batched = _stack(examples, axes)
    loop = [case.fn(*_unstacked(examples, axes, k)) for k in range(size)]
    mapped = rune.vmap(case.fn, in_axes=tuple(axes), out_axes=out_axis)
    _assert_matches_loop(mapped(*batched), loop, out_axis, "vmap")
    _assert_matches_loop(rune.jit(mapped)(*batched), loop, out_axis, "jit(vmap)")
    jit_inside = rune.vmap(rune.jit(case.fn), in_axes=tuple(axes), out_axes=out_axis)
    _assert_matches_loop(jit_inside(*batched), loop, out_axis, "vmap(jit)")
    check_vmap_of_vmap(case, axes, size, out_axis, outer_axes, rng)
    if not case.differentiable:
        return
    diff = case.differentiable
    if case.reverse:
        grad = rune.grad(_loss(case, _weights(case, examples[0], rng)), argnums=diff)
        loop = [grad(*_unstacked(examples, axes, k)) for k in range(size)]
        got = rune.vmap(grad, in_axes=tuple(axes), out_axes=out_axis)(*batched)
        _assert_matches_loop(got, loop, out_axis, "vmap(grad)")
        check_vmap_of_pullbacks(case, examples, axes, cotangent_axis, out_axis, rng)
    if not case.forward:
        return

    def jvp(*args_and_tangents):
        args, tangents = list(args_and_tangents[:len(axes)]), args_and_tangents[len(axes):]
        return rune.jvp(_partial(case, args), tuple(args[i] for i in diff), tuple(tangents))[1]

    tangents = [[_tangent(rng, e[i]) for i in diff] for e in examples]
    full = [e + t for e, t in zip(examples, tangents)]
    all_axes = axes + tangent_axes
    if all(a is None for a in all_axes):
        return
    loop = [jvp(*_unstacked(full, all_axes, k)) for k in range(size)]
    got = rune.vmap(jvp, in_axes=tuple(all_axes), out_axes=out_axis)(*_stack(full, all_axes))
    _assert_matches_loop(got, loop, out_axis, "vmap(jvp)")


def check_vmap_of_vmap(case, axes, size, out_axis, outer_axes, rng):
    """vmap(vmap(f)) over two batches of examples; outer_axes[i] None shares
    argument i's inner batch between the outer examples."""
    grid = [[case.sample(rng) for _ in range(size)] for _ in range(2)]
    inner = [_stack(grid[o], axes) for o in range(2)]
    batched = [inner[0][i] if a is None else
               nx.array(np.stack([np.asarray(inner[o][i]) for o in range(2)], axis=a))
               for i, a in enumerate(outer_axes)]
    mapped = rune.vmap(rune.vmap(case.fn, in_axes=tuple(axes), out_axes=out_axis),
                       in_axes=tuple(outer_axes))
    got = ptree.leaves(mapped(*batched))
    for o in range(2):
        loop = [case.fn(*[nx.array(grid[0 if oa is None else o][0 if ia is None else k][i])
                          for i, (ia, oa) in enumerate(zip(axes, outer_axes))])
                for k in range(size)]
        _assert_matches_loop([leaf[o] for leaf in got], loop, out_axis, f"vmap(vmap) [{o}]")


def _partial(case, args):
    """case.fn of its differentiated arguments, the others fixed to `args`'."""
    diff = case.differentiable
    return lambda *xs: case.fn(*[xs[diff.index(i)] if i in diff else a
                                 for i, a in enumerate(args)])


def check_vmap_of_pullbacks(case, examples, axes, cotangent_axis, out_axis, rng):
    """vmap over (arguments, cotangent) of the pullback: jacrev's pattern, where
    the transpose rules meet batched cotangents (on axis 0, last, or none)."""
    out = ptree.leaves(case.fn(*map(nx.array, examples[0])))
    if len(out) != 1 or out[0].dtype.kind not in "fc":
        return
    n = len(axes)

    def pullback(*args_and_ct):
        args = list(args_and_ct[:n])
        _, back = rune.vjp(_partial(case, args), *[args[i] for i in case.differentiable])
        return back(args_and_ct[n])

    full = [e + [_tangent(rng, np.asarray(out[0]))] for e in examples]
    all_axes = axes + [cotangent_axis]
    loop = [pullback(*_unstacked(full, all_axes, k)) for k in range(len(examples))]
    got = rune.vmap(pullback, in_axes=tuple(all_axes), out_axes=out_axis)(
        *_stack(full, all_axes))
    _assert_matches_loop(got, loop, out_axis, "vmap(vjp)")


@pytest.mark.parametrize("prim", sorted(CASES, key=lambda p: p.name), ids=lambda p: p.name)
def test_vmap_of_every_primitive_equals_a_loop(prim):
    @settings(max_examples=SWEEP_EXAMPLES)
    @given(batched_calls(prim))
    def sweep(call):
        check_batching(prim, call)

    sweep()


# ------------------------------------------- regressions the sweep found


def test_vmap_of_the_jvp_of_an_update_along_x_alone():
    # The update rules read the batch size from v and the indices only: along
    # x alone (v's tangent a constant zero, unbatched) vmap raised "no batched value".
    x, v, i = nx.array([0.0, 2.0, 4.0]), nx.array([10.0, 20.0]), nx.array([1, 1])
    tangents = nx.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    expected = {"set": [[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]], "add": tangents}
    for method, want in expected.items():
        def along(t, method=method):
            return rune.jvp(lambda x: getattr(x.at[i], method)(v), (x,), (t,))[1]
        assert_close(rune.vmap(along)(tangents), want, rtol=1e-15)
