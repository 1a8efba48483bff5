// SPDX-License-Identifier: MIT
#include "rankoverview.h"

#include "appearance.h"
#include "runsession.h"
#include "tooltips.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStringList>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

constexpr double kRowPoints = 9.0; // the labels' font, at zoom 1
constexpr double kMargin = 6.0;

QString number(int value)
{
    return QLocale().toString(value);
}

// A middle layer's forward color: what the timeline paints a computing block in.
QColor computeColor(const Palette &colors, int layers)
{
    const int count = std::max(layers, 1);
    return colors.layer(count / 2, count);
}

// The pass's grey, darker so that a bin spent communicating reads against an idle one.
QColor communicationColor(const Palette &colors)
{
    return colors.message().darker(160);
}

} // namespace

RankOverview::RankOverview(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_look(appearance.look())
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("rankOverview"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int value) {
        m_firstRow = value;
        update();
    });
    connect(&session, &RunSession::traceChanged, this, &RankOverview::onTraceChanged);
    connect(&session, &RunSession::selectedRankChanged, this, qOverload<>(&QWidget::update));
    connect(&session.stepper(), &StepController::cursorChanged, this,
            qOverload<>(&QWidget::update));
    connect(&appearance, &Appearance::lookChanged, this, [this, &appearance] {
        m_look = appearance.look();
        measureLabels();
        placeScrollBar();
        update();
    });
    onTraceChanged();
}

void RankOverview::onTraceChanged()
{
    m_trace = m_session.trace();
    m_derived = m_session.derivedShared();
    m_open.clear();
    m_layout.reset();
    if (m_trace && m_trace->config.ranks > 0)
        m_layout.emplace(m_trace->config.ranks, m_trace->config.layout);
    rebuildRows();
    // A run too wide for a row (and a panel) per rank: the timeline and the state view start with
    // the first rank and its groups, as if it were chosen here.
    if (m_layout && m_layout->ranks() > kOverviewManyRanks && m_session.shownRanks().empty())
        m_session.setShownRanks(ranksAround(*m_layout, 0, kOverviewShownRanks));
}

void RankOverview::rebuildRows()
{
    m_rows = m_layout ? overviewRows(*m_layout, m_open) : std::vector<OverviewRow>{};
    m_rowHeats.assign(m_rows.size(), std::nullopt);
    m_focusRow = std::clamp(m_focusRow, 0, std::max(0, int(m_rows.size()) - 1));
    measureLabels();
    placeScrollBar();
    update();
}

const RankHeat &RankOverview::heat() const
{
    static const RankHeat none;
    return m_derived ? m_derived->heat() : none; // made once a trace (kOverviewBins)
}

const RowHeat &RankOverview::rowHeatOf(int row) const
{
    std::optional<RowHeat> &cached = m_rowHeats[std::size_t(row)];
    if (!cached)
        cached = rowHeat(heat(), m_rows[std::size_t(row)].ranks);
    return *cached;
}

void RankOverview::measureLabels()
{
    QFont labelFont = font();
    labelFont.setPointSizeF(m_look.scaled(kRowPoints));
    const QFontMetricsF metrics(labelFont);
    double widest = metrics.horizontalAdvance(QStringLiteral("▸ ") + tr("replica %1").arg(0));
    for (const OverviewRow &row : m_rows) // a few thousand at most, measured once a folding
        widest = std::max(widest, metrics.horizontalAdvance(rowLabel(row)));
    m_labelWidth = std::ceil(widest + kMargin + 4);
}

QString RankOverview::hintText() const
{
    return m_rows.size() > 1 && m_rows.front().kind != RowKind::Rank
               ? tr("Click a group to open it, a rank to follow it in every view.")
               : tr("Click a rank to follow it in every view.");
}

