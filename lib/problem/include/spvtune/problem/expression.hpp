#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/expression_error.hpp>
#include <spvtune/problem/scope.hpp>
#include <spvtune/problem/value.hpp>

namespace spvtune::problem {

namespace detail {
struct Tree;
}

/// An expression of the problem-description language, parsed once and evaluated for many scopes
/// (every key times every candidate).
///
/// Grammar, loosest binding first (all binary operators are left-associative, `?:` is right-
/// associative):
///
///     ternary  := or ('?' ternary ':' ternary)?
///     or       := and ('||' and)*
///     and      := equality ('&&' equality)*
///     equality := relation (('==' | '!=') relation)*
///     relation := sum (('<' | '<=' | '>' | '>=') sum)*
///     sum      := product (('+' | '-') product)*
///     product  := unary (('*' | '/' | '%') unary)*
///     unary    := ('-' | '!') unary | primary
///     primary  := int | float | string | 'true' | 'false' | name | name '(' args ')' | '(' ternary
///     ')'
///
/// Literals: `42`, `0x2A`, `1.5`, `.5`, `1e-3`, `"f32"` (escapes `\"` and `\\`). Names are
/// `[A-Za-z_][A-Za-z0-9_]*`, or `device.` followed by one (device_properties.hpp), resolved from
/// the Scope at evaluation. Functions: min, max (two or more arguments), ceil_div, pow2, log2,
/// ceil_log2, abs, floor, ceil, round, int, float, and the real-valued pow, exp, log, sqrt.
///
/// Semantics: int op int stays int (division truncates toward zero, `%` needs ints); a float on
/// either side makes the result a float. Integer overflow, division or modulo by zero and a
/// non-finite float result are errors, as is mixing types (`true + 1`, `"a" < 3`). Ints and
/// floats compare exactly by value. `&&`, `||` and `?:` evaluate only what they need.
class Expression {
  public:
    /// Parses `text`. Syntax errors, unknown functions and wrong argument counts throw
    /// ExpressionError here, so a problem file can be checked before anything is evaluated.
    static Expression parse(std::string_view text);

    /// The value for the variables in `scope`. Throws ExpressionError naming the column of the
    /// operator, function or variable that failed. Safe to call concurrently.
    Value evaluate(const Scope& scope) const;

    /// The source text as given to parse().
    const std::string& text() const noexcept;

    /// Every variable name the expression mentions (also in branches that a given evaluation
    /// skips), sorted, each once: for checking names up front.
    const std::vector<std::string>& variables() const noexcept;

  private:
    explicit Expression(std::shared_ptr<const detail::Tree> tree);

    // Shared and immutable: copies are cheap and evaluation needs no lock.
    std::shared_ptr<const detail::Tree> tree_;
};

}  // namespace spvtune::problem
