// glslang in process: a GLSL compute shader with defines and includes becomes SPIR-V that
// SpirvModule accepts; an error names the file and line.

#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/problem/glsl_compiler.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

#include "cache/temp_directory.hpp"

namespace glsl_compiler_test {

using namespace spvtune::problem;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

// WG_SIZE must come from a define: without one the source does not compile.
const char* const sized_kernel = R"glsl(#version 450
layout(local_size_x = WG_SIZE) in;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
)glsl";

GlslRequest request_for(const fs::path& file, const std::string& source,
                        std::vector<GlslDefine> defines = {}) {
    return {file, source, std::move(defines), {}, GlslTarget::vulkan1_1, ""};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a GLSL compute shader compiles with its defines to SPIR-V that validates") {
    const GlslOutput output =
        compile_glsl(request_for("sized.comp", sized_kernel, {{"WG_SIZE", "128"}}));
    REQUIRE_MESSAGE(output.ok, output.errors);
    const auto module = spvtune::vulkan::SpirvModule::from_words(output.words, "sized.comp");
    CHECK(module.entry_point("main").workgroup_size[0].size == 128);
}

TEST_CASE("a compile error names the file and the line, and gives no SPIR-V") {
    const GlslOutput missing_define = compile_glsl(request_for("sized.comp", sized_kernel));
    CHECK_FALSE(missing_define.ok);
    CHECK(missing_define.words.empty());
    CHECK_MESSAGE(contains(missing_define.errors, "sized.comp:2:"), missing_define.errors);
    CHECK_FALSE(contains(missing_define.errors, "compilation terminated"));
    CHECK_FALSE(contains(missing_define.errors, " \n"));

    const std::string typo =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n"
        "    undeclared_thing = 1;\n}\n";
    const GlslOutput output = compile_glsl(request_for("typo.comp", typo));
    CHECK_FALSE(output.ok);
    CHECK_MESSAGE(
        contains(output.errors, "typo.comp:4: 'undeclared_thing' : undeclared identifier"),
        output.errors);
    CHECK_FALSE(contains(output.errors, "ERROR: "));
    CHECK_FALSE(contains(output.errors, "compilation errors"));
}

TEST_CASE("an include is found beside the source, then in the include directories") {
    TempDirectory dir;
    fs::create_directories(dir.path() / "src");
    fs::create_directories(dir.path() / "inc");
    write_bytes(dir.path() / "src" / "beside.glsl", "#define FACTOR 3.0\n");
    write_bytes(dir.path() / "inc" / "size.glsl", "#define WG_SIZE 32\n");
    const std::string source =
        "#version 450\n#include \"size.glsl\"\n#include \"beside.glsl\"\n"
        "layout(local_size_x = WG_SIZE) in;\n"
        "layout(std430, binding = 0) buffer Data { float data[]; };\n"
        "void main() { data[gl_GlobalInvocationID.x] *= FACTOR; }\n";
    GlslRequest request = request_for(dir.path() / "src" / "main.comp", source);
    request.include_dirs = {dir.path() / "inc"};
    const GlslOutput output = compile_glsl(request);
    REQUIRE_MESSAGE(output.ok, output.errors);
    REQUIRE(output.includes.size() == 2);
    CHECK(output.includes[0].path == dir.path() / "inc" / "size.glsl");
    CHECK(output.includes[0].text == "#define WG_SIZE 32\n");
    CHECK(output.includes[1].path == dir.path() / "src" / "beside.glsl");

    request.include_dirs.clear();
    const GlslOutput without = compile_glsl(request);
    CHECK_FALSE(without.ok);
    CHECK_MESSAGE(contains(without.errors, "main.comp:2:"), without.errors);
    CHECK_MESSAGE(contains(without.errors, "size.glsl"), without.errors);
}

TEST_CASE("the target environment sets the SPIR-V version") {
    GlslRequest request = request_for("sized.comp", sized_kernel, {{"WG_SIZE", "64"}});
    for (const auto& [target, version] : {std::pair{GlslTarget::vulkan1_0, 0x00010000U},
                                          std::pair{GlslTarget::vulkan1_1, 0x00010300U},
                                          std::pair{GlslTarget::vulkan1_2, 0x00010500U},
                                          std::pair{GlslTarget::vulkan1_3, 0x00010600U}}) {
        request.target = target;
        const GlslOutput output = compile_glsl(request);
        REQUIRE_MESSAGE(output.ok, output.errors);
        CHECK(output.words.at(1) == version);
    }
}

TEST_CASE("compiles from several threads at once all succeed") {
    std::vector<GlslOutput> outputs(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        threads.emplace_back([&outputs, i] {
            outputs[i] = compile_glsl(request_for("sized.comp", sized_kernel,
                                                  {{"WG_SIZE", std::to_string(32 * (i + 1))}}));
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        REQUIRE_MESSAGE(outputs[i].ok, outputs[i].errors);
        const auto module = spvtune::vulkan::SpirvModule::from_words(outputs[i].words, "sized");
        CHECK(module.entry_point("main").workgroup_size[0].size == 32 * (i + 1));
    }
}

TEST_CASE("defines are described in order for messages") {
    CHECK(describe_defines({}) == "none");
    CHECK(describe_defines({{"A", "1"}, {"B", "vec4"}}) == "A=1, B=vec4");
    CHECK_FALSE(glslang_version().empty());
}

}  // namespace glsl_compiler_test
