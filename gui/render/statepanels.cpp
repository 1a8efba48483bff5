// SPDX-License-Identifier: MIT
#include "statepanels.h"

#include "statebatch.h"
#include "statesummary.h"
#include "statetext.h"

#include "core/layout.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>

namespace rankstep::gui {
namespace {

const replay::RankState *rankOf(const replay::RunState &state, int rank)
{
    return rank >= 0 && std::size_t(rank) < state.ranks.size() ? &state.ranks[std::size_t(rank)]
                                                               : nullptr;
}

// An object painted over the batch of still ones: moving (fading, growing) or labelled.
struct Pending {
    int rank = 0;
    PlacedObject placed;
    ObjectLook look;
    bool moving = false;
    bool labelled = false;
};

class PanelsPainter
{
public:
    PanelsPainter(QPainter &painter, const StateScene &scene, StatePanelCache *cache)
        : m_painter(painter)
        , m_scene(scene)
        , m_state(*scene.state)
        , m_cache(cache)
        , m_layers(stateLayers(scene.trace))
        , m_maxMemory(stateMaxMemory(scene.trace, m_state))
        , m_labelSize(kindLabelSize(scene.font, scene.look.zoom))
    {}

    void paint(const QRegion &region);

private:
    bool animating() const { return m_scene.changes && m_scene.progress < 1.0; }
    QString fitted(const QString &title, const PanelLayout &layout, bool selected) const;
    QPixmap background(const PanelLayout &layout, bool selected, bool bands) const;
    void paintChrome(const PanelLayout &layout, int rank, bool summary) const;
    void paintSummaryOf(const PanelLayout &layout, int rank, bool small) const;
    bool smallSummaries(const std::vector<PanelSlot> &panels) const;
    void note(const QString &text) const
    {
        if (m_scene.elided && !m_scene.elided->contains(text))
            m_scene.elided->append(text);
    }
    void collectObjects(const PanelLayout &layout, int rank, CellBatch &batch,
                        std::vector<Pending> &pending) const;
    void paintPending(const Pending &object) const;
    void paintGone(const PanelLayout &layout, int rank) const;
    void paintTravels() const;

