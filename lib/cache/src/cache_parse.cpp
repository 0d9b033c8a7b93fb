#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/base/json_text.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_json_values.hpp"
#include "cache_parse_fast.hpp"
#include "cache_parse_full.hpp"

namespace spvtune::cache {
namespace {

using nlohmann::json;

// Where a value sits in the document, as a chain of stack frames: the JSON pointer string is
// only built when something is wrong, so validating a large valid file allocates nothing extra.
struct Place {
    const Place* parent = nullptr;
    std::string_view member;
    std::size_t index = 0;
    bool is_index = false;

    Place operator/(std::string_view name) const { return Place{this, name, 0, false}; }
    Place operator/(std::size_t i) const { return Place{this, {}, i, true}; }

    std::string pointer() const {
        if (parent == nullptr) {
            return "";
        }
        const nlohmann::json::json_pointer base(parent->pointer());
        // json_pointer escapes '~' and '/' in member names as RFC 6901 requires.
        return (is_index ? base / index : base / std::string(member)).to_string();
    }
};

// nlohmann holds a non-negative integer as unsigned, except "-0": a signed zero, which is no
// negative number (JSON Schema takes it for 0, and simdjson, the fast reader, reads it as 0).
bool is_negative_integer(const json& value) {
    return value.is_number_integer() && !value.is_number_unsigned() &&
           value.get<std::int64_t>() < 0;
}

std::optional<std::uint64_t> non_negative_integer(const json& value) {
    if (value.is_number_unsigned()) {
        return value.get<std::uint64_t>();
    }
    if (value.is_number_integer() && !is_negative_integer(value)) {
        return 0;
    }
    return std::nullopt;
}

std::string describe(const json& value) {
    if (value.is_number_float()) {
        return "a fractional number";
    }
    if (is_negative_integer(value)) {
        return "a negative number";
    }
    return std::string(value.is_object() || value.is_array() ? "an " : "a ") + value.type_name();
}

class Reader {
  public:
    Reader(const std::filesystem::path& file, bool ignore_unknown)
        : file_(file), ignore_unknown_(ignore_unknown) {}

    void set_ignore_unknown(bool ignore) { ignore_unknown_ = ignore; }

    [[noreturn]] void fail(const Place& at, std::string problem) const {
        throw CacheFormatError(file_, at.pointer(), std::move(problem));
    }

    [[noreturn]] void fail_type(const Place& at, std::string_view expected,
                                const json& found) const {
        fail(at, "expected " + std::string(expected) + ", found " + describe(found));
    }

    const json::object_t& object(const json& value, const Place& at,
                                 std::initializer_list<std::string_view> members) const {
        if (!value.is_object()) {
            fail_type(at, "an object", value);
        }
        const auto& object = value.get_ref<const json::object_t&>();
        for (std::string_view name : members) {
            if (object.find(name) == object.end()) {
                fail(at, "expected a member \"" + std::string(name) + "\", found none");
            }
        }
        if (!ignore_unknown_) {
            for (const auto& [name, member] : object) {
                if (std::find(members.begin(), members.end(), name) == members.end()) {
                    fail(at / name, "expected no member \"" + name +
                                        "\" (unknown to cache schema version " +
                                        std::to_string(cache_schema_version) + ")");
                }
            }
        }
        return object;
    }

    const json::object_t& map(const json& value, const Place& at) const {
        if (!value.is_object()) {
            fail_type(at, "an object", value);
        }
        return value.get_ref<const json::object_t&>();
    }

    const json::array_t& array(const json& value, const Place& at) const {
        if (!value.is_array()) {
            fail_type(at, "an array", value);
        }
        return value.get_ref<const json::array_t&>();
    }

    std::string string(const json& value, const Place& at) const {
        if (!value.is_string()) {
            fail_type(at, "a string", value);
        }
        return value.get<std::string>();
    }

    bool boolean(const json& value, const Place& at) const {
        if (!value.is_boolean()) {
            fail_type(at, "true or false", value);
        }
        return value.get<bool>();
    }

    std::uint64_t unsigned_integer(const json& value, const Place& at,
                                   std::uint64_t max = std::numeric_limits<std::uint64_t>::max(),
                                   std::string_view expected = "a non-negative integer") const {
        const std::optional<std::uint64_t> number = non_negative_integer(value);
        if (!number || *number > max) {
            fail_type(at, expected, value);
        }
        return *number;
    }

    double number(const json& value, const Place& at) const {
        const auto decoded = cache_json::decode_double(value);
        if (!decoded) {
            fail_type(at, "a number (or \"nan\", \"inf\", \"-inf\")", value);
        }
        return *decoded;
    }

