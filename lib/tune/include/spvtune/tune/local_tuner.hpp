#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spvtune/tune/client.hpp>
#include <spvtune/tune/detail/event_context.hpp>
#include <spvtune/tune/detail/key_tuner.hpp>
#include <spvtune/tune/detail/tune_key.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/in_memory_store.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/key_distance.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/tunable_set.hpp>
#include <spvtune/tune/tune_error.hpp>
#include <spvtune/tune/tuner_options.hpp>

namespace spvtune::tune {

namespace detail {

template <class F>
struct is_std_function : std::false_type {};
template <class R, class... Args>
struct is_std_function<std::function<R(Args...)>> : std::true_type {};

/// Whether a factory's type tells it apart from every other factory, as init needs: a lambda's
/// does; a plain function (pointer or reference) or a std::function shares its type with others.
template <class F>
inline constexpr bool identifies_one_factory =
    !std::is_pointer_v<F> && !std::is_function_v<F> && !std::is_member_pointer_v<F> &&
    !is_std_function<F>::value;

}  // namespace detail

/// Picks and remembers, per key, the fastest candidate of a tunable set on each hardware: one
/// long-lived object per operation family (typically a static), named for its cache namespace.
///
/// Results are shared by hardware identity and candidate-list checksum: device ids of the same
/// hardware executing the same list tune a key once. `DeviceId` needs std::hash and ==.
///
/// Thread-safe. No lock is held while candidates run or are measured, so a candidate may execute
/// other tuners, or this one for another key.
template <TuneKey Key, class DeviceId>
class LocalTuner {
  public:
    explicit LocalTuner(std::string name, TunerOptions options = {})
        : name_(std::move(name)),
          options_(std::make_shared<const TunerOptions>(std::move(options))) {}
    LocalTuner(const LocalTuner&) = delete;
    LocalTuner& operator=(const LocalTuner&) = delete;

    const std::string& name() const { return name_; }

    /// Replaces the options; executes already past their cache lookup keep the old ones.
    void set_options(TunerOptions options) {
        auto next = std::make_shared<const TunerOptions>(std::move(options));
        std::lock_guard lock(options_mutex_);
        options_ = std::move(next);
    }

    TunerOptions options() const { return *options_snapshot(); }

    /// The tunable set `factory` builds for `device`, built on the first call for that
    /// (factory type, device) and shared afterwards. The factory's type identifies it, as a
    /// lambda's type identifies its expression: call init from one place per set (a set is built
    /// per device because it may depend on the device's limits). Concurrent first calls build it
    /// once, without holding this tuner's locks; a factory that throws is retried next call.
    template <class Factory>
    auto init(const DeviceId& device, Factory&& factory)
        -> std::shared_ptr<const std::remove_cvref_t<std::invoke_result_t<Factory&>>> {
        using Set = std::remove_cvref_t<std::invoke_result_t<Factory&>>;
        static_assert(
            std::is_same_v<Set, TunableSet<typename Set::KeyType, typename Set::InputsType,
                                           typename Set::OutputType>> &&
                std::is_same_v<typename Set::KeyType, Key>,
            "the factory must return a TunableSet with this tuner's key type");
        static_assert(detail::identifies_one_factory<std::remove_cvref_t<Factory>>,
                      "init tells sets apart by the factory's type: pass a lambda (each has a type "
                      "of its own); plain functions and std::function share one type between "
                      "different factories, which would share one set");
        const SetSlot slot{std::type_index(typeid(std::remove_cvref_t<Factory>)), device};
        std::shared_ptr<InitCell> cell;
        {
            std::shared_lock lock(sets_mutex_);
            if (const auto found = sets_.find(slot); found != sets_.end()) {
                cell = found->second;
            }
        }
        if (!cell) {
            std::unique_lock lock(sets_mutex_);
            cell = sets_.try_emplace(slot, std::make_shared<InitCell>()).first->second;
        }
        std::call_once(cell->once, [&] { cell->set = std::make_shared<const Set>(factory()); });
        return std::static_pointer_cast<const Set>(cell->set);
    }

