#pragma once

#include <functional>
#include <string>

namespace spvtune::cache {

/// Receives one complete, human-readable warning per call (no trailing newline). Called while
/// the store's lock is held, so it must not call back into the store.
using WarningSink = std::function<void(const std::string&)>;

/// Writes "spvtune: warning: <message>" to stderr.
void warn_to_stderr(const std::string& message);

}  // namespace spvtune::cache
