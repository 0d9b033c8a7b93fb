#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/detail/event_context.hpp>
#include <spvtune/tune/detail/utc_time.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/search.hpp>
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

/// Why a reference-only candidate is not among a key's runnable ones.
inline constexpr std::string_view reference_only_reason =
    "reference only: it checks the others and is never the winner";

/// The candidates allowed to run for `key`, most preferred first (priority, then registration
/// order); those with a negative priority, and reference-only ones, go to `failures` as skipped.
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
        } else if (set.reference_only(i)) {
            failures.push_back({name, i, FailureKind::skipped, std::string(reference_only_reason)});
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

/// The indices of `order`'s candidates, `first` (if among them) moved to the front: the
/// candidates a key runs, in the order it runs them, for TunableSet::prefetch.
inline std::vector<std::size_t> run_order(const std::vector<BenchmarkCandidate>& order,
                                          std::optional<std::size_t> first) {
    std::vector<std::size_t> indices;
    indices.reserve(order.size());
    for (const BenchmarkCandidate& c : order) {
        indices.push_back(c.index);
    }
    if (first) {
        const auto found = std::find(indices.begin(), indices.end(), *first);
        if (found != indices.end()) {
            std::rotate(indices.begin(), found, found + 1);
        }
    }
    return indices;
}

/// Whether a key's search measures every runnable candidate, so that building them all ahead
/// wastes nothing; a random or local search, or any under a budget or a limit, measures only
/// the points it proposes.
inline bool measures_every_candidate(const SearchSettings& search, SearchStrategy strategy) {
    return !search.budget && !search.max_candidates &&
           (strategy == SearchStrategy::exhaustive || strategy == SearchStrategy::halving);
}

/// Runs the most preferred candidate that succeeds, without measuring: what Pending and
/// compile-only calls do. With `prepare_first`, every runnable candidate is prepared before any
/// runs, and one that fails to prepare is not run. On success, `passed_over` (when given)
/// receives why each candidate that did not run was passed over.
template <class Set>
Result<typename Set::OutputType, TuneError> run_preferred(
    const Set& set, const typename Set::KeyType& key, const typename Set::InputsType& inputs,
    bool prepare_first, LookupSource source, ExecutionInfo* info, std::string_view headline,
    const EventContext& events, std::vector<CandidateFailure>* passed_over = nullptr) {
    std::vector<CandidateFailure> failures;
    std::vector<BenchmarkCandidate> order = runnable_candidates(set, key, failures);
    if (prepare_first) {
        set.prefetch(inputs, run_order(order, std::nullopt));
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
            if (passed_over != nullptr) {
                *passed_over = std::move(failures);
            }
            return std::move(out).value();
        }
        failures.push_back({std::string(c.name), c.index, FailureKind::error, out.error()});
    }
    return make_unexpected(no_viable_candidate(headline, std::move(failures)));
}

/// The output check of checks mode, one candidate at a time: runs a candidate and compares its
/// output with the reference candidate's, which must be checked first. Only the reference's
/// output is kept, and at most one witness's (below): every other is compared as soon as it
/// exists and dropped, so checking N candidates holds at most four outputs at a time, not N (a
/// 65,536-point grid with 64 KiB of output would otherwise hold 4 GiB). A search checks each
/// point it proposes this way.
///
/// A reference whose output is at fault (TunableSet::with_reference_fault), or that fails to
/// run, is the one reported, never the candidates: the next reference of the list runs at once
/// and is the truth instead, and with none left no candidate runs at all (reference_error says
/// why; with references that only failed to run, the candidates run unchecked).
///
/// A candidate that differs from the reference only where the reference may be wrong
/// (TunableSet::with_reference_witnesses) is held, not called wrong: its output is kept as the
/// witness. When a second one agrees with it there (or with one of the first few other held
/// ones, run again), the reference is at fault as above and the held candidates are judged
/// against the next reference; settle() gives their verdicts. A search measures the held
/// candidates meanwhile, and drops those found wrong before the winner is chosen.
template <class Set>
class OutputCheck {
  public:
    OutputCheck(const Set& set, const typename Set::InputsType& inputs, const EventContext& events)
        : set_(set),
          inputs_(inputs),
          events_(events),
          references_(set.references(inputs)),
          reference_(references_.front()) {}