    /// Runs the best candidate of `set` on `inputs` for `device`.
    ///
    /// A settled key runs its winner (shared lock, no allocation beyond the key generator's).
    /// Otherwise, see LookupSource: the store is read, or the key is tuned and saved (or, under
    /// MissPolicy::run_preferred, the preferred candidate runs untuned), or, when another call
    /// is tuning it, the preferred candidate runs. If the winner fails, the next
    /// ranked candidate runs, and a candidate that failed is not tried again on the same inputs
    /// (TunableSet::with_input_identity) in this process; the key is not re-tuned. The error lists
    /// every candidate's reason when none produced an output. `info`, when given, says what
    /// happened.
    template <class Inputs, class Out>
    Result<Out, TuneError> execute(const DeviceId& device, const TuneClient& client,
                                   const TunableSet<Key, Inputs, Out>& set, const Inputs& inputs,
                                   ExecutionInfo* info = nullptr) {
        const Key key = set.key(inputs);
        const std::shared_ptr<Tuner> tuner = tuner_for(device, client, set.checksum());
        if (std::shared_ptr<const TuneEntry> settled = tuner->settled(key)) {
            return run_settled(*tuner, set, key, inputs, std::move(settled), LookupSource::memory,
                               info);
        }
        return execute_miss(*tuner, set, key, inputs, info);
    }

    /// The index of the settled winner of `key` for `device`, or nothing: read-only, it never
    /// tunes, waits for a tuning in flight, or reads the store. Nothing is settled for a device
    /// until it has executed `set` (even if another device of its hardware has).
    template <class Inputs, class Out>
    std::optional<std::size_t> fastest_identity(const DeviceId& device,
                                                const TunableSet<Key, Inputs, Out>& set,
                                                const Key& key) const {
        std::shared_ptr<Tuner> tuner;
        {
            std::shared_lock lock(tuners_mutex_);
            tuner = find_tuner(device, set.checksum());
        }
        const std::shared_ptr<const TuneEntry> entry = tuner ? tuner->settled(key) : nullptr;
        return entry ? std::optional<std::size_t>(entry->winner_index) : std::nullopt;
    }

    /// Forgets every in-memory result; stores (the tuner's fallback store included) and the sets
    /// built by init stay. Executes in flight finish on the state they started with.
    void clear() {
        std::unique_lock lock(tuners_mutex_);
        by_device_.clear();
        opened_.clear();
    }

  private:
    using Tuner = detail::KeyTuner<Key>;
    using SetSlot = std::pair<std::type_index, DeviceId>;

    struct InitCell {
        std::once_flag once;
        std::shared_ptr<const void> set;
    };

    struct SetSlotHash {
        std::size_t operator()(const SetSlot& slot) const {
            const std::size_t a = slot.first.hash_code();
            return a ^ (std::hash<DeviceId>{}(slot.second) + 0x9e3779b97f4a7c15ULL + (a << 6U) +
                        (a >> 2U));
        }
    };

    std::shared_ptr<const TunerOptions> options_snapshot() const {
        std::lock_guard lock(options_mutex_);
        return options_;
    }

    TuneStore& store(const TunerOptions& options) const {
        return options.store ? *options.store : *fallback_store_;
    }

    // Requires tuners_mutex_ (shared or exclusive).
    std::shared_ptr<Tuner> find_tuner(const DeviceId& device, std::uint64_t checksum) const {
        const auto lists = by_device_.find(device);
        if (lists == by_device_.end()) {
            return nullptr;
        }
        const auto found = lists->second.find(checksum);
        return found == lists->second.end() ? nullptr : found->second;
    }

    /// The tuner `device` executes the list `checksum` on, opened by the first device of its
    /// hardware to execute that list.
    std::shared_ptr<Tuner> tuner_for(const DeviceId& device, const TuneClient& client,
                                     std::uint64_t checksum) {
        {
            std::shared_lock lock(tuners_mutex_);
            if (std::shared_ptr<Tuner> tuner = find_tuner(device, checksum)) {
                return tuner;
            }
        }
        const HardwareIdentity& hardware = client.hardware_identity();
        std::unique_lock lock(tuners_mutex_);
        std::shared_ptr<Tuner>& shared = opened_[{hardware.key, checksum}];
        if (!shared) {
            shared = std::make_shared<Tuner>(hardware);
        }
        by_device_[device][checksum] = shared;
        return shared;
    }

