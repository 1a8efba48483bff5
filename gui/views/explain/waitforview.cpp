// SPDX-License-Identifier: MIT
#include "waitforview.h"

#include "tooltips.h"

#include "appearance.h"
#include "runsession.h"

#include "palette.h"
#include "waitforgeometry.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr double kMargin = 12;
constexpr double kTitleHeight = 30;
constexpr double kLegendHeight = 34; // two lines when the view is narrow
constexpr double kRadius = 8;
const QColor kFinished(0x9e, 0x9e, 0x9e);

} // namespace

WaitForView::WaitForView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent), m_session(session), m_appearance(appearance), m_look(appearance.look())
{
    connect(&session, &RunSession::traceChanged, this, &WaitForView::onTraceChanged);
    connect(this, &WaitForView::rankActivated, &session,
            [this](int rank) { m_session.setSelectedRank(rank); });
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        update();
    });
    setObjectName(QStringLiteral("waitForView"));
    setMouseTracking(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void WaitForView::onTraceChanged()
{
    const TracePtr &trace = m_session.trace();
    m_trace = trace && trace->diagnosis ? trace : nullptr;
    m_arrows = hasDiagnosis() ? waitArrows(*m_trace->diagnosis) : std::vector<WaitArrow>();
    update();
}

bool WaitForView::hasDiagnosis() const
{
    return m_trace && m_trace->diagnosis && !m_trace->diagnosis->ranks.empty();
}

QRectF WaitForView::titleRect() const
{
    return QRectF(kMargin, kMargin / 2, width() - 2 * kMargin, kTitleHeight);
}

QFont WaitForView::titleFont() const
{
    QFont title = font();
    title.setBold(true);
    const double normal = title.pointSizeF();
    if (normal <= 0 || !hasDiagnosis())
        return title;
    // A narrow pane (presenting at 1280x800) takes the title down towards the text's size before
    // it cuts it: "Deadlock: no rank can go on" stays whole.
    const QString text = waitForTitle(*m_trace->diagnosis);
    const double width = titleRect().width();
    for (double size = normal * 1.25; size > normal; size *= 0.92) {
        title.setPointSizeF(size);
        if (QFontMetricsF(title).horizontalAdvance(text) <= width)
            return title;
    }
    title.setPointSizeF(normal);
    return title;
}

std::vector<QRectF> WaitForView::nodeRects() const
{
    if (!hasDiagnosis())
        return {};
    const QRectF area(kMargin, kMargin / 2 + kTitleHeight + kMargin / 2, width() - 2 * kMargin,
                      height() - kTitleHeight - kLegendHeight - 2 * kMargin);
    // Laid out for the unzoomed size, then enlarged: a node grows with the text it holds, so that
    // presenting at 150% keeps whole captions ("waits in allreduce(layer 0)") where they fit.
    const double zoom = std::max(1.0, m_look.zoom);
    std::vector<QRectF> nodes = waitForNodes(int(m_trace->diagnosis->ranks.size()),
                                             QRectF(area.topLeft(), area.size() / zoom));
    for (QRectF &node : nodes)
        node =
            QRectF(area.topLeft() + (node.topLeft() - area.topLeft()) * zoom, node.size() * zoom);
    return nodes;
}

const core::RankWait *WaitForView::waitOf(int rank) const
{
    if (!hasDiagnosis())
        return nullptr;
    const auto &ranks = m_trace->diagnosis->ranks;
    const auto found = std::find_if(ranks.begin(), ranks.end(),
                                    [rank](const core::RankWait &w) { return w.rank == rank; });
    return found == ranks.end() ? nullptr : &*found;
}

QRectF WaitForView::nodeRectOf(int rank) const
{
    const core::RankWait *wait = waitOf(rank);
    if (!wait)
        return {};
    return nodeRects()[std::size_t(wait - m_trace->diagnosis->ranks.data())];
}

int WaitForView::rankAt(QPointF position) const
{
    const auto index = nodeAt(nodeRects(), position);
    return index ? m_trace->diagnosis->ranks[std::size_t(*index)].rank : -1;
}

QString WaitForView::captionOf(int rank) const
{
    const core::RankWait *wait = waitOf(rank);
    return wait ? waitCaption(*wait, *m_trace->diagnosis) : QString();
}

QString WaitForView::toolTipAt(QPointF position) const
{
    const core::RankWait *wait = waitOf(rankAt(position));
    return wait ? waitToolTip(*wait, *m_trace->diagnosis) : QString();
}

void WaitForView::mousePressEvent(QMouseEvent *event)
{
    const core::RankWait *wait = waitOf(rankAt(event->position()));
    if (!wait || event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    Q_EMIT rankActivated(wait->rank, wait->finished ? 0 : wait->line);
}

bool WaitForView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        answerToolTip(*this, *help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(event);
}

void WaitForView::paintEvent(QPaintEvent * /*event*/)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!hasDiagnosis()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No hang in this run."));
        return;
    }
    const QString title = waitForTitle(*m_trace->diagnosis);
    const QRectF titleArea = titleRect();
    const QFont titleFont = this->titleFont();
    painter.setFont(titleFont);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(titleArea, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(titleFont).elidedText(title, Qt::ElideRight, titleArea.width()));
    painter.setFont(font());
    const std::vector<QRectF> nodes = nodeRects();
    paintArrows(painter, nodes);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        paintNode(painter, nodes[i], m_trace->diagnosis->ranks[i]);
    paintLegend(painter);
}

