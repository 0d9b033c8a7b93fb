# CTest splits a test name at ';' (a CMake list separator), so doctest_discover_tests registers
# a test case whose name holds one as two filters that match nothing: it "passes" without
# running. Fail on any such name under tests/.
file(GLOB_RECURSE sources "${SOURCE_DIR}/tests/*.cpp")
set(bad "")
foreach(source IN LISTS sources)
    file(STRINGS "${source}" lines REGEX "TEST_CASE\\(\"[^\"]*\;")
    if(lines)
        string(APPEND bad "\n  ${source}")
    endif()
endforeach()
if(bad)
    message(FATAL_ERROR "test case names with ';' never run under ctest:${bad}")
endif()
