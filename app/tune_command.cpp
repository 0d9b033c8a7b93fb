#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/problem/device_bridge.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_tuning.hpp>
#include <spvtune/tune/anchor.hpp>

#include "command.hpp"
#include "device_options.hpp"
#include "key_filter.hpp"
#include "problem_loading.hpp"
#include "report/key_json.hpp"
#include "report/key_table.hpp"
#include "report/progress.hpp"

namespace spvtune::app {
namespace {

volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int) {
    interrupted = 1;
    // A second Ctrl-C ends the process at once; cache writes are atomic, so nothing breaks.
    std::signal(SIGINT, SIG_DFL);
}

struct TuneOptions {
    std::vector<std::string> files;
    std::string device;
    std::string cache_dir;
    std::vector<std::string> kernel_dirs;
    std::vector<std::string> key_filters;
    bool retune = false;
    bool compile_only = false;
    std::string json_out;
    bool quiet = false;
    bool verbose = false;
    bool fixed = false;
    problem::Settings overrides;
};

/// Writes through a temporary file, so a reader never sees half a report.
void write_json(const std::string& path, const nlohmann::json& json) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary);
        out << json.dump(2) << '\n';
        if (!out) {
            throw std::runtime_error("cannot write the JSON report to " + temporary);
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        throw std::runtime_error("cannot write the JSON report to " + path + ": " +
                                 error.message());
    }
}

int run_tune(TuneOptions& options) {
    if (options.fixed) {
        options.overrides.mode = problem::SamplingMode::fixed;
    }
    auto problems = load_problem_files(options.files, options.kernel_dirs);
    if (!problems) {
        return exit_usage;
    }
    const auto filter = KeyFilter::parse(options.key_filters);
    if (!filter) {
        std::cerr << "spvtune: error: " << filter.error() << '\n';
        return exit_usage;
    }
    std::vector<std::pair<const problem::Problem*, const problem::KeyEntry*>> work;
    for (const problem::Problem& problem : *problems) {
        for (const problem::KeyEntry& entry : problem.keys) {
            if (filter.value().matches(entry.key)) {
                work.emplace_back(&problem, &entry);
            }
        }
    }
    if (work.empty()) {
        std::cerr << "spvtune: error: no key matches --key " << filter.value().describe() << '\n';
        return exit_usage;
    }
    const auto level = tune::autotune_level_from_env();
    if (!level) {
        std::cerr << "spvtune: error: " << level.error() << '\n';
        return exit_usage;
    }

    SelectedDevice selected(options.device);
    vulkan::Device& device = selected.device();
    const tune::HardwareIdentity hardware = problem::hardware_identity(device.info().identity);
    const auto directory = cache::choose_cache_directory(cache::cache_directory_sources(
        options.cache_dir.empty() ? std::nullopt
                                  : std::optional<std::filesystem::path>(options.cache_dir)));
    auto store = std::make_shared<cache::CacheFileStore>(directory);

    const bool quiet = options.quiet;
    Progress progress(Progress::style_for(quiet), work.size());
    if (!quiet) {
        std::cout << "device: " << device.info().identity.device_name << " (" << hardware.key
                  << ")\n"
                  << "cache:  " << store->file_for(hardware).string() << "\n\n";
    }

    nlohmann::json report{{"spvtune_version", SPVTUNE_VERSION},
                          {"device", hardware.record},
                          {"cache_file", store->file_for(hardware).string()},
                          {"problems", nlohmann::json::array()}};
    interrupted = 0;
    std::signal(SIGINT, on_interrupt);

    std::size_t failed = 0;
    std::size_t done = 0;
    std::size_t index = 0;
    for (const problem::Problem& problem : *problems) {
        problem::TuningOptions tuning;
        tuning.sampling = problem::sampling_settings(problem.settings, options.overrides);
        tuning.batch = problem::batch_policy(problem.settings, options.overrides);
        tuning.compile_only = options.compile_only;
        tuning.retune = options.retune;
        tuning.level = level.value();
        tuning.store = store;
        tuning.reporter = [&](const tune::TuneEvent& event) {
            if (event.kind == tune::TuneEventKind::store_note && !quiet) {
                progress.clear();
                std::cerr << "note: " << event.message << '\n';
            }
        };
        tuning.on_candidate = [&progress](std::string_view candidate) {
            progress.set_detail(std::string(candidate));
        };
        problem::ProblemTuning tuner(problem, device, tuning);
        nlohmann::json problem_json{{"name", problem.name},
                                    {"file", problem.file.string()},
                                    {"settings", tuning.sampling},
                                    {"min_sample_ms", tuning.batch.min_window.count() / 1e6},
                                    {"keys", nlohmann::json::array()}};
        for (const auto& [owner, entry] : work) {
            if (owner != &problem || interrupted) {
                continue;
            }
            progress.start_key(index++, problem.name + " " + to_string(entry->key));
            const problem::KeyReport key_report = tuner.tune(entry->key);
            progress.finish_key(key_report.status == problem::KeyStatus::tuned);
            ++done;
            if (key_report.status == problem::KeyStatus::failed) {
                ++failed;
            }
            if (!quiet || key_report.status == problem::KeyStatus::failed) {
                print_key_report(quiet ? std::cerr : std::cout, problem, key_report,
                                 options.verbose);
                if (!quiet && key_report.status != problem::KeyStatus::cached) {
                    std::cout << '\n';
                }
                // Each key's report is complete when printed, also through a pipe.
                std::cout.flush();
            }
            problem_json["keys"].push_back(
                key_report_json(problem, key_report, tuning.sampling.warmup_runs));
        }
        report["problems"].push_back(problem_json);
    }
    std::signal(SIGINT, SIG_DFL);
    progress.clear();
    report["interrupted"] = interrupted != 0;
    if (!options.json_out.empty()) {
        write_json(options.json_out, report);
    }

    if (!quiet) {
        std::cout << "\n"
                  << done << " key" << (done == 1 ? "" : "s") << " done, " << failed
                  << " failed; results in " << store->file_for(hardware).string() << '\n';
    }
    if (interrupted) {
        std::cerr << "interrupted after " << done << " of " << work.size()
                  << " keys; every finished key is in the cache\n";
        return 130;
    }
    return failed > 0 ? exit_failure : exit_success;
}

}  // namespace

