#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spvtune::problem {

/// A syntax or evaluation error in an expression, located at a 1-based column (counted in
/// characters) and spanning `length` characters of the expression text. `what()` reads
/// "column 7: division by zero"; `render()` shows where.
class ExpressionError : public std::runtime_error {
  public:
    ExpressionError(std::string expression, std::size_t column, std::size_t length,
                    std::string message);

    const std::string& expression() const noexcept { return expression_; }
    std::size_t column() const noexcept { return column_; }
    std::size_t length() const noexcept { return length_; }
    /// The message without the column prefix.
    const std::string& message() const noexcept { return message_; }

    /// Two lines for a terminal, each starting with `indent`: the expression, then a caret
    /// (with '~' over the rest of the span) under the offending text followed by the message:
    ///
    ///     n * 4 / (TILE - 16)
    ///             ^ division by zero
    ///
    /// Tabs in the expression are repeated in the caret line so the caret stays aligned.
    /// No trailing newline.
    std::string render(std::string_view indent = {}) const;

  private:
    std::string expression_;
    std::size_t column_;
    std::size_t length_;
    std::string message_;
};

}  // namespace spvtune::problem
