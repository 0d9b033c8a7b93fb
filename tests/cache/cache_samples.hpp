#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <spvtune/cache/cache_document.hpp>

// Entries with every field set to something other than its default, so a field the format
// forgets shows up as a difference.
namespace spvtune::tune::testing {

using cache::CacheDocument;

inline constexpr std::uint64_t sample_checksum = 0x0123456789abcdefULL;

HardwareIdentity sample_hardware(const std::string& key = "test-gpu-00000000000000aa",
                                 const std::string& driver_version = "1.2.3",
                                 std::uint32_t device_id = 0x1234);

std::vector<CandidateDescription> sample_candidates();

/// The address of key {"n": value} of tuner `tuner`.
EntryAddress sample_address(const std::string& key_value, const std::string& tuner = "matmul",
                            std::uint64_t checksum = sample_checksum);

/// A settled entry won by `winner`, at its index in sample_candidates() (1 when it is not
/// there: a list of the caller's names it at 1); `seed` varies the numbers.
TuneEntry sample_entry(const std::string& winner = "tiled_16x16", int seed = 1);

/// A document with `entries` entries spread over four tuners, as a large real cache would be.
CacheDocument sample_document(std::size_t entries);

}  // namespace spvtune::tune::testing
