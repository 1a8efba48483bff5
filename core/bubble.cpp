// SPDX-License-Identifier: MIT
#include "bubble.h"

namespace rankstep::core {

double idleShare(const Trace &trace)
{
    const Figures &f = trace.figures;
    const double total = double(f.endTime.ticks()) * double(f.ranks.size());
    if (total <= 0)
        return 0.0;
    double idle = 0;
    for (const RankFigures &rank : f.ranks)
        idle += double(rank.idle.ticks());
    return idle / total;
}

double bubbleFormula(int stages, int microBatches)
{
    return double(stages - 1) / double(microBatches + stages - 1);
}

} // namespace rankstep::core
