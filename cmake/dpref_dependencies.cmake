# All dependencies come from Debian packages through find_package / find_path; nothing is
# downloaded at build time.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

find_path(DPREF_MPFR_INCLUDE mpfr.h REQUIRED)
find_library(DPREF_MPFR_LIB mpfr REQUIRED)
find_library(DPREF_GMP_LIB gmp REQUIRED)
if(NOT TARGET dpref_deps::mpfr)
  add_library(dpref_deps::mpfr INTERFACE IMPORTED)
  set_target_properties(dpref_deps::mpfr PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${DPREF_MPFR_INCLUDE}"
    INTERFACE_LINK_LIBRARIES "${DPREF_MPFR_LIB};${DPREF_GMP_LIB}")
endif()

find_path(DPREF_RANDOM123_INCLUDE Random123/philox.h REQUIRED)
if(NOT TARGET dpref_deps::random123)
  add_library(dpref_deps::random123 INTERFACE IMPORTED)
  set_target_properties(dpref_deps::random123 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${DPREF_RANDOM123_INCLUDE}")
endif()
