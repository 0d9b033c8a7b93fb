// Load and save figures for a cache of 10,000 entries, with a plain nlohmann parse of the same
// bytes alongside as the reference a load is compared with.
//
// usage: spvtune_cache_bench [ENTRIES] [REPEATS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
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

double thread_cpu_ms() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Median wall and CPU time of the measuring thread, in milliseconds; the median shrugs off a
// stray slow repeat. On a loaded machine the wall time includes waiting for a core, the CPU time
// does not: it is what the work costs.
struct Timing {
    double wall = 0;
    double cpu = 0;
};

Timing median_ms(int repeats, const std::function<void()>& run) {
    std::vector<double> walls;
    std::vector<double> cpus;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        const double cpu_start = thread_cpu_ms();
        run();
        cpus.push_back(thread_cpu_ms() - cpu_start);
        walls.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    return {walls[walls.size() / 2], cpus[cpus.size() / 2]};
}

// "  <what>   12.3 ms (CPU 10.1 ms)  <note>"
void print_row(const char* what, Timing t, const std::string& note = "") {
    std::printf("  %-34s %8.1f ms (CPU %7.1f ms)  %s\n", what, t.wall, t.cpu, note.c_str());
}

std::string ratio_note(Timing t, Timing plain) {
    char text[96];
    std::snprintf(text, sizeof text, "%.2fx plain parse (CPU %.2fx)", t.wall / plain.wall,
                  t.cpu / plain.cpu);
    return text;
}

// Loading figures for one file: the plain nlohmann parse of its bytes is the reference.
void report_load(const char* title, const std::filesystem::path& file, const std::string& text,
                 int repeats, std::size_t& sink) {
    using namespace spvtune::cache;
    const Timing plain = median_ms(repeats, [&] { sink += nlohmann::json::parse(text).size(); });
    const Timing parse = median_ms(repeats, [&] { sink += parse_cache(text, file).entry_count(); });
    const Timing load = median_ms(repeats, [&] { sink += read_cache_file(file).entry_count(); });
    std::printf("%s: %.1f MiB\n", title, static_cast<double>(text.size()) / (1024.0 * 1024.0));
    print_row("plain nlohmann::json::parse", plain);
    print_row("parse_cache (parse + validate)", parse, ratio_note(parse, plain));
    print_row("read_cache_file (read + parse)", load, ratio_note(load, plain));
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spvtune::tune;
    using namespace spvtune::cache;
    const std::size_t entries = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    std::size_t sink = 0;  // keeps the optimiser from dropping the measured work

    testing::TempDirectory directory;
    // As `tune --keep-ranking` writes it: every ranked candidate's statistics.
    const CacheDocument full = testing::sample_document(entries);
    const HardwareIdentity hardware = full.hardware;
    const std::filesystem::path file = directory.path() / cache_file_name(hardware);
    const std::string full_text = serialize_cache(full);
    testing::write_bytes(file, full_text);
    std::printf("cache of %zu entries, median of %d runs\n", entries, repeats);
    report_load("with the full ranking (tune --keep-ranking)", file, full_text, repeats, sink);

    // The smallest form: the winner's statistics and the others' order (the samples rank three
    // candidates, all of which `tune` keeps by default with its two runners-up).
    CacheDocument document = full;
    for (auto& [tuner, lists] : document.tuners) {
        for (auto& [checksum, list] : lists) {
            for (auto& [key, record] : list.entries) {
                keep_ranking_order_only(record.entry);
            }
        }
    }
    const std::string text = serialize_cache(document);
    testing::write_bytes(file, text);
    report_load("the winner's statistics, the others' order", file, text, repeats, sink);

    const Timing first_lookup = median_ms(repeats, [&] {
        CacheFileStore store(directory.path());
        sink += store.load(hardware, testing::sample_address("shape-0")).has_value();
    });
    const Timing serialize = median_ms(repeats, [&] { sink += serialize_cache(document).size(); });
    print_row("new store, first load()", first_lookup);
    print_row("serialize_cache", serialize);

    int next = 0;
    const auto save_new_key = [&](CacheFileStore& store) {
        const std::string key = "new-" + std::to_string(next++);
        sink += store
                    .save(hardware, testing::sample_address(key), testing::sample_candidates(), key,
                          testing::sample_entry())
                    .stored;
    };
    // Warm: the store has read the file (a tuning run), so a save appends one journal record.
    CacheFileStore warm(directory.path());
    save_new_key(warm);
    const Timing warm_save = median_ms(repeats, [&] { save_new_key(warm); });
    // Cold: a store that has not read the file yet reads it first (with the journal so far).
    const Timing cold_save = median_ms(repeats, [&] {
        CacheFileStore store(directory.path());
        save_new_key(store);
    });
    // A full write: what every save cost before the journal, and what folding the journal costs.
    const Timing compact = median_ms(repeats, [&] {
        save_new_key(warm);
        sink += compact_cache_file(file);
    });
    std::printf("adding one entry to the file of %zu entries:\n", entries);
    print_row("save(), store has read the file", warm_save, "lock, journal append, fdatasync");
    print_row("save(), new store", cold_save, "lock, read, journal append, fdatasync");
    print_row("save() + compact_cache_file", compact, "the full write that folds the journal");
    return sink == 0 ? 1 : 0;
}
