#include "reader_agreement.hpp"

#include <spvtune/cache/cache_format.hpp>

#include "cache_parse_fast.hpp"
#include "cache_parse_full.hpp"
#include "document_difference.hpp"

namespace spvtune::tune::testing {

ReaderVerdicts compare_readers(std::string_view text) {
    ReaderVerdicts verdicts;
    const std::optional<cache::CacheDocument> fast = cache::parse_cache_fast(text);
    verdicts.fast_accepted = fast.has_value();
    std::optional<cache::CacheDocument> full;
    std::string refusal;
    try {
        full = cache::parse_cache_full(text, "agreement.json");
        verdicts.full_accepted = true;
    } catch (const cache::CacheFormatError& error) {
        refusal = error.what();
    }
    if (fast && !full) {
        verdicts.disagreement =
            "the fast reader accepts a file the full reader refuses: " + refusal;
    } else if (fast && full) {
        const std::string difference = document_difference(*fast, *full);
        if (!difference.empty()) {
            verdicts.disagreement =
                "the readers read different documents (fast != full): " + difference;
        }
    }
    return verdicts;
}

}  // namespace spvtune::tune::testing
