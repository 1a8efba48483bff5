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
    writeReportPieces(g_token, report, [fd](std::string_view piece) { writeFully(fd, piece); });
    close(fd);
}

} // namespace rankstep::cli