void WaitForView::paintArrows(QPainter &painter, const std::vector<QRectF> &nodes) const
{
    const QColor ink = palette().color(QPalette::Text);
    const auto rectOf = [&](int rank) {
        const core::RankWait *wait = waitOf(rank);
        return wait ? nodes[std::size_t(wait - m_trace->diagnosis->ranks.data())] : QRectF();
    };
    for (const WaitArrow &arrow : m_arrows) {
        const QRectF from = rectOf(arrow.from);
        const QRectF to = rectOf(arrow.to);
        if (from.isEmpty() || to.isEmpty())
            continue;
        // Two arrows between one pair (each waits on the other) sit side by side.
        const bool mutual = std::any_of(m_arrows.begin(), m_arrows.end(), [&](const WaitArrow &a) {
            return a.from == arrow.to && a.to == arrow.from;
        });
        const QLineF line = arrowBetween(from, to, 3, mutual ? 6 : 0);
        if (line.length() < 1)
            continue;
        QPen pen(ink, m_look.scaled(arrow.anySource ? 1.2 : 2.2));
        if (arrow.anySource)
            pen.setStyle(Qt::DashLine);
        painter.setPen(pen);
        painter.drawLine(line);
        const auto [left, right] = arrowHead(line, arrow.anySource ? 9 : 12);
        pen.setStyle(Qt::SolidLine);
        painter.setPen(pen);
        painter.drawLine(left);
        painter.drawLine(right);
    }
}

void WaitForView::paintNode(QPainter &painter, const QRectF &rect, const core::RankWait &wait) const
{
    // A finished rank is pale with a dashed gray outline, unlike any rank color (gray included).
    const QColor color = wait.finished ? kFinished : m_look.colors().rank(wait.rank);
    QPen outline(color.darker(wait.finished ? 120 : 140), m_look.scaled(1.5));
    if (wait.finished)
        outline.setStyle(Qt::DashLine);
    painter.setPen(outline);
    painter.setBrush(wait.finished ? Palette::faded(color, 0.8) : Palette::faded(color, 0.25));
    painter.drawRoundedRect(rect, kRadius, kRadius);
    painter.setPen(Palette::textOn(painter.brush().color()));
    const QRectF inner = rect.adjusted(4, 3, -4, -3);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QFontMetricsF boldMetrics(bold);
    QString name = tr("rank %1").arg(wait.rank);
    if (boldMetrics.horizontalAdvance(name) > inner.width()) // a compact node: the number only
        name = QString::number(wait.rank);
    const QRectF head(inner.left(), inner.top(), inner.width(), boldMetrics.height());
    painter.drawText(head, Qt::AlignHCenter | Qt::AlignTop, name);
    painter.setFont(font());
    paintCaption(painter, inner.adjusted(0, head.height(), 0, 0), wait);
}

void WaitForView::paintCaption(QPainter &painter, const QRectF &body,
                               const core::RankWait &wait) const
{
    const QFontMetricsF metrics(font());
    if (body.height() < metrics.height() * 0.8)
        return; // no room: the tooltip tells the rest
    QString caption = waitCaption(wait, *m_trace->diagnosis);
    if (body.height() < metrics.height() * 1.9) { // one line: as much of it as fits
        painter.drawText(body, Qt::AlignHCenter | Qt::AlignTop,
                         metrics.elidedText(caption, Qt::ElideRight, body.width()));
        return;
    }
    // Wrapped, a number stays with its word ("layer 0", "rank 2") and the line goes on its own.
    caption.replace(QRegularExpression(QStringLiteral(" (\\d)")), QStringLiteral("\u00a0\\1"));
    if (metrics.horizontalAdvance(caption) > body.width())
        caption.replace(QStringLiteral(" · "), QStringLiteral("\n"));
    painter.drawText(body, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, caption);
}

void WaitForView::paintLegend(QPainter &painter) const
{
    const QRectF legend(kMargin, height() - kLegendHeight - kMargin / 2, width() - 2 * kMargin,
                        kLegendHeight);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const QString solid = tr("→ waits on");
    const QString dashed = tr("- - → waits for a message from any rank");
    const QString oneLine = solid + QStringLiteral("     ") + dashed;
    const bool fits = QFontMetricsF(font()).horizontalAdvance(oneLine) <= legend.width();
    painter.drawText(legend, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
                     fits ? oneLine : solid + QLatin1Char('\n') + dashed);
}

} // namespace rankstep::gui
