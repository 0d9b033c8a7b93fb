// A test-only program for the ASan build: proves that keeping the Vulkan drivers mapped (so the
// LeakSanitizer suppressions of tests/sanitizers/lsan.supp can name them) hides no project leak.
//
//   leak_probe drivers-stay-mapped   exits 0 when every Vulkan driver loaded for a device is
//                                    still mapped after the device and instance are destroyed
//   leak_probe leak                  leaks memory from project code on purpose: LeakSanitizer
//                                    must report it, naming leak_on_purpose
#include <cstdio>
#include <cstring>
#include <link.h>
#include <string>
#include <thread>
#include <vector>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/instance.hpp>

namespace {

int collect_driver(dl_phdr_info* info, std::size_t /*size*/, void* drivers) {
    // Mesa's drivers are libvulkan_<name>.so; the loader itself is libvulkan.so.1.
    if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libvulkan_") != nullptr) {
        static_cast<std::vector<std::string>*>(drivers)->emplace_back(info->dlpi_name);
    }
    return 0;
}

std::vector<std::string> mapped_drivers() {
    std::vector<std::string> drivers;
    dl_iterate_phdr(&collect_driver, &drivers);
    return drivers;
}

void use_a_device() {
    spvtune::vulkan::Instance instance;
    spvtune::vulkan::Device device(instance,
                                   spvtune::vulkan::select_device(instance.devices(), ""));
}

// Not inlined, so LeakSanitizer's stack names this function.
[[gnu::noinline]] void leak_on_purpose() {
    auto* leaked = new std::vector<int>(64, 7);
    static_cast<void>(*static_cast<volatile int*>(leaked->data()));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "drivers-stay-mapped") {
        const bool before = !mapped_drivers().empty();
        use_a_device();
        const std::vector<std::string> after = mapped_drivers();
        for (const std::string& driver : after) {
            std::printf("still mapped: %s\n", driver.c_str());
        }
        if (before || after.empty()) {
            std::printf("no Vulkan driver is mapped after the device was destroyed%s\n",
                        before ? " (one was mapped before any instance existed)" : "");
            return 1;
        }
        return 0;
    }
    if (mode == "leak") {
        use_a_device();
        // On a thread of its own: a stale copy of the pointer in a dead frame of main's stack
        // would count as a reference and hide the leak; a finished thread's stack is not scanned.
        std::thread(leak_on_purpose).join();
        return 0;
    }
    std::fprintf(stderr, "usage: leak_probe drivers-stay-mapped|leak\n");
    return 2;
}
