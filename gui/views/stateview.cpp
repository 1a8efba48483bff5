// SPDX-License-Identifier: MIT
#include "stateview.h"

#include "appearance.h"
#include "runsession.h"

#include "statebatch.h"
#include "staterankpicker.h"
#include "statetext.h"
#include "tooltips.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QVariantAnimation>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr int kAnimationMs = 350; // long enough to follow an object from rank to rank
constexpr double kPanelGap = 6;

const replay::RankState *rankOf(const replay::RunState &state, int rank)
{
    return rank >= 0 && std::size_t(rank) < state.ranks.size() ? &state.ranks[std::size_t(rank)]
                                                               : nullptr;
}

} // namespace

StateView::StateView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_animation(new QVariantAnimation(this))
    , m_picker(new StateRankPicker(this))
{
    connect(&session, &RunSession::traceChanged, this, [this] { setTrace(m_session.trace()); });
    connect(&session.stepper(), &StepController::stateChanged, this, &StateView::setState);
    connect(&session, &RunSession::selectedRankChanged, this, &StateView::setSelectedRank);
    connect(this, &StateView::rankSelected, &session, &RunSession::setSelectedRank);
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        m_backgroundSize = {}; // the layer bands in the old colors
        update();
    });
    m_picker->hide();
    connect(m_picker, &StateRankPicker::ranksChosen, this, &StateView::setVisibleRanks);
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
        m_travels.clear();
        Q_EMIT animationFinished();
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
    m_travels.clear();
    update();
}

void StateView::setState(const replay::RunState &state)
{
    m_animation->stop();
    m_previous = std::move(m_state);
    m_state = state;
    updatePicker();
    m_changes = StateChanges(m_previous, m_state, m_trace.get(), visibleRanks());
    m_progress = 1.0;
    m_travels.clear();
    if (m_animated && m_changes.any() && !m_previous.ranks.empty() && m_trace) {
        m_progress = 0.0;
        updateTravels();
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
    m_travels.clear();
    updatePicker();
    update();
}

void StateView::updatePicker()
{
    const int count = int(m_state.ranks.size());
    const bool many = count > kMaxVisibleRanks;
    if (many)
        m_picker->setRanks(count, kMaxVisibleRanks, visibleRanks());
    if (many == !m_picker->isHidden())
        return;
    m_picker->setVisible(many);
    m_picker->setGeometry(0, 0, width(), m_picker->sizeHint().height());
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
    const double top = !m_picker->isHidden() ? m_picker->geometry().bottom() + 1 : 0;
    return QRectF(rect()).adjusted(kPanelGap, top + kPanelGap, -kPanelGap, -kPanelGap);
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
    for (const Travel &travel : m_travels) // the way between the panels
        region += travel.start.united(travel.end).adjusted(-2, -2, 2, 2).toAlignedRect();
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
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        m_backgroundSize = {}; // painted in the old colors or font
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    answerToolTip(*this, *help, toolTipAt(help->pos()));
    return true;
}

void StateView::mousePressEvent(QMouseEvent *event)
{
    const int rank = rankAt(event->position());
    if (rank < 0)
        return QWidget::mousePressEvent(event);
    setSelectedRank(rank);
    Q_EMIT rankSelected(rank);
}

void StateView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_picker->setGeometry(0, 0, width(), m_picker->sizeHint().height());
    if (!m_travels.empty())
        updateTravels();
}

