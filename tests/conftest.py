"""Hypothesis settings for the property tests.

By default (CI) every property runs a small, fixed set of examples
(derandomized: the same examples each run, so a failure is reproducible and
the suite stays fast). Set RUNE_PROPERTY_EXAMPLES to run many random ones:

    RUNE_PROPERTY_EXAMPLES=2000 python -m pytest tests/test_properties.py \
        tests/test_properties_control.py tests/test_batching.py \
        tests/literate/test_promote_safety.py -q

(test_batching.py's sweep runs a fifth of the count for each primitive;
test_jit_sweep.py a fifth on the numpy paths and a twenty-fifth on JAX's.)

Tests that set max_examples themselves keep their own count.
"""

import os

from hypothesis import HealthCheck, settings

_LONG_RUN = os.environ.get("RUNE_PROPERTY_EXAMPLES")

settings.register_profile(
    "rune",
    max_examples=int(_LONG_RUN) if _LONG_RUN else 25,
    derandomize=not _LONG_RUN,
    database=None,  # nothing written to .hypothesis/ by the test run
    deadline=None,  # a first call may trace or compile: timing is no property
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.load_profile("rune")

# The Array API conformance suite, vendored: scripts/array_api_conformance.py runs it
# on rune.nx with its own configuration, not as part of rune's tests.
collect_ignore = ["array_api_suite"]
