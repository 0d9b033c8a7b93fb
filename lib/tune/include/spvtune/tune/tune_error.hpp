#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// An execute that returned no output: why, with each candidate's reason.
struct TuneError {
    /// Lists every candidate considered and why it did not produce the output.
    std::string message;
    std::vector<CandidateFailure> failures;
};

/// Name of a failure kind as reports print it ("error", "wrong output", "skipped"): the cache
/// file's spelling with spaces for underscores, so the two cannot disagree.
std::string failure_kind_name(FailureKind kind);

/// A multi-line message: `headline`, then one "  - name (#index): kind: reason" line per failure.
std::string describe_failures(std::string_view headline,
                              const std::vector<CandidateFailure>& failures);

}  // namespace spvtune::tune
