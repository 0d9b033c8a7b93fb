#pragma once

#include <string>
#include <utility>
#include <vector>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/result.hpp>

namespace spvtune::app {

/// `--key n=4096,dtype=f32` (repeatable): a key matches when it has every named parameter with
/// that value. Numbers compare by value, so `n=4096` matches 4096 and `alpha=2` matches 2.0.
/// Spaces around names and values are ignored (`--key "M=200, N=152"`).
class KeyFilter {
  public:
    /// Fails on an item that is not `name=value[,name=value...]`.
    static tune::Result<KeyFilter> parse(const std::vector<std::string>& items);

    bool matches(const problem::ProblemKey& key) const;
    /// True when no parameter is named: every key matches.
    bool empty() const noexcept { return wanted_.empty(); }
    /// The filter as the user wrote it, for messages.
    std::string describe() const;
    /// The filter with each whole non-negative number replaced by its bucket as a parameter
    /// with the default bucketing (`"bucket": {}`: base 2, no bounds) has it at `level`, so the
    /// exact key `tune` printed (`n=1000 (tuned as n=1024)`) selects the stored bucket.
    KeyFilter bucketed(tune::AutotuneLevel level) const;

  private:
    std::vector<std::pair<std::string, std::string>> wanted_;
};

}  // namespace spvtune::app