  private:
    const std::filesystem::path& file_;
    bool ignore_unknown_;
};

std::size_t read_index(const Reader& r, const json& value, const Place& at) {
    return static_cast<std::size_t>(r.unsigned_integer(value, at));
}

tune::SampleStatistics read_statistics(const Reader& r, const json& value, const Place& at) {
    const auto& o = r.object(
        value, at,
        {"samples", "min_ns", "median_ns", "mean_ns", "stddev_ns", "ci_low_ns", "ci_high_ns"});
    tune::SampleStatistics s;
    s.samples = read_index(r, o.at("samples"), at / "samples");
    s.min_ns = r.number(o.at("min_ns"), at / "min_ns");
    s.median_ns = r.number(o.at("median_ns"), at / "median_ns");
    s.mean_ns = r.number(o.at("mean_ns"), at / "mean_ns");
    s.stddev_ns = r.number(o.at("stddev_ns"), at / "stddev_ns");
    s.ci_low_ns = r.number(o.at("ci_low_ns"), at / "ci_low_ns");
    s.ci_high_ns = r.number(o.at("ci_high_ns"), at / "ci_high_ns");
    return s;
}

tune::RankedCandidate read_ranked(const Reader& r, const json& value, const Place& at) {
    const auto& o = r.object(
        value, at,
        {"name", "index", "statistics", "timing_method", "tied_with_winner", "eliminated"});
    tune::RankedCandidate c;
    c.name = r.string(o.at("name"), at / "name");
    c.index = read_index(r, o.at("index"), at / "index");
    c.statistics = read_statistics(r, o.at("statistics"), at / "statistics");
    const Place method_at = at / "timing_method";
    const auto method =
        base::enum_from_json<tune::TimingMethod>(json(r.string(o.at("timing_method"), method_at)));
    if (!method) {
        r.fail(method_at, "expected \"device_timestamps\" or \"host_clock\"");
    }
    c.method = *method;
    c.tied_with_winner = r.boolean(o.at("tied_with_winner"), at / "tied_with_winner");
    c.eliminated = r.boolean(o.at("eliminated"), at / "eliminated");
    return c;
}

tune::CandidateFailure read_failure(const Reader& r, const json& value, const Place& at) {
    const auto& o = r.object(value, at, {"name", "index", "kind", "reason"});
    tune::CandidateFailure f;
    f.name = r.string(o.at("name"), at / "name");
    f.index = read_index(r, o.at("index"), at / "index");
    const Place kind_at = at / "kind";
    const auto kind =
        base::enum_from_json<tune::FailureKind>(json(r.string(o.at("kind"), kind_at)));
    if (!kind) {
        r.fail(kind_at, "expected \"error\", \"wrong_output\" or \"skipped\"");
    }
    f.kind = *kind;
    f.reason = r.string(o.at("reason"), at / "reason");
    return f;
}

// Version 2 keeps the full statistics of the leading ranked candidates only; `runners_up` gives
// the rest of the ranking order, as indices into the candidate list.
void read_runners_up(const Reader& r, const json& value, const Place& at,
                     const CacheCandidateList& list, tune::TuneEntry& entry) {
    const auto& indices = r.array(value, at);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const std::size_t index = read_index(r, indices[i], at / i);
        if (index >= list.candidates.size()) {
            r.fail(at / i, "runner-up index " + std::to_string(index) +
                               " is not one of the list's " +
                               std::to_string(list.candidates.size()) + " candidates");
        }
        entry.ranking.push_back(cache_json::runner_up(list.candidates[index].name, index));
    }
}

CacheKeyRecord read_entry(const Reader& r, const json& value, const Place& at, int version,
                          const CacheCandidateList& list) {
    // A newer version is read as far as this one knows it: runners_up only when it is there.
    const bool with_runners_up =
        version == cache_schema_version ||
        (version > cache_schema_version && value.is_object() && value.contains("runners_up"));
    const auto& o = with_runners_up ? r.object(value, at,
                                               {"printed_key", "winner", "ranking", "runners_up",
                                                "failures", "tuned_at", "settings", "needs_retune"})
                                    : r.object(value, at,
                                               {"printed_key", "winner", "ranking", "failures",
                                                "tuned_at", "settings", "needs_retune"});
    CacheKeyRecord record;
    record.printed_key = r.string(o.at("printed_key"), at / "printed_key");
    tune::TuneEntry& entry = record.entry;
    const Place winner_at = at / "winner";
    const auto& winner = r.object(o.at("winner"), winner_at, {"name", "index"});
    entry.winner_name = r.string(winner.at("name"), winner_at / "name");
    entry.winner_index = read_index(r, winner.at("index"), winner_at / "index");
    const Place ranking_at = at / "ranking";
    const auto& ranking = r.array(o.at("ranking"), ranking_at);
    for (std::size_t i = 0; i < ranking.size(); ++i) {
        entry.ranking.push_back(read_ranked(r, ranking[i], ranking_at / i));
    }
    if (with_runners_up) {
        read_runners_up(r, o.at("runners_up"), at / "runners_up", list, entry);
    }
    const Place failures_at = at / "failures";
    const auto& failures = r.array(o.at("failures"), failures_at);
    for (std::size_t i = 0; i < failures.size(); ++i) {
        entry.failures.push_back(read_failure(r, failures[i], failures_at / i));
    }
    entry.tuned_at = r.string(o.at("tuned_at"), at / "tuned_at");
    entry.settings = o.at("settings");
    entry.needs_retune = r.boolean(o.at("needs_retune"), at / "needs_retune");
    return record;
}

// The winner is the candidate an application runs, by index: one past the list would run
// nothing (or read past it). Its name is what reports show: one that is not the indexed
// candidate's would show one candidate as the winner and run another, so no writer produces it.
void check_winner(const Reader& r, const CacheCandidateList& list, const tune::TuneEntry& entry,
                  const Place& at) {
    if (entry.winner_index >= list.candidates.size()) {
        r.fail(at / "index", "winner index " + std::to_string(entry.winner_index) +
                                 " is not one of the list's " +
                                 std::to_string(list.candidates.size()) + " candidates");
    }
    const std::string& named = list.candidates[entry.winner_index].name;
    if (entry.winner_name != named) {
        r.fail(at / "name", "expected \"" + named + "\", the name of candidate " +
                                std::to_string(entry.winner_index) +
                                " (the winner's index), found \"" + entry.winner_name + "\"");
    }
}

CacheCandidateList read_candidate_list(const Reader& r, const json& value, const Place& at,
                                       int version) {
    const auto& o = r.object(value, at, {"candidates", "entries"});
    CacheCandidateList list;
    const Place candidates_at = at / "candidates";
    const auto& candidates = r.array(o.at("candidates"), candidates_at);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Place c_at = candidates_at / i;
        const auto& c = r.object(candidates[i], c_at, {"name", "content_digest"});
        list.candidates.push_back({r.string(c.at("name"), c_at / "name"),
                                   r.string(c.at("content_digest"), c_at / "content_digest")});
    }
    const Place entries_at = at / "entries";
    for (const auto& [key_json, entry] : r.map(o.at("entries"), entries_at)) {
        const Place entry_at = entries_at / key_json;
        if (!cache_json::is_json_text(key_json)) {
            r.fail(entry_at, "expected the member name to be the key's canonical JSON");
        }
        // Lookups compare the text: a key spelled any other way would never be found, and a
        // second spelling of one key would hold a second winner for it.
        const std::string canonical = json::parse(key_json).dump();
        // The fast path's check must agree: it alone decides for valid files.
        assert(is_canonical_key_json(key_json) == (canonical == key_json));
        if (canonical != key_json) {
            r.fail(entry_at, "expected the member name to be the key's canonical JSON " +
                                 canonical + ", found " + key_json);
        }
        CacheKeyRecord record = read_entry(r, entry, entry_at, version, list);
        check_winner(r, list, record.entry, entry_at / "winner");
        list.entries.emplace(key_json, std::move(record));
    }
    return list;
}

