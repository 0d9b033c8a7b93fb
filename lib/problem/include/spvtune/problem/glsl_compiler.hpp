#pragma once

// GLSL compute shaders compiled to SPIR-V in process with glslang's library, so a candidate can
// be a `#define`-parameterised source instead of one prebuilt .spv file per variant.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::problem {

/// The Vulkan environment a GLSL candidate is compiled for; it fixes the SPIR-V version
/// (1.0, 1.3, 1.5, 1.6).
enum class GlslTarget { vulkan1_0, vulkan1_1, vulkan1_2, vulkan1_3 };

// Problem-file spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(GlslTarget, {
                                             {GlslTarget::vulkan1_0, "vulkan1.0"},
                                             {GlslTarget::vulkan1_1, "vulkan1.1"},
                                             {GlslTarget::vulkan1_2, "vulkan1.2"},
                                             {GlslTarget::vulkan1_3, "vulkan1.3"},
                                         })

/// `#define name value`, placed before the source's first line; a function-like macro's name
/// holds its parameters (`SCALE(v)`).
struct GlslDefine {
    std::string name;
    std::string value;
};

/// "A=1, B=vec4", or "none": how messages name a point's defines.
std::string describe_defines(const std::vector<GlslDefine>& defines);

struct GlslRequest {
    std::filesystem::path file;  ///< the source's path: names it in messages, anchors includes
    std::string source;          ///< the file's text
    std::vector<GlslDefine> defines;
    /// Searched for `#include "x"` after the including file's directory, and for `#include <x>`.
    std::vector<std::filesystem::path> include_dirs;
    GlslTarget target = GlslTarget::vulkan1_1;
    /// Text placed after the defines, before the source's first line: a project's preamble of
    /// macros (several lines).
    std::string preamble;
};

/// A file an `#include` pulled in, as it was read: part of what the SPIR-V was made from.
struct GlslInclude {
    std::filesystem::path path;
    std::string text;
};

struct GlslOutput {
    bool ok = false;
    std::vector<std::uint32_t> words;  ///< the SPIR-V when ok
    /// glslang's errors when not ok, one per line: "kernel.comp:12: 'x' : undeclared identifier".
    std::string errors;
    std::vector<GlslInclude> includes;  ///< every file included, in the order they were read
};

/// Compiles one compute shader. Thread-safe; glslang is initialised on the first call.
GlslOutput compile_glsl(const GlslRequest& request);

/// glslang's version ("12.0.0"): compiled SPIR-V depends on it, so cache entries record it.
std::string glslang_version();

/// How many times compile_glsl() ran glslang in this process: tests use it to tell a cache hit
/// from a compile without relying on timing.
std::uint64_t glsl_compile_count() noexcept;

}  // namespace spvtune::problem
