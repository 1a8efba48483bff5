// SPDX-License-Identifier: MIT
#include "stateview.h"

#include "statetext.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QVariantAnimation>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr int kAnimationMs = 250;
constexpr double kPanelGap = 6;

const replay::RankState *rankOf(const replay::RunState &state, int rank)
{
    return rank >= 0 && std::size_t(rank) < state.ranks.size() ? &state.ranks[std::size_t(rank)]
                                                               : nullptr;
}

} // namespace

StateView::StateView(QWidget *parent) : QWidget(parent), m_animation(new QVariantAnimation(this))
{
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    m_animation->setDuration(kAnimationMs);
    connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &value) {
        m_progress = value.toDouble();
        update(animatedRegion());
    });
    connect(m_animation, &QVariantAnimation::finished, this, [this] {
        m_progress = 1.0;
        update(animatedRegion());
        emit animationFinished();
    });
}

void StateView::setTrace(std::shared_ptr<const core::Trace> trace)
{
    m_animation->stop();
    m_progress = 1.0;
    m_trace = std::move(trace);
    m_state = {};
    m_previous = {};
    m_changes = {};
    update();
}

void StateView::setState(const replay::RunState &state)
{
    m_animation->stop();
    m_previous = std::move(m_state);
    m_state = state;
    m_changes = StateChanges(m_previous, m_state, m_trace.get(), visibleRanks());
    m_progress = 1.0;
    if (m_changes.any() && !m_previous.ranks.empty() && m_trace) {
        m_progress = 0.0;
        m_animation->start();
    }
    update();
}

void StateView::setSelectedRank(int rank)
{
    if (rank == m_selected)
        return;
    m_selected = rank;
    update();
}

void StateView::setVisibleRanks(std::vector<int> ranks)
{
    m_chosen = std::move(ranks);
    update();
}

std::vector<int> StateView::visibleRanks() const
{
    const int count = int(m_state.ranks.size());
    std::vector<int> visible;
    for (int rank : m_chosen)
        if (rank >= 0 && rank < count && int(visible.size()) < kMaxVisibleRanks)
            visible.push_back(rank);
    if (m_chosen.empty())
        for (int rank = 0; rank < std::min(count, kMaxVisibleRanks); ++rank)
            visible.push_back(rank);
    return visible;
}

bool StateView::isAnimating() const
{
    return m_animation->state() == QAbstractAnimation::Running;
}

ObjectLook StateView::lookOf(int rank, core::MapKind map, std::size_t index) const
{
    if (m_progress >= 1.0 || !m_changes.fresh(rank, map, index))
        return {};
    return {m_progress, 0.6 + 0.4 * m_progress, m_changes.arrived(rank, map, index)};
}

int StateView::layers() const
{
    return m_trace ? std::max(1, m_trace->config.layers) : 1;
}

std::int64_t StateView::maxMemory() const
{
    std::int64_t maximum = m_trace ? m_trace->figures.maxMemory : 0;
    for (const auto &rank : m_state.ranks)
        maximum = std::max(maximum, rank.memory);
    return maximum;
}

QRectF StateView::gridArea() const
{
    return QRectF(rect()).adjusted(kPanelGap, kPanelGap, -kPanelGap, -kPanelGap);
}

PanelGrid StateView::grid() const
{
    return panelGrid(int(visibleRanks().size()), gridArea().size(), layers());
}

PanelLayout StateView::layoutOf(int slot) const
{
    return panelLayout(panelRect(grid(), slot, gridArea(), kPanelGap), layers());
}

QRectF StateView::panelRectOf(int rank) const
{
    const std::vector<int> visible = visibleRanks();
    const auto it = std::find(visible.begin(), visible.end(), rank);
    return it == visible.end() ? QRectF() : layoutOf(int(it - visible.begin())).frame;
}

QRegion StateView::animatedRegion() const
{
    QRegion region;
    for (int rank : visibleRanks())
        if (m_changes.anyFor(rank))
            region += panelRectOf(rank).toAlignedRect();
    return region;
}

int StateView::rankAt(QPointF position) const
{
    for (int rank : visibleRanks())
        if (panelRectOf(rank).contains(position))
            return rank;
    return -1;
}

std::optional<StateView::Hit> StateView::objectAt(QPointF position) const
{
    const int rank = rankAt(position);
    if (rank < 0)
        return std::nullopt;
    const std::vector<int> visible = visibleRanks();
    const int slot = int(std::find(visible.begin(), visible.end(), rank) - visible.begin());
    const auto placed = placeObjects(layoutOf(slot), m_state.ranks[std::size_t(rank)]);
    const auto hit = gui::objectAt(placed, position);
    if (!hit)
        return std::nullopt;
    return Hit{rank, hit->map, hit->index};
}

QString StateView::toolTipAt(QPointF position) const
{
    const int rank = rankAt(position);
    if (rank < 0 || !m_trace)
        return {};
    const auto hit = objectAt(position);
    if (!hit)
        return panelToolTip(rank, m_state.ranks[std::size_t(rank)], maxMemory());
    const auto &entry = m_state.ranks[std::size_t(hit->rank)].map(hit->map)[hit->index];
    return objectToolTip(hit->map, entry.key(), entry.object(), m_trace->config.cost.sizes);
}

QSize StateView::sizeHint() const
{
    return {900, 600};
}

QSize StateView::minimumSizeHint() const
{
    return {240, 180};
}

bool StateView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto *help = static_cast<QHelpEvent *>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
}

void StateView::mousePressEvent(QMouseEvent *event)
{
    const int rank = rankAt(event->position());
    if (rank < 0)
        return QWidget::mousePressEvent(event);
    setSelectedRank(rank);
    emit rankSelected(rank);
}

void StateView::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    if (!m_trace || m_state.ranks.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Run your code, then step through it: every rank's weights, "
                            "activations and gradients appear here."));
        return;
    }
    const std::vector<int> visible = visibleRanks();
    for (std::size_t slot = 0; slot < visible.size(); ++slot)
        if (event->region().intersects(layoutOf(int(slot)).frame.toAlignedRect()))
            paintRank(painter, int(slot), visible[slot]);
}

void StateView::paintRank(QPainter &painter, int slot, int rank) const
{
    const PanelLayout layout = layoutOf(slot);
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const PanelLook look{panelTitle(rank, state), memoryFraction(state.memory, maxMemory()),
                         state.running, rank == m_selected};
    paintPanel(painter, layout, look, palette());
    if (m_progress < 1.0)
        paintGone(painter, layout, rank); // under what replaces it
    const double labelHeight = labelMinHeight(painter.font());
    for (const PlacedObject &placed : placeObjects(layout, state)) {
        const ObjectLook objectLook = lookOf(rank, placed.map, placed.index);
        const replay::MapEntry &entry = state.map(placed.map)[placed.index];
        const bool labelled = placed.rect.height() >= labelHeight;
        paintObject(painter, entry.object(), placed, layers(), objectLook,
                    labelled ? shortName(placed.map, entry.key()) : QString());
    }
}

void StateView::paintGone(QPainter &painter, const PanelLayout &layout, int rank) const
{
    const replay::RankState *before = rankOf(m_previous, rank);
    if (!before)
        return;
    for (const PlacedObject &placed : placeObjects(layout, *before))
        if (m_changes.gone(rank, placed.map, placed.index))
            paintObject(painter, before->map(placed.map)[placed.index].object(), placed, layers(),
                        {1.0 - m_progress, 1.0, false});
}

} // namespace rankstep::gui
