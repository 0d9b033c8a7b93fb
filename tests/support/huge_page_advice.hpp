#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace spvtune::test {

/// What /proc/self/smaps says of this process's mappings advised for huge pages (MADV_HUGEPAGE
/// puts "hg" among a mapping's VmFlags): the bytes they span, and whether one holds `address`.
struct HugePageAdvice {
    std::size_t advised_bytes = 0;
    bool holds_address = false;
};

/// Whether the kernel has transparent huge pages at all: without them it refuses the advice.
inline bool kernel_has_huge_pages() {
    return std::filesystem::exists("/sys/kernel/mm/transparent_hugepage");
}

inline HugePageAdvice huge_page_advice(const void* address = nullptr) {
    const auto wanted = reinterpret_cast<std::uintptr_t>(address);
    HugePageAdvice advice;
    std::ifstream smaps("/proc/self/smaps");
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    for (std::string line; std::getline(smaps, line);) {
        std::istringstream fields(line);
        std::string first;
        fields >> first;
        if (const auto dash = first.find('-');
            dash != std::string::npos && first.find(':') == std::string::npos) {
            begin = std::stoull(first.substr(0, dash), nullptr, 16);
            end = std::stoull(first.substr(dash + 1), nullptr, 16);
        } else if (first == "VmFlags:") {
            bool advised = false;
            for (std::string flag; fields >> flag;) {
                advised = advised || flag == "hg";
            }
            if (advised) {
                advice.advised_bytes += end - begin;
                advice.holds_address = advice.holds_address || (wanted >= begin && wanted < end);
            }
        }
    }
    return advice;
}

}  // namespace spvtune::test
