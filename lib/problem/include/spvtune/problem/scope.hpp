#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spvtune/problem/value.hpp>

namespace spvtune::problem {

/// The variables an expression sees: name -> value, optionally in front of a parent scope
/// (e.g. a candidate's parameters in front of the key's parameters). Meant to be built per
/// evaluation context, so it is a flat list: problems have a handful of names each.
class Scope {
  public:
    Scope() = default;
    /// A scope whose unknown names fall back to `parent`, which must outlive this scope.
    explicit Scope(const Scope* parent) : parent_(parent) {}

    /// Defines `name` here, replacing an earlier value of the same name in this scope (a parent's
    /// value of the same name is shadowed, not changed). Returns *this to chain definitions.
    Scope& set(std::string name, Value value);

    /// The value of `name` from this scope or the nearest parent that has it, or nullptr.
    const Value* find(std::string_view name) const;

    /// Every visible name, sorted, each once (for "known names" lists and suggestions).
    std::vector<std::string> names() const;

  private:
    std::vector<std::pair<std::string, Value>> entries_;
    const Scope* parent_ = nullptr;
};

}  // namespace spvtune::problem