    /// The reference in use: the most trusted until one at fault gives way to the next.
    std::size_t reference() const { return reference_; }

    /// The verdict on the candidate at `index`: nullopt when it may go on (its output matches,
    /// is not compared, or is held until settle()).
    std::optional<CandidateFailure> operator()(std::size_t index) {
        if (index == reference_ && !judged_) {
            return judge_references();
        }
        for (const CandidateFailure& failure : failed_references_) {
            if (failure.index == index) {
                return failure;  // a reference already run and reported
            }
        }
        return run_and_judge(index);
    }

    /// The verdicts given late: on the held candidates (judged against the reference that took
    /// over, or wrong when no second witness came) and on a reference that was taken and then
    /// found at fault by witnesses. Call once every candidate has been checked.
    std::vector<CandidateFailure> settle() {
        std::vector<CandidateFailure> verdicts = std::move(fallen_);
        fallen_.clear();
        while (!rejudged_.empty()) {
            Rejudged next = std::move(rejudged_.back());
            rejudged_.pop_back();
            std::optional<CandidateFailure> verdict =
                next.output ? judge(next.index, std::move(*next.output))
                            : run_and_judge(next.index);
            if (verdict) {
                verdicts.push_back(std::move(*verdict));
            }
        }
        // No second candidate agreed: the reference stands, and they differ from it.
        verdicts.insert(verdicts.end(), held_.begin(), held_.end());
        held_.clear();
        witness_.reset();
        return verdicts;
    }

    /// Says once, when the reference produced no output, that outputs were not compared.
    void note_unchecked() {
        if (!want_ && !faulted_ && !noted_) {
            noted_ = true;
            events_.emit(TuneEventKind::checks_note, {},
                         "the reference candidate produced no output; outputs were not compared");
        }
    }

    /// Why no output can be checked when a reference was at fault and none took over: each
    /// reference's reason, most trusted first; nullopt otherwise.
    std::optional<std::string> reference_error() const {
        if (want_ || !faulted_) {
            return std::nullopt;
        }
        std::string message;
        for (const CandidateFailure& failure : failed_references_) {
            message += (message.empty() ? "" : "; ") + failure.reason;
        }
        return message;
    }

    /// The references that were at fault or failed to run, most trusted first.
    const std::vector<CandidateFailure>& failed_references() const { return failed_references_; }

    /// The time of the latest run of the candidate at `index`, when the set reads one
    /// (TunableSet::with_run_reading).
    std::optional<Sample> reading(std::size_t index) const {
        const auto found = readings_.find(index);
        return found == readings_.end() ? std::nullopt : std::optional(found->second);
    }

  private:
    using Out = typename Set::OutputType;

    /// A held candidate to judge again against the reference that took over; only the witness
    /// comes with its output, the others run again.
    struct Rejudged {
        std::size_t index;
        std::optional<Out> output;
    };

    const std::string& name(std::size_t index) const { return set_.candidate(index).name; }

    /// Runs the candidate, keeping the run's reading for reading().
    Result<Out> run(std::size_t index) {
        Result<Out> out = set_.run(index, inputs_);
        if (out) {
            if (std::optional<Sample> timed = set_.run_reading(out.value())) {
                readings_.insert_or_assign(index, *timed);
            }
        }
        return out;
    }

