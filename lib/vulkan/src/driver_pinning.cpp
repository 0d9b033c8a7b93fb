#include "driver_pinning.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#include <string>
#include <vector>
#endif

namespace spvtune::vulkan::detail {

#if defined(__SANITIZE_ADDRESS__)

namespace {

int collect_name(dl_phdr_info* info, std::size_t /*size*/, void* names) {
    if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
        static_cast<std::vector<std::string>*>(names)->emplace_back(info->dlpi_name);
    }
    return 0;
}

}  // namespace

void pin_loaded_libraries_for_leak_checks() {
    std::vector<std::string> names;
    dl_iterate_phdr(&collect_name, &names);
    for (const std::string& name : names) {
        // RTLD_NOLOAD only finds a library already mapped; RTLD_NODELETE makes the loader's later
        // dlclose leave it mapped. The handle is deliberately never closed.
        static_cast<void>(dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE));
    }
}

#else

void pin_loaded_libraries_for_leak_checks() {}

#endif

}  // namespace spvtune::vulkan::detail
