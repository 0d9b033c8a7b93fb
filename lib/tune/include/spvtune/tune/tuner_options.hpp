#pragma once

#include <memory>

#include <spvtune/tune/events.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tune_store.hpp>

namespace spvtune::tune {

/// How a LocalTuner behaves on a miss. The hit path ignores all of it.
struct TunerOptions {
    SamplingSettings sampling;
    /// On a miss: prepare every candidate, measure nothing, record nothing, run the most
    /// preferred candidate that works (keys already settled in memory still run their winner).
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
