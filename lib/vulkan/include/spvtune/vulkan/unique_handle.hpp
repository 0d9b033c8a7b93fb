#pragma once

#include <functional>
#include <utility>

namespace spvtune::vulkan {

/// Owns one Vulkan handle and destroys it with the function given at construction, so every
/// object is released on every path, error paths included (the validation layer reports leaks).
template <typename Handle>
class UniqueHandle {
  public:
    UniqueHandle() = default;
    UniqueHandle(Handle handle, std::function<void(Handle)> destroy)
        : handle_(handle), destroy_(std::move(destroy)) {}
    UniqueHandle(UniqueHandle&& other) noexcept
        : handle_(std::exchange(other.handle_, Handle{})), destroy_(std::move(other.destroy_)) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Handle{});
            destroy_ = std::move(other.destroy_);
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    ~UniqueHandle() { reset(); }

    Handle get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != Handle{}; }

    /// Gives up ownership without destroying (for objects a parent will free, e.g. a pool).
    Handle release() noexcept { return std::exchange(handle_, Handle{}); }

    void reset() noexcept {
        if (handle_ != Handle{} && destroy_) {
            destroy_(handle_);
        }
        handle_ = Handle{};
    }

  private:
    Handle handle_{};
    std::function<void(Handle)> destroy_;
};

}  // namespace spvtune::vulkan
