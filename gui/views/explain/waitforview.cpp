// SPDX-License-Identifier: MIT
#include "waitforview.h"

#include "tooltips.h"

#include "appearance.h"
#include "enginetext.h"
#include "runsession.h"

#include "palette.h"
#include "stepcontroller.h"
#include "waitforgeometry.h"
#include "waitforglyphs.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

namespace rankstep::gui {
namespace {

using explain::RankStanding;
using explain::Standing;

constexpr double kMargin = 12;
constexpr double kRadius = 8;
constexpr int kMostDetailLines = 2;
constexpr Standing kStandings[] = {Standing::Stopped, Standing::Waiting, Standing::Finished,
                                   Standing::NotStarted, Standing::Underway};

// One entry of the legend: a standing's mark and word, or an arrow and what it means.
struct LegendItem {
    std::optional<Standing> standing;
    QString text;
    QRectF rect; // in widget pixels
};

// `text` wrapped into `rect`, cut with an ellipsis where it does not fit; `cut` is set then.
QString fitWrapped(const QFontMetricsF &metrics, const QRectF &rect, const QString &text, bool &cut)
{
    const auto fits = [&](const QString &shown) {
        return metrics.boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, shown)
                   .height() <= rect.height() + 0.5;
    };
    cut = !fits(text);
    if (!cut)
        return text;
    QString shown = text;
    while (shown.size() > 1 && !fits(shown + QChar(0x2026)))
        shown.chop(1);
    return shown + QChar(0x2026);
}

} // namespace

std::optional<explain::Hang> hangInWords(const core::Trace &trace)
{
    std::optional<explain::Hang> hang = explain::explainHang(trace);
    if (!hang)
        return hang;
    const auto said = [](const std::string &call) {
        return engineText(call).toStdString();
    };
    hang->call = said(hang->call);
    for (explain::RankStanding &rank : hang->ranks)
        rank.call = said(rank.call);
    return hang;
}

WaitForView::WaitForView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent), m_session(session), m_appearance(appearance), m_look(appearance.look())
{
    connect(&session, &RunSession::traceChanged, this, &WaitForView::onTraceChanged);
    connect(this, &WaitForView::rankActivated, &session,
            [this](int rank) { m_session.setSelectedRank(rank); });
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        placeButton();
        update();
    });
    m_toTheHang = new QPushButton(tr("Show where it hung (End)"), this);
    m_toTheHang->setObjectName(QStringLiteral("toTheHang"));
    m_toTheHang->setToolTip(tr("Move the cursor to the end of the run, where the ranks hung"));
    m_toTheHang->hide();
    connect(m_toTheHang, &QPushButton::clicked, this, [this] { m_session.stepper().end(); });
    connect(&session.stepper(), &StepController::cursorChanged, this, [this] {
        placeButton();
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
    m_hang = m_trace ? hangInWords(*m_trace) : std::nullopt;
    m_arrows = hasDiagnosis() ? waitArrows(*m_hang) : std::vector<WaitArrow>();
    placeButton();
    update();
}

bool WaitForView::beforeTheHang() const
{
    const std::optional<replay::Cursor> cursor = m_session.stepper().cursor();
    return hasDiagnosis() && cursor && !cursor->atEnd();
}

std::optional<core::SimTime> WaitForView::shownTime() const
{
    if (!hasDiagnosis() || beforeTheHang())
        return std::nullopt;
    return m_session.stepper().cursorTime();
}

QString WaitForView::timeText(core::SimTime time) const
{
    // As the step bar says it: a real run's milliseconds, a simulated run's steps without a unit.
    const QString unit =
        m_session.units() == TraceUnits::Seconds ? QStringLiteral(" ms") : QString();
    return QString::fromStdString(time.toString()) + unit;
}

QString WaitForView::noticeText() const
{
    if (!beforeTheHang())
        return {};
    return tr("This is where the run stopped, at its end (t = %1). The other views show t = %2, "
              "before the ranks hung.")
        .arg(timeText(m_session.endTime()), timeText(m_session.stepper().cursorTime()));
}

QRectF WaitForView::noticeRect() const
{
    const QString text = noticeText();
    if (text.isEmpty())
        return {};
    const QRectF detail = detailRect();
    const double top = (detail.isEmpty() ? titleRect().bottom() : detail.bottom()) + kMargin / 2;
    const double width = this->width() - 2 * kMargin;
    const QFontMetricsF metrics(font());
    const double pad = metrics.height() / 3;
    const QRectF wrapped =
        metrics.boundingRect(QRectF(0, 0, width - 2 * pad, 1e6), Qt::TextWordWrap, text);
    const double button = m_toTheHang->sizeHint().height();
    return QRectF(kMargin, top, width, wrapped.height() + button + 3 * pad);
}

void WaitForView::placeButton()
{
    const QRectF notice = noticeRect();
    m_toTheHang->setVisible(!notice.isEmpty());
    if (notice.isEmpty())
        return;
    const QSize size = m_toTheHang->sizeHint();
    const double pad = QFontMetricsF(font()).height() / 3;
    m_toTheHang->setGeometry(int(notice.left() + pad), int(notice.bottom() - pad - size.height()),
                             std::min(size.width(), int(notice.width() - 2 * pad)), size.height());
}

void WaitForView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeButton();
}

