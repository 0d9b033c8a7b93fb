#include <array>
#include <ctime>

#include <spvtune/tune/detail/utc_time.hpp>

namespace spvtune::tune::detail {

std::string iso8601_utc(std::chrono::system_clock::time_point time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc{};
    gmtime_r(&seconds, &utc);  // gmtime() shares one buffer between threads
    std::array<char, 32> text{};
    const std::size_t length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text.data(), length);
}

std::string utc_now_iso8601() {
    return iso8601_utc(std::chrono::system_clock::now());
}

}  // namespace spvtune::tune::detail
