// SPDX-License-Identifier: MIT
#include "legendbar.h"

#include "appearance.h"
#include "legendpainter.h"
#include "runsession.h"
#include "stategeometry.h"
#include "staterankpicker.h"

#include <QLineEdit>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

constexpr int kMargin = 6;

} // namespace

LegendBar::LegendBar(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_picker(new StateRankPicker(this))
{
    setAccessibleName(tr("Legend"));
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    m_picker->hide();
    m_picker->field()->hide(); // the button's list is enough here: the legend keeps its line
    connect(&session, &RunSession::traceChanged, this, &LegendBar::onTraceChanged);
    connect(&session, &RunSession::shownRanksChanged, this, &LegendBar::updatePicker);
    connect(m_picker, &StateRankPicker::ranksChosen, &session, &RunSession::setShownRanks);
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        updateGeometry();
        update();
    });
}

void LegendBar::onTraceChanged()
{
    const auto &trace = m_session.trace();
    m_layers = trace ? std::max(1, trace->config.layers) : 2;
    m_splitBackward = m_session.derived().splitBackward();
    m_allToAll = m_session.derived().allToAll();
    updatePicker();
    updateGeometry();
    update();
}

void LegendBar::updatePicker()
{
    const auto &trace = m_session.trace();
    const int ranks = trace ? trace->config.ranks : 0;
    const bool many = ranks >= StateRankPicker::kFromRanks;
    if (many) {
        std::vector<int> shown = m_session.shownRanks();
        if (shown.empty())
            for (int rank = 0; rank < ranks; ++rank)
                shown.push_back(rank);
        m_picker->setRanks(ranks, std::max(ranks, kMaxVisibleRanks), shown);
    }
    if (many != m_picker->isVisibleTo(this)) {
        m_picker->setVisible(many);
        updateGeometry();
    }
    resizeEvent(nullptr);
}

int LegendBar::legendWidth(int width) const
{
    const int picker = m_picker->isVisibleTo(this) ? m_picker->sizeHint().width() : 0;
    return std::max(80, width - picker - 2 * kMargin);
}

QRect LegendBar::legendRect() const
{
    return QRect(kMargin, 2, legendWidth(width()), height() - 4);
}

int LegendBar::heightForWidth(int width) const
{
    LegendScene scene{m_layers, m_look, palette(), font(), m_splitBackward, m_allToAll};
    const int legend = int(std::ceil(legendHeight(scene, legendWidth(width)))) + 4;
    const int picker = m_picker->isVisibleTo(this) ? m_picker->sizeHint().height() : 0;
    return std::max(legend, picker);
}

QSize LegendBar::sizeHint() const
{
    return {800, heightForWidth(std::max(width(), 800))};
}

QSize LegendBar::minimumSizeHint() const
{
    return {200, heightForWidth(std::max(width(), 200))};
}

// The picker asks for another size when its text or its font changed (a zoom, a new choice of
// ranks): placed at the size it asked for before, its button was cut.
bool LegendBar::event(QEvent *event)
{
    if (event->type() == QEvent::LayoutRequest) {
        resizeEvent(nullptr);
        update();
    }
    return QWidget::event(event);
}

void LegendBar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    paintLegend(painter, legendRect(),
                LegendScene{m_layers, m_look, palette(), font(), m_splitBackward, m_allToAll});
}

void LegendBar::resizeEvent(QResizeEvent *event)
{
    if (event)
        QWidget::resizeEvent(event);
    const QSize hint = m_picker->sizeHint();
    m_picker->setGeometry(width() - hint.width(), 0, hint.width(),
                          std::min(height(), hint.height()));
    const int wanted = heightForWidth(width());
    if (wanted != height())
        updateGeometry();
}

} // namespace rankstep::gui
