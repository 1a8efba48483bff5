// SPDX-License-Identifier: MIT
#include "router.h"

#include <algorithm>

namespace rankstep::core {

int expertOf(int batch, int experts, int skew)
{
    experts = std::max(experts, 1);
    skew = std::max(skew, 0);
    const int place = batch % (experts + skew);
    return place <= skew ? 0 : place - skew;
}

IndexSet batchesOfExpert(int expert, int experts, int skew, int batches)
{
    IndexSet routed;
    for (int batch = 0; batch < batches; ++batch)
        if (expertOf(batch, experts, skew) == expert)
            routed.insert(batch);
    return routed;
}

} // namespace rankstep::core
