"""RAND.REIMPLEMENT: the stream and samplers re-implemented in pure Python from spec/random.md
alone (Philox-4x64-10 rounds and constants, addresses, lanes, uniforms, folded uniforms,
transforms), compared with dpref: words and uniforms bit for bit, Laplace / exponential /
Gaussian within the 1 ulp the spec allows, Bernoulli decisions exactly."""
import mpmath
import numpy as np
import pytest

import dpref

M0, M1 = 0xD2E7470EE14C6C93, 0xCA5A826395121157
W0, W1 = 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B
MASK = (1 << 64) - 1


def philox(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = (p1 >> 64) ^ c1 ^ k0, p1 & MASK, (p0 >> 64) ^ c3 ^ k1, p0 & MASK
    return c0, c1, c2, c3


def word(seed, stream, substream, position, lane):
    return philox((position // 4, lane, substream, 0), (seed, stream))[position % 4]


def truncate(m, e, bits):
    """m * 2^e truncated toward zero to `bits` significant bits, as (mantissa, exponent)."""
    shift = max(m.bit_length() - bits, 0)
    return m >> shift, e + shift


def uniform(addr, p, lanes):
    k = 0
    for l in range(lanes):
        k = (k << 64) | word(*addr, l)
    return truncate(2 * k + 1, -(64 * lanes + 1), p)  # (K + 1/2) 2^-B


def folded(addr, skip, lanes, q):
    k = 0
    for l in range(lanes):
        k = (k << 64) | word(*addr, l)
    b = 64 * lanes
    upper = (k >> (b - 1 - skip)) & 1
    bp = b - skip - 1
    r = k & ((1 << bp) - 1)
    if upper:
        r ^= (1 << bp) - 1
    m, e = truncate(2 * r + 1, -(bp + 2), q)  # t = (R + 1/2) 2^-(B'+1)
    return bool(upper), m, e


def mpf(me):
    return mpmath.mpf(me[0]) * mpmath.mpf(2) ** me[1]


def ulp(x):
    return mpmath.mpf(2) ** (mpmath.floor(mpmath.log(abs(x), 2)) - 52)


ADDRS = [(20261121, 0, 0), (2 ** 64 - 1, 3, 7), (1, 2, 3)]


@pytest.mark.parametrize("addr", ADDRS)
def test_philox_words_and_addresses(addr):
    for lane in (0, 1, 2, 5):
        w = dpref.philox_words(9, seed=addr[0], stream=addr[1], substream=addr[2], position=2,
                               lane=lane).tolist()
        assert w == [word(*addr, 2 + i, lane) for i in range(9)]


@pytest.mark.parametrize("addr", ADDRS)
def test_uniforms_bit_for_bit(addr):
    n = 32
    d = dpref.sample("uniform", n, seed=addr[0], stream=addr[1], substream=addr[2])
    m = dpref.sample("uniform", n, seed=addr[0], stream=addr[1], substream=addr[2],
                     precision="mp50")
    with mpmath.workprec(400):
        for i in range(n):
            a = addr + (i,)
            assert mpf(uniform(a, 53, 1)) == d[i]
            assert mpf(uniform(a, 168, 3)) == m[i]


@pytest.mark.parametrize("addr", ADDRS)
def test_laplace_exponential_gaussian_within_one_ulp(addr):
    n = 64
    kw = dict(seed=addr[0], stream=addr[1], substream=addr[2])
    lap = dpref.sample("laplace", n, params="2.5", **kw)
    exp = dpref.sample("exponential", n, params="0.75", **kw)
    gau = dpref.sample("gaussian", n, params="1.5", **kw)
    with mpmath.workprec(300):
        for i in range(n):
            a = addr + (i,)
            up, m, e = folded(a, 1, 2, 106)
            t = mpf((m, e))
            E = -mpmath.log1p(-t) if up else -mpmath.log(t)
            x = (-1 if word(*a, 0) >> 63 else 1) * mpmath.mpf("2.5") * E
            assert abs(lap[i] - x) <= ulp(x)
            up, m, e = folded(a, 0, 2, 106)
            t = mpf((m, e))
            E = -mpmath.log1p(-t) if up else -mpmath.log(t)
            x = E / mpmath.mpf("0.75")
            assert abs(exp[i] - x) <= ulp(x)
            up, m, e = folded(a, 1, 2, 64)  # double Gaussian: long double fold
            t = mpf((m, e))
            z = mpmath.findroot(lambda v: (mpmath.erf(v) if up else mpmath.erfc(v)) - t,
                                mpmath.mpf(float(mpmath.erfinv(t if up else 1 - t)) or 1e-300))
            x = (-1 if word(*a, 0) >> 63 else 1) * mpmath.mpf("1.5") * mpmath.sqrt(2) * z
            assert abs(gau[i] - x) <= ulp(x)


def test_bernoulli_rule():
    p = 0.3  # the double nearest 0.3
    n = 200
    b = dpref.sample("bernoulli", n, params=p, seed=7)
    frac = mpmath.mpf(p)
    chunks = []
    with mpmath.workprec(200):
        rest = frac
        for _ in range(2):
            rest *= mpmath.mpf(2) ** 64
            c = int(mpmath.floor(rest))
            chunks.append(c)
            rest -= c
    for i in range(n):
        for j, c in enumerate(chunks):
            w = word(7, 0, 0, i, j)
            if w != c:
                assert bool(b[i]) == (w < c)
                break
    assert dpref.sample("bernoulli", 3, params=1, seed=7).all()
