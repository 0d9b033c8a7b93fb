#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include <spvtune/tune/events.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>
#include <spvtune/tune/tune_store.hpp>

namespace spvtune::tune {

/// What a LocalTuner does with a key that is settled neither in memory nor in the store.
enum class MissPolicy {
    /// Benchmark the candidates, record the winner in memory and the store, run it.
    tune,
    /// Never measure, for applications that ship a cache and must never pause to tune: run the
    /// most preferred candidate that works (priority, then registration order; a negative
    /// priority never runs), record nothing, so a later cache or tuning run can still answer the
    /// key, and report the miss (TuneEventKind::untuned_miss). The store is only read.
    run_preferred,
    /// run_preferred, except that a key settled neither in memory nor in the store first runs
    /// the winner of the nearest key the store holds for the same candidate list (key_distance
    /// over the keys' numeric members; keys whose other members differ are never neighbours;
    /// ties go to the key whose canonical JSON sorts first), provided that winner can run this
    /// key (its priority is not negative, and it runs): LookupSource::nearest,
    /// TuneEventKind::nearest_used. Nothing is measured or recorded. Safe where a candidate's
    /// relative speed changes slowly with the numeric parameters (sizes): a winner tuned at
    /// n=4096 is a good guess at n=5000, a poor one across a change of regime (a size that
    /// stops fitting a cache or a workgroup), and the tuned keys' spacing bounds the guess.
    /// Every candidate must compute the same result, as for any tuning; outputs are not checked.
    /// As nothing is recorded, each call for an untuned key lists and compares the store's keys
    /// of the list again: a cost that grows with the entries, paid only on misses.
    run_nearest,
    /// Prepare every candidate (e.g. build its pipeline), measure nothing, record nothing, never
    /// read the store, and run the most preferred candidate that works
    /// (LookupSource::compiled). Keys already settled in memory still run their winner.
    compile_only,
};

/// How a LocalTuner behaves on a miss. The hit path ignores all of it.
struct TunerOptions {
    SamplingSettings sampling;
    /// Which candidates of a key are measured (by default all, or a local search of a large
    /// grid); recorded in each entry's `settings` under "search".
    SearchSettings search;
    MissPolicy miss_policy = MissPolicy::tune;
    /// With MissPolicy::tune: a key not settled in memory is measured again even when the store
    /// has it. The stored entry is marked for re-tuning first and replaced only once the new one
    /// is settled, so an interrupted re-tune loses nothing (the next run re-tunes the key).
    /// Keys settled in memory are not measured twice.
    bool retune = false;
    /// Measure a key's only runnable candidate too, so its entry reports a time (tools and
    /// reports want one; `SamplingMode::fixed` always measures). Off, the runtime default: a
    /// lone candidate is settled unmeasured, its ranking entry has 0 samples ("not measured").
    bool measure_lone_candidate = false;
    /// While tuning, run every candidate and compare its output with the set's reference
    /// candidate (TunableSet::with_check); mismatching candidates cannot win.
    bool checks = false;
    /// Recorded in every entry's `settings` next to the sampling settings: whatever else the
    /// caller measured with (a problem's minimum sample time and autotune level), so that a
    /// reader of the cache knows how the numbers were made. A JSON object.
    nlohmann::json recorded_settings = nlohmann::json::object();
    /// Where settled entries persist. Null: an in-memory store owned by the tuner.
    std::shared_ptr<TuneStore> store;
    /// Receives tuning events; may be empty.
    Reporter reporter;
};

}  // namespace spvtune::tune
