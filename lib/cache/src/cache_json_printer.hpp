#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace spvtune::cache::cache_json {

/// Pretty-prints like nlohmann's dump(2) (sorted keys, same escaping and numbers), except that
/// objects inside arrays (a candidate, a ranked result, a failure) are printed on one line. That
/// halves a cache's size, and so its load time, while a diff still shows one line per candidate.
/// Invalid UTF-8 is replaced, so printing never fails.
std::string print(const nlohmann::json& value);

}  // namespace spvtune::cache::cache_json
