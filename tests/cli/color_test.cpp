// Colour in the terminal reports: statuses and verdicts painted on a terminal or with
// `--color always`; never in a pipe, with `--color never`, or under NO_COLOR with auto.
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune_fixture.hpp"

namespace color_test {

using namespace spvtune::test;

namespace {

/// Whether `text` holds a colour (SGR) escape code. The progress line's own codes (`ESC [K`,
/// clear to the end of the line) are not colour.
bool coloured(const std::string& text) {
    return std::regex_search(text, std::regex("\x1b\\[[0-9;]*m"));
}

/// `word` between an SGR escape code and the reset code.
bool painted(const std::string& text, const std::string& word) {
    return std::regex_search(text, std::regex("\x1b\\[[0-9;]+m" + word + "\x1b\\[0m"));
}

std::string without_escapes(const std::string& text) {
    return std::regex_replace(text, std::regex("\x1b\\[[0-9;]*m"), "");
}

/// The ranking table's lines, escape codes removed: its header and the candidates' rows.
std::vector<std::string> table_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(without_escapes(text));
    bool in_table = false;
    for (std::string line; std::getline(in, line);) {
        in_table = in_table || line.starts_with("  #  candidate");
        if (in_table && line.empty()) {
            break;
        }
        if (in_table) {
            lines.push_back(line);
        }
    }
    return lines;
}

/// One tune of scale.json's first key, its table then answered from the cache with -v.
struct ColorFixture : TuneFixture {
    SpvtuneRun tune_key(std::vector<std::string> extra) {
        extra.insert(extra.end(), {"--key", "n=16384"});
        return tune("scale.json", extra);
    }

    /// `spvtune ARGS` on a terminal (a pseudo-terminal from script(1)), with `environment`
    /// (NAME=VALUE words) set for it.
    SpvtuneRun on_terminal(const std::vector<std::string>& args, const std::string& environment) {
        std::string command = "env " + environment + " '" + std::string(SPVTUNE_BINARY) + "'";
        for (const std::string& arg : args) {
            command += " '" + arg + "'";
        }
        return run_program("/usr/bin/script", scratch, {"-qec", command, "/dev/null"});
    }

    std::vector<std::string> cached_key_args() const {
        return {
            "tune",        problems + "/scale.json", "--key",        "n=16384",
            "--cache-dir", cache.string(),           "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
            "-v"};
    }
};

}  // namespace

TEST_CASE("tune --color always paints the statuses, and the table's columns still line up" *
          doctest::test_suite("timing")) {
    ColorFixture fixture;
    const SpvtuneRun run = fixture.tune_key({"--color", "always"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(painted(run.out, "ok \\(winner\\)"));
    CHECK(painted(run.out, "wrong output"));
    CHECK(painted(run.out, "fast"));  // the winner's name, in the headline and the table

    // Padded on the visible width: each column starts where its header does.
    const std::vector<std::string> lines = table_lines(run.out);
    REQUIRE(lines.size() >= 3);
    const std::string& header = lines.front();
    for (const char* column : {"median", "95% CI of median", "speedup", "status"}) {
        CAPTURE(column);
        const auto at = header.find(column);
        REQUIRE(at != std::string::npos);
        for (std::size_t row = 1; row < lines.size(); ++row) {
            CAPTURE(lines[row]);
            REQUIRE(lines[row].size() > at);
            CHECK(lines[row][at - 1] == ' ');
            CHECK(lines[row][at] != ' ');
        }
    }
}

TEST_CASE("tune paints nothing with --color never, in a pipe, or under NO_COLOR") {
    ColorFixture fixture;
    const SpvtuneRun never = fixture.tune_key({"--color", "never"});
    REQUIRE_MESSAGE(never.exit_code == 0, never.err);
    CHECK(contains(never.out, "ok (winner)"));
    CHECK_FALSE(coloured(never.out));
    CHECK_FALSE(coloured(never.err));

    // Auto (the default) through the test's pipe: plain, -v showing the cached table.
    const SpvtuneRun piped = fixture.tune_key({"-v"});
    REQUIRE_MESSAGE(piped.exit_code == 0, piped.err);
    CHECK(contains(piped.out, "ok (winner)"));
    CHECK_FALSE(coloured(piped.out));

    // On a terminal auto paints; NO_COLOR stops it, and an explicit --color always wins.
    const auto args = fixture.cached_key_args();
    const SpvtuneRun terminal = fixture.on_terminal(args, "NO_COLOR= TERM=xterm");
    REQUIRE_MESSAGE(terminal.exit_code == 0, terminal.out << terminal.err);
    CHECK_MESSAGE(painted(terminal.out, "ok \\(winner\\)"), terminal.out);

    const SpvtuneRun no_color = fixture.on_terminal(args, "NO_COLOR=1 TERM=xterm");
    REQUIRE_MESSAGE(no_color.exit_code == 0, no_color.out << no_color.err);
    CHECK(contains(no_color.out, "ok (winner)"));
    CHECK_MESSAGE(!coloured(no_color.out), no_color.out);

    std::vector<std::string> forced = args;
    forced.insert(forced.begin(), {"--color", "always"});
    const SpvtuneRun always = fixture.on_terminal(forced, "NO_COLOR=1 TERM=xterm");
    REQUIRE_MESSAGE(always.exit_code == 0, always.out << always.err);
    CHECK(painted(always.out, "ok \\(winner\\)"));
}

TEST_CASE("compare paints its verdicts with --color always and nothing with --color never" *
          doctest::test_suite("timing")) {
    ColorFixture fixture;
    auto compare = [&](const std::string& color) {
        return run_spvtune(
            fixture.scratch,
            {"compare", problems + "/compare.json", "--baseline", "base", "--contender", "planted",
             "--contender", "wrong", "--key", "n=65536", "--fail-if-slower", "10", "--kernel-dir",
             SPVTUNE_CLI_TEST_KERNEL_DIR, "--cache-dir", fixture.cache.string(), "--color", color});
    };
    const SpvtuneRun always = compare("always");
    CHECK_MESSAGE(always.exit_code == 1, always.out << always.err);
    CHECK_MESSAGE(painted(always.out, "slower"), always.out);
    CHECK(painted(always.out, "wrong output"));
    CHECK(painted(always.out, "REGRESSION"));
    CHECK(painted(always.out, "FAILED"));

    const SpvtuneRun never = compare("never");
    CHECK(never.exit_code == 1);
    CHECK(contains(never.out, "wrong output"));
    CHECK_FALSE(coloured(never.out));
}

TEST_CASE("--color takes auto, always or never, before or after the command") {
    spvtune::tune::testing::TempDirectory scratch;
    const SpvtuneRun wrong = run_spvtune(scratch, {"--color", "sometimes", "devices"});
    CHECK(wrong.exit_code == 2);
    CHECK(contains(wrong.err, "sometimes"));
    CHECK(run_spvtune(scratch,
                      {"cache", "--color", "never", "list", "--cache-dir", scratch.path().string()})
              .exit_code == 0);
}

}  // namespace color_test
