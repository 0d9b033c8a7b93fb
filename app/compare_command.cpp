#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <spvtune/base/output_file.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/suggest.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/problem_comparison.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/run/session.hpp>
#include <spvtune/tune/anchor.hpp>

#include "command.hpp"
#include "compare/compare_reports.hpp"
#include "compare/saved_results.hpp"
#include "device_options.hpp"
#include "key_filter.hpp"
#include "path_options.hpp"
#include "problem_loading.hpp"
#include "sampling_options.hpp"
#include "terminal_color.hpp"

namespace spvtune::app {
namespace {

struct CompareOptions {
    std::vector<std::string> files;
    std::string baseline;
    std::vector<std::string> contenders;
    std::string base_kernel_dir;
    std::string new_kernel_dir;
    bool results = false;
    std::string device;
    std::string cache_dir;
    std::vector<std::string> kernel_dirs;
    std::vector<std::string> key_filters;
    double threshold_percent = 5;
    std::optional<double> fail_if_slower_percent;
    std::string inconclusive = "warn";
    double budget_s = default_budget_s;
    std::string json_out;
    std::string markdown_out;
    std::string junit_out;
    bool in_process = false;
    problem::Settings overrides;
    ColorMode color = ColorMode::automatic;
};

/// A usage mistake: reported with exit code 2 before anything runs.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One side of the comparison: a loaded problem and what runs its candidates.
struct Side {
    problem::Problem problem;
    std::string source;         ///< the file, or the file and kernel directory, for reports
    problem::LoadOptions load;  ///< how `problem` was loaded, for its worker to load it again
    std::unique_ptr<run::CandidateExecutor> executor;
    std::unique_ptr<run::ProblemRunner> runner;
};

std::vector<std::string> candidate_names(const problem::Problem& problem) {
    std::vector<std::string> names;
    for (const problem::Candidate& candidate : problem.candidates) {
        names.push_back(candidate.name);
    }
    return names;
}

/// The candidates a name selects: the candidate of that name, or every point of the family.
std::vector<std::size_t> select_candidates(const problem::Problem& problem, const std::string& name,
                                           const char* option) {
    std::vector<std::size_t> selected;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        const problem::Candidate& candidate = problem.candidates[i];
        if (candidate.name == name) {
            return {i};
        }
        if (problem.families[candidate.family].name == name) {
            selected.push_back(i);
        }
    }
    if (selected.empty()) {
        std::vector<std::string> names = candidate_names(problem);
        for (const problem::CandidateFamily& family : problem.families) {
            names.push_back(family.name);
        }
        std::string message = problem.file.string() + ": " + option + " " + name +
                              ": no candidate or family of that name";
        if (const auto hint = problem::did_you_mean(name, names)) {
            message += "; did you mean '" + *hint + "'?";
        }
        throw UsageError(message);
    }
    return selected;
}

/// How one side's problem loads: its own kernel directory (--base-kernel-dir or
/// --new-kernel-dir) before the shared --kernel-dir ones.
problem::LoadOptions side_load_options(const run::Session& session, const std::string& extra_dir) {
    if (extra_dir.empty()) {
        return session.load_options();
    }
    return session.load_options({extra_dir});
}

Side& load_side(run::Session& session, std::deque<Side>& sides, const std::string& file,
                const std::string& extra_dir) {
    problem::LoadOptions load = side_load_options(session, extra_dir);
    const LoadedFile loaded = load_problem_file(file, load);
    if (!loaded.problem) {
        throw UsageError(file + ": invalid problem file (" + std::to_string(loaded.errors) +
                         " errors above)");
    }
    std::string source = extra_dir.empty() ? file : file + " with " + extra_dir;
    sides.push_back(Side{*loaded.problem, std::move(source), std::move(load), {}, {}});
    return sides.back();
}

tune::ComparisonSettings comparison_settings(const problem::Problem& problem,
                                             const CompareOptions& options) {
    // A file's `samples` sizes its tune; compare samples until its verdicts settle or its budget
    // runs out, capped only by --samples given here.
    problem::Settings file = problem.settings;
    file.samples.reset();
    const tune::SamplingSettings sampling = run::sampling_settings(file, options.overrides);
    tune::ComparisonSettings settings;
    settings.threshold = options.threshold_percent / 100;
    settings.warmup_runs = sampling.warmup_runs;
    settings.min_samples = sampling.min_samples;
    settings.max_samples =
        options.overrides.samples ? sampling.max_samples : problem::max_sample_count;
    settings.time_budget = sampling.time_budget;
    return settings;
}

/// Whether the command compares two sides (two files, or one file with two kernel folders)
/// rather than candidates within one file.
bool compares_two_sides(const CompareOptions& options) {
    return options.files.size() == 2 || !options.base_kernel_dir.empty();
}

/// The options as the session takes them.
run::SessionSettings session_settings(const CompareOptions& options, tune::AutotuneLevel level) {
    run::SessionSettings settings;
    settings.device = options.device;
    // Two sides measured in two worker processes disagree about the very same kernel by up to
    // 40% on lavapipe (each process's device has its own state), so both sides share this
    // process's device; one side alone keeps its worker's isolation.
    settings.in_process = options.in_process || compares_two_sides(options);
    settings.cache_dir = options.cache_dir;
    settings.kernel_dirs.assign(options.kernel_dirs.begin(), options.kernel_dirs.end());
    settings.overrides = options.overrides;
    settings.level = level;
    return settings;
}

/// The arms of one comparison: a baseline and its contenders, each a side and a candidate.
struct Lineup {
    std::vector<std::pair<Side*, std::size_t>> arms;  ///< the baseline first
};

/// Whether every side's problem has `key`.
bool on_every_side(const std::deque<Side>& sides, const problem::ProblemKey& key) {
    return std::all_of(sides.begin(), sides.end(), [&](const Side& side) {
        return std::any_of(side.problem.keys.begin(), side.problem.keys.end(),
                           [&](const problem::KeyEntry& other) { return other.key == key; });
    });
}

/// The run's --budget, shared out as the comparisons go: each gets an equal part of what is left,
/// so one that settles early leaves its time to the rest.
class RunBudget {
  public:
    RunBudget(double seconds, std::size_t comparisons)
        : deadline_(std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(seconds))),
          left_(comparisons) {}

