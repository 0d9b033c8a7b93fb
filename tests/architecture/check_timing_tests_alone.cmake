# The device suites' tests run two at a time except those judged on timings, which run alone
# (tests/CMakeLists.txt). Checks CTest's view of the built tree: a test case of doctest's
# "timing" suite is RUN_SERIAL, a device test outside it is not.
#   -D BUILD_DIR=<the build tree>  -D CTEST=<ctest>

# Whether the one test `pattern` selects is RUN_SERIAL; listing only it keeps this quick.
function(runs_alone pattern out)
    execute_process(COMMAND "${CTEST}" --show-only=json-v1 -R "${pattern}"
                    WORKING_DIRECTORY "${BUILD_DIR}"
                    OUTPUT_VARIABLE listing
                    RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "ctest --show-only=json-v1 failed (${result})")
    endif()
    string(JSON count LENGTH "${listing}" tests)
    if(NOT count EQUAL 1)
        message(FATAL_ERROR "${count} tests match \"${pattern}\", not one")
    endif()
    set(${out} FALSE PARENT_SCOPE)
    string(JSON properties ERROR_VARIABLE none GET "${listing}" tests 0 properties)
    if(none)
        return()
    endif()
    string(JSON property_count LENGTH "${properties}")
    math(EXPR last_property "${property_count} - 1")
    foreach(j RANGE ${last_property})
        string(JSON property GET "${properties}" ${j} name)
        string(JSON value GET "${properties}" ${j} value)
        if(property STREQUAL "RUN_SERIAL" AND value)
            set(${out} TRUE PARENT_SCOPE)
        endif()
    endforeach()
endfunction()

runs_alone("compare: a planted slower contender is slower and the gate fails the job" timing_alone)
if(NOT timing_alone)
    message(FATAL_ERROR "a test of the \"timing\" suite is not RUN_SERIAL")
endif()
runs_alone("devices lists every device with its identity, as a table and as JSON" other_alone)
if(other_alone)
    message(FATAL_ERROR "a device test outside the \"timing\" suite is RUN_SERIAL")
endif()
