#include <algorithm>
#include <atomic>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/build_info.h>
#include <memory>
#include <mutex>
#include <sstream>

#include <spvtune/problem/glsl_compiler.hpp>

#include "glsl/include_search.hpp"

namespace spvtune::problem {
namespace {

std::atomic<std::uint64_t> compile_count{0};

/// Resolves `#include` directives the way C compilers do: "x" next to the including file, then
/// the include directories; <x> in the include directories only. Records every file it reads,
/// since the SPIR-V depends on their text as much as on the source's.
///
/// glslang follows includes without end: a file that includes itself, or two that include each
/// other, with no guard, would grow the text until memory runs out. A file open twice in the
/// chain of includes around a directive is allowed (the second is how include guards stop a
/// cycle), a third time is a cycle: named from the file's last opening ("include cycle:
/// a.glsl -> b.glsl -> a.glsl"), and no include is read after it, so the remaining directives of
/// every open file fail at once instead of each opening the cycle again.
class Includer final : public glslang::TShader::Includer {
  public:
    Includer(const std::filesystem::path& source, const std::vector<std::filesystem::path>& dirs,
             std::vector<GlslInclude>& read)
        : dirs_(dirs), read_(read), base_(source.parent_path()) {
        chain_.push_back(opened(source));
    }

    IncludeResult* includeLocal(const char* header, const char* includer,
                                std::size_t depth) override {
        return open(detail::find_glsl_include(header, includer, true, dirs_), depth);
    }

    IncludeResult* includeSystem(const char* header, const char* includer,
                                 std::size_t depth) override {
        return open(detail::find_glsl_include(header, includer, false, dirs_), depth);
    }

    void releaseInclude(IncludeResult* result) override {
        if (result != nullptr) {
            delete static_cast<std::string*>(result->userData);
            delete result;
        }
    }

    /// "include cycle: a.glsl -> b.glsl -> a.glsl" once one was met; empty otherwise.
    const std::string& cycle() const noexcept { return cycle_; }

  private:
    struct Opened {
        std::filesystem::path identity;  ///< canonical, so two spellings of one file are one
        std::string name;                ///< for messages: relative to the source's directory
    };

    Opened opened(const std::filesystem::path& path) const {
        std::error_code ignored;
        std::filesystem::path identity = std::filesystem::weakly_canonical(path, ignored);
        const std::filesystem::path relative = path.lexically_relative(base_);
        const bool inside = !relative.empty() && *relative.begin() != "..";
        return {identity.empty() ? path : identity, (inside ? relative : path).string()};
    }

    /// An include glslang reports as an error with `message` (an empty header name says so).
    static IncludeResult* refuse(const std::string& message) {
        auto* owned = new std::string(message);
        return new IncludeResult("", owned->data(), owned->size(), owned);
    }

    /// Null (glslang reports the directive with its line) when nothing was found or read.
    IncludeResult* open(const std::optional<std::filesystem::path>& found, std::size_t depth) {
        if (!found) {
            return nullptr;
        }
        if (!cycle_.empty()) {
            return refuse(cycle_);
        }
        // glslang's depth counts the files open around the directive, the source among them:
        // those after them were closed since.
        chain_.resize(std::clamp<std::size_t>(depth, 1, chain_.size()));
        Opened next = opened(*found);
        const auto same = [&next](const Opened& open) { return open.identity == next.identity; };
        if (std::count_if(chain_.begin(), chain_.end(), same) >= 2) {
            const auto from = std::find_if(chain_.rbegin(), chain_.rend(), same).base() - 1;
            cycle_ = "include cycle: ";
            for (auto at = from; at != chain_.end(); ++at) {
                cycle_ += at->name + " -> ";
            }
            cycle_ += next.name;
            return refuse(cycle_);
        }
        auto text = detail::read_glsl_text(*found);
        if (!text) {
            return nullptr;
        }
        chain_.push_back(std::move(next));
        read_.push_back({*found, std::move(*text)});
        auto* owned = new std::string(read_.back().text);
        return new IncludeResult(found->string(), owned->data(), owned->size(), owned);
    }