    /// The next comparison's settings: its share of the time left, or the key's own
    /// --time-budget when that is shorter. A spent budget still lets it measure one round.
    tune::ComparisonSettings next(const tune::ComparisonSettings& settings) {
        tune::ComparisonSettings shared = settings;
        const auto left = std::max(deadline_ - std::chrono::steady_clock::now(),
                                   std::chrono::steady_clock::duration::zero());
        auto share = std::chrono::duration_cast<std::chrono::milliseconds>(
            left / static_cast<std::int64_t>(std::max<std::size_t>(left_, 1)));
        share = std::max(share, std::chrono::milliseconds(1));
        shared.time_budget = settings.time_budget ? std::min(*settings.time_budget, share) : share;
        left_ = left_ > 0 ? left_ - 1 : 0;
        return shared;
    }

  private:
    std::chrono::steady_clock::time_point deadline_;
    std::size_t left_;
};

/// Measures every lineup on `key` into `group`.
void compare_lineups(const std::deque<Side>& sides, const std::vector<Lineup>& lineups,
                     const problem::ProblemKey& key, const run::DeviceLimits& limits,
                     tune::AutotuneLevel level, RunBudget& budget, const CompareRun& run,
                     ComparisonGroup& group) {
    for (const Lineup& lineup : lineups) {
        std::vector<run::ComparisonArm> arms;
        for (const auto& [side, candidate] : lineup.arms) {
            arms.push_back({&side->problem, side->runner.get(), candidate});
        }
        std::cerr << "spvtune: comparing " << problem::to_string(key) << ": "
                  << sides.front().problem.candidates[lineup.arms.front().second].name
                  << " against " << arms.size() - 1 << " contender(s)\n";
        group.keys.push_back(run::compare_key(arms, key, limits, level, budget.next(run.settings)));
    }
}

