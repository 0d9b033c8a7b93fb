#pragma once

/// The front door of the local-tuner library: include this one header.
///
/// A tuner picks, per key and per hardware, the fastest of several candidates computing the same
/// output, remembers the choice (in memory, and in a store such as spvtune::cache's file store)
/// and runs it. A minimal use, with a backend-free host candidate list:
///
///     struct Size { std::uint64_t n; ... };  // a TuneKey: hash, ==, to_string, JSON
///     using Set = tune::TunableSet<Size, std::span<const float>, float>;
///
///     static tune::LocalTuner<Size, int> tuner("sum");  // one per operation family
///     tune::Result<float> sum_scalar(std::span<const float> x);   // the candidates
///     tune::Result<float> sum_unrolled(std::span<const float> x);
///
///     float sum(int device, const tune::TuneClient& client, std::span<const float> x) {
///         auto set = tuner.init(device, [] {
///             Set s([](std::span<const float> x) { return Size{x.size()}; });
///             // name, content digest, run (then measure, prepare, priority: optional)
///             s.add({"scalar", "v1", &sum_scalar, {}, {}, {}});
///             s.add({"unrolled", "v1", &sum_unrolled, {}, {}, {}});
///             return s;
///         });
///         tune::ExecutionInfo info;  // optional: where the answer came from, its entry
///         auto out = tuner.execute(device, client, *set, x, &info);
///         if (!out) throw std::runtime_error(out.error().message);  // every candidate's reason
///         return out.value();
///     }
///
/// TunerOptions (passed to the LocalTuner) choose the store, sampling, what a miss does
/// (measure, run the preferred candidate for shipped caches, compile only) and the reporter.
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/client.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/in_memory_store.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/local_tuner.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tunable_set.hpp>
#include <spvtune/tune/tune_entry.hpp>
#include <spvtune/tune/tune_error.hpp>
#include <spvtune/tune/tune_store.hpp>
#include <spvtune/tune/tuner_options.hpp>
