// `spvtune completion bash|zsh|fish`: the generated scripts, run in the real shells.
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "command_tree.hpp"
#include "help_listing.hpp"
#include "spvtune_run.hpp"

namespace completion_test {

using namespace spvtune::test;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

std::set<std::string> lines_of(const std::string& text) {
    std::set<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            lines.insert(line);
        }
    }
    return lines;
}

/// The completion script for `shell`, written to the scratch directory.
std::filesystem::path script_for(const TempDirectory& scratch, const std::string& shell) {
    const SpvtuneRun run = run_spvtune(scratch, {"completion", shell});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const std::filesystem::path script = scratch.path() / ("spvtune." + shell);
    write_bytes(script, run.out);
    return script;
}

/// A scratch directory with the bash script and a few files to complete.
struct BashCompletion {
    TempDirectory scratch;
    std::filesystem::path script = script_for(scratch, "bash");
    std::filesystem::path files = scratch.path() / "files";

    BashCompletion() {
        std::filesystem::create_directories(files / "kernels");
        write_bytes(files / "saxpy.json", "{}");
        write_bytes(files / "matmul.json", "{}");
        write_bytes(files / "notes.txt", "");
    }

    /// What bash offers for the command line `words`, the cursor at the end of the last word,
    /// run in `files` as a user's completion would: the script sourced, COMP_WORDS and
    /// COMP_CWORD set, and the function `complete -p spvtune` names called.
    std::set<std::string> complete(const std::vector<std::string>& words) {
        const std::string driver =
            "set -u\n"
            "source \"$1\"\n"
            "cd \"$2\"\n"
            "shift 2\n"
            "function=$(complete -p spvtune | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')\n"
            "[[ -n $function ]] || { echo 'spvtune has no completion function' >&2; exit 3; }\n"
            "COMP_WORDS=(\"$@\")\n"
            "COMP_CWORD=$(($# - 1))\n"
            "COMPREPLY=()\n"
            "\"$function\"\n"
            "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        std::vector<std::string> args{"-c", driver, "bash", script.string(), files.string()};
        args.insert(args.end(), words.begin(), words.end());
        const SpvtuneRun run = run_program(SPVTUNE_BASH, scratch, args);
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        CHECK_MESSAGE(run.err.empty(), run.err);
        return lines_of(run.out);
    }
};

/// The visible subcommands of `spvtune PATH --help`.
std::vector<std::string> subcommands_of(const std::vector<std::string>& path) {
    return parse_help(help_of(path)).subcommands;
}

}  // namespace

TEST_CASE("bash completes commands, cache subcommands, options and problem files") {
    BashCompletion bash;
    CHECK(bash.complete({"spvtune", "tu"}) == std::set<std::string>{"tune"});
    const std::vector<std::string> top = subcommands_of({});
    REQUIRE(top.size() >= 7);
    CHECK(bash.complete({"spvtune", ""}) == std::set<std::string>(top.begin(), top.end()));
    CHECK(bash.complete({"spvtune", "c"}) ==
          std::set<std::string>{"cache", "check", "compare", "completion"});

    const std::vector<std::string> cache = subcommands_of({"cache"});
    REQUIRE(cache.size() >= 8);
    CHECK(bash.complete({"spvtune", "cache", ""}) ==
          std::set<std::string>(cache.begin(), cache.end()));
    // The global --color and cache's --cache-dir come before the subcommand too.
    CHECK(bash.complete({"spvtune", "--color", "never", "cache", "--cache-dir", "kernels", "p"}) ==
          std::set<std::string>{"path", "prune"});

    CHECK(bash.complete({"spvtune", "tune", "--ret"}) == std::set<std::string>{"--retune"});
    const std::set<std::string> tune_options = bash.complete({"spvtune", "tune", "--"});
    for (const char* option : {"--device", "--json", "--samples", "--color", "--help"}) {
        CHECK_MESSAGE(tune_options.contains(option), option);
    }
    // An option of another command is not offered.
    CHECK_FALSE(tune_options.contains("--baseline"));

    // Problem files: the JSON files and the directories to look in, not other files.
    const std::set<std::string> json_and_directories{"kernels", "matmul.json", "saxpy.json"};
    CHECK(bash.complete({"spvtune", "tune", ""}) == json_and_directories);
    CHECK(bash.complete({"spvtune", "tune", "saxpy.json", "--retune", ""}) == json_and_directories);
    CHECK(bash.complete({"spvtune", "tune", "s"}) == std::set<std::string>{"saxpy.json"});
    CHECK(bash.complete({"spvtune", "cache", "verify", "kernels", "--problems", "m"}) ==
          std::set<std::string>{"matmul.json"});
}

