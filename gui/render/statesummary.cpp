// SPDX-License-Identifier: MIT
#include "statesummary.h"

#include "kindcolors.h"
#include "memoryseries.h"
#include "palette.h"
#include "statepainter.h"
#include "statetext.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace rankstep::gui {
namespace {

// The context of this file's texts in the translations (resources/translations).
struct StateSummary {
    Q_DECLARE_TR_FUNCTIONS(StateSummary)
};

// The kinds of the key: every run's five, and keys and values where a run has them.
constexpr int kKinds = core::kObjectKindCount;
constexpr int kPlainKinds = int(core::ObjectKind::KeysValues);

void paintSwatchOf(QPainter &painter, const QRectF &swatch, core::ObjectKind kind,
                   const Look &style)
{
    // A middle layer's color: the pattern tells the kind, the label names it.
    core::Object sample;
    sample.kind = kind;
    sample.layer = 1;
    paintKindSwatch(painter, swatch, kind, objectColor(sample, 2, style.colors()));
}

template <typename Note>
void paintFlow(QPainter &painter, const QRectF &body, const std::vector<KindTally> &tallies,
               double line, const Look &style, const Note &note)
{
    const QFontMetricsF metrics(painter.font());
    const double side = std::min(line - 3, style.scaled(10)), gap = style.scaled(3);
    const TallyFlow flow = flowTallies(body, tallies, line, metrics, style);
    for (std::size_t i = 0; i < tallies.size(); ++i) {
        note(tallyTexts(tallies[i]).front());
        if (i >= flow.items.size())
            continue;
        const QRectF &item = flow.items[i];
        paintSwatchOf(painter, QRectF(item.left(), item.center().y() - side / 2, side, side),
                      tallies[i].kind, style);
        painter.drawText(item.adjusted(side + gap, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                         flowText(tallies[i], flow.countOnly));
    }
}

} // namespace

std::vector<KindTally> kindTallies(const replay::RankState &rank, const core::Sizes &sizes)
{
    std::array<KindTally, kKinds> all;
    for (int kind = 0; kind < kKinds; ++kind)
        all[std::size_t(kind)].kind = core::ObjectKind(kind);
    for (const auto &entries : rank.maps)
        for (const replay::MapEntry &entry : entries) {
            const core::Object &object = entry.object();
            KindTally &tally = all[std::size_t(object.kind)];
            ++tally.count;
            tally.bytes += core::memoryOf(object, sizes);
        }
    std::vector<KindTally> held;
    for (const KindTally &tally : all)
        if (tally.count > 0)
            held.push_back(tally);
    return held;
}

std::vector<QRectF> summaryRows(const QRectF &body, int count, double lineHeight)
{
    std::vector<QRectF> rows;
    if (!(lineHeight > 0))
        return rows;
    const int fit = int(std::floor(body.height() / lineHeight + 1e-9));
    for (int i = 0; i < std::min(count, fit); ++i)
        rows.emplace_back(body.left(), body.top() + i * lineHeight, body.width(), lineHeight);
    return rows;
}

std::vector<QRectF> flowItems(const QRectF &body, const std::vector<double> &widths,
                              double lineHeight, double spacing)
{
    std::vector<QRectF> placed;
    double left = body.left(), top = body.top();
    for (const double width : widths) {
        if (left > body.left() && left + width > body.right() + 1e-9) { // a new line
            left = body.left();
            top += lineHeight;
        }
        if (top + lineHeight > body.bottom() + 1e-9 || width > body.width() + 1e-9)
            break;
        placed.emplace_back(left, top, width, lineHeight);
        left += width + spacing;
    }
    return placed;
}

QString flowText(const KindTally &tally, bool countOnly)
{
    return countOnly ? QString::number(tally.count) : tallyTexts(tally).back();
}

TallyFlow flowTallies(const QRectF &body, const std::vector<KindTally> &tallies, double line,
                      const QFontMetricsF &metrics, const Look &style)
{
    const double side = std::min(line - 3, style.scaled(10)), gap = style.scaled(3);
    TallyFlow best;
    for (const auto &[countOnly, spacing] : {std::pair{false, 6.0}, std::pair{false, 3.0},
                                             std::pair{true, 6.0}, std::pair{true, 3.0}}) {
        std::vector<double> widths;
        for (const KindTally &tally : tallies)
            widths.push_back(side + gap + metrics.horizontalAdvance(flowText(tally, countOnly)));
        std::vector<QRectF> placed = flowItems(body, widths, line, style.scaled(spacing));
        const bool all = placed.size() >= tallies.size();
        if (all || placed.size() > best.items.size())
            best = {std::move(placed), countOnly};
        if (all)
            break;
    }
    return best;
}

QStringList tallyTexts(const KindTally &tally)
{
    const QString prefix = kindPrefix(tally.kind);
    const QString count =
        StateSummary::tr("%1 · %2").arg(QString::number(tally.count), formatMemory(tally.bytes));
    return {StateSummary::tr("%1 %2: %3").arg(prefix, kindPlural(tally.kind), count),
            QStringLiteral("%1 %2").arg(prefix, count),
            QStringLiteral("%1 %2").arg(prefix).arg(tally.count)};
}

void paintSummary(QPainter &painter, const QRectF &body, const std::vector<KindTally> &tallies,
                  const QPalette &palette, const Look &style, QStringList *elided, bool small)
{
    const auto note = [elided](const QString &text) {
        if (elided && !elided->contains(text))
            elided->append(text);
    };
    painter.save();
    const int count = std::max(1, int(tallies.size()));
    const auto lineOf = [](const QFont &font) {
        return std::ceil(QFontMetricsF(font).height());
    };
    // Rows that do not all fit take the objects' label font, smaller than the panel's.
    QFont smaller = painter.font();
    smaller.setPointSizeF(std::min(smaller.pointSizeF(), 7 * style.zoom));
    if (small || int(summaryRows(body, count, lineOf(painter.font())).size()) < count)
        painter.setFont(smaller);
    const QFontMetricsF metrics(painter.font());
    const double line = lineOf(painter.font());
    const std::vector<QRectF> rows = summaryRows(body, count, line);
    if (tallies.empty()) {
        const QString nothing = StateSummary::tr("holds nothing");
        if (rows.empty())
            note(nothing);
        painter.setPen(palette.color(QPalette::PlaceholderText));
        if (!rows.empty())
            painter.drawText(rows.front(), Qt::AlignLeft | Qt::AlignVCenter, nothing);
    }
    if (rows.size() < tallies.size()) {
        painter.setPen(palette.color(QPalette::Text));
        paintFlow(painter, body, tallies, line, style, note);
        painter.restore();
        return;
    }
    for (std::size_t i = 0; i < tallies.size(); ++i) {
        const QStringList texts = tallyTexts(tallies[i]);
        if (i >= rows.size()) {
            note(texts.front());
            continue;
        }
        const QRectF &row = rows[i];
        const double side = std::min(row.height() - 3, style.scaled(11));
        const QRectF swatch(row.left(), row.center().y() - side / 2, side, side);
        paintSwatchOf(painter, swatch, tallies[i].kind, style);
        const QRectF text = row.adjusted(side + style.scaled(4), 0, 0, 0);
        QString shown;
        for (const QString &candidate : texts)
            if (metrics.horizontalAdvance(candidate) <= text.width()) {
                shown = candidate;
                break;
            }
        if (shown.isEmpty())
            shown = metrics.elidedText(texts.back(), Qt::ElideRight, int(text.width()));
        if (shown != texts.front())
            note(texts.front());
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, shown);
    }
    painter.restore();
}

