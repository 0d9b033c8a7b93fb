#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/output_dump.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/run/session.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/result.hpp>

#include "command.hpp"
#include "device_options.hpp"
#include "help_text.hpp"
#include "key_filter.hpp"
#include "path_options.hpp"
#include "problem_loading.hpp"
#include "report/console_reporter.hpp"
#include "report/fan_out_reporter.hpp"
#include "report/html_report.hpp"
#include "report/json_reporter.hpp"
#include "sampling_options.hpp"
#include "shard.hpp"
#include "shard_costs.hpp"
#include "terminal_color.hpp"

namespace spvtune::app {
namespace {

volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int) {
    interrupted = 1;
    // Said at once, since the key in progress may take a while; write() is async-signal-safe.
    static constexpr char notice[] =
        "\nspvtune: stopping after the key in progress; press Ctrl-C again to abandon it\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, notice, sizeof notice - 1);
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
    bool keep_ranking = false;
    bool compile_only = false;
    std::string json_out;
    std::string html_out;
    std::string dump_dir;
    bool quiet = false;
    bool verbose = false;
    bool fixed = false;
    bool in_process = false;
    bool no_pipeline_cache = false;
    std::optional<std::size_t> build_threads;
    std::string shard;
    std::optional<std::size_t> shard_count;
    std::string shard_costs;
    problem::Settings overrides;
    ColorMode color = ColorMode::automatic;
};

/// The options as the session takes them; the tuners' events go to `reporters`.
run::SessionSettings session_settings(const TuneOptions& options, tune::AutotuneLevel level,
                                      FanOutReporter& reporters) {
    run::SessionSettings settings;
    settings.device = options.device;
    settings.in_process = options.in_process;
    settings.cache_dir = options.cache_dir;
    settings.kernel_dirs.assign(options.kernel_dirs.begin(), options.kernel_dirs.end());
    settings.overrides = options.overrides;
    if (options.fixed) {
        settings.overrides.mode = problem::SamplingMode::fixed;
    }
    settings.level = level;
    settings.miss_policy =
        options.compile_only ? tune::MissPolicy::compile_only : tune::MissPolicy::tune;
    settings.retune = options.retune;
    settings.keep_ranking = options.keep_ranking;
    settings.pipeline_cache = !options.no_pipeline_cache;
    settings.build_threads = options.build_threads;
    settings.reporter = [&reporters](const tune::TuneEvent& event) {
        if (event.kind == tune::TuneEventKind::candidate_started) {
            reporters.candidate_started(event.candidate);
        } else {
            reporters.tune_event(event);
        }
    };
    if (options.verbose) {
        settings.note = [](const std::string& text) {
            std::cerr << "spvtune: note: " << text << '\n';
        };
    }
    return settings;
}

/// What the command line alone gets wrong, before any file is read.
std::optional<std::string> command_line_error(const TuneOptions& options) {
    if (options.json_out == "-" && options.html_out == "-") {
        return "--json - and --html - cannot both write to stdout";
    }
    // The command line alone first, then each file under it: one rule, as in a file.
    return sample_count_conflict({}, options.overrides);
}

struct SelectedKey {
    const problem::Problem* problem;
    const problem::KeyEntry* entry;
};

/// What the command line gets wrong about one of the files' settings.
std::optional<std::string> settings_error(const std::vector<problem::Problem>& problems,
                                          const TuneOptions& options) {
    for (const problem::Problem& problem : problems) {
        if (const auto conflict = sample_count_conflict(problem.settings, options.overrides)) {
            return problem.file.string() + ": " + *conflict;
        }
    }
    return std::nullopt;
}

/// "6006", "1.049e+07": a planned cost, in candidates x problem size.
std::string cost_text(double cost) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", cost);
    return text;
}

/// Replaces the units' estimated costs by the tuning times `recorded` holds, in ns; a unit it
/// has none for gets its estimate scaled by the recorded units' time per estimated cost, so both
/// kinds are on one scale. Returns how many units had a recorded time (none: estimates kept).
std::size_t use_recorded_costs(std::vector<ShardWork>& units,
                               const std::vector<std::pair<std::string, std::string>>& addresses,
                               const RecordedCosts& recorded) {
    std::vector<std::optional<double>> times(units.size());
    double recorded_sum = 0;
    double estimated_sum = 0;
    std::size_t matched = 0;
    for (std::size_t unit = 0; unit < units.size(); ++unit) {
        times[unit] = recorded.find(addresses[unit].first, addresses[unit].second);
        if (times[unit]) {
            recorded_sum += *times[unit];
            estimated_sum += units[unit].cost;
            ++matched;
        }
    }
    if (matched == 0 || estimated_sum <= 0) {
        return 0;
    }
    for (std::size_t unit = 0; unit < units.size(); ++unit) {
        units[unit].cost = times[unit].value_or(units[unit].cost * recorded_sum / estimated_sum);
    }
    return matched;
}

