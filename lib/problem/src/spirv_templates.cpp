#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
                    "}; a spirv path may use the candidate's grid parameters and let names" +
                    (names.empty() ? std::string(" (it has none)") : ": " + join(names));
            return std::nullopt;
        }
        out += std::to_string(found->second);
        i = close;
    }
    return out;
}

/// The steps of a family whose SPIR-V path names grid parameters.
std::vector<std::size_t> templated_steps(const FamilyDraft& draft) {
    std::vector<std::size_t> templated;
    for (std::size_t s = 0; s < draft.steps.size(); ++s) {
        if (draft.steps[s].spirv.find_first_of("{}") != std::string::npos) {
            templated.push_back(s);
        }
    }
    return templated;
}

/// Expands the templated paths of one family per point and splits the family in one per
/// distinct set of files; a point whose file is missing is dropped, saying which.
class TemplateExpansion {
  public:
    TemplateExpansion(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                      const LoadOptions& options, std::size_t family,
                      std::vector<std::size_t> templated)
        : reader_(reader),
          problem_(problem),
          drafts_(drafts),
          options_(options),
          family_(family),
          templated_(std::move(templated)),
          written_(drafts[family].steps) {}

    /// False when a path does not expand (reported): the problem cannot load, so expanding
    /// the other families would only add noise.
    bool expand(std::vector<bool>& dropped) {
        for (std::size_t c = 0; c < problem_.candidates.size(); ++c) {
            Candidate& candidate = problem_.candidates[c];
            if (candidate.family != family_) {
                continue;
            }
            std::string missing;
            const std::optional<std::vector<std::string>> paths = paths_of(candidate, missing);
            if (!paths) {
                return false;
            }
            if (!missing.empty()) {
                dropped[c] = true;
                problem_.unavailable.push_back({candidate.name, missing});
                continue;
            }
            ++found_;
            place(candidate, *paths);
        }
        if (found_ == 0) {
            reader_.error(first_pointer_,
                          "no point of '" + first_template_ + "' has its SPIR-V file; e.g. '" +
                              first_missing_ + "' is not in:" +
                              kernel_places(first_missing_, reader_.file(), options_.kernel_dirs));
            return true;
        }
        for (std::size_t t = 0; t < templated_.size(); ++t) {
            drafts_[family_].steps[templated_[t]].spirv = own_paths_[t];
        }
        return true;
    }

  private:
    /// The point's file for each templated step, `missing` saying which is not found; nothing
    /// when a path does not expand (reported).
    std::optional<std::vector<std::string>> paths_of(const Candidate& candidate,
                                                     std::string& missing) {
        std::vector<std::string> paths;
        for (const std::size_t s : templated_) {
            const std::string pointer = written_[s].at("spirv");
            std::string fault;
            const auto path = substitute(written_[s].spirv, candidate.point, fault);
            if (!path) {
                reader_.error(pointer, "bad spirv path '" + written_[s].spirv + "': " + fault);
                return std::nullopt;
            }
            if (missing.empty() && !find_kernel(*path, reader_.file(), options_.kernel_dirs)) {
                missing = "no SPIR-V file '" + *path + "' (from '" + written_[s].spirv + "', " +
                          pointer + ")";
                if (first_missing_.empty()) {
                    first_missing_ = *path;
                    first_pointer_ = pointer;
                    first_template_ = written_[s].spirv;
                }
            }
            paths.push_back(*path);
        }
        return paths;
    }

    /// Moves the candidate to the family of its files: the first set keeps the family, each
    /// other gets a copy, so that each step of a family has one module.
    void place(Candidate& candidate, const std::vector<std::string>& paths) {
        std::string key;
        for (const std::string& path : paths) {
            key += path + '\n';
        }
        auto [slot, added] = family_of_paths_.try_emplace(key, family_);
        if (added && family_of_paths_.size() > 1) {
            slot->second = problem_.families.size();
            problem_.families.push_back(problem_.families[family_]);
            drafts_.push_back(drafts_[family_]);
            for (std::size_t t = 0; t < templated_.size(); ++t) {
                drafts_.back().steps[templated_[t]].spirv = paths[t];
            }
        }
        if (slot->second == family_) {
            own_paths_ = paths;
        }
        candidate.family = slot->second;
    }

    Reader& reader_;
    Problem& problem_;
    std::vector<FamilyDraft>& drafts_;
    const LoadOptions& options_;
    std::size_t family_;
    std::vector<std::size_t> templated_;
    const std::vector<StepDraft> written_;  // a copy: drafts grows while the family expands
    std::map<std::string, std::size_t> family_of_paths_;  // each distinct set of files
    std::size_t found_ = 0;
    std::string first_missing_;
    std::string first_pointer_;
    std::string first_template_;
    std::vector<std::string> own_paths_;  // the files of the points that stay in the family
};

}  // namespace

void expand_spirv_templates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                            const LoadOptions& options) {
    std::vector<bool> dropped(problem.candidates.size(), false);
    const std::size_t family_count = problem.families.size();
    for (std::size_t f = 0; f < family_count; ++f) {
        std::vector<std::size_t> templated = templated_steps(drafts[f]);
        if (templated.empty()) {
            continue;
        }
        if (!TemplateExpansion(reader, problem, drafts, options, f, std::move(templated))
                 .expand(dropped)) {
            return;
        }
    }
    leave_out(reader, problem, dropped);
}

}  // namespace spvtune::problem::detail
