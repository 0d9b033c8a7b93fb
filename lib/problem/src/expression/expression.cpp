#include <optional>
#include <utility>

#include <spvtune/problem/expression.hpp>
#include <spvtune/problem/suggest.hpp>

#include "functions.hpp"
#include "operators.hpp"
#include "parser.hpp"
#include "tree.hpp"

namespace spvtune::problem {
namespace {

using detail::Node;
using detail::NodeKind;

class Evaluator {
  public:
    Evaluator(const detail::Tree& tree, const Scope& scope) : tree_(tree), scope_(scope) {}

    Value run() const { return evaluate(tree_.root); }

  private:
    Value evaluate(std::size_t index) const {
        const Node& node = tree_.nodes[index];
        detail::Location at = tree_.location_of(node);
        switch (node.kind) {
            case NodeKind::literal:
                return node.literal;
            case NodeKind::variable:
                return lookup(node, at);
            case NodeKind::unary:
                return detail::apply_unary(node.op, evaluate(node.children[0]), at);
            case NodeKind::binary:
                return detail::apply_binary(node.op, evaluate(node.children[0]),
                                            evaluate(node.children[1]), at);
            case NodeKind::logical_and:
                return boolean(node.children[0], "'&&'", at) &&
                       boolean(node.children[1], "'&&'", at);
            case NodeKind::logical_or:
                return boolean(node.children[0], "'||'", at) ||
                       boolean(node.children[1], "'||'", at);
            case NodeKind::conditional:
                return evaluate(boolean(node.children[0], "the condition of '?'", at)
                                    ? node.children[1]
                                    : node.children[2]);
            case NodeKind::call:
                return call(node, at);
        }
        at.fail("internal error: unknown expression node");
    }

    bool boolean(std::size_t index, std::string_view role, const detail::Location& at) const {
        return detail::require_bool(evaluate(index), role, at);
    }

    Value lookup(const Node& node, const detail::Location& at) const {
        if (const Value* value = scope_.find(node.name)) {
            return *value;
        }
        std::vector<std::string> known = scope_.names();
        std::string message = "unknown variable '" + node.name + "'";
        if (std::optional<std::string> close = did_you_mean(node.name, known)) {
            message += " (did you mean '" + *close + "'?)";
        }
        if (known.empty()) {
            at.fail(message + "; no variables are defined here");
        }
        std::string list;
        for (const std::string& name : known) {
            list += (list.empty() ? "" : ", ") + name;
        }
        at.fail(message + "; known: " + list);
    }

    Value call(const Node& node, const detail::Location& at) const {
        std::vector<Value> arguments;
        arguments.reserve(node.children.size());
        for (std::size_t child : node.children) {
            arguments.push_back(evaluate(child));
        }
        return node.function->apply(arguments, at);
    }

    const detail::Tree& tree_;
    const Scope& scope_;
};

}  // namespace

Expression::Expression(std::shared_ptr<const detail::Tree> tree) : tree_(std::move(tree)) {}

Expression Expression::parse(std::string_view text) {
    return Expression(detail::parse_tree(text));
}

Value Expression::evaluate(const Scope& scope) const {
    return Evaluator(*tree_, scope).run();
}

const std::string& Expression::text() const noexcept {
    return tree_->text;
}

const std::vector<std::string>& Expression::variables() const noexcept {
    return tree_->variables;
}

}  // namespace spvtune::problem
