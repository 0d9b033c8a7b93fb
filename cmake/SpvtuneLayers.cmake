# The libraries' dependency rule (README, Layout): app -> problem -> {vulkan, cache -> tune},
# everything may use base, and tune and vulkan are siblings that never know each other.
# Each entry: a library folder, "|", then the layers (include folders, link targets) it must not use.
set(SPVTUNE_LAYER_RULES
    "base|tune,cache,vulkan,problem"
    "tune|cache,vulkan,problem"
    "cache|vulkan,problem"
    "vulkan|tune,cache,problem")

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
