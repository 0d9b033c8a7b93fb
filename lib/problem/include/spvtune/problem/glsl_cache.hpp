#pragma once

// Compiled GLSL kept on disk, so a second run with the same sources and defines does not run
// glslang again. One file per entry under the spvtune cache directory's `glsl/` folder.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <spvtune/problem/glsl_compiler.hpp>

namespace spvtune::problem {

/// An entry is named by a digest of what the SPIR-V is made from: the source text, the
/// defines (sorted), the target, the source's directory and the include directories (which
/// decide what an `#include` finds) and glslang's version. It also records each included
/// file's path and digest, and is used only while every one of them still reads the same (the
/// included files are known only after a compile). An entry that cannot be read or does not
/// hold together is ignored and written anew; compile errors are not stored.
class GlslCache {
  public:
    /// No directory, or one that is a symbolic link (never followed: it may name any folder):
    /// nothing is stored and every request compiles. Opening a directory removes the
    /// temporaries in it that a process killed mid-write left (older than 10 minutes). An entry
    /// and the includes it records are read only as regular files of at most 64 MiB, never
    /// blocking; an entry that is anything else (a symbolic link, never followed, a FIFO, a
    /// device), does not parse, or records an include that is, is damaged: `warn` hears it once
    /// per entry (none: "spvtune: warning: ..." on stderr), and storing the request replaces the
    /// entry itself.
    explicit GlslCache(std::optional<std::filesystem::path> directory,
                       std::function<void(const std::string&)> warn = {});

    /// The request's SPIR-V from its entry, else compiled (and stored when it compiles).
    GlslOutput compile(const GlslRequest& request) const;

    /// Where the request's entry is (or would be); needs a directory.
    std::filesystem::path entry_path(const GlslRequest& request) const;

  private:
    struct Warned;

    void warn_damaged(const std::filesystem::path& entry, const std::string& damage) const;

    std::optional<std::filesystem::path> directory_;
    std::function<void(const std::string&)> warn_;
    /// The entries warned of, shared by copies (a per-key compile holds one).
    std::shared_ptr<Warned> warned_;
};

}  // namespace spvtune::problem
