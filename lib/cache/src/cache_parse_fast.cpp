#include "cache_parse_fast.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <simdjson.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <spvtune/base/enum_names.hpp>

#include "cache_json_values.hpp"

namespace spvtune::cache {
namespace {

using nlohmann::json;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

// Anything the fast path does not vouch for; the full reader then reads the file again.
struct Unsupported {};

// Deep enough for every file spvtune writes, and well inside the full reader's 128 levels, so a
// file the full reader refuses for its depth never gets past here.
constexpr std::size_t fast_max_depth = 64;

object as_object(element value) {
    object o;
    if (value.get(o) != simdjson::SUCCESS) {
        throw Unsupported{};
    }
    return o;
}

array as_array(element value) {
    array a;
    if (value.get(a) != simdjson::SUCCESS) {
        throw Unsupported{};
    }
    return a;
}

std::string_view as_string_view(element value) {
    std::string_view text;
    if (value.get(text) != simdjson::SUCCESS) {
        throw Unsupported{};
    }
    return text;
}

std::string as_string(element value) {
    return std::string(as_string_view(value));
}

bool as_bool(element value) {
    bool flag = false;
    if (value.get(flag) != simdjson::SUCCESS) {
        throw Unsupported{};
    }
    return flag;
}

std::uint64_t as_unsigned(element value,
                          std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    std::uint64_t number = 0;
    if (value.type() == element_type::INT64) {
        const std::int64_t signed_number = value.get_int64().value_unsafe();
        if (signed_number < 0) {
            throw Unsupported{};
        }
        number = static_cast<std::uint64_t>(signed_number);
    } else if (value.type() == element_type::UINT64) {
        number = value.get_uint64().value_unsafe();
    } else {
        throw Unsupported{};
    }
    if (number > max) {
        throw Unsupported{};
    }
    return number;
}

double as_number(element value) {
    switch (value.type()) {
        case element_type::INT64:
            return static_cast<double>(value.get_int64().value_unsafe());
        case element_type::UINT64:
            return static_cast<double>(value.get_uint64().value_unsafe());
        case element_type::DOUBLE:
            return value.get_double().value_unsafe();
        case element_type::STRING: {
            const auto decoded = cache_json::decode_double(json(as_string_view(value)));
            if (decoded) {
                return *decoded;
            }
            throw Unsupported{};
        }
        default:
            throw Unsupported{};
    }
}

// The one of `Enumerators` whose cache-file spelling is `text`. The spellings come from the enum's
// NLOHMANN_JSON_SERIALIZE_ENUM table, the one list of them, read once: a JSON value per lookup
// (base::enum_from_json) would cost this path more than the rest of a ranked row.
template <auto... Enumerators>
auto as_enum(std::string_view text) {
    using Enum = std::common_type_t<decltype(Enumerators)...>;
    static_assert(base::JsonSpelled<Enum, json>, "the enum needs its JSON spellings");
    static const std::array<std::pair<Enum, std::string>, sizeof...(Enumerators)> spellings{
        {{Enumerators, json(Enumerators).template get<std::string>()}...}};
    for (const auto& [value, spelling] : spellings) {
        if (spelling == text) {
            return value;
        }
    }
    throw Unsupported{};
}

// The members of a fixed-shape object, in the order of `names`: each must be there once and no
// other may be (versions this path reads treat unknown members as errors).
template <std::size_t N>
std::array<element, N> members(element value, const std::array<std::string_view, N>& names) {
    std::array<element, N> found{};
    std::uint32_t seen = 0;
    for (const auto field : as_object(value)) {
        std::size_t i = 0;
        while (i < N && names[i] != field.key) {
            ++i;
        }
        if (i == N || (seen & (1U << i)) != 0) {
            throw Unsupported{};
        }
        seen |= 1U << i;
        found[i] = field.value;
    }
    if (seen != (1U << N) - 1) {
        throw Unsupported{};
    }
    return found;
}

// Any JSON value as nlohmann holds it after its own parse (non-negative integers unsigned), a
// member name given twice refused as the full reader refuses it.
json to_json(element value) {
    switch (value.type()) {
        case element_type::OBJECT: {
            json result = json::object();
            auto& target = result.get_ref<json::object_t&>();
            for (const auto field : as_object(value)) {
                if (!target.emplace(std::string(field.key), to_json(field.value)).second) {
                    throw Unsupported{};
                }
            }
            return result;
        }
        case element_type::ARRAY: {
            json result = json::array();
            for (const element item : as_array(value)) {
                result.push_back(to_json(item));
            }
            return result;
        }
        case element_type::STRING:
            return as_string_view(value);
        case element_type::INT64: {
            const std::int64_t number = value.get_int64().value_unsafe();
            return number < 0 ? json(number) : json(static_cast<std::uint64_t>(number));
        }
        case element_type::UINT64:
            return value.get_uint64().value_unsafe();
        case element_type::DOUBLE:
            return value.get_double().value_unsafe();
        case element_type::BOOL:
            return value.get_bool().value_unsafe();
        case element_type::NULL_VALUE:
            return nullptr;
    }
    throw Unsupported{};
}

tune::SampleStatistics read_statistics(element value) {
    const auto m = members<7>(value, {"samples", "min_ns", "median_ns", "mean_ns", "stddev_ns",
                                      "ci_low_ns", "ci_high_ns"});
    return {static_cast<std::size_t>(as_unsigned(m[0])),
            as_number(m[1]),
            as_number(m[2]),
            as_number(m[3]),
            as_number(m[4]),
            as_number(m[5]),
            as_number(m[6])};
}

tune::RankedCandidate read_ranked(element value) {
    const auto m = members<6>(
        value, {"name", "index", "statistics", "timing_method", "tied_with_winner", "eliminated"});
    tune::RankedCandidate ranked;
    ranked.name = as_string(m[0]);
    ranked.index = static_cast<std::size_t>(as_unsigned(m[1]));
    ranked.statistics = read_statistics(m[2]);
    ranked.method = as_enum<tune::TimingMethod::device_timestamps, tune::TimingMethod::host_clock>(
        as_string_view(m[3]));
    ranked.tied_with_winner = as_bool(m[4]);
    ranked.eliminated = as_bool(m[5]);
    return ranked;
}

tune::CandidateFailure read_failure(element value) {
    const auto m = members<4>(value, {"name", "index", "kind", "reason"});
    tune::CandidateFailure failure;
    failure.name = as_string(m[0]);
    failure.index = static_cast<std::size_t>(as_unsigned(m[1]));
    failure.kind = as_enum<tune::FailureKind::error, tune::FailureKind::wrong_output,
                           tune::FailureKind::skipped>(as_string_view(m[2]));
    failure.reason = as_string(m[3]);
    return failure;
}

void read_entry_body(element printed_key, element winner_value, element ranking, element failures,
                     element tuned_at, element settings, element needs_retune,
                     std::size_t runners_up_count, CacheKeyRecord& record) {
    record.printed_key = as_string(printed_key);
    tune::TuneEntry& entry = record.entry;
    const auto winner = members<2>(winner_value, {"name", "index"});
    entry.winner_name = as_string(winner[0]);
    entry.winner_index = static_cast<std::size_t>(as_unsigned(winner[1]));
    const array ranked_rows = as_array(ranking);
    // Room for the runners-up too: one allocation per vector.
    entry.ranking.reserve(ranked_rows.size() + runners_up_count);
    for (const element ranked : ranked_rows) {
        entry.ranking.push_back(read_ranked(ranked));
    }
    const array failure_rows = as_array(failures);
    entry.failures.reserve(failure_rows.size());
    for (const element failure : failure_rows) {
        entry.failures.push_back(read_failure(failure));
    }
    entry.tuned_at = as_string(tuned_at);
    entry.settings = to_json(settings);
    entry.needs_retune = as_bool(needs_retune);
}

CacheKeyRecord read_entry(element value, int version, const CacheCandidateList& list) {
    CacheKeyRecord record;
    if (version == 1) {
        const auto m = members<7>(value, {"printed_key", "winner", "ranking", "failures",
                                          "tuned_at", "settings", "needs_retune"});
        read_entry_body(m[0], m[1], m[2], m[3], m[4], m[5], m[6], 0, record);
    } else {
        const auto m = members<8>(value, {"printed_key", "winner", "ranking", "failures",
                                          "tuned_at", "settings", "needs_retune", "runners_up"});
        const array runners_up = as_array(m[7]);
        read_entry_body(m[0], m[1], m[2], m[3], m[4], m[5], m[6], runners_up.size(), record);
        // The runners-up come after the ranked rows, as the full reader puts them.
        std::vector<tune::RankedCandidate>& ranking = record.entry.ranking;
        for (const element index_value : runners_up) {
            const std::uint64_t index = as_unsigned(index_value);
            if (index >= list.candidates.size()) {
                throw Unsupported{};
            }
            ranking.push_back(cache_json::runner_up(list.candidates[index].name,
                                                    static_cast<std::size_t>(index)));
        }
    }
    if (record.entry.winner_index >= list.candidates.size() ||
        record.entry.winner_name != list.candidates[record.entry.winner_index].name) {
        throw Unsupported{};
    }
    return record;
}

CacheCandidateList read_candidate_list(element value, int version) {
    const auto m = members<2>(value, {"candidates", "entries"});
    CacheCandidateList list;
    for (const element candidate : as_array(m[0])) {
        const auto c = members<2>(candidate, {"name", "content_digest"});
        list.candidates.push_back({as_string(c[0]), as_string(c[1])});
    }
    for (const auto field : as_object(m[1])) {
        if (!is_canonical_key_json(field.key)) {
            throw Unsupported{};
        }
        const std::size_t before = list.entries.size();
        // Files list entries in this order, so each lands at the end without a search.
        list.entries.emplace_hint(list.entries.end(), std::string(field.key),
                                  read_entry(field.value, version, list));
        if (list.entries.size() == before) {
            throw Unsupported{};  // a member name given twice
        }
    }
    return list;
}

tune::HardwareIdentity read_hardware(element value) {
    const auto m = members<6>(
        value, {"key", "vendor_id", "device_id", "device_name", "driver_version", "record"});
    constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
    tune::HardwareIdentity hardware;
    hardware.key = as_string(m[0]);
    hardware.vendor_id = static_cast<std::uint32_t>(as_unsigned(m[1], u32_max));
    hardware.device_id = static_cast<std::uint32_t>(as_unsigned(m[2], u32_max));
    hardware.device_name = as_string(m[3]);
    hardware.driver_version = as_string(m[4]);
    if (m[5].type() != element_type::OBJECT) {
        throw Unsupported{};
    }
    hardware.record = to_json(m[5]);
    return hardware;
}

CacheDocument read_document(element root) {
    const auto m =
        members<5>(root, {"format", "schema_version", "tool_version", "hardware", "tuners"});
    if (as_string_view(m[0]) != cache_format_name) {
        throw Unsupported{};
    }
    const std::uint64_t version = as_unsigned(m[1]);
    if (version != 1 && version != static_cast<std::uint64_t>(cache_schema_version)) {
        throw Unsupported{};  // the full reader knows what to do with other versions
    }
    CacheDocument document;
    document.schema_version = static_cast<int>(version);
    document.tool_version = as_string(m[2]);
    document.hardware = read_hardware(m[3]);
    for (const auto tuner : as_object(m[4])) {
        auto [lists, inserted] = document.tuners.try_emplace(std::string(tuner.key));
        if (!inserted) {
            throw Unsupported{};
        }
        for (const auto list : as_object(tuner.value)) {
            const auto checksum = cache_json::parse_checksum(list.key);
            if (!checksum ||
                !lists->second
                     .emplace(*checksum, read_candidate_list(list.value, document.schema_version))
                     .second) {
                throw Unsupported{};
            }
        }
    }
    return document;
}

bool plain_string_char(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
}

// A string of printable ASCII without escapes, from `at` (its opening quote); returns the
// position after its closing quote, or npos.
std::size_t plain_string_end(std::string_view text, std::size_t at) {
    if (at >= text.size() || text[at] != '"') {
        return std::string_view::npos;
    }
    std::size_t end = at + 1;
    while (end < text.size() && plain_string_char(text[end])) {
        ++end;
    }
    return end < text.size() && text[end] == '"' ? end + 1 : std::string_view::npos;
}

// An integer as nlohmann writes one (no sign but '-', no leading zero), short enough never to
// change on the way through a 64-bit integer; returns the position after it, or npos.
std::size_t plain_integer_end(std::string_view text, std::size_t at) {
    std::size_t end = at;
    if (end < text.size() && text[end] == '-') {
        ++end;
    }
    const std::size_t digits = end;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
        ++end;
    }
    const std::size_t count = end - digits;
    if (count == 0 || count > 18 || (count > 1 && text[digits] == '0') ||
        (text[at] == '-' && count == 1 && text[digits] == '0')) {
        return std::string_view::npos;
    }
    return end;
}

// The common key: one flat object of plain strings and integers, names in byte order.
std::optional<bool> plain_key_is_canonical(std::string_view text) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
        return std::nullopt;
    }
    if (text == "{}") {
        return true;
    }
    std::size_t at = 1;
    std::string_view previous;
    for (;;) {
        const std::size_t name_end = plain_string_end(text, at);
        if (name_end == std::string_view::npos || name_end >= text.size() ||
            text[name_end] != ':') {
            return std::nullopt;
        }
        const std::string_view name = text.substr(at + 1, name_end - at - 2);
        if (at > 1 && !(previous < name)) {
            return std::nullopt;  // unsorted or repeated: the full check says which
        }
        previous = name;
        at = name_end + 1;
        const std::size_t value_end = at < text.size() && text[at] == '"'
                                          ? plain_string_end(text, at)
                                          : plain_integer_end(text, at);
        if (value_end == std::string_view::npos || value_end >= text.size()) {
            return std::nullopt;
        }
        if (text[value_end] == '}') {
            return value_end + 1 == text.size() ? std::optional<bool>(true) : std::nullopt;
        }
        if (text[value_end] != ',') {
            return std::nullopt;
        }
        at = value_end + 1;
    }
}

}  // namespace

bool is_canonical_key_json(std::string_view key_json) {
    if (const auto plain = plain_key_is_canonical(key_json)) {
        return *plain;
    }
    const json parsed = json::parse(key_json, nullptr, false);
    return !parsed.is_discarded() && parsed.dump() == key_json;
}

std::optional<CacheDocument> parse_cache_fast(std::string_view text) {
    // The full reader refuses a NUL byte anywhere; simdjson would stop at one after the value.
    if (text.find('\0') != std::string_view::npos) {
        return std::nullopt;
    }
    // A parser per call: its buffers are several times the file, not worth keeping in a
    // long-running application for the next file.
    simdjson::dom::parser parser;
    if (parser.allocate(text.size(), fast_max_depth) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    element root;
    if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    try {
        return read_document(root);
    } catch (const Unsupported&) {
        return std::nullopt;
    }
}

}  // namespace spvtune::cache