/// The keys of `shard`, the shards balanced by cost (plan_shards): estimated, or the tuning
/// times an earlier cache recorded (`recorded`); the keys that share a cache entry (a tuning
/// key) are one unit, tuned by one shard. Says what every shard got.
std::vector<SelectedKey> shard_keys(std::vector<SelectedKey> work, const Shard& shard,
                                    tune::AutotuneLevel level, const RecordedCosts* recorded) {
    std::map<std::string, std::size_t> unit_of;  // by identity
    std::vector<ShardWork> units;
    std::vector<std::pair<std::string, std::string>> addresses;  // tuner, key JSON, per unit
    std::vector<std::size_t> unit_of_key;
    for (const SelectedKey& key : work) {
        const std::string key_json =
            tune::canonical_key_json(key.problem->tuning_key(key.entry->key, level));
        const std::string identity = key.problem->name + " " + key_json;
        const auto [found, added] = unit_of.try_emplace(identity, units.size());
        const double cost = estimated_cost(key.entry->key, key.problem->candidates.size());
        if (added) {
            units.push_back({identity, cost});
            addresses.emplace_back(key.problem->name, key_json);
        } else {
            units[found->second].cost = std::max(units[found->second].cost, cost);
        }
        unit_of_key.push_back(found->second);
    }
    const std::size_t measured = recorded ? use_recorded_costs(units, addresses, *recorded) : 0;
    const std::vector<std::size_t> plan = plan_shards(units, shard.count);
    std::vector<double> planned(shard.count, 0.0);
    std::vector<std::size_t> keys_per_shard(shard.count, 0);
    for (std::size_t unit = 0; unit < units.size(); ++unit) {
        planned[plan[unit]] += units[unit].cost;
    }
    std::vector<SelectedKey> mine;
    for (std::size_t i = 0; i < work.size(); ++i) {
        const std::size_t assigned = plan[unit_of_key[i]];
        ++keys_per_shard[assigned];
        if (assigned == shard.index) {
            mine.push_back(work[i]);
        }
    }
    std::cerr << "spvtune: shard " << shard.index + 1 << "/" << shard.count << " (from "
              << shard.source << "): " << mine.size() << " of " << work.size() << " keys; ";
    if (measured > 0) {
        std::cerr << "planned cost (tuning time recorded for " << measured << " of " << units.size()
                  << " cache entries, the rest estimated):";
    } else {
        std::cerr << "planned cost (candidates x problem size):";
    }
    for (std::size_t i = 0; i < shard.count; ++i) {
        std::cerr << (i == 0 ? " " : ", ") << "shard " << i + 1 << " "
                  << (measured > 0 ? cost_text(planned[i] / 1e9) + " s" : cost_text(planned[i]))
                  << " (" << keys_per_shard[i] << (keys_per_shard[i] == 1 ? " key)" : " keys)");
    }
    std::cerr << '\n';
    return mine;
}

/// The keys to tune, in the order of the files and of their keys: those `--key` selects, of
/// this shard (assigned by tuning key, so that the keys sharing a cache entry are tuned by one
/// shard); or the usage mistake that leaves none.
tune::Result<std::vector<SelectedKey>> select_keys(const std::vector<problem::Problem>& problems,
                                                   const TuneOptions& options,
                                                   tune::AutotuneLevel level) {
    const auto filter = KeyFilter::parse(options.key_filters);
    if (!filter) {
        return tune::fail(filter.error());
    }
    std::vector<SelectedKey> work;
    for (const problem::Problem& problem : problems) {
        for (const problem::KeyEntry& entry : problem.keys) {
            if (filter.value().matches(entry.key)) {
                work.push_back({&problem, &entry});
            }
        }
    }
    if (work.empty()) {
        return tune::fail("no key matches --key " + filter.value().describe());
    }
    const auto shard = choose_shard(options.shard, options.shard_count, process_environment);
    if (!shard) {
        return tune::fail(shard.error());
    }
    if (const std::optional<Shard>& mine = shard.value()) {
        std::optional<RecordedCosts> recorded;
        if (!options.shard_costs.empty()) {
            auto read = RecordedCosts::read(options.shard_costs);
            if (!read) {
                return tune::fail(read.error());
            }
            recorded = std::move(read).value();
        }
        return shard_keys(std::move(work), *mine, level, recorded ? &*recorded : nullptr);
    }
    if (!options.shard_costs.empty()) {
        return tune::fail("--shard-costs balances shards: give --shard I/N or run as an array job");
    }
    return work;
}