/// Measures every lineup on every selected key and collects what was found.
CompareRun measure(run::Session& session, std::deque<Side>& sides,
                   const std::vector<Lineup>& lineups, const KeyFilter& filter, CompareRun run) {
    ComparisonGroup group{
        sides.front().problem.name, sides.front().source, sides.back().source, {}};
    std::vector<problem::ProblemKey> keys;
    std::size_t selected_keys = 0;
    for (const problem::KeyEntry& entry : sides.front().problem.keys) {
        if (!filter.matches(entry.key)) {
            continue;
        }
        ++selected_keys;
        if (!on_every_side(sides, entry.key)) {
            run.warnings.push_back(problem::to_string(entry.key) + " is only in " +
                                   sides.front().source + ": not compared");
            continue;
        }
        keys.push_back(entry.key);
    }
    // Before the look at the device: their workers start meanwhile. None for no key.
    if (!keys.empty()) {
        for (Side& side : sides) {
            side.executor = session.executor(side.problem, side.load);
            side.runner = std::make_unique<run::ProblemRunner>(side.problem, *side.executor);
        }
    }
    run.device = session.device().identity.device_name;
    run.hardware = session.hardware().record;
    const run::DeviceLimits limits = run::DeviceLimits::from(session.device());
    // The family whose verdicts hold together: every contender of every key compared.
    std::size_t contenders = 0;
    for (const Lineup& lineup : lineups) {
        contenders += lineup.arms.size() - 1;
    }
    run.settings.family_size = std::max<std::size_t>(keys.size() * contenders, 1);
    RunBudget budget(*run.budget_s, keys.size() * lineups.size());
    for (const problem::ProblemKey& key : keys) {
        compare_lineups(sides, lineups, key, limits, session.settings().level, budget, run, group);
    }
    // The executors hold pipelines and buffers of the in-process device: gone before it is.
    for (Side& side : sides) {
        side.runner.reset();
        side.executor.reset();
    }
    if (selected_keys == 0) {
        throw UsageError("no key matches --key " + filter.describe());
    }
    run.groups.push_back(std::move(group));
    return run;
}

/// `compare PROBLEM --baseline A --contender B...`: arms within one problem file.
CompareRun compare_candidates(run::Session& session, const CompareOptions& options,
                              const KeyFilter& filter, CompareRun run) {
    std::deque<Side> sides;
    Side& side = load_side(session, sides, options.files.front(), "");
    const std::vector<std::size_t> baseline =
        select_candidates(side.problem, options.baseline, "--baseline");
    if (baseline.size() != 1) {
        throw UsageError("--baseline " + options.baseline + " selects " +
                         std::to_string(baseline.size()) + " candidates; name one of them, e.g. " +
                         side.problem.candidates[baseline.front()].name);
    }
    Lineup lineup{{{&side, baseline.front()}}};
    std::set<std::size_t> chosen{baseline.front()};
    for (const std::string& name : options.contenders) {
        for (const std::size_t candidate : select_candidates(side.problem, name, "--contender")) {
            if (chosen.insert(candidate).second) {
                lineup.arms.emplace_back(&side, candidate);
            }
        }
    }
    if (lineup.arms.size() < 2) {
        throw UsageError("--contender selects only the baseline itself: nothing to compare");
    }
    run.mode = "candidates";
    return measure(session, sides, {lineup}, filter, std::move(run));
}

/// `compare BASE NEW` or `compare PROBLEM --base-kernel-dir A --new-kernel-dir B`: every
/// candidate found on both sides, the base side's as the baseline.
CompareRun compare_files(run::Session& session, const CompareOptions& options,
                         const KeyFilter& filter, CompareRun run) {
    std::deque<Side> sides;
    load_side(session, sides, options.files.front(), options.base_kernel_dir);
    load_side(session, sides, options.files.back(), options.new_kernel_dir);
    Side& base = sides.front();
    Side& contender = sides.back();
    std::vector<Lineup> lineups;
    for (std::size_t i = 0; i < base.problem.candidates.size(); ++i) {
        const problem::Candidate* match =
            contender.problem.find_candidate(base.problem.candidates[i].name);
        if (match == nullptr) {
            run.removed.push_back(base.problem.candidates[i].name);
            continue;
        }
        const auto index = static_cast<std::size_t>(match - contender.problem.candidates.data());
        lineups.push_back(Lineup{{{&base, i}, {&contender, index}}});
    }
    for (const problem::Candidate& candidate : contender.problem.candidates) {
        if (base.problem.find_candidate(candidate.name) == nullptr) {
            run.added.push_back(candidate.name);
        }
    }
    if (lineups.empty()) {
        throw UsageError(base.source + " and " + contender.source +
                         " have no candidate name in common: nothing to compare");
    }
    run.mode = "files";
    return measure(session, sides, lineups, filter, std::move(run));
}

