#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/session.hpp>
#include <spvtune/tune/anchor.hpp>

#include "command.hpp"
#include "device_options.hpp"
#include "path_options.hpp"
#include "problem_loading.hpp"

namespace spvtune::app {
namespace {

struct CheckOptions {
    std::vector<std::string> files;
    std::string device;
    std::vector<std::string> kernel_dirs;
    std::string cache_dir;
};

/// A warning for each binding of a buffer declared input that its shader does not declare
/// readonly: the shader may write it, which the check of a tuning run rejects, so the author
/// hears of it before tuning. Steps compiled per key have no module yet and are not looked at.
std::vector<std::string> writable_input_warnings(const problem::Problem& problem) {
    std::vector<std::string> warnings;
    for (const problem::CandidateFamily& family : problem.families) {
        for (const problem::DispatchStep& step : family.steps) {
            if (!step.module) {
                continue;
            }
            const vulkan::ComputeEntryPoint& entry = step.entry_point();
            for (const problem::Binding& bound : step.bindings) {
                const problem::BufferSpec& buffer = problem.buffers[bound.buffer];
                const auto used =
                    std::find_if(entry.bindings.begin(), entry.bindings.end(),
                                 [&](const vulkan::DescriptorBinding& b) {
                                     return b.set == bound.set && b.binding == bound.binding;
                                 });
                if (buffer.role != problem::BufferRole::input || used == entry.bindings.end() ||
                    used->access == vulkan::Access::read_only) {
                    continue;
                }
                std::string warning = "input buffer '" + buffer.name + "' is bound to binding " +
                                      std::to_string(bound.set) + "." +
                                      std::to_string(bound.binding) + " of " +
                                      step.spirv.filename().string() + ":" + step.entry +
                                      ", which does not declare it readonly (NonWritable)";
                // The points of a grid, and families sharing a kernel, would repeat it.
                if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
                    warnings.push_back(std::move(warning));
                }
            }
        }
    }
    return warnings;
}

/// Prints a summary of the keys of `problem` on the device; false when a key cannot be tuned.
bool check_keys(const problem::Problem& problem, const run::DeviceLimits& limits,
                tune::AutotuneLevel level) {
    bool valid = true;
    for (const problem::KeyEntry& entry : problem.keys) {
        const run::KeyPlan plan = run::plan_key(problem, entry.key, &limits, level);
        if (plan.error) {
            valid = false;
            print_diagnostic(problem::Diagnostic{problem.file, entry.pointer,
                                                 "key " + to_string(entry.key) + ": " + *plan.error,
                                                 ""});
            continue;
        }
        std::cout << "  key " << to_string(entry.key);
        if (!(plan.tuning_key == plan.key)) {
            std::cout << " (tuned as " << to_string(plan.tuning_key) << ")";
        }
        std::cout << ": " << plan.runnable.size() << " of " << problem.candidates.size()
                  << " candidates";
        if (problem.reference.candidates.size() > 1 && plan.reference) {
            std::cout << ", reference " << plan.runnable[*plan.reference].name;
        }
        std::cout << '\n';
        for (const run::SkippedCandidate& skipped : plan.skipped) {
            std::cout << "      skipped " << skipped.name << ": " << skipped.reason << '\n';
        }
    }
    return valid;
}

int run_check(const CheckOptions& options) {
    // The same level, and the same refusal of a bad one, as tune: check shows the keys tune uses.
    const auto level = tune::autotune_level_from_env();
    if (!level) {
        std::cerr << "spvtune: error: " << level.error() << '\n';
        return exit_usage;
    }
    run::SessionSettings settings;
    settings.device = options.device;
    settings.cache_dir = options.cache_dir;
    settings.kernel_dirs.assign(options.kernel_dirs.begin(), options.kernel_dirs.end());
    settings.level = level.value();
    // The device is selected at the first problem that loads, so an invalid file is reported
    // without one; only its limits are needed, so no logical device is created.
    run::Session session(std::move(settings));
    const problem::LoadOptions load = session.load_options();
    std::optional<run::DeviceLimits> limits;
    bool all_valid = true;
    for (const std::string& file : options.files) {
        // Not a check at parsing, as tune's: check reports every file's mistakes in one run.
        if (const auto fault = path_fault(file, PathKind::file)) {
            std::cerr << "spvtune: error: " << file << ": " << *fault << '\n';
            all_valid = false;
            continue;
        }
        const LoadedFile loaded = load_problem_file(file, load);
        if (!loaded.problem) {
            std::cout << file << ": invalid (" << loaded.errors << " error"
                      << (loaded.errors == 1 ? "" : "s") << ")\n";
            all_valid = false;
            continue;
        }
        if (!limits) {
            limits = run::DeviceLimits::from(session.device());
            std::cout << "device: " << session.device().identity.device_name << '\n';
        }
        const problem::Problem& problem = *loaded.problem;
        std::cout << file << ": problem '" << problem.name << "': " << problem.keys.size()
                  << " keys, " << problem.candidates.size() << " candidates, reference";
        for (std::size_t i = 0; i < problem.reference.candidates.size(); ++i) {
            std::cout << (i == 0 ? " " : " else ")
                      << problem.candidates[problem.reference.candidates[i]].name;
        }
        std::cout << '\n';
        for (const problem::UnavailableCandidate& left_out : problem.unavailable) {
            std::cout << "  left out " << left_out.name << ": " << left_out.reason << '\n';
        }
        for (const std::string& warning : writable_input_warnings(problem)) {
            std::cout << "  warning: " << warning << '\n';
        }
        const bool valid = check_keys(problem, *limits, level.value());
        std::cout << file << ": " << (valid ? "valid" : "invalid (some keys cannot be tuned)")
                  << '\n';
        all_valid = all_valid && valid;
    }
    return all_valid ? exit_success : exit_usage;
}

}  // namespace

CommandAction register_check_command(CLI::App& parent) {
    auto* command = parent.add_subcommand(
        "check", "Validate problem descriptions against their SPIR-V and the device's limits");
    auto options = std::make_shared<CheckOptions>();
    command->add_option("problems", options->files, "Problem description files (JSON)")
        ->type_name("JSON")
        ->required();
    add_device_option(*command, options->device);
    // Only compiled GLSL candidates are kept there: check writes no cache file.
    add_cache_dir_option(*command, options->cache_dir, "Cache directory, for compiled GLSL");
    add_kernel_dir_option(*command, options->kernel_dirs);
    return [options] { return run_check(*options); };
}

}  // namespace spvtune::app
