#include "cache_samples.hpp"

#include <nlohmann/json.hpp>

namespace spvtune::tune::testing {

HardwareIdentity sample_hardware(const std::string& key, const std::string& driver_version,
                                 std::uint32_t device_id) {
    HardwareIdentity hardware;
    hardware.key = key;
    hardware.vendor_id = 0x10de;
    hardware.device_id = device_id;
    hardware.device_name = "Test GPU \"Ti\" ü";
    hardware.driver_version = driver_version;
    hardware.record = {{"device_name", hardware.device_name},
                       {"driver_version", driver_version},
                       {"pipeline_cache_uuid", "01234567-89ab-cdef-0123-456789abcdef"},
                       {"api_version", "1.3.239"}};
    return hardware;
}

std::vector<CandidateDescription> sample_candidates() {
    return {{"naive", "d1"}, {"tiled_16x16", "d2"}, {"tiled_32x8", "d3"}, {"broken", "d4"}};
}

EntryAddress sample_address(const std::string& key_value, const std::string& tuner,
                            std::uint64_t checksum) {
    return EntryAddress{tuner, checksum, nlohmann::json{{"n", key_value}}.dump()};
}

TuneEntry sample_entry(const std::string& winner, int seed) {
    const double base = 1000.0 + seed * 17.25;
    // A winner's name is its candidate's (readers refuse another): its place in
    // sample_candidates(), else 1 for a list whose candidate 1 the caller names so.
    const auto candidates = sample_candidates();
    std::size_t index = 1;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].name == winner) {
            index = i;
        }
    }
    TuneEntry entry;
    entry.winner_name = winner;
    entry.winner_index = index;
    entry.ranking = {
        RankedCandidate{winner,
                        index,
                        {31, base, base + 0.5, base + 1.0 / 3.0, 2.75, base - 3.0, base + 4.0},
                        TimingMethod::device_timestamps,
                        false,
                        false},
        RankedCandidate{"tiled_32x8",
                        2,
                        {17, base + 2, base + 3, base + 3.1, 1.5e-3, base + 1, base + 5},
                        TimingMethod::host_clock,
                        true,
                        false},
        RankedCandidate{"naive",
                        0,
                        {5, 9.5e6, 1.0e7, 1.01e7, 123.456, 9.9e6, 1.02e7},
                        TimingMethod::device_timestamps,
                        false,
                        true},
    };
    entry.failures = {
        CandidateFailure{"broken", 3, FailureKind::error, "limit exceeded: 2048 > 1024"},
        CandidateFailure{"wrong", 4, FailureKind::wrong_output, "element 7: 1 != 2"},
        CandidateFailure{"skipped", 5, FailureKind::skipped, "priority -1"}};
    entry.tuned_at = "2026-11-29T19:30:0" + std::to_string(seed % 10) + "Z";
    entry.settings = {
        {"min_samples", 5}, {"max_samples", 31}, {"min_window_ms", 0.25}, {"checks", false}};
    entry.needs_retune = false;
    return entry;
}

CacheDocument sample_document(std::size_t entries) {
    CacheDocument document = cache::make_cache_document(sample_hardware());
    static const char* const tuners[] = {"matmul", "reduce", "softmax", "conv2d"};
    for (std::size_t i = 0; i < entries; ++i) {
        const std::string value = "shape-" + std::to_string(i);
        document.put(
            sample_address(value, tuners[i % 4]), sample_candidates(),
            cache::CacheKeyRecord{"n=" + value, sample_entry("tiled_16x16", static_cast<int>(i))});
    }
    return document;
}

}  // namespace spvtune::tune::testing
