#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <spvtune/base/digest.hpp>
#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "cache_files.hpp"
#include "cache_subcommands.hpp"
#include "command.hpp"
#include "device_options.hpp"
#include "entry_selection.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;
using cache::CacheDocument;

struct CacheOptions {
    /// Shared with the subcommands that take --cache-dir themselves (verify, prune).
    std::shared_ptr<std::string> cache_dir = std::make_shared<std::string>();
    std::string device;
    std::string file;
    bool json = false;
    std::string tuner;
    std::vector<std::string> keys;
};

fs::path cache_directory(const CacheOptions& options) {
    return cache::resolve_cache_directory(*options.cache_dir);
}

/// The hardware identity of the selected device, without creating a logical device.
tune::HardwareIdentity selected_hardware(const std::string& selector) {
    const vulkan::SelectedDevice selected(selector, vulkan::DeviceAccess::physical);
    return run::hardware_identity(selected.info().identity);
}

// A bare name is looked up in the cache directory too, so `show <identity>` works from anywhere.
fs::path resolve_file(const std::string& argument, const fs::path& directory) {
    const fs::path path(argument);
    if (fs::exists(path) || path.has_parent_path()) {
        return path;
    }
    for (const fs::path& candidate : {directory / argument, directory / (argument + ".json")}) {
        if (fs::exists(candidate)) {
            return candidate;
        }
    }
    return path;
}

std::string entries_text(std::size_t count) {
    return std::to_string(count) + (count == 1 ? " entry" : " entries");
}

std::string describe_hardware(const tune::HardwareIdentity& hardware) {
    return hardware.device_name + " (driver " + hardware.driver_version + ")";
}

std::string format_duration(double ns) {
    if (!std::isfinite(ns)) {
        return "-";
    }
    static constexpr struct {
        double scale;
        const char* unit;
    } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
    char text[64];
    for (const auto& u : units) {
        if (ns >= u.scale) {
            std::snprintf(text, sizeof text, "%.3g %s", ns / u.scale, u.unit);
            return text;
        }
    }
    std::snprintf(text, sizeof text, "%.3g ns", ns);
    return text;
}

int run_path(const CacheOptions& options) {
    const fs::path directory = cache_directory(options);
    const tune::HardwareIdentity hardware = selected_hardware(options.device);
    const fs::path file = directory / cache::cache_file_name(hardware);
    std::string state = "not created yet";
    if (fs::exists(file)) {
        const auto document = read_or_report(file);
        if (!document) {
            return exit_usage;
        }
        state = entries_text(document->entry_count());
    }
    std::cout << "directory  " << directory.string() << '\n'
              << "file       " << file.string() << "  (" << state << ")\n"
              << "hardware   " << describe_hardware(hardware) << '\n';
    return exit_success;
}

int run_list(const CacheOptions& options) {
    const fs::path directory = cache_directory(options);
    const DirectoryListing listing = list_directory(directory);
    std::cout << "cache directory: " << directory.string() << '\n';
    if (listing.caches.empty()) {
        std::cout << "no cache files\n";
    }
    int status = exit_success;
    for (const fs::path& file : listing.caches) {
        const auto document = read_or_report(file);
        if (!document) {
            status = exit_usage;
            continue;
        }
        std::cout << file.filename().string() << '\n'
                  << "    hardware  " << describe_hardware(document->hardware) << '\n'
                  << "    entries   " << document->entry_count() << '\n';
        std::string tuners;
        for (const auto& [name, lists] : document->tuners) {
            std::size_t count = 0;
            for (const auto& [checksum, list] : lists) {
                count += list.entries.size();
            }
            tuners += (tuners.empty() ? "" : ", ") + name + " (" + entries_text(count) + ")";
        }
        std::cout << "    tuners    " << (tuners.empty() ? "none" : tuners) << '\n';
    }
    for (const fs::path& backup : listing.backups) {
        std::cout << backup.filename().string() << "  (backup of a corrupt cache file)\n";
    }
    return status;
}

void print_table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> widths;
    for (const auto& row : rows) {
        widths.resize(std::max(widths.size(), row.size()));
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) {
                line.append(widths[i] - row[i].size() + 2, ' ');
            }
        }
        std::cout << line << '\n';
    }
}

