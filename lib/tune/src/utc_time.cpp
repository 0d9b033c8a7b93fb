#include <array>
#include <chrono>
#include <ctime>

#include <spvtune/tune/detail/utc_time.hpp>

namespace spvtune::tune::detail {

std::string utc_now_iso8601() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);  // gmtime() shares one buffer between threads
    std::array<char, 32> text{};
    const std::size_t length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text.data(), length);
}

}  // namespace spvtune::tune::detail
