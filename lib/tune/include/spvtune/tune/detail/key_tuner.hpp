#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune::detail {

/// The in-memory results of one candidate list on one hardware, per key: the state machine of
/// the tuner. Every method holds its lock only for the map access, never across user code.
template <class Key>
class KeyTuner {
  public:
    enum class Claim {
        settled,  ///< already settled: run `winner`
        pending,  ///< someone else is tuning it
        claimed,  ///< the caller now owns tuning it and must settle or abandon it
    };

    struct ClaimResult {
        Claim claim = Claim::claimed;
        /// The settled entry, for Claim::settled.
        std::shared_ptr<const TuneEntry> entry;
    };

    explicit KeyTuner(HardwareIdentity hardware) : hardware_(std::move(hardware)) {}

    const HardwareIdentity& hardware() const { return hardware_; }

    /// The settled entry, or null. Shared lock and a hash lookup: allocation-free.
    std::shared_ptr<const TuneEntry> settled(const Key& key) const {
        std::shared_lock lock(mutex_);
        const auto found = slots_.find(key);
        if (found == slots_.end() || !found->second.usable()) {
            return nullptr;
        }
        return found->second.entry;
    }

    /// Atomically: report a settled winner, report someone else's tuning, or mark the key
    /// pending for the caller (also when its entry was marked for re-tuning).
    ClaimResult claim(const Key& key) {
        std::unique_lock lock(mutex_);
        Slot& slot = slots_[key];
        if (slot.usable()) {
            return {Claim::settled, slot.entry};
        }
        if (slot.pending) {
            return {Claim::pending, nullptr};
        }
        slot.pending = true;
        return {Claim::claimed, nullptr};
    }

    void settle(const Key& key, std::shared_ptr<const TuneEntry> entry) {
        std::unique_lock lock(mutex_);
        Slot& slot = slots_[key];
        slot.pending = false;
        slot.winner = entry->winner_index;
        slot.entry = std::move(entry);
    }

    /// Tuning found nothing to settle: forget the claim so a later call tries again.
    void abandon(const Key& key) {
        std::unique_lock lock(mutex_);
        const auto found = slots_.find(key);
        if (found != slots_.end() && found->second.pending) {
            found->second.pending = false;
        }
    }

    /// The settled entry (with its ranking), also when marked for re-tuning.
    std::shared_ptr<const TuneEntry> entry(const Key& key) const {
        std::shared_lock lock(mutex_);
        const auto found = slots_.find(key);
        return found == slots_.end() ? nullptr : found->second.entry;
    }

    /// `candidate` failed at run time for `key` on the inputs `inputs` identifies (every input
    /// of the key when nullopt): later calls skip it there instead of re-tuning the key, so a
    /// candidate that fails on some members of a bucket does not make the bucket thrash.
    void exclude(const Key& key, std::size_t candidate, std::optional<std::uint64_t> inputs,
                 std::string reason) {
        std::unique_lock lock(mutex_);
        exclusions_[key].push_back({inputs, candidate, std::move(reason)});
        any_excluded_.store(true, std::memory_order_release);
    }

    /// Whether anything was ever excluded: lets the hit path skip the lookup (one atomic load).
    bool any_excluded() const noexcept { return any_excluded_.load(std::memory_order_acquire); }

    /// Why `candidate` is excluded for `key` on the inputs `inputs` identifies, if it is.
    std::optional<std::string> exclusion(const Key& key, std::size_t candidate,
                                         std::optional<std::uint64_t> inputs) const {
        std::shared_lock lock(mutex_);
        const auto found = exclusions_.find(key);
        if (found == exclusions_.end()) {
            return std::nullopt;
        }
        for (const Exclusion& excluded : found->second) {
            if (excluded.candidate == candidate &&
                (!excluded.inputs || !inputs || *excluded.inputs == *inputs)) {
                return excluded.reason;
            }
        }
        return std::nullopt;
    }

  private:
    struct Slot {
        bool pending = false;
        std::size_t winner = 0;
        std::shared_ptr<const TuneEntry> entry;

        bool usable() const { return !pending && entry && !entry->needs_retune; }
    };

    struct Exclusion {
        std::optional<std::uint64_t> inputs;
        std::size_t candidate = 0;
        std::string reason;
    };

    HardwareIdentity hardware_;
    mutable std::shared_mutex mutex_;
    std::unordered_map<Key, Slot> slots_;
    std::unordered_map<Key, std::vector<Exclusion>> exclusions_;
    std::atomic<bool> any_excluded_{false};
};

}  // namespace spvtune::tune::detail

namespace spvtune::tune::detail {

/// Releases a claimed key if tuning ends without settling it (no viable candidate, or an
/// exception from a store), so the key is never left pending forever.
template <class Key>
class ClaimGuard {
  public:
    ClaimGuard(KeyTuner<Key>& tuner, const Key& key) : tuner_(&tuner), key_(&key) {}
    ClaimGuard(const ClaimGuard&) = delete;
    ClaimGuard& operator=(const ClaimGuard&) = delete;
    ~ClaimGuard() {
        if (tuner_ != nullptr) {
            tuner_->abandon(*key_);
        }
    }

    /// The key was settled: nothing to undo.
    void release() { tuner_ = nullptr; }

    /// Gives the claim up now rather than at scope exit, before running code that may take long.
    void abandon() {
        if (tuner_ != nullptr) {
            tuner_->abandon(*key_);
            tuner_ = nullptr;
        }
    }

  private:
    KeyTuner<Key>* tuner_;
    const Key* key_;
};

}  // namespace spvtune::tune::detail