std::vector<std::string> entry_row(const std::string& tuner, const cache::CacheKeyRecord& record) {
    const tune::TuneEntry& entry = record.entry;
    std::string winner = entry.winner_name + (entry.needs_retune ? " (needs retune)" : "");
    std::string median = "-", runner_up = "-", margin = "-";
    if (!entry.ranking.empty()) {
        const double best = entry.ranking[0].statistics.median_ns;
        median = format_duration(best);
        if (entry.ranking.size() > 1) {
            const tune::RankedCandidate& second = entry.ranking[1];
            runner_up = second.name;
        }
        if (entry.ranking.size() > 1 && cache::statistics_kept(entry.ranking[1].statistics)) {
            const tune::RankedCandidate& second = entry.ranking[1];
            char text[32];
            std::snprintf(text, sizeof text, "+%.1f%%",
                          (second.statistics.median_ns / best - 1.0) * 100.0);
            margin = text;
            if (second.tied_with_winner) {
                // How much a tie says depends on how many samples it rests on: two cannot
                // reject a tie even 5x apart.
                const std::size_t samples =
                    std::min(entry.ranking[0].statistics.samples, second.statistics.samples);
                margin += " (tied, " + std::to_string(samples) +
                          (samples == 1 ? " sample)" : " samples)");
            }
        }
    }
    return {tuner, record.printed_key, winner, median, runner_up, margin};
}

int run_show(const CacheOptions& options) {
    const fs::path directory = cache_directory(options);
    const fs::path file =
        options.file.empty() ? directory / cache::cache_file_name(selected_hardware(options.device))
                             : resolve_file(options.file, directory);
    if (options.file.empty() && !fs::exists(file)) {
        std::cout << file.string()
                  << ": no cache file for this device yet (spvtune tune makes "
                     "it)\n";
        return exit_success;
    }
    const auto document = read_or_report(file);
    if (!document) {
        return exit_usage;
    }
    // The store finds a device's file by its name and refuses one that names other hardware
    // inside; say so here, where a hand-renamed copy is looked at. Backups of corrupt files
    // keep their own names.
    const std::string name = file.filename().string();
    if (file.stem().string() != document->hardware.key &&
        name.find(".corrupt-") == std::string::npos) {
        std::cerr << "spvtune: warning: " << file.string() << ": hardware.key '"
                  << document->hardware.key
                  << "' does not match the file name; tune reads this file only as "
                  << document->hardware.key << ".json\n";
    }
    if (options.json) {
        std::cout << cache::serialize_cache(*document);
        return exit_success;
    }
    std::cout << file.string() << ": " << describe_hardware(document->hardware) << ", "
              << entries_text(document->entry_count()) << '\n';
    std::vector<std::vector<std::string>> rows{
        {"TUNER", "KEY", "WINNER", "MEDIAN", "RUNNER-UP", "MARGIN"}};
    for (const auto& [name, lists] : document->tuners) {
        for (const auto& [checksum, list] : lists) {
            // Several candidate lists of one tuner are told apart by their checksum's start.
            const std::string tuner =
                lists.size() > 1 ? name + "@" + base::to_hex(checksum).substr(0, 8) : name;
            for (const auto& [key_json, record] : list.entries) {
                rows.push_back(entry_row(tuner, record));
            }
        }
    }
    if (rows.size() > 1) {
        print_table(rows);
    }
    return exit_success;
}

/// Which entries a clear removes: by tuner, canonical key and record.
using EntryPredicate = std::function<bool(const std::string& tuner, const std::string& key_json,
                                          const cache::CacheKeyRecord& record)>;

/// The level an entry's key was bucketed at, as a problem file's tuning records it.
std::optional<tune::AutotuneLevel> recorded_level(const tune::TuneEntry& entry) {
    if (!entry.settings.is_object()) {
        return std::nullopt;
    }
    const auto found = entry.settings.find("autotune_level");
    if (found == entry.settings.end() || !found->is_string()) {
        return std::nullopt;
    }
    const auto level = tune::parse_autotune_level(found->get<std::string>());
    return level ? std::optional(level.value()) : std::nullopt;
}

