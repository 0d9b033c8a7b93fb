#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/base/output_file.hpp>
#include <spvtune/cache/cache_diff.hpp>

#include "cache_files.hpp"
#include "cache_subcommands.hpp"
#include "path_options.hpp"
#include "report/key_table.hpp"
#include "report/markdown_text.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

struct DiffOptions {
    std::string old_side;
    std::string new_side;
    std::string json_out;
    std::string markdown_out;
};

/// Every cache document a side names (a file, or a directory's files), by hardware identity.
std::optional<std::map<std::string, cache::CacheDocument>> read_side(const fs::path& side) {
    std::error_code error;
    const std::vector<fs::path> files =
        fs::is_directory(side, error) ? list_directory(side).caches : std::vector<fs::path>{side};
    std::map<std::string, cache::CacheDocument> documents;
    for (const fs::path& file : files) {
        auto document = read_or_report(file);
        if (!document) {
            return std::nullopt;
        }
        const std::string key = document->hardware.key;
        documents.insert_or_assign(key, std::move(*document));
    }
    return documents;
}

struct HardwareDiff {
    std::string hardware;
    std::string device;
    std::vector<cache::EntryDifference> differences;
};

std::string time_text(const std::optional<double>& ns) {
    return ns ? format_duration_ns(*ns) : "";
}

/// "1.23 ms [1.2 ms, 1.25 ms]": a median with its confidence interval, when known.
std::string time_with_interval(const std::optional<double>& ns,
                               const std::optional<cache::MedianInterval>& interval) {
    std::string text = time_text(ns);
    if (!text.empty() && interval) {
        text += " [" + format_duration_ns(interval->low_ns) + ", " +
                format_duration_ns(interval->high_ns) + "]";
    }
    return text;
}

/// The new winner's time against the old one's, or why the change is only noise; empty unless
/// both times are known or the change is within the recorded noise.
std::string winner_speedup(const cache::EntryDifference& difference) {
    if (!difference.within_noise.empty()) {
        return "within noise: " + difference.within_noise;
    }
    return difference.old_ns && difference.new_ns
               ? speedup_text(*difference.old_ns, *difference.new_ns)
               : "";
}

nlohmann::json interval_json(const std::optional<cache::MedianInterval>& interval) {
    return interval ? nlohmann::json::array({interval->low_ns, interval->high_ns})
                    : nlohmann::json(nullptr);
}

nlohmann::json diff_json(const std::vector<HardwareDiff>& diffs,
                         const std::vector<std::string>& notes) {
    nlohmann::json hardware = nlohmann::json::array();
    for (const HardwareDiff& diff : diffs) {
        nlohmann::json entries = nlohmann::json::array();
        for (const cache::EntryDifference& d : diff.differences) {
            entries.push_back(
                {{"change", cache::entry_change_name(d.change)},
                 {"tuner", d.tuner},
                 {"key", d.printed_key},
                 {"old_winner", d.old_winner},
                 {"new_winner", d.new_winner},
                 {"old_ns", d.old_ns ? nlohmann::json(*d.old_ns) : nullptr},
                 {"new_ns", d.new_ns ? nlohmann::json(*d.new_ns) : nullptr},
                 {"old_interval_ns", interval_json(d.old_interval)},
                 {"new_interval_ns", interval_json(d.new_interval)},
                 {"within_noise", d.within_noise.empty() ? nlohmann::json(nullptr)
                                                         : nlohmann::json(d.within_noise)}});
        }
        hardware.push_back(
            {{"hardware", diff.hardware}, {"device", diff.device}, {"entries", entries}});
    }
    return {{"schema_version", 1},
            {"command", "cache diff"},
            {"spvtune_version", SPVTUNE_VERSION},
            {"notes", notes},
            {"hardware", hardware}};
}

