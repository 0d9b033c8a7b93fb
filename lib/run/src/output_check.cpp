#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include <spvtune/base/name_list.hpp>
#include <spvtune/run/output_check.hpp>

#include "same_bytes.hpp"

namespace spvtune::run {
namespace {

/// How many mismatching indices a report lists: enough to see a pattern (a stride, a tail).
constexpr std::size_t listed_indices = 8;

bool all_poison(std::span<const std::byte> element) {
    for (std::byte b : element) {
        if (b != poison_byte) {
            return false;
        }
    }
    return true;
}

bool matches(const problem::Comparison& comparison, double want, double got) {
    if (std::isnan(want) || std::isnan(got)) {
        return false;
    }
    if (comparison.exact) {
        return want == got;
    }
    if (std::isinf(want) || std::isinf(got)) {
        return want == got;
    }
    return std::fabs(got - want) <= comparison.atol + comparison.rtol * std::fabs(want);
}

std::string number(double value) {
    if (std::isnan(value)) {
        return "nan";  // a NaN's sign bit means nothing; "-nan" would only puzzle the reader
    }
    std::ostringstream text;
    text.precision(9);
    text << value;
    return text.str();
}

/// The worst error of one kind among the mismatches, and where.
struct Largest {
    double error = -1;
    std::size_t index = 0;

