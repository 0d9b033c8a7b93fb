#include "document_difference.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <vector>

namespace spvtune::tune::testing {
namespace {

// Bit for bit, except that any NaN equals any NaN: the format writes every NaN as "nan".
bool same_number(double a, double b) {
    return (a != a && b != b) || std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::string shown(const std::string& text) {
    return '"' + text + '"';
}

// Checksums as the file writes them.
std::string checksum_text(std::uint64_t checksum) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(checksum));
    return text;
}

template <class T>
std::string shown(const T& value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

// Walks both documents in step, remembering the path to the field being compared; the first
// difference found is kept and later ones ignored.
class Differ {
  public:
    std::string result() const { return difference_; }

    template <class T, class Same>
    void field(const std::string& name, const T& a, const T& b, Same same) {
        if (difference_.empty() && !same(a, b)) {
            difference_ = path() + name + ": " + shown(a) + " != " + shown(b);
        }
    }

    template <class T>
    void field(const std::string& name, const T& a, const T& b) {
        field(name, a, b, [](const T& x, const T& y) { return x == y; });
    }

    void number(const std::string& name, double a, double b) { field(name, a, b, same_number); }

    // Printed, so that 1 and 1.0 (or 0 and -0.0) differ as they would in the file.
    void json(const std::string& name, const nlohmann::json& a, const nlohmann::json& b) {
        field(name, a.dump(), b.dump());
    }

    // Same member names in the same order; `each` compares the values under one name.
    template <class Map, class Each>
    void map(const std::string& name, const Map& a, const Map& b, Each each) {
        field(name + " size", a.size(), b.size());
        auto x = a.begin();
        auto y = b.begin();
        for (; difference_.empty() && x != a.end() && y != b.end(); ++x, ++y) {
            field(name + " member", x->first, y->first);
            if (difference_.empty()) {
                const Scope inner(*this, name + "/" + key_text(x->first));
                each(x->second, y->second);
            }
        }
    }

    template <class Vector, class Each>
    void list(const std::string& name, const Vector& a, const Vector& b, Each each) {
        field(name + " size", a.size(), b.size());
        for (std::size_t i = 0; difference_.empty() && i < a.size(); ++i) {
            const Scope inner(*this, name + "/" + std::to_string(i));
            each(a[i], b[i]);
        }
    }

    class Scope {
      public:
        Scope(Differ& differ, std::string part) : differ_(differ) {
            differ_.path_.push_back(std::move(part));
        }
        ~Scope() { differ_.path_.pop_back(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

      private:
        Differ& differ_;
    };

  private:
    static std::string key_text(const std::string& key) { return key; }
    static std::string key_text(std::uint64_t checksum) { return checksum_text(checksum); }

    std::string path() const {
        std::string text;
        for (const std::string& part : path_) {
            text += part + "/";
        }
        return text;
    }

    std::vector<std::string> path_;
    std::string difference_;
};

void compare_statistics(Differ& d, const SampleStatistics& a, const SampleStatistics& b) {
    d.field("samples", a.samples, b.samples);
    d.number("min_ns", a.min_ns, b.min_ns);
    d.number("median_ns", a.median_ns, b.median_ns);
    d.number("mean_ns", a.mean_ns, b.mean_ns);
    d.number("stddev_ns", a.stddev_ns, b.stddev_ns);
    d.number("ci_low_ns", a.ci_low_ns, b.ci_low_ns);
    d.number("ci_high_ns", a.ci_high_ns, b.ci_high_ns);
}

void compare_entry(Differ& d, const TuneEntry& a, const TuneEntry& b) {
    d.field("winner_name", a.winner_name, b.winner_name);
    d.field("winner_index", a.winner_index, b.winner_index);
    d.list("ranking", a.ranking, b.ranking,
           [&d](const RankedCandidate& x, const RankedCandidate& y) {
               d.field("name", x.name, y.name);
               d.field("index", x.index, y.index);
               compare_statistics(d, x.statistics, y.statistics);
               d.field("timing_method", static_cast<int>(x.method), static_cast<int>(y.method));
               d.field("tied_with_winner", x.tied_with_winner, y.tied_with_winner);
               d.field("eliminated", x.eliminated, y.eliminated);
           });
    d.list("failures", a.failures, b.failures,
           [&d](const CandidateFailure& x, const CandidateFailure& y) {
               d.field("name", x.name, y.name);
               d.field("index", x.index, y.index);
               d.field("kind", static_cast<int>(x.kind), static_cast<int>(y.kind));
               d.field("reason", x.reason, y.reason);
           });
    d.field("tuned_at", a.tuned_at, b.tuned_at);
    d.json("settings", a.settings, b.settings);
    d.field("needs_retune", a.needs_retune, b.needs_retune);
}

void compare_list(Differ& d, const cache::CacheCandidateList& a,
                  const cache::CacheCandidateList& b) {
    d.list("candidates", a.candidates, b.candidates,
           [&d](const CandidateDescription& x, const CandidateDescription& y) {
               d.field("name", x.name, y.name);
               d.field("content_digest", x.content_digest, y.content_digest);
           });
    d.map("entries", a.entries, b.entries,
          [&d](const cache::CacheKeyRecord& x, const cache::CacheKeyRecord& y) {
              d.field("printed_key", x.printed_key, y.printed_key);
              compare_entry(d, x.entry, y.entry);
          });
}

}  // namespace

std::string document_difference(const cache::CacheDocument& a, const cache::CacheDocument& b) {
    Differ d;
    d.field("schema_version", a.schema_version, b.schema_version);
    d.field("tool_version", a.tool_version, b.tool_version);
    {
        const Differ::Scope hardware(d, "hardware");
        d.field("key", a.hardware.key, b.hardware.key);
        d.field("vendor_id", a.hardware.vendor_id, b.hardware.vendor_id);
        d.field("device_id", a.hardware.device_id, b.hardware.device_id);
        d.field("device_name", a.hardware.device_name, b.hardware.device_name);
        d.field("driver_version", a.hardware.driver_version, b.hardware.driver_version);
        d.json("record", a.hardware.record, b.hardware.record);
    }
    d.map("tuners", a.tuners, b.tuners, [&d](const auto& x, const auto& y) {
        d.map("lists", x, y,
              [&d](const cache::CacheCandidateList& p, const cache::CacheCandidateList& q) {
                  compare_list(d, p, q);
              });
    });
    return d.result();
}

}  // namespace spvtune::tune::testing
