#include <string>

#include <spvtune/tune/events.hpp>

namespace spvtune::tune {

std::string_view to_string(LookupSource source) {
    switch (source) {
        case LookupSource::memory:
            return "memory";
        case LookupSource::store:
            return "store";
        case LookupSource::tuned:
            return "tuned";
        case LookupSource::pending:
            return "pending";
        case LookupSource::compiled:
            return "compiled";
        case LookupSource::fallback:
            return "fallback";
        case LookupSource::untuned:
            return "untuned";
    }
    return "unknown";
}

std::string_view to_string(TuneEventKind kind) {
    switch (kind) {
        case TuneEventKind::tuning_started:
            return "tuning started";
        case TuneEventKind::tuning_finished:
            return "tuning finished";
        case TuneEventKind::store_hit:
            return "store hit";
        case TuneEventKind::store_note:
            return "store note";
        case TuneEventKind::fallback_used:
            return "fallback used";
        case TuneEventKind::checks_note:
            return "checks note";
        case TuneEventKind::untuned_miss:
            return "untuned miss";
        case TuneEventKind::candidate_started:
            return "candidate started";
        case TuneEventKind::tuning_failed:
            return "tuning failed";
    }
    return "unknown";
}

std::string_view failure_kind_name(FailureKind kind) {
    switch (kind) {
        case FailureKind::error:
            return "error";
        case FailureKind::wrong_output:
            return "wrong output";
        case FailureKind::skipped:
            return "skipped";
    }
    return "unknown";
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
