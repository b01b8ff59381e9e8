include(CMakePackageConfigHelpers)
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set_target_properties(dpref_instances PROPERTIES EXPORT_NAME instances)
install(TARGETS dpref dpref_instances EXPORT dprefTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES cmake/dpref_dependencies.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpref)
install(EXPORT dprefTargets NAMESPACE dpref:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpref)
configure_package_config_file(cmake/dprefConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/dprefConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpref)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dprefConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dprefConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/dprefConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpref)

# ---- shipped run-time files (spec/architecture.md ARCH.INSTALL) ------------------------------
# Everything the installed binary and the Python package read at run time is installed under
# share/dpref and found relative to the installation, never through the source path:
# io/data_path.hpp looks in $DPREF_DATA_DIR, then (code in a shared module: the Python extension)
# relative to that module, then <exe>/../share/dpref; the Python package in its own share/dpref
# (wheel) or its prefix's (python/dpref/__init__.py, dpref.data_dir()).
#   ev/                     ev's base-load profile (`shipped:ev/...`)
#   conformance/            the conformance corpus (spec/conformance.md)
#   scripts/                the plot scripts of the studies and of `dpref reproduce`
#   examples/               the example configurations, examples/python/*.py, examples/consumer/
#   tests/regression/data/  the committed data subset of `dpref reproduce`'s linesearch claims
# (`dpref reproduce` reads examples/ and tests/regression/data/ by their repository paths under
# this folder: src/cli/reproduce_command.cpp). Three copies of one layout:
#   - `cmake --install`: <prefix>/share/dpref;
#   - the build tree: build/<preset>/share/dpref/<x> are links to the source folders, so the
#     programs of the build tree find them exactly as installed ones do;
#   - the wheel (component `wheel`, excluded from a plain install; pyproject.toml, setup.py):
#     <site-packages>/dpref/share/dpref next to dpref/bin/dpref and the package itself.
set(DPREF_SHARE ${CMAKE_INSTALL_DATADIR}/dpref)
set(DPREF_WHEEL_SHARE dpref/share/dpref)
# dpref_ship(<source folder> <path under share/dpref> [<install(DIRECTORY) options>...])
function(dpref_ship src rel)
  install(DIRECTORY ${src}/ DESTINATION ${DPREF_SHARE}/${rel} ${ARGN})
  install(DIRECTORY ${src}/ DESTINATION ${DPREF_WHEEL_SHARE}/${rel} COMPONENT wheel EXCLUDE_FROM_ALL
          ${ARGN})
  get_filename_component(parent ${CMAKE_BINARY_DIR}/share/dpref/${rel} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${src} ${CMAKE_BINARY_DIR}/share/dpref/${rel} SYMBOLIC)
endfunction()
dpref_ship(${CMAKE_SOURCE_DIR}/data/ev ev)
dpref_ship(${CMAKE_SOURCE_DIR}/data/conformance conformance)
dpref_ship(${CMAKE_SOURCE_DIR}/examples examples PATTERN "__pycache__" EXCLUDE)
# dp_accounting's recorded PLD values and times: the baseline of reproduce's PLD performance rows
dpref_ship(${CMAKE_SOURCE_DIR}/bench/data bench/data FILES_MATCHING PATTERN "dp_accounting_pld.json")
dpref_ship(${CMAKE_SOURCE_DIR}/tests/regression/data tests/regression/data
           FILES_MATCHING PATTERN "linesearch_fertility_3000.csv")
# Plotting scripts of the studies (scripts/*_plots.py) and of `dpref reproduce`
# (scripts/report_*.py), found by the commands next to their binary (share/dpref/scripts); the
# build tree links the whole scripts folder.
file(GLOB DPREF_PLOT_SCRIPTS ${CMAKE_SOURCE_DIR}/scripts/*_plots.py
     ${CMAKE_SOURCE_DIR}/scripts/report_*.py)
install(FILES ${DPREF_PLOT_SCRIPTS} DESTINATION ${DPREF_SHARE}/scripts)
install(FILES ${DPREF_PLOT_SCRIPTS} DESTINATION ${DPREF_WHEEL_SHARE}/scripts COMPONENT wheel
        EXCLUDE_FROM_ALL)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/scripts ${CMAKE_BINARY_DIR}/share/dpref/scripts SYMBOLIC)
# The full data sets of scripts/real_data.sh (data/real, not committed) for `dpref reproduce
# --full` from the build tree; an installation reads them under $DPREF_SOURCE_DIR/data/real.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/dpref/data)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/data/real ${CMAKE_BINARY_DIR}/share/dpref/data/real SYMBOLIC)

# ---- the wheel's tree (component wheel) ----------------------------------------------------
# `cmake --install <build> --component wheel --prefix <dir>` lays out <dir>/dpref: the package
# (python/CMakeLists.txt), dpref/bin/dpref (src/CMakeLists.txt) and dpref/share/dpref (above).
# setup.py (scikit-build) builds the target dpref_wheel_install, which does that into its
# staging prefix; with DPREF_CMAKE_BUILD_DIR=<build> it packages an existing build tree instead.
if(TARGET dpref_cli AND TARGET dpref_python)
  add_custom_target(dpref_wheel_install
    COMMAND ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --component wheel
    COMMENT "Installing the wheel's tree (component wheel) into ${CMAKE_INSTALL_PREFIX}"
    VERBATIM)
  add_dependencies(dpref_wheel_install dpref_cli dpref_python)
endif()
