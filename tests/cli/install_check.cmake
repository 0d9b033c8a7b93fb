# `cmake --install` of the build into a scratch prefix: the spvtune binary and its manual page
# land where packagers and man(1) look (bin/, share/man/man1/), and the installed binary runs.
# -DBUILD_DIR=... -DPREFIX=...
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install failed:\n${output}")
endif()
foreach(file bin/spvtune share/man/man1/spvtune.1)
    if(NOT EXISTS "${PREFIX}/${file}")
        message(FATAL_ERROR "cmake --install did not install ${file}:\n${output}")
    endif()
endforeach()
file(READ "${PREFIX}/share/man/man1/spvtune.1" page)
if(NOT page MATCHES "\\.SH SYNOPSIS" OR NOT page MATCHES "\\.SS \"spvtune tune\"")
    message(FATAL_ERROR "the installed manual page has no SYNOPSIS or no tune section")
endif()
execute_process(COMMAND "${PREFIX}/bin/spvtune" completion bash RESULT_VARIABLE result
                OUTPUT_VARIABLE script)
if(NOT result EQUAL 0 OR NOT script MATCHES "complete -F _spvtune spvtune")
    message(FATAL_ERROR "the installed spvtune does not run: ${result}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
