// SPDX-License-Identifier: MIT
#include "hugeheap.h"

#include <gnu/libc-version.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace rankstep::core {
namespace {

constexpr std::string_view kSetting = "glibc.malloc.hugetlb";

// True when one of the colon-separated "name=value" entries of `tunables` names `name`.
bool names(std::string_view tunables, std::string_view name)
{
    while (!tunables.empty()) {
        const std::size_t colon = tunables.find(':');
        const std::string_view entry = tunables.substr(0, colon);
        if (entry.substr(0, entry.find('=')) == name)
            return true;
        if (colon == std::string_view::npos)
            break;
        tunables.remove_prefix(colon + 1);
    }
    return false;
}

// glibc 2.35 brought glibc.malloc.hugetlb.
bool knowsTheSetting(std::string_view version)
{
    int major = 0, minor = 0;
    const char *end = version.data() + version.size();
    auto [dot, failed] = std::from_chars(version.data(), end, major);
    if (failed != std::errc() || dot == end || *dot != '.')
        return false;
    if (std::from_chars(dot + 1, end, minor).ec != std::errc())
        return false;
    return major > 2 || (major == 2 && minor >= 35);
}

std::string readSmallFile(const char *path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

std::optional<std::string> hugeHeapTunables(std::optional<std::string_view> current,
                                            const HugeHeapSystem &system)
{
    // glibc acts on the setting only in `madvise` mode: it marks its heap for huge pages.
    if (system.thpEnabled.find("[madvise]") == std::string_view::npos)
        return std::nullopt;
    if (system.secure || system.underValgrind || !knowsTheSetting(system.glibcVersion))
        return std::nullopt;
    if (current && names(*current, kSetting))
        return std::nullopt;
    std::string tunables(current.value_or(std::string_view()));
    if (!tunables.empty())
        tunables += ':';
    tunables += kSetting;
    tunables += "=1";
    return tunables;
}

std::optional<std::string> tunablesBefore(std::string_view marker)
{
    if (marker.empty() || marker.front() != '=')
        return std::nullopt;
    return std::string(marker.substr(1));
}

void restartWithHugeHeap(char **argv)
{
    if (const char *marker = std::getenv(kTunablesBeforeVariable)) {
        // The second start: glibc has read the setting; the user's own environment goes on.
        if (const std::optional<std::string> before = tunablesBefore(marker))
            setenv("GLIBC_TUNABLES", before->c_str(), 1);
        else
            unsetenv("GLIBC_TUNABLES");
        unsetenv(kTunablesBeforeVariable);
        return;
    }
    const char *preload = std::getenv("LD_PRELOAD");
    const std::string thp = readSmallFile("/sys/kernel/mm/transparent_hugepage/enabled");
    const HugeHeapSystem system{thp, gnu_get_libc_version(), getauxval(AT_SECURE) != 0,
                                preload && std::strstr(preload, "vgpreload")};
    std::optional<std::string> user;
    if (const char *current = std::getenv("GLIBC_TUNABLES"))
        user = current;
    const std::optional<std::string> tunables = hugeHeapTunables(user, system);
    if (!tunables)
        return;
    setenv(kTunablesBeforeVariable, user ? ("=" + *user).c_str() : "", 1);
    setenv("GLIBC_TUNABLES", tunables->c_str(), 1);
    execv("/proc/self/exe", argv);
    // Not started again (no /proc): this start goes on as it is, with the user's environment.
    if (user)
        setenv("GLIBC_TUNABLES", user->c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(kTunablesBeforeVariable);
}

} // namespace rankstep::core