    template <class Inputs, class Out>
    static bool answers_for(const TuneEntry& entry, const TunableSet<Key, Inputs, Out>& set) {
        return !entry.needs_retune && entry.winner_index < set.size() &&
               set.candidate(entry.winner_index).name == entry.winner_name;
    }

    template <class Inputs, class Out>
    static std::string foreign_winner_note(const TuneEntry& entry,
                                           const TunableSet<Key, Inputs, Out>& set) {
        std::string note = "the cached entry's winner '" + entry.winner_name +
                           "' is not candidate " + std::to_string(entry.winner_index) +
                           " of the list";
        if (entry.winner_index < set.size()) {
            note += ", '" + std::string(set.candidate(entry.winner_index).name) + "'";
        } else {
            note += " (it has " + std::to_string(set.size()) + ")";
        }
        return note + "; the key is tuned again";
    }

    EntryAddress address_of(std::uint64_t checksum, const Key& key) const {
        return {name_, checksum, canonical_key_json(key)};
    }

    template <class Inputs, class Out>
    Result<Out, TuneError> execute_miss(Tuner& tuner, const TunableSet<Key, Inputs, Out>& set,
                                        const Key& key, const Inputs& inputs, ExecutionInfo* info) {
        const std::shared_ptr<const TunerOptions> options = options_snapshot();
        const std::string key_text = key_display(key);
        const detail::EventContext events{&options->reporter, name_, tuner.hardware().key,
                                          set.checksum(), key_text};
        const std::string headline =
            "no viable candidate for key " + key_text + " of tuner '" + name_ + "'";
        if (options->miss_policy == MissPolicy::compile_only) {
            return detail::run_preferred(set, key, inputs, true, LookupSource::compiled, info,
                                         headline, events);
        }
        typename Tuner::ClaimResult claim = tuner.claim(key);
        if (claim.claim == Tuner::Claim::settled) {
            return run_settled(tuner, set, key, inputs, std::move(claim.entry),
                               LookupSource::memory, info);
        }
        if (claim.claim == Tuner::Claim::pending) {
            return detail::run_preferred(set, key, inputs, false, LookupSource::pending, info,
                                         headline, events);
        }
        detail::ClaimGuard<Key> guard(tuner, key);
        TuneStore& persistent = store(*options);
        const EntryAddress address = address_of(set.checksum(), key);
        if (options->retune && options->miss_policy == MissPolicy::tune) {
            // Marked rather than erased: until the new entry is saved, the old one stays.
            persistent.mark_needs_retune(tuner.hardware(), address);
        }
        std::optional<TuneEntry> stored = persistent.load(tuner.hardware(), address);
        if (stored && !stored->needs_retune && !answers_for(*stored, set)) {
            // The checksum matched, so the list is the one the entry was made for: a winner it
            // does not hold means the entry was edited or damaged. Say so, and tune it again;
            // marked, so that the new entry replaces it rather than losing to it on save.
            events.emit(TuneEventKind::store_note, stored->winner_name,
                        foreign_winner_note(*stored, set));
            persistent.mark_needs_retune(tuner.hardware(), address);
        }
        if (stored && answers_for(*stored, set)) {
            auto entry = std::make_shared<const TuneEntry>(std::move(*stored));
            tuner.settle(key, entry);
            guard.release();
            events.emit(TuneEventKind::store_hit, entry->winner_name, {}, entry.get());
            return run_settled(tuner, set, key, inputs, std::move(entry), LookupSource::store,
                               info);
        }
        if (options->miss_policy == MissPolicy::run_preferred ||
            options->miss_policy == MissPolicy::run_nearest) {
            // Nothing will be settled: release the key before the candidate runs, so concurrent
            // calls do not see it as being tuned.
            guard.abandon();
            if (options->miss_policy == MissPolicy::run_nearest) {
                if (std::optional<Result<Out, TuneError>> out =
                        run_nearest(tuner, set, key, inputs, persistent, address, events, info)) {
                    return std::move(*out);
                }
            }
            return run_untuned(set, key, inputs, events, info, headline);
        }
        events.emit(TuneEventKind::tuning_started);
        Result<TuneEntry, TuneError> tuned =
            detail::tune_key(set, key, inputs, *options, events, headline);
        if (!tuned) {
            events.emit(TuneEventKind::tuning_failed, {}, tuned.error().message);
            return make_unexpected(std::move(tuned).error());
        }
        auto entry = std::make_shared<const TuneEntry>(std::move(tuned).value());
        tuner.settle(key, entry);
        guard.release();
        if (!ran_successfully(*entry, set, *options)) {
            // A lone candidate settled without a run: store it only once it has produced an
            // output, so one that always fails never reaches the store (nor rewrites it per call).
            ExecutionInfo ran;
            Result<Out, TuneError> out =
                run_settled(tuner, set, key, inputs, entry, LookupSource::tuned, &ran);
            const bool winner_ran = out && ran.candidate == entry->winner_index;
            if (winner_ran) {
                save_settled(tuner, set, key, key_text, address, persistent, entry, events);
            } else if (!out) {
                events.emit(TuneEventKind::tuning_failed, {}, out.error().message);
            }
            if (info != nullptr) {
                *info = std::move(ran);
            }
            return out;
        }
        entry =
            save_settled(tuner, set, key, key_text, address, persistent, std::move(entry), events);
        return run_settled(tuner, set, key, inputs, std::move(entry), LookupSource::tuned, info);
    }

