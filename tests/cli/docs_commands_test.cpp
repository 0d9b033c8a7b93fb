// Every spvtune command line in the code blocks of docs/*.md runs, as written, and succeeds: an
// example a reader copies must work. Each document's commands run in order in one scratch
// directory that sees the repository's top-level entries (configs/, kernels/, ...) through
// links, so later commands find what earlier ones wrote and nothing lands in the source tree.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"
#include "support/scoped_env.hpp"

namespace docs_commands_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
namespace fs = std::filesystem;

namespace {

const fs::path source_dir{SPVTUNE_SOURCE_DIR};

struct DocCommand {
    std::string where;  ///< "docs/ci.md:11"
    std::string text;   ///< continuation lines joined
};

/// The commands this test cannot run, each with the reason; keep it short.
struct NotRun {
    const char* document;
    const char* fragment;  ///< a part of the command line
    const char* reason;
};
constexpr NotRun not_run[] = {
    {"ci.md", "--base-kernel-dir main-build/kernels",
     "compares two builds' kernels: needs the main branch built in main-build/"},
    {"ci.md", "/app/spvtune ",
     "a CI workflow's step: runs in the checkouts and builds its workflow makes (new/, base/)"},
};

const NotRun* reason_not_to_run(const std::string& document, const std::string& command) {
    for (const NotRun& entry : not_run) {
        if (document == entry.document && command.find(entry.fragment) != std::string::npos) {
            return &entry;
        }
    }
    return nullptr;
}

/// The lines of fenced code blocks that run spvtune (`spvtune tune ...`, `path/to/spvtune
/// compare ...`), with lines ending in `\` joined to the next; comment lines left out.
std::vector<DocCommand> commands_in(const fs::path& document) {
    const std::regex runs_spvtune(R"((^|[\s/])spvtune +[a-z])");
    std::vector<DocCommand> commands;
    std::istringstream lines(read_bytes(document));
    bool in_code = false;
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        const std::string trimmed = line.substr(std::min(line.find_first_not_of(' '), line.size()));
        if (trimmed.starts_with("```")) {
            in_code = !in_code;
            continue;
        }
        if (!in_code || trimmed.starts_with("#") || !std::regex_search(line, runs_spvtune)) {
            continue;
        }
        DocCommand command{"docs/" + document.filename().string() + ":" + std::to_string(number),
                           trimmed};
        while (command.text.ends_with("\\") && std::getline(lines, line)) {
            ++number;
            command.text.pop_back();
            command.text += line;
        }
        commands.push_back(command);
    }
    return commands;
}

std::vector<fs::path> documents() {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(source_dir / "docs")) {
        if (entry.path().extension() == ".md") {
            found.push_back(entry.path());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

/// A working directory that sees the repository's top-level entries, the build left out.
void link_repository(const fs::path& directory) {
    for (const auto& entry : fs::directory_iterator(source_dir)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(".") && name != "build") {
            fs::create_directory_symlink(entry.path(), directory / name);
        }
    }
}

}  // namespace

TEST_CASE("every spvtune command in docs/*.md runs as written and succeeds") {
    TempDirectory cache;
    const ScopedEnv cache_dir("SPVTUNE_CACHE_DIR", cache.path().string());
    // `spvtune` is the binary under test.
    const ScopedEnv path(
        "PATH", fs::path(SPVTUNE_BINARY).parent_path().string() + ":" + std::getenv("PATH"));
    std::size_t run = 0;
    std::vector<const NotRun*> used;
    for (const fs::path& document : documents()) {
        TempDirectory work;
        link_repository(work.path());
        for (const DocCommand& command : commands_in(document)) {
            CAPTURE(command.where);
            CAPTURE(command.text);
            if (const NotRun* skip =
                    reason_not_to_run(document.filename().string(), command.text)) {
                used.push_back(skip);
                continue;
            }
            TempDirectory scratch;
            const SpvtuneRun result = run_program(
                SPVTUNE_BASH, scratch,
                {"-c", "cd -- \"$1\" && " + command.text, "bash", work.path().string()});
            CHECK_MESSAGE(result.exit_code == 0, result.err);
            ++run;
        }
    }
    CHECK(run >= 8);
    // A reason for a command that is no longer there goes with it.
    for (const NotRun& entry : not_run) {
        CAPTURE(entry.fragment);
        CHECK(std::find(used.begin(), used.end(), &entry) != used.end());
    }
}

}  // namespace docs_commands_test
