#include "text_width.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace spvtune::html {
namespace {

// clang-format off
/// Advance widths of the printable ASCII characters, space (32) to tilde (126), in units of
/// 1/2048 em: DejaVu Sans Book and Bold, as Chromium measures them.
constexpr std::array<std::uint16_t, 95> regular_units{
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253,
    1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
};
constexpr std::array<std::uint16_t, 95> bold_units{
    713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748,
    1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188,
    2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741,
    1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024,
    1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407,
    1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716,
};
// clang-format on

constexpr double units_per_em = 2048;

/// The byte length of the UTF-8 character that starts with `lead` (1 for a stray byte).
std::size_t character_length(unsigned char lead) {
    if (lead >= 0xf0) {
        return 4;
    }
    if (lead >= 0xe0) {
        return 3;
    }
    return lead >= 0xc0 ? 2 : 1;
}

double character_units(std::string_view character, bool bold) {
    const auto byte = static_cast<unsigned char>(character.front());
    if (character.size() == 1 && byte >= 32 && byte < 127) {
        return (bold ? bold_units : regular_units)[byte - 32];
    }
    return units_per_em;
}

/// Calls `visit(character)` for each UTF-8 character of `text` until it returns false.
template <typename Visit>
void for_each_character(std::string_view text, Visit visit) {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length =
            std::min(character_length(static_cast<unsigned char>(text[at])), text.size() - at);
        if (!visit(text.substr(at, length))) {
            return;
        }
        at += length;
    }
}

}  // namespace

double text_width(std::string_view text, double font_px, bool bold) {
    double units = 0;
    for_each_character(text, [&](std::string_view character) {
        units += character_units(character, bold);
        return true;
    });
    return units * font_px / units_per_em;
}

std::string fit_text(std::string_view text, double width, double font_px, bool bold) {
    if (text_width(text, font_px, bold) <= width) {
        return std::string(text);
    }
    static constexpr std::string_view ellipsis = "\u2026";
    const double room = width - text_width(ellipsis, font_px, bold);
    double used = 0;
    std::size_t kept = 0;
    for_each_character(text, [&](std::string_view character) {
        used += character_units(character, bold) * font_px / units_per_em;
        if (used > room) {
            return false;
        }
        kept += character.size();
        return true;
    });
    return std::string(text.substr(0, kept)) + std::string(ellipsis);
}

}  // namespace spvtune::html
