// SPDX-License-Identifier: MIT
#include "viewshares.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

// The chart's floor: presenting, a sixth of the window's height at least.
int chartFloor(bool presenting, int windowHeight)
{
    return presenting ? std::max(kMemoryMinimumHeight, windowHeight / 6) : kMemoryMinimumHeight;
}

} // namespace

int chartMinimumHeight(bool presenting, bool quizShown, int windowHeight, int barsHeight)
{
    if (!presenting)
        return kMemoryMinimumHeight;
    if (quizShown) // the quiz's rows may take it down to its least (shareViews)
        return kQuizChartMinimumHeight;
    const int floor = chartFloor(presenting, windowHeight);
    return std::max(floor, windowHeight / 4 + 4 - barsHeight / 2);
}

// Before a run the views hold only placeholders: the lesson and the editor get the height.
// Stepping, the panels of every rank want room: their tab takes more of the width and the
// height, the editor never less than its columns; presenting, the memory chart keeps a quarter of
// the window's height.
ViewShares shareViews(const ViewSharesInput &in)
{
    ViewShares out;
    const bool ran = in.ran, presenting = in.presenting, failed = in.failed, events = in.events;
    // A run that made no operations (a starter, a syntax error) has no chart: what went wrong,
    // in the results, takes its room; the timeline says why it is empty.
    out.chartShown = ran && !in.torch && events;
    out.chartMinimumHeight =
        chartMinimumHeight(presenting, in.quizShown, in.windowHeight, in.barsHeight);
    // While the quiz asks, the timeline's rows answer "which rank moves next": they come before
    // the chart's presenting floor.
    const bool quiz = presenting && in.quizShown;
    const int floor = chartFloor(presenting, in.windowHeight);
    const int left = std::max(0, std::min(int(in.workWidth * (in.lessonTab                ? 0.36
                                                              : in.wideTab || in.tableTab ? 0.58
                                                                                          : 0.5)),
                                          in.workWidth - in.editorMinimum));
    out.work = {left, in.workWidth - left};

    const int height = in.middleHeight;
    const double viewsShare = !ran           ? 0.28
                              : presenting   ? 0.62
                              : in.wideTab   ? 0.3
                              : in.lessonTab ? 0.52
                                             : 0.46;
    int views = int(height * viewsShare);
    // Presenting, the verdict and the two figures are enough: the timeline's rows need the room.
    // While the quiz asks the room (presenting), the results give it their room: the verdict
    // stays in the status bar.
    // A failed run's results say what went wrong, and they need the room to say it.
    // After a run the head (verdict, figures, where the peak was) is never cut: at 1500x940 a
    // fifth of the room cut its last line in half. What the head needs beyond its share comes
    // from the chart, not from the work above (`head` false: the share alone, for the rounds
    // below that grow the views).
    const auto resultsFor = [&](int room, bool head = true) {
        return quiz                ? 0
               : presenting && ran ? std::max(int(room * (failed ? 0.25 : 0.1)), in.resultsHead)
               : !ran              ? int(room * 0.3)
                                   : std::max(int(room * (!failed  ? 0.18
                                                          : events ? 0.3
                                                                   : 0.45)),
                                 head ? in.resultsHead : 0);
    };
    // A demonstration's bar (or the quiz, outside presentation mode) above the step bar takes
    // half its height from the chart. While the quiz asks, the chart keeps its least height: the
    // timeline's rows answer "which rank moves next".
    const auto chartFor = [&](int room) {
        if (!out.chartShown)
            return 0;
        return quiz ? floor
                    : std::max(floor,
                               (presenting ? std::max(in.windowHeight / 4 + 4, int(room * 0.42))
                                           : int(room * 0.38)) -
                                   in.barsHeight / 2);
    };
    // Every rank's row (up to eight) is shown: at 1280x800 a four-rank run hid rank 3 behind the
    // timeline's scroll bar. The room comes from the code and lesson above (at most a tenth of
    // the height; not presenting, where the state view above is what the class watches), then
    // from the chart down to its floor.
    const auto missingFor = [&](int room, bool head = true) {
        const int inner = room - 2 * in.viewsHandle;
        return in.timelineEightRows -
               (inner - resultsFor(room, head) - chartFor(room) - in.steppingBars);
    };
    // Results and chart grow with the room too: a few rounds give the timeline what it misses.
    // While the quiz asks, the rows answer the question: they may take a sixth from above.
    const int mostGrown = height / (quiz ? 6 : 10);
    if (out.chartShown && (!presenting || quiz) && !in.wideTab)
        for (int grown = 0, round = 0; round < 4 && grown < mostGrown; ++round) {
            const int more = std::clamp(missingFor(views, false), 0, mostGrown - grown);
            if (more == 0)
                break;
            views += more;
            grown += more;
        }
    // The work above never gets less than its least height (a splitter keeps it): the views
    // share what it leaves, or the splitter would scale the results below their head.
    views = std::max(0, std::min(views, height - in.workMinimum));
    out.middle = {height - views, views};
    const int results = resultsFor(views);
    int chart = chartFor(views);
    // The three panes share what the splitter's two handles leave (else it scales them all).
    const int inner = views - 2 * in.viewsHandle;
    // Presenting, the chart gives its quarter down to its floor (a sixth) for the rows: at
    // 1920x1080 and 150% the legend's second line left rank 3 of four behind the scroll bar.
    if (const int missing = missingFor(views); out.chartShown && missing > 0) {
        chart = quiz         ? std::max(kQuizChartMinimumHeight, chart - missing)
                : presenting ? std::max(floor, chart - missing)
                             : std::max({floor, out.chartMinimumHeight, chart - missing});
        out.chartMinimumHeight = std::min(out.chartMinimumHeight, chart);
    }
    if (in.torch) { // the verdict and its checks over the loss curve
        const int verdict = std::max(results, int(views * 0.34));
        out.views = {verdict, 0, 0, std::max(0, inner - verdict)};
        return out;
    }
    out.views = {results, std::max(0, inner - results - chart), chart, 0};
    return out;
}

} // namespace rankstep::gui