bool WaitForView::hasDiagnosis() const
{
    return m_hang && !m_hang->ranks.empty();
}

QString WaitForView::title() const
{
    return hasDiagnosis() ? hangTitle(*m_hang) : QString();
}

QString WaitForView::detail() const
{
    return hasDiagnosis() ? hangDetail(*m_hang) : QString();
}

QRectF WaitForView::titleRect() const
{
    // One line, or two when the whole title does not fit one at the normal size.
    const QFontMetricsF metrics(titleFont());
    const double width = this->width() - 2 * kMargin;
    const int lines = metrics.horizontalAdvance(title()) <= width ? 1 : 2;
    return QRectF(kMargin, kMargin / 2, width, lines * metrics.lineSpacing() + 6);
}

QRectF WaitForView::detailRect() const
{
    const QString text = detail();
    if (text.isEmpty())
        return {};
    const QRectF title = titleRect();
    const QFontMetricsF metrics(font());
    const QRectF wrapped =
        metrics.boundingRect(QRectF(0, 0, title.width(), 1e6), Qt::TextWordWrap, text);
    const double lines = std::clamp(std::ceil(wrapped.height() / metrics.lineSpacing() - 0.01), 1.0,
                                    double(kMostDetailLines));
    return QRectF(title.left(), title.bottom(), title.width(), lines * metrics.lineSpacing());
}

QFont WaitForView::titleFont() const
{
    QFont title = font();
    title.setBold(true);
    const double normal = title.pointSizeF();
    if (normal <= 0 || !hasDiagnosis())
        return title;
    // A narrow pane (presenting at 1280x800) takes the title down towards the text's size before
    // it cuts it.
    const QString text = hangTitle(*m_hang);
    const double width = this->width() - 2 * kMargin;
    for (double size = normal * 1.25; size > normal; size *= 0.92) {
        title.setPointSizeF(size);
        if (QFontMetricsF(title).horizontalAdvance(text) <= width)
            return title;
    }
    title.setPointSizeF(normal);
    return title;
}

