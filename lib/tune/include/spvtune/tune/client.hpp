#pragma once

#include <utility>

#include <spvtune/tune/hardware_identity.hpp>

namespace spvtune::tune {

/// What the tuner needs from a backend's device handle: the hardware it runs on, which decides
/// which tuners and cache entries it shares. Timing is the candidates' business (see
/// `Candidate::measure`), since only the backend knows how to time its own work.
class TuneClient {
  public:
    virtual ~TuneClient() = default;

    /// Stable for the client's lifetime.
    virtual const HardwareIdentity& hardware_identity() const = 0;
};

/// A client for backends with nothing more to offer than a fixed identity (host code, tests).
class FixedIdentityClient final : public TuneClient {
  public:
    explicit FixedIdentityClient(HardwareIdentity identity) : identity_(std::move(identity)) {}
    const HardwareIdentity& hardware_identity() const override { return identity_; }

  private:
    HardwareIdentity identity_;
};

}  // namespace spvtune::tune
