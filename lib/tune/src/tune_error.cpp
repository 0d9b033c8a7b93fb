#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include <spvtune/tune/tune_error.hpp>

namespace spvtune::tune {

std::string failure_kind_name(FailureKind kind) {
    std::string name = nlohmann::json(kind).get<std::string>();
    std::replace(name.begin(), name.end(), '_', ' ');
    return name;
}

std::string describe_failures(std::string_view headline,
                              const std::vector<CandidateFailure>& failures) {
    std::string out(headline);
    for (const CandidateFailure& failure : failures) {
        out += "\n  - ";
        out += failure.name;
        out += " (#" + std::to_string(failure.index) + "): ";
        out += failure_kind_name(failure.kind);
        out += ": ";
        out += failure.reason;
    }
    return out;
}

}  // namespace spvtune::tune
