#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace spvtune::app {

/// CLI11's --help, except for the usage line of a positional that takes one value or a few:
/// CLI11 2.1 writes `compare ... files(1x)`, which reads as exactly one, where it takes one or
/// two; this writes `files [files]`.
class HelpFormatter : public CLI::Formatter {
  public:
    std::string make_option_usage(const CLI::Option* option) const override;
};

}  // namespace spvtune::app