void StateView::updateTravels()
{
    m_travels = m_trace ? findTravels(*m_trace, m_state, m_changes, visibleRanks(),
                                      [this](int rank) { return panelRectOf(rank); })
                        : std::vector<Travel>{};
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
    std::vector<std::pair<PanelLayout, int>> panels; // the panels in the region, with their rank
    for (std::size_t slot = 0; slot < visible.size(); ++slot) {
        PanelLayout layout = layoutOf(int(slot));
        if (event->region().intersects(layout.frame.toAlignedRect()))
            panels.emplace_back(std::move(layout), visible[slot]);
    }
    for (const auto &[layout, rank] : panels)
        paintChrome(painter, layout, rank);
    if (m_progress < 1.0)
        for (const auto &[layout, rank] : panels)
            paintGone(painter, layout, rank); // under what replaces it
    // Objects as they are go into one batch; the few that move, and labels, on top of it.
    CellBatch batch;
    std::vector<Pending> pending;
    for (const auto &[layout, rank] : panels)
        collectObjects(layout, rank, batch, pending);
    batch.draw(painter);
    for (const Pending &object : pending) {
        const replay::MapEntry &entry = m_state.ranks[std::size_t(object.rank)].map(
            object.placed.map)[object.placed.index];
        const QString label =
            object.labelled ? shortName(object.placed.map, entry.key()) : QString();
        if (object.moving)
            paintObject(painter, entry.object(), object.placed, layers(), object.look, m_look,
                        label);
        else
            paintObjectLabel(painter, entry.object(), object.placed, label, m_look.zoom);
    }
    if (m_progress < 1.0)
        paintTravels(painter);
}

void StateView::paintChrome(QPainter &painter, const PanelLayout &layout, int rank) const
{
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const bool selected = rank == m_selected;
    const QSizeF size = layout.frame.size();
    if (m_backgroundSize != size || m_backgroundLayers != layout.layers) {
        for (const bool which : {false, true})
            m_backgrounds[which] =
                panelBackground(layout, palette(), m_look, font(), devicePixelRatioF(), which);
        m_backgroundSize = size;
        m_backgroundLayers = layout.layers;
        m_titles.clear(); // fitted to another width
    }
    const QString title = panelTitle(rank, state);
    auto fitted = m_titles.constFind(title);
    if (fitted == m_titles.constEnd()) {
        if (m_titles.size() > 256) // titles change with every step: keep the recent ones only
            m_titles.clear();
        QFont bold = font();
        bold.setBold(selected);
        const int width = int(layout.title.width()) - 6;
        fitted = m_titles.insert(title, fittedTitle(title, QFontMetrics(bold), width));
    }
    const PanelLook look{*fitted, memoryFraction(state.memory, maxMemory()), state.running,
                         selected, !selected}; // a bold title is measured as it is drawn
    paintPanel(painter, layout, look, palette(), m_look, m_backgrounds[selected]);
}

void StateView::collectObjects(const PanelLayout &layout, int rank, CellBatch &batch,
                               std::vector<Pending> &pending) const
{
    const replay::RankState &state = m_state.ranks[std::size_t(rank)];
    const double labelHeight = labelMinHeight(font(), m_look.zoom);
    for (const PlacedObject &placed : placeObjects(layout, state)) {
        const ObjectLook look = lookOf(rank, placed.map, placed.index);
        const bool moving = look.opacity < 1.0 || look.scale < 1.0 || look.arrived;
        const bool labelled = placed.rect.height() >= labelHeight;
        if (!moving) {
            const core::Object &object = state.map(placed.map)[placed.index].object();
            addObjectCells(batch, object, placed, batch.colorsOf(object, layers(), m_look.colors()));
        }
        if (moving || labelled)
            pending.push_back({rank, placed, look, moving, labelled});
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
                        {1.0 - m_progress, 1.0, false}, m_look);
}

// Over every panel: each object in the air, gray until it nears its slot.
void StateView::paintTravels(QPainter &painter) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    for (const Travel &travel : m_travels) {
        const core::Object &object = m_state.ranks[std::size_t(travel.to)]
                                         .map(travel.map)[travel.index]
                                         .object();
        const QColor color = travelColor(objectColor(object, layers(), m_look.colors()), m_progress,
                                               m_look.colors());
        painter.setPen(QPen(color.darker(150), 1));
        painter.setBrush(color);
        painter.drawRoundedRect(travelRect(travel.start, travel.end, m_progress), 2, 2);
    }
    painter.restore();
}

} // namespace rankstep::gui
