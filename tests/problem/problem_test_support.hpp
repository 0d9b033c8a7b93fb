#pragma once

// A valid problem (saxpy over the shipped kernel) as JSON that each test bends one way, and
// helpers that parse it and return the problem or its diagnostics as text.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>

namespace spvtune::problem::testing {

using Json = nlohmann::ordered_json;

inline const std::filesystem::path test_kernel_dir{SPVTUNE_PROBLEM_TEST_KERNEL_DIR};
inline const std::filesystem::path config_dir{SPVTUNE_CONFIG_DIR};
// Not a real directory: `spirv` is then found in the built-in kernel directory.
inline const std::filesystem::path problem_file{"/nonexistent/problem.json"};

inline Json saxpy_json() {
    return Json::parse(R"json({
        "name": "saxpy",
        "parameters": {"n": {"type": "int", "bucket": {"base": 2, "min": 1024}}},
        "keys": {"list": [{"n": 1000}, {"n": 4096}]},
        "buffers": {
            "x": {"type": "f32", "count": "n", "role": "input",
                  "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
            "y": {"type": "f32", "count": "n", "role": "inout",
                  "init": {"iota": {"start": 0, "step": 0.5}}}
        },
        "candidates": [{
            "name": "saxpy",
            "spirv": "saxpy.spv",
            "grid": {"WG": [32, 64, 128]},
            "specialization": {"0": "WG"},
            "workgroups": ["ceil_div(n, WG)", 1, 1],
            "push_constants": [{"type": "f32", "value": 2.0}, {"type": "u32", "value": "n"}],
            "bindings": {"0": "x", "1": "y"}
        }],
        "reference": {"candidate": "saxpy[WG=64]", "compare": {"y": {"rtol": 1e-5}}}
    })json");
}

/// The test kernels' directory to search; no GLSL cache, so every GLSL candidate compiles.
inline LoadOptions test_options() {
    LoadOptions options;
    options.kernel_dirs = {test_kernel_dir};
    return options;
}

inline Problem parse(const Json& json) {
    return parse_problem(json.dump(), problem_file, test_options());
}

/// Every diagnostic, formatted; empty when the problem is valid.
inline std::vector<std::string> errors_of(const std::string& text,
                                          const std::filesystem::path& file = problem_file,
                                          const LoadOptions& options = test_options()) {
    try {
        parse_problem(text, file, options);
        return {};
    } catch (const ProblemError& error) {
        std::vector<std::string> messages;
        for (const Diagnostic& diagnostic : error.diagnostics()) {
            messages.push_back(format(diagnostic));
        }
        return messages;
    }
}

inline std::vector<std::string> errors_of(const Json& json) {
    return errors_of(json.dump());
}

/// The only diagnostic (a test fails when there are none or several).
inline std::string error_of(const Json& json) {
    const auto errors = errors_of(json);
    if (errors.size() != 1) {
        std::string all = std::to_string(errors.size()) + " errors:";
        for (const auto& error : errors) {
            all += "\n" + error;
        }
        return all;
    }
    return errors.front();
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace spvtune::problem::testing