    /// Whether the settled winner produced an output while the key was tuned: it was measured,
    /// or its output was checked. Only a lone candidate under the runtime defaults was not.
    template <class Inputs, class Out>
    static bool ran_successfully(const TuneEntry& entry, const TunableSet<Key, Inputs, Out>& set,
                                 const TunerOptions& options) {
        return entry.ranking.front().statistics.samples > 0 ||
               (options.checks && static_cast<bool>(set.comparison()));
    }

    /// Saves a freshly settled entry and reports it; returns the entry the key ends up settled
    /// with (another writer's, when it settled the address first).
    template <class Inputs, class Out>
    std::shared_ptr<const TuneEntry> save_settled(
        Tuner& tuner, const TunableSet<Key, Inputs, Out>& set, const Key& key,
        const std::string& key_text, const EntryAddress& address, TuneStore& persistent,
        std::shared_ptr<const TuneEntry> entry, const detail::EventContext& events) {
        StoreOutcome saved =
            persistent.save(tuner.hardware(), address, set.descriptions(), key_text, *entry);
        if (!saved.stored && saved.kept && answers_for(*saved.kept, set)) {
            // Another writer settled this address first: everyone must agree on its answer.
            entry = std::make_shared<const TuneEntry>(std::move(*saved.kept));
            tuner.settle(key, entry);
        }
        if (!saved.message.empty()) {
            events.emit(TuneEventKind::store_note, {}, saved.message);
        }
        events.emit(TuneEventKind::tuning_finished, entry->winner_name, {}, entry.get());
        return entry;
    }

    /// A miss under MissPolicy::run_preferred: runs what a Pending call runs, reports the miss
    /// and records nothing, so the key stays open to a later store or tuning run.
    template <class Inputs, class Out>
    static Result<Out, TuneError> run_untuned(const TunableSet<Key, Inputs, Out>& set,
                                              const Key& key, const Inputs& inputs,
                                              const detail::EventContext& events,
                                              ExecutionInfo* info, std::string_view headline) {
        ExecutionInfo ran;
        std::vector<CandidateFailure> passed_over;
        Result<Out, TuneError> out = detail::run_preferred(
            set, key, inputs, false, LookupSource::untuned, &ran, headline, events, &passed_over);
        if (out) {
            if (info != nullptr) {
                *info = ran;
            }
            std::string message =
                "not settled in memory or the store: ran the most preferred candidate that "
                "works, without tuning";
            // The application hears why a more preferred candidate did not answer the key.
            for (const CandidateFailure& failure : passed_over) {
                message += "; passed over " + failure.name + ": " + failure.reason;
            }
            events.emit(TuneEventKind::untuned_miss, set.candidate(ran.candidate).name, message);
        }
        return out;
    }

