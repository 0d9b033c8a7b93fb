#include "key_table.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <sstream>
#include <vector>

#include <spvtune/cache/cache_document.hpp>
#include <spvtune/tune/statistics.hpp>
#include <spvtune/tune/tune_error.hpp>

namespace spvtune::app {
namespace {

const tune::RankedCandidate* find_ranked(const tune::TuneEntry& entry, const std::string& name) {
    for (const auto& ranked : entry.ranking) {
        if (ranked.name == name) {
            return &ranked;
        }
    }
    return nullptr;
}

/// The key's plan skipped it (and says why); the tuner then lists it again as a negative
/// priority, a consequence rather than a second reason.
bool skipped_by_plan(const run::KeyReport& report, const tune::CandidateFailure& failure) {
    return failure.kind == tune::FailureKind::skipped &&
           std::any_of(report.skipped.begin(), report.skipped.end(),
                       [&](const run::SkippedCandidate& s) { return s.name == failure.name; });
}

std::string speedup(double reference_ns, double ns) {
    if (!(reference_ns > 0) || !(ns > 0)) {
        return "-";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", reference_ns / ns);
    return text;
}

std::string headline(const problem::Problem& problem, const run::KeyReport& report) {
    std::string text = problem.name + " " + to_string(report.key);
    if (!(report.tuning_key == report.key)) {
        text += " (tuned as " + to_string(report.tuning_key) + ")";
    }
    return text;
}

/// The tone of a table status, from its first words: what happened to the candidate. A plain
/// `ok` (correct, slower than the winner) stays unpainted.
std::optional<Tone> status_tone(const std::string& status) {
    if (status.starts_with("ok (winner)")) {
        return Tone::good;
    }
    if (status.starts_with("tied")) {
        return Tone::warning;
    }
    if (status.starts_with("skipped")) {
        return Tone::muted;
    }
    return status.starts_with("ok") ? std::nullopt : std::optional(Tone::bad);
}

}  // namespace

std::string format_duration_ns(double ns) {
    char text[32];
    if (ns < 1e3) {
        std::snprintf(text, sizeof text, "%.0f ns", ns);
    } else if (ns < 1e6) {
        std::snprintf(text, sizeof text, "%.3g us", ns / 1e3);
    } else if (ns < 1e9) {
        std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
    } else {
        std::snprintf(text, sizeof text, "%.3g s", ns / 1e9);
    }
    return text;
}

std::string speedup_text(double old_ns, double new_ns) {
    if (!(old_ns > 0) || !(new_ns > 0)) {
        return "";
    }
    const double ratio = old_ns / new_ns;
    char text[48];
    std::snprintf(text, sizeof text, "%.2fx %s", ratio >= 1 ? ratio : 1 / ratio,
                  ratio >= 1 ? "faster" : "slower");
    return text;
}

namespace {

/// "  search local: measured 87 of 1296 points (seed 0)" when a search chose what to measure;
/// nothing for an exhaustive tuning of every candidate, as before searches existed.
void print_search_line(std::ostream& out, const tune::TuneEntry* entry) {
    if (entry == nullptr || !entry->search) {
        return;
    }
    const tune::SearchTrace& trace = *entry->search;
    if (trace.strategy == tune::SearchStrategy::exhaustive &&
        trace.steps.size() == trace.runnable) {
        return;
    }
    out << "  search " << nlohmann::json(trace.strategy).get<std::string>() << ": measured "
        << trace.steps.size() << " of " << trace.runnable << " points (seed " << trace.seed
        << ")\n";
}

/// The key's first line: what happened to it and, when it has one, its winner.
void print_status_line(std::ostream& out, const problem::Problem& problem,
                       const run::KeyReport& report, const Palette& palette) {
    using run::KeyStatus;
    const std::string title = headline(problem, report);
    const tune::TuneEntry* entry = report.entry ? &*report.entry : nullptr;
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f s", report.elapsed_s);

    switch (report.status) {
        case KeyStatus::failed:
            out << title << ": " << palette.paint("FAILED", Tone::bad) << '\n';
            for (std::istringstream lines(report.error); !lines.eof();) {
                std::string line;
                std::getline(lines, line);
                out << "  " << line << '\n';
            }
            break;
        case KeyStatus::compiled:
            out << title << ": compiled every candidate (compile-only, nothing measured)\n";
            break;
        case KeyStatus::untuned:
            out << title << ": not cached, ran "
                << (report.ran ? problem.candidates[*report.ran].name : "?")
                << " untuned (nothing measured)\n";
            break;
        case KeyStatus::cached:
            out << title << ": cached, winner " << (entry ? entry->winner_name : "?");
            if (entry && !entry->ranking.empty()) {
                out << " (median "
                    << format_duration_ns(entry->ranking.front().statistics.median_ns) << ", tuned "
                    << entry->tuned_at << ")";
            }
            if (entry && report.ran && problem.candidates[*report.ran].name != entry->winner_name) {
                // Another member of the winner's bucket, or a winner that failed: say what ran.
                out << "; ran " << problem.candidates[*report.ran].name
                    << ", the best-ranked candidate that runs this key";
            }
            out << '\n';
            break;
        case KeyStatus::tuned:
            out << title << ": tuned in " << elapsed << ", winner "
                << palette.paint(entry ? entry->winner_name : "?", Tone::good);
            if (problem.reference.candidates.size() > 1 && report.reference) {
                // Several references: say which one this key was checked against.
                out << ", checked against " << problem.candidates[*report.reference].name;
            }
            out << '\n';
            print_search_line(out, entry);
            break;
    }
}

/// The rows of the candidate table under a key's line, one candidate each.
class CandidateTable {
  public:
    CandidateTable(std::ostream& out, const problem::Problem& problem, const Palette& palette)
        : out_(out), palette_(palette) {
        for (const auto& candidate : problem.candidates) {
            width_ = std::max(width_, candidate.name.size());
        }
    }