// The legend's entries flowed left to right into lines as wide as the view, from `top`: the
// standings the picture shows, then the arrows it draws.
static std::vector<LegendItem> legendItems(const WaitForView &view, const explain::Hang &hang,
                                           const std::vector<WaitArrow> &arrows, double top)
{
    std::vector<LegendItem> items;
    for (const Standing standing : kStandings)
        if (std::any_of(hang.ranks.begin(), hang.ranks.end(),
                        [standing](const RankStanding &s) { return s.standing == standing; }))
            items.push_back({standing, standingName(standing, hang), {}});
    if (std::any_of(arrows.begin(), arrows.end(), [](const WaitArrow &a) { return !a.anySource; }))
        items.push_back({std::nullopt, WaitForView::tr("→ waits on"), {}});
    if (std::any_of(arrows.begin(), arrows.end(), [](const WaitArrow &a) { return a.anySource; }))
        items.push_back(
            {std::nullopt, WaitForView::tr("- - → waits for a message from any rank"), {}});
    const QFontMetricsF metrics(view.font());
    const double line = metrics.height();
    const double gap = metrics.horizontalAdvance(QStringLiteral("    "));
    const double right = view.width() - kMargin;
    QPointF at(kMargin, top);
    for (LegendItem &item : items) {
        const double mark = item.standing ? line * 1.2 : 0;
        const double width = mark + metrics.horizontalAdvance(item.text) + 2;
        if (at.x() > kMargin && at.x() + width > right)
            at = QPointF(kMargin, at.y() + line + 2);
        item.rect = QRectF(at, QSizeF(std::min(width, right - at.x()), line));
        at.rx() += width + gap;
    }
    return items;
}

double WaitForView::legendHeight() const
{
    if (!hasDiagnosis())
        return 0;
    const auto items = legendItems(*this, *m_hang, m_arrows, 0);
    return items.empty() ? 0 : items.back().rect.bottom() + kMargin / 2;
}

std::vector<QRectF> WaitForView::nodeRects() const
{
    if (!hasDiagnosis())
        return {};
    const QRectF detail = detailRect();
    const QRectF notice = noticeRect();
    const double top =
        !notice.isEmpty()
            ? notice.bottom() + kMargin / 2
            : (detail.isEmpty() ? titleRect().bottom() : detail.bottom()) + kMargin / 2;
    const QRectF area(kMargin, top, width() - 2 * kMargin,
                      std::max(1.0, height() - top - legendHeight() - kMargin));
    // Laid out for the unzoomed size, then enlarged: a node grows with the text it holds, so that
    // presenting at 150% keeps whole captions ("waits in allreduce(layer 0)") where they fit.
    const double zoom = std::max(1.0, m_look.zoom);
    std::vector<QRectF> nodes =
        waitForNodes(int(m_hang->ranks.size()), QRectF(area.topLeft(), area.size() / zoom));
    for (QRectF &node : nodes)
        node =
            QRectF(area.topLeft() + (node.topLeft() - area.topLeft()) * zoom, node.size() * zoom);
    return nodes;
}

const RankStanding *WaitForView::standingOf(int rank) const
{
    return hasDiagnosis() ? m_hang->standingOf(rank) : nullptr;
}

QRectF WaitForView::nodeRectOf(int rank) const
{
    const RankStanding *s = standingOf(rank);
    if (!s)
        return {};
    return nodeRects()[std::size_t(s - m_hang->ranks.data())];
}

int WaitForView::rankAt(QPointF position) const
{
    const auto index = nodeAt(nodeRects(), position);
    return index ? m_hang->ranks[std::size_t(*index)].rank : -1;
}

QString WaitForView::captionOf(int rank) const
{
    const RankStanding *s = standingOf(rank);
    return s ? standingCaption(*s, *m_hang) : QString();
}

QString WaitForView::toolTipAt(QPointF position) const
{
    const RankStanding *s = standingOf(rankAt(position));
    return s ? standingToolTip(*s, *m_hang) : QString();
}

void WaitForView::mousePressEvent(QMouseEvent *event)
{
    const RankStanding *s = standingOf(rankAt(event->position()));
    if (!s || event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    Q_EMIT rankActivated(s->rank, s->standing == Standing::Finished ? 0 : s->line);
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
    m_elided.clear();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!hasDiagnosis()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No hang in this run."));
        return;
    }
    paintHeader(painter);
    paintNotice(painter);
    // Before the hang the picture is of a later moment than the other views: faded, under its
    // notice.
    if (beforeTheHang())
        painter.setOpacity(0.35);
    const std::vector<QRectF> nodes = nodeRects();
    paintArrows(painter, nodes);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        paintNode(painter, nodes[i], m_hang->ranks[i]);
    paintLegend(painter);
}

