#include <spvtune/base/enum_names.hpp>
#include <spvtune/run/candidate_executor.hpp>

namespace spvtune::run {

namespace {

constexpr base::EnumNames<FaultKind, 3> fault_kind_names{{
    {FaultKind::timed_out, "timed out"},
    {FaultKind::crashed, "crashed"},
    {FaultKind::device_lost, "device lost"},
}};

}  // namespace

std::string_view fault_kind_name(FaultKind kind) noexcept {
    return base::name_of(fault_kind_names, kind, "faulted");
}

}  // namespace spvtune::run
