#include "parser.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/base/name_list.hpp>
#include <spvtune/problem/expression_error.hpp>
#include <spvtune/problem/suggest.hpp>

#include "functions.hpp"
#include "lexer.hpp"

namespace spvtune::problem::detail {
namespace {

// Evaluation recurses once per tree level, so depth is bounded to keep any input, however
// long, from overflowing the stack. Real problem expressions are a few levels deep.
constexpr std::size_t max_depth = 200;

struct BinaryOperator {
    TokenKind token;
    int precedence;  // higher binds tighter
    NodeKind kind;
    Operator op;
};

constexpr BinaryOperator binary_operators[] = {
    {TokenKind::or_or, 1, NodeKind::logical_or, Operator::add},
    {TokenKind::and_and, 2, NodeKind::logical_and, Operator::add},
    {TokenKind::equal, 3, NodeKind::binary, Operator::equal},
    {TokenKind::not_equal, 3, NodeKind::binary, Operator::not_equal},
    {TokenKind::less, 4, NodeKind::binary, Operator::less},
    {TokenKind::less_equal, 4, NodeKind::binary, Operator::less_equal},
    {TokenKind::greater, 4, NodeKind::binary, Operator::greater},
    {TokenKind::greater_equal, 4, NodeKind::binary, Operator::greater_equal},
    {TokenKind::plus, 5, NodeKind::binary, Operator::add},
    {TokenKind::minus, 5, NodeKind::binary, Operator::subtract},
    {TokenKind::star, 6, NodeKind::binary, Operator::multiply},
    {TokenKind::slash, 6, NodeKind::binary, Operator::divide},
    {TokenKind::percent, 6, NodeKind::binary, Operator::modulo},
};

const BinaryOperator* find_binary(TokenKind kind) {
    for (const BinaryOperator& op : binary_operators) {
        if (op.token == kind) {
            return &op;
        }
    }
    return nullptr;
}

class Parser {
  public:
    explicit Parser(std::string_view text) : tokens_(tokenize(text)) {
        tree_->text = std::string(text);
    }

    std::shared_ptr<const Tree> run() {
        tree_->root = parse_ternary();
        if (peek().kind != TokenKind::end) {
            fail(peek(), "unexpected token " + describe(peek()) + " after a complete expression");
        }
        tree_->variables.assign(variables_.begin(), variables_.end());
        return std::move(tree_);
    }

  private:
    // Counts recursion of the parser itself (every '(', argument list, '?' branch and prefix
    // operator): `((((x))))` adds no tree levels but does recurse.
    class Nesting {
      public:
        Nesting(Parser& parser, const Token& at) : parser_(parser) {
            if (++parser_.nesting_ > max_depth) {
                parser_.fail(at, "expression is nested too deeply (more than " +
                                     std::to_string(max_depth) + " levels)");
            }
        }
        ~Nesting() { --parser_.nesting_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

      private:
        Parser& parser_;
    };

    const Token& peek(std::size_t ahead = 0) const {
        return tokens_[std::min(next_ + ahead, tokens_.size() - 1)];
    }
    const Token& advance() {
        const Token& token = tokens_[next_];
        next_ += token.kind == TokenKind::end ? 0 : 1;
        return token;
    }

    [[noreturn]] void fail(const Token& at, std::string message) const {
        throw ExpressionError(tree_->text, at.column, at.length, std::move(message));
    }

    std::size_t add(Node node, const Token& at) {
        std::size_t depth = 1;
        for (std::size_t child : node.children) {
            depth = std::max(depth, depths_[child] + 1);
        }
        if (depth > max_depth) {
            fail(at, "expression is nested too deeply (more than " + std::to_string(max_depth) +
                         " levels)");
        }
        node.column = at.column;
        node.length = at.length;
        tree_->nodes.push_back(std::move(node));
        depths_.push_back(depth);
        return tree_->nodes.size() - 1;
    }

    std::size_t parse_ternary() {
        Nesting nesting(*this, peek());
        std::size_t condition = parse_binary(1);
        if (peek().kind != TokenKind::question) {
            return condition;
        }
        const Token& question = advance();
        std::size_t if_true = parse_ternary();
        expect(TokenKind::colon, "':' of the '?' at column " + std::to_string(question.column));
        std::size_t if_false = parse_ternary();
        Node node;
        node.kind = NodeKind::conditional;
        node.children = {condition, if_true, if_false};
        return add(std::move(node), question);
    }