RankOverview::HeaderLayout RankOverview::headerLayout() const
{
    QFont plain = font();
    plain.setPointSizeF(m_look.scaled(kRowPoints));
    QFont bold = plain;
    bold.setBold(true);
    const QFontMetricsF metrics(bold);
    const QFontMetricsF plainMetrics(plain);
    const double line = metrics.height();
    const double across = std::max(1.0, width() - 2 * kMargin);
    const auto wrapped = [across](const QFontMetricsF &m, double top, const QString &text) {
        const QRectF needed = m.boundingRect(QRectF(0, 0, across, 1e6), Qt::TextWordWrap, text);
        return QRectF(kMargin, top, across, std::max(m.height(), std::ceil(needed.height())));
    };
    HeaderLayout header;
    header.title = wrapped(metrics, kMargin, title());
    double x = kMargin;
    double top = header.title.bottom();
    const QString names[] = {tr("computing"), tr("communicating"), tr("idle")};
    for (std::size_t key = 0; key < header.names.size(); ++key) {
        const double entry = line * 1.2 + 4 + plainMetrics.horizontalAdvance(names[key]) + 1;
        if (x > kMargin && x + entry > kMargin + across) {
            x = kMargin;
            top += line;
        }
        header.swatches[key] = QRectF(x, top + line * 0.2, line * 1.2, line * 0.6);
        header.names[key] = QRectF(header.swatches[key].right() + 4, top,
                                   plainMetrics.horizontalAdvance(names[key]) + 1, line);
        x = header.names[key].left() + plainMetrics.horizontalAdvance(names[key]) + 3 * kMargin;
    }
    header.hint = wrapped(plainMetrics, top + line, hintText());
    return header;
}

RankOverview::Geometry RankOverview::geometry() const
{
    QFont labelFont = font();
    labelFont.setPointSizeF(m_look.scaled(kRowPoints));
    const QFontMetricsF metrics(labelFont);
    Geometry g;
    g.header = std::ceil(headerLayout().hint.bottom() + kMargin);
    g.rowHeight = std::ceil(metrics.height() + 4);
    g.labelWidth = m_labelWidth;
    const double bar = m_scrollBar->isVisible() ? m_scrollBar->width() : 0.0;
    g.right = std::max(g.labelWidth + 1, width() - bar - kMargin);
    return g;
}

int RankOverview::visibleRowCount() const
{
    const Geometry g = geometry();
    return std::max(1, int((height() - g.header - kMargin) / g.rowHeight));
}

void RankOverview::placeScrollBar()
{
    const int visible = visibleRowCount();
    const int most = std::max(0, int(m_rows.size()) - visible);
    m_scrollBar->setRange(0, most);
    m_scrollBar->setPageStep(visible);
    m_scrollBar->setVisible(most > 0);
    const Geometry g = geometry();
    const int barWidth = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(width() - barWidth, int(g.header), barWidth,
                             std::max(0, height() - int(g.header)));
    m_firstRow = std::clamp(m_firstRow, 0, most);
    m_scrollBar->setValue(m_firstRow);
}

void RankOverview::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeScrollBar();
}

void RankOverview::wheelEvent(QWheelEvent *event)
{
    const int rows = -event->angleDelta().y() / 40; // three rows a notch
    if (rows != 0)
        m_scrollBar->setValue(m_scrollBar->value() + rows);
    event->accept();
}

int RankOverview::rowAt(QPointF position) const
{
    const Geometry g = geometry();
    if (position.y() < g.header || position.x() < 0 || position.x() > g.right)
        return -1;
    const int row = m_firstRow + int((position.y() - g.header) / g.rowHeight);
    return row < int(m_rows.size()) ? row : -1;
}

std::optional<core::SimTime> RankOverview::timeAt(QPointF position) const
{
    const Geometry g = geometry();
    const RankHeat &figures = heat();
    if (position.x() < g.labelWidth || position.x() > g.right || figures.end.ticks() <= 0)
        return std::nullopt;
    const double fraction = (position.x() - g.labelWidth) / std::max(1.0, g.right - g.labelWidth);
    return core::SimTime::fromTicks(std::int64_t(fraction * double(figures.end.ticks())));
}

