#include "corpus_files.hpp"

#include <cstdint>
#include <stdexcept>
#include <sys/stat.h>

#include "cache/temp_directory.hpp"

namespace spvtune::test::hostile {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string from_hex(const std::string& hex) {
    std::string bytes;
    for (std::size_t at = 0; at + 1 < hex.size(); at += 2) {
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(at, 2), nullptr, 16)));
    }
    return bytes;
}

std::string repeat(const std::string& text, std::size_t count) {
    std::string out;
    out.reserve(text.size() * count);
    for (std::size_t i = 0; i < count; ++i) {
        out += text;
    }
    return out;
}

// "{rangeN}" is the list 1..N, "{parensN}" an expression N parentheses deep, "{sumN}" one of N
// additions: values too big to write into the manifest.
nlohmann::ordered_json generated(const nlohmann::ordered_json& value) {
    if (value.is_structured()) {
        nlohmann::ordered_json copy = value;
        for (auto& item : copy) {
            item = generated(item);
        }
        return copy;
    }
    if (!value.is_string()) {
        return value;
    }
    const auto text = value.get<std::string>();
    for (const std::string kind : {"range", "parens", "sum"}) {
        if (text.rfind("{" + kind, 0) != 0 || text.back() != '}') {
            continue;
        }
        const auto count = std::stoul(text.substr(kind.size() + 1, text.size() - kind.size() - 2));
        if (kind == "range") {
            auto list = nlohmann::ordered_json::array();
            for (std::size_t i = 1; i <= count; ++i) {
                list.push_back(i);
            }
            return list;
        }
        return kind == "parens" ? repeat("(", count) + "n" + repeat(")", count)
                                : "n" + repeat("+1", count);
    }
    return value;
}

// A base document with `patch` applied (each step ["set", pointer, value] or ["remove",
// pointer]), dumped, then each `replace` pair applied to the text once, then the value at the
// `deep` pointer replaced by `depth` copies of open, the inner text and `depth` of close.
// ordered_json keeps the base's field order, so the text replacements find what they look for.
std::string patched(const json& spec, const json& bases, const Placeholders& placeholders) {
    nlohmann::ordered_json document = bases.at(spec.at("base").get<std::string>());
    const auto pointer_at = [&](const json& text) {
        return nlohmann::ordered_json::json_pointer(
            substitute(text.get<std::string>(), placeholders));
    };
    const json none = json::array();
    for (const auto& step : spec.contains("patch") ? spec.at("patch") : none) {
        const auto op = step.at(0).get<std::string>();
        const auto pointer = pointer_at(step.at(1));
        if (op == "set") {
            document[pointer] = generated(step.at(2));
        } else if (op == "remove") {
            document.at(pointer.parent_pointer()).erase(pointer.back());
        } else {
            throw std::invalid_argument("unknown patch step " + op);
        }
    }
    const std::string sentinel = "@@DEEP@@";
    if (spec.contains("deep")) {
        document[pointer_at(spec.at("deep").at(0))] = sentinel;
    }
    std::string text = document.dump(2);
    for (const auto& pair : spec.contains("replace") ? spec.at("replace") : none) {
        const auto from = pair.at(0).get<std::string>();
        const auto at = text.find(from);
        if (at == std::string::npos) {
            throw std::invalid_argument("replace: no '" + from + "' in the dumped document");
        }
        text.replace(at, from.size(), pair.at(1).get<std::string>());
    }
    if (spec.contains("deep")) {
        const json& deep = spec.at("deep");
        const auto depth = deep.at(4).get<std::size_t>();
        const std::string nested = repeat(deep.at(1).get<std::string>(), depth) +
                                   deep.at(2).get<std::string>() +
                                   repeat(deep.at(3).get<std::string>(), depth);
        text.replace(text.find("\"" + sentinel + "\""), sentinel.size() + 2, nested);
    }
    return text;
}

// The bytes a spec describes; "nest" is `depth` copies of its open text, then of its close.
std::string contents(const json& spec, const json& bases, const Placeholders& placeholders) {
    if (spec.contains("base")) {
        return patched(spec, bases, placeholders);
    }
    if (spec.contains("text")) {
        return substitute(spec.at("text").get<std::string>(), placeholders);
    }
    if (spec.contains("hex")) {
        return from_hex(spec.at("hex").get<std::string>());
    }
    if (spec.contains("nest")) {
        const auto depth = spec.at("depth").get<std::size_t>();
        const json& nest = spec.at("nest");
        return repeat(nest.at(0).get<std::string>(), depth) +
               repeat(nest.at(1).get<std::string>(), depth);
    }
    if (spec.contains("copy")) {
        const std::string bytes =
            tune::testing::read_bytes(substitute(spec.at("copy").get<std::string>(), placeholders));
        return bytes.substr(0, spec.value("truncate", bytes.size()));
    }
    throw std::invalid_argument("unknown file spec " + spec.dump());
}

}  // namespace

std::string substitute(std::string text, const Placeholders& placeholders) {
    for (const auto& [name, value] : placeholders) {
        const std::string token = "{" + name + "}";
        for (auto at = text.find(token); at != std::string::npos;
             at = text.find(token, at + value.size())) {
            text.replace(at, token.size(), value);
        }
    }
    return text;
}

void make_file(const fs::path& path, const json& spec, const json& bases,
               const Placeholders& placeholders) {
    fs::create_directories(path.parent_path());
    if (spec.contains("directory")) {
        fs::create_directories(path);
    } else if (spec.contains("fifo")) {
        if (::mkfifo(path.c_str(), 0644) != 0) {
            throw std::runtime_error("mkfifo " + path.string());
        }
    } else if (spec.contains("symlink")) {
        fs::create_symlink(substitute(spec.at("symlink").get<std::string>(), placeholders), path);
    } else {
        tune::testing::write_bytes(path, contents(spec, bases, placeholders));
    }
}

}  // namespace spvtune::test::hostile
