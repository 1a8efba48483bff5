// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/memoryexplain.h"
#include "palette.h"

#include <QAreaSeries>
#include <QChartView>
#include <QList>
#include <QPointF>

#include <cstdint>
#include <optional>
#include <vector>

class QCategoryAxis;
class QLineSeries;
class QValueAxis;

namespace rankstep::gui {

// One rank's memory by kind over time, stacked (weights at the bottom, then optimizer states,
// activations, activation gradients, weight gradients), with a line at the cursor and optional
// reference lines (the lesson's target, the model-state memory a rank should hold). Its memory
// axis is written as the app writes memory everywhere ("3 MB", core/memoryformat.h), with as many
// labels as the chart's height draws whole; the kinds take the app's kind colors (kindcolors.h).
class MemoryKindChart : public QChartView
{
    Q_OBJECT
public:
    struct Reference {
        QString label;
        std::int64_t bytes = 0;
    };
    // At most this many time buckets are drawn: the highest total of each (a million changes
    // draw as fast as a thousand).
    static constexpr int kMaxBuckets = 2000;

    explicit MemoryKindChart(QWidget *parent = nullptr);

    void setSamples(const std::vector<explain::KindSample> &samples, core::SimTime end,
                    std::vector<Reference> references);
    void setCursorTime(std::optional<core::SimTime> time);
    // The time axis's unit, in the language shown: "steps", or "ms" for ticks that are
    // microseconds (a real-scale cost model, a real run), as the other charts say it.
    void setTimeUnit(const QString &unit);
    QString timeTitle() const;
    // The points drawn per kind (for tests): the upper edge of each stacked area.
    int pointCount() const;
    // The kinds in the state panels' look (kindcolors.h) of `palette`: the areas and the legend.
    void setColors(const Palette &palette);
    // The kinds' swatches and names, as rich text that wraps (the chart's own legend elides
    // them); swatches `side` pixels square.
    static QString legendText(const Palette &palette = Palette::of(Palette::Scheme::Standard),
                              int side = 12);
    std::int64_t highestTotal() const { return m_highest; }
    // The memory axis' labels, from 0 up ("0 B", "1 MB", ...).
    QStringList memoryLabels() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void applyMemoryAxis(); // ticks for the highest value at the chart's height

    QValueAxis *m_x;
    QCategoryAxis *m_y;
    std::int64_t m_top = 0; // bytes: the highest total or reference line
    std::vector<QLineSeries *> m_uppers;
    std::vector<QAreaSeries *> m_areas; // one per kind, weights at the bottom
    QLineSeries *m_cursor;
    std::vector<QLineSeries *> m_references;
    std::int64_t m_highest = 0;
};

// A round step near `rough` (1, 2 or 5 times a power of ten, at least rough): ticks stay about
// five per axis, never in proportion to the time or the bytes.
double niceStep(double rough);

// The upper edge of each kind's stacked area (weights first), as steps that hold each sample's
// bytes until the next sample (the last until `end`); `highest` gets the highest total.
std::vector<QList<QPointF>> stackedKindEdges(const std::vector<explain::KindSample> &samples,
                                             core::SimTime end, std::int64_t &highest);
// A kind's name short enough for a legend in a narrow pane ("opt. states").
QString kindShortName(core::ObjectKind kind);
// How many kinds a run's By-kind chart stacks: the five every run has, and keys and values
// (context parallelism) only for a run that holds some.
int stackedKindCount(const core::Trace &trace);

// The samples to draw: one per bucket of the run's time (the sample with the highest total in
// it), in time order; all of them when they are no more than maxBuckets.
std::vector<explain::KindSample> bucketSamples(const std::vector<explain::KindSample> &samples,
                                               core::SimTime end, int maxBuckets);

} // namespace rankstep::gui
