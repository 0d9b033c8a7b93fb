// Saves one entry per key given on the command line into a cache directory and reports each
// outcome on stdout as soon as save() returns, so a parent that kills this process knows which
// keys were acknowledged as persisted.
//
// usage: spvtune_cache_writer DIR WINNER START_FILE KEY...
//   START_FILE: wait until this file exists before the first save ("-": start at once), so
//   several writers started by a test overlap as much as possible.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

#include <spvtune/cache/cache_file_store.hpp>

#include "cache_samples.hpp"

namespace {

// Unbuffered, so nothing acknowledged is still in a stdio buffer when the process is killed.
void report(const std::string& line) {
    const std::string text = line + "\n";
    if (::write(STDOUT_FILENO, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
        std::_Exit(3);
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spvtune::tune;
    using namespace spvtune::cache;
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s DIR WINNER START_FILE KEY...\n", argv[0]);
        return 2;
    }
    const std::filesystem::path directory = argv[1];
    const std::string winner = argv[2];
    const std::string start_file = argv[3];
    while (start_file != "-" && !std::filesystem::exists(start_file)) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    CacheFileStore store(directory, {DriverMismatch::refuse, [](const std::string& warning) {
                                         report("warning " + warning);
                                     }});
    const HardwareIdentity hardware = testing::sample_hardware();
    for (int i = 4; i < argc; ++i) {
        const std::string key = argv[i];
        const StoreOutcome outcome =
            store.save(hardware, testing::sample_address(key), testing::sample_candidates(),
                       "n=" + key, testing::sample_entry(winner, i));
        if (outcome.stored) {
            report("stored " + key);
        } else if (outcome.kept) {
            report("kept " + key + " " + outcome.kept->winner_name);
        } else {
            report("failed " + key + " " + outcome.message);
        }
    }
    return 0;
}
