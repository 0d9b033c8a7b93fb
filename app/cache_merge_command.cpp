#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <spvtune/base/output_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/cache_merge.hpp>

#include "cache_files.hpp"
#include "cache_subcommands.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

struct MergeOptions {
    std::vector<std::string> sources;
    std::string output;
};

/// The cache files a source names: itself, or a directory's live cache files.
std::vector<fs::path> source_files(const fs::path& source) {
    std::error_code error;
    if (fs::is_directory(source, error)) {
        return list_directory(source).caches;
    }
    return {source};
}

int run_merge(const MergeOptions& options) {
    const fs::path output(options.output);
    std::vector<cache::CacheDocument> documents;
    std::vector<fs::path> inputs;
    for (const std::string& source : options.sources) {
        const std::vector<fs::path> files = source_files(source);
        inputs.insert(inputs.end(), files.begin(), files.end());
    }
    // What the output directory already holds is merged too: a merge never loses an entry.
    std::error_code error;
    if (fs::is_directory(output, error)) {
        const std::vector<fs::path> existing = list_directory(output).caches;
        inputs.insert(inputs.end(), existing.begin(), existing.end());
    }
    for (const fs::path& file : inputs) {
        auto document = read_or_report(file);
        if (!document) {
            return exit_usage;
        }
        if (document->is_newer_schema()) {
            std::cerr << "spvtune: error: " << file.string()
                      << ": written by a newer spvtune (schema version " << document->schema_version
                      << "); merge it with that version\n";
            return exit_usage;
        }
        documents.push_back(std::move(*document));
    }
    const cache::MergedCaches merged = cache::merge_caches(documents);
    fs::create_directories(output);
    for (const auto& [identity, document] : merged.documents) {
        const fs::path file = output / cache::cache_file_name(document.hardware);
        base::write_output_file(file, cache::serialize_cache(document));
        std::cout << file.string() << ": " << document.entry_count() << " entries\n";
    }
    for (const cache::MergeConflict& conflict : merged.conflicts) {
        std::cout << "conflict: " << conflict.hardware << " " << conflict.tuner << " "
                  << conflict.printed_key << ": kept " << conflict.kept_winner << " over "
                  << conflict.dropped_winner << " (more evidence)\n";
    }
    std::cout << "merged " << inputs.size() << " files into " << merged.documents.size() << " in "
              << output.string() << "; " << merged.conflicts.size()
              << " conflicts where the winners differ\n";
    return exit_success;
}

}  // namespace

CacheSubcommand add_cache_merge_command(CLI::App& cache) {
    auto options = std::make_shared<MergeOptions>();
    auto* merge = cache.add_subcommand(
        "merge", "Combine cache directories or files from many machines, one file per hardware");
    merge->add_option("sources", options->sources, "Cache files or directories to merge")
        ->required()
        ->check(existing(PathKind::file_or_directory));
    merge
        ->add_option("-o,--output", options->output,
                     "Directory to write the merged files to (its own files are merged too)")
        ->type_name("DIR")
        ->required();
    return {merge, [options] { return run_merge(*options); }};
}

}  // namespace spvtune::app
