#pragma once

// Turns the file descriptions of tests/hostile/corpus.json into files on disk, so the corpus
// can hold 50,000-deep nesting, FIFOs, symbolic-link loops and binary garbage without
// committing any of them.

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace spvtune::test::hostile {

/// What `{name}` placeholders in a case's arguments and texts stand for.
using Placeholders = std::map<std::string, std::string>;

/// `text` with every `{name}` of `placeholders` replaced.
std::string substitute(std::string text, const Placeholders& placeholders);

/// Creates `path` as `spec` describes (see the "files" note at the top of corpus.json);
/// `bases` holds the named problem documents a spec may start from.
void make_file(const std::filesystem::path& path, const nlohmann::json& spec,
               const nlohmann::json& bases, const Placeholders& placeholders);

}  // namespace spvtune::test::hostile