QRectF RankOverview::rowRect(int row) const
{
    const Geometry g = geometry();
    const int shown = row - m_firstRow;
    if (row < 0 || row >= int(m_rows.size()) || shown < 0 || shown >= visibleRowCount())
        return {};
    return {g.labelWidth, g.header + shown * g.rowHeight, g.right - g.labelWidth, g.rowHeight - 1};
}

QString RankOverview::rowName(const OverviewRow &row) const
{
    const int first = row.ranks.front();
    switch (row.kind) {
        case RowKind::Stage:
            return tr("stage %1").arg(number(m_layout->coords(first).pipeline));
        case RowKind::Replica:
            return tr("replica %1").arg(number(m_layout->coords(first).data));
        case RowKind::Block:
            return tr("ranks %1–%2").arg(number(first), number(row.ranks.back()));
        case RowKind::Rank:
            break;
    }
    return tr("rank %1").arg(number(first));
}

QString RankOverview::rowLabel(const OverviewRow &row) const
{
    const QString fold = row.kind == RowKind::Rank ? QStringLiteral("  ")
                         : row.open                ? QStringLiteral("▾ ")
                                                   : QStringLiteral("▸ ");
    return QString(row.depth * 2, QLatin1Char(' ')) + fold + rowName(row);
}

void RankOverview::toggleRow(int row)
{
    if (row < 0 || row >= int(m_rows.size()) || m_rows[std::size_t(row)].kind == RowKind::Rank)
        return;
    const std::int64_t key = m_rows[std::size_t(row)].key();
    if (!m_open.erase(key))
        m_open.insert(key);
    rebuildRows();
}

void RankOverview::chooseRank(int rank, std::optional<core::SimTime> time)
{
    if (!m_layout || rank < 0 || rank >= m_layout->ranks())
        return;
    m_session.setSelectedRank(rank); // first: the memory chart's band follows its stage
    if (m_layout->ranks() > kOverviewShownRanks)
        m_session.setShownRanks(ranksAround(*m_layout, rank, kOverviewShownRanks));
    if (time)
        m_session.stepper().toTime(*time);
}

void RankOverview::mousePressEvent(QMouseEvent *event)
{
    const int row = rowAt(event->position());
    if (event->button() != Qt::LeftButton || row < 0)
        return QWidget::mousePressEvent(event);
    m_focusRow = row;
    const OverviewRow &clicked = m_rows[std::size_t(row)];
    if (clicked.kind == RowKind::Rank)
        chooseRank(clicked.ranks.front(), timeAt(event->position()));
    else
        toggleRow(row);
    event->accept();
}

void RankOverview::focusOn(int row)
{
    if (m_rows.empty())
        return;
    m_focusRow = std::clamp(row, 0, int(m_rows.size()) - 1);
    if (m_focusRow < m_firstRow)
        m_scrollBar->setValue(m_focusRow);
    else if (m_focusRow >= m_firstRow + visibleRowCount())
        m_scrollBar->setValue(m_focusRow - visibleRowCount() + 1);
    update();
}

void RankOverview::keyPressEvent(QKeyEvent *event)
{
    if (m_rows.empty())
        return QWidget::keyPressEvent(event);
    const OverviewRow &row = m_rows[std::size_t(m_focusRow)];
    switch (event->key()) {
        case Qt::Key_Up:
            focusOn(m_focusRow - 1);
            break;
        case Qt::Key_Down:
            focusOn(m_focusRow + 1);
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_Space:
            if (row.kind == RowKind::Rank)
                chooseRank(row.ranks.front(), std::nullopt);
            else
                toggleRow(m_focusRow);
            break;
        case Qt::Key_Right:
            if (row.kind != RowKind::Rank && !row.open)
                toggleRow(m_focusRow);
            break;
        case Qt::Key_Left:
            if (row.kind != RowKind::Rank && row.open)
                toggleRow(m_focusRow);
            break;
        default:
            return QWidget::keyPressEvent(event);
    }
    event->accept();
}

std::optional<core::SimTime> RankOverview::shownTime() const
{
    if (!m_trace)
        return std::nullopt;
    return m_session.stepper().cursorTime();
}

