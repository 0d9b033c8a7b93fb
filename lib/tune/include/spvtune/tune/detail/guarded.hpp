#pragma once

#include <exception>
#include <string>
#include <utility>

#include <spvtune/tune/result.hpp>

namespace spvtune::tune::detail {

/// Calls user code that reports failure through a Result, turning an escaped exception into an
/// error too: a candidate that throws is skipped like one that fails, never crashes the tuner.
template <class R, class Fn, class... Args>
R call_guarded(const Fn& fn, Args&&... args) {
    try {
        return fn(std::forward<Args>(args)...);
    } catch (const std::exception& error) {
        return fail(std::string("threw: ") + error.what());
    } catch (...) {
        return fail("threw a non-standard exception");
    }
}

}  // namespace spvtune::tune::detail
