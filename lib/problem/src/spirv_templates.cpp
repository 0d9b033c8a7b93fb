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
        std::vector<std::size_t> templated;  // the steps whose path names grid parameters
        for (std::size_t s = 0; s < drafts[f].steps.size(); ++s) {
            if (drafts[f].steps[s].spirv.find_first_of("{}") != std::string::npos) {
                templated.push_back(s);
            }
        }
        if (templated.empty()) {
            continue;
        }
        const std::vector<StepDraft> written = drafts[f].steps;  // drafts grows below
        std::map<std::string, std::size_t> family_of_paths;      // each distinct set of files
        std::size_t found = 0;
        std::string first_missing;
        std::string first_pointer;
        std::string first_template;
        std::vector<std::string> own_paths;  // the files of the points that stay in family f
        for (std::size_t c = 0; c < problem.candidates.size(); ++c) {
            Candidate& candidate = problem.candidates[c];
            if (candidate.family != f) {
                continue;
            }
            std::vector<std::string> paths;
            std::string missing;
            for (const std::size_t s : templated) {
                const std::string pointer = written[s].at("spirv");
                std::string fault;
                const auto path = substitute(written[s].spirv, candidate.point, fault);
                if (!path) {
                    reader.error(pointer, "bad spirv path '" + written[s].spirv + "': " + fault);
                    return;
                }
                if (missing.empty() && !find_kernel(*path, reader.file(), options.kernel_dirs)) {
                    missing = "no SPIR-V file '" + *path + "' (from '" + written[s].spirv + "', " +
                              pointer + ")";
                    if (first_missing.empty()) {
                        first_missing = *path;
                        first_pointer = pointer;
                        first_template = written[s].spirv;
                    }
                }
                paths.push_back(*path);
            }
            if (!missing.empty()) {
                dropped[c] = true;
                problem.unavailable.push_back({candidate.name, missing});
                continue;
            }
            ++found;
            std::string key;
            for (const std::string& path : paths) {
                key += path + '\n';
            }
            auto [slot, added] = family_of_paths.try_emplace(key, f);
            if (added && family_of_paths.size() > 1) {
                // Other files: a copy of the family, so that each step of a family has one module.
                slot->second = problem.families.size();
                problem.families.push_back(problem.families[f]);
                drafts.push_back(drafts[f]);
                for (std::size_t t = 0; t < templated.size(); ++t) {
                    drafts.back().steps[templated[t]].spirv = paths[t];
                }
            }
            if (slot->second == f) {
                own_paths = paths;
            }
            candidate.family = slot->second;
        }
        if (found == 0) {
            reader.error(first_pointer,
                         "no point of '" + first_template + "' has its SPIR-V file; e.g. '" +
                             first_missing + "' is not in:" +
                             kernel_places(first_missing, reader.file(), options.kernel_dirs));
            continue;
        }
        for (std::size_t t = 0; t < templated.size(); ++t) {
            drafts[f].steps[templated[t]].spirv = own_paths[t];
        }
    }
    leave_out(reader, problem, dropped);
}

}  // namespace spvtune::problem::detail
