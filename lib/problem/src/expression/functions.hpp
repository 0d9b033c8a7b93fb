#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/value.hpp>

#include "location.hpp"

namespace spvtune::problem::detail {

/// A built-in function. Argument counts are checked when parsing, so `apply` always gets
/// between `min_arguments` and `max_arguments` values; type and domain errors fail at `at`
/// (the function's name in the text).
struct Function {
    std::string_view name;
    std::size_t min_arguments;
    std::size_t max_arguments;
    Value (*apply)(std::span<const Value> arguments, const Location& at);
};

/// The built-in called `name`, or nullptr.
const Function* find_function(std::string_view name);

/// Every built-in's name, sorted (for "unknown function" messages and suggestions).
std::vector<std::string> function_names();

/// How many arguments `function` takes, for messages: "2", "1", "2 or more".
std::string arity(const Function& function);

}  // namespace spvtune::problem::detail
