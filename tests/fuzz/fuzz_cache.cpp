// Fuzzes the cache-file parser: arbitrary text must either parse or throw CacheFormatError, and
// what parses must print to text that parses back to the same document (the printer never
// recurses without bound and a saved file is always readable again).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <spvtune/cache/cache_format.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    spvtune::cache::CacheDocument document;
    try {
        document = spvtune::cache::parse_cache(text, "fuzz.json");
    } catch (const spvtune::cache::CacheFormatError&) {
        return 0;  // the documented way to refuse a file
    }
    if (document.is_newer_schema()) {
        return 0;  // read as far as it matches, never written back
    }
    const std::string printed = spvtune::cache::serialize_cache(document);
    std::string reprinted;
    try {
        reprinted =
            spvtune::cache::serialize_cache(spvtune::cache::parse_cache(printed, "printed"));
    } catch (const spvtune::cache::CacheFormatError& error) {
        std::fprintf(stderr, "a printed cache does not parse back: %s\n", error.what());
        std::abort();
    }
    if (reprinted != printed) {
        std::fprintf(stderr, "printing a parsed cache twice gave different text:\n%s\n---\n%s\n",
                     printed.c_str(), reprinted.c_str());
        std::abort();
    }
    return 0;
}
