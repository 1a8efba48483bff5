// SPDX-License-Identifier: MIT
#pragma once

#include "describable.h"
#include "look.h"
#include "rankheat.h"
#include "tracederived.h"

#include "core/layout.h"
#include "core/trace.h"

#include <QRectF>
#include <QWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QScrollBar;

namespace rankstep::gui {

class Appearance;
class RunSession;

// Every rank of a run at a glance, as profilers of large jobs show them: a row per group of ranks
// laid out by their coordinates (pipeline stages, each stage's data-parallel replicas, ranks), and
// along each row a heat map of the run: the timeline's compute color where the row's ranks
// computed, the pass's grey where they communicated, the background where they idled (a group's
// row mixes its ranks' shares). A click on a group opens it into its rows (and closes it again);
// a click on a rank selects it at the time clicked, so the timeline, the state view and the code
// show that rank then, and the timeline and state view show it with its tensor and pipeline
// groups. Hovering names the rank(s) and what they did there. From the keyboard: Up and Down move
// between rows, Return or Space does what a click on the row does, Right opens a group and Left
// folds it.
// Follows the session: its trace (figures made when first shown), cursor and selected rank.
class RankOverview
    : public QWidget
    , public Describable
{
    Q_OBJECT

public:
    RankOverview(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // The rows as shown now, the first at the top of the scrolled list.
    const std::vector<OverviewRow> &rows() const { return m_rows; }
    int firstShownRow() const { return m_firstRow; }
    // The row under a point in widget pixels, -1 away from any; the time under it (nullopt
    // outside the heat map).
    int rowAt(QPointF position) const;
    std::optional<core::SimTime> timeAt(QPointF position) const;
    QRectF rowRect(int row) const;                  // the row's heat map, empty when scrolled away
    QString rowName(const OverviewRow &row) const;  // "stage 3", "replica 12", "rank 5"
    QString rowLabel(const OverviewRow &row) const; // indented, with its fold sign
    // Above the rows: "64 ranks: pipeline 4 × data 16", "4 ranks, data parallel", "1 rank".
    QString title() const;
    QString toolTipAt(QPointF position) const;
    // The row the keyboard stands on (-1 without rows).
    int focusRow() const { return m_rows.empty() ? -1 : m_focusRow; }
    // Opens or closes a group's row (nothing for a rank's row).
    void toggleRow(int row);
    // The rank chosen at a time: selected in every view, shown with its groups.
    void chooseRank(int rank, std::optional<core::SimTime> time);
    const RankHeat &heat() const; // made on first use

    QString describedName() const override { return QStringLiteral("overview"); }
    std::optional<core::SimTime> shownTime() const override;
    QStringList elidedTexts() const override { return m_elided.texts(); }

    QSize sizeHint() const override { return {500, 400}; }
    QSize minimumSizeHint() const override { return {260, 160}; }

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Geometry {
        double header = 0; // the title and the key above the rows
        double rowHeight = 0;
        double labelWidth = 0;
        double right = 0; // the heat map's right edge
    };
    // The header's parts at the widget's width: the title and the hint wrap at words, the key's
    // entries go on the next line where the width ends (presenting at 1280x800 they were cut).
    struct HeaderLayout {
        QRectF title;
        std::array<QRectF, 3> swatches;
        std::array<QRectF, 3> names;
        QRectF hint;
    };
    HeaderLayout headerLayout() const;
    QString hintText() const;
    Geometry geometry() const;
    void onTraceChanged();
    void rebuildRows();
    void measureLabels(); // the widest row label at the look's zoom
    const RowHeat &rowHeatOf(int row) const;
    int visibleRowCount() const;
    void placeScrollBar();
    void focusOn(int row); // scrolled into view
    void paintHeader(QPainter &painter, const Geometry &g);
    void paintRow(QPainter &painter, const Geometry &g, int row, double y);
    QColor cellColor(float busy, float comm) const;

    RunSession &m_session;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    std::shared_ptr<const TraceDerived> m_derived; // the session's, of m_trace
    std::optional<core::RankLayout> m_layout;
    mutable std::vector<std::optional<RowHeat>> m_rowHeats; // by row, made when first drawn
    std::set<std::int64_t> m_open;
    std::vector<OverviewRow> m_rows;
    int m_firstRow = 0;
    int m_focusRow = 0;
    double m_labelWidth = 0;
    QScrollBar *m_scrollBar;
    ElidedTexts m_elided;
};

// The figures' resolution: a row of the overview shows this many stretches of the run.
inline constexpr int kOverviewBins = TraceDerived::kHeatBins;
// A run of more ranks than this opens with the timeline and the state view on rank 0 and its
// groups (its rows at a label's height would not fit any screen).
inline constexpr int kOverviewManyRanks = 256;
// The most ranks a choice in the overview shows in the timeline and the state view: as many as the
// state view shows panels (kMaxVisibleRanks), so the chosen rank is never the one left out.
inline constexpr int kOverviewShownRanks = 16;

} // namespace rankstep::gui