void check_usage(const CompareOptions& options) {
    const bool kernel_dirs = !options.base_kernel_dir.empty() || !options.new_kernel_dir.empty();
    const bool named = !options.baseline.empty() || !options.contenders.empty();
    if (!(options.threshold_percent > 0 && options.threshold_percent < 100)) {
        throw UsageError("--threshold: expected a percentage above 0 and below 100");
    }
    if (options.fail_if_slower_percent &&
        !(std::isfinite(*options.fail_if_slower_percent) && *options.fail_if_slower_percent >= 0)) {
        throw UsageError("--fail-if-slower: expected a percentage of 0 or more");
    }
    if (options.inconclusive == "fail" && !options.fail_if_slower_percent) {
        throw UsageError(
            "--inconclusive fail decides what the gate does with an undecided arm: give the gate "
            "too, e.g. --fail-if-slower 5");
    }
    if (options.results) {
        if (options.files.size() != 2 || named || kernel_dirs) {
            throw UsageError(
                "--results compares two saved `tune --json` reports: spvtune "
                "compare --results OLD.json NEW.json");
        }
        return;
    }
    if (options.files.size() == 2) {
        if (named) {
            throw UsageError(
                "with two problem files every candidate found in both is compared; "
                "--baseline and --contender select candidates within one file");
        }
        return;
    }
    if (kernel_dirs) {
        if (options.base_kernel_dir.empty() || options.new_kernel_dir.empty() || named) {
            throw UsageError(
                "one problem file with two kernel directories needs both "
                "--base-kernel-dir and --new-kernel-dir, and no --baseline or "
                "--contender");
        }
        return;
    }
    if (options.baseline.empty() || options.contenders.empty()) {
        throw UsageError(
            "name what to compare: spvtune compare PROBLEM.json --baseline A "
            "--contender B, or two problem files, or --base-kernel-dir and "
            "--new-kernel-dir, or --results OLD.json NEW.json");
    }
}

void write_report(const std::string& path, const std::string& content, const char* what) {
    if (path.empty()) {
        return;
    }
    try {
        base::write_output_file(path, content);
    } catch (const std::system_error& error) {
        throw std::runtime_error(std::string("cannot write the ") + what +
                                 " report: " + error.what());
    }
}

int run_compare(CompareOptions& options) {
    CompareRun run;
    try {
        check_usage(options);
        const auto filter = KeyFilter::parse(options.key_filters);
        if (!filter) {
            throw UsageError(filter.error());
        }
        if (const auto conflict = sample_count_conflict({}, options.overrides)) {
            throw UsageError(*conflict);
        }
        if (options.fail_if_slower_percent) {
            run.fail_if_slower = *options.fail_if_slower_percent / 100;
        }
        for (const InconclusivePolicy policy :
             {InconclusivePolicy::pass, InconclusivePolicy::warn, InconclusivePolicy::fail}) {
            if (options.inconclusive == inconclusive_policy_name(policy)) {
                run.inconclusive = policy;
            }
        }
        if (options.results) {
            tune::ComparisonSettings settings;
            settings.threshold = options.threshold_percent / 100;
            const CompareRun saved = compare_saved_results(
                options.files.front(), options.files.back(), filter.value(), settings);
            const std::optional<double> gate = run.fail_if_slower;
            const InconclusivePolicy policy = run.inconclusive;
            run = saved;
            run.fail_if_slower = gate;
            run.inconclusive = policy;
        } else {
            const auto level = tune::autotune_level_from_env();
            if (!level) {
                throw UsageError(level.error());
            }
            run::Session session(session_settings(options, level.value()));
            // The settings come from the base side's file under the command line.
            const LoadedFile first = load_problem_file(
                options.files.front(), side_load_options(session, options.base_kernel_dir));
            if (!first.problem) {
                return exit_usage;
            }
            // The file's `samples` sizes its tune, not a comparison (comparison_settings): only
            // --samples caps the rounds, so only it can be below a min_samples.
            problem::Settings file_settings = first.problem->settings;
            file_settings.samples.reset();
            if (const auto conflict = sample_count_conflict(file_settings, options.overrides)) {
                throw UsageError(options.files.front() + ": " + *conflict);
            }
            run.settings = comparison_settings(*first.problem, options);
            run.budget_s = options.budget_s;
            run = compares_two_sides(options)
                      ? compare_files(session, options, filter.value(), std::move(run))
                      : compare_candidates(session, options, filter.value(), std::move(run));
        }
    } catch (const UsageError& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
        return exit_usage;
    } catch (const std::runtime_error& error) {
        if (options.results) {
            std::cerr << "spvtune: error: " << error.what() << '\n';
            return exit_usage;
        }
        throw;
    }

    judge_run(run);
    const CompareSummary summary = summarize(run);
    // The files first: when one cannot be written, the run fails before the terminal report.
    write_report(options.json_out, compare_json(run).dump(2) + "\n", "JSON");
    write_report(options.markdown_out, compare_markdown(run), "Markdown");
    write_report(options.junit_out, compare_junit(run), "JUnit");
    const bool report_on_stdout =
        options.json_out == "-" || options.markdown_out == "-" || options.junit_out == "-";
    std::ostream& terminal = report_on_stdout ? std::cerr : std::cout;
    print_compare_report(terminal, run, summary, Palette::for_stream(options.color, terminal));
    return compare_exit_code(run, summary);
}

}  // namespace

