// SPDX-License-Identifier: MIT
#include "statetext.h"

#include "memoryseries.h"

#include "core/attention.h"

#include <QCoreApplication>
#include <QStringList>

namespace rankstep::gui {
namespace {

struct StateText {
    Q_DECLARE_TR_FUNCTIONS(StateText)
};

} // namespace

bool isOwnClock(const QString &titlePart)
{
    // The words around the clock, wherever the translation puts it.
    const QStringList around = StateText::tr("own t %1").arg(QChar(0x1)).split(QChar(0x1));
    return around.size() == 2 && titlePart.startsWith(around[0]) && titlePart.endsWith(around[1]) &&
           titlePart.size() > around[0].size() + around[1].size();
}

QString panelTitle(int rank, const replay::RankState &state, std::optional<core::SimTime> shared,
                   const QString &timeUnit, int expert)
{
    const bool own = shared && *shared != state.clock;
    const QString clock = QString::fromStdString(state.clock.toString()) +
                          (timeUnit.isEmpty() ? QString() : QStringLiteral(" ") + timeUnit);
    QStringList parts{StateText::tr("rank %1").arg(rank)};
    if (expert >= 0) // which expert's tokens its activations hold after a dispatch
        parts << StateText::tr("expert %1").arg(expert);
    parts << (own ? StateText::tr("own t %1").arg(clock) : StateText::tr("t %1").arg(clock))
          << formatMemory(state.memory);
    return parts.join(QStringLiteral(" · "));
}

QString panelToolTip(int rank, const replay::RankState &state, std::int64_t maxMemory)
{
    QString text = StateText::tr("rank %1 holds %2 of the run's largest %3")
                       .arg(rank)
                       .arg(formatMemory(state.memory), formatMemory(maxMemory));
    if (state.line > 0)
        text += StateText::tr("; last ran line %1").arg(state.line);
    return text;
}

QString entryName(core::MapKind map, const core::Key &key)
{
    QString inside = QString::fromStdString(core::formatKey(key));
    // A tuple key reads as the code wrote it: activations[0, 2], not activations[(0, 2)].
    if (key.tuple && inside.startsWith(QLatin1Char('(')) && inside.endsWith(QLatin1Char(')')))
        inside = inside.mid(1, inside.size() - 2);
    return QStringLiteral("%1[%2]").arg(QString::fromUtf8(core::mapName(map)), inside);
}

QString kindPrefix(core::ObjectKind kind)
{
    static const char *const prefixes[core::kObjectKindCount] = {"w", "opt", "a", "ga", "gw", "kv"};
    return QString::fromLatin1(prefixes[std::size_t(kind)]);
}

QString shortName(core::MapKind map, const core::Key &key)
{
    static const char *const prefixes[core::kMapCount] = {"w", "opt", "a", "ga", "gw"};
    QStringList parts;
    for (int part : key.parts)
        parts.append(QString::number(part));
    return QString::fromLatin1(prefixes[int(map)]) + parts.join(QLatin1Char(','));
}

QString chipName(core::MapKind map, const core::Key &key, const core::Object &object)
{
    const QString name = shortName(map, key);
    if (object.expert >= 0)
        return QStringLiteral("%1 E%2").arg(name).arg(object.expert);
    // Context parallelism: keys and values name their chunks wherever they are kept ("kv c1,2";
    // the panel's row says the layer, and "kv1 c3" did not fit a chip at 1500x940), a chunk of an
    // activation its chunk ("a0 c1").
    if (object.context && object.kind != core::ObjectKind::WeightGrad) {
        QStringList chunks;
        for (const int chunk : object.shards.toVector())
            chunks.append(QString::number(chunk));
        if (object.kind == core::ObjectKind::KeysValues)
            return QStringLiteral("kv c%1").arg(chunks.join(QLatin1Char(',')));
        // An unfinished attention says how many chunks it has seen of how many ("a1 c1 2/4").
        if (core::isUnfinishedAttention(object))
            return QStringLiteral("%1 c%2 %3/%4")
                .arg(name, chunks.join(QLatin1Char(',')))
                .arg(core::attendedChunks(object).size())
                .arg(object.total);
        return QStringLiteral("%1 c%2").arg(name, chunks.join(QLatin1Char(',')));
    }
    return name;
}

QString objectToolTip(core::MapKind map, const core::Key &key, const core::Object &object,
                      const core::Sizes &sizes)
{
    return QStringLiteral("%1 · %2 · %3")
        .arg(entryName(map, key), QString::fromStdString(core::describe(object)))
        .arg(core::memoryOf(object, sizes));
}

} // namespace rankstep::gui