    /// Runs the references, most trusted first, until one gives an output not at fault: that
    /// one is the truth. Returns the first reference's verdict.
    std::optional<CandidateFailure> judge_references() {
        judged_ = true;
        take_reference(0);
        const bool first_failed =
            !failed_references_.empty() && failed_references_.front().index == references_.front();
        return first_failed ? std::optional(failed_references_.front()) : std::nullopt;
    }

    /// Makes the first reference from `position` of the list whose run gives an output not at
    /// fault the truth; the ones before it give way.
    void take_reference(std::size_t position) {
        for (position_ = position; position_ < references_.size(); ++position_) {
            reference_ = references_[position_];
            events_.emit(TuneEventKind::candidate_started, name(reference_));
            auto out = run(reference_);
            if (!out) {
                give_way(FailureKind::error, "checks run: " + out.error());
                continue;
            }
            if (std::optional<std::string> fault = set_.reference_fault(out.value())) {
                faulted_ = true;
                give_way(FailureKind::wrong_output,
                         "the reference '" + name(reference_) + "' " + std::move(*fault));
                continue;
            }
            want_ = std::move(out).value();
            return;
        }
        // None is left: with only errors, the others run unchecked (note_unchecked says so).
    }

    /// Records why the reference in use cannot be the truth, and which one is tried next.
    void give_way(FailureKind kind, std::string reason) {
        if (position_ + 1 < references_.size()) {
            reason += "; checked against '" + name(references_[position_ + 1]) + "' instead";
            events_.emit(TuneEventKind::checks_note, name(reference_), reason);
        } else if (kind == FailureKind::wrong_output) {
            events_.emit(TuneEventKind::checks_note, name(reference_), reason);
        }
        failed_references_.push_back({name(reference_), reference_, kind, std::move(reason)});
    }

    std::optional<CandidateFailure> run_and_judge(std::size_t index) {
        if (index == reference_) {
            return std::nullopt;  // the reference that took over, run when it did
        }
        if (std::optional<std::string> error = reference_error()) {
            // Comparing with an output at fault would blame this candidate for it; running it
            // unchecked would let a wrong one win.
            return CandidateFailure{name(index), index, FailureKind::skipped,
                                    "not checked: " + *error};
        }
        events_.emit(TuneEventKind::candidate_started, name(index));
        auto out = run(index);
        if (!out) {
            return CandidateFailure{name(index), index, FailureKind::error,
                                    "checks run: " + out.error()};
        }
        return judge(index, std::move(out).value());
    }

    std::optional<CandidateFailure> judge(std::size_t index, Out out) {
        if (index == reference_) {
            return std::nullopt;
        }
        if (std::optional<std::string> error = reference_error()) {
            return CandidateFailure{name(index), index, FailureKind::skipped,
                                    "not checked: " + *error};
        }
        if (!want_) {
            note_unchecked();
            return std::nullopt;
        }
        std::optional<std::string> mismatch = set_.comparison()(*want_, out);
        if (!mismatch) {
            return std::nullopt;
        }
        CandidateFailure wrong{name(index), index, FailureKind::wrong_output,
                               "differs from '" + name(reference_) + "': " + *mismatch};
        if (std::optional<std::string> doubt = set_.reference_doubt(*want_, out)) {
            return hold(std::move(wrong), std::move(out), std::move(*doubt));
        }
        return wrong;
    }

    /// Holds the verdict on a candidate that casts doubt on the reference; the second one that
    /// agrees with an earlier one puts the reference at fault, and is judged against the next.
    std::optional<CandidateFailure> hold(CandidateFailure wrong, Out out, std::string doubt) {
        if (!witness_) {
            witness_ = std::move(out);
            witness_index_ = wrong.index;
            held_.push_back(std::move(wrong));
            return std::nullopt;
        }
        const std::optional<std::size_t> partner = set_.witnesses_agree(*want_, *witness_, out)
                                                       ? std::optional(witness_index_)
                                                       : agreeing_held(out);
        if (!partner) {
            held_.push_back(std::move(wrong));
            return std::nullopt;
        }
        for (CandidateFailure& held : held_) {
            rejudged_.push_back({held.index, held.index == witness_index_
                                                 ? std::optional<Out>(std::move(witness_))
                                                 : std::nullopt});
        }
        held_.clear();
        witness_.reset();
        faulted_ = true;
        want_.reset();
        give_way(FailureKind::wrong_output, "the reference '" + name(reference_) + "' " + doubt +
                                                " where '" + name(*partner) + "' and '" +
                                                wrong.name + "' agree on finite values");
        fallen_.push_back(failed_references_.back());
        take_reference(position_ + 1);
        return judge(wrong.index, std::move(out));
    }

