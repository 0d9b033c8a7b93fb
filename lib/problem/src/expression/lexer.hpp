#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::problem::detail {

enum class TokenKind {
    integer,
    floating,
    string,
    name,
    plus,
    minus,
    star,
    slash,
    percent,
    bang,
    less,
    less_equal,
    greater,
    greater_equal,
    equal,
    not_equal,
    and_and,
    or_or,
    question,
    colon,
    left_paren,
    right_paren,
    comma,
    end,
};

struct Token {
    TokenKind kind = TokenKind::end;
    std::string_view spelling;  // a view into the expression text
    std::size_t column = 0;     // 1-based, in characters
    std::size_t length = 1;     // in characters, at least 1 so a caret can point at it
    // Integer literals keep their magnitude unsigned so that `-9223372036854775808` can be
    // written: the parser applies the sign.
    std::uint64_t integer = 0;
    double floating = 0.0;
    std::string text;  // a string literal's contents, escapes resolved
};

/// Splits `text` into tokens ending with one `end` token placed just after the last character.
/// Throws ExpressionError on a bad character, malformed number or unterminated string.
std::vector<Token> tokenize(std::string_view text);

/// How a token reads in a message: `'*'`, `'TILE'`, or `end of expression`.
std::string describe(const Token& token);

}  // namespace spvtune::problem::detail
