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

# Shipped data (ev's base-load profile, ...): installed under share/dpref and mirrored in the
# build tree (build/<preset>/share/dpref -> source data) so that programs find it relative to
# their own location (include/dpref/io/data_path.hpp).
install(DIRECTORY data/ev DESTINATION ${CMAKE_INSTALL_DATADIR}/dpref)
# the conformance corpus (spec/conformance.md): share/dpref/conformance
install(DIRECTORY data/conformance DESTINATION ${CMAKE_INSTALL_DATADIR}/dpref)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/dpref)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/data/ev ${CMAKE_BINARY_DIR}/share/dpref/ev SYMBOLIC)
# Plotting scripts of the studies (scripts/*_plots.py) and of `dpref reproduce`
# (scripts/report_*.py), found by the commands next to their binary (share/dpref/scripts),
# installed and mirrored in the build tree like the data.
file(GLOB DPREF_PLOT_SCRIPTS ${CMAKE_SOURCE_DIR}/scripts/*_plots.py
     ${CMAKE_SOURCE_DIR}/scripts/report_*.py)
install(FILES ${DPREF_PLOT_SCRIPTS} DESTINATION ${CMAKE_INSTALL_DATADIR}/dpref/scripts)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/scripts ${CMAKE_BINARY_DIR}/share/dpref/scripts SYMBOLIC)