/// The report files first: when one cannot be written, the run fails before the console's
/// summary. The HTML page is drawn from the very record --json writes. With a report on stdout
/// (`--json -`, `--html -`), the tables go to stderr so a pipe gets only the report.
void add_reporters(FanOutReporter& reporters, const TuneOptions& options) {
    if (!options.json_out.empty() || !options.html_out.empty()) {
        reporters.add(std::make_unique<JsonReporter>(
            [json_sink =
                 options.json_out.empty() ? JsonReporter::Sink() : json_file_sink(options.json_out),
             html_out = options.html_out](const nlohmann::json& report) {
                if (json_sink) {
                    json_sink(report);
                }
                if (!html_out.empty()) {
                    write_html_report(html_out, html_report({{"this run", report}}));
                }
            }));
    }
    const bool report_on_stdout = options.json_out == "-" || options.html_out == "-";
    reporters.add(std::make_unique<ConsoleReporter>(
        options.quiet, options.verbose, report_on_stdout ? std::cerr : std::cout, options.color));
}

/// Tunes the selected keys, problem by problem, until they are done or Ctrl-C stops the run.
RunSummary tune_keys(run::Session& session, const std::vector<problem::Problem>& problems,
                     const std::vector<SelectedKey>& work, run::OutputDump* dump,
                     TuneReporter& reporters) {
    interrupted = 0;
    std::signal(SIGINT, on_interrupt);
    RunSummary summary{.total_keys = work.size()};
    for (const problem::Problem& problem : problems) {
        run::ProblemTuning tuning = session.tune(problem, dump);
        const ProblemRun problem_run{problem, tuning.options()};
        reporters.problem_started(problem_run);
        for (const SelectedKey& selected_key : work) {
            if (selected_key.problem != &problem || interrupted) {
                continue;
            }
            const KeyRun key{problem_run, *selected_key.entry, summary.done};
            reporters.key_started(key);
            const run::KeyReport key_report = tuning.tune(selected_key.entry->key);
            ++summary.done;
            if (key_report.status == run::KeyStatus::failed) {
                ++summary.failed;
            }
            reporters.key_finished(key, key_report);
        }
        reporters.problem_finished(problem_run);
        summary.faulted_candidates += tuning.faults().size();
    }
    std::signal(SIGINT, SIG_DFL);
    summary.interrupted = interrupted != 0;
    return summary;
}

int run_tune(const TuneOptions& options) {
    if (const auto error = command_line_error(options)) {
        std::cerr << "spvtune: error: " << *error << '\n';
        return exit_usage;
    }
    const auto level = tune::autotune_level_from_env();
    if (!level) {
        std::cerr << "spvtune: error: " << level.error() << '\n';
        return exit_usage;
    }
    FanOutReporter reporters;
    run::Session session(session_settings(options, level.value(), reporters));
    const auto problems = load_problem_files(options.files, session.load_options());
    if (!problems) {
        return exit_usage;
    }
    if (const auto error = settings_error(*problems, options)) {
        std::cerr << "spvtune: error: " << *error << '\n';
        return exit_usage;
    }
    const auto work = select_keys(*problems, options, level.value());
    if (!work) {
        std::cerr << "spvtune: error: " << work.error() << '\n';
        return exit_usage;
    }
    // Before any device work: a directory that cannot be made fails the run at once.
    std::optional<run::OutputDump> dump;
    if (!options.dump_dir.empty()) {
        try {
            dump.emplace(options.dump_dir);
        } catch (const std::runtime_error& error) {
            std::cerr << "spvtune: error: --dump-outputs: " << error.what() << '\n';
            return exit_usage;
        }
    }
    add_reporters(reporters, options);
    // Its start overlaps this process's own look at the device, which loads the drivers too.
    if (!work.value().empty()) {
        session.start_worker(*work.value().front().problem);
    }
    reporters.run_started(RunInfo{session.device().identity.device_name, session.hardware(),
                                  session.cache_file(), *problems, work.value().size()});
    const RunSummary summary =
        tune_keys(session, *problems, work.value(), dump ? &*dump : nullptr, reporters);
    session.finish();
    reporters.run_finished(summary);
    if (summary.interrupted) {
        return exit_interrupted;
    }
    // A candidate that hung or crashed fails the run, even when its key found a winner: a CI
    // job comparing variants must not pass with a broken one.
    return summary.failed > 0 || summary.faulted_candidates > 0 ? exit_failure : exit_success;
}

}  // namespace

