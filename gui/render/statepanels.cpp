// SPDX-License-Identifier: MIT
#include "statepanels.h"

#include "statebatch.h"
#include "statetext.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
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
    {}

    void paint(const QRegion &region);

private:
    bool animating() const { return m_scene.changes && m_scene.progress < 1.0; }
    QString fitted(const QString &title, const PanelLayout &layout, bool selected) const;
    void paintChrome(const PanelLayout &layout, int rank) const;
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
};

void PanelsPainter::paint(const QRegion &region)
{
    std::vector<std::pair<PanelLayout, int>> panels; // the panels in the region, with their rank
    const int count = int(m_scene.ranks.size());
    for (int slot = 0; slot < count; ++slot) {
        const PanelLayout layout = statePanelLayout(m_scene.area, count, slot, m_layers);
        if (rankOf(m_state, m_scene.ranks[std::size_t(slot)]) &&
            (region.isEmpty() || region.intersects(layout.frame.toAlignedRect())))
            panels.emplace_back(layout, m_scene.ranks[std::size_t(slot)]);
    }
    for (const auto &[layout, rank] : panels)
        paintChrome(layout, rank);
    if (animating())
        for (const auto &[layout, rank] : panels)
            paintGone(layout, rank); // under what replaces it
    // Objects as they are go into one batch; the few that move, and labels, on top of it.
    CellBatch batch;
    std::vector<Pending> pending;
    for (const auto &[layout, rank] : panels)
        collectObjects(layout, rank, batch, pending);
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
    auto found = m_cache->titles.constFind(title);
    if (found == m_cache->titles.constEnd()) {
        if (m_cache->titles.size() > 256) // titles change with every step: keep the recent ones
            m_cache->titles.clear();
        found = m_cache->titles.insert(title, fittedTitle(title, QFontMetrics(bold), width));
    }
    return *found;
}

void PanelsPainter::paintChrome(const PanelLayout &layout, int rank) const
{
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const bool selected = rank == m_scene.selected;
    const QSizeF size = layout.frame.size();
    if (m_cache && (m_cache->size != size || m_cache->layers != layout.layers)) {
        for (const bool which : {false, true})
            m_cache->backgrounds[which] =
                panelBackground(layout, m_scene.palette, m_scene.look, m_scene.font,
                                m_cache->devicePixelRatio, which);
        m_cache->size = size;
        m_cache->layers = layout.layers;
        m_cache->titles.clear(); // fitted to another width
    }
    const PanelLook look{fitted(statePanelTitle(m_state, rank, m_scene.timeUnit), layout, selected),
                         memoryFraction(state.memory, m_maxMemory), state.running, selected,
                         !selected}; // a bold title is measured as it is drawn
    paintPanel(m_painter, layout, look, m_scene.palette, m_scene.look,
               m_cache ? m_cache->backgrounds[selected] : QPixmap());
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
        const bool labelled = placed.rect.height() >= labelHeight;
        if (!moving) {
            const core::Object &object = state.map(placed.map)[placed.index].object();
            addObjectCells(batch, object, placed,
                           batch.colorsOf(object, m_layers, m_scene.look.colors()));
        }
        if (moving || labelled)
            pending.push_back({rank, placed, look, moving, labelled});
    }
}

void PanelsPainter::paintPending(const Pending &object) const
{
    const replay::MapEntry &entry =
        m_state.ranks[std::size_t(object.rank)].map(object.placed.map)[object.placed.index];
    const QString label = object.labelled ? shortName(object.placed.map, entry.key()) : QString();
    if (object.moving)
        paintObject(m_painter, entry.object(), object.placed, m_layers, object.look, m_scene.look,
                    label);
    else
        paintObjectLabel(m_painter, entry.object(), object.placed, label, m_scene.look.zoom);
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

QString statePanelTitle(const replay::RunState &state, int rank, const QString &timeUnit)
{
    // Ranks at their own clocks (not a time cut) say so where the clock is not the run's time.
    const auto shared = !state.cut && state.ranks.size() > 1
                            ? std::optional(state.time.value_or(core::SimTime()))
                            : std::nullopt;
    return panelTitle(rank, state.ranks[std::size_t(rank)], shared, timeUnit);
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

PanelLayout statePanelLayout(const QRectF &area, int count, int slot, int layers)
{
    const PanelGrid grid = panelGrid(count, area.size(), layers);
    return panelLayout(panelRect(grid, slot, area, kPanelGap), layers);
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
