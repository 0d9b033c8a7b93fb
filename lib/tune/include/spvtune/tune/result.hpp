#pragma once

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace spvtune::tune {

/// The error half of a `Result`, tagged so that `Result<std::string>` stays unambiguous.
template <class E>
struct Unexpected {
    E error;
};

/// Any error value, ready to return from a function that yields a `Result<T, E>`.
template <class E>
Unexpected<std::decay_t<E>> make_unexpected(E&& error) {
    return {std::forward<E>(error)};
}

/// An error message, ready to return from any function that yields a `Result<T>`.
inline Unexpected<std::string> fail(std::string message) {
    return {std::move(message)};
}

/// A value or an error: the minimal `std::expected` that C++20 lacks.
///
/// Reading the half that is absent throws `std::bad_variant_access` (a programming error, never
/// a way to report failure).
template <class T, class E = std::string>
class [[nodiscard]] Result {
  public:
    // Implicit on purpose: `return value;` and `return fail("...");` read like std::expected.
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    template <class F>
    requires std::constructible_from<E, F> Result(Unexpected<F> error)
        : state_(std::in_place_index<1>, E(std::move(error.error))) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }

    E& error() & { return std::get<1>(state_); }
    const E& error() const& { return std::get<1>(state_); }
    E&& error() && { return std::get<1>(std::move(state_)); }

  private:
    std::variant<T, E> state_;
};

/// The value of a `Status`: success carries nothing.
struct Done {};

/// Success or an error message, for steps that produce nothing (e.g. preparing a candidate).
using Status = Result<Done>;

inline Status ok() {
    return Done{};
}

}  // namespace spvtune::tune
