#pragma once

// What the tests of a reference list check when the first reference gives way to the second
// (index 1): the key's truth, the first reference's reason, a wrong candidate judged against
// the second, and the note that says so.

#include <optional>
#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace fakes {

/// Checks that `info`'s key was judged against candidate 1 after `fallen` gave way for
/// `reason`, and that the one wrong candidate is `wrong` for `mismatch`.
inline void check_second_reference_took_over(const ExecutionInfo& info, const EventLog& events,
                                             const std::string& fallen, const std::string& reason,
                                             const std::string& wrong,
                                             const std::string& mismatch) {
    REQUIRE(info.entry);
    CHECK(info.entry->reference == std::optional<std::size_t>(1));
    REQUIRE(info.entry->failures.size() == 2);
    CHECK(info.entry->failures[0].name == fallen);
    CHECK(info.entry->failures[0].reason == reason);
    CHECK(info.entry->failures[1].name == wrong);
    CHECK(info.entry->failures[1].kind == FailureKind::wrong_output);
    CHECK(info.entry->failures[1].reason == mismatch);
    const auto note = events.last(TuneEventKind::checks_note);
    REQUIRE(note);
    CHECK(note->candidate == fallen);
}

}  // namespace fakes
