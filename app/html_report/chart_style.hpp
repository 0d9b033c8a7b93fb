#pragma once

#include <string_view>

namespace spvtune::html {

/// The CSS the charts' classes need; the page that holds the charts inlines it once.
std::string_view chart_css();

}  // namespace spvtune::html