namespace {

QStringList keyTexts(bool words, bool keysValues)
{
    QStringList texts;
    for (int kind = 0; kind < (keysValues ? kKinds : kPlainKinds); ++kind) {
        const auto objectKind = core::ObjectKind(kind);
        texts << (words ? StateSummary::tr("%1 %2").arg(kindPrefix(objectKind),
                                                        kindPlural(objectKind))
                        : kindPrefix(objectKind));
    }
    return texts;
}

double keyWidth(const QStringList &texts, const QFontMetricsF &metrics, const Look &style)
{
    const double side = style.scaled(10), gap = style.scaled(3), spacing = style.scaled(8);
    double width = 0;
    for (const QString &text : texts)
        width += side + gap + metrics.horizontalAdvance(text) + spacing;
    return width - spacing;
}

// Where each kind's entry starts (its swatch), wrapping a kind that passes `width` to the next
// line: (line, left) per kind.
std::vector<std::pair<int, double>> keyPlaces(const QStringList &texts,
                                              const QFontMetricsF &metrics, const Look &style,
                                              double width)
{
    const double side = style.scaled(10), gap = style.scaled(3), spacing = style.scaled(8);
    std::vector<std::pair<int, double>> places;
    int line = 0;
    double left = 0;
    for (const QString &text : texts) {
        const double entry = side + gap + metrics.horizontalAdvance(text);
        if (left > 0 && left + entry > width + 0.5) {
            ++line;
            left = 0;
        }
        places.emplace_back(line, left);
        left += entry + spacing;
    }
    return places;
}

} // namespace