TEST_CASE("bash completes option values by kind: directories, choices, nothing for free text") {
    BashCompletion bash;
    CHECK(bash.complete({"spvtune", "tune", "--cache-dir", ""}) ==
          std::set<std::string>{"kernels"});
    CHECK(bash.complete({"spvtune", "tune", "--color", "a"}) ==
          std::set<std::string>{"always", "auto"});
    // Bash splits `--color=n` at '='.
    CHECK(bash.complete({"spvtune", "--color", "=", "n"}) == std::set<std::string>{"never"});
    CHECK(bash.complete({"spvtune", "completion", ""}) ==
          std::set<std::string>{"bash", "fish", "zsh"});
    CHECK(bash.complete({"spvtune", "tune", "--device", ""}).empty());
    CHECK(bash.complete({"spvtune", "tune", "--samples", ""}).empty());
    // The word after an option's value is a problem file again.
    CHECK(bash.complete({"spvtune", "tune", "--device", "0", "sa"}) ==
          std::set<std::string>{"saxpy.json"});
    // Hidden commands are not offered.
    CHECK(bash.complete({"spvtune", "__"}).empty());
    CHECK(bash.complete({"spvtune", "man"}).empty());
}

TEST_CASE("the zsh and fish scripts name every command and parse in their shells") {
    TempDirectory scratch;
    std::vector<std::string> commands = subcommands_of({});
    const std::vector<std::string> cache = subcommands_of({"cache"});
    commands.insert(commands.end(), cache.begin(), cache.end());

    const std::filesystem::path zsh = script_for(scratch, "zsh");
    const std::filesystem::path fish = script_for(scratch, "fish");
    const std::string zsh_text = spvtune::tune::testing::read_bytes(zsh);
    const std::string fish_text = spvtune::tune::testing::read_bytes(fish);
    CHECK(zsh_text.starts_with("#compdef spvtune\n"));
    for (const std::string& command : commands) {
        CAPTURE(command);
        CHECK(contains(zsh_text, "'" + command + ":"));
        CHECK(contains(fish_text, "-a '" + command + "'"));
    }
    CHECK(contains(zsh_text, "_files -g \"*.json\""));

    const SpvtuneRun zsh_check = run_program(SPVTUNE_ZSH, scratch, {"-n", zsh.string()});
    CHECK_MESSAGE(zsh_check.exit_code == 0, zsh_check.err);
    const SpvtuneRun fish_check = run_program(SPVTUNE_FISH, scratch, {"-n", fish.string()});
    CHECK_MESSAGE(fish_check.exit_code == 0, fish_check.err);
}

TEST_CASE("fish completes commands, cache subcommands and options from the script") {
    TempDirectory scratch;
    const std::filesystem::path fish = script_for(scratch, "fish");
    // `complete -C LINE` prints what fish would offer, one `word<TAB>description` a line.
    auto complete = [&](const std::string& line) {
        const SpvtuneRun run = run_program(
            SPVTUNE_FISH, scratch,
            {"--no-config", "-c", "source " + fish.string() + "; complete -C '" + line + "'"});
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        std::set<std::string> words;
        for (const std::string& entry : lines_of(run.out)) {
            words.insert(entry.substr(0, entry.find('\t')));
        }
        return words;
    };
    CHECK(complete("spvtune tu") == std::set<std::string>{"tune"});
    const std::vector<std::string> cache = subcommands_of({"cache"});
    CHECK(complete("spvtune cache ") == std::set<std::string>(cache.begin(), cache.end()));
    CHECK(complete("spvtune tune --ret") == std::set<std::string>{"--retune"});
    CHECK(complete("spvtune --color=n") == std::set<std::string>{"--color=never"});
}

}  // namespace completion_test
