#include "help_formatter.hpp"

namespace spvtune::app {

std::string HelpFormatter::make_option_usage(const CLI::Option* option) const {
    const int least = option->get_expected_min();
    const int most = option->get_expected_max();
    if (least >= most || most >= CLI::detail::expected_max_vector_size) {
        return CLI::Formatter::make_option_usage(option);  // `file`, `[file]`, `problems...`
    }
    const std::string name = make_option_name(option, true);
    std::string usage;
    for (int i = 0; i < most; ++i) {
        const bool required = option->get_required() && i < least;
        usage += (i == 0 ? "" : " ") + (required ? name : "[" + name + "]");
    }
    return usage;
}

}  // namespace spvtune::app
