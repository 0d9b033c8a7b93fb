#include <doctest/doctest.h>

#include <spvtune/tune/in_memory_store.hpp>

#include "tune/fakes.hpp"

namespace in_memory_store_test {

using namespace spvtune::tune;

namespace {

TuneEntry entry_won_by(const std::string& name, std::size_t index) {
    TuneEntry entry;
    entry.winner_name = name;
    entry.winner_index = index;
    return entry;
}

}  // namespace

TEST_CASE("the in-memory store keys entries by hardware, tuner, checksum and key") {
    InMemoryStore store;
    const HardwareIdentity gpu = fakes::hardware("gpu-a");
    const EntryAddress address{"op", 7, R"({"size":64})"};
    CHECK_FALSE(store.load(gpu, address));
    const StoreOutcome saved = store.save(gpu, address, {}, "size=64", entry_won_by("a", 0));
    CHECK(saved.stored);
    CHECK(store.load(gpu, address)->winner_name == "a");
    CHECK_FALSE(store.load(fakes::hardware("gpu-b"), address));
    CHECK_FALSE(store.load(gpu, {"op", 8, R"({"size":64})"}));
    CHECK_FALSE(store.load(gpu, {"other", 7, R"({"size":64})"}));
    CHECK_FALSE(store.load(gpu, {"op", 7, R"({"size":32})"}));
    CHECK(store.size() == 1);
}

TEST_CASE("the in-memory store keeps the first settled entry unless it needs re-tuning") {
    InMemoryStore store;
    const HardwareIdentity gpu = fakes::hardware("gpu-a");
    const EntryAddress address{"op", 7, "1"};
    REQUIRE(store.save(gpu, address, {}, "1", entry_won_by("a", 0)).stored);
    const StoreOutcome second = store.save(gpu, address, {}, "1", entry_won_by("b", 1));
    CHECK_FALSE(second.stored);
    REQUIRE(second.kept);
    CHECK(second.kept->winner_name == "a");
    CHECK_FALSE(second.message.empty());

    store.mark_needs_retune(gpu, address);
    CHECK(store.load(gpu, address)->needs_retune);
    CHECK(store.save(gpu, address, {}, "1", entry_won_by("b", 1)).stored);
    CHECK(store.load(gpu, address)->winner_name == "b");
    CHECK_FALSE(store.load(gpu, address)->needs_retune);
    store.mark_needs_retune(gpu, {"absent", 1, "1"});  // no-op
    CHECK(store.size() == 1);
}

}  // namespace in_memory_store_test