    /// A miss under MissPolicy::run_nearest: the winner of the nearest key `persistent` holds for
    /// this list runs, when it can run `key`; nothing when none did (the preferred candidate runs
    /// then). Records nothing.
    template <class Inputs, class Out>
    std::optional<Result<Out, TuneError>> run_nearest(
        Tuner& tuner, const TunableSet<Key, Inputs, Out>& set, const Key& key, const Inputs& inputs,
        TuneStore& persistent, const EntryAddress& address, const detail::EventContext& events,
        ExecutionInfo* info) const {
        std::vector<std::pair<double, std::string>> nearest;
        for (std::string& stored : persistent.keys(tuner.hardware(), name_, address.checksum)) {
            if (const std::optional<double> distance = key_distance(stored, address.key_json);
                distance && *distance > 0) {
                nearest.emplace_back(*distance, std::move(stored));
            }
        }
        std::sort(nearest.begin(), nearest.end());
        for (const auto& [distance, stored] : nearest) {
            std::optional<TuneEntry> entry =
                persistent.load(tuner.hardware(), {name_, address.checksum, stored});
            if (!entry || !answers_for(*entry, set) || set.priority(entry->winner_index, key) < 0) {
                continue;
            }
            Result<Out> out = set.run(entry->winner_index, inputs);
            if (!out) {
                continue;
            }
            std::string from = stored_key_display(stored);
            events.emit(TuneEventKind::nearest_used, entry->winner_name,
                        "not settled in memory or the store: ran the winner of the nearest tuned "
                        "key " +
                            from);
            if (info != nullptr) {
                const std::size_t winner = entry->winner_index;
                *info = {LookupSource::nearest, winner,
                         std::make_shared<const TuneEntry>(std::move(*entry)), std::move(from)};
            }
            return Result<Out, TuneError>(std::move(out).value());
        }
        return std::nullopt;
    }

    /// A stored key's printed form, as its Key prints; its JSON when it is no Key.
    static std::string stored_key_display(const std::string& key_json) {
        try {
            return key_display(nlohmann::json::parse(key_json).template get<Key>());
        } catch (const std::exception&) {
            return key_json;
        }
    }

    /// Why a settled winner did not produce the output.
    enum class Bypass {
        cannot_run,  ///< its priority refuses these inputs: nothing is wrong with it
        excluded,    ///< it failed earlier on these inputs in this process
        failed,      ///< it failed now
    };

    template <class Inputs, class Out>
    Result<Out, TuneError> run_settled(Tuner& tuner, const TunableSet<Key, Inputs, Out>& set,
                                       const Key& key, const Inputs& inputs,
                                       std::shared_ptr<const TuneEntry> entry, LookupSource source,
                                       ExecutionInfo* info) {
        const std::size_t winner = entry->winner_index;
        if (set.priority(winner, key) < 0) {
            // The winner cannot run these inputs (another member of the key's bucket, say): not a
            // failure of the winner, so the entry stays settled; the best-ranked viable one runs.
            return fall_back(tuner, set, key, inputs, std::move(entry), "cannot run these inputs",
                             Bypass::cannot_run, info);
        }
        if (tuner.any_excluded()) {
            if (std::optional<std::string> why =
                    tuner.exclusion(key, winner, set.input_identity(inputs))) {
                return fall_back(tuner, set, key, inputs, std::move(entry), std::move(*why),
                                 Bypass::excluded, info);
            }
        }
        Result<Out> out = set.run(winner, inputs);
        if (out) {
            if (info != nullptr) {
                *info = {source, winner, std::move(entry)};
            }
            return std::move(out).value();
        }
        return fall_back(tuner, set, key, inputs, std::move(entry), std::move(out).error(),
                         Bypass::failed, info);
    }

