// The spvtune(1) manual page: generated from the command definitions, complete, and rendered by
// groff without a warning.
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "command_tree.hpp"
#include "help_listing.hpp"
#include "spvtune_run.hpp"

namespace manual_page_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

std::string manual_page() {
    TempDirectory scratch;
    const SpvtuneRun run = run_spvtune(scratch, {"manual-page"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    return run.out;
}

HelpListing listing_of(const std::vector<std::string>& path) {
    return parse_help(help_of(path));
}

/// How the page writes an option name: bold, with troff's minus signs.
std::string troff_option(const std::string& name) {
    std::string text = "\\fB";
    for (char c : name) {
        text += c == '-' ? std::string("\\-") : std::string(1, c);
    }
    return text + "\\fR";
}

/// The page's subsection of one command: from its .SS line to the next.
std::string section_of(const std::string& page, const std::string& command) {
    std::string title = ".SS \"";
    for (char c : command) {
        title += c == '-' ? std::string("\\-") : std::string(1, c);
    }
    title += "\"\n";
    const auto start = page.find(title);
    REQUIRE_MESSAGE(start != std::string::npos, "no section " << title);
    const auto end = page.find("\n.S", start + title.size());
    return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

TEST_CASE("the manual page has NAME, SYNOPSIS and a section per command with its options") {
    const std::string page = manual_page();
    CHECK(page.find(".TH SPVTUNE 1 ") != std::string::npos);
    for (const char* section :
         {".SH NAME\nspvtune \\- ", ".SH SYNOPSIS\n", ".SH DESCRIPTION\n", ".SH OPTIONS\n",
          ".SH COMMANDS\n", ".SH ENVIRONMENT\n", ".SH EXIT STATUS\n"}) {
        CHECK_MESSAGE(contains(page, section), section);
    }
    CHECK(contains(page, "SPVTUNE_CACHE_DIR"));
    CHECK(contains(page, "130"));
    // The global options, as `spvtune --help` lists them.
    for (const auto& names : listing_of({}).options) {
        CHECK_MESSAGE(contains(page, troff_option(*names.rbegin())), *names.rbegin());
    }

    std::vector<std::vector<std::string>> commands;
    for (const std::string& command : listing_of({}).subcommands) {
        commands.push_back({command});
        for (const std::string& subcommand : listing_of({command}).subcommands) {
            commands.push_back({command, subcommand});
        }
    }
    REQUIRE(commands.size() >= 15);
    for (const auto& path : commands) {
        std::string line = "spvtune";
        for (const std::string& word : path) {
            line += " " + word;
        }
        CAPTURE(line);
        const std::string section = section_of(page, line);
        const HelpListing listing = listing_of(path);
        for (const auto& names : listing.options) {
            for (const std::string& name : names) {
                CHECK_MESSAGE(contains(section, troff_option(name)), name);
            }
        }
        for (const Positional& positional : listing.positionals) {
            CHECK_MESSAGE(contains(section, "\\fI" + positional.name + "\\fR"), positional.name);
        }
    }
    // The hidden commands stay out of it.
    CHECK_FALSE(contains(page, "__worker"));
    CHECK_FALSE(contains(page, "manual\\-page\""));
}

TEST_CASE("groff renders the manual page without warnings") {
    TempDirectory scratch;
    const auto page = scratch.path() / "spvtune.1";
    write_bytes(page, manual_page());
    // -ww: every warning groff knows; a bad escape or request shows here.
    const SpvtuneRun run =
        run_program(SPVTUNE_GROFF, scratch, {"-man", "-Tutf8", "-ww", page.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK_MESSAGE(run.err.empty(), run.err);
    // grotty makes bold and italic text by overstriking: a character, a backspace, the next.
    const std::string text = std::regex_replace(run.out, std::regex(".\x08"), "");
    CHECK(contains(text, "SYNOPSIS"));
    CHECK(contains(text, "spvtune cache show"));
    CHECK(contains(text, "--retune"));
}

}  // namespace manual_page_test
