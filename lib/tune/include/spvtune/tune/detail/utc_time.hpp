#pragma once

#include <string>

namespace spvtune::tune::detail {

/// The current UTC time as ISO 8601 with seconds ("2026-11-29T19:30:00Z"), for TuneEntry::tuned_at.
std::string utc_now_iso8601();

}  // namespace spvtune::tune::detail
