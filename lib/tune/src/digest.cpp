#include <spvtune/tune/digest.hpp>

namespace spvtune::tune {

std::string to_hex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i) {
        text[static_cast<std::size_t>(i)] = digits[value & 0xfU];
        value >>= 4;
    }
    return text;
}

}  // namespace spvtune::tune