    void offer(double candidate, std::size_t at) {
        if (candidate > error) {
            error = candidate;
            index = at;
        }
    }
};

/// Every mismatch of one buffer, summarised: a single first element hides whether a kernel is
/// wrong everywhere, at a tail, or by a rounding hair.
struct Mismatches {
    std::size_t count = 0;
    std::vector<std::size_t> indices;  ///< the first listed_indices
    std::string first;                 ///< the first mismatch in detail
    Largest absolute;                  ///< over mismatches where both values are finite
    Largest relative;
};

/// Which of a mismatch's two elements still hold the poison pattern.
struct Poisoned {
    bool want = false;
    bool got = false;
};

std::string describe_first(const problem::Comparison& comparison, const std::string& name,
                           std::size_t index, double want, double got, Poisoned poison) {
    std::string message = name + "[" + std::to_string(index) + "]: expected " + number(want);
    if (poison.want) {
        // An integer reference element may hold the pattern as a value it wrote (-1, the
        // maximum); a float one is a NaN that arithmetic does not create.
        message += std::isnan(want)
                       ? " (the poison pattern: the reference never wrote it)"
                       : " (the poison pattern: the reference may not have written it)";
    } else if (!std::isfinite(want)) {
        // A tolerance around NaN or an infinity is NaN or infinite itself: say where the value
        // came from and how it matches instead.
        message += std::isnan(want) ? " (the reference's output; NaN matches nothing)"
                                    : " (the reference's output; an infinity matches only itself)";
    }
    message += ", got " + number(got);
    if (poison.got) {
        message += " (the poison pattern: never written)";
    } else if (std::isfinite(want) && std::isnan(got)) {
        message += " (NaN matches nothing)";
    } else if (std::isfinite(want) && !comparison.exact) {
        message += " (|difference| " + number(std::fabs(got - want)) + " > tolerance " +
                   number(comparison.atol + comparison.rtol * std::fabs(want)) + ")";
    }
    return message;
}

/// Whether any element of `Bits` width is a NaN: with the sign bit cleared, its bits exceed an
/// infinity's (all exponent bits set, a mantissa that is not zero). Every checked run whose
/// outputs equal the reference's bytes pays this scan, so it keeps eight running maxima with no
/// branch per element (0.25 ms for 4 MiB of f32 on a 2-core CI machine, where a test with an
/// early exit per element took 0.5 ms), and stops at the end of the first 4 KiB that holds one.
template <class Bits>
bool any_nan_bits(std::span<const std::byte> bytes, Bits exponent, Bits mantissa) {
    constexpr std::size_t lanes = 8;
    constexpr std::size_t block = 4096 / sizeof(Bits);
    const Bits magnitude = exponent | mantissa;
    const std::size_t count = bytes.size() / sizeof(Bits);
    const auto element = [&](std::size_t index) {
        Bits bits;
        std::memcpy(&bits, bytes.data() + index * sizeof(Bits), sizeof bits);
        return static_cast<Bits>(bits & magnitude);
    };
    for (std::size_t start = 0; start < count; start += block) {
        const std::size_t end = std::min(start + block, count);
        std::array<Bits, lanes> largest{};
        std::size_t index = start;
        for (; index + lanes <= end; index += lanes) {
            for (std::size_t lane = 0; lane < lanes; ++lane) {
                largest[lane] = std::max(largest[lane], element(index + lane));
            }
        }
        for (; index < end; ++index) {
            largest[0] = std::max(largest[0], element(index));
        }
        if (*std::ranges::max_element(largest) > exponent) {
            return true;
        }
    }
    return false;
}

bool holds_nan(const problem::BufferSpec& buffer, std::span<const std::byte> bytes) {
    switch (buffer.type) {
        case vulkan::ElementType::f16:
            return any_nan_bits<std::uint16_t>(bytes, 0x7c00, 0x03ff);
        case vulkan::ElementType::f32:
            return any_nan_bits<std::uint32_t>(bytes, 0x7f800000, 0x007fffff);
        case vulkan::ElementType::f64:
            return any_nan_bits<std::uint64_t>(bytes, 0x7ff0000000000000, 0x000fffffffffffff);
        default:
            return false;
    }
}

Mismatches find_mismatches(const problem::Comparison& comparison, const problem::BufferSpec& buffer,
                           std::span<const std::byte> expected, std::span<const std::byte> actual) {
    const std::size_t size = vulkan::element_size(buffer.type);
    Mismatches found;
    if (detail::same_bytes(expected, actual) && !holds_nan(buffer, expected)) {
        return found;  // equal values match under any tolerance; only NaN matches nothing
    }
    for (std::size_t index = 0; index < expected.size() / size; ++index) {
        const double want = vulkan::read_element(buffer.type, expected, index);
        const double got = vulkan::read_element(buffer.type, actual, index);
        if (matches(comparison, want, got)) {
            continue;
        }
        if (found.count++ == 0) {
            found.first = describe_first(comparison, buffer.name, index, want, got,
                                         {all_poison(expected.subspan(index * size, size)),
                                          all_poison(actual.subspan(index * size, size))});
        }
        if (found.indices.size() < listed_indices) {
            found.indices.push_back(index);
        }
        if (std::isfinite(want) && std::isfinite(got)) {
            const double error = std::fabs(got - want);
            found.absolute.offer(error, index);
            found.relative.offer(
                want == 0 ? std::numeric_limits<double>::infinity() : error / std::fabs(want),
                index);
        }
    }
    return found;
}

/// "y[17]: expected 1.5, got 2 (...); 3 of 1000 elements of y differ, at 17, 18, 40; largest
/// absolute error 0.5 at y[18], largest relative error 0.25 at y[17]".
std::string report(const Mismatches& found, const std::string& name, std::size_t elements) {
    std::string message = found.first + "; " + std::to_string(found.count) + " of " +
                          std::to_string(elements) + " elements of " + name + " differ, at ";
    for (std::size_t i = 0; i < found.indices.size(); ++i) {
        message += (i == 0 ? "" : ", ") + std::to_string(found.indices[i]);
    }
    message += found.count > found.indices.size() ? ", ..." : "";
    if (found.absolute.error >= 0) {
        message += "; largest absolute error " + number(found.absolute.error) + " at " + name +
                   "[" + std::to_string(found.absolute.index) + "], largest relative error " +
                   number(found.relative.error) + " at " + name + "[" +
                   std::to_string(found.relative.index) + "]";
    }
    return message;
}

/// How many ranges of unwritten elements a message lists: a tail or a stride shows in a few.
constexpr std::size_t listed_ranges = 4;

/// "d[1533..4095] (2563 of 4096 elements)", or "d[0, 2, 4, ...] (...)": the runs of elements
/// of `buffer` (`elements` long) for which `selected(index)` holds; empty when there are none.
template <class Selected>
std::string element_ranges(const problem::BufferSpec& buffer, std::size_t elements,
                           Selected selected) {
    std::string ranges;
    std::size_t listed = 0;
    std::size_t count = 0;
    for (std::size_t index = 0; index < elements;) {
        if (!selected(index)) {
            ++index;
            continue;
        }
        std::size_t end = index + 1;
        while (end < elements && selected(end)) {
            ++end;
        }
        count += end - index;
        if (listed++ < listed_ranges) {
            ranges += (ranges.empty() ? "" : ", ") + std::to_string(index) +
                      (end - index > 1 ? ".." + std::to_string(end - 1) : "");
        } else if (listed == listed_ranges + 1) {
            ranges += ", ...";
        }
        index = end;
    }
    if (count == 0) {
        return {};
    }
    return buffer.name + "[" + ranges + "] (" + std::to_string(count) + " of " +
           std::to_string(elements) + " elements)";
}

std::string unwritten_ranges(const problem::BufferSpec& buffer, std::span<const std::byte> bytes) {
    const std::size_t size = vulkan::element_size(buffer.type);
    return element_ranges(buffer, bytes.size() / size, [&](std::size_t index) {
        return all_poison(bytes.subspan(index * size, size));
    });
}

/// What the reference's non-finite values at the doubted elements are: "NaN", "an infinity",
/// or "NaN and infinities".
std::string non_finite_kinds(bool nan, bool infinite) {
    if (nan && infinite) {
        return "NaN and infinities";
    }
    return nan ? "NaN" : "an infinity";
}

/// Whether the comparisons' buffers have the same sizes in all three outputs, and `candidate`
/// broke nothing: only then can its values speak against the reference's.
bool comparable(const problem::Problem& problem, const CandidateOutputs& reference,
                const CandidateOutputs& candidate) {
    const std::size_t buffers = problem.reference.compare.size();
    if (!candidate.violations.empty() || reference.buffers.size() != buffers ||
        candidate.buffers.size() != buffers) {
        return false;
    }
    for (std::size_t i = 0; i < buffers; ++i) {
        if (reference.buffers[i].size() != candidate.buffers[i].size()) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::optional<std::string> non_finite_in_reference(const problem::Problem& problem,
                                                   const CandidateOutputs& reference,
                                                   const CandidateOutputs& candidate) {
    if (!comparable(problem, reference, candidate)) {
        return std::nullopt;
    }
    const auto& comparisons = problem.reference.compare;
    std::string ranges;
    bool nan = false;
    bool infinite = false;
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        const problem::Comparison& comparison = comparisons[i];
        const problem::BufferSpec& buffer = problem.buffers[comparison.buffer];
        const auto& want = reference.buffers[i];
        const auto& got = candidate.buffers[i];
        const std::size_t elements = want.size() / vulkan::element_size(buffer.type);
        const auto doubted = [&](std::size_t index) {
            const double expected = vulkan::read_element(buffer.type, want, index);
            return !std::isfinite(expected) &&
                   std::isfinite(vulkan::read_element(buffer.type, got, index));
        };
        for (std::size_t index = 0; index < elements; ++index) {
            const double expected = vulkan::read_element(buffer.type, want, index);
            if (doubted(index)) {
                (std::isnan(expected) ? nan : infinite) = true;
            } else if (!matches(comparison, expected,
                                vulkan::read_element(buffer.type, got, index))) {
                return std::nullopt;  // a mismatch the reference's values do not explain
            }
        }
        const std::string where = element_ranges(buffer, elements, doubted);
        if (!where.empty()) {
            ranges += (ranges.empty() ? "" : ", ") + where;
        }
    }
    if (ranges.empty()) {
        return std::nullopt;
    }
    return "gave " + non_finite_kinds(nan, infinite) + " at " + ranges;
}

bool agree_where_reference_not_finite(const problem::Problem& problem,
                                      const CandidateOutputs& reference,
                                      const CandidateOutputs& first,
                                      const CandidateOutputs& second) {
    if (!comparable(problem, reference, first) || !comparable(problem, reference, second)) {
        return false;
    }
    const auto& comparisons = problem.reference.compare;
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        const problem::Comparison& comparison = comparisons[i];
        const problem::BufferSpec& buffer = problem.buffers[comparison.buffer];
        const std::size_t elements =
            reference.buffers[i].size() / vulkan::element_size(buffer.type);
        for (std::size_t index = 0; index < elements; ++index) {
            if (std::isfinite(vulkan::read_element(buffer.type, reference.buffers[i], index))) {
                continue;
            }
            if (!matches(comparison, vulkan::read_element(buffer.type, first.buffers[i], index),
                         vulkan::read_element(buffer.type, second.buffers[i], index))) {
                return false;
            }
        }
    }
    return true;
}

std::optional<std::string> unwritten_by_reference(const problem::Problem& problem,
                                                  const CandidateOutputs& reference) {
    const auto& comparisons = problem.reference.compare;
    std::string message;
    for (std::size_t i = 0; i < comparisons.size() && i < reference.buffers.size(); ++i) {
        const problem::BufferSpec& buffer = problem.buffers[comparisons[i].buffer];
        if (!vulkan::is_floating(buffer.type)) {
            continue;
        }
        const std::string ranges = unwritten_ranges(buffer, reference.buffers[i]);
        if (!ranges.empty()) {
            message += (message.empty() ? "did not write " : " nor ") + ranges;
        }
    }
    if (message.empty()) {
        return std::nullopt;
    }
    return message;
}

bool identical_outputs_match(const problem::Problem& problem, const CandidateOutputs& reference) {
    const auto& comparisons = problem.reference.compare;
    if (reference.buffers.size() != comparisons.size()) {
        return false;
    }
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        if (holds_nan(problem.buffers[comparisons[i].buffer], reference.buffers[i])) {
            return false;
        }
    }
    return true;
}

bool same_outputs(const CandidateOutputs& a, const CandidateOutputs& b) {
    if (&a == &b) {
        return true;
    }
    if (a.buffers.size() != b.buffers.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        if (!detail::same_bytes(a.buffers[i], b.buffers[i])) {
            return false;
        }
    }
    return true;
}

std::optional<std::string> compare_outputs(const problem::Problem& problem,
                                           const CandidateOutputs& want,
                                           const CandidateOutputs& got) {
    if (got.verdict) {
        if (got.verdict->reference && same_outputs(*got.verdict->reference, want)) {
            return got.verdict->mismatch;
        }
        if (got.buffers.empty()) {
            return "internal error: the outputs were compared with another reference's where "
                   "the candidate ran, and are not at hand to compare with this one";
        }
    }
    const auto& comparisons = problem.reference.compare;
    if (want.buffers.size() != comparisons.size() || got.buffers.size() != comparisons.size()) {
        return "internal error: expected " + std::to_string(comparisons.size()) +
               " checked buffers, the reference has " + std::to_string(want.buffers.size()) +
               " and the candidate " + std::to_string(got.buffers.size());
    }
    // Its outputs may be right and still the run broke what later candidates read.
    if (!got.violations.empty()) {
        return base::join(got.violations, "; ");
    }
    std::string message;
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        const problem::Comparison& comparison = comparisons[i];
        const problem::BufferSpec& buffer = problem.buffers[comparison.buffer];
        const auto& expected = want.buffers[i];
        const auto& actual = got.buffers[i];
        if (expected.size() != actual.size()) {
            return buffer.name + ": " + std::to_string(actual.size()) +
                   " bytes, the reference has " + std::to_string(expected.size());
        }
        const Mismatches found = find_mismatches(comparison, buffer, expected, actual);
        if (found.count != 0) {
            message +=
                (message.empty() ? "" : "; ") +
                report(found, buffer.name, expected.size() / vulkan::element_size(buffer.type));
        }
    }
    if (message.empty()) {
        return std::nullopt;
    }
    return message;
}

