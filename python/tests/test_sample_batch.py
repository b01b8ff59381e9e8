"""PY.SAMPLE.BATCH: the batch kernels behind dpref.sample("laplace" | "exponential" |
"uniform") equal the scalar reference sampler (dpref::laplace<double> one draw at a time) on
the same stream positions, for every kernel (RAND.BATCH)."""
import numpy as np
import pytest

import dpref
from dpref import _core

KERNELS = ["automatic", "portable"] + (["avx512"] if _core.avx512_available() else [])


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("dist,params", [("laplace", {"b": "1"}), ("laplace", {"b": "1e-310"}),
                                         ("exponential", {"rate": "0.75"}), ("uniform", None)])
@pytest.mark.parametrize("position", [0, 1, 3, 2 ** 63 + 5])
def test_batch_equals_scalar(dist, params, position, kernel):
    n = 100_003
    got = dpref.sample(dist, n, params=params, seed=11, stream=2, substream=3,
                       position=position, kernel=kernel)
    want = _core.sample_scalar_reference(dist, n, {} if params is None else params, 11, 2, 3,
                                         position)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))


def test_large_batch_is_one_buffer():
    x = dpref.sample("laplace", 10 ** 6, seed=1)
    assert x.dtype == np.float64 and x.flags["C_CONTIGUOUS"] and x.shape == (10 ** 6,)
    # the last value is the scalar sampler's draw 999999
    last = _core.sample_scalar_reference("laplace", 1, {}, 1, 0, 0, 10 ** 6 - 1)
    assert x[-1] == last[0]
