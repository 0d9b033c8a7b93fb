#pragma once

#include <optional>
#include <string>
#include <string_view>

// Feeds one text to both cache readers (parse_cache_fast, simdjson; parse_cache_full, nlohmann)
// and says whether they agree. The fast reader has one way to refuse a file: it does not vouch
// for it, and the full reader decides. So they agree when the fast reader refuses, or when both
// read the same document; they disagree when the fast reader accepts a file the full reader
// refuses, or reads a different document from it.
namespace spvtune::tune::testing {

/// What each reader made of one text.
struct ReaderVerdicts {
    /// True when the fast reader vouched for the text (returned a document).
    bool fast_accepted = false;
    /// True when the full reader read a document; false when it threw CacheFormatError.
    bool full_accepted = false;
    /// Why the readers disagree; empty when they agree.
    std::string disagreement;
};

/// Both readers on `text`. Any exception other than CacheFormatError escapes: neither reader may
/// throw one.
ReaderVerdicts compare_readers(std::string_view text);

}  // namespace spvtune::tune::testing