CommandAction register_tune_command(CLI::App& parent) {
    auto options = std::make_shared<TuneOptions>();
    auto* command = parent.add_subcommand(
        "tune", "Measure the candidates of every key and store the winners in the cache");
    command->add_option("problems", options->files, "Problem description files (JSON)")
        ->type_name("JSON")
        ->required()
        ->check(existing(PathKind::file));
    add_device_option(*command, options->device);
    command->footer(footer_help(tune_environment_help()));
    add_cache_dir_option(*command, options->cache_dir, "Cache directory");
    add_kernel_dir_option(*command, options->kernel_dirs);
    command
        ->add_option("--key", options->key_filters,
                     "Only the files' keys with these parameter values, e.g. n=4096: a filter "
                     "that adds no key (repeatable; all must match)")
        ->allow_extra_args(false);
    command->add_flag("--retune", options->retune, "Measure again even if the cache has a result");
    command->add_flag("--keep-ranking", options->keep_ranking,
                      "Store every ranked candidate's statistics in the cache, not only those of "
                      "the winner and two runners-up and the others' order");
    command->add_flag("--compile-only", options->compile_only,
                      "Compile every candidate's pipeline; measure and record nothing");
    command
        ->add_option("--json", options->json_out,
                     "Write the full results as JSON to this file (- for stdout)")
        ->check(file_path());
    command
        ->add_option("--html", options->html_out,
                     "Write the results as a self-contained HTML page with charts, as spvtune "
                     "report does (- for stdout)")
        ->check(file_path());
    command
        ->add_option("--dump-outputs", options->dump_dir,
                     "Write every checked output each candidate (and each key's reference) "
                     "produces to this directory, for spvtune show-output")
        ->type_name("DIR");
    auto* quiet = command->add_flag("-q,--quiet", options->quiet, "Print only failures");
    command->add_flag("-v,--verbose", options->verbose, "Print the ranking of cached keys too")
        ->excludes(quiet);
    add_sampling_options(*command, options->overrides, options->fixed);
    add_search_options(*command, options->overrides);
    command->add_option("--shard", options->shard,
                        "Tune only shard I of N of the keys (I from 1 to N), for array jobs; "
                        "default: from Slurm, a Kubernetes indexed Job or GitLab parallel");
    command->add_option("--shard-count", options->shard_count,
                        "With a Kubernetes indexed Job: the Job's completions (the shard count)");
    command
        ->add_option("--shard-costs", options->shard_costs,
                     "Balance the shards by the tuning times this earlier cache directory "
                     "records (give every shard the same one); default: candidates x problem "
                     "size")
        ->type_name("DIR")
        ->check(existing(PathKind::directory));
    command->add_flag("--in-process", options->in_process,
                      "Run the candidates in this process rather than in a worker process under "
                      "a watchdog (for debugging: a hung kernel then hangs the run)");
    command->add_flag("--no-pipeline-cache", options->no_pipeline_cache,
                      "Neither read nor write the pipeline cache file kept next to the cache "
                      "file (pipelines are then built from scratch)");
    command
        ->add_option("--build-threads", options->build_threads,
                     "Threads that build pipelines ahead while candidates are measured; 0 "
                     "builds each when it is needed (default: $SPVTUNE_BUILD_THREADS, else "
                     "min(2, cores), and 0 on a CPU device such as lavapipe)")
        ->check(CLI::Range(0, 64));
    return [options, command] {
        options->color = color_mode(*command);
        return run_tune(*options);
    };
}

}  // namespace spvtune::app
