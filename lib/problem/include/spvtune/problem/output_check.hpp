#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>

namespace spvtune::problem {

/// What a candidate produced for one key: the bytes of every checked buffer, in
/// Problem::reference.compare order.
struct CandidateOutputs {
    std::vector<std::vector<std::byte>> buffers;
};

/// The bit pattern written over a candidate's output buffers before each run, so an element it
/// never writes is caught: all ones, which reads as NaN for floats and as -1 or the maximum for
/// integers, values that a comparison against a real result rejects.
inline constexpr std::byte poison_byte{0xff};

/// Compares `got` with the reference's `want` under the problem's comparisons. Nothing when
/// every element matches; else the first mismatch: buffer, index, expected and got, e.g.
/// "y[17]: expected 1.5, got nan (poison: never written?)". NaN never matches.
std::optional<std::string> compare_outputs(const Problem& problem, const CandidateOutputs& want,
                                           const CandidateOutputs& got);

}  // namespace spvtune::problem