tune::HardwareIdentity read_hardware(const Reader& r, const json& value, const Place& at) {
    const auto& o = r.object(
        value, at, {"key", "vendor_id", "device_id", "device_name", "driver_version", "record"});
    constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
    tune::HardwareIdentity hardware;
    hardware.key = r.string(o.at("key"), at / "key");
    hardware.vendor_id = static_cast<std::uint32_t>(r.unsigned_integer(
        o.at("vendor_id"), at / "vendor_id", u32_max, "a 32-bit unsigned integer"));
    hardware.device_id = static_cast<std::uint32_t>(r.unsigned_integer(
        o.at("device_id"), at / "device_id", u32_max, "a 32-bit unsigned integer"));
    hardware.device_name = r.string(o.at("device_name"), at / "device_name");
    hardware.driver_version = r.string(o.at("driver_version"), at / "driver_version");
    r.map(o.at("record"), at / "record");
    hardware.record = o.at("record");
    return hardware;
}

int read_schema_version(const Reader& r, const json::object_t& root, const Place& at) {
    const Place format_at = at / "format";
    const auto format = r.string(root.at("format"), format_at);
    if (format != cache_format_name) {
        r.fail(format_at,
               "expected \"" + std::string(cache_format_name) + "\", found \"" + format + "\"");
    }
    const json& version = root.at("schema_version");
    if (version.is_number_unsigned() &&
        version.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
        // Quoted as written: an int cannot hold it, and "found a number" would not say why.
        r.fail(at / "schema_version",
               "expected a positive integer schema version below 2^31, found " + version.dump());
    }
    return static_cast<int>(r.unsigned_integer(version, at / "schema_version",
                                               std::numeric_limits<int>::max(),
                                               "a positive integer schema version"));
}

