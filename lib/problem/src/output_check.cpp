#include <cmath>
#include <sstream>

#include <spvtune/problem/output_check.hpp>

namespace spvtune::problem {
namespace {

bool all_poison(std::span<const std::byte> element) {
    for (std::byte b : element) {
        if (b != poison_byte) {
            return false;
        }
    }
    return true;
}

bool matches(const Comparison& comparison, double want, double got) {
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
    std::ostringstream text;
    text.precision(9);
    text << value;
    return text.str();
}

}  // namespace

std::optional<std::string> compare_outputs(const Problem& problem, const CandidateOutputs& want,
                                           const CandidateOutputs& got) {
    const auto& comparisons = problem.reference.compare;
    if (want.buffers.size() != comparisons.size() || got.buffers.size() != comparisons.size()) {
        return "internal error: expected " + std::to_string(comparisons.size()) +
               " checked buffers, the reference has " + std::to_string(want.buffers.size()) +
               " and the candidate " + std::to_string(got.buffers.size());
    }
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        const Comparison& comparison = comparisons[i];
        const BufferSpec& buffer = problem.buffers[comparison.buffer];
        const std::size_t size = vulkan::element_size(buffer.type);
        const auto& expected = want.buffers[i];
        const auto& actual = got.buffers[i];
        if (expected.size() != actual.size()) {
            return buffer.name + ": " + std::to_string(actual.size()) +
                   " bytes, the reference has " + std::to_string(expected.size());
        }
        const std::size_t count = expected.size() / size;
        for (std::size_t index = 0; index < count; ++index) {
            const double w = vulkan::read_element(buffer.type, expected, index);
            const double g = vulkan::read_element(buffer.type, actual, index);
            if (matches(comparison, w, g)) {
                continue;
            }
            std::string message = buffer.name + "[" + std::to_string(index) + "]: expected " +
                                  number(w) + ", got " + number(g);
            if (all_poison(std::span(actual).subspan(index * size, size))) {
                message += " (the poison pattern: never written)";
            } else if (!comparison.exact) {
                message += " (|difference| " + number(std::fabs(g - w)) + " > tolerance " +
                           number(comparison.atol + comparison.rtol * std::fabs(w)) + ")";
            }
            return message;
        }
    }
    return std::nullopt;
}

}  // namespace spvtune::problem