QString RankOverview::title() const
{
    if (!m_layout)
        return tr("No run yet: run the code to see its ranks here.");
    // One rank is not data parallel (the standard-training lessons read "1 ranks, data parallel").
    if (m_layout->ranks() == 1)
        return tr("1 rank");
    if (m_layout->data() <= 0 || m_layout->layout().isPlain())
        return tr("%1 ranks, data parallel").arg(number(m_layout->ranks()));
    QStringList degrees;
    const auto add = [&](core::Axis axis, const QString &name) {
        if (m_layout->degree(axis) > 1)
            degrees << name.arg(number(m_layout->degree(axis)));
    };
    add(core::Axis::Tensor, tr("tensor %1"));
    add(core::Axis::Context, tr("context %1"));
    add(core::Axis::Pipeline, tr("pipeline %1"));
    degrees << tr("data %1").arg(number(m_layout->data()));
    add(core::Axis::Expert, tr("expert %1"));
    return tr("%1 ranks: %2").arg(number(m_layout->ranks()), degrees.join(QStringLiteral(" × ")));
}

QString RankOverview::toolTipAt(QPointF position) const
{
    const int index = rowAt(position);
    if (index < 0 || !m_layout)
        return {};
    const OverviewRow &row = m_rows[std::size_t(index)];
    QString text;
    if (row.kind == RowKind::Rank) {
        const core::Coords at = m_layout->coords(row.ranks.front());
        text = tr("rank %1: tensor %2, pipeline %3, data %4")
                   .arg(number(row.ranks.front()), number(at.tensor), number(at.pipeline),
                        number(at.data));
    } else {
        text = tr("%1: ranks %2 to %3 (%4 ranks)")
                   .arg(rowName(row), number(row.ranks.front()), number(row.ranks.back()),
                        number(int(row.ranks.size())));
    }
    if (const std::optional<core::SimTime> time = timeAt(position)) {
        const RowHeat &shares = rowHeatOf(index);
        const int bin = heat().binOf(*time);
        const auto percent = [](float share) {
            return number(int(std::lround(share * 100)));
        };
        text += QLatin1Char('\n') +
                tr("at %1 %2: computing %3 %, communicating %4 %, idle %5 %")
                    .arg(QString::fromStdString(time->toString()), timeUnitName(m_session.units()),
                         percent(shares.busy[bin]), percent(shares.comm[bin]),
                         percent(std::max(0.0F, 1.0F - shares.busy[bin] - shares.comm[bin])));
    }
    text += QLatin1Char('\n') + (row.kind == RowKind::Rank
                                     ? tr("Click to follow this rank in every view.")
                                 : row.open ? tr("Click to fold these ranks into one row.")
                                            : tr("Click to open this group."));
    return text;
}

bool RankOverview::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        answerToolTip(*this, *help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(event);
}

QColor RankOverview::cellColor(float busy, float comm) const
{
    const Palette &colors = m_look.colors();
    const QColor idle = palette().color(QPalette::Base);
    const QColor computing = computeColor(colors, m_trace ? m_trace->config.layers : 1);
    const QColor communicating = communicationColor(colors);
    const double rest = std::max(0.0, 1.0 - double(busy) - double(comm));
    const auto mix = [&](int (QColor::*channel)() const noexcept) {
        const double value = double(busy) * (computing.*channel)() +
                             double(comm) * (communicating.*channel)() + rest * (idle.*channel)();
        return std::clamp(int(std::lround(value)), 0, 255);
    };
    return {mix(&QColor::red), mix(&QColor::green), mix(&QColor::blue)};
}

