#pragma once

#include <optional>
#include <string>
#include <vector>

#include <spvtune/tune/result.hpp>

#include "key_filter.hpp"

namespace spvtune::app {

/// Which cache entries `cache clear --tuner T --key K...` means. A --key is what `tune --key`
/// takes (`n=4096`, `M=200,N=152`: a filter, every named parameter must match, in any order
/// and with spaces allowed) or an entry key's canonical JSON (`{"n":4096}`, as `cache show
/// --json` prints it); several --key must all match, as in tune.
class EntrySelection {
  public:
    static tune::Result<EntrySelection> parse(std::string tuner,
                                              const std::vector<std::string>& keys);

    /// True when --tuner or --key narrowed the selection.
    bool filtered() const noexcept { return filtered_; }
    bool matches(const std::string& tuner, const std::string& key_json) const;
    /// The options as given, for messages: `--tuner T --key K`.
    std::string describe() const;
    /// The selection with its name=value keys bucketed as `tune` buckets a parameter with the
    /// default bucketing at `level` (KeyFilter::bucketed); none when that selects the same keys.
    std::optional<EntrySelection> bucketed(tune::AutotuneLevel level) const;
    /// The name=value keys as selected: `n=1024`.
    std::string filter_text() const { return filter_.describe(); }

  private:
    std::string tuner_;
    std::vector<std::string> json_keys_;
    KeyFilter filter_;
    std::string description_;
    bool filtered_ = false;
};

}  // namespace spvtune::app
