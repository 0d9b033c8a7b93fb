#pragma once

#include <chrono>
#include <string>

namespace spvtune::tune::detail {

/// `time` in UTC as ISO 8601 with seconds ("2026-11-29T19:30:00Z").
std::string iso8601_utc(std::chrono::system_clock::time_point time);

/// The current UTC time as ISO 8601 with seconds, for TuneEntry::tuned_at.
std::string utc_now_iso8601();

}  // namespace spvtune::tune::detail
