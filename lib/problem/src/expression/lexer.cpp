#include "lexer.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <utility>

#include <spvtune/problem/expression_error.hpp>

namespace spvtune::problem::detail {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) {
    return is_name_start(c) || is_digit(c);
}
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
// UTF-8 continuation bytes do not start a character, so they do not advance the column.
bool starts_character(char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
}

std::size_t count_characters(std::string_view text) {
    std::size_t count = 0;
    for (char c : text) {
        count += starts_character(c) ? 1 : 0;
    }
    return count;
}

struct Punctuation {
    std::string_view spelling;
    TokenKind kind;
};

// Two-character operators first, so "<=" is never read as "<" then "=".
constexpr Punctuation punctuation[] = {
    {"<=", TokenKind::less_equal}, {">=", TokenKind::greater_equal}, {"==", TokenKind::equal},
    {"!=", TokenKind::not_equal},  {"&&", TokenKind::and_and},       {"||", TokenKind::or_or},
    {"+", TokenKind::plus},        {"-", TokenKind::minus},          {"*", TokenKind::star},
    {"/", TokenKind::slash},       {"%", TokenKind::percent},        {"!", TokenKind::bang},
    {"<", TokenKind::less},        {">", TokenKind::greater},        {"?", TokenKind::question},
    {":", TokenKind::colon},       {"(", TokenKind::left_paren},     {")", TokenKind::right_paren},
    {",", TokenKind::comma},
};

class Lexer {
  public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> run() {
        std::vector<Token> tokens;
        while (true) {
            skip_space();
            if (pos_ == text_.size()) {
                tokens.push_back(make(TokenKind::end, pos_, pos_));
                tokens.back().length = 1;
                return tokens;
            }
            tokens.push_back(next());
        }
    }

  private:
    void skip_space() {
        while (pos_ < text_.size() && is_space(text_[pos_])) {
            ++pos_;
        }
    }

    // Tokens are located left to right, so counting on from the last located offset keeps
    // lexing linear in the length of the text.
    std::size_t column_of(std::size_t offset) const {
        if (offset < counted_offset_) {
            counted_offset_ = 0;
            counted_column_ = 1;
        }
        counted_column_ +=
            count_characters(text_.substr(counted_offset_, offset - counted_offset_));
        counted_offset_ = offset;
        return counted_column_;
    }

    Token make(TokenKind kind, std::size_t begin, std::size_t end) const {
        Token token;
        token.kind = kind;
        token.spelling = text_.substr(begin, end - begin);
        token.column = column_of(begin);
        token.length = count_characters(token.spelling);
        return token;
    }

    [[noreturn]] void fail(std::size_t begin, std::size_t end, std::string message) const {
        std::size_t length = count_characters(text_.substr(begin, end - begin));
        throw ExpressionError(std::string(text_), column_of(begin), length == 0 ? 1 : length,
                              std::move(message));
    }

