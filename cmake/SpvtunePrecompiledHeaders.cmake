# Precompiled headers: the third-party headers that dominate compile time. CLI11 and
# nlohmann/json alone took about 70% of an app source file's compile time (7.8 of 11.4 CPU
# seconds for cache_verify_command.cpp), and doctest is in every test file.
#
# Each set of headers is precompiled once, by a small anchor target, and every target that asks
# for that set reuses it: a precompiled header cost 6 to 28 CPU seconds per target under ASan,
# and twelve test suites and six libraries each built the same one (about 230 CPU seconds of a
# 2-core CI build). Sharing is safe because every target that asks for a set gets the flags that
# matter to a precompiled header (the sanitizers, the language standard, NDEBUG, whether it
# optimises) from the same place as its anchor: test code's -O0 comes through spvtune_doctest,
# and uninstrumented test code has an anchor of its own. CMake's -Winvalid-pch (an error here,
# like every warning) stops the build should a target's flags ever make a shared header
# unusable, rather than let it compile slowly without it. SPVTUNE_PCH=OFF compiles without
# them, to check that every file still includes what it uses.
option(SPVTUNE_PCH "Precompile the heavy third-party headers (CLI11, nlohmann/json, doctest)" ON)

set(SPVTUNE_PCH_STANDARD <algorithm> <chrono> <cstddef> <cstdint> <filesystem> <functional> <map>
                         <memory> <optional> <string> <string_view> <utility> <vector>)

# spvtune_precompile_headers(<target> [CLI] [JSON] [DOCTEST] [UNINSTRUMENTED]): the standard
# headers most files use, plus the named third-party ones. UNINSTRUMENTED is for a target that
# compiles with -fno-sanitize=all (spvtune_add_test_suite's OUT_OF_PROCESS): a header
# precompiled with the sanitizers is refused there, so that set gets an anchor of its own.
function(spvtune_precompile_headers target)
    if(NOT SPVTUNE_PCH)
        return()
    endif()
    cmake_parse_arguments(ARG "CLI;JSON;DOCTEST;UNINSTRUMENTED" "" "" ${ARGN})
    set(headers ${SPVTUNE_PCH_STANDARD})
    set(libraries)
    set(anchor spvtune_pch)
    if(ARG_CLI)
        list(APPEND headers <CLI/CLI.hpp>)
        list(APPEND libraries CLI11::CLI11)
        string(APPEND anchor _cli)
    endif()
    if(ARG_JSON)
        list(APPEND headers <nlohmann/json.hpp>)
        list(APPEND libraries nlohmann_json::nlohmann_json)
        string(APPEND anchor _json)
    endif()
    if(ARG_DOCTEST)
        list(APPEND headers <doctest/doctest.h>)
        list(APPEND libraries spvtune_doctest)
        string(APPEND anchor _doctest)
    endif()
    if(ARG_UNINSTRUMENTED)
        string(APPEND anchor _uninstrumented)
    endif()
    if(NOT TARGET ${anchor})
        add_library(${anchor} OBJECT "${SPVTUNE_PCH_ANCHOR_SOURCE}")
        # The warnings too: -Wpedantic changes what the headers see (__cpp_runtime_arrays).
        target_link_libraries(${anchor} PRIVATE ${libraries} spvtune_warnings)
        target_precompile_headers(${anchor} PRIVATE ${headers})
        if(ARG_UNINSTRUMENTED)
            target_compile_options(${anchor} PRIVATE -fno-sanitize=all)
        endif()
    endif()
    target_precompile_headers(${target} REUSE_FROM ${anchor})
endfunction()

set(SPVTUNE_PCH_ANCHOR_SOURCE "${CMAKE_CURRENT_LIST_DIR}/precompiled_headers_anchor.cpp")
