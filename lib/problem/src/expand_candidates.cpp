#include <algorithm>
#include <map>

#include <spvtune/problem/device_properties.hpp>

#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// Whether `expression` is known only per key: it uses a key parameter or a device property.
bool uses_key(const Problem& problem, const Expression& expression) {
    const auto& names = expression.variables();
    return std::any_of(names.begin(), names.end(), [&problem](const std::string& name) {
        return problem.find_parameter(name) != nullptr || is_device_variable(name);
    });
}

std::string point_text(const std::vector<std::pair<std::string, std::int64_t>>& point) {
    std::string text;
    for (const auto& [name, value] : point) {
        text += (text.empty() ? "" : ",") + name + "=" + std::to_string(value);
    }
    return text;
}

/// Whether the grid-only constraints of `family` allow `point`; a constraint that fails to
/// evaluate is reported (once) and rejects the point.
bool allowed(Reader& reader, const CandidateFamily& family,
             const std::vector<std::pair<std::string, std::int64_t>>& point,
             std::map<std::size_t, std::size_t>& rejections, std::vector<bool>& reported) {
    Scope scope;
    for (const auto& [name, value] : point) {
        scope.set(name, Value(value));
    }
    for (const auto& [name, value] : family.let) {
        scope.set(name, Value(value));
    }
    for (std::size_t c = 0; c < family.constraints.size(); ++c) {
        const Constraint& constraint = family.constraints[c];
        if (constraint.uses_key) {
            continue;
        }
        const Expression& expression = constraint.condition.expression;
        try {
            if (!as_bool(expression.evaluate(scope), expression.text())) {
                ++rejections[c];
                return false;
            }
        } catch (const ExpressionError& error) {
            if (!reported[c]) {
                reported[c] = true;
                reader.error(constraint.condition.pointer,
                             "constraint fails for " + point_text(point) + ": " + error.message(),
                             error.render("    "));
            }
            return false;
        }
    }
    return true;
}

}  // namespace

void expand_candidates(Reader& reader, Problem& problem) {
    for (std::size_t f = 0; f < problem.families.size(); ++f) {
        CandidateFamily& family = problem.families[f];
        for (Constraint& constraint : family.constraints) {
            constraint.uses_key = uses_key(problem, constraint.condition.expression);
        }
        std::map<std::size_t, std::size_t> rejections;  // constraint -> points it removed
        std::vector<bool> reported(family.constraints.size(), false);
        std::size_t points = 0;
        std::size_t kept = 0;
        std::vector<std::size_t> index(family.grid.size(), 0);
        for (;;) {
            std::vector<std::pair<std::string, std::int64_t>> point;
            for (std::size_t a = 0; a < family.grid.size(); ++a) {
                point.emplace_back(family.grid[a].name, family.grid[a].values[index[a]]);
            }
            ++points;
            if (allowed(reader, family, point, rejections, reported)) {
                ++kept;
                std::string name = family.name;
                std::string label = family.variant;
                if (!point.empty()) {
                    label += (label.empty() ? "" : ",") + point_text(point);
                }
                if (!label.empty()) {
                    name += "[" + label + "]";
                }
                point.insert(point.end(), family.let.begin(), family.let.end());
                problem.candidates.push_back({std::move(name), f, std::move(point)});
            }
            // Odometer over the axes, the first written varying slowest.
            std::size_t a = family.grid.size();
            while (a > 0 && ++index[a - 1] == family.grid[a - 1].values.size()) {
                index[--a] = 0;
            }
            if (a == 0) {
                break;
            }
        }
        if (kept == 0 && std::none_of(reported.begin(), reported.end(), [](bool r) { return r; })) {
            std::string culprits;
            for (const auto& [constraint, count] : rejections) {
                culprits += (culprits.empty() ? "" : ", ") + std::string("'") +
                            family.constraints[constraint].condition.expression.text() +
                            "' removed " + std::to_string(count);
            }
            // Where the constraints were written: the candidate, its variant or the defaults.
            const std::string& first = family.constraints.front().condition.pointer;
            reader.error(parent(first), "the constraints remove every point of the grid (" +
                                            std::to_string(points) + " points: " + culprits +
                                            "); expected at least one candidate");
        }
    }
}

}  // namespace spvtune::problem::detail
