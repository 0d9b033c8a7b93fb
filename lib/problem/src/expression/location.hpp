#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spvtune::problem::detail {

/// Where in an expression's text an operation happens, so the code that detects an error can
/// throw an ExpressionError pointing there without knowing about the tree.
struct Location {
    std::string_view text;
    std::size_t column = 1;
    std::size_t length = 1;

    [[noreturn]] void fail(std::string message) const;
};

}  // namespace spvtune::problem::detail