CommandAction register_compare_command(CLI::App& parent) {
    auto options = std::make_shared<CompareOptions>();
    auto* command = parent.add_subcommand(
        "compare", "Compare kernel variants with a baseline: ratio, confidence and a CI gate");
    command
        ->add_option("files", options->files,
                     "One problem file (with --baseline/--contender, or --base-kernel-dir and "
                     "--new-kernel-dir), two problem files BASE NEW, or with --results two "
                     "saved tune --json reports OLD NEW")
        ->type_name("JSON")
        ->required()
        ->expected(1, 2)
        ->check(existing(PathKind::file));
    command->add_option("--baseline", options->baseline,
                        "The candidate the others are compared with (a name as tune prints it)");
    command
        ->add_option("--contender", options->contenders,
                     "A candidate to compare with the baseline; a family name selects all its "
                     "points (repeatable)")
        ->allow_extra_args(false);
    command
        ->add_option("--base-kernel-dir", options->base_kernel_dir,
                     "With one problem file: the baseline's SPIR-V and GLSL directory")
        ->check(existing(PathKind::directory));
    command
        ->add_option("--new-kernel-dir", options->new_kernel_dir,
                     "With one problem file: the contenders' SPIR-V and GLSL directory")
        ->check(existing(PathKind::directory));
    command->add_flag("--results", options->results,
                      "Compare two saved `tune --json` reports (no device); OLD's samples are "
                      "the baseline");
    command->add_option("--threshold", options->threshold_percent,
                        "Percent difference below which variants count as equivalent (default: "
                        "5)");
    command->add_option("--fail-if-slower", options->fail_if_slower_percent,
                        "Exit 1 when a contender is slower than the baseline by more than this "
                        "percent with the run's family-wise 95% confidence, or its output is "
                        "wrong");
    command
        ->add_option("--inconclusive", options->inconclusive,
                     "What an arm still inconclusive when sampling ends does to the gate: pass, "
                     "warn (pass, named in a warning) or fail (default: warn)")
        ->check(CLI::IsMember({"pass", "warn", "fail"}))
        ->type_name("POLICY");
    char budget_help[160];
    std::snprintf(budget_help, sizeof budget_help,
                  "Seconds of measuring the whole run may take; each key and lineup samples until "
                  "its verdicts settle or its share runs out (default: %g)",
                  default_budget_s);
    command->add_option("--budget", options->budget_s, budget_help)
        ->check(number_from(0, false))
        ->type_name("S");
    add_device_option(*command, options->device);
    add_cache_dir_option(*command, options->cache_dir, "Cache directory, for compiled GLSL");
    add_kernel_dir_option(*command, options->kernel_dirs);
    command
        ->add_option("--key", options->key_filters,
                     "Only the keys with these parameter values, e.g. n=4096 (repeatable)")
        ->allow_extra_args(false);
    add_measurement_options(*command, options->overrides);
    command
        ->add_option("--json", options->json_out,
                     "Write the comparison as JSON to this file (- for stdout)")
        ->type_name("FILE");
    command
        ->add_option("--markdown", options->markdown_out,
                     "Write a Markdown table to this file, e.g. $GITHUB_STEP_SUMMARY")
        ->type_name("FILE");
    command
        ->add_option("--junit", options->junit_out,
                     "Write JUnit XML to this file: a test case per key and contender")
        ->type_name("FILE");
    command->add_flag("--in-process", options->in_process,
                      "Run the candidates in this process rather than in worker processes");
    return [options, command] {
        options->color = color_mode(*command);
        return run_compare(*options);
    };
}

}  // namespace spvtune::app
