#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <spvtune/cache/cache_location.hpp>

#include "cache_files.hpp"
#include "cache_layouts.hpp"
#include "cache_subcommands.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

struct VerifyOptions {
    std::string directory;
    std::vector<std::string> problems;
    std::vector<std::string> hardware;
    std::vector<std::string> kernel_dirs;
};

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

/// Why a key lacks a current entry. A key never tuned needs a tuning run; a stale one was tuned
/// for candidates that have changed since, or its entry no longer answers for today's.
enum class GapKind { never_tuned, stale };

struct Gap {
    GapKind kind;
    std::string line;
};

/// What is missing from one cache file for one problem, one gap per key.
std::vector<Gap> gaps(const cache::CacheDocument& document,
                      const problem::ProblemCacheLayout& layout) {
    std::vector<Gap> found;
    const auto tuner = document.tuners.find(layout.tuner);
    const cache::CacheCandidateList* list = nullptr;
    if (tuner != document.tuners.end()) {
        const auto current = tuner->second.find(layout.checksum);
        list = current == tuner->second.end() ? nullptr : &current->second;
    }
    for (const auto& [key_json, exact_keys] : layout.keys) {
        std::string where = layout.tuner + " " + exact_keys.front();
        if (exact_keys.size() > 1) {
            where += " (and " + std::to_string(exact_keys.size() - 1) + " more sharing its bucket)";
        }
        const auto record = list ? list->entries.find(key_json) : decltype(list->entries.end()){};
        if (list == nullptr || record == list->entries.end()) {
            bool older = false;
            if (tuner != document.tuners.end()) {
                for (const auto& [checksum, other] : tuner->second) {
                    older = older || other.entries.contains(key_json);
                }
            }
            if (older) {
                found.push_back({GapKind::stale, where +
                                                     ": stale (candidates changed): the file has "
                                                     "an entry for an older candidate list, none "
                                                     "for today's (checksum " +
                                                     hex(layout.checksum) + ")"});
            } else {
                found.push_back({GapKind::never_tuned,
                                 where + ": never tuned: no entry for any candidate list"});
            }
            continue;
        }
        const tune::TuneEntry& entry = record->second.entry;
        if (entry.needs_retune) {
            found.push_back({GapKind::stale, where + ": stale (marked for re-tune)"});
        } else if (std::find(layout.candidates.begin(), layout.candidates.end(),
                             entry.winner_name) == layout.candidates.end()) {
            found.push_back({GapKind::stale, where + ": stale (candidates changed): the winner " +
                                                 entry.winner_name + " is no longer a candidate"});
        }
    }
    return found;
}

int run_verify(const VerifyOptions& options, const std::string& cache_dir) {
    const auto layouts = load_cache_layouts(options.problems, options.kernel_dirs, cache_dir);
    if (!layouts) {
        return exit_usage;
    }
    const fs::path directory(options.directory);
    std::vector<fs::path> files;
    std::size_t missing = 0;
    if (options.hardware.empty()) {
        files = list_directory(directory).caches;
        if (files.empty()) {
            std::cout << directory.string() << ": no cache files\n";
            ++missing;
        }
    }
    for (const std::string& identity : options.hardware) {
        const fs::path file = directory / (identity + ".json");
        std::error_code error;
        if (!fs::exists(file, error)) {
            std::cout << file.string() << ": missing: no cache file for hardware " << identity
                      << '\n';
            ++missing;
            continue;
        }
        files.push_back(file);
    }
    std::size_t never_tuned = 0;
    std::size_t stale = 0;
    for (const fs::path& file : files) {
        const auto document = read_or_report(file);
        if (!document) {
            return exit_usage;
        }
        for (const problem::ProblemCacheLayout& layout : *layouts) {
            for (const Gap& gap : gaps(*document, layout)) {
                std::cout << file.string() << ": " << gap.line << '\n';
                ++(gap.kind == GapKind::never_tuned ? never_tuned : stale);
            }
        }
    }
    const std::size_t total = never_tuned + stale;
    if (total + missing == 0) {
        std::cout << "verified " << files.size() << " cache files against " << layouts->size()
                  << " problems: every key has a current entry\n";
        return exit_success;
    }
    std::cout << total << " keys without a current entry (" << never_tuned << " never tuned, "
              << stale << " stale), " << missing << " hardware files missing\n";
    return exit_failure;
}

}  // namespace

CacheSubcommand add_cache_verify_command(CLI::App& cache,
                                         const std::shared_ptr<std::string>& cache_dir) {
    auto options = std::make_shared<VerifyOptions>();
    auto* verify = cache.add_subcommand(
        "verify", "Check that every key of the problems has a current entry (a release gate)");
    verify->add_option("directory", options->directory, "The cache directory to ship")
        ->required()
        ->check(existing(PathKind::directory));
    verify->add_option("--problems", options->problems, "Problem files the cache must cover")
        ->type_name("JSON")
        ->required()
        ->check(existing(PathKind::file));
    verify
        ->add_option("--hardware", options->hardware,
                     "Hardware identities that must have a file (default: every file there)")
        ->allow_extra_args(false);
    add_kernel_dir_option(*verify, options->kernel_dirs);
    add_cache_dir_option(*verify, *cache_dir, "Cache directory, for compiled GLSL");
    return {verify, [options, cache_dir] { return run_verify(*options, *cache_dir); }};
}

}  // namespace spvtune::app