void RankOverview::paintHeader(QPainter &painter, const Geometry &g)
{
    const HeaderLayout header = headerLayout();
    // A word wider than the widget is all that can still be cut.
    const auto drawWrapped = [&](const QRectF &rect, const QString &text) {
        const QRectF needed =
            painter.boundingRect(rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
        if (needed.width() > rect.width() + 0.5 || needed.height() > rect.height() + 0.5)
            m_elided.note(text);
        painter.drawText(rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    };
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    drawWrapped(header.title, title());
    QFont plain = bold;
    plain.setBold(false);
    painter.setFont(plain);
    const std::pair<QColor, QString> keys[] = {{cellColor(1, 0), tr("computing")},
                                               {cellColor(0, 1), tr("communicating")},
                                               {cellColor(0, 0), tr("idle")}};
    for (std::size_t key = 0; key < header.names.size(); ++key) {
        painter.fillRect(header.swatches[key], keys[key].first);
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(header.swatches[key]);
        painter.setPen(palette().color(QPalette::Text));
        if (header.names[key].right() > width() - kMargin + 0.5)
            m_elided.note(keys[key].second);
        painter.drawText(header.names[key], Qt::AlignLeft | Qt::AlignVCenter, keys[key].second);
    }
    painter.setPen(palette().color(QPalette::PlaceholderText));
    drawWrapped(header.hint, hintText());
    painter.setPen(palette().color(QPalette::Text));
    Q_UNUSED(g);
}

void RankOverview::paintRow(QPainter &painter, const Geometry &g, int row, double y)
{
    const OverviewRow &shown = m_rows[std::size_t(row)];
    const int selected = m_session.selectedRank();
    const bool holdsSelected =
        selected >= 0 && std::binary_search(shown.ranks.begin(), shown.ranks.end(), selected);
    QFont labelFont = painter.font();
    labelFont.setBold(holdsSelected);
    painter.setFont(labelFont);
    const QRectF labelRect(kMargin, y, g.labelWidth - kMargin - 2, g.rowHeight);
    const QString label = rowLabel(shown);
    const QString fitted =
        QFontMetricsF(labelFont).elidedText(label, Qt::ElideRight, int(labelRect.width()));
    if (fitted != label)
        m_elided.note(label);
    painter.drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter, fitted);
    if (hasFocus() && row == m_focusRow) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
        painter.drawRect(labelRect.adjusted(-2, 0, 0, -1));
        painter.setPen(palette().color(QPalette::Text));
    }
    const RowHeat &shares = rowHeatOf(row);
    QImage cells(int(shares.busy.size()), 1, QImage::Format_RGB32);
    for (int bin = 0; bin < cells.width(); ++bin)
        cells.setPixel(bin, 0, cellColor(shares.busy[bin], shares.comm[bin]).rgb());
    const QRectF heatRect(g.labelWidth, y, g.right - g.labelWidth, g.rowHeight - 1);
    painter.drawImage(heatRect, cells);
    if (holdsSelected) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), m_look.scaled(2.0)));
        painter.drawRect(heatRect.adjusted(0, 0, -1, -1));
        painter.setPen(palette().color(QPalette::Text));
    }
}

void RankOverview::paintEvent(QPaintEvent * /*event*/)
{
    m_elided.clear();
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    QFont labelFont = font();
    labelFont.setPointSizeF(m_look.scaled(kRowPoints));
    painter.setFont(labelFont);
    painter.setPen(palette().color(QPalette::Text));
    const Geometry g = geometry();
    paintHeader(painter, g);
    painter.setFont(labelFont);
    const int last = std::min(int(m_rows.size()), m_firstRow + visibleRowCount());
    for (int row = m_firstRow; row < last; ++row)
        paintRow(painter, g, row, g.header + (row - m_firstRow) * g.rowHeight);
    const RankHeat &figures = heat();
    if (m_trace && figures.end.ticks() > 0 && last > m_firstRow) {
        const double fraction =
            double(m_session.stepper().cursorTime().ticks()) / double(figures.end.ticks());
        const double x = g.labelWidth + std::clamp(fraction, 0.0, 1.0) * (g.right - g.labelWidth);
        painter.setPen(QPen(palette().color(QPalette::Text), m_look.scaled(1.5)));
        painter.drawLine(QPointF(x, g.header - 2),
                         QPointF(x, g.header + (last - m_firstRow) * g.rowHeight));
    }
}

} // namespace rankstep::gui
