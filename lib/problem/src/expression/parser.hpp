#pragma once

#include <memory>
#include <string_view>

#include "tree.hpp"

namespace spvtune::problem::detail {

/// Parses `text` into a tree (grammar in expression.hpp). Also rejects, before any evaluation,
/// unknown functions, wrong argument counts and nesting deep enough to exhaust the stack.
/// Throws ExpressionError.
std::shared_ptr<const Tree> parse_tree(std::string_view text);

}  // namespace spvtune::problem::detail
