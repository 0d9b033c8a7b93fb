// An application using an installed spvtune (built by tests/package/consumer/CMakeLists.txt,
// the README's example): it runs one key of a problem from a shipped cache, never tuning. A key
// the cache holds runs its winner; one it lacks runs the winner of the nearest tuned key when
// that can run it, else the most preferred candidate that can. It prints which (the answer's
// source: exact, nearest (from n=...) or default), and exits 0 when a candidate ran (a hit only
// with the cache's winner).
//
// usage: my_app PROBLEM.json CACHE_DIR N
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_lookup.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/selected_device.hpp>

namespace {

using namespace spvtune;

int run_cached_winner(const std::string& problem_file, const std::string& caches, std::int64_t n) {
    problem::LoadOptions load;
    load.kernel_dirs = {APP_KERNEL_DIR};  // the kernels installed with the package
    const problem::Problem problem = problem::load_problem(problem_file, load);
    const problem::ProblemKey key({{"n", n}});

    // The default device (a discrete GPU, else integrated, else lavapipe); SPVTUNE_VALIDATION=1
    // adds the validation layer.
    vulkan::SelectedDevice selected("");
    vulkan::Device& device = selected.device();
    const tune::HardwareIdentity hardware = run::hardware_identity(device.info().identity);
    const auto found = cache::find_cache_file(caches, hardware, cache::DriverMismatch::refuse);
    if (!found) {
        std::cout << "no cache file for " << hardware.device_name << '\n';
        return 1;
    }
    const cache::CacheDocument document = cache::read_cache_file(found->file);
    std::cout << "cache file: " << found->file.string() << ", " << document.entry_count()
              << " entries\n";

    run::TuningOptions tuning;
    // Read-only: shipped files are never written, locked or moved, even when damaged.
    tuning.tuner.store = std::make_shared<cache::CacheFileStore>(
        caches, cache::CacheFileStoreOptions{.read_only = true});
    // Never measure: a key the cache lacks runs the nearest tuned key's winner, or the most
    // preferred candidate that can run it.
    tuning.tuner.miss_policy = tune::MissPolicy::run_nearest;
    run::ProblemTuning runner(problem, device, tuning);
    const run::KeyReport report = runner.tune(key);
    if (!report.ran) {
        std::cout << "error: " << report.error << '\n';
        return 1;
    }
    const std::string& ran = problem.candidates[*report.ran].name;
    std::cout << "answer: " << run::answer_source(report) << '\n';
    if (report.nearest_key) {
        std::cout << "not tuned: ran " << ran << ", the winner of the nearest tuned key "
                  << *report.nearest_key << '\n';
        return 0;
    }
    if (report.status == run::KeyStatus::untuned) {
        std::cout << "not tuned: ran " << ran << ", the most preferred candidate that can run it\n";
        for (const run::SkippedCandidate& skipped : report.skipped) {
            std::cout << "  passed over " << skipped.name << ": " << skipped.reason << '\n';
        }
        return 0;
    }
    const std::string winner = report.entry ? report.entry->winner_name : "";
    std::cout << "cache hit: ran " << ran << " (the cache's winner: " << winner << ")\n";
    return ran == winner ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: my_app PROBLEM.json CACHE_DIR N\n";
        return 2;
    }
    try {
        return run_cached_winner(argv[1], argv[2], std::stoll(argv[3]));
    } catch (const std::exception& error) {
        std::cerr << "error: " << error.what() << '\n';
        return 1;
    }
}
