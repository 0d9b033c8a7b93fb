#include <cstdio>
#include <sstream>

#include <spvtune/problem/problem_key.hpp>

#include "compare_reports.hpp"

namespace spvtune::app {
namespace {

/// Text made safe for an XML attribute or element: markup characters escaped, and control
/// characters that XML 1.0 cannot hold at all replaced.
std::string xml(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\n':
                out += "&#10;";
                break;
            case '\t':
                out += "&#9;";
                break;
            default:
                out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
        }
    }
    return out;
}

std::string seconds(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

struct Suite {
    std::string name;
    std::ostringstream cases;
    std::size_t tests = 0;
    std::size_t failures = 0;
    std::size_t errors = 0;
    std::size_t skipped = 0;
    double time = 0;
};

void add_cases(Suite& suite, const CompareRun& run, const run::KeyComparison& key) {
    const std::size_t contenders = key.arms.size() > 1 ? key.arms.size() - 1 : 0;
    const double each = contenders > 0 ? key.elapsed_s / static_cast<double>(contenders) : 0;
    suite.time += key.elapsed_s;
    for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
        const run::ArmReport& contender = key.arms[arm];
        ++suite.tests;
        suite.cases << "    <testcase name=\""
                    << xml(problem::to_string(key.key) + ": " + contender.name + " vs " +
                           key.arms.front().name)
                    << "\" classname=\"" << xml("spvtune.compare." + suite.name) << "\" time=\""
                    << seconds(each) << "\">\n";
        const std::string word = outcome_word(key, arm);
        if (key.error) {
            ++suite.errors;
            suite.cases << "      <error type=\"not compared\" message=\"" << xml(*key.error)
                        << "\"/>\n";
        } else if (const auto failure = regression(run, key, arm)) {
            ++suite.failures;
            const bool wrong = contender.status == run::ArmStatus::wrong_output;
            suite.cases << "      <failure type=\"" << (wrong ? "wrong output" : "regression")
                        << "\" message=\"" << xml(*failure) << "\"/>\n";
        } else if (contender.status == run::ArmStatus::failed) {
            ++suite.errors;
            suite.cases << "      <error type=\"failed\" message=\"" << xml(contender.message)
                        << "\"/>\n";
        } else if (contender.status == run::ArmStatus::skipped) {
            ++suite.skipped;
            suite.cases << "      <skipped message=\"" << xml(contender.message) << "\"/>\n";
        }
        if (const tune::ContenderComparison* verdict = find_verdict(key, arm)) {
            char coverage[32];
            std::snprintf(coverage, sizeof coverage, " (%.4g%% interval)", verdict->coverage * 100);
            suite.cases << "      <system-out>"
                        << xml(word + ": " + ratio_text(verdict->interval) + coverage)
                        << "</system-out>\n";
        }
        suite.cases << "    </testcase>\n";
    }
}

}  // namespace

std::string compare_junit(const CompareRun& run) {
    // One suite per problem, in the order problems first appear.
    std::vector<Suite> suites;
    for (const ComparisonGroup& group : run.groups) {
        auto found = std::find_if(suites.begin(), suites.end(),
                                  [&](const Suite& suite) { return suite.name == group.problem; });
        if (found == suites.end()) {
            suites.emplace_back();
            suites.back().name = group.problem;
            found = suites.end() - 1;
        }
        for (const run::KeyComparison& key : group.keys) {
            add_cases(*found, run, key);
        }
    }
    Suite total;
    for (const Suite& suite : suites) {
        total.tests += suite.tests;
        total.failures += suite.failures;
        total.errors += suite.errors;
        total.time += suite.time;
    }
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<testsuites name=\"spvtune compare\" tests=\"" << total.tests << "\" failures=\""
        << total.failures << "\" errors=\"" << total.errors << "\" time=\"" << seconds(total.time)
        << "\">\n";
    for (const Suite& suite : suites) {
        out << "  <testsuite name=\"" << xml(suite.name) << "\" tests=\"" << suite.tests
            << "\" failures=\"" << suite.failures << "\" errors=\"" << suite.errors
            << "\" skipped=\"" << suite.skipped << "\" time=\"" << seconds(suite.time) << "\">\n";
        out << "    <properties>\n";
        out << "      <property name=\"device\" value=\"" << xml(run.device) << "\"/>\n";
        out << "      <property name=\"threshold\" value=\"" << run.settings.threshold << "\"/>\n";
        if (run.fail_if_slower) {
            out << "      <property name=\"fail_if_slower\" value=\"" << *run.fail_if_slower
                << "\"/>\n";
        }
        out << "      <property name=\"family_method\" value=\"holm\"/>\n";
        out << "      <property name=\"family_size\" value=\"" << run.family.size << "\"/>\n";
        out << "      <property name=\"family\" value=\"" << xml(family_method(run)) << "\"/>\n";
        out << "      <property name=\"inconclusive\" value=\""
            << inconclusive_policy_name(run.inconclusive) << "\"/>\n";
        out << "    </properties>\n";
        out << suite.cases.str();
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
    return out.str();
}

}  // namespace spvtune::app
