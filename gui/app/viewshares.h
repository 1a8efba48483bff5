// SPDX-License-Identifier: MIT
#pragma once

#include <QList>

namespace rankstep::gui {

// What the window shows and the sizes it has, for sharing its height and width out.
struct ViewSharesInput {
    bool lessonTab = true;   // the lesson is the tab left of the editor
    bool wideTab = false;    // the What if tab or the class roster: they want the most room
    bool tableTab = false;   // the Why tab: its tables want the width, the timeline its height
    bool torch = false;      // a PyTorch lesson: the loss curve instead of a timeline
    bool ran = false;        // a run (or a PyTorch lesson's training) is on screen
    bool presenting = false; // presentation mode
    bool events = false;     // the run made operations, so the memory chart has lines
    bool failed = false;     // the simulated run ended in an error
    bool quizShown = false;  // the quiz's question is above the step bar
    int windowHeight = 0;
    int workWidth = 0;         // the tab and the editor's splitter, less its handle
    int editorMinimum = 0;     // the editor's least width (its columns)
    int middleHeight = 0;      // the work over the views' splitter, less its handle
    int workMinimum = 0;       // the least height of the work above (the tabs' pages, the editor)
    int viewsHandle = 0;       // the views' splitter's handle width
    int resultsHead = 0;       // the results' verdict, figures and where the peak was
    int barsHeight = 0;        // the demonstration's bar and the quiz, 0 while neither shows
    int steppingBars = 0;      // the bars above the timeline (step bar, legend, notices)
    int timelineEightRows = 0; // the timeline's height for eight ranks' rows
};

// The splitters' sizes and the memory chart's least height.
struct ViewShares {
    QList<int> work;   // left tab, editor
    QList<int> middle; // work, views
    QList<int> views;  // results, stepping and timeline, memory chart, loss curve
    bool chartShown = false;
    int chartMinimumHeight = 0; // chartMinimumHeight(), or less where the rows need the room
};

// The memory chart's least height, unzoomed and not presenting.
inline constexpr int kMemoryMinimumHeight = 110;
// While the quiz asks, presenting: the timeline's rows answer its question and come first; the
// chart keeps its axes and a band of its lines (at 1280x800 and 150% rank 0's row was scrolled
// away for the chart's 110 pixels).
inline constexpr int kQuizChartMinimumHeight = 80;

// Presenting, the memory chart keeps a quarter of the window's height at any size, less while a
// demonstration's bar shows; while the quiz asks, kQuizChartMinimumHeight (shareViews gives it a
// sixth of the height unless the timeline's rows need it); else its least height.
int chartMinimumHeight(bool presenting, bool quizShown, int windowHeight, int barsHeight);

// Shares the window out for what it shows (docs/architecture.md: a pure function, so that the
// arithmetic has tests of its own and the window only applies it).
ViewShares shareViews(const ViewSharesInput &in);

} // namespace rankstep::gui