std::pair<std::size_t, std::size_t> checked_bytes(const problem::ResolvedBuffer& buffer,
                                                  std::size_t size) {
    const std::size_t element = vulkan::element_size(buffer.type);
    const std::size_t begin = std::min<std::size_t>(buffer.checked.first * element, size);
    return {begin, std::clamp<std::size_t>(buffer.checked.second * element, begin, size)};
}

void keep_checked_range(const problem::Problem& problem,
                        std::span<const problem::ResolvedBuffer> buffers,
                        CandidateOutputs& outputs) {
    const auto& comparisons = problem.reference.compare;
    for (std::size_t i = 0; i < comparisons.size() && i < outputs.buffers.size(); ++i) {
        if (comparisons[i].buffer >= buffers.size()) {
            continue;
        }
        const problem::ResolvedBuffer& buffer = buffers[comparisons[i].buffer];
        // A comparison's range, or the padding past the buffer's logical elements.
        if (buffer.checked.first == 0 && buffer.checked.second == buffer.count) {
            continue;
        }
        base::LargeBytes& bytes = outputs.buffers[i];
        const auto [begin, end] = checked_bytes(buffer, bytes.size());
        std::fill(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(begin), std::byte{0});
        std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(end), bytes.end(), std::byte{0});
    }
}

}  // namespace spvtune::run
