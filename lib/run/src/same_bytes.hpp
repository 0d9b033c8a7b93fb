#pragma once

#include <cstddef>
#include <cstring>
#include <span>

namespace spvtune::run::detail {

/// Byte equality through memcmp, not a generic algorithm: the sanitizer build is unoptimised,
/// and there comparing every checked run's buffers byte by byte was the largest cost of a tune.
inline bool same_bytes(std::span<const std::byte> a, std::span<const std::byte> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

}  // namespace spvtune::run::detail