void WaitForView::paintHeader(QPainter &painter)
{
    const QString title = this->title();
    const QRectF titleArea = titleRect();
    const QFont titleFont = this->titleFont();
    bool cut = false;
    const QString shownTitle = fitWrapped(QFontMetricsF(titleFont), titleArea, title, cut);
    if (cut)
        m_elided.note(title);
    painter.setFont(titleFont);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(titleArea, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, shownTitle);
    painter.setFont(font());
    const QRectF detailArea = detailRect();
    if (detailArea.isEmpty())
        return;
    // A number stays with its word ("layer 0", "rank 2") where the line wraps.
    const QString detail = this->detail().replace(QRegularExpression(QStringLiteral(" (\\d)")),
                                                  QStringLiteral("\u00a0\\1"));
    const QString shown = fitWrapped(QFontMetricsF(font()), detailArea, detail, cut);
    if (cut)
        m_elided.note(this->detail());
    painter.drawText(detailArea, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, shown);
}

void WaitForView::paintNotice(QPainter &painter)
{
    const QRectF notice = noticeRect();
    if (notice.isEmpty())
        return;
    const QFontMetricsF metrics(font());
    const double pad = metrics.height() / 3;
    painter.save();
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(palette().color(QPalette::ToolTipBase));
    painter.drawRoundedRect(notice.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    painter.setPen(palette().color(QPalette::ToolTipText));
    const QRectF text(notice.left() + pad, notice.top() + pad, notice.width() - 2 * pad,
                      notice.height() - 3 * pad - m_toTheHang->sizeHint().height());
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, noticeText());
    painter.restore();
}