/// Matches the entries whose key is the selection's key bucketed as `tune` buckets it at the
/// entry's recorded level, and collects each bucket it mapped to, for the user to see.
EntryPredicate bucket_match(const EntrySelection& selection, std::set<std::string>& buckets) {
    return [&selection, &buckets](const std::string& tuner, const std::string& key_json,
                                  const cache::CacheKeyRecord& record) {
        const auto level = recorded_level(record.entry);
        const auto bucketed = level ? selection.bucketed(*level) : std::nullopt;
        if (!bucketed || !bucketed->matches(tuner, key_json)) {
            return false;
        }
        buckets.insert(bucketed->filter_text() + " (as tune buckets it at level " +
                       std::string(tune::to_string(*level)) + ")");
        return true;
    };
}

std::size_t count_matches(const std::vector<CacheDocument>& documents,
                          const EntryPredicate& matches) {
    std::size_t count = 0;
    for (const CacheDocument& document : documents) {
        for (const auto& [tuner, lists] : document.tuners) {
            for (const auto& [checksum, list] : lists) {
                for (const auto& [key_json, record] : list.entries) {
                    count += matches(tuner, key_json, record) ? 1 : 0;
                }
            }
        }
    }
    return count;
}

// Removes the selected entries from one file under its lock, reports them and counts them.
std::size_t clear_file(const EntryPredicate& matches, const fs::path& file) {
    std::vector<std::string> removed;
    cache::edit_cache_file(file, [&](CacheDocument& document) {
        for (auto tuner = document.tuners.begin(); tuner != document.tuners.end();) {
            for (auto list = tuner->second.begin(); list != tuner->second.end();) {
                auto& entries = list->second.entries;
                for (auto entry = entries.begin(); entry != entries.end();) {
                    if (matches(tuner->first, entry->first, entry->second)) {
                        removed.push_back(tuner->first + "  " + entry->second.printed_key);
                        entry = entries.erase(entry);
                    } else {
                        ++entry;
                    }
                }
                list = entries.empty() ? tuner->second.erase(list) : std::next(list);
            }
            tuner = tuner->second.empty() ? document.tuners.erase(tuner) : std::next(tuner);
        }
        return !removed.empty();
    });
    if (removed.empty()) {
        std::cout << file.string() << ": no matching entries\n";
        return 0;
    }
    std::cout << file.string() << ": removed " << entries_text(removed.size()) << '\n';
    for (const std::string& line : removed) {
        std::cout << "    " << line << '\n';
    }
    return removed.size();
}

int run_clear(const CacheOptions& options) {
    const auto selection = EntrySelection::parse(options.tuner, options.keys);
    if (!selection) {
        std::cerr << "spvtune: error: " << selection.error() << '\n';
        return exit_usage;
    }
    const fs::path directory = cache_directory(options);
    std::vector<fs::path> files;
    if (!options.file.empty()) {
        files.push_back(resolve_file(options.file, directory));
    } else {
        files = list_directory(directory).caches;
        if (files.empty()) {
            std::cout << "no cache files in " << directory.string() << '\n';
        }
    }
    int status = exit_success;
    std::vector<fs::path> valid;
    std::vector<CacheDocument> documents;
    for (const fs::path& file : files) {
        // Validate first, so a bad file is reported like in `show` and never touched.
        auto document = read_or_report(file);
        if (!document) {
            status = exit_usage;
            continue;
        }
        valid.push_back(file);
        documents.push_back(std::move(*document));
    }
    EntryPredicate matches = [&](const std::string& tuner, const std::string& key_json,
                                 const cache::CacheKeyRecord&) {
        return selection.value().matches(tuner, key_json);
    };
    // `tune` prints a bucketed key as `n=1000 (tuned as n=1024)` and stores it under n=1024: a
    // key that matches no stored key as written selects the bucket it maps to, named here.
    std::set<std::string> buckets;
    if (selection.value().filtered() && count_matches(documents, matches) == 0) {
        EntryPredicate in_bucket = bucket_match(selection.value(), buckets);
        if (count_matches(documents, in_bucket) > 0) {
            matches = std::move(in_bucket);
            for (const std::string& bucket : buckets) {
                std::cout << selection.value().describe() << " is stored in the bucket " << bucket
                          << '\n';
            }
        }
    }
    std::size_t removed = 0;
    for (const fs::path& file : valid) {
        try {
            removed += clear_file(matches, file);
        } catch (const cache::CacheFormatError& error) {
            std::cerr << "spvtune: error: " << error.what() << '\n';
            status = exit_usage;
        }
    }
    // A selection that matched nothing is most likely a mistyped key or tuner: say so.
    if (removed == 0 && selection.value().filtered() && status == exit_success) {
        std::cerr << "spvtune: error: no cache entry matches " << selection.value().describe()
                  << (selection.value().filter_text().empty()
                          ? ""
                          : ", nor its bucket as tune buckets a size (for a parameter with a "
                            "bucket base or bounds of its own, give the key tune printed after "
                            "'tuned as')")
                  << '\n';
        return exit_usage;
    }
    return status;
}

}  // namespace

