# Compiles GLSL compute shaders to SPIR-V at build time and validates each with spirv-val, so an
# invalid shader fails the build rather than a test run. The SPIR-V stays in the build tree.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)
find_program(SPIRV_VAL spirv-val REQUIRED)

set(SPVTUNE_KERNEL_TARGET_ENV "vulkan1.1" CACHE STRING "glslang --target-env for shipped kernels")

# spvtune_add_kernels(TARGET <name> OUTPUT_DIR <dir> SOURCES <file.comp>...)
function(spvtune_add_kernels)
    cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR" "SOURCES" ${ARGN})
    set(outputs)
    foreach(source IN LISTS ARG_SOURCES)
        get_filename_component(name "${source}" NAME_WE)
        get_filename_component(source_path "${source}" ABSOLUTE)
        set(output "${ARG_OUTPUT_DIR}/${name}.spv")
        add_custom_command(
            OUTPUT "${output}"
            COMMAND ${CMAKE_COMMAND} -E make_directory "${ARG_OUTPUT_DIR}"
            COMMAND ${GLSLANG_VALIDATOR} --quiet -V --target-env ${SPVTUNE_KERNEL_TARGET_ENV}
                    -o "${output}" "${source_path}"
            COMMAND ${SPIRV_VAL} --target-env ${SPVTUNE_KERNEL_TARGET_ENV} "${output}"
            DEPENDS "${source_path}"
            COMMENT "GLSL -> SPIR-V ${name}"
            VERBATIM)
        list(APPEND outputs "${output}")
    endforeach()
    add_custom_target(${ARG_TARGET} ALL DEPENDS ${outputs})
endfunction()

# spvtune_add_kernel_variants(TARGET <name> OUTPUT_DIR <dir> SOURCE <file.comp>
#                             INCLUDE_DIR <dir> VARIANTS "<file>.spv:NAME=V,NAME=V" ...)
# Compiles one GLSL source once per variant with that variant's #defines, for problems whose
# templated "spirv" path picks a prebuilt file per grid point.
function(spvtune_add_kernel_variants)
    cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR;SOURCE;INCLUDE_DIR" "VARIANTS" ${ARGN})
    get_filename_component(source_path "${ARG_SOURCE}" ABSOLUTE)
    file(GLOB includes CONFIGURE_DEPENDS "${ARG_INCLUDE_DIR}/*.glsl")
    set(outputs)
    foreach(variant IN LISTS ARG_VARIANTS)
        string(REPLACE ":" ";" parts "${variant}")
        list(GET parts 0 file_name)
        list(GET parts 1 defines)
        string(REPLACE "," ";" defines "${defines}")
        list(TRANSFORM defines PREPEND "-D")
        set(output "${ARG_OUTPUT_DIR}/${file_name}")
        add_custom_command(
            OUTPUT "${output}"
            COMMAND ${CMAKE_COMMAND} -E make_directory "${ARG_OUTPUT_DIR}"
            COMMAND ${GLSLANG_VALIDATOR} --quiet -V --target-env ${SPVTUNE_KERNEL_TARGET_ENV}
                    ${defines} -I${ARG_INCLUDE_DIR} -o "${output}" "${source_path}"
            COMMAND ${SPIRV_VAL} --target-env ${SPVTUNE_KERNEL_TARGET_ENV} "${output}"
            DEPENDS "${source_path}" ${includes}
            COMMENT "GLSL -> SPIR-V ${file_name}"
            VERBATIM)
        list(APPEND outputs "${output}")
    endforeach()
    add_custom_target(${ARG_TARGET} ALL DEPENDS ${outputs})
endfunction()
