#pragma once

#include <cstddef>

namespace spvtune::test {

/// Allocations this thread has made through operator new so far. Only in test binaries that
/// link support/counting_allocations.cpp, which replaces the global operator new.
std::size_t allocations() noexcept;

}  // namespace spvtune::test
