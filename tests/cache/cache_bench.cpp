// Load and save figures for a cache of 10,000 entries, with a plain nlohmann parse of the same
// bytes alongside as the floor that validation and the document model add to.
//
// usage: spvtune_cache_bench [ENTRIES] [REPEATS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache_samples.hpp"
#include "temp_directory.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Median wall time in milliseconds; the median shrugs off a stray slow repeat.
double median_ms(int repeats, const std::function<void()>& run) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        run();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spvtune::tune;
    using namespace spvtune::cache;
    const std::size_t entries = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;

    testing::TempDirectory directory;
    const CacheDocument document = testing::sample_document(entries);
    const HardwareIdentity hardware = document.hardware;
    const std::filesystem::path file = directory.path() / cache_file_name(hardware);
    const std::string text = serialize_cache(document);
    testing::write_bytes(file, text);

    std::size_t sink = 0;  // keeps the optimiser from dropping the measured work
    const double plain = median_ms(repeats, [&] { sink += nlohmann::json::parse(text).size(); });
    const double parse = median_ms(repeats, [&] { sink += parse_cache(text, file).entry_count(); });
    const double load = median_ms(repeats, [&] { sink += read_cache_file(file).entry_count(); });
    const double first_lookup = median_ms(repeats, [&] {
        CacheFileStore store(directory.path());
        sink += store.load(hardware, testing::sample_address("shape-0")).has_value();
    });
    const double serialize = median_ms(repeats, [&] { sink += serialize_cache(document).size(); });
    int next = 0;
    const auto save_new_key = [&](CacheFileStore& store) {
        const std::string key = "new-" + std::to_string(next++);
        sink += store
                    .save(hardware, testing::sample_address(key), testing::sample_candidates(), key,
                          testing::sample_entry())
                    .stored;
    };
    // Cold: a store that has not read the file yet (or another process changed it) parses it.
    const double cold_save = median_ms(repeats, [&] {
        CacheFileStore store(directory.path());
        save_new_key(store);
    });
    // Warm: the file is unchanged since this store wrote it, so only serialising and writing.
    CacheFileStore warm(directory.path());
    save_new_key(warm);
    const double warm_save = median_ms(repeats, [&] { save_new_key(warm); });

    std::printf("cache of %zu entries, %.1f MiB, median of %d runs\n", entries,
                static_cast<double>(text.size()) / (1024.0 * 1024.0), repeats);
    std::printf("  plain nlohmann::json::parse        %8.1f ms\n", plain);
    std::printf("  parse_cache (parse + validate)     %8.1f ms  (%.2fx plain parse)\n", parse,
                parse / plain);
    std::printf("  read_cache_file (read + parse)     %8.1f ms  (%.2fx plain parse)\n", load,
                load / plain);
    std::printf("  new store, first load()            %8.1f ms  (%.2fx plain parse)\n",
                first_lookup, first_lookup / plain);
    std::printf("  serialize_cache                    %8.1f ms\n", serialize);
    std::printf(
        "  save() one more entry, cold store  %8.1f ms  (lock, parse, merge, write, fsync)\n",
        cold_save);
    std::printf("  save() one more entry, warm store  %8.1f ms  (lock, merge, write, fsync)\n",
                warm_save);
    return sink == 0 ? 1 : 0;
}
