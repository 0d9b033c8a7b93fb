#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace spvtune::tune::testing {

/// A fresh directory under the system temp directory, removed with everything in it.
class TempDirectory {
  public:
    TempDirectory();
    ~TempDirectory();
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;

    const std::filesystem::path& path() const noexcept { return path_; }

  private:
    std::filesystem::path path_;
};

std::string read_bytes(const std::filesystem::path& file);
void write_bytes(const std::filesystem::path& file, const std::string& bytes);

/// Files in `directory` whose names contain `part`, sorted.
std::vector<std::filesystem::path> files_containing(const std::filesystem::path& directory,
                                                    const std::string& part);

}  // namespace spvtune::tune::testing
