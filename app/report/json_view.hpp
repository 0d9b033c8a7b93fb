#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::app {

/// A value inside a report file being read, with its JSON pointer, so that every complaint
/// about it names the file, the place and what was expected. The file's JSON must outlive it.
class JsonView {
  public:
    JsonView(const nlohmann::json& value, std::string file, std::string pointer = {});

    /// The required member `name` of this object.
    JsonView operator[](std::string_view name) const;
    /// The member `name`, or nothing when it is absent or null.
    std::optional<JsonView> find(std::string_view name) const;
    /// The elements of this array.
    std::vector<JsonView> elements() const;

    std::string string() const;
    double number() const;
    /// The number, or nothing when it is null.
    std::optional<double> optional_number() const;

    const nlohmann::json& json() const { return *value_; }

    /// Throws std::runtime_error: `FILE: at POINTER: expected WHAT`.
    [[noreturn]] void fail(std::string_view expected) const;

  private:
    const nlohmann::json* value_;
    std::string file_;
    std::string pointer_;
};

/// A key's parameters as `M=128,N=128` (the order of the JSON object).
std::string key_text(const JsonView& key);

}  // namespace spvtune::app