    QPainter &m_painter;
    const StateScene &m_scene;
    const replay::RunState &m_state;
    StatePanelCache *m_cache;
    int m_layers;
    std::int64_t m_maxMemory;
    QSizeF m_labelSize; // an object smaller cannot say its kind: its panel shows a summary
};

struct ShownPanel {
    PanelLayout layout;
    int rank = 0;
    bool summary = false;
};

void PanelsPainter::paint(const QRegion &region)
{
    std::vector<ShownPanel> panels; // the panels in the region
    const std::vector<PanelSlot> all =
        statePanelSlots(m_scene.area, m_scene.ranks, m_scene.focus, m_layers,
                        statePanelLeastWidth(m_scene.ranks, m_scene.font)); // as the view lays out
    const bool small = smallSummaries(all);
    for (const PanelSlot &slot : all) {
        if (rankOf(m_state, slot.rank) &&
            (region.isEmpty() || region.intersects(slot.layout.frame.toAlignedRect())))
            panels.push_back({slot.layout, slot.rank, !objectsFit(slot.layout, m_labelSize)});
    }
    for (const ShownPanel &panel : panels) {
        paintChrome(panel.layout, panel.rank, panel.summary);
        if (panel.summary)
            paintSummaryOf(panel.layout, panel.rank, small);
        else if (m_scene.elided)
            for (const QString &label : droppedLayerLabels(panel.layout, m_scene.font))
                note(label);
    }
    if (animating())
        for (const ShownPanel &panel : panels)
            if (!panel.summary)
                paintGone(panel.layout, panel.rank); // under what replaces it
    // Objects as they are go into one batch; the few that move, and labels, on top of it.
    CellBatch batch;
    std::vector<Pending> pending;
    for (const ShownPanel &panel : panels)
        if (!panel.summary)
            collectObjects(panel.layout, panel.rank, batch, pending);
    batch.draw(m_painter);
    for (const Pending &object : pending)
        paintPending(object);
    if (animating() && m_scene.travels)
        paintTravels();
}

QString PanelsPainter::fitted(const QString &title, const PanelLayout &layout, bool selected) const
{
    QFont bold = m_scene.font;
    bold.setBold(selected);
    const int width = int(layout.title.width()) - 6;
    if (!m_cache)
        return fittedTitle(title, QFontMetrics(bold), width);
    const QString key = QStringLiteral("%1 %2 ").arg(width).arg(selected) + title;
    auto found = m_cache->titles.constFind(key);
    if (found == m_cache->titles.constEnd()) {
        if (m_cache->titles.size() > 256) // titles change with every step: keep the recent ones
            m_cache->titles.clear();
        found = m_cache->titles.insert(key, fittedTitle(title, QFontMetrics(bold), width));
    }
    return *found;
}

QPixmap PanelsPainter::background(const PanelLayout &layout, bool selected, bool bands) const
{
    if (!m_cache)
        return {};
    const QSizeF size = layout.frame.size();
    for (const StatePanelCache::Background &kept : m_cache->backgrounds)
        if (kept.size == size && kept.layers == layout.layers && kept.selected == selected &&
            kept.bands == bands)
            return kept.pixmap;
    if (m_cache->backgrounds.size() > 8) // panels of a few sizes at a time: the focus, the rest
        m_cache->backgrounds.clear();
    m_cache->backgrounds.push_back(
        {size, layout.layers, selected, bands,
         panelBackground(layout, m_scene.palette, m_scene.look, m_scene.font,
                         m_cache->devicePixelRatio, selected, bands)});
    return m_cache->backgrounds.back().pixmap;
}

void PanelsPainter::paintChrome(const PanelLayout &layout, int rank, bool summary) const
{
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const bool selected = rank == m_scene.selected;
    const QString title = statePanelTitle(m_state, rank, m_scene.timeUnit, m_scene.trace);
    const QString shown = fitted(title, layout, selected);
    if (shown != title)
        note(title);
    const PanelLook look{shown,         memoryFraction(state.memory, m_maxMemory),
                         state.running, selected,
                         true, // fitted in the font it is drawn in
                         !summary};
    paintPanel(m_painter, layout, look, m_scene.palette, m_scene.look,
               background(layout, selected, !summary));
}

QRectF summaryBody(const PanelLayout &layout)
{
    return {layout.labels.left(), layout.labels.top(), layout.model.right() - layout.labels.left(),
            layout.labels.height()};
}

// Whether any summary of the scene needs the small font to give each kind a line: then all take
// it, so that panels of one size read alike (decided over every panel, not only those a frame of
// an animation repaints).
bool PanelsPainter::smallSummaries(const std::vector<PanelSlot> &panels) const
{
    const double line = std::ceil(QFontMetricsF(m_scene.font).height());
    for (const PanelSlot &slot : panels) {
        const replay::RankState *rank = rankOf(m_state, slot.rank);
        if (!rank || objectsFit(slot.layout, m_labelSize))
            continue;
        const int count = int(kindTallies(*rank, m_scene.trace->config.cost.sizes).size());
        if (int(summaryRows(summaryBody(slot.layout), count, line).size()) < count)
            return true;
    }
    return false;
}

void PanelsPainter::paintSummaryOf(const PanelLayout &layout, int rank, bool small) const
{
    const core::Sizes sizes = m_scene.trace->config.cost.sizes;
    paintSummary(m_painter, summaryBody(layout),
                 kindTallies(m_state.ranks[std::size_t(rank)], sizes), m_scene.palette,
                 m_scene.look, m_scene.elided, small);
}

void PanelsPainter::collectObjects(const PanelLayout &layout, int rank, CellBatch &batch,
                                   std::vector<Pending> &pending) const
{
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const double labelHeight = labelMinHeight(m_scene.font, m_scene.look.zoom);
    for (const PlacedObject &placed : placeObjects(layout, state)) {
        const ObjectLook look =
            stateObjectLook(m_scene.changes, m_scene.progress, rank, placed.map, placed.index);
        const bool moving = look.opacity < 1.0 || look.scale < 1.0 || look.arrived;
        const bool labelled = std::max(placed.room, placed.rect.height()) >= labelHeight;
        if (!labelled && !moving && m_scene.elided) // too thin for any label
            note(chipName(placed.map, state.map(placed.map)[placed.index].key(),
                          state.map(placed.map)[placed.index].object()));
        if (!moving) {
            const core::Object &object = state.map(placed.map)[placed.index].object();
            addObjectCells(batch, object, placed,
                           batch.colorsOf(object, m_layers, m_scene.look.colors()));
        }
        if (moving || labelled ||
            hasObjectMarks(state.map(placed.map)[placed.index].object())) // drawn over the cells
            pending.push_back({rank, placed, look, moving, labelled});
    }
}

void PanelsPainter::paintPending(const Pending &object) const
{
    const replay::MapEntry &entry =
        m_state.ranks[std::size_t(object.rank)].map(object.placed.map)[object.placed.index];
    const QString label = chipName(object.placed.map, entry.key(), entry.object());
    if (!object.labelled && object.moving)
        note(label); // too thin for any label (a still one was noted where its cells were)
    if (object.moving) {
        paintObject(m_painter, entry.object(), object.placed, m_layers, object.look, m_scene.look,
                    object.labelled ? label : QString(), m_scene.elided);
        return;
    }
    // Its cells were batched: the marks of a partial value go over them, then the label.
    paintObjectMarks(m_painter, entry.object(), object.placed.rect, m_scene.look.zoom);
    if (object.labelled)
        paintObjectLabel(m_painter, entry.object(), object.placed, label, m_scene.look.zoom,
                         m_scene.elided);
}

void PanelsPainter::paintGone(const PanelLayout &layout, int rank) const
{
    const replay::RankState *before = m_scene.previous ? rankOf(*m_scene.previous, rank) : nullptr;
    if (!before)
        return;
    for (const PlacedObject &placed : placeObjects(layout, *before))
        if (m_scene.changes->gone(rank, placed.map, placed.index))
            paintObject(m_painter, before->map(placed.map)[placed.index].object(), placed, m_layers,
                        {1.0 - m_scene.progress, 1.0, false}, m_scene.look);
}

// Over every panel: each object in the air, gray until it nears its slot.
void PanelsPainter::paintTravels() const
{
    m_painter.save();
    m_painter.setRenderHint(QPainter::Antialiasing);
    for (const Travel &travel : *m_scene.travels) {
        const core::Object &object =
            m_state.ranks[std::size_t(travel.to)].map(travel.map)[travel.index].object();
        const QColor color = travelColor(objectColor(object, m_layers, m_scene.look.colors()),
                                         m_scene.progress, m_scene.look.colors());
        m_painter.setPen(QPen(color.darker(150), 1));
        m_painter.setBrush(color);
        m_painter.drawRoundedRect(travelRect(travel.start, travel.end, m_scene.progress), 2, 2);
    }
    m_painter.restore();
}

} // namespace

QString statePanelTitle(const replay::RunState &state, int rank, const QString &timeUnit,
                        const core::Trace *trace)
{
    // Ranks at their own clocks (not a time cut) say so where the clock is not the run's time.
    const auto shared = !state.cut && state.ranks.size() > 1
                            ? std::optional(state.time.value_or(core::SimTime()))
                            : std::nullopt;
    int expert = -1;
    if (trace && trace->config.layout.expert > 1) {
        const core::RankLayout layout(trace->config.ranks, trace->config.layout);
        if (layout.data() > 0)
            expert = layout.coords(rank).expert;
    }
    return panelTitle(rank, state.ranks[std::size_t(rank)], shared, timeUnit, expert);
}

std::vector<int> shownRanks(const std::vector<int> &chosen, int count)
{
    std::vector<int> shown;
    for (int rank : chosen)
        if (rank >= 0 && rank < count && int(shown.size()) < kMaxVisibleRanks)
            shown.push_back(rank);
    if (chosen.empty())
        for (int rank = 0; rank < std::min(count, kMaxVisibleRanks); ++rank)
            shown.push_back(rank);
    return shown;
}

int stateLayers(const core::Trace *trace)
{
    return trace ? std::max(1, trace->config.layers) : 1;
}

std::int64_t stateMaxMemory(const core::Trace *trace, const replay::RunState &state)
{
    std::int64_t maximum = trace ? trace->figures.maxMemory : 0;
    for (const auto &rank : state.ranks)
        maximum = std::max(maximum, rank.memory);
    return maximum;
}

QRectF stateGridArea(const QRectF &bounds)
{
    return bounds.adjusted(kPanelGap, kPanelGap, -kPanelGap, -kPanelGap);
}

PanelLayout statePanelLayout(const QRectF &area, int count, int slot, int layers, double leastWidth)
{
    const PanelGrid grid = panelGrid(count, area.size(), layers, leastWidth);
    return panelLayout(panelRect(grid, slot, area, kPanelGap), layers);
}

std::vector<PanelSlot> statePanelSlots(const QRectF &area, const std::vector<int> &ranks, int focus,
                                       int layers, double leastWidth)
{
    std::vector<PanelSlot> placed;
    if (focus < 0) {
        for (std::size_t i = 0; i < ranks.size(); ++i)
            placed.push_back({ranks[i],
                              statePanelLayout(area, int(ranks.size()), int(i), layers, leastWidth),
                              false});
        return placed;
    }
    std::vector<int> others;
    for (int rank : ranks)
        if (rank != focus)
            others.push_back(rank);
    const FocusSplit split = focusSplit(area, int(others.size()), kPanelGap);
    placed.push_back({focus, panelLayout(split.focus, layers), true});
    for (std::size_t i = 0; i < others.size(); ++i)
        placed.push_back(
            {others[i],
             statePanelLayout(split.overview, int(others.size()), int(i), layers, leastWidth),
             false});
    return placed;
}

double statePanelLeastWidth(const std::vector<int> &ranks, const QFont &font)
{
    if (ranks.empty())
        return 0;
    QFont bold = font;
    bold.setBold(true);
    const int largest = *std::max_element(ranks.begin(), ranks.end());
    // The title's room (stategeometry.cpp panelLayout, paintChrome): the panel's margins, 3
    // pixels each side of the text, and the gap the grid puts between panels.
    constexpr double kTitleRoom = 2 * 4 + 6 + kPanelGap;
    return std::ceil(QFontMetricsF(bold).horizontalAdvance(QString::number(largest))) + kTitleRoom;
}

ObjectLook stateObjectLook(const StateChanges *changes, double progress, int rank,
                           core::MapKind map, std::size_t index)
{
    if (!changes || progress >= 1.0 || !changes->fresh(rank, map, index))
        return {};
    return {progress, 0.6 + 0.4 * progress, changes->arrived(rank, map, index)};
}

void paintStatePanels(QPainter &painter, const StateScene &scene, StatePanelCache *cache,
                      const QRegion &region)
{
    painter.save();
    painter.setFont(scene.font);
    PanelsPainter(painter, scene, cache).paint(region);
    painter.restore();
}

} // namespace rankstep::gui