    // Precedence climbing: operands bind to operators of at least `min_precedence`; the
    // `+ 1` on the right-hand side makes every binary operator left-associative.
    std::size_t parse_binary(int min_precedence) {
        std::size_t left = parse_unary();
        while (const BinaryOperator* op = find_binary(peek().kind)) {
            if (op->precedence < min_precedence) {
                break;
            }
            const Token& token = advance();
            std::size_t right = parse_binary(op->precedence + 1);
            Node node;
            node.kind = op->kind;
            node.op = op->op;
            node.children = {left, right};
            left = add(std::move(node), token);
        }
        return left;
    }

    std::size_t parse_unary() {
        if (peek().kind != TokenKind::minus && peek().kind != TokenKind::bang) {
            return parse_primary();
        }
        Nesting nesting(*this, peek());
        const Token& token = advance();
        if (token.kind == TokenKind::minus && peek().kind == TokenKind::integer &&
            peek().integer == std::uint64_t{1} << 63U) {
            // The one literal only writable with its sign: -9223372036854775808.
            advance();
            Node node;
            node.literal = std::numeric_limits<std::int64_t>::min();
            return add(std::move(node), token);
        }
        std::size_t operand = parse_unary();
        Node node;
        node.kind = NodeKind::unary;
        node.op = token.kind == TokenKind::minus ? Operator::negate : Operator::logical_not;
        node.children = {operand};
        return add(std::move(node), token);
    }

    std::size_t parse_primary() {
        const Token& token = advance();
        Node node;
        switch (token.kind) {
            case TokenKind::integer:
                if (token.integer >
                    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                    fail(token, "integer literal " + std::string(token.spelling) +
                                    " is out of range (64-bit signed integers)");
                }
                node.literal = static_cast<std::int64_t>(token.integer);
                return add(std::move(node), token);
            case TokenKind::floating:
                node.literal = token.floating;
                return add(std::move(node), token);
            case TokenKind::string:
                node.literal = token.text;
                return add(std::move(node), token);
            case TokenKind::name:
                return parse_name(token);
            case TokenKind::left_paren: {
                std::size_t inner = parse_ternary();
                expect(TokenKind::right_paren,
                       "')' to close the '(' at column " + std::to_string(token.column));
                return inner;
            }
            case TokenKind::end:
                fail(token, "unexpected end of expression, expected a value");
            default:
                fail(token, "unexpected token " + describe(token) + ", expected a value");
        }
    }

    std::size_t parse_name(const Token& token) {
        Node node;
        if (token.spelling == "true" || token.spelling == "false") {
            node.literal = token.spelling == "true";
            return add(std::move(node), token);
        }
        if (peek().kind == TokenKind::left_paren) {
            return parse_call(token);
        }
        node.kind = NodeKind::variable;
        node.name = std::string(token.spelling);
        variables_.insert(node.name);
        return add(std::move(node), token);
    }

    std::size_t parse_call(const Token& name) {
        const Function* function = find_function(name.spelling);
        if (function == nullptr) {
            std::vector<std::string> known = function_names();
            std::string message = "unknown function '" + std::string(name.spelling) + "'";
            if (std::optional<std::string> close = did_you_mean(name.spelling, known)) {
                message += " (did you mean '" + *close + "'?)";
            }
            fail(name, message + "; functions: " + base::join(known));
        }
        advance();  // '('
        Node node;
        node.kind = NodeKind::call;
        node.function = function;
        if (peek().kind != TokenKind::right_paren) {
            node.children.push_back(parse_ternary());
            while (peek().kind == TokenKind::comma) {
                advance();
                node.children.push_back(parse_ternary());
            }
        }
        expect(TokenKind::right_paren,
               "',' or ')' in the arguments of '" + std::string(function->name) + "'");
        std::size_t count = node.children.size();
        if (count < function->min_arguments || count > function->max_arguments) {
            fail(name, "'" + std::string(function->name) + "' takes " + arity(*function) +
                           " argument" + (function->max_arguments == 1 ? "" : "s") + ", got " +
                           std::to_string(count));
        }
        return add(std::move(node), name);
    }

    void expect(TokenKind kind, const std::string& what) {
        if (peek().kind != kind) {
            fail(peek(), "expected " + what + ", found " + describe(peek()));
        }
        advance();
    }

    std::vector<Token> tokens_;
    std::size_t next_ = 0;
    std::shared_ptr<Tree> tree_ = std::make_shared<Tree>();
    std::vector<std::size_t> depths_;  // parallel to tree_->nodes
    std::set<std::string> variables_;
    std::size_t nesting_ = 0;
};

}  // namespace

std::shared_ptr<const Tree> parse_tree(std::string_view text) {
    return Parser(text).run();
}

}  // namespace spvtune::problem::detail
