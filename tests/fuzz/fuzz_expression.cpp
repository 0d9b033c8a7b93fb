// Fuzzes the expression language: parse arbitrary text, then evaluate what parses with every
// variable it names bound to a value of some type. ExpressionError is the documented answer to
// bad text or a bad evaluation; anything else (another exception, a crash, UB) is a finding.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <spvtune/problem/expression.hpp>

namespace {

using spvtune::problem::Expression;
using spvtune::problem::ExpressionError;
using spvtune::problem::Scope;
using spvtune::problem::Value;

// The name picks the value, so one input always evaluates alike and every type and the integer
// extremes (overflow checks) are reachable by renaming a variable.
Value value_for(std::string_view name) {
    switch (name.size() % 6) {
        case 0:
            return std::int64_t{1024};
        case 1:
            return std::int64_t{-3};
        case 2:
            return std::numeric_limits<std::int64_t>::max();
        case 3:
            return 2.5;
        case 4:
            return true;
        default:
            return std::string("f32");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const Expression expression = Expression::parse(text);
        Scope scope;
        for (const std::string& name : expression.variables()) {
            scope.set(name, value_for(name));
        }
        (void)expression.evaluate(scope);
    } catch (const ExpressionError&) {
        // The documented way to refuse text or a value.
    }
    return 0;
}