    /// A held candidate other than the witness that agrees with `out`, found by running the
    /// first few of them again (their outputs were dropped): when the witness is itself wrong,
    /// the candidates that are right must still find each other.
    std::optional<std::size_t> agreeing_held(const Out& out) {
        std::size_t rerun = 0;
        for (const CandidateFailure& held : held_) {
            if (held.index == witness_index_) {
                continue;
            }
            if (rerun++ == rerun_witnesses) {
                break;
            }
            events_.emit(TuneEventKind::candidate_started, held.name);
            auto again = run(held.index);
            if (again && set_.witnesses_agree(*want_, again.value(), out)) {
                return held.index;
            }
        }
        return std::nullopt;
    }

    /// How many held candidates besides the witness a newcomer that disagrees with the witness
    /// is compared with: each costs a run, and many candidates that all disagree with each
    /// other where the reference is not finite would otherwise cost a run per pair.
    static constexpr std::size_t rerun_witnesses = 3;

    const Set& set_;
    const typename Set::InputsType& inputs_;
    const EventContext& events_;
    std::vector<std::size_t> references_;
    std::size_t reference_;
    /// Where reference_ is in references_.
    std::size_t position_ = 0;
    bool judged_ = false;
    /// Whether a reference's output was at fault (not merely missing).
    bool faulted_ = false;
    std::vector<CandidateFailure> failed_references_;
    std::optional<Out> want_;
    bool noted_ = false;
    /// The first candidate that cast doubt on the reference in use, and its output.
    std::optional<Out> witness_;
    std::size_t witness_index_ = 0;
    /// The verdicts held until a second witness agrees or settle() (the witness's among them).
    std::vector<CandidateFailure> held_;
    std::vector<Rejudged> rejudged_;
    /// References taken as the truth, then put at fault by witnesses.
    std::vector<CandidateFailure> fallen_;
    /// Each candidate's latest run's reading, by index.
    std::map<std::size_t, Sample> readings_;
};

/// Checks mode: runs every candidate on the inputs through `check`, the reference first, and
/// keeps those whose output matches the reference's; the others go to `failures`.
template <class Set>
std::vector<BenchmarkCandidate> check_outputs(OutputCheck<Set>& check,
                                              std::vector<BenchmarkCandidate> live,
                                              std::vector<CandidateFailure>& failures) {
    const auto fails = [&](const BenchmarkCandidate& c) {
        std::optional<CandidateFailure> failure = check(c.index);
        if (failure) {
            failures.push_back(std::move(*failure));
        }
        return failure.has_value();
    };
    const auto reference = std::find_if(live.begin(), live.end(), [&](const BenchmarkCandidate& c) {
        return c.index == check.reference();
    });
    if (reference != live.end() && fails(*reference)) {
        live.erase(reference);
    }
    // check.reference() is now the reference that took over, if one at fault gave way.
    std::erase_if(live, [&](const BenchmarkCandidate& c) {
        return c.index != check.reference() && fails(c);
    });
    for (CandidateFailure& verdict : check.settle()) {
        const auto erased = std::erase_if(
            live, [&](const BenchmarkCandidate& c) { return c.index == verdict.index; });
        if (erased != 0) {
            failures.push_back(std::move(verdict));
        }
    }
    check.note_unchecked();
    for (BenchmarkCandidate& c : live) {
        c.warm_reading = check.reading(c.index);
    }
    return live;
}

