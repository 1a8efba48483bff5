// SPDX-License-Identifier: MIT
// Which ranks the state view shows when a run has more than it can: the learner's list
// ("0-3, 8, 12-15"), read and written as text. Pure functions.
#pragma once

#include <QString>

#include <vector>

namespace rankstep::gui {

struct RankList {
    std::vector<int> ranks; // ascending, each once
    QString error;          // empty when the text was understood
    bool ok() const { return error.isEmpty(); }
};

// Reads comma-separated ranks and ranges ("0-3, 8, 12-15", spaces anywhere) of a run of
// `rankCount` ranks, at most `most` of them. Empty text, a rank out of range, a backward range
// or more than `most` ranks give an error that says what is wrong and no ranks.
RankList parseRankList(const QString &text, int rankCount, int most);
// The shortest text parseRankList reads back as `ranks` (ascending): "0-3, 8, 12-15".
QString rankListText(const std::vector<int> &ranks);

} // namespace rankstep::gui
