#pragma once

#include <string>

#include <spvtune/cache/cache_document.hpp>

// A field-by-field comparison of two cache documents that says where they first differ, without
// a test framework, so the reader-agreement test and its fuzz target share it.
namespace spvtune::tune::testing {

/// "" when `a` and `b` hold the same document: every field equal, numbers bit for bit (NaN equal
/// to NaN, 0 unequal to -0), JSON members (settings, the hardware record) printed alike.
/// Otherwise the path of the first difference and both values, e.g.
/// "tuners/matmul/0123456789abcdef/entries/{"n":1}/ranking/0/min_ns: 1.5 != 2".
std::string document_difference(const cache::CacheDocument& a, const cache::CacheDocument& b);

}  // namespace spvtune::tune::testing