/// Checks mode with a reference-only reference, which is not among the runnable candidates
/// that check_outputs or a search run: runs the references now, so that the candidates are
/// compared with it. A reference that fails or is at fault replaces its "reference only" entry
/// in `failures` with why.
template <class Set>
void judge_reference_only(OutputCheck<Set>& check, std::vector<CandidateFailure>& failures) {
    const std::size_t reference = check.reference();
    std::optional<CandidateFailure> verdict = check(reference);
    if (!verdict) {
        return;
    }
    for (CandidateFailure& failure : failures) {
        if (failure.index == reference) {
            failure = std::move(*verdict);
            return;
        }
    }
}

/// Drops from a search's outcome the candidates whose check verdicts came late (settle()): they
/// were measured while held.
inline void drop_settled(SearchOutcome& outcome, std::vector<CandidateFailure> verdicts) {
    for (CandidateFailure& verdict : verdicts) {
        const auto erased = std::erase_if(
            outcome.benchmark.ranking,
            [&](const RankedCandidate& ranked) { return ranked.index == verdict.index; });
        if (erased == 0) {
            continue;  // already failed in the search
        }
        for (SearchStep& step : outcome.trace.steps) {
            if (step.index == verdict.index) {
                step.error = verdict.reason;
                step.finalist = false;
            }
        }
        outcome.benchmark.failures.push_back(std::move(verdict));
    }
}

/// Measures the key's candidates with a search (random, halving, local, or exhaustive under a
/// budget or a limit): only the points it proposes are checked, prepared and measured.
template <class Set>
SearchOutcome search_key(const Set& set, const typename Set::InputsType& inputs,
                         const std::vector<BenchmarkCandidate>& live, SearchStrategy strategy,
                         const TunerOptions& options, const EventContext& events,
                         OutputCheck<Set>& check) {
    std::vector<SearchPoint> points;
    points.reserve(live.size());
    for (const BenchmarkCandidate& c : live) {
        points.push_back({c, set.grid_position(c.index)});
    }
    SearchHooks hooks;
    hooks.measure = [&](std::size_t index) {
        events.emit(TuneEventKind::candidate_started, set.candidate(index).name);
        return set.measure(index, inputs);
    };
    std::optional<std::size_t> first;
    if (options.checks && set.comparison()) {
        hooks.check = std::ref(check);
        for (std::size_t p = 0; p < live.size(); ++p) {
            if (live[p].index == check.reference()) {
                first = p;
            }
        }
    }
    SearchOutcome outcome =
        run_search(points, strategy, options.search, options.sampling, hooks, first);
    drop_settled(outcome, check.settle());
    return outcome;
}

/// The trace of an exhaustive tuning: every runnable candidate in the order it was first run
/// (`first`, the checked reference, leading), with its race median or its failure.
inline SearchTrace exhaustive_trace(std::vector<BenchmarkCandidate> runnable,
                                    std::optional<std::size_t> first, const TuneEntry& entry,
                                    std::uint64_t seed) {
    SearchTrace trace;
    trace.seed = seed;
    trace.runnable = runnable.size();
    std::stable_partition(runnable.begin(), runnable.end(),
                          [&](const BenchmarkCandidate& c) { return c.index == first; });
    for (const BenchmarkCandidate& c : runnable) {
        SearchStep step{c.index, std::string(c.name), std::nullopt, 0, {}, true, std::nullopt};
        for (const RankedCandidate& ranked : entry.ranking) {
            if (ranked.index == c.index && ranked.statistics.samples > 0) {
                step.median_ns = ranked.statistics.median_ns;
                step.samples = ranked.statistics.samples;
            }
        }
        for (const CandidateFailure& failure : entry.failures) {
            if (failure.index == c.index) {
                step.error = failure.reason;
                step.finalist = false;
            }
        }
        trace.steps.push_back(std::move(step));
    }
    return trace;
}

