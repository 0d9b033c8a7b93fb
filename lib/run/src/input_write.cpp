#include "input_write.hpp"

#include <algorithm>
#include <cstring>

namespace spvtune::run::detail {
namespace {

/// Byte equality through memcmp, not a generic algorithm: the sanitizer build is unoptimised,
/// and there an element-by-element comparison of every input after every checked run was the
/// largest cost of a tune.
bool same_bytes(std::span<const std::byte> a, std::span<const std::byte> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

}  // namespace

std::optional<std::string> describe_input_write(const problem::ResolvedBuffer& buffer,
                                                std::span<const std::byte> initial,
                                                std::span<const std::byte> now) {
    if (same_bytes(initial, now)) {
        return std::nullopt;
    }
    const std::size_t size = vulkan::element_size(buffer.type);
    const std::size_t elements = std::min(initial.size(), now.size()) / size;
    std::size_t changed = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < elements; ++i) {
        if (!same_bytes(initial.subspan(i * size, size), now.subspan(i * size, size))) {
            first = changed++ == 0 ? i : first;
        }
    }
    return "writes to input buffer '" + buffer.name + "': " + std::to_string(changed) + " of " +
           std::to_string(elements) + " elements changed, the first at " + buffer.name + "[" +
           std::to_string(first) + "]";
}

}  // namespace spvtune::run::detail
