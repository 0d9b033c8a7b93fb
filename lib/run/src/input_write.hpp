#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <spvtune/problem/resolve.hpp>

namespace spvtune::run::detail {

/// How a run changed a buffer declared input, comparing its contents `now` with the `initial`
/// ones element by element: "writes to input buffer 'x': 4096 of 4096 elements changed, the
/// first at x[0]". Nothing when they are equal.
std::optional<std::string> describe_input_write(const problem::ResolvedBuffer& buffer,
                                                std::span<const std::byte> initial,
                                                std::span<const std::byte> now);

}  // namespace spvtune::run::detail