    /// The settled winner of `entry` did not run: the next ranked candidate that works runs.
    /// A candidate that fails at run time is excluded for these inputs (in memory) rather than
    /// the key re-tuned: re-tuning would settle the same winner again on the inputs it was tuned
    /// for, and a bucket whose members alternate would re-benchmark and rewrite the store every
    /// other call. The entry stays settled; `spvtune tune --retune` measures it again.
    template <class Inputs, class Out>
    Result<Out, TuneError> fall_back(Tuner& tuner, const TunableSet<Key, Inputs, Out>& set,
                                     const Key& key, const Inputs& inputs,
                                     std::shared_ptr<const TuneEntry> entry, std::string error,
                                     Bypass bypass, ExecutionInfo* info) {
        const std::size_t winner = entry->winner_index;
        const std::optional<std::uint64_t> identity = set.input_identity(inputs);
        const std::shared_ptr<const TunerOptions> options = options_snapshot();
        const std::string key_text = key_display(key);
        const detail::EventContext events{&options->reporter, name_, tuner.hardware().key,
                                          set.checksum(), key_text};
        const std::string& winner_name = set.candidate(winner).name;
        std::string why = "settled winner '" + winner_name + "' ";
        std::string winner_reason = "settled winner: ";
        if (bypass == Bypass::failed) {
            tuner.exclude(key, winner, identity, error);
            why += "failed: ";
        } else if (bypass == Bypass::excluded) {
            why += "failed earlier on these inputs: ";
            winner_reason += "failed earlier on these inputs: ";
        }
        why += error;
        winner_reason += error;
        std::vector<CandidateFailure> failures{
            {winner_name, winner,
             bypass == Bypass::cannot_run ? FailureKind::skipped : FailureKind::error,
             std::move(winner_reason)}};
        for (const CandidateFailure& earlier : entry->failures) {
            failures.push_back(earlier);  // why the others never ranked, for a complete error
        }
        for (const RankedCandidate& ranked : entry->ranking) {
            if (ranked.index == winner || ranked.index >= set.size() ||
                set.candidate(ranked.index).name != ranked.name) {
                continue;
            }
            if (set.priority(ranked.index, key) < 0) {
                failures.push_back(
                    {ranked.name, ranked.index, FailureKind::skipped, "cannot run these inputs"});
                continue;
            }
            if (std::optional<std::string> earlier = tuner.exclusion(key, ranked.index, identity)) {
                failures.push_back({ranked.name, ranked.index, FailureKind::error,
                                    "failed earlier on these inputs: " + *earlier});
                continue;
            }
            Result<Out> out = set.run(ranked.index, inputs);
            if (out) {
                events.emit(TuneEventKind::fallback_used, ranked.name, why);
                if (info != nullptr) {
                    *info = {LookupSource::fallback, ranked.index, entry};
                }
                return std::move(out).value();
            }
            tuner.exclude(key, ranked.index, identity, out.error());
            failures.push_back({ranked.name, ranked.index, FailureKind::error, out.error()});
        }
        if (info != nullptr) {
            info->entry = entry;
        }
        return make_unexpected(detail::no_viable_candidate(
            why + "; no ranked candidate ran for key " + key_text + " of tuner '" + name_ + "'",
            std::move(failures)));
    }

    std::string name_;
    mutable std::mutex options_mutex_;
    std::shared_ptr<const TunerOptions> options_;
    std::shared_ptr<InMemoryStore> fallback_store_ = std::make_shared<InMemoryStore>();

    mutable std::shared_mutex sets_mutex_;
    std::unordered_map<SetSlot, std::shared_ptr<InitCell>, SetSlotHash> sets_;

    mutable std::shared_mutex tuners_mutex_;
    std::unordered_map<DeviceId, std::unordered_map<std::uint64_t, std::shared_ptr<Tuner>>>
        by_device_;
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<Tuner>> opened_;
};

}  // namespace spvtune::tune
