#include "path_options.hpp"

#include <cctype>
#include <filesystem>
#include <system_error>

namespace spvtune::app {

namespace fs = std::filesystem;

std::optional<std::string> path_fault(const std::string& path, PathKind kind) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (status.type() == fs::file_type::not_found) {
        switch (kind) {
            case PathKind::file:
                return "no such file";
            case PathKind::directory:
                return "no such directory";
            case PathKind::file_or_directory:
                return "no such file or directory";
        }
    }
    if (error) {  // a symbolic-link loop, a directory we may not search
        std::string message = error.message();
        if (!message.empty()) {
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        }
        return message;
    }
    if (kind == PathKind::file && fs::is_directory(status)) {
        return "is a directory, not a file";
    }
    if (kind == PathKind::directory && !fs::is_directory(status)) {
        return "is not a directory";
    }
    return std::nullopt;
}

PathError::PathError(const std::string& path, const std::string& reason)
    : CLI::ParseError("PathError", path + ": " + reason, CLI::ExitCodes::ValidationError) {}

CLI::Validator existing(PathKind kind) {
    const char* name = kind == PathKind::file        ? "FILE"
                       : kind == PathKind::directory ? "DIR"
                                                     : "PATH";
    return {[kind](const std::string& text) -> std::string {
                if (const auto fault = path_fault(text, kind)) {
                    throw PathError(text, *fault);
                }
                return "";
            },
            name};
}

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
                const auto status = fs::status(text, error);
                if (fs::exists(status) && !fs::is_directory(status)) {
                    return "'" + text + "' is not a directory";
                }
                return "";
            },
            "DIR"};
}

void add_cache_dir_option(CLI::App& command, std::string& cache_dir, const std::string& what) {
    command
        .add_option("--cache-dir", cache_dir,
                    what +
                        " (default: $SPVTUNE_CACHE_DIR, else $XDG_CACHE_HOME/spvtune, else "
                        "$HOME/.cache/spvtune)")
        ->check(directory_path());
}

void add_kernel_dir_option(CLI::App& command, std::vector<std::string>& kernel_dirs) {
    command
        .add_option("--kernel-dir", kernel_dirs,
                    "Extra directory to look for SPIR-V and GLSL files in (repeatable)")
        ->type_name("DIR")
        ->allow_extra_args(false);
}

}  // namespace spvtune::app
