# Run after a device suite is built (spvtune_add_test_suite): lists the suite's test cases in
# doctest's "timing" test suite, the ones whose verdict is judged on measured times, and writes
# a CTest script that makes each of them RUN_SERIAL, with ASAN_OPTIONS_APPENDED (when not empty)
# appended to their ASAN_OPTIONS.
#   -D TEST_EXECUTABLE=<the suite's binary>  -D CTEST_FILE=<the script to write>
#   -D ASAN_OPTIONS_APPENDED=<":name=value..." or empty>
execute_process(COMMAND "${TEST_EXECUTABLE}" --list-test-cases --test-suite=timing
                OUTPUT_VARIABLE listing
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases failed (${result}):\n${listing}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(properties "RUN_SERIAL TRUE")
if(NOT ASAN_OPTIONS_APPENDED STREQUAL "")
    string(APPEND properties
           " ENVIRONMENT_MODIFICATION [==[ASAN_OPTIONS=string_append:${ASAN_OPTIONS_APPENDED}]==]")
endif()
set(script "")
foreach(line IN LISTS lines)
    # doctest frames its listing with a rule and "[doctest] ..." summary lines.
    if(line STREQUAL "" OR line MATCHES "^===+$" OR line MATCHES "^\\[doctest\\] ")
        continue()
    endif()
    string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES ${properties})\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
