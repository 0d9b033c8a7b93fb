#include <algorithm>
#include <utility>

#include <spvtune/problem/scope.hpp>

namespace spvtune::problem {

Scope& Scope::set(std::string name, Value value) {
    for (auto& [existing, old] : entries_) {
        if (existing == name) {
            old = std::move(value);
            return *this;
        }
    }
    entries_.emplace_back(std::move(name), std::move(value));
    return *this;
}

const Value* Scope::find(std::string_view name) const {
    for (const Scope* scope = this; scope != nullptr; scope = scope->parent_) {
        for (const auto& [existing, value] : scope->entries_) {
            if (existing == name) {
                return &value;
            }
        }
    }
    return nullptr;
}

std::vector<std::string> Scope::names() const {
    std::vector<std::string> names;
    for (const Scope* scope = this; scope != nullptr; scope = scope->parent_) {
        for (const auto& entry : scope->entries_) {
            names.push_back(entry.first);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace spvtune::problem
