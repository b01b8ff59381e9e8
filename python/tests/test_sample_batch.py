"""PY.SAMPLE.BATCH: the batch kernels behind dpref.sample("laplace" | "exponential" |
"uniform") equal the scalar reference sampler (dpref::laplace<double> one draw at a time) on
the same stream positions, for every kernel (RAND.BATCH); the ziggurat samplers
(sampler="ziggurat") give the same values for every kernel and thread count
(RAND.ZIGGURAT.BATCH)."""
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


ZKERNELS = ["automatic", "portable"] + (["avx2", "avx512"] if _core.avx512_available() else [])


@pytest.mark.parametrize("dist", ["gaussian", "exponential", "laplace", "uniform"])
def test_ziggurat_kernels_and_threads_agree(dist):
    n, pos = 300_001, 7
    want = dpref.sample(dist, n, params=None if dist == "uniform" else 1.25, seed=5,
                        position=pos, sampler="ziggurat", kernel="portable", threads=1)
    for kernel in ZKERNELS:
        for threads in (1, 3, 0):
            got = dpref.sample(dist, n, params=None if dist == "uniform" else 1.25, seed=5,
                               position=pos, sampler="ziggurat", kernel=kernel, threads=threads)
            assert np.array_equal(got.view(np.uint64), want.view(np.uint64)), (kernel, threads)
    # a later start position gives the tail of the same stream
    tail = dpref.sample(dist, 1000, params=None if dist == "uniform" else 1.25, seed=5,
                        position=pos + n - 1000, sampler="ziggurat")
    assert np.array_equal(tail.view(np.uint64), want[-1000:].view(np.uint64))


def test_ziggurat_refusals():
    with pytest.raises(ValueError, match="sampler must be reference or ziggurat"):
        dpref.sample("gaussian", 3, seed=1, sampler="fastest")
    with pytest.raises(ValueError, match="double only"):
        dpref.sample("gaussian", 3, seed=1, sampler="ziggurat", precision="mp50")
    with pytest.raises(ValueError, match="gaussian, exponential, laplace or uniform"):
        dpref.sample("gamma", 3, seed=1, sampler="ziggurat")
    with pytest.raises(ValueError, match="sigma must be finite and > 0"):
        dpref.sample("gaussian", 3, params=-1.0, seed=1, sampler="ziggurat")
    with pytest.raises(ValueError, match="kernel must be"):
        dpref.sample("gaussian", 3, seed=1, sampler="ziggurat", kernel="sse")


def test_ziggurat_cli_gives_the_same_values():
    """`dpref sample --sampler ziggurat` prints the values of dpref.sample(sampler="ziggurat")."""
    import json
    import os
    import subprocess

    cli = os.environ.get("DPREF_CLI")
    if not cli:
        pytest.skip("DPREF_CLI not set")
    for dist, param in [("gaussian", "2.5"), ("exponential", "0.5"), ("laplace", "3"),
                        ("uniform", "1")]:
        out = subprocess.run([cli, "sample", "--sampler", "ziggurat", "-d", dist, "-p", param,
                              "--seed", "9", "--position", "5", "-n", "2000"],
                             check=True, capture_output=True, text=True).stdout
        doc = json.loads(out)
        got = np.array([float(x) for x in doc["samples"]])
        want = dpref.sample(dist, 2000, params=None if dist == "uniform" else float(param),
                            seed=9, position=5, sampler="ziggurat")
        assert np.array_equal(got, want), dist
