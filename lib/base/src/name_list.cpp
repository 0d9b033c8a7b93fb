#include <cstddef>

#include <spvtune/base/name_list.hpp>

namespace spvtune::base {

std::string join(const std::vector<std::string>& names, std::string_view separator) {
    std::string text;
    for (const std::string& name : names) {
        if (!text.empty()) {
            text += separator;
        }
        text += name;
    }
    return text;
}

std::string join_some(const std::vector<std::string>& names, std::size_t shown) {
    if (names.size() <= shown) {
        return join(names);
    }
    return join({names.begin(), names.begin() + static_cast<std::ptrdiff_t>(shown)}) + " and " +
           std::to_string(names.size() - shown) + " more";
}

}  // namespace spvtune::base
