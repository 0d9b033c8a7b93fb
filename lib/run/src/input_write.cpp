#include "input_write.hpp"

#include <algorithm>

#include "same_bytes.hpp"

namespace spvtune::run::detail {

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
