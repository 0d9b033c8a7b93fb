// An application that ships spvtune caches: it runs the cached winner for one key of a problem
// and never pauses to tune, whatever the cache holds.
//
//   spvtune tune configs/saxpy.json --cache-dir shipped/     (once per target GPU, before release)
//   spvtune_example_shipped_cache configs/saxpy.json --caches shipped/ --key n=65536
//
// SPVTUNE_VALIDATION=1 enables the Khronos validation layer, as for spvtune itself.

#include <charconv>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_lookup.hpp>
#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/in_memory_store.hpp>
#include <spvtune/vulkan/selected_device.hpp>

namespace {

using namespace spvtune;

template <class T>
T parse_number(const std::string& text, const std::string& item) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
        throw std::invalid_argument("--key " + item + ": not a number");
    }
    return value;
}

/// `n=65536,dtype=f32` as a key of `problem`. A real application builds its ProblemKey from
/// its own sizes; only this example reads one from the command line.
problem::ProblemKey parse_key(const problem::Problem& problem, const std::string& text) {
    std::vector<problem::ProblemKey::Entry> entries;
    std::istringstream items(text);
    for (std::string item; std::getline(items, item, ',');) {
        const std::size_t equals = item.find('=');
        const problem::Parameter* parameter =
            equals == std::string::npos ? nullptr : problem.find_parameter(item.substr(0, equals));
        if (parameter == nullptr) {
            throw std::invalid_argument("--key " + item +
                                        ": expected name=value, with a name "
                                        "from the parameters of " +
                                        problem.name);
        }
        const std::string value = item.substr(equals + 1);
        switch (parameter->type) {
            case problem::ParameterType::integer:
                entries.emplace_back(parameter->name, parse_number<std::int64_t>(value, item));
                break;
            case problem::ParameterType::floating:
                entries.emplace_back(parameter->name, parse_number<double>(value, item));
                break;
            case problem::ParameterType::string:
                entries.emplace_back(parameter->name, value);
                break;
        }
    }
    return problem::ProblemKey(std::move(entries));
}

struct Options {
    std::string problem_file;
    std::string caches;
    std::string key;
    bool allow_driver_mismatch = false;
};

int run_cached_winner(const Options& options) {
    const problem::Problem problem = problem::load_problem(options.problem_file);
    const problem::ProblemKey key = parse_key(problem, options.key);
    vulkan::SelectedDevice selected("");  // the default device
    vulkan::Device& device = selected.device();
    const tune::HardwareIdentity hardware = run::hardware_identity(device.info().identity);

    // The cache tuned on exactly this hardware; one from another driver of the same device
    // only when the application accepts that its timings may no longer hold.
    const cache::DriverMismatch mismatch = options.allow_driver_mismatch
                                               ? cache::DriverMismatch::allow
                                               : cache::DriverMismatch::refuse;
    run::TuningOptions tuning;
    if (const auto found = cache::find_cache_file(options.caches, hardware, mismatch)) {
        std::cout << "cache file: " << found->file.string() << " (" << found->description << ")\n";
        // Read-only: shipped files are never written, locked or moved, even when damaged.
        tuning.tuner.store = std::make_shared<cache::CacheFileStore>(
            options.caches,
            cache::CacheFileStoreOptions{.driver_mismatch = mismatch, .read_only = true});
    } else {
        std::cout << "cache file: none for " << hardware.device_name << " in " << options.caches
                  << '\n';
        tuning.tuner.store = std::make_shared<tune::InMemoryStore>();
    }
    // Never measure: a key the cache lacks runs the preferred candidate, and nothing is
    // recorded, so the shipped files are only ever read.
    tuning.tuner.miss_policy = tune::MissPolicy::run_preferred;
    tuning.tuner.reporter = [](const tune::TuneEvent& event) {
        std::cerr << "spvtune: " << to_string(event.kind) << ": key " << event.key << ", "
                  << event.candidate << '\n';
    };

    run::ProblemTuning runner(problem, device, tuning);
    const run::KeyReport report = runner.tune(key);
    if (report.status == run::KeyStatus::failed) {
        std::cerr << "error: " << report.error << '\n';
        return 1;
    }
    const std::string& ran = problem.candidates[report.ran.value()].name;
    if (report.status == run::KeyStatus::untuned) {
        std::cout << "cache miss: ran the preferred candidate " << ran << " (not tuned)\n";
    } else {
        std::cout << "cache hit: ran " << ran << '\n';
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App cli("Runs one key of a problem with the winner from a shipped spvtune cache");
    cli.add_option("problem", options.problem_file, "Problem description (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    cli.add_option("--caches", options.caches, "Directory of shipped cache files")->required();
    cli.add_option("--key", options.key, "The key to run, e.g. n=65536")->required();
    cli.add_flag("--allow-driver-mismatch", options.allow_driver_mismatch,
                 "Use a cache tuned with another driver version of this device");
    CLI11_PARSE(cli, argc, argv);
    try {
        return run_cached_winner(options);
    } catch (const problem::ProblemError& error) {
        for (const problem::Diagnostic& diagnostic : error.diagnostics()) {
            std::cerr << format(diagnostic) << '\n';
        }
    } catch (const std::exception& error) {
        std::cerr << "error: " << error.what() << '\n';
    }
    return 1;
}