void WaitForView::paintArrows(QPainter &painter, const std::vector<QRectF> &nodes) const
{
    const QColor ink = palette().color(QPalette::Text);
    const auto rectOf = [&](int rank) {
        const RankStanding *s = standingOf(rank);
        return s ? nodes[std::size_t(s - m_hang->ranks.data())] : QRectF();
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

void WaitForView::paintNode(QPainter &painter, const QRectF &rect, const RankStanding &rank)
{
    const QColor base = palette().color(QPalette::Base);
    const NodeStyle style =
        nodeStyle(rank.standing, m_look.colors().rank(rank.rank), base, m_look.zoom);
    painter.setPen(style.outline);
    painter.setBrush(style.fill);
    const double inset = style.outline.widthF() / 2;
    painter.drawRoundedRect(rect.adjusted(inset, inset, -inset, -inset), kRadius, kRadius);
    const QColor ink = Palette::textOn(style.fill.color());
    painter.setPen(ink);
    const QRectF inner = rect.adjusted(4 + inset, 3 + inset, -4 - inset, -3 - inset);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QFontMetricsF boldMetrics(bold);
    const double mark = boldMetrics.height();
    QString name = tr("rank %1").arg(rank.rank);
    if (boldMetrics.horizontalAdvance(name) + mark * 1.2 > inner.width()) { // the number only
        m_elided.note(name);
        name = QString::number(rank.rank);
    }
    const double nameWidth = boldMetrics.horizontalAdvance(name);
    const double withMark = std::min(inner.width(), nameWidth + mark * 1.2);
    const QRectF head(inner.center().x() - withMark / 2, inner.top(), withMark, mark);
    paintStandingMark(painter, rank.standing, QRectF(head.topLeft(), QSizeF(mark, mark)), ink);
    painter.drawText(head, Qt::AlignRight | Qt::AlignTop, name);
    painter.setFont(font());
    paintCaption(painter, inner.adjusted(0, head.height(), 0, 0), rank);
}

void WaitForView::paintCaption(QPainter &painter, const QRectF &body, const RankStanding &rank)
{
    const QFontMetricsF metrics(font());
    const QString full = standingCaption(rank, *m_hang);
    const CaptionParts parts = standingCaptionParts(rank, *m_hang);
    // A number stays with its word ("layer 0", "rank 2") when a part wraps.
    const auto keep = [](QString part) {
        return part.replace(QRegularExpression(QStringLiteral(" (\\d)")),
                            QStringLiteral("\u00a0\\1"));
    };
    const auto lines = [](std::initializer_list<QString> items) {
        QStringList kept;
        for (const QString &item : items)
            if (!item.isEmpty())
                kept << item;
        return kept.join(QLatin1Char('\n'));
    };
    const QString what = keep(parts.what), on = keep(parts.on), where = parts.where;
    const auto tail = [&](const QString &first) {
        return where.isEmpty() ? first : first + QStringLiteral(" · ") + where;
    };
    const QString name = standingName(rank.standing, *m_hang);
    const QString word = standingWord(rank.standing, *m_hang);
    // The whole caption as it fits best, else what matters most: what the rank does and where
    // (the arrows show on whom), then only a word for its standing. The tooltip has the rest.
    // Each candidate: its text, whether it is the whole caption, whether it may wrap its lines.
    struct Candidate {
        QString text;
        bool whole, wrap;
    };
    const Candidate candidates[] = {
        {full, true, false},
        {lines({what, on.isEmpty() ? where : tail(on)}), true, false},
        {lines({what, on, where}), true, false},
        {lines({what, on, where}), true, true},
        {lines({what, where}), on.isEmpty(), false},
        {what, on.isEmpty() && where.isEmpty(), true},
        {tail(name), false, false},
        {tail(word), false, false},
        {word, false, false},
    };
    const auto fits = [&](const Candidate &c) {
        if (c.wrap) {
            const QRectF needed = metrics.boundingRect(QRectF(0, 0, body.width(), 1e6),
                                                       Qt::AlignHCenter | Qt::TextWordWrap, c.text);
            return needed.height() <= body.height() + 0.5 && needed.width() <= body.width() + 0.5;
        }
        const QStringList rows = c.text.split(QLatin1Char('\n'));
        return double(rows.size()) * metrics.lineSpacing() <= body.height() + 0.5 &&
               std::all_of(rows.begin(), rows.end(), [&](const QString &row) {
                   return metrics.horizontalAdvance(row) <= body.width() + 0.5;
               });
    };
    for (const Candidate &candidate : candidates) {
        if (candidate.text.isEmpty() || !fits(candidate))
            continue;
        if (!candidate.whole)
            m_elided.note(full);
        painter.drawText(
            body,
            int(Qt::AlignHCenter | Qt::AlignTop) | (candidate.wrap ? int(Qt::TextWordWrap) : 0),
            candidate.text);
        return;
    }
    m_elided.note(full); // no room even for a word: the tooltip tells it
    if (body.height() >= metrics.height() * 0.8)
        painter.drawText(body, Qt::AlignHCenter | Qt::AlignTop,
                         metrics.elidedText(word, Qt::ElideRight, body.width()));
}

void WaitForView::paintLegend(QPainter &painter)
{
    const double top = height() - legendHeight();
    const QColor ink = palette().color(QPalette::PlaceholderText);
    const QFontMetricsF metrics(font());
    for (const LegendItem &item : legendItems(*this, *m_hang, m_arrows, top)) {
        QRectF text = item.rect;
        if (item.standing) {
            const double side = metrics.height();
            const QRectF swatch(item.rect.topLeft(), QSizeF(side, side));
            const QColor base = palette().color(QPalette::Base);
            const NodeStyle style =
                nodeStyle(*item.standing, palette().color(QPalette::Mid), base, 1);
            painter.setPen(style.outline);
            painter.setBrush(style.fill);
            painter.drawRoundedRect(swatch.adjusted(1, 1, -1, -1), 3, 3);
            paintStandingMark(painter, *item.standing, swatch.adjusted(2, 2, -2, -2),
                              Palette::textOn(style.fill.color()));
            text.setLeft(text.left() + side * 1.2);
        }
        painter.setPen(ink);
        const QString shown = metrics.elidedText(item.text, Qt::ElideRight, text.width());
        if (shown != item.text)
            m_elided.note(item.text);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, shown);
    }
}

} // namespace rankstep::gui
