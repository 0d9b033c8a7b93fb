#pragma once

#include <string>
#include <string_view>

namespace spvtune::app {

/// Text from a file anyone can edit (a name, a key value, a device name, a message), made safe
/// for a Markdown report that is posted as a pull-request comment: it renders as itself in a
/// table cell, a heading or a list item. HTML is escaped (no comment can hide the rest of the
/// page, no tag can load anything), as is every character that would end a cell or start
/// emphasis, code, a link or an image; a line break becomes <br>, other control characters a
/// space.
std::string markdown_text(std::string_view text);

/// `text` as a code span outside tables, where it reads best; markdown_text when it holds
/// what a code span cannot (a backtick, a line break).
std::string markdown_code(std::string_view text);

}  // namespace spvtune::app
