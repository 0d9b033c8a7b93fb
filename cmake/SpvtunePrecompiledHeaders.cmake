# Precompiled headers: the third-party headers that dominate compile time. CLI11 and
# nlohmann/json alone took about 70% of an app source file's compile time (7.8 of 11.4 CPU
# seconds for cache_verify_command.cpp), and doctest is in every test file. Each target gets
# its own precompiled header (targets differ in flags, so one cannot be shared), built once and
# read by every file of the target. SPVTUNE_PCH=OFF compiles without them, to check that every
# file still includes what it uses.
option(SPVTUNE_PCH "Precompile the heavy third-party headers (CLI11, nlohmann/json, doctest)" ON)

set(SPVTUNE_PCH_STANDARD <algorithm> <chrono> <cstddef> <cstdint> <filesystem> <functional> <map>
                         <memory> <optional> <string> <string_view> <utility> <vector>)

# spvtune_precompile_headers(<target> [CLI] [JSON] [DOCTEST]): the standard headers most files
# use, plus the named third-party ones.
function(spvtune_precompile_headers target)
    if(NOT SPVTUNE_PCH)
        return()
    endif()
    cmake_parse_arguments(ARG "CLI;JSON;DOCTEST" "" "" ${ARGN})
    set(headers ${SPVTUNE_PCH_STANDARD})
    if(ARG_CLI)
        list(APPEND headers <CLI/CLI.hpp>)
    endif()
    if(ARG_JSON)
        list(APPEND headers <nlohmann/json.hpp>)
    endif()
    if(ARG_DOCTEST)
        list(APPEND headers <doctest/doctest.h>)
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
