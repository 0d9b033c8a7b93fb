#pragma once

// Test doubles for the tuner: a size key, fake candidates with scripted timings and failures, a
// recording reporter and a counting store. No sleeps: "time" is whatever the script says.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/client.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/in_memory_store.hpp>
#include <spvtune/tune/local_tuner.hpp>
#include <spvtune/tune/tunable_set.hpp>

namespace fakes {

using namespace spvtune::tune;

struct SizeKey {
    std::uint64_t size = 0;
    friend bool operator==(const SizeKey&, const SizeKey&) = default;
};

inline std::string to_string(const SizeKey& key) {
    return "size=" + std::to_string(key.size);
}
inline void to_json(nlohmann::json& json, const SizeKey& key) {
    json = {{"size", key.size}};
}
inline void from_json(const nlohmann::json& json, SizeKey& key) {
    key.size = json.at("size").get<std::uint64_t>();
}

}  // namespace fakes

template <>
struct std::hash<fakes::SizeKey> {
    std::size_t operator()(const fakes::SizeKey& key) const noexcept {
        return std::hash<std::uint64_t>{}(key.size);
    }
};

namespace fakes {

/// What every fake candidate computes: the correct output is value * 2.
struct Inputs {
    std::uint64_t size = 64;
    long value = 21;
    /// For recursion tests: how deep in nested executes this call is.
    int depth = 0;
};

inline long expected_output(const Inputs& inputs) {
    return inputs.value * 2;
}

using Set = TunableSet<SizeKey, Inputs, long>;
using Tuner = LocalTuner<SizeKey, int>;

inline SizeKey key_of(const Inputs& inputs) {
    return {inputs.size};
}

/// A candidate's script: its timing and how it misbehaves.
// Every member has an initializer so designated initializers may leave any out.
struct Spec {
    std::string name{};
    double ns = 100;
    /// Amplitude of deterministic noise added to each sample.
    double jitter = 0;
    /// Added to the correct output: non-zero makes a wrong-but-plausible candidate.
    long offset = 0;
    std::optional<std::string> measure_error{};
    std::optional<std::string> run_error{};
    std::function<int(const SizeKey&)> priority{};
    std::string digest = "v1";
    bool reference_only = false;
};

/// What happened to one candidate, plus a switch that breaks it at run time.
struct Counters {
    std::atomic<int> runs{0};
    std::atomic<int> measures{0};
    std::atomic<int> prepares{0};
    /// When set, both run and measure fail with "broken".
    std::atomic<bool> broken{false};
};

/// Samples cycle through this pattern (times `jitter`): zero mean, every value distinct.
inline double noise(std::size_t sample) {
    static constexpr double pattern[] = {0.0, 0.6,  -0.4, 0.9,  -0.8, 0.3, -0.1,
                                         0.7, -0.6, 0.2,  -0.9, 0.5,  -0.3};
    return pattern[sample % (sizeof(pattern) / sizeof(pattern[0]))];
}

/// Builds candidates from specs and keeps their counters, so tests can see what ran.
class Bench {
  public:
    explicit Bench(std::vector<Spec> specs) : specs_(std::move(specs)) {
        for (const Spec& spec : specs_) {
            counters_[spec.name] = std::make_shared<Counters>();
        }
    }

    Counters& operator[](const std::string& name) { return *counters_.at(name); }

    int total_measures() const {
        int total = 0;
        for (const auto& [name, counters] : counters_) {
            total += counters->measures.load();
        }
        return total;
    }

    int total_runs() const {
        int total = 0;
        for (const auto& [name, counters] : counters_) {
            total += counters->runs.load();
        }
        return total;
    }

    /// `key` maps inputs to the tuning key (e.g. a bucket shared by several sizes).
    Set make_set(std::function<SizeKey(const Inputs&)> key = key_of) const {
        Set set(std::move(key));
        for (const Spec& spec : specs_) {
            set.add(candidate(spec, counters_.at(spec.name)));
        }
        return set;
    }

  private:
    static Set::CandidateType candidate(const Spec& spec, std::shared_ptr<Counters> counters) {
        Set::CandidateType c;
        c.name = spec.name;
        c.content_digest = spec.digest;
        c.run = [spec, counters](const Inputs& inputs) -> Result<long> {
            counters->runs.fetch_add(1);
            if (counters->broken.load()) {
                return fail("broken");
            }
            if (spec.run_error) {
                return fail(*spec.run_error);
            }
            return expected_output(inputs) + spec.offset;
        };
        c.measure = [spec, counters](const Inputs&) -> Result<Sample> {
            const int n = counters->measures.fetch_add(1);
            if (counters->broken.load()) {
                return fail("broken");
            }
            if (spec.measure_error) {
                return fail(*spec.measure_error);
            }
            return Sample{spec.ns + spec.jitter * noise(static_cast<std::size_t>(n)),
                          TimingMethod::device_timestamps};
        };
        c.prepare = [counters]() -> Status {
            counters->prepares.fetch_add(1);
            return ok();
        };
        c.priority = spec.priority;
        c.reference_only = spec.reference_only;
        return c;
    }

