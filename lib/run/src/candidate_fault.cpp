#include <spvtune/run/candidate_executor.hpp>

namespace spvtune::run {

std::string_view fault_kind_name(FaultKind kind) noexcept {
    switch (kind) {
        case FaultKind::timed_out:
            return "timed out";
        case FaultKind::crashed:
            return "crashed";
        case FaultKind::device_lost:
            return "device lost";
    }
    return "faulted";
}

}  // namespace spvtune::run
