#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace spvtune::base {

/// 64-bit FNV-1a: a stable digest for identities, checksums and file contents. Unlike
/// std::hash its value is the same on every platform, compiler and run, so it can be stored.
class Fnv1a {
  public:
    Fnv1a& add(std::span<const std::byte> bytes) noexcept {
        for (std::byte b : bytes) {
            state_ = (state_ ^ static_cast<std::uint64_t>(b)) * prime;
        }
        return *this;
    }
    Fnv1a& add(std::string_view text) noexcept { return add(std::as_bytes(std::span(text))); }
    /// Adds the value's little-endian bytes, so the digest does not depend on host byte order.
    Fnv1a& add(std::uint64_t value) noexcept {
        for (int i = 0; i < 8; ++i) {
            state_ = (state_ ^ ((value >> (8 * i)) & 0xffU)) * prime;
        }
        return *this;
    }
    /// Adds a length-prefixed field, so ("ab","c") and ("a","bc") differ.
    Fnv1a& add_field(std::string_view text) noexcept { return add(text.size()).add(text); }

    std::uint64_t value() const noexcept { return state_; }

  private:
    static constexpr std::uint64_t prime = 0x100000001b3ULL;
    std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

/// 16 lower-case hex digits.
inline std::string to_hex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i) {
        text[static_cast<std::size_t>(i)] = digits[value & 0xfU];
        value >>= 4;
    }
    return text;
}

}  // namespace spvtune::base
