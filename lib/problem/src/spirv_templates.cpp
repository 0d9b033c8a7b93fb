#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/kernel_search.hpp>

#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// `text` with each `{P}` replaced by the point's value of grid parameter P; nothing when a
/// brace is unmatched or names no grid parameter of the point (reported once per family).
std::optional<std::string> substitute(
    const std::string& text, const std::vector<std::pair<std::string, std::int64_t>>& point,
    std::string& fault) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '}') {
            fault = "a '}' without its '{'";
            return std::nullopt;
        }
        if (text[i] != '{') {
            out += text[i];
            continue;
        }
        const auto close = text.find('}', i);
        if (close == std::string::npos) {
            fault = "a '{' without its '}'";
            return std::nullopt;
        }
        const std::string name = text.substr(i + 1, close - i - 1);
        const auto found = std::find_if(point.begin(), point.end(),
                                        [&name](const auto& axis) { return axis.first == name; });
        if (found == point.end()) {
            std::vector<std::string> names;
            for (const auto& axis : point) {
                names.push_back(axis.first);
            }
            fault = unknown("grid parameter", name, names) + " in {" + name +
                    "}; a spirv path may use the candidate's grid parameters" +
                    (names.empty() ? std::string(" (it has none)") : ": " + join(names));
            return std::nullopt;
        }
        out += std::to_string(found->second);
        i = close;
    }
    return out;
}

}  // namespace

void expand_spirv_templates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                            const LoadOptions& options) {
    std::vector<bool> dropped(problem.candidates.size(), false);
    const std::size_t family_count = problem.families.size();
    for (std::size_t f = 0; f < family_count; ++f) {
        if (drafts[f].spirv.find_first_of("{}") == std::string::npos) {
            continue;
        }
        const std::string pointer = drafts[f].at("spirv");
        std::map<std::string, std::size_t> family_of_path;  // each distinct file: one family
        std::size_t found = 0;
        std::string first_missing;
        std::string own_path;  // the file of the points that stay in family f
        for (std::size_t c = 0; c < problem.candidates.size(); ++c) {
            Candidate& candidate = problem.candidates[c];
            if (candidate.family != f) {
                continue;
            }
            std::string fault;
            const auto path = substitute(drafts[f].spirv, candidate.point, fault);
            if (!path) {
                reader.error(pointer, "bad spirv path '" + drafts[f].spirv + "': " + fault);
                return;
            }
            if (!find_kernel(*path, reader.file(), options.kernel_dirs)) {
                dropped[c] = true;
                problem.unavailable.push_back({candidate.name, "no SPIR-V file '" + *path +
                                                                   "' (from '" + drafts[f].spirv +
                                                                   "', " + pointer + ")"});
                if (first_missing.empty()) {
                    first_missing = *path;
                }
                continue;
            }
            ++found;
            auto [slot, added] = family_of_path.try_emplace(*path, f);
            if (added && family_of_path.size() > 1) {
                // Another file: a copy of the family, so that each family has one module.
                slot->second = problem.families.size();
                problem.families.push_back(problem.families[f]);
                drafts.push_back(drafts[f]);
                drafts.back().spirv = *path;
            }
            if (slot->second == f) {
                own_path = *path;
            }
            candidate.family = slot->second;
        }
        if (found == 0) {
            reader.error(pointer,
                         "no point of '" + drafts[f].spirv + "' has its SPIR-V file; e.g. '" +
                             first_missing + "' is not in:" +
                             kernel_places(first_missing, reader.file(), options.kernel_dirs));
            continue;
        }
        drafts[f].spirv = own_path;
    }
    leave_out(reader, problem, dropped);
}

}  // namespace spvtune::problem::detail