    // Padded on the visible width: a painted cell is longer than what the terminal shows.
    void row(const std::string& rank, const std::string& name, const std::string& median,
             const std::string& interval, const std::string& ratio,
             const std::string& status) const {
        out_ << "  " << pad_right(rank, 3) << pad_right(name, width_ + 2) << pad_right(median, 11)
             << pad_right(interval, 25) << pad_right(ratio, 9) << status << '\n';
    }

    /// A row for a candidate with no time to show.
    void untimed_row(const std::string& rank, const std::string& name,
                     const std::string& status) const {
        row(rank, name, "-", "-", "-", status);
    }

    /// The status word painted, the details after it plain.
    std::string painted(const std::string& status) const {
        const std::size_t end = std::min(status.find_first_of(",:["), status.size());
        std::size_t word_end = end;
        while (word_end > 0 && status[word_end - 1] == ' ') {
            --word_end;
        }
        const std::optional<Tone> tone = status_tone(status);
        return tone ? palette_.paint(status.substr(0, word_end), *tone) + status.substr(word_end)
                    : status;
    }

    const Palette& palette() const noexcept { return palette_; }

  private:
    std::ostream& out_;
    const Palette& palette_;
    std::size_t width_ = 9;
};

/// "ok (winner)", "tied" or "ok" for the candidate ranked at `place` (0 the winner), then what
/// else is true of it.
std::string ranked_status(std::size_t place, const tune::RankedCandidate& ranked,
                          const std::string& reference) {
    std::string status = place == 0 ? "ok (winner)" : ranked.tied_with_winner ? "tied" : "ok";
    if (ranked.eliminated) {
        status += ", eliminated early";
    }
    if (ranked.name == reference) {
        status += ", reference";
    }
    if (ranked.method == tune::TimingMethod::host_clock) {
        status += ", host-timed";
    }
    return status;
}

/// The median's confidence interval, with its real coverage when too few samples make it less
/// than the 95% the column heads.
std::string interval_text(const tune::SampleStatistics& stats) {
    std::string interval =
        format_duration_ns(stats.ci_low_ns) + " .. " + format_duration_ns(stats.ci_high_ns);
    const double coverage = tune::median_interval_coverage(stats.samples);
    if (coverage < 0.95) {
        interval += " (" + std::to_string(static_cast<int>(coverage * 100)) + "%)";
    }
    return interval;
}

/// Whether the table has a time to show for `ranked`.
bool timed(const tune::RankedCandidate& ranked) {
    return cache::statistics_kept(ranked.statistics) && ranked.statistics.samples != 0;
}

/// Indices into `ranking` in the table's order: by median, fastest first, then those with no
/// time in ranking order. The ranking puts a candidate eliminated early below every one still
/// racing, even a slower one, because the winner comes from those; the table shows where its
/// time places it and marks it eliminated.
std::vector<std::size_t> table_order(const std::vector<tune::RankedCandidate>& ranking) {
    std::vector<std::size_t> order(ranking.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&ranking](std::size_t a, std::size_t b) {
        if (timed(ranking[a]) != timed(ranking[b])) {
            return timed(ranking[a]);
        }
        return timed(ranking[a]) &&
               ranking[a].statistics.median_ns < ranking[b].statistics.median_ns;
    });
    return order;
}

/// The ranked candidates, fastest first, timed against the reference's median.
void print_ranking(const CandidateTable& table, const tune::TuneEntry& entry,
                   const std::string& reference) {
    const tune::RankedCandidate* ref = find_ranked(entry, reference);
    const double reference_ns = ref ? ref->statistics.median_ns : 0;
    table.row("#", "candidate", "median", "95% CI of median", "speedup", "status");
    const std::vector<std::size_t> order = table_order(entry.ranking);
    for (std::size_t row = 0; row < order.size(); ++row) {
        const std::size_t i = order[row];  // its place in the ranking: 0 is the winner
        const tune::RankedCandidate& ranked = entry.ranking[i];
        const auto& stats = ranked.statistics;
        const std::string rank = std::to_string(row + 1);
        const std::string status = ranked_status(i, ranked, reference);
        if (!cache::statistics_kept(stats)) {
            // The cache file keeps only the winner's statistics (tune --keep-ranking).
            table.untimed_row(rank, ranked.name, status + " [statistics not kept]");
            continue;
        }
        if (stats.samples == 0) {
            // A lone candidate the library settled without measuring: no time to show.
            table.untimed_row(rank, ranked.name, table.painted(status) + " [not measured]");
            continue;
        }
        const std::string name =
            i == 0 ? table.palette().paint(ranked.name, Tone::good) : ranked.name;
        table.row(rank, name, format_duration_ns(stats.median_ns), interval_text(stats),
                  speedup(reference_ns, stats.median_ns),
                  table.painted(status) + " [" + std::to_string(stats.samples) + " samples]");
    }
}

/// The candidates that took no part in the ranking, but for those the key's plan skipped: the
/// skipped rows say why.
void print_failures(const CandidateTable& table, const run::KeyReport& report,
                    const tune::TuneEntry& entry) {
    for (const tune::CandidateFailure& failure : entry.failures) {
        if (!skipped_by_plan(report, failure)) {
            table.untimed_row(
                "-", failure.name,
                table.painted(run::failure_status(report, failure) + ": " + failure.reason));
        }
    }
}

}  // namespace

void print_key_report(std::ostream& out, const problem::Problem& problem,
                      const run::KeyReport& report, bool verbose, const Palette& palette) {
    using run::KeyStatus;
    print_status_line(out, problem, report, palette);
    const tune::TuneEntry* entry = report.entry ? &*report.entry : nullptr;
    const bool with_ranking =
        entry != nullptr && !entry->ranking.empty() &&
        (report.status == KeyStatus::tuned || verbose || report.status == KeyStatus::failed);
    if (!with_ranking && report.skipped.empty()) {
        return;
    }
    const CandidateTable table(out, problem, palette);
    if (with_ranking) {
        const std::string reference =
            report.reference ? problem.candidates[*report.reference].name : std::string();
        print_ranking(table, *entry, reference);
        print_failures(table, report, *entry);
    }
    if (with_ranking || verbose || report.status == KeyStatus::tuned) {
        for (const run::SkippedCandidate& skipped : report.skipped) {
            table.untimed_row("-", skipped.name, table.painted("skipped: " + skipped.reason));
        }
    }
}

}  // namespace spvtune::app
