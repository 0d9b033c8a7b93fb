#pragma once

#include <string>
#include <string_view>

namespace spvtune::app {

/// The bytes of a file the user named as input (a report, saved results), read only as a
/// regular file of at most 1 GiB and never blocking (base::read_regular_file). Throws
/// std::runtime_error naming the file and what failed: "<path>: cannot read the <what>:
/// Input/output error", "<path>: cannot open the <what>: Permission denied".
std::string read_input_file(const std::string& path, std::string_view what);

}  // namespace spvtune::app
