#include <algorithm>

#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {

void leave_out(Reader& reader, Problem& problem, const std::vector<bool>& dropped) {
    // The reference keeps pointing at the same candidates.
    std::vector<std::size_t> new_index(problem.candidates.size());
    std::vector<Candidate> kept;
    for (std::size_t c = 0; c < problem.candidates.size(); ++c) {
        new_index[c] = kept.size();
        if (!dropped[c]) {
            kept.push_back(std::move(problem.candidates[c]));
        }
    }
    for (std::size_t& reference : problem.reference.candidates) {
        if (dropped[reference]) {
            const auto& gone = problem.unavailable;
            const auto why = std::find_if(gone.begin(), gone.end(), [&](const auto& u) {
                return u.name == problem.candidates[reference].name;
            });
            reader.error("/reference/candidate", "the reference candidate '" + why->name +
                                                     "' cannot be loaded: " + why->reason);
        }
        reference = new_index[reference];
    }
    problem.candidates = std::move(kept);
}

}  // namespace spvtune::problem::detail
