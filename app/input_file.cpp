#include "input_file.hpp"

#include <cstdint>
#include <stdexcept>

#include <spvtune/base/regular_file.hpp>

namespace spvtune::app {

std::string read_input_file(const std::string& path, std::string_view what) {
    // Far beyond any report spvtune writes.
    constexpr std::uintmax_t largest = std::uintmax_t{1} << 30;
    const std::string thing(what);
    try {
        auto file = base::read_regular_file(path, largest);
        if (!file) {
            throw std::runtime_error(path + ": cannot open the " + thing + ": no such file");
        }
        return std::move(file->text);
    } catch (const base::FileReadError& error) {
        using Step = base::FileReadError::Step;
        const std::string operation = error.step() == Step::open ? "open" : "read";
        const std::string detail =
            error.step() == Step::kind ? error.detail() + ", not a regular file" : error.detail();
        throw std::runtime_error(path + ": cannot " + operation + " the " + thing + ": " + detail);
    }
}

}  // namespace spvtune::app
