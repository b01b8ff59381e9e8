# dpref installed the way its users install it, then used from the installation only, outside
# the source tree (tests/install/):
#   ARCH_INSTALL_consumer (spec/architecture.md ARCH.INSTALL): `cmake --install` into a scratch
#     prefix (then moved); examples/consumer built against it with find_package(dpref) and run;
#     the installed `dpref` finds its data and scripts relative to itself;
#   PY_WHEEL (spec/python.md PY.WHEEL): `python3 -m build --wheel --no-isolation` packaging this
#     build tree's compiled artefacts (no second compile), its contents, pip install into a fresh
#     venv, the examples and the `dpref` command from there.
# Not under sanitizers (the plain consumer build would not link their runtime) nor TSan.
if(DPREF_SANITIZE OR DPREF_TSAN OR NOT TARGET dpref_cli)
  return()
endif()
add_test(NAME ARCH_INSTALL_consumer
         COMMAND ${PROJECT_SOURCE_DIR}/tests/install/consumer.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(ARCH_INSTALL_consumer PROPERTIES LABELS install TIMEOUT 900)
if(DPREF_BUILD_PYTHON)
  add_test(NAME PY_WHEEL
           COMMAND ${PROJECT_SOURCE_DIR}/tests/install/wheel.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${Python3_EXECUTABLE})
  set_tests_properties(PY_WHEEL PROPERTIES LABELS install TIMEOUT 900)
endif()
