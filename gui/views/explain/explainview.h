// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/memoryexplain.h"
#include "core/simtime.h"
#include "memorykindchart.h"
#include "runtexts.h"
#include "tracefwd.h"

#include <QFuture>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;
class QTabWidget;
class QThreadPool;
class QToolButton;

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::lessons {
struct Lesson;
}

namespace rankstep::gui {

class Appearance;
class LiveObjectsModel;
class MemoryKindChart;
class MemoryPageSplitter;
class RankNumbersModel;
class RankTimesModel;
class RunSession;

QWidget *scrollable(QWidget *page); // in a QScrollArea that never forces its pane wider

// Why the run on screen behaves as it does (core/explain): what fills a rank's memory (stacked by
// kind over time, the objects it holds at the cursor or at the peak, the peak and its distance
// to the target in words) and where each rank's time goes (busy, idle and communication beside
// the lesson's formula, every wait with what ended it, the critical path).
// Follows the session: its lesson (the target and formulas beside the figures), its trace, its
// cursor and its selected rank.
class ExplainView : public QWidget
{
    Q_OBJECT
public:
    ExplainView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);
    ~ExplainView() override;

    int shownRank() const;
    QString peakText() const;
    QString formulaText() const;
    // A laid-out run's mean time a rank by parallelism (core/explain/timesplit.h), as shown;
    // empty for a plain run.
    QString timeSplitText() const;
    QString expertLoadText() const; // empty for a run without experts
    // Shows the page "Where time goes" (or "What fills memory").
    void showTimePage(bool time);
    // Brought up to date first: the view explains a new trace or cursor only once it is shown.
    const LiveObjectsModel &objects() const { return (ensureFresh(), *m_objects); }
    const MemoryKindChart &chart() const;
    // The list of waits (or the critical path), brought up to date first: a rank's waits still
    // being made are waited for (tests, scripts; on screen they arrive when made).
    QListWidget *chainList() const;
    // The table of each rank's busy, idle and communication time (tests: its model, its widths).
    QTableView *rankTable() const { return m_ranks; }
    // The page "What fills memory"'s rank chooser and table of objects (tests: their geometry).
    const QComboBox *rankChooser() const { return m_rank; }
    const QTableView *objectTable() const { return m_objectTable; }
    QToolButton *chartButton() const { return m_chartButton; } // "Over time": unfolds the chart
    const MemoryPageSplitter *memorySplit() const { return m_memorySplit; }
    // How many traces this view explained (tests: a hidden view explains none).
    int explainedTraces() const { return m_explained; }
    // Called on the worker that makes a rank's waits, before it makes them: a test holds it there
    // (waiting on a condition) to switch the rank meanwhile. Null in the app.
    using WaitsCheckpoint = std::function<void(int rank)>;
    void setWaitsCheckpoint(WaitsCheckpoint checkpoint)
    {
        m_waitsCheckpoint = std::move(checkpoint);
    }
    // The pool the tab's workers run in, not Qt's global one: the raster engine paints with that
    // one and waits for it, and two of our workers there held the tab's first paint (a second at
    // 16,384 ranks) until one of them ended.
    static QThreadPool &workers();
    // Whether a rank's waits are being made off the GUI thread now (the list says so meanwhile).
    bool isListingWaits() const { return m_waitsPending; }
    // Whether the run's texts, or the shown rank's memory by kind, are being made on a worker.
    bool isExplainingRun() const { return m_textsPending; }
    bool isFillingChart() const { return m_chartPending; }
    // Waits for what its workers make now and shows it (scripts: a screenshot shows it made);
    // starts nothing new.
    void finishWork();

    // One line of the list: a wait in words and the event that waited.
    struct ChainLine {
        QString text;
        std::size_t event = 0;
    };

public Q_SLOTS:
    void showRank(int rank);
    void showPeak(); // moves the cursor to the peak event and shows its rank
    void showCriticalPath(bool show);

Q_SIGNALS:
    void lineActivated(int line); // 1-based

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh(); // what changed while hidden (or just now, when shown)
    void ensureFresh() const { const_cast<ExplainView *>(this)->refresh(); }
    void explainTrace();
    void updateCursor();
    QWidget *buildMemoryPage();
    void fitSentence();
    QWidget *buildTimePage();
    void onTraceChanged();
    void onCursorChanged();
    void fillRankTable();
    void fitRankColumns();
    void fillChain();
    QCoro::Task<void> listWaits(QFuture<std::vector<ChainLine>> work, std::uint64_t generation);
    void showWaits(const std::vector<ChainLine> &lines, int rank);
    void dropWaits();
    void showPathOnTimeline(const std::vector<ChainLine> &lines);
    void chainChanged(); // the rank or the trace changed: its waits listed when next in view
    void chartChanged(); // the same for its memory by kind
    void fillChart();
    QCoro::Task<void> receiveChart(QFuture<std::vector<explain::KindSample>> work,
                                   std::uint64_t generation);
    void waitForChart() const;
    void showChart(const std::vector<explain::KindSample> &samples);
    void fillTexts();
    QCoro::Task<void> receiveTexts(QFuture<RunTexts> work, std::uint64_t generation);
    void waitForTexts() const;
    void showTexts(const RunTexts &texts);

    RunSession &m_session;
    Appearance &m_appearance;
    std::optional<std::size_t> m_peakEvent;
    bool m_criticalPath = false;
    bool m_traceStale = true;
    bool m_cursorStale = true;
    bool m_chainStale = true;
    bool m_chartStale = false;
    std::optional<int> m_pendingRank;
    int m_explained = 0;
    // A rank's waits made on a worker: its generation changes whenever the list is made anew
    // (another rank, another run, the critical path), and a result of an older one is dropped.
    std::uint64_t m_chainGeneration = 0;
    QFuture<std::vector<ChainLine>> m_waitsWork;
    int m_waitsRank = -1;
    bool m_waitsPending = false;
    WaitsCheckpoint m_waitsCheckpoint;
    // The run's texts (its peak, formula, split, experts' load) made on a worker, dropped by
    // generation as the waits are.
    std::uint64_t m_textsGeneration = 0;
    QFuture<RunTexts> m_textsWork;
    bool m_textsPending = false;
    // The shown rank's memory by kind, the same way; its references wait beside it.
    std::uint64_t m_chartGeneration = 0;
    QFuture<std::vector<explain::KindSample>> m_chartWork;
    std::vector<MemoryKindChart::Reference> m_chartReferences;
    bool m_chartPending = false;

    QLabel *m_peak = nullptr;
    QWidget *m_sentence = nullptr; // m_peak, scrolling within two lines
    RankNumbersModel *m_rankNumbers = nullptr;
    QComboBox *m_rank = nullptr;
    QPushButton *m_peakButton = nullptr;
    MemoryKindChart *m_chart = nullptr;
    LiveObjectsModel *m_objects = nullptr;
    QTableView *m_objectTable = nullptr;
    MemoryPageSplitter *m_memorySplit = nullptr; // the chart over the table
    QToolButton *m_chartButton = nullptr;
    RankTimesModel *m_rankTimes = nullptr;
    QTableView *m_ranks = nullptr;
    QLabel *m_formula = nullptr;
    QLabel *m_split = nullptr;   // the time split of a laid-out run
    QLabel *m_experts = nullptr; // the experts' load of a run with expert parallelism
    QTabWidget *m_pages = nullptr;
    QPushButton *m_pathButton = nullptr;
    QListWidget *m_chain = nullptr;
};

} // namespace rankstep::gui
