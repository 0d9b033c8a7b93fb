#pragma once

#include <cstdint>
#include <string_view>

#include <spvtune/tune/events.hpp>

namespace spvtune::tune::detail {

/// The fixed parts of the events one execute may emit, so each emit names only what changes.
struct EventContext {
    const Reporter* reporter = nullptr;
    std::string_view tuner;
    std::string_view hardware;
    std::uint64_t checksum = 0;
    std::string_view key;

    void emit(TuneEventKind kind, std::string_view candidate = {}, std::string_view message = {},
              const TuneEntry* entry = nullptr) const {
        if (reporter != nullptr && *reporter) {
            (*reporter)({kind, tuner, hardware, checksum, key, candidate, message, entry});
        }
    }
};

}  // namespace spvtune::tune::detail
