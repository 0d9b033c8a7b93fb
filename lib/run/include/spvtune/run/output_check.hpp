#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/base/large_page_allocator.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/tune/sampling.hpp>

namespace spvtune::run {

/// What a candidate produced for one key: the bytes of every checked buffer, in
/// Problem::reference.compare order.
struct CandidateOutputs {
    std::vector<base::LargeBytes> buffers;
    /// What the run did to memory it must leave alone, one message each: a write into a buffer
    /// declared input ("writes to input buffer 'x': ..."), a write past either end of a buffer
    /// ("wrote past the end of 'y': ..."). compare_outputs rejects a candidate with any.
    std::vector<std::string> violations;

    /// A comparison already made where the candidate ran (a worker process compares there, so
    /// that outputs that match need not cross the socket): against which reference outputs,
    /// and compare_outputs's message there (none: they match). `buffers` is then empty when
    /// they match, and holds the outputs when they differ.
    struct Verdict {
        std::shared_ptr<const CandidateOutputs> reference;
        std::optional<std::string> mismatch;
    };
    std::optional<Verdict> verdict = std::nullopt;

    /// The run's own time, one run between timestamps where the device has them: a kernel run
    /// the tuner made anyway, so a race counts it as the candidate's first warm-up and reports
    /// count it as kernel time. Cold when it was the candidate's first run for the key.
    std::optional<tune::Sample> reading = std::nullopt;
};

/// The bit pattern written over a candidate's output buffers before each run, so an element it
/// never writes is caught: all ones, which reads as NaN for floats and as -1 or the maximum for
/// integers, values that a comparison against a real result rejects.
inline constexpr std::byte poison_byte{0xff};

/// Compares `got` with the reference's `want` under the problem's comparisons. Nothing when
/// every element matches; else, per buffer that differs, the first mismatch in detail, how many
/// elements differ, the first few of their indices and the largest absolute and relative errors,
/// e.g. "y[17]: expected 1.5, got nan (the poison pattern: never written); 3 of 1000 elements of
/// y differ, at 17, 18, 40; largest absolute error 0.5 at y[18], largest relative error 0.25 at
/// y[40]". NaN never matches; an expected NaN or infinity is said to be the reference's value,
/// and no tolerance is printed for it. A candidate whose run has violations is rejected with
/// them, before its values are compared. When `got` carries a verdict against outputs equal to
/// `want`, that verdict is the answer; against other outputs, with no buffers to compare, the
/// answer says the candidate's outputs are not at hand.
std::optional<std::string> compare_outputs(const problem::Problem& problem,
                                           const CandidateOutputs& want,
                                           const CandidateOutputs& got);

/// Whether a candidate's outputs that hold exactly `reference`'s bytes match them: true unless
/// a compared floating-point buffer holds NaN, which matches nothing. An executor that finds a
/// run's outputs equal to these bytes where they lie can then give the verdict without reading
/// them back.
bool identical_outputs_match(const problem::Problem& problem, const CandidateOutputs& reference);

/// Whether `a` and `b` hold the same bytes in every buffer (their violations aside): how a
/// verdict's reference is recognised.
bool same_outputs(const CandidateOutputs& a, const CandidateOutputs& b);

/// Why a reference's outputs cannot be the truth: the elements of its floating-point buffers
/// it never wrote (they still hold the poison pattern, a NaN that arithmetic does not create), as
/// ranges, e.g. "did not write d[1533..4095] (2563 of 4096 elements)". Nothing when it wrote
/// every element. Integer buffers are not judged: all ones is -1 or the maximum, which a kernel
/// may well write.
std::optional<std::string> unwritten_by_reference(const problem::Problem& problem,
                                                  const CandidateOutputs& reference);

/// Where the reference alone may be wrong: when every element where `candidate` differs from
/// `reference` (under the problem's comparisons) is one where the reference's value is NaN or
/// infinite and the candidate's is finite, those elements as ranges, e.g. "gave NaN at d[3..7]
/// (5 of 4096 elements)"; nothing when they match, when anything else differs, or when the
/// candidate's run has violations. One candidate alone cannot tell a broken reference from a
/// wrong candidate: see agree_where_reference_not_finite.
std::optional<std::string> non_finite_in_reference(const problem::Problem& problem,
                                                   const CandidateOutputs& reference,
                                                   const CandidateOutputs& candidate);

/// Whether `first` and `second` match each other, under the problem's comparisons, at every
/// element where `reference` is NaN or infinite: two candidates that agree there, against the
/// reference, put the reference at fault.
bool agree_where_reference_not_finite(const problem::Problem& problem,
                                      const CandidateOutputs& reference,
                                      const CandidateOutputs& first,
                                      const CandidateOutputs& second);

/// Zeroes, in each checked buffer of `outputs`, the elements outside the range its comparison
/// covers for the key (ResolvedBuffer::checked, from `buffers`: a comparison's range, else the
/// buffer but its padding), so that the comparisons and the judgement of a reference look at
/// that range only: a reduction's scratch elements past its result, or a tiled kernel's writes
/// into the padding, are neither compared nor "not written".
void keep_checked_range(const problem::Problem& problem,
                        std::span<const problem::ResolvedBuffer> buffers,
                        CandidateOutputs& outputs);

/// The bytes of a checked buffer's contents (`size` bytes of `buffer`) that its comparison
/// covers, [first, second), clamped to them: what keep_checked_range keeps.
std::pair<std::size_t, std::size_t> checked_bytes(const problem::ResolvedBuffer& buffer,
                                                  std::size_t size);

}  // namespace spvtune::run
