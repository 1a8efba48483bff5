// SPDX-License-Identifier: MIT
#include "stateview.h"

#include "appearance.h"
#include "runsession.h"

#include "staterankpicker.h"
#include "statesummary.h"
#include "statetext.h"
#include "tooltips.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>
#include <utility>

namespace rankstep::gui {
namespace {

constexpr std::size_t kEveryRankUpTo = 256; // ranks whose maps the view holds all of

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
    , m_focusBox(new QComboBox(this))
{
    m_focusBox->setObjectName(QStringLiteral("stateFocus"));
    m_focusBox->setToolTip(tr("Show one rank large beside the others (or double-click a panel)"));
    m_focusBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_focusBox->hide(); // shown with a state
    connect(m_focusBox, &QComboBox::activated, this, &StateView::onFocusChosen);
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
    connect(&appearance, &Appearance::lookChanged, this, &StateView::placeHeader);
    connect(&session, &RunSession::shownRanksChanged, this, [this] {
        m_travels.clear();
        retakeState();
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
    m_keysValues = m_session.derived().keysValues(); // made on the open's worker
    m_state = {};
    m_previous = {};
    m_changes = {};
    m_travels.clear();
    updateFocusBox();
    update();
}

void StateView::setState(const replay::RunState &state)
{
    m_animation->stop();
    // Swapped rather than moved: the copy then fills the buffers of the state before last.
    std::swap(m_previous, m_state);
    takeState(state);
    updatePicker();
    updateFocusBox();
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

// Up to 256 ranks every rank's state; beyond, every rank's clock, memory and place but the maps
// of the ranks with a panel only: at 16,384 ranks the view shows a few, and copying every rank's
// maps was the largest part of a step.
void StateView::takeState(const replay::RunState &state)
{
    if (state.ranks.size() <= kEveryRankUpTo) {
        m_state = state;
        return;
    }
    m_state.position = state.position;
    m_state.cut = state.cut;
    m_state.time = state.time;
    m_state.event = state.event;
    m_state.ranks.resize(state.ranks.size());
    std::vector<int> shown = visibleRanks();
    if (m_selected >= 0)
        shown.push_back(m_selected); // its panel large when focusing
    std::sort(shown.begin(), shown.end());
    shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
    auto next = shown.begin();
    for (std::size_t r = 0; r < state.ranks.size(); ++r) {
        const replay::RankState &from = state.ranks[r];
        replay::RankState &to = m_state.ranks[r];
        for (; next != shown.end() && *next < int(r); ++next) {
        }
        if (next != shown.end() && *next == int(r)) {
            to = from;
            continue;
        }
        for (auto &map : to.maps)
            map.clear(); // no panel: nothing to draw
        to.memory = from.memory;
        to.clock = from.clock;
        to.running = from.running;
        to.event = from.event;
        to.line = from.line;
    }
}

// The ranks with a panel changed: their maps from the stepper's state (of a run so large that
// the view holds the shown ranks' only), with no change to fade in.
void StateView::retakeState()
{
    StepController &step = m_session.stepper();
    if (!m_trace || m_state.ranks.size() <= kEveryRankUpTo || !step.cursor() ||
        step.trace() != m_trace)
        return;
    takeState(step.state());
    m_previous = m_state;
    m_changes = StateChanges(m_previous, m_state, m_trace.get(), visibleRanks());
}

void StateView::setSelectedRank(int rank)
{
    if (rank == m_selected)
        return;
    m_selected = rank;
    m_travels.clear(); // a focus moves the panels
    retakeState();
    updateFocusBox();
    update();
}

int StateView::focusedRank() const
{
    if (!m_focus || m_state.ranks.empty())
        return -1;
    if (m_selected >= 0 && std::size_t(m_selected) < m_state.ranks.size())
        return m_selected;
    const std::vector<int> visible = visibleRanks();
    return visible.empty() ? 0 : visible.front();
}

void StateView::setFocusing(bool focus)
{
    if (focus == m_focus)
        return;
    m_focus = focus;
    m_travels.clear();
    updateFocusBox();
    update();
}

void StateView::onFocusChosen(int index)
{
    const int rank = m_focusBox->itemData(index).toInt();
    if (rank < 0)
        return setFocusing(false);
    setSelectedRank(rank);
    Q_EMIT rankSelected(rank); // the session's selection: every view highlights it
    setFocusing(true);
}

// "All ranks", then "Rank 3 large" for each rank of the run, the focused one current.
void StateView::updateFocusBox()
{
    const int count = int(m_state.ranks.size());
    const bool shown = m_trace && count > 1;
    if (shown && m_focusBox->count() != count + 1) {
        m_focusBox->clear();
        m_focusBox->addItem(tr("All ranks"), -1);
        for (int rank = 0; rank < count; ++rank)
            m_focusBox->addItem(tr("Rank %1 large").arg(rank), rank);
    }
    if (shown)
        m_focusBox->setCurrentIndex(focusedRank() + 1);
    if (shown != !m_focusBox->isHidden()) {
        m_focusBox->setVisible(shown);
        placeHeader();
    }
}

void StateView::placeHeader()
{
    const QSize box = m_focusBox->sizeHint();
    const int margin = 4;
    m_focusBox->setGeometry(width() - box.width() - margin, 2, box.width(), box.height());
    // The picker up to the focus box (its complaint needs room), the key of the kinds below.
    m_picker->setGeometry(0, 0, std::max(0, m_focusBox->x() - margin),
                          m_picker->sizeHint().height());
    update();
}

std::optional<core::SimTime> StateView::shownTime() const
{
    if (!m_trace || m_state.ranks.empty() || !m_session.stepper().cursor())
        return std::nullopt;
    // The clock its panels show: one for every rank, or (by scheduler turn, each rank at its
    // own) the one the others are told theirs differs from.
    const core::SimTime first = m_state.ranks.front().clock;
    for (const replay::RankState &rank : m_state.ranks)
        if (rank.clock != first)
            return m_state.time.value_or(core::SimTime());
    return first;
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
    placeHeader();
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

// The line of the focus box (and of the picker, when shown), then lines of their own for the key
// of the kinds where its words do not fit beside them: as many as its words take (at 1500x940
// FSDP's pane takes two) while they take at most an eighth of the view's height and the panels
// below still label their objects; else its short names ("w", "opt") beside the box, or on a
// line below it (presenting at 1280x800, the quiz's rank shown large keeps its objects
// labelled). Beside the box the short names named no kind at 1500x940.
int StateView::keyLines() const
{
    const double beside = m_focusBox->x() - 2 * kPanelGap;
    if (m_picker->isHidden() && kindKeyWidth(font(), m_look, true, m_keysValues) <= beside)
        return 0;
    const int brief =
        !m_picker->isHidden() || kindKeyWidth(font(), m_look, false, m_keysValues) > beside ? 1 : 0;
    if (keyBesideLines() == 2)
        return 0;
    const int lines = kindKeyLines(font(), m_look, width() - 2 * kPanelGap, m_keysValues);
    const double line = kindKeyLine(m_look);
    if (lines * line > height() / 8.0)
        return brief;
    const auto fitBelow = [&](int keyLines) {
        const QRectF grid = stateGridArea(QRectF(rect()).adjusted(0, headerHeight(keyLines), 0, 0));
        for (const PanelSlot &slot :
             statePanelSlots(grid, visibleRanks(), focusedRank(), stateLayers(m_trace.get()),
                             statePanelLeastWidth(visibleRanks(), font())))
            if (!objectsFit(slot.layout, kindLabelSize(font(), m_look.zoom)))
                return false;
        return true;
    };
    return fitBelow(lines) || !fitBelow(brief) ? lines : brief;
}

// How many lines the key's words take beside the focus box: 2 where they wrap into two lines
// there (FSDP's pane at 1500x940, where lines of their own, or a taller line of the box, would
// cost the panels their labels: the two lines share the box's height), else 1.
int StateView::keyBesideLines() const
{
    const double beside = m_focusBox->x() - 3 * kPanelGap; // keyArea()'s width there
    return m_picker->isHidden() && !m_focusBox->isHidden() &&
                   kindKeyLines(font(), m_look, beside, m_keysValues) == 2
               ? 2
               : 1;
}

// The header's height with `keyLines` lines of the key below the focus box's line.
int StateView::headerHeight(int keyLines) const
{
    int height = !m_focusBox->isHidden() ? m_focusBox->sizeHint().height() + 4 : 0;
    if (!m_picker->isHidden())
        height = std::max(height, m_picker->sizeHint().height());
    height += int(keyLines * kindKeyLine(m_look));
    return std::max(height, int(m_look.scaled(18)));
}

QRectF StateView::headerArea() const
{
    if (m_state.ranks.empty() || !m_trace)
        return {};
    return QRectF(0, 0, width(), headerHeight(keyLines()));
}

QRectF StateView::keyArea() const
{
    const QRectF header = headerArea();
    if (const int lines = keyLines()) {
        const double line = lines * kindKeyLine(m_look);
        return QRectF(kPanelGap, header.bottom() - line, std::max(0.0, width() - 2 * kPanelGap),
                      line);
    }
    const double right =
        !m_focusBox->isHidden() ? m_focusBox->x() - kPanelGap : width() - kPanelGap;
    return QRectF(kPanelGap, header.top(), std::max(0.0, right - kPanelGap), header.height());
}

QRectF StateView::gridArea() const
{
    return stateGridArea(QRectF(rect()).adjusted(0, headerArea().bottom(), 0, 0));
}

std::vector<PanelSlot> StateView::panelSlots() const
{
    const std::vector<int> ranks = visibleRanks();
    return statePanelSlots(gridArea(), ranks, focusedRank(), stateLayers(m_trace.get()),
                           statePanelLeastWidth(ranks, font()));
}

std::optional<PanelSlot> StateView::slotOf(int rank) const
{
    for (const PanelSlot &slot : panelSlots())
        if (slot.rank == rank)
            return slot;
    return std::nullopt;
}

bool StateView::showsSummary(int rank) const
{
    const auto slot = slotOf(rank);
    return slot && !objectsFit(slot->layout, kindLabelSize(font(), m_look.zoom));
}

QRectF StateView::panelRectOf(int rank) const
{
    const auto slot = slotOf(rank);
    return slot ? slot->layout.frame : QRectF();
}

QRegion StateView::animatedRegion() const
{
    QRegion region;
    for (const PanelSlot &slot : panelSlots())
        if (m_changes.anyFor(slot.rank))
            region += slot.layout.frame.toAlignedRect();
    for (const Travel &travel : m_travels) // the way between the panels
        region += travel.start.united(travel.end).adjusted(-2, -2, 2, 2).toAlignedRect();
    return region;
}

int StateView::rankAt(QPointF position) const
{
    for (const PanelSlot &slot : panelSlots())
        if (slot.layout.frame.contains(position))
            return slot.rank;
    return -1;
}

std::optional<StateView::Hit> StateView::objectAt(QPointF position) const
{
    const int rank = rankAt(position);
    if (rank < 0 || showsSummary(rank))
        return std::nullopt;
    const auto placed = placeObjects(slotOf(rank)->layout, m_state.ranks[std::size_t(rank)]);
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
    if (!hit && showsSummary(rank))
        return panelToolTip(rank, m_state.ranks[std::size_t(rank)],
                            stateMaxMemory(m_trace.get(), m_state)) +
               QLatin1Char('\n') + tr("Click to show it large");
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
    // A summary is a panel too small to show: clicking it asks to see it.
    const bool show = showsSummary(rank);
    setSelectedRank(rank);
    Q_EMIT rankSelected(rank);
    if (show)
        setFocusing(true);
}

void StateView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int rank = rankAt(event->position());
    if (rank < 0)
        return QWidget::mouseDoubleClickEvent(event);
    // On the large panel: every panel alike again; on another: that one large.
    const bool unfocus = m_focus && rank == focusedRank();
    setSelectedRank(rank);
    Q_EMIT rankSelected(rank);
    setFocusing(!unfocus);
}

void StateView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeHeader();
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
    // A frame of an animation paints a few panels: what it cut adds to the whole paint's.
    if (event->region().contains(rect()))
        m_elided.clear();
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
    scene.focus = focusedRank();
    QStringList elided;
    scene.elided = &elided;
    scene.previous = &m_previous;
    scene.changes = &m_changes;
    scene.progress = m_progress;
    scene.travels = &m_travels;
    if (m_session.units() == TraceUnits::Seconds)
        scene.timeUnit = timeUnitName(m_session.units());
    m_cache.devicePixelRatio = devicePixelRatioF();
    paintStatePanels(painter, scene, &m_cache, event->region());
    if (event->region().intersects(keyArea().toAlignedRect())) {
        painter.setFont(font());
        paintKindKey(painter, keyArea(), palette(), m_look, &elided,
                     keyLines() == 0 ? keyBesideLines() : 0, m_keysValues);
    }
    for (const QString &text : elided)
        m_elided.note(text);
}

} // namespace rankstep::gui
