#include "console_reporter.hpp"

#include <iostream>
#include <string>
#include <system_error>

#include "key_table.hpp"

namespace spvtune::app {
namespace {

std::optional<std::filesystem::file_time_type> modified_at(const std::filesystem::path& file) {
    std::error_code error;
    const auto time = std::filesystem::last_write_time(file, error);
    return error ? std::nullopt : std::optional(time);
}

}  // namespace

ConsoleReporter::ConsoleReporter(bool quiet, bool verbose, std::ostream& out, ColorMode color)
    : out_(out), quiet_(quiet), verbose_(verbose), color_(color) {}

void ConsoleReporter::run_started(const RunInfo& run) {
    cache_file_ = run.cache_file;
    cache_file_time_ = modified_at(cache_file_);
    progress_.emplace(Progress::style_for(quiet_), run.total_keys);
    if (!quiet_) {
        out_ << "device: " << run.device_name << " (" << run.hardware.key << ")\n"
             << "cache:  " << cache_file_.string() << "\n\n";
    }
}

void ConsoleReporter::problem_started(const ProblemRun& run) {
    // They are in no key's table, since no key could run them: said once, before the keys.
    const problem::Problem& problem = run.problem;
    if (quiet_ || problem.unavailable.empty()) {
        return;
    }
    progress_->clear();
    for (const problem::UnavailableCandidate& left_out : problem.unavailable) {
        out_ << problem.name << ": left out " << left_out.name << ": " << left_out.reason << '\n';
    }
    out_ << '\n';
}

void ConsoleReporter::key_started(const KeyRun& key) {
    progress_->start_key(key.index, key.problem.problem.name + " " + to_string(key.entry.key));
}

void ConsoleReporter::candidate_started(std::string_view candidate) {
    progress_->set_detail(std::string(candidate));
}

void ConsoleReporter::tune_event(const tune::TuneEvent& event) {
    if (event.kind == tune::TuneEventKind::store_note && !quiet_) {
        progress_->clear();
        std::cerr << "note: " << event.message << '\n';
    }
}

void ConsoleReporter::key_finished(const KeyRun& key, const run::KeyReport& report) {
    progress_->finish_key(report.status == run::KeyStatus::tuned);
    tuned_keys_ += report.status == run::KeyStatus::tuned ? 1 : 0;
    if (quiet_ && report.status != run::KeyStatus::failed) {
        return;
    }
    std::ostream& stream = quiet_ ? std::cerr : out_;
    print_key_report(stream, key.problem.problem, report, verbose_,
                     Palette::for_stream(color_, stream));
    if (!quiet_ && report.status != run::KeyStatus::cached) {
        out_ << '\n';
    }
    // Each key's report is complete when printed, also through a pipe.
    out_.flush();
}

void ConsoleReporter::run_finished(const RunSummary& summary) {
    progress_->clear();
    const auto written_at = modified_at(cache_file_);
    const bool stored = tuned_keys_ == 0 || (written_at && written_at != cache_file_time_);
    if (!quiet_) {
        out_ << "\n"
             << summary.done << " key" << (summary.done == 1 ? "" : "s") << " done, "
             << (summary.failed > 0 ? Palette::for_stream(color_, out_) : Palette(false))
                    .paint(std::to_string(summary.failed) + " failed", Tone::bad)
             << "; ";
        if (stored) {
            out_ << "results in " << cache_file_.string() << '\n';
        }
    }
    if (summary.faulted_candidates > 0) {
        (quiet_ ? std::cerr : out_)
            << summary.faulted_candidates << " candidate"
            << (summary.faulted_candidates == 1 ? "" : "s")
            << " timed out, crashed or lost the device in the worker (see above): the run "
               "fails\n";
    }
    if (!stored) {
        (quiet_ ? std::cerr : out_) << "results not stored: " << cache_file_.string()
                                    << " was not written (see the notes above)\n";
    }
    if (summary.interrupted) {
        std::cerr << "interrupted after " << summary.done << " of " << summary.total_keys
                  << " keys; every finished key is in the cache\n";
    }
}

}  // namespace spvtune::app
