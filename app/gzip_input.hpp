#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spvtune::app {

/// Whether `bytes` start as gzip data does (RFC 1952's two magic bytes and the deflate method):
/// the autotuning community's benchmark hub publishes its recordings as `.json.gz`.
bool is_gzip(std::string_view bytes);

/// The bytes gzip data holds, every member in turn as `gzip -d` writes them (zero bytes after
/// the last passed over), at most `max_bytes`. Throws std::runtime_error saying what is wrong:
/// damaged data (with zlib's reason), data that ends early (a cut-off download), more than
/// `max_bytes` once decompressed (a decompression bomb stops there), or bytes after the last member
/// that are not gzip data.
std::string gunzip(std::string_view compressed, std::size_t max_bytes);

}  // namespace spvtune::app