    const std::vector<std::filesystem::path>& dirs_;
    std::vector<GlslInclude>& read_;
    std::filesystem::path base_;
    std::vector<Opened> chain_;
    std::string cycle_;
};

/// glslang's info log without the "ERROR: " prefixes, trailing blanks and closing summaries,
/// one error a line.
std::string clean_log(const std::string& log) {
    std::istringstream lines(log);
    std::string line;
    std::string out;
    while (std::getline(lines, line)) {
        for (const std::string_view prefix : {"ERROR: ", "WARNING: "}) {
            if (line.starts_with(prefix)) {
                line.erase(0, prefix.size());
            }
        }
        line.erase(line.find_last_not_of(" \t\r") + 1);
        // Summaries that repeat what the lines above say.
        if (line.empty() || line.find("compilation errors.") != std::string::npos ||
            line.find("No code generated") != std::string::npos ||
            line.ends_with("compilation terminated")) {
            continue;
        }
        out += (out.empty() ? "" : "\n") + line;
    }
    return out.empty() ? "glslang failed without a message" : out;
}

struct Environment {
    glslang::EShTargetClientVersion client;
    glslang::EShTargetLanguageVersion spirv;
};

Environment environment(GlslTarget target) {
    switch (target) {
        case GlslTarget::vulkan1_0:
            return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
        case GlslTarget::vulkan1_1:
            break;
        case GlslTarget::vulkan1_2:
            return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
        case GlslTarget::vulkan1_3:
            return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
    }
    return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
}

/// The defines as source lines, then the request's preamble; `#include` is enabled as glslc
/// enables it, so a source need not ask for GL_GOOGLE_include_directive itself.
std::string preamble(const GlslRequest& request) {
    std::string text = "#extension GL_GOOGLE_include_directive : enable\n";
    for (const GlslDefine& define : request.defines) {
        text += "#define " + define.name + " " + define.value + "\n";
    }
    text += request.preamble;
    if (!request.preamble.empty() && request.preamble.back() != '\n') {
        text += '\n';
    }
    return text;
}

}  // namespace

std::string describe_defines(const std::vector<GlslDefine>& defines) {
    std::string text;
    for (const GlslDefine& define : defines) {
        text += (text.empty() ? "" : ", ") + define.name + "=" + define.value;
    }
    return text.empty() ? "none" : text;
}

GlslOutput compile_glsl(const GlslRequest& request) {
    // glslang keeps process-wide tables; InitializeProcess once and never finalise, since other
    // threads may compile at any time. Compiles are serialised: they are rare (cached on disk)
    // and glslang 12's thread safety outside its own tools is not documented.
    static std::once_flag initialised;
    std::call_once(initialised, [] { glslang::InitializeProcess(); });
    static std::mutex compiling;
    const std::lock_guard lock(compiling);
    compile_count.fetch_add(1, std::memory_order_relaxed);

    GlslOutput output;
    const Environment env = environment(request.target);
    const std::string name = request.file.string();
    const char* text = request.source.c_str();
    const int length = static_cast<int>(request.source.size());
    const char* names = name.c_str();
    const std::string defines = preamble(request);

    glslang::TShader shader(EShLangCompute);
    shader.setStringsWithLengthsAndNames(&text, &length, &names, 1);
    shader.setPreamble(defines.c_str());
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, env.client);
    shader.setEnvTarget(glslang::EShTargetSpv, env.spirv);
    const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
    Includer includer(request.file, request.include_dirs, output.includes);
    const bool parsed = shader.parse(GetDefaultResources(), 100, false, messages, includer);
    if (!includer.cycle().empty()) {
        // Alone: every directive still open when it was met failed with it.
        output.errors = includer.cycle();
        return output;
    }
    if (!parsed) {
        output.errors = clean_log(shader.getInfoLog());
        return output;
    }
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages)) {
        output.errors = clean_log(program.getInfoLog());
        return output;
    }
    glslang::SpvOptions options;
    options.validate = false;  // SpirvModule validates with SPIRV-Tools, as for a .spv file
    spv::SpvBuildLogger logger;
    std::vector<unsigned int> words;
    glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), words, &logger, &options);
    output.words.assign(words.begin(), words.end());
    output.ok = !output.words.empty();
    if (!output.ok) {
        output.errors = clean_log(logger.getAllMessages());
    }
    return output;
}

std::string glslang_version() {
    return std::to_string(GLSLANG_VERSION_MAJOR) + "." + std::to_string(GLSLANG_VERSION_MINOR) +
           "." + std::to_string(GLSLANG_VERSION_PATCH) + GLSLANG_VERSION_FLAVOR;
}

std::uint64_t glsl_compile_count() noexcept {
    return compile_count.load(std::memory_order_relaxed);
}

}  // namespace spvtune::problem
