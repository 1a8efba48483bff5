// SPDX-License-Identifier: MIT
#include "stateview.h"

#include "appearance.h"
#include "runsession.h"

#include "staterankpicker.h"
#include "statetext.h"
#include "tooltips.h"

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
// A new state that changes more objects of the shown panels than this shows at once, without
// fades or travels. The fade lets the eye follow one step: an operation changes 1-3 objects, a
// time step of all 16 ranks of the pipeline + FSDP lesson at most 36. A jump across a long run
// changes thousands (a random event of FSDP at 192 ranks: 300-9,300), which no one can follow,
// and each frame of their fade cost 8-10 ms (docs/benchmarks.md).
constexpr std::size_t kMaxFadedChanges = 128;

} // namespace

StateView::StateView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_animation(new QVariantAnimation(this))
    , m_picker(new StateRankPicker(this))
{
    connect(&session, &RunSession::traceChanged, this, &StateView::onTraceChanged);
    connect(&session.stepper(), &StepController::stateChanged, this, &StateView::setState);
    connect(&session, &RunSession::selectedRankChanged, this, &StateView::setSelectedRank);
    connect(this, &StateView::rankSelected, &session, &RunSession::setSelectedRank);
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        m_cache.clear(); // the layer bands in the old colors
        update();
    });
    m_picker->hide();
    connect(m_picker, &StateRankPicker::ranksChosen, this, &StateView::setVisibleRanks);
    connect(&session, &RunSession::shownRanksChanged, this, [this] {
        m_travels.clear();
        updatePicker();
        update();
    });
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

void StateView::onTraceChanged()
{
    m_animation->stop();
    m_progress = 1.0;
    m_trace = m_session.trace();
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
    if (m_animated && m_changes.any() && m_changes.count() <= kMaxFadedChanges &&
        !m_previous.ranks.empty() && m_trace) {
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
    m_session.setShownRanks(std::move(ranks)); // every view follows
}

void StateView::updatePicker()
{
    const int count = int(m_state.ranks.size());
    const bool many = count > kMaxVisibleRanks; // fewer: the legend bar's picker is enough
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
    return shownRanks(m_session.shownRanks(), int(m_state.ranks.size()));
}

bool StateView::isAnimating() const
{
    return m_animation->state() == QAbstractAnimation::Running;
}

ObjectLook StateView::lookOf(int rank, core::MapKind map, std::size_t index) const
{
    return stateObjectLook(&m_changes, m_progress, rank, map, index);
}

QRectF StateView::gridArea() const
{
    const double top = !m_picker->isHidden() ? m_picker->geometry().bottom() + 1 : 0;
    return stateGridArea(QRectF(rect()).adjusted(0, top, 0, 0));
}

PanelLayout StateView::layoutOf(int slot) const
{
    return statePanelLayout(gridArea(), int(visibleRanks().size()), slot,
                            stateLayers(m_trace.get()));
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
        return panelToolTip(rank, m_state.ranks[std::size_t(rank)],
                            stateMaxMemory(m_trace.get(), m_state));
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
        m_cache.clear(); // painted in the old colors or font
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
    StateScene scene;
    scene.trace = m_trace.get();
    scene.state = &m_state;
    scene.ranks = visibleRanks();
    scene.area = gridArea();
    scene.palette = palette();
    scene.font = font();
    scene.look = m_look;
    scene.selected = m_selected;
    scene.previous = &m_previous;
    scene.changes = &m_changes;
    scene.progress = m_progress;
    scene.travels = &m_travels;
    if (m_session.units() == TraceUnits::Seconds)
        scene.timeUnit = timeUnitName(m_session.units());
    m_cache.devicePixelRatio = devicePixelRatioF();
    paintStatePanels(painter, scene, &m_cache, event->region());
}

} // namespace rankstep::gui
