#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <spvtune/problem/value.hpp>

#include "location.hpp"

namespace spvtune::problem::detail {

struct Function;

enum class Operator {
    negate,
    logical_not,
    add,
    subtract,
    multiply,
    divide,
    modulo,
    less,
    less_equal,
    greater,
    greater_equal,
    equal,
    not_equal,
};

enum class NodeKind {
    literal,
    variable,
    unary,
    binary,
    logical_and,
    logical_or,
    conditional,
    call
};

/// One node of a parsed expression. Children are indices into Tree::nodes, so a tree is one
/// allocation-friendly vector and copying or destroying it never recurses.
struct Node {
    NodeKind kind = NodeKind::literal;
    Operator op = Operator::add;         // unary and binary
    const Function* function = nullptr;  // call
    Value literal;                       // literal
    std::string name;                    // variable
    std::vector<std::size_t> children;
    // Where an error in this node points: the operator, function name, variable or literal.
    std::size_t column = 1;
    std::size_t length = 1;
};

struct Tree {
    std::string text;
    std::vector<Node> nodes;
    std::size_t root = 0;
    std::vector<std::string> variables;  // sorted, unique

    Location location_of(const Node& node) const { return {text, node.column, node.length}; }
};

}  // namespace spvtune::problem::detail
