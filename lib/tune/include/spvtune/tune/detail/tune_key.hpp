#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/detail/event_context.hpp>
#include <spvtune/tune/detail/utc_time.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/tune_entry.hpp>
#include <spvtune/tune/tune_error.hpp>
#include <spvtune/tune/tuner_options.hpp>

namespace spvtune::tune::detail {

inline void sort_by_index(std::vector<CandidateFailure>& failures) {
    std::stable_sort(
        failures.begin(), failures.end(),
        [](const CandidateFailure& a, const CandidateFailure& b) { return a.index < b.index; });
}

inline TuneError no_viable_candidate(std::string_view headline,
                                     std::vector<CandidateFailure> failures) {
    sort_by_index(failures);
    return TuneError{describe_failures(headline, failures), std::move(failures)};
}

/// The candidates allowed to run for `key`, most preferred first (priority, then registration
/// order); those with a negative priority go to `failures` as skipped.
template <class Set>
std::vector<BenchmarkCandidate> runnable_candidates(const Set& set,
                                                    const typename Set::KeyType& key,
                                                    std::vector<CandidateFailure>& failures) {
    std::vector<BenchmarkCandidate> runnable;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const std::string& name = set.candidate(i).name;
        const int priority = set.priority(i, key);
        if (priority < 0) {
            failures.push_back({name, i, FailureKind::skipped,
                                "priority " + std::to_string(priority) + " for this key"});
        } else {
            runnable.push_back({i, name, priority});
        }
    }
    std::stable_sort(runnable.begin(), runnable.end(),
                     [](const BenchmarkCandidate& a, const BenchmarkCandidate& b) {
                         return a.priority > b.priority;
                     });
    return runnable;
}

/// Runs the most preferred candidate that succeeds, without measuring: what Pending and
/// compile-only calls do. With `prepare_first`, every runnable candidate is prepared before any
/// runs, and one that fails to prepare is not run.
template <class Set>
Result<typename Set::OutputType, TuneError> run_preferred(
    const Set& set, const typename Set::KeyType& key, const typename Set::InputsType& inputs,
    bool prepare_first, LookupSource source, ExecutionInfo* info, std::string_view headline,
    const EventContext& events) {
    std::vector<CandidateFailure> failures;
    std::vector<BenchmarkCandidate> order = runnable_candidates(set, key, failures);
    if (prepare_first) {
        std::erase_if(order, [&](const BenchmarkCandidate& c) {
            events.emit(TuneEventKind::candidate_started, c.name);
            Status prepared = set.prepare(c.index);
            if (!prepared) {
                failures.push_back({std::string(c.name), c.index, FailureKind::error,
                                    "prepare: " + prepared.error()});
            }
            return !prepared;
        });
    }
    for (const BenchmarkCandidate& c : order) {
        events.emit(TuneEventKind::candidate_started, c.name);
        auto out = set.run(c.index, inputs);
        if (out) {
            if (info != nullptr) {
                *info = {source, c.index, nullptr};
            }
            return std::move(out).value();
        }
        failures.push_back({std::string(c.name), c.index, FailureKind::error, out.error()});
    }
    return make_unexpected(no_viable_candidate(headline, std::move(failures)));
}

/// Checks mode: runs every candidate on the inputs (each producing its own output) and keeps
/// those whose output matches the reference candidate's; the others go to `failures`.
///
/// The reference runs first and only its output is kept: every other output is compared as soon
/// as it exists and dropped, so checking N candidates holds two outputs at a time, not N (a
/// 65,536-point grid with 64 KiB of output would otherwise hold 4 GiB).
template <class Set>
std::vector<BenchmarkCandidate> check_outputs(const Set& set,
                                              const typename Set::InputsType& inputs,
                                              std::vector<BenchmarkCandidate> live,
                                              std::vector<CandidateFailure>& failures,
                                              const EventContext& events) {
    const auto run_or_fail = [&](const BenchmarkCandidate& c) {
        events.emit(TuneEventKind::candidate_started, c.name);
        auto out = set.run(c.index, inputs);
        if (!out) {
            failures.push_back(
                {std::string(c.name), c.index, FailureKind::error, "checks run: " + out.error()});
        }
        return out;
    };
    const std::size_t reference = set.reference_index(inputs);
    std::optional<typename Set::OutputType> want;
    const auto reference_entry =
        std::find_if(live.begin(), live.end(),
                     [&](const BenchmarkCandidate& c) { return c.index == reference; });
    if (reference_entry != live.end()) {
        auto out = run_or_fail(*reference_entry);
        if (out) {
            want = std::move(out).value();
        } else {
            live.erase(reference_entry);
        }
    }
    std::erase_if(live, [&](const BenchmarkCandidate& c) {
        if (c.index == reference) {
            return false;
        }
        auto out = run_or_fail(c);
        if (!out) {
            return true;
        }
        if (!want) {
            return false;
        }
        std::optional<std::string> mismatch = set.comparison()(*want, out.value());
        if (mismatch) {
            failures.push_back(
                {std::string(c.name), c.index, FailureKind::wrong_output,
                 "differs from '" + set.candidate(reference).name + "': " + *mismatch});
        }
        return mismatch.has_value();
    });
    if (!want) {
        events.emit(TuneEventKind::checks_note, {},
                    "the reference candidate produced no output; outputs were not compared");
    }
    return live;
}

/// Tunes one key: decides which candidates may run, checks outputs when asked, benchmarks them
/// (unless only one is left) and returns the settled entry, or every candidate's reason.
template <class Set>
Result<TuneEntry, TuneError> tune_key(const Set& set, const typename Set::KeyType& key,
                                      const typename Set::InputsType& inputs,
                                      const TunerOptions& options, const EventContext& events,
                                      std::string_view headline) {
    std::vector<CandidateFailure> failures;
    std::vector<BenchmarkCandidate> live = runnable_candidates(set, key, failures);
    if (options.checks && set.comparison()) {
        live = check_outputs(set, inputs, std::move(live), failures, events);
    }
    TuneEntry entry;
    const bool measure_lone =
        options.measure_lone_candidate || options.sampling.mode == SamplingMode::fixed;
    if (live.size() == 1 && !measure_lone) {
        // Nothing to choose between: no benchmark, and statistics stay empty (0 samples).
        RankedCandidate only;
        only.name = live.front().name;
        only.index = live.front().index;
        entry.ranking.push_back(std::move(only));
    } else if (!live.empty()) {
        BenchmarkOutcome outcome = run_benchmark(live, options.sampling, [&](std::size_t index) {
            events.emit(TuneEventKind::candidate_started, set.candidate(index).name);
            return set.measure(index, inputs);
        });
        entry.ranking = std::move(outcome.ranking);
        failures.insert(failures.end(), outcome.failures.begin(), outcome.failures.end());
    }
    if (entry.ranking.empty()) {
        return make_unexpected(no_viable_candidate(headline, std::move(failures)));
    }
    sort_by_index(failures);
    entry.winner_name = entry.ranking.front().name;
    entry.winner_index = entry.ranking.front().index;
    entry.failures = std::move(failures);
    entry.tuned_at = utc_now_iso8601();
    entry.settings = options.sampling;
    entry.settings.update(options.recorded_settings);
    return entry;
}

}  // namespace spvtune::tune::detail
