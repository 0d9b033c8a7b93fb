#include <charconv>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <spvtune/run/output_dump.hpp>

#include "activity.hpp"
#include "command.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

struct ShowOutputOptions {
    std::string file;
    std::string range;
};

std::optional<std::size_t> parse_index(std::string_view text) {
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

/// `A:B` as the half-open element range [A, B); either end may be left out (`:8`, `100:`).
std::optional<std::pair<std::size_t, std::size_t>> parse_range(const std::string& text,
                                                               std::size_t count) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        return std::nullopt;
    }
    const std::string_view first = std::string_view(text).substr(0, colon);
    const std::string_view last = std::string_view(text).substr(colon + 1);
    const auto begin = first.empty() ? std::optional<std::size_t>(0) : parse_index(first);
    const auto end = last.empty() ? std::optional<std::size_t>(count) : parse_index(last);
    if (!begin || !end || *begin > *end) {
        return std::nullopt;
    }
    return std::pair{*begin, *end};
}

int run_show_output(const ShowOutputOptions& options) {
    run::DumpedOutput output;
    try {
        output = while_doing("reading the dumped output " + options.file,
                             [&] { return run::read_dumped_output(options.file); });
    } catch (const std::runtime_error& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
        return exit_usage;
    }
    std::pair<std::size_t, std::size_t> range{0, output.count};
    if (!options.range.empty()) {
        const auto parsed = parse_range(options.range, output.count);
        if (!parsed) {
            std::cerr << "spvtune: error: --range " << options.range
                      << ": expected A:B with A <= B, element indices\n";
            return exit_usage;
        }
        // Past the end is cut off, so "--range 0:16" works on any buffer.
        range = {std::min(parsed->first, output.count), std::min(parsed->second, output.count)};
    }
    const auto& manifest = output.manifest;
    std::cout << manifest.value("buffer", "?") << ": " << output.count << " x "
              << vulkan::to_string(output.type) << ", candidate "
              << manifest.value("candidate", "?")
              << (manifest.value("reference", false) ? " (reference)" : "") << ", key "
              << manifest.value("key", nlohmann::json::object()).dump() << '\n';
    for (std::size_t i = range.first; i < range.second; ++i) {
        std::cout << i << ' ' << run::format_element(output.type, output.bytes, i) << '\n';
    }
    return exit_success;
}

}  // namespace

CommandAction register_show_output_command(CLI::App& parent) {
    auto* command = parent.add_subcommand(
        "show-output", "Print a buffer that tune --dump-outputs wrote, one element a line");
    auto options = std::make_shared<ShowOutputOptions>();
    command->add_option("file", options->file, "A dumped buffer: its .bin or its .json")
        ->required()
        ->check(existing(PathKind::file));
    command->add_option("--range", options->range,
                        "Only elements A (included) to B (excluded), e.g. 0:16 or 1000:");
    return [options] { return run_show_output(*options); };
}

}  // namespace spvtune::app