    Token next() {
        char c = text_[pos_];
        if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
            return number();
        }
        if (is_name_start(c)) {
            std::size_t begin = pos_;
            skip_name();
            // `device.subgroup_size`: a device property is one name, its prefix and a dot
            // included (the only dotted names there are).
            if (spelled(begin) == "device" && pos_ + 1 < text_.size() && text_[pos_] == '.' &&
                is_name_start(text_[pos_ + 1])) {
                ++pos_;
                skip_name();
            }
            return make(TokenKind::name, begin, pos_);
        }
        if (c == '"') {
            return string();
        }
        for (const Punctuation& p : punctuation) {
            if (text_.substr(pos_).starts_with(p.spelling)) {
                std::size_t begin = pos_;
                pos_ += p.spelling.size();
                return make(p.kind, begin, pos_);
            }
        }
        bad_character();
    }

    [[noreturn]] void bad_character() const {
        char c = text_[pos_];
        // The C spellings people reach for first get a pointed hint.
        if (c == '=') {
            fail(pos_, pos_ + 1, "unexpected '=' (did you mean '=='?)");
        }
        if (c == '&' || c == '|') {
            std::string op(1, c);
            fail(pos_, pos_ + 1, "unexpected '" + op + "' (did you mean '" + op + op + "'?)");
        }
        std::size_t end = pos_ + 1;
        while (end < text_.size() && !starts_character(text_[end])) {
            ++end;
        }
        fail(pos_, end,
             "unexpected character '" + std::string(text_.substr(pos_, end - pos_)) + "'");
    }

    Token number() {
        std::size_t begin = pos_;
        bool hex = text_.substr(pos_).starts_with("0x") || text_.substr(pos_).starts_with("0X");
        bool floating = false;
        if (hex) {
            pos_ += 2;
            while (pos_ < text_.size() && is_hex_digit(text_[pos_])) {
                ++pos_;
            }
        } else {
            while (pos_ < text_.size() && is_digit(text_[pos_])) {
                ++pos_;
            }
            if (pos_ < text_.size() && text_[pos_] == '.') {
                floating = true;
                ++pos_;
                while (pos_ < text_.size() && is_digit(text_[pos_])) {
                    ++pos_;
                }
            }
            if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
                floating = true;
                ++pos_;
                if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
                    ++pos_;
                }
                std::size_t digits = pos_;
                while (pos_ < text_.size() && is_digit(text_[pos_])) {
                    ++pos_;
                }
                if (pos_ == digits) {
                    swallow_rest_of_word();
                    fail(begin, pos_, "malformed number '" + std::string(spelled(begin)) + "'");
                }
            }
        }
        // `4n`, `0x`, `1.5.2`: a number running into more word characters is one bad token,
        // not a number followed by something else.
        if ((hex && pos_ == begin + 2) ||
            (pos_ < text_.size() && (is_name_char(text_[pos_]) || text_[pos_] == '.'))) {
            swallow_rest_of_word();
            fail(begin, pos_, "malformed number '" + std::string(spelled(begin)) + "'");
        }
        Token token = make(floating ? TokenKind::floating : TokenKind::integer, begin, pos_);
        if (floating) {
            token.floating = parse_float(begin);
        } else {
            token.integer = parse_integer(begin, hex);
        }
        return token;
    }

    void skip_name() {
        while (pos_ < text_.size() && is_name_char(text_[pos_])) {
            ++pos_;
        }
    }

    void swallow_rest_of_word() {
        while (pos_ < text_.size() && (is_name_char(text_[pos_]) || text_[pos_] == '.')) {
            ++pos_;
        }
    }

    std::string_view spelled(std::size_t begin) const { return text_.substr(begin, pos_ - begin); }

    std::uint64_t parse_integer(std::size_t begin, bool hex) const {
        std::string_view digits = spelled(begin).substr(hex ? 2 : 0);
        std::uint64_t value = 0;
        auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), value, hex ? 16 : 10);
        // 2^63 itself is allowed through: it is valid only after a unary minus, which the parser
        // checks.
        constexpr std::uint64_t limit = std::uint64_t{1} << 63U;
        if (error != std::errc{} || end != digits.data() + digits.size() || value > limit) {
            fail(begin, pos_,
                 "integer literal " + std::string(spelled(begin)) +
                     " is out of range (64-bit signed integers)");
        }
        return value;
    }

    double parse_float(std::size_t begin) const {
        std::string_view spelling = spelled(begin);
        double value = 0.0;
        auto [end, error] = std::from_chars(spelling.data(), spelling.data() + spelling.size(),
                                            value, std::chars_format::general);
        if (error != std::errc{} || end != spelling.data() + spelling.size() ||
            !std::isfinite(value)) {
            fail(begin, pos_, "float literal " + std::string(spelling) + " is out of range");
        }
        return value;
    }

    Token string() {
        std::size_t begin = pos_;
        std::string contents;
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            if (text_[pos_] == '\\') {
                if (pos_ + 1 < text_.size() &&
                    (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\\')) {
                    contents.push_back(text_[pos_ + 1]);
                    pos_ += 2;
                    continue;
                }
                fail(pos_, pos_ + 2 <= text_.size() ? pos_ + 2 : pos_ + 1,
                     "unknown escape in string (only \\\" and \\\\ are allowed)");
            }
            contents.push_back(text_[pos_]);
            ++pos_;
        }
        if (pos_ == text_.size()) {
            fail(begin, begin + 1, "unterminated string");
        }
        ++pos_;
        Token token = make(TokenKind::string, begin, pos_);
        token.text = std::move(contents);
        return token;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    mutable std::size_t counted_offset_ = 0;
    mutable std::size_t counted_column_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
    return Lexer(text).run();
}

std::string describe(const Token& token) {
    if (token.kind == TokenKind::end) {
        return "end of expression";
    }
    return "'" + std::string(token.spelling) + "'";
}

}  // namespace spvtune::problem::detail
