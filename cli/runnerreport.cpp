// SPDX-License-Identifier: MIT
#include "runnerreport.h"

#include "descriptors.h"

#include <unistd.h>

#include <atomic>

namespace rankstep::cli {
namespace {

std::atomic<int> g_channel{-1};
ChannelToken g_token{};

} // namespace

void openReportChannel(int fd, const ChannelToken &token)
{
    g_token = token;
    g_channel = fd;
}

void sendReport(const RunnerReport &report)
{
    const int fd = g_channel.exchange(-1);
    if (fd < 0)
        return;
    writeFully(fd, encodeReport(g_token, report));
    close(fd);
}

} // namespace rankstep::cli
