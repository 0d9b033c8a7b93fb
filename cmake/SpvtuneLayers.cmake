# The libraries' dependency rule (README, Layout): app -> run -> {problem, cache -> tune, vulkan},
# problem -> {vulkan (SPIR-V reflection), tune}, everything may use base, tune and vulkan are
# siblings that never know each other, and nothing below run knows it.
# Each entry: a library folder, "|", then the layers (include folders, link targets) it must not use.
set(SPVTUNE_LAYER_RULES
    "base|tune,cache,vulkan,problem,run"
    "tune|cache,vulkan,problem,run"
    "cache|vulkan,problem,run"
    "vulkan|tune,cache,problem,run"
    "problem|run")

# Fails the configure step when a library target links a library its layer must not know.
function(spvtune_check_layer_links)
    foreach(rule IN LISTS SPVTUNE_LAYER_RULES)
        string(REGEX REPLACE "[|,]" ";" parts "${rule}")
        list(GET parts 0 layer)
        list(SUBLIST parts 1 -1 forbidden)
        if(NOT TARGET spvtune_${layer})
            continue()
        endif()
        get_target_property(type spvtune_${layer} TYPE)
        if(type STREQUAL "INTERFACE_LIBRARY")
            get_target_property(links spvtune_${layer} INTERFACE_LINK_LIBRARIES)
        else()
            get_target_property(links spvtune_${layer} LINK_LIBRARIES)
        endif()
        foreach(other IN LISTS forbidden)
            if(links AND "spvtune_${other}" IN_LIST links)
                message(FATAL_ERROR "spvtune_${layer} links spvtune_${other}, which the layer "
                                    "rule forbids (cmake/SpvtuneLayers.cmake)")
            endif()
        endforeach()
    endforeach()
endfunction()