    std::vector<Spec> specs_;
    std::map<std::string, std::shared_ptr<Counters>> counters_;
};

inline HardwareIdentity hardware(const std::string& key) {
    HardwareIdentity identity;
    identity.key = key;
    identity.device_name = "Fake GPU " + key;
    return identity;
}

/// Benchmark entrants named `names`, indexed in order, all of priority 0.
inline std::vector<BenchmarkCandidate> benchmark_candidates(const std::vector<const char*>& names) {
    std::vector<BenchmarkCandidate> out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out.push_back({i, names[i], 0});
    }
    return out;
}

/// Adaptive sampling with one warm-up and the given sample bounds.
inline SamplingSettings adaptive_sampling(std::size_t min, std::size_t max) {
    SamplingSettings settings;
    settings.warmup_runs = 1;
    settings.min_samples = min;
    settings.max_samples = max;
    return settings;
}

/// Quick settings for tuner tests: enough samples for a 95% interval, few warm-ups.
inline SamplingSettings quick_sampling() {
    SamplingSettings settings;
    settings.warmup_runs = 1;
    settings.min_samples = 8;
    settings.max_samples = 24;
    return settings;
}

/// Records events; thread-safe.
class EventLog {
  public:
    struct Record {
        TuneEventKind kind;
        std::string key;
        std::string candidate;
        std::string message;
    };

    Reporter reporter() {
        return [this](const TuneEvent& event) {
            std::lock_guard lock(mutex_);
            records_.push_back({event.kind, std::string(event.key), std::string(event.candidate),
                                std::string(event.message)});
        };
    }

    int count(TuneEventKind kind) const {
        std::lock_guard lock(mutex_);
        int n = 0;
        for (const Record& record : records_) {
            n += record.kind == kind ? 1 : 0;
        }
        return n;
    }

    std::optional<Record> last(TuneEventKind kind) const {
        std::lock_guard lock(mutex_);
        for (auto it = records_.rbegin(); it != records_.rend(); ++it) {
            if (it->kind == kind) {
                return *it;
            }
        }
        return std::nullopt;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<Record> records_;
};

/// An InMemoryStore that counts calls and can pretend another writer settled an address first.
class CountingStore final : public TuneStore {
  public:
    std::optional<TuneEntry> load(const HardwareIdentity& hardware,
                                  const EntryAddress& address) override {
        loads.fetch_add(1);
        return inner.load(hardware, address);
    }

    StoreOutcome save(const HardwareIdentity& hardware, const EntryAddress& address,
                      const std::vector<CandidateDescription>& candidates,
                      const std::string& key_display, const TuneEntry& entry) override {
        saves.fetch_add(1);
        if (settled_elsewhere) {
            inner.save(hardware, address, candidates, key_display, *settled_elsewhere);
        }
        return inner.save(hardware, address, candidates, key_display, entry);
    }

    void mark_needs_retune(const HardwareIdentity& hardware, const EntryAddress& address) override {
        retunes.fetch_add(1);
        inner.mark_needs_retune(hardware, address);
    }

    std::vector<std::string> keys(const HardwareIdentity& hardware, const std::string& tuner,
                                  std::uint64_t checksum) override {
        return inner.keys(hardware, tuner, checksum);
    }

    InMemoryStore inner;
    std::atomic<int> loads{0};
    std::atomic<int> saves{0};
    std::atomic<int> retunes{0};
    /// When set, saved just before the tuner's own save, as a concurrent process would have.
    std::optional<TuneEntry> settled_elsewhere;
};

/// Checks mode's comparison for the fake outputs: equal, or says both values.
inline Set::Comparison exact() {
    return [](const long& reference, const long& candidate) -> std::optional<std::string> {
        if (reference == candidate) {
            return std::nullopt;
        }
        return "expected " + std::to_string(reference) + ", got " + std::to_string(candidate);
    };
}

/// The usual cast: "tiled" is fastest, then "vector", then "naive" (registered first).
inline std::vector<Spec> three_candidates() {
    return {{.name = "naive", .ns = 300, .jitter = 3},
            {.name = "tiled", .ns = 100, .jitter = 1},
            {.name = "vector", .ns = 200, .jitter = 2}};
}

/// A tuner with quick sampling, a counting store and an event log.
struct Harness {
    std::shared_ptr<CountingStore> store = std::make_shared<CountingStore>();
    EventLog events;
    Tuner tuner{"fake-op"};
    FixedIdentityClient client{hardware("gpu-a")};

    explicit Harness(bool checks = false, bool compile_only = false) {
        TunerOptions options;
        options.sampling = quick_sampling();
        options.store = store;
        options.reporter = events.reporter();
        options.checks = checks;
        options.miss_policy = compile_only ? MissPolicy::compile_only : MissPolicy::tune;
        tuner.set_options(std::move(options));
    }

    /// Has the tuner search every key with `strategy` from `seed`.
    void search(SearchStrategy strategy, std::uint64_t seed) {
        TunerOptions options = tuner.options();
        options.search.strategy = strategy;
        options.search.seed = seed;
        tuner.set_options(std::move(options));
    }

    /// What the store holds for `set` at a size key, read past the counters.
    std::optional<TuneEntry> stored(const Set& set, std::uint64_t size = 64) {
        return store->inner.load(client.hardware_identity(),
                                 {tuner.name(), set.checksum(), canonical_key_json(SizeKey{size})});
    }
};

}  // namespace fakes
