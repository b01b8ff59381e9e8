// Umbrella header of the samplers.
#pragma once

#include "dpref/random/bernoulli.hpp"
#include "dpref/random/exponential.hpp"
#include "dpref/random/gamma.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/instances.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/sphere.hpp"
#include "dpref/random/uniform.hpp"
#include "dpref/random/vector_laplace.hpp"
