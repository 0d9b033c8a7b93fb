// An application that tunes a problem through lib/run's front door (spvtune/run/run.hpp), as
// `spvtune tune` does: every key of the file is measured, or answered by the cache, each
// candidate in a worker process under a watchdog, and the winners are stored in the cache file of
// the device's hardware.
//
//   spvtune_example_tune PROBLEM.json CACHE_DIR [--in-process]

#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/run/run.hpp>

namespace {

using namespace spvtune;

int tune_problem(const std::string& file, const std::string& cache_dir, bool in_process) {
    run::SessionSettings settings;
    settings.cache_dir = cache_dir;
    settings.in_process = in_process;
    run::Session session(std::move(settings));
    const problem::Problem problem = problem::load_problem(file, session.load_options());
    std::cout << "device: " << session.device().identity.device_name << '\n';
    run::ProblemTuning tuning = session.tune(problem);
    int status = 0;
    for (const problem::KeyEntry& key : problem.keys) {
        const run::KeyReport report = tuning.tune(key.key);
        std::cout << problem::to_string(report.key) << ": "
                  << nlohmann::json(report.status).get<std::string>();
        if (report.entry) {
            std::cout << ", winner " << report.entry->winner_name;
        } else {
            std::cout << ": " << report.error;
            status = 1;
        }
        std::cout << '\n';
    }
    session.finish();
    std::cout << "cache file: " << session.cache_file().string() << '\n';
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    // A worker process the session started: it does what its setup message says.
    if (argc == 2 && argv[1] == run::worker_argument) {
        return run::worker_main();
    }
    const bool in_process = argc == 4 && std::string_view(argv[3]) == "--in-process";
    if (argc != 3 && !in_process) {
        std::cerr << "usage: " << argv[0] << " PROBLEM.json CACHE_DIR [--in-process]\n";
        return 2;
    }
    try {
        return tune_problem(argv[1], argv[2], in_process);
    } catch (const problem::ProblemError& error) {
        for (const problem::Diagnostic& diagnostic : error.diagnostics()) {
            std::cerr << format(diagnostic) << '\n';
        }
    } catch (const std::exception& error) {
        std::cerr << "error: " << error.what() << '\n';
    }
    return 1;
}