double kindKeyWidth(const QFont &font, const Look &style, bool words, bool keysValues)
{
    return keyWidth(keyTexts(words, keysValues), QFontMetricsF(font), style);
}

int kindKeyLines(const QFont &font, const Look &style, double width, bool keysValues)
{
    return keyPlaces(keyTexts(true, keysValues), QFontMetricsF(font), style, width).back().first +
           1;
}

double kindKeyLine(const Look &style)
{
    return style.scaled(18);
}

void paintKindKey(QPainter &painter, const QRectF &rect, const QPalette &palette, const Look &style,
                  QStringList *elided, int lines, bool keysValues)
{
    painter.save();
    const QFontMetricsF metrics(painter.font());
    if (lines <= 0)
        lines = std::max(1, int(rect.height() / kindKeyLine(style) + 1e-6));
    const double line = rect.height() / lines;
    const double side = std::min(line - 4, style.scaled(10));
    const double gap = style.scaled(3);
    const QStringList full = keyTexts(true, keysValues), brief = keyTexts(false, keysValues);
    auto places = keyPlaces(full, metrics, style, rect.width());
    const bool words = places.back().first < lines;
    const QStringList &texts = words ? full : brief;
    if (!words) {
        places = keyPlaces(brief, metrics, style, rect.width());
        if (elided)
            for (const QString &text : full)
                if (!elided->contains(text))
                    elided->append(text);
    }
    for (int kind = 0; kind < int(texts.size()); ++kind) {
        const QString &text = texts[kind];
        const double width = metrics.horizontalAdvance(text);
        const double left = rect.left() + places[std::size_t(kind)].second;
        const int at = places[std::size_t(kind)].first;
        if (at >= lines || left + side + gap + width > rect.right() + 0.5) {
            if (elided && !elided->contains(full[kind]))
                elided->append(full[kind]);
            continue;
        }
        const QRectF row(rect.left(), rect.top() + at * line, rect.width(), line);
        core::Object sample;
        sample.kind = core::ObjectKind(kind);
        sample.layer = 1;
        paintKindSwatch(painter, QRectF(left, row.center().y() - side / 2, side, side), sample.kind,
                        objectColor(sample, 2, style.colors()));
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(QRectF(left + side + gap, row.top(), width + 1, row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    painter.restore();
}

bool holdsKeysValues(const core::Trace &trace)
{
    return trace.changes.anyObject(
        [](const core::Object &object) { return object.kind == core::ObjectKind::KeysValues; });
}

} // namespace rankstep::gui