// Far deeper than any cache file spvtune or an application writes; a document nested deeper is
// hostile or broken, and writing it back would recurse that deep.
constexpr std::size_t max_nesting = 128;

[[noreturn]] void syntax_error(const std::filesystem::path& file, std::string_view text,
                               std::size_t offset, const std::string& what) {
    const base::TextPosition at = base::position_in(text, offset);
    throw CacheFormatError(file, "",
                           "expected valid JSON: at line " + std::to_string(at.line) + ", column " +
                               std::to_string(at.column) + ": " + what);
}

json parse_json(std::string_view text, const std::filesystem::path& file) {
    if (const auto fault = base::check_json_text(text, max_nesting)) {
        syntax_error(file, text, fault->offset, fault->problem);
    }
    // A member named twice would be read as its last copy and the first lost on the next save:
    // the file is not what any writer wrote, so it is corrupt.
    base::JsonPathTracker path;
    const auto track = [&](int, json::parse_event_t event, json& parsed) {
        if (!path.follow(event, parsed)) {
            throw CacheFormatError(file, path.pointer(),
                                   "duplicate key '" + parsed.get<std::string>() +
                                       "'; expected each member name once");
        }
        return true;
    };
    try {
        return json::parse(text, track);
    } catch (const json::parse_error& error) {
        // nlohmann prefixes "[json.exception.parse_error.N] "; the rest names line and column.
        std::string detail = error.what();
        if (const auto end = detail.find("] "); end != std::string::npos) {
            detail.erase(0, end + 2);
        }
        throw CacheFormatError(file, "", "expected valid JSON: " + detail);
    }
}

}  // namespace

CacheFormatError::CacheFormatError(std::filesystem::path file, std::string pointer,
                                   std::string problem)
    : std::runtime_error(file.string() + ": " + (pointer.empty() ? "(document)" : pointer) + ": " +
                         problem),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      problem_(std::move(problem)) {}

CacheDocument parse_cache(std::string_view text, const std::filesystem::path& file) {
    if (std::optional<CacheDocument> document = parse_cache_fast(text)) {
        return std::move(*document);
    }
    // Not a file the fast path vouches for: read it again, checking each value and saying
    // where the first problem is.
    return parse_cache_full(text, file);
}

CacheDocument parse_cache_full(std::string_view text, const std::filesystem::path& file) {
    const json root_value = parse_json(text, file);
    const Place root_at;
    // The format and version are checked first, before unknown members could be blamed on a
    // newer writer.
    Reader r(file, true);
    const auto& root = r.object(root_value, root_at, {"format", "schema_version"});
    CacheDocument document;
    document.schema_version = read_schema_version(r, root, root_at);
    if (document.schema_version == 0) {
        r.fail(root_at / "schema_version", "expected a positive integer schema version, found 0");
    }
    r.set_ignore_unknown(document.is_newer_schema());
    r.object(root_value, root_at,
             {"format", "schema_version", "tool_version", "hardware", "tuners"});
    document.tool_version = r.string(root.at("tool_version"), root_at / "tool_version");
    document.hardware = read_hardware(r, root.at("hardware"), root_at / "hardware");
    const Place tuners_at = root_at / "tuners";
    for (const auto& [name, lists] : r.map(root.at("tuners"), tuners_at)) {
        const Place tuner_at = tuners_at / name;
        auto& by_checksum = document.tuners[name];
        for (const auto& [checksum_text, list] : r.map(lists, tuner_at)) {
            const Place list_at = tuner_at / checksum_text;
            const auto checksum = cache_json::parse_checksum(checksum_text);
            if (!checksum) {
                r.fail(list_at,
                       "expected the member name to be a candidate-list checksum of 16 "
                       "lower-case hex digits, found \"" +
                           checksum_text + "\"");
            }
            by_checksum.emplace(*checksum,
                                read_candidate_list(r, list, list_at, document.schema_version));
        }
    }
    return document;
}

}  // namespace spvtune::cache
