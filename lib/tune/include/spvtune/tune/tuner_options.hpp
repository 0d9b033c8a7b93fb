#pragma once

#include <memory>

#include <spvtune/tune/events.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tune_store.hpp>

namespace spvtune::tune {

/// What a LocalTuner does with a key that is settled neither in memory nor in the store.
enum class MissPolicy {
    /// Benchmark the candidates, record the winner in memory and the store, run it.
    tune,
    /// Never measure, for applications that ship a cache and must never pause to tune: run the
    /// most preferred candidate that works (priority, then registration order; a negative
    /// priority never runs), record nothing, so a later cache or tuning run can still answer the
    /// key, and report the miss (TuneEventKind::untuned_miss). The store is only read: a stored
    /// winner that fails at run time is not marked for re-tuning there either.
    run_preferred,
};

/// How a LocalTuner behaves on a miss. The hit path ignores all of it.
struct TunerOptions {
    SamplingSettings sampling;
    MissPolicy miss_policy = MissPolicy::tune;
    /// On a miss: prepare every candidate, measure nothing, record nothing, run the most
    /// preferred candidate that works (keys already settled in memory still run their winner).
    /// Takes precedence over `miss_policy`, and does not read the store.
    bool compile_only = false;
    /// While tuning, run every candidate and compare its output with the set's reference
    /// candidate (TunableSet::with_check); mismatching candidates cannot win.
    bool checks = false;
    /// Where settled entries persist. Null: an in-memory store owned by the tuner.
    std::shared_ptr<TuneStore> store;
    /// Receives tuning events; may be empty.
    Reporter reporter;
};

}  // namespace spvtune::tune