std::string diff_markdown(const std::vector<HardwareDiff>& diffs,
                          const std::vector<std::string>& notes) {
    std::ostringstream out;
    out << "## Tuning cache changes\n";
    // Device names, tuner names, keys and winners come from cache files, which anyone who can
    // edit a shared or restored cache directory writes.
    for (const std::string& note : notes) {
        out << "\n- " << markdown_text(note) << '\n';
    }
    for (const HardwareDiff& diff : diffs) {
        out << "\n### " << markdown_text(diff.device) << " (" << markdown_code(diff.hardware)
            << ")\n\n";
        if (diff.differences.empty()) {
            out << "No changes.\n";
            continue;
        }
        out << "| change | tuner | key | old winner | new winner | old time | new time | new vs "
               "old |\n|---|---|---|---|---|---:|---:|---|\n";
        for (const cache::EntryDifference& d : diff.differences) {
            out << "| " << cache::entry_change_name(d.change) << " | " << markdown_text(d.tuner)
                << " | " << markdown_text(d.printed_key) << " | " << markdown_text(d.old_winner)
                << " | " << markdown_text(d.new_winner) << " | "
                << time_with_interval(d.old_ns, d.old_interval) << " | "
                << time_with_interval(d.new_ns, d.new_interval) << " | "
                << markdown_text(winner_speedup(d)) << " |\n";
        }
    }
    return out.str();
}

int run_diff(const DiffOptions& options) {
    const auto old_side = read_side(options.old_side);
    const auto new_side = old_side ? read_side(options.new_side) : std::nullopt;
    if (!old_side || !new_side) {
        return exit_usage;
    }
    std::vector<std::string> notes;
    std::vector<HardwareDiff> diffs;
    for (const auto& [key, old_document] : *old_side) {
        const auto found = new_side->find(key);
        if (found == new_side->end()) {
            notes.push_back("hardware " + key + " is only in " + options.old_side);
            continue;
        }
        diffs.push_back({key, found->second.hardware.record.value("device_name", key),
                         cache::diff_caches(old_document, found->second)});
    }
    for (const auto& [key, document] : *new_side) {
        if (!old_side->contains(key)) {
            notes.push_back("hardware " + key + " is only in " + options.new_side);
            diffs.push_back(
                {key, document.hardware.record.value("device_name", key),
                 cache::diff_caches(cache::make_cache_document(document.hardware), document)});
        }
    }
    try {
        if (!options.json_out.empty()) {
            base::write_output_file(options.json_out, diff_json(diffs, notes).dump(2) + "\n");
        }
        if (!options.markdown_out.empty()) {
            base::write_output_file(options.markdown_out, diff_markdown(diffs, notes));
        }
    } catch (const std::system_error& error) {
        throw std::runtime_error("cannot write the diff: " + std::string(error.what()));
    }
    std::ostream& out =
        options.json_out == "-" || options.markdown_out == "-" ? std::cerr : std::cout;
    for (const std::string& note : notes) {
        out << note << '\n';
    }
    for (const HardwareDiff& diff : diffs) {
        out << diff.device << " (" << diff.hardware << "): " << diff.differences.size()
            << " changes\n";
        for (const cache::EntryDifference& d : diff.differences) {
            out << "  " << cache::entry_change_name(d.change) << "  " << d.tuner << ' '
                << d.printed_key;
            if (!d.old_winner.empty()) {
                out << "  old " << d.old_winner << ' '
                    << time_with_interval(d.old_ns, d.old_interval);
            }
            if (!d.new_winner.empty()) {
                out << "  new " << d.new_winner << ' '
                    << time_with_interval(d.new_ns, d.new_interval);
            }
            const std::string speedup = winner_speedup(d);
            if (!speedup.empty() && d.change == cache::EntryChange::winner_changed) {
                out << "  (" << speedup << ')';
            }
            out << '\n';
        }
    }
    return exit_success;
}

}  // namespace

CacheSubcommand add_cache_diff_command(CLI::App& cache) {
    auto options = std::make_shared<DiffOptions>();
    auto* diff = cache.add_subcommand(
        "diff", "Show what changed between two cache directories or files, per hardware");
    diff->add_option("old", options->old_side, "The old cache directory or file")
        ->required()
        ->check(existing(PathKind::file_or_directory));
    diff->add_option("new", options->new_side, "The new cache directory or file")
        ->required()
        ->check(existing(PathKind::file_or_directory));
    diff->add_option("--json", options->json_out, "Write the changes as JSON (- for stdout)")
        ->type_name("FILE");
    diff->add_option("--markdown", options->markdown_out,
                     "Write the changes as Markdown, e.g. for release notes")
        ->type_name("FILE");
    return {diff, [options] { return run_diff(*options); }};
}

}  // namespace spvtune::app
