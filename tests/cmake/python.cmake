# The Python package (spec/python.md): the pytest files of python/tests and the examples of
# examples/python, run with the package's interpreter (Debian's /usr/bin/python3 by default)
# against the build tree (PYTHONPATH=<build>/python); the CLI comparisons use the built dpref.
if(NOT DPREF_BUILD_PYTHON OR NOT TARGET dpref_cli OR DPREF_TSAN)
  return()
endif()
set(DPREF_PY_ENV "PYTHONPATH=${CMAKE_BINARY_DIR}/python" "DPREF_CLI=$<TARGET_FILE:dpref_cli>"
    "DPREF_SOURCE_DIR=${PROJECT_SOURCE_DIR}" "PYTHONDONTWRITEBYTECODE=1")
# One ctest per spec ID (scripts/check_spec_ids reads these add_test lines): pytest on one file
# of python/tests (or a -k selection of it).
set(PYTEST ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider)
set(PYTESTS ${PROJECT_SOURCE_DIR}/python/tests)
add_test(NAME PY_BUILD COMMAND ${PYTEST} ${PYTESTS}/test_build.py)
add_test(NAME PY_SAMPLE_BITS COMMAND ${PYTEST} ${PYTESTS}/test_sample_bits.py)
add_test(NAME PY_SAMPLE_BATCH COMMAND ${PYTEST} ${PYTESTS}/test_sample_batch.py)
add_test(NAME PY_SAMPLE_KS COMMAND ${PYTEST} ${PYTESTS}/test_ks.py)
add_test(NAME PY_ACCOUNT COMMAND ${PYTEST} ${PYTESTS}/test_account.py)
add_test(NAME PY_CALIBRATE COMMAND ${PYTEST} ${PYTESTS}/test_calibrate.py)
add_test(NAME PY_GEOMETRY COMMAND ${PYTEST} ${PYTESTS}/test_geometry.py)
add_test(NAME PY_AUDIT_BUILTIN COMMAND ${PYTEST} ${PYTESTS}/test_audit.py -k builtin)
add_test(NAME PY_AUDIT_CALLABLE COMMAND ${PYTEST} ${PYTESTS}/test_audit.py -k "not builtin")
add_test(NAME PY_ERRORS COMMAND ${PYTEST} ${PYTESTS}/test_errors.py)
add_test(NAME PY_RUN COMMAND ${PYTEST} ${PYTESTS}/test_run.py)
add_test(NAME PY_PAPERS COMMAND ${PYTEST} ${PYTESTS}/test_papers.py)
add_test(NAME RAND_REIMPLEMENT_python COMMAND ${PYTEST} ${PYTESTS}/test_reimplement.py)
add_test(NAME CONF_SELFCHECK_python
         COMMAND ${PYTEST} ${PYTESTS}/test_conformance.py -k "reference_passes or family_paths or in_process")
add_test(NAME CONF_PROTOCOL
         COMMAND ${PYTEST} ${PYTESTS}/test_conformance.py
                 -k "check_vectors_with or serve_protocol or precision_ids")
add_test(NAME CONF_MANIFEST_python COMMAND ${PYTEST} ${PYTESTS}/test_conformance.py -k manifest)
add_test(NAME CONF_TRAJECTORY_python COMMAND ${PYTEST} ${PYTESTS}/test_conformance.py -k trajectory)
add_test(NAME CONF_NEGATIVE COMMAND ${PYTEST} ${PYTESTS}/test_conformance.py
         -k "wrong or ulps_off or unsupported or nonfinite or below_exact")
set_tests_properties(
  PY_BUILD PY_SAMPLE_BITS PY_SAMPLE_BATCH PY_SAMPLE_KS PY_ACCOUNT PY_CALIBRATE PY_GEOMETRY
  PY_AUDIT_BUILTIN PY_AUDIT_CALLABLE PY_ERRORS PY_RUN PY_PAPERS RAND_REIMPLEMENT_python
  CONF_SELFCHECK_python CONF_PROTOCOL CONF_TRAJECTORY_python CONF_NEGATIVE CONF_MANIFEST_python
  PROPERTIES LABELS unit ENVIRONMENT "${DPREF_PY_ENV}")

# PY.EXAMPLES: every script of examples/python runs (and checks what it shows); a script added
# there must be added here (the glob below fails the configure step otherwise).
set(EXAMPLES ${PROJECT_SOURCE_DIR}/examples/python)
add_test(NAME PY_EXAMPLES_cross_check_sampler COMMAND ${Python3_EXECUTABLE} ${EXAMPLES}/cross_check_sampler.py)
add_test(NAME PY_EXAMPLES_cross_check_accountant
         COMMAND ${Python3_EXECUTABLE} ${EXAMPLES}/cross_check_accountant.py)
add_test(NAME PY_EXAMPLES_audit_python_mechanism
         COMMAND ${Python3_EXECUTABLE} ${EXAMPLES}/audit_python_mechanism.py)
add_test(NAME PY_EXAMPLES_run_paper COMMAND ${Python3_EXECUTABLE} ${EXAMPLES}/run_paper.py)
# an outside (numpy) accountant checked against the corpus (spec/conformance.md)
add_test(NAME PY_EXAMPLES_outsider_accountant
         COMMAND ${Python3_EXECUTABLE} ${EXAMPLES}/outsider_accountant.py)
set_tests_properties(PY_EXAMPLES_outsider_accountant PY_EXAMPLES_cross_check_sampler
                     PY_EXAMPLES_cross_check_accountant
                     PY_EXAMPLES_audit_python_mechanism PY_EXAMPLES_run_paper
                     PROPERTIES LABELS unit ENVIRONMENT "${DPREF_PY_ENV}")
file(GLOB DPREF_PY_EXAMPLES CONFIGURE_DEPENDS ${EXAMPLES}/*.py)
foreach(ex IN LISTS DPREF_PY_EXAMPLES)
  get_filename_component(stem ${ex} NAME_WE)
  if(NOT TEST PY_EXAMPLES_${stem})
    message(FATAL_ERROR "examples/python/${stem}.py has no ctest PY_EXAMPLES_${stem} (tests/cmake/python.cmake)")
  endif()
endforeach()

# PY.INSTALL: `cmake --install` puts an importable package under the prefix
add_test(NAME PY_INSTALL
         COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/py_install
                 -DPYTHON=${Python3_EXECUTABLE} -DSUBDIR=${DPREF_PYTHON_INSTALL_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/python_install.cmake)
set_tests_properties(PY_INSTALL PROPERTIES LABELS unit)
