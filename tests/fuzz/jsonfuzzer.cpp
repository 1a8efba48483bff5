// SPDX-License-Identifier: MIT
// libFuzzer target over io::parseJson, the parser under lesson.json, notebooks and trace JSON:
// any bytes give a value or an error naming line and column, never a crash, a hang or a stack
// overflow (nesting is bounded).
#include "fuzzcheck.h"

#include "core/io/jsonparser.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace {

using rankstep::io::JsonValue;

// The deepest nesting of a parsed value, counted without recursion limits of our own.
int depthOf(const JsonValue &value)
{
    int deepest = 0;
    for (const JsonValue &item : value.items)
        deepest = std::max(deepest, depthOf(item));
    return deepest + 1;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const auto parsed = rankstep::io::parseJson(text);
    if (!parsed) {
        rankstep::fuzz::require(!parsed.error().message.empty(), "an error has a message");
        return 0;
    }
    rankstep::fuzz::require(depthOf(*parsed) <= rankstep::io::kMaxJsonDepth + 1,
                            "nesting stays within kMaxJsonDepth");
    rankstep::fuzz::require(parsed->keys.empty() || parsed->keys.size() == parsed->items.size(),
                            "an object has one value per name");
    return 0;
}
