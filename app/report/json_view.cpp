#include "json_view.hpp"

#include <stdexcept>

namespace spvtune::app {

JsonView::JsonView(const nlohmann::json& value, std::string file, std::string pointer)
    : value_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {}

void JsonView::fail(std::string_view expected) const {
    throw std::runtime_error(file_ + ": at " + (pointer_.empty() ? "the top level" : pointer_) +
                             ": expected " + std::string(expected));
}

std::optional<JsonView> JsonView::find(std::string_view name) const {
    if (!value_->is_object()) {
        fail("an object");
    }
    const auto found = value_->find(name);
    if (found == value_->end() || found->is_null()) {
        return std::nullopt;
    }
    // RFC 6901: '~' and '/' in a member name are escaped in a pointer.
    std::string escaped;
    for (const char c : name) {
        escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    }
    return JsonView(*found, file_, pointer_ + "/" + escaped);
}

JsonView JsonView::operator[](std::string_view name) const {
    std::optional<JsonView> member = find(name);
    if (!member) {
        JsonView(*value_, file_, pointer_ + "/" + std::string(name))
            .fail("a value (it is missing)");
    }
    return *member;
}

std::vector<JsonView> JsonView::elements() const {
    if (!value_->is_array()) {
        fail("an array");
    }
    std::vector<JsonView> elements;
    for (std::size_t i = 0; i < value_->size(); ++i) {
        elements.emplace_back((*value_)[i], file_, pointer_ + "/" + std::to_string(i));
    }
    return elements;
}

std::string JsonView::string() const {
    if (!value_->is_string()) {
        fail("a string");
    }
    return value_->get<std::string>();
}

double JsonView::number() const {
    if (!value_->is_number()) {
        fail("a number");
    }
    return value_->get<double>();
}

std::optional<double> JsonView::optional_number() const {
    return value_->is_null() ? std::nullopt : std::optional<double>(number());
}

std::string key_text(const JsonView& key) {
    if (!key.json().is_object()) {
        key.fail("an object of parameter values");
    }
    std::string text;
    for (const auto& [name, value] : key.json().items()) {
        text += (text.empty() ? "" : ",") + name + "=" +
                (value.is_string() ? value.get<std::string>() : value.dump());
    }
    return text;
}

}  // namespace spvtune::app