CommandAction register_cache_command(CLI::App& parent) {
    auto* command = parent.add_subcommand("cache", "Inspect and edit the tuning cache files");
    command->require_subcommand(1);
    command->fallthrough();
    auto options = std::make_shared<CacheOptions>();
    // Before the subcommand (`cache --cache-dir DIR list`) or after it, where its --help shows it.
    add_cache_dir_option(*command, *options->cache_dir, "Cache directory");

    auto* path = command->add_subcommand(
        "path", "Print the cache directory and the selected device's cache file");
    add_device_option(*path, options->device);
    add_cache_dir_option(*path, *options->cache_dir, "Cache directory");
    auto* list = command->add_subcommand(
        "list", "List the cache files in the directory: hardware, tuners, entry counts");
    add_cache_dir_option(*list, *options->cache_dir, "Cache directory");
    auto* show = command->add_subcommand("show", "Print a cache file's entries as a table");
    show->add_option("file", options->file,
                     "Cache file, or its name in the cache directory (default: the selected "
                     "device's file, as cache path shows it)")
        ->type_name("FILE");
    add_device_option(*show, options->device);
    show->add_flag("--json", options->json, "Print the whole file as JSON");
    add_cache_dir_option(*show, *options->cache_dir, "Cache directory");
    auto* clear = command->add_subcommand(
        "clear", "Remove entries (all, or those matching --tuner/--key) and report them");
    clear
        ->add_option("file", options->file,
                     "Only this cache file (default: every cache file in the directory)")
        ->type_name("FILE");
    clear->add_option("--tuner", options->tuner, "Only entries of this tuner");
    clear
        ->add_option("--key", options->keys,
                     "Only entries with this key: name=value[,name=value...] as tune --key takes "
                     "it (a part of the key selects every key that has it), or the key's "
                     "canonical JSON (repeatable; all must match)")
        ->allow_extra_args(false);  // one value per --key, so a FILE after it stays the FILE
    add_cache_dir_option(*clear, *options->cache_dir, "Cache directory");

    const std::vector<CacheSubcommand> own_files = {
        add_cache_merge_command(*command),
        add_cache_verify_command(*command, options->cache_dir),
        add_cache_prune_command(*command, options->cache_dir),
        add_cache_diff_command(*command),
        add_cache_compact_command(*command),
        add_cache_export_command(*command)};

    return [options, path, list, show, clear, own_files] {
        for (const CacheSubcommand& subcommand : own_files) {
            if (subcommand.command->parsed()) {
                // `cache --cache-dir DIR merge ...` would be ignored: refused, as --help says.
                if (subcommand.command->get_option_no_throw("--cache-dir") == nullptr &&
                    !options->cache_dir->empty()) {
                    std::cerr << "spvtune: error: spvtune cache " << subcommand.command->get_name()
                              << " takes no --cache-dir: it works on the paths it names\n";
                    return static_cast<int>(exit_usage);
                }
                return subcommand.action();
            }
        }
        if (path->parsed()) {
            return run_path(*options);
        }
        if (list->parsed()) {
            return run_list(*options);
        }
        if (show->parsed()) {
            return run_show(*options);
        }
        if (clear->parsed()) {
            return run_clear(*options);
        }
        return static_cast<int>(exit_usage);
    };
}

}  // namespace spvtune::app
