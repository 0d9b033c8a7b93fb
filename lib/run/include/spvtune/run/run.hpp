#pragma once

/// The front door of the running library: include this one header.
///
/// It runs problems (spvtune::problem) on a Vulkan device: tunes their keys into the cache file
/// of the device's hardware, or measures candidates against each other. A Session holds what a
/// run shares (the device, the cache directory and store, how worker processes start); a
/// program turns its options into SessionSettings and reports what comes back:
///
///     run::SessionSettings settings;
///     settings.cache_dir = "tuned";  // empty: $SPVTUNE_CACHE_DIR, else the XDG cache directory
///     run::Session session(std::move(settings));
///     const problem::Problem problem =
///         problem::load_problem("saxpy.json", session.load_options());
///     run::ProblemTuning tuning = session.tune(problem);
///     for (const problem::KeyEntry& key : problem.keys) {
///         const run::KeyReport report = tuning.tune(key.key);  // measured, or from the cache
///         if (report.status == run::KeyStatus::failed) throw std::runtime_error(report.error);
///     }
///     session.finish();  // the cache file alone now holds the winners
///
/// By default the candidates run in worker processes under a watchdog, and a worker is this
/// very program started again with the one argument run::worker_argument, so its main begins:
///
///     if (argc == 2 && argv[1] == run::worker_argument) return run::worker_main();
///
/// (SessionSettings::in_process runs them in this process instead.) The program, compiled and
/// run by the tests, is lib/run/examples/tune_problem.cpp. For a comparison, a Session hands out
/// an executor per side (Session::executor) for compare_key; an application that only runs
/// shipped winners holds its own device and a read-only store and makes a ProblemTuning itself
/// (app/examples/shipped_cache.cpp).
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_dump.hpp>
#include <spvtune/run/problem_comparison.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/run/session.hpp>
#include <spvtune/run/worker_server.hpp>