/// Tunes one key: decides which candidates may run, checks outputs when asked, benchmarks them
/// (unless only one is left) and returns the settled entry, or every candidate's reason. A
/// search strategy measures only the candidates it proposes.
template <class Set>
Result<TuneEntry, TuneError> tune_key(const Set& set, const typename Set::KeyType& key,
                                      const typename Set::InputsType& inputs,
                                      const TunerOptions& options, const EventContext& events,
                                      std::string_view headline) {
    std::vector<CandidateFailure> failures;
    std::vector<BenchmarkCandidate> live = runnable_candidates(set, key, failures);
    const std::vector<BenchmarkCandidate> runnable = live;
    const SearchStrategy strategy = choose_strategy(options.search, live.size());
    const bool checked = options.checks && set.comparison();
    if (!live.empty() && measures_every_candidate(options.search, strategy)) {
        set.prefetch(inputs, run_order(live, checked ? std::optional(set.reference_index(inputs))
                                                     : std::nullopt));
    }
    const bool searching =
        live.size() > 1 && (strategy != SearchStrategy::exhaustive || options.search.budget ||
                            options.search.max_candidates);
    TuneEntry entry;
    OutputCheck<Set> check(set, inputs, events);
    if (checked && set.reference_only(check.reference())) {
        judge_reference_only(check, failures);
    }
    if (searching) {
        SearchOutcome outcome = search_key(set, inputs, live, strategy, options, events, check);
        entry.ranking = std::move(outcome.benchmark.ranking);
        failures.insert(failures.end(), outcome.benchmark.failures.begin(),
                        outcome.benchmark.failures.end());
        entry.search = std::move(outcome.trace);
    } else {
        if (checked) {
            live = check_outputs(check, std::move(live), failures);
        }
        const bool measure_lone =
            options.measure_lone_candidate || options.sampling.mode == SamplingMode::fixed;
        if (live.size() == 1 && !measure_lone) {
            // Nothing to choose between: no benchmark, and statistics stay empty (0 samples).
            RankedCandidate only;
            only.name = live.front().name;
            only.index = live.front().index;
            entry.ranking.push_back(std::move(only));
        } else if (!live.empty()) {
            BenchmarkOutcome outcome = run_benchmark(
                live, options.sampling,
                SampleRoundSource([&](std::size_t index, std::uint64_t runs, std::size_t samples) {
                    events.emit(TuneEventKind::candidate_started, set.candidate(index).name);
                    return set.measure_samples(index, inputs, runs, samples);
                }));
            entry.ranking = std::move(outcome.ranking);
            failures.insert(failures.end(), outcome.failures.begin(), outcome.failures.end());
        }
    }
    if (checked && check.reference_error()) {
        // The key fails for its references alone: no candidate was compared with them.
        return make_unexpected(
            no_viable_candidate("no reference output can be trusted, so no candidate was checked",
                                check.failed_references()));
    }
    if (entry.ranking.empty()) {
        return make_unexpected(no_viable_candidate(headline, std::move(failures)));
    }
    if (checked) {
        entry.reference = check.reference();
    }
    sort_by_index(failures);
    entry.winner_name = entry.ranking.front().name;
    entry.winner_index = entry.ranking.front().index;
    entry.failures = std::move(failures);
    entry.tuned_at = utc_now_iso8601();
    if (!entry.search) {
        entry.search = exhaustive_trace(
            runnable, checked ? std::optional(set.reference_index(inputs)) : std::nullopt, entry,
            options.search.seed);
    }
    entry.settings = options.sampling;
    entry.settings.update(options.recorded_settings);
    entry.settings["search"] = search_summary_json(options.search, *entry.search);
    return entry;
}

}  // namespace spvtune::tune::detail
