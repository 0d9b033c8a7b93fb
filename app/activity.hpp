#pragma once

#include <new>
#include <string>
#include <utility>

// Out of memory (std::bad_alloc) says nothing of where: "spvtune: error: std::bad_alloc". The
// places that take memory in proportion to an input name what they are doing, so main can say
// which command ran out of memory, and on what.
namespace spvtune::app {

/// std::bad_alloc that knows what the command was doing.
class OutOfMemory : public std::bad_alloc {
  public:
    explicit OutOfMemory(std::string activity) noexcept : activity_(std::move(activity)) {}
    const char* what() const noexcept override { return "out of memory"; }
    /// Completes "while ...": "reading the problem file p.json".
    const std::string& activity() const noexcept { return activity_; }

  private:
    std::string activity_;
};

/// Runs `work`; running out of memory in it becomes OutOfMemory naming `activity`, unless a
/// nested call named it more closely. `activity` is made before the work, while memory is
/// there, and moved (not copied) into the exception.
template <class Work>
decltype(auto) while_doing(std::string activity, Work&& work) {
    try {
        return std::forward<Work>(work)();
    } catch (const OutOfMemory&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw OutOfMemory(std::move(activity));
    }
}

}  // namespace spvtune::app
