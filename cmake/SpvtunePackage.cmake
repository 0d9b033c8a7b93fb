# The installed CMake package: spvtuneTargets.cmake (the libraries as spvtune::base, ::tune,
# ::cache and, with the Vulkan engine, ::vulkan and ::problem), spvtuneConfig.cmake (finds their
# dependencies, and names the installed kernels) and its version file.
include(CMakePackageConfigHelpers)

install(EXPORT spvtuneTargets NAMESPACE spvtune:: DESTINATION "${SPVTUNE_INSTALL_CMAKE_DIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/spvtuneConfig.cmake.in"
    "${CMAKE_CURRENT_BINARY_DIR}/spvtuneConfig.cmake"
    INSTALL_DESTINATION "${SPVTUNE_INSTALL_CMAKE_DIR}"
    PATH_VARS SPVTUNE_INSTALL_KERNEL_DIR)
# Before 1.0 a minor version may change the library API, so only the same minor version matches.
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/spvtuneConfigVersion.cmake"
    COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/spvtuneConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/spvtuneConfigVersion.cmake"
        DESTINATION "${SPVTUNE_INSTALL_CMAKE_DIR}")
