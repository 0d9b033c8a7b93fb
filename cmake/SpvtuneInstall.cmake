# Install rules for the libraries an application links: each library folder calls
# spvtune_install_library, and cmake/SpvtunePackage.cmake (included after them) installs the
# export set with a package config, so applications write find_package(spvtune CONFIG).
include(GNUInstallDirs)

set(SPVTUNE_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/spvtune")
set(SPVTUNE_INSTALL_KERNEL_DIR "${CMAKE_INSTALL_DATADIR}/spvtune/kernels")

# spvtune_install_library(<target> <name>): installs the static library and its public headers
# (the folder's include/), exported as spvtune::<name>, and gives the build tree the same alias.
# The public headers are C++20: the standard is a usage requirement, so an application that links
# the target compiles them as C++20 without setting CMAKE_CXX_STANDARD itself.
function(spvtune_install_library target name)
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    target_compile_features(${target} PUBLIC cxx_std_20)
    add_library(spvtune::${name} ALIAS ${target})
    install(TARGETS ${target} EXPORT spvtuneTargets
            ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
            INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
    install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/include/"
            DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endfunction()
