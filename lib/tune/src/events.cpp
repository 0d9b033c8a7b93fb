#include <string>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/tune/events.hpp>

namespace spvtune::tune {

namespace {

constexpr base::EnumNames<LookupSource, 8> lookup_source_names{{
    {LookupSource::memory, "memory"},
    {LookupSource::store, "store"},
    {LookupSource::tuned, "tuned"},
    {LookupSource::pending, "pending"},
    {LookupSource::compiled, "compiled"},
    {LookupSource::fallback, "fallback"},
    {LookupSource::untuned, "untuned"},
    {LookupSource::nearest, "nearest"},
}};

constexpr base::EnumNames<TuneEventKind, 10> event_kind_names{{
    {TuneEventKind::tuning_started, "tuning started"},
    {TuneEventKind::tuning_finished, "tuning finished"},
    {TuneEventKind::store_hit, "store hit"},
    {TuneEventKind::store_note, "store note"},
    {TuneEventKind::fallback_used, "fallback used"},
    {TuneEventKind::checks_note, "checks note"},
    {TuneEventKind::untuned_miss, "untuned miss"},
    {TuneEventKind::candidate_started, "candidate started"},
    {TuneEventKind::tuning_failed, "tuning failed"},
    {TuneEventKind::nearest_used, "nearest used"},
}};

}  // namespace

std::string_view to_string(LookupSource source) {
    return base::name_of(lookup_source_names, source);
}

std::string_view to_string(TuneEventKind kind) {
    return base::name_of(event_kind_names, kind);
}

}  // namespace spvtune::tune