CommandAction register_tune_command(CLI::App& parent) {
    auto options = std::make_shared<TuneOptions>();
    auto* command = parent.add_subcommand(
        "tune", "Measure the candidates of every key and store the winners in the cache");
    command->add_option("problems", options->files, "Problem description files (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    add_device_option(*command, options->device);
    command->add_option("--cache-dir", options->cache_dir,
                        "Cache directory (default: $SPVTUNE_CACHE_DIR, else "
                        "$XDG_CACHE_HOME/spvtune, else ~/.cache/spvtune)");
    command->add_option("--kernel-dir", options->kernel_dirs,
                        "Extra directory to look for SPIR-V files in (repeatable)");
    command->add_option("--key", options->key_filters,
                        "Only keys with these parameter values, e.g. n=4096 (repeatable; all "
                        "must match)");
    command->add_flag("--retune", options->retune, "Measure again even if the cache has a result");
    command->add_flag("--compile-only", options->compile_only,
                      "Compile every candidate's pipeline; measure and record nothing");
    command->add_option("--json", options->json_out, "Write the full results as JSON to this file");
    auto* quiet = command->add_flag("-q,--quiet", options->quiet, "Print only failures");
    command->add_flag("-v,--verbose", options->verbose, "Print the ranking of cached keys too")
        ->excludes(quiet);
    command->add_flag("--fixed", options->fixed,
                      "Fixed sampling: every candidate gets --warmup warm-ups and --samples "
                      "samples, no early elimination");
    command->add_option("--warmup", options->overrides.warmup, "Warm-up runs per candidate");
    command
        ->add_option("--samples", options->overrides.samples,
                     "Samples per candidate (adaptive: the maximum)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--min-samples", options->overrides.min_samples,
                     "Adaptive: samples before a candidate may be eliminated")
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--min-sample-ms", options->overrides.min_sample_ms,
                     "Repeat dispatches in one sample until it spans this long")
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--time-budget", options->overrides.time_budget_s,
                     "Seconds of sampling per key at most")
        ->check(CLI::PositiveNumber);
    return [options] { return run_tune(*options); };
}

}  // namespace spvtune::app
