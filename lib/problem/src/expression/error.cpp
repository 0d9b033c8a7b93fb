#include <utility>

#include <spvtune/problem/expression_error.hpp>

#include "location.hpp"

namespace spvtune::problem {

ExpressionError::ExpressionError(std::string expression, std::size_t column, std::size_t length,
                                 std::string message)
    : std::runtime_error("column " + std::to_string(column) + ": " + message),
      expression_(std::move(expression)),
      column_(column == 0 ? 1 : column),
      length_(length == 0 ? 1 : length),
      message_(std::move(message)) {}

std::string ExpressionError::render(std::string_view indent) const {
    std::string out(indent);
    // A line break inside the expression would push the caret onto the wrong line.
    for (char c : expression_) {
        out += c == '\n' || c == '\r' ? ' ' : c;
    }
    out += '\n';
    out += indent;
    // Pad with one character per character before the column (columns count characters, not
    // UTF-8 bytes), keeping tabs so the caret lines up however the terminal expands them.
    std::size_t column = 1;
    for (char c : expression_) {
        if (column >= column_) {
            break;
        }
        if ((static_cast<unsigned char>(c) & 0xC0U) == 0x80U) {
            continue;
        }
        out += c == '\t' ? '\t' : ' ';
        ++column;
    }
    // An error at the end of the text (column one past it) pads with spaces.
    out.append(column_ - column, ' ');
    out += '^';
    out.append(length_ - 1, '~');
    out += ' ';
    out += message_;
    return out;
}

namespace detail {

void Location::fail(std::string message) const {
    throw ExpressionError(std::string(text), column, length, std::move(message));
}

}  // namespace detail

}  // namespace spvtune::problem
