#include "path_options.hpp"

#include <filesystem>
#include <system_error>

namespace spvtune::app {

CLI::Validator file_path() {
    return {[](const std::string& text) -> std::string {
                return text.empty() ? "expected a file path, found an empty path" : "";
            },
            "FILE"};
}

CLI::Validator directory_path() {
    return {[](const std::string& text) -> std::string {
                if (text.empty()) {
                    return "expected a directory, found an empty path";
                }
                std::error_code error;
                const auto status = std::filesystem::status(text, error);
                if (std::filesystem::exists(status) && !std::filesystem::is_directory(status)) {
                    return "'" + text + "' is not a directory";
                }
                return "";
            },
            "DIR"};
}

void add_kernel_dir_option(CLI::App& command, std::vector<std::string>& kernel_dirs) {
    command
        .add_option("--kernel-dir", kernel_dirs,
                    "Extra directory to look for SPIR-V and GLSL files in (repeatable)")
        ->type_name("DIR")
        ->allow_extra_args(false);
}

}  // namespace spvtune::app
