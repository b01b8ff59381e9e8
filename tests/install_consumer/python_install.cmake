# PY.INSTALL: `cmake --install` (component python) of the build tree puts an importable dpref
# package under <prefix>/<DPREF_PYTHON_INSTALL_DIR>, imported from there with only that folder
# on PYTHONPATH. (A plain `cmake --install` installs the python component with the rest.)
# usage: cmake -DBUILD=<build> -DPREFIX=<scratch prefix> -DPYTHON=<python3> -DSUBDIR=<dir> -P ...
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} --component python
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "PY.INSTALL: cmake --install failed (${rc})")
endif()
set(pkg ${PREFIX}/${SUBDIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH PYTHONPATH=${pkg} PYTHONDONTWRITEBYTECODE=1
          ${PYTHON} -c "import dpref, sys; assert dpref.__file__.startswith(sys.argv[1]), dpref.__file__; print('dpref', dpref.__version__, 'from', dpref.__file__); print(dpref.sample('laplace', 3, seed=1))" ${pkg}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "PY.INSTALL: the installed package does not import (${rc})")
endif()
