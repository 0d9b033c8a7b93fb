// Fuzzes the agreement of the two cache readers: on any text, the fast reader (simdjson) either
// declines or reads the same document as the full reader (nlohmann), and never accepts a text
// the full reader refuses. parse_cache trusts the fast reader's document, so a disagreement
// means a file loads one way or another depending on which reader got to it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "reader_agreement.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // Any exception but CacheFormatError escapes and libFuzzer reports it as a finding.
    const spvtune::tune::testing::ReaderVerdicts verdicts =
        spvtune::tune::testing::compare_readers(text);
    if (!verdicts.disagreement.empty()) {
        std::fprintf(stderr, "the cache readers disagree: %s\n", verdicts.disagreement.c_str());
        std::abort();
    }
    return 0;
}
