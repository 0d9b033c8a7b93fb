#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace spvtune::app {

// Colour in the terminal reports: the one place that decides whether to colour and that knows
// the escape codes. The reports stay plain text for pipes, files and NO_COLOR users.

/// `--color auto|always|never`.
enum class ColorMode { automatic, always, never };

/// Adds the global `--color WHEN` option to the root command; subcommands reach it through
/// fallthrough (`spvtune tune --color never ...`).
void add_color_option(CLI::App& root);

/// The `--color` choice in force for `command`: the root command's option.
ColorMode color_mode(const CLI::App& command);

/// What a status or verdict means to its reader.
enum class Tone {
    good,     ///< a winner, faster, a gate passed
    warning,  ///< tied, inconclusive: look again
    bad,      ///< wrong output, failed, crashed, slower, a regression
    muted,    ///< skipped, not measured
};

/// Paints text for one output stream, or leaves it plain.
class Palette {
  public:
    /// Colour for `stream` under `mode`: `always` colours, `never` does not, `auto` colours
    /// only std::cout or std::cerr when that stream is a terminal, NO_COLOR is unset or empty
    /// (no-color.org) and TERM is not `dumb`. An explicit `always` wins over NO_COLOR.
    static Palette for_stream(ColorMode mode, const std::ostream& stream);

    explicit Palette(bool enabled) : enabled_(enabled) {}

    bool enabled() const { return enabled_; }

    /// `text` between the tone's escape code and the reset code; `text` itself when disabled.
    std::string paint(std::string_view text, Tone tone) const;

  private:
    bool enabled_;
};

/// The columns `text` takes on a terminal: its length without escape sequences.
std::size_t visible_width(std::string_view text);

/// `text` followed by spaces up to `width` visible columns, so coloured cells still align.
std::string pad_right(std::string_view text, std::size_t width);

}  // namespace spvtune::app
