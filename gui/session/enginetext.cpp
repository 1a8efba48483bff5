// SPDX-License-Identifier: MIT
#include "enginetext.h"

#include "core/sentences.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <optional>
#include <vector>

namespace rankstep::gui {
namespace {

struct Pattern {
    const char *source = nullptr; // the English pattern: the translation's source text
    QRegularExpression match;     // the pattern with each %n as a lazy group, anchored
    std::vector<int> order;       // which %n each group is
    int literal = 0;              // characters that are not placeholders
};

// Patterns with little text of their own ("%1: %2", "rank %1") match almost anything: they count
// only when every argument is a number or itself a phrase of the list.
constexpr int kGenericBelow = 6;

std::vector<Pattern> makePatterns()
{
    std::vector<Pattern> patterns;
    for (const char *source : core::sentencePatterns()) {
        const QString text = QString::fromUtf8(source);
        static const QRegularExpression placeholder(QStringLiteral("%([1-9])"));
        Pattern p;
        p.source = source;
        QString expression = QStringLiteral("^");
        qsizetype at = 0;
        for (auto it = placeholder.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            const QString literal = text.mid(at, m.capturedStart() - at);
            expression += QRegularExpression::escape(literal) + QStringLiteral("(.+?)");
            p.literal += int(literal.size());
            p.order.push_back(m.captured(1).toInt());
            at = m.capturedEnd();
        }
        expression += QRegularExpression::escape(text.mid(at)) + QStringLiteral("$");
        p.literal += int(text.size() - at);
        p.match = QRegularExpression(expression);
        patterns.push_back(std::move(p));
    }
    // The most specific first: "rank %1 waits in %2 at line %3 for rank %4" before "... line %3".
    std::stable_sort(patterns.begin(), patterns.end(),
                     [](const Pattern &a, const Pattern &b) { return a.literal > b.literal; });
    return patterns;
}

const std::vector<Pattern> &patterns()
{
    static const std::vector<Pattern> all = makePatterns();
    return all;
}

bool isNumbers(const QString &text)
{
    static const QRegularExpression numbers(QStringLiteral("^[0-9{}, .-]+$"));
    return numbers.match(text).hasMatch();
}

// `pattern`'s translation with %n replaced by args[n - 1] (not QString::arg, which would also
// replace a "%1" inside an argument).
QString fill(const char *pattern, const QStringList &args)
{
    const QString translated = QCoreApplication::translate("EngineText", pattern);
    QString out;
    for (qsizetype i = 0; i < translated.size(); ++i) {
        const QChar c = translated[i];
        const int n = c == QLatin1Char('%') && i + 1 < translated.size()
                          ? translated[i + 1].digitValue()
                          : -1;
        if (n >= 1 && n <= args.size()) {
            out += args[n - 1];
            ++i;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<QString> translatePhrase(const QString &text, int depth);

// An argument: a phrase of the list, a list of them ("0, 1 (finished)"), or as it is.
std::optional<QString> translateArgument(const QString &text, int depth)
{
    // Sentences joined by "; " (a cycle's waits, the check's problems), each whole: a pattern
    // that spans the join ("rank %1 waits in %2 at line %3" from the first wait's rank to the
    // last one's line) would say half of it in English.
    if (text.contains(QStringLiteral("; "))) {
        QStringList parts = text.split(QStringLiteral("; "));
        bool every = true;
        for (QString &part : parts) {
            const std::optional<QString> phrase = translatePhrase(part, depth);
            every = every && phrase.has_value();
            if (!every)
                break;
            part = *phrase;
        }
        if (every)
            return parts.join(QStringLiteral("; "));
    }
    if (auto phrase = translatePhrase(text, depth))
        return phrase;
    if (!text.contains(QStringLiteral(", ")))
        return std::nullopt;
    QStringList parts = text.split(QStringLiteral(", "));
    bool any = false;
    for (QString &part : parts)
        if (auto phrase = translatePhrase(part, depth)) {
            part = *phrase;
            any = true;
        }
    return any ? std::optional(parts.join(QStringLiteral(", "))) : std::nullopt;
}

// Whether argument `n` of `pattern` is code, kept as written: a storage dictionary's name
// ("activations of rank 0 has no key 2" names the dictionary `activations`, not activations).
bool isCodeArgument(const char *pattern, int n)
{
    namespace sentence = core::sentence;
    if (pattern == sentence::kNoSuchKey)
        return n == 1 || n == 3;
    return n == 1 &&
           (pattern == sentence::kNoKeyHolds || pattern == sentence::kNoKeyEmpty ||
            pattern == sentence::kNoKeyToDeleteHolds || pattern == sentence::kNoKeyToDeleteEmpty);
}

// Whether `text` is one of the engine's sentences rather than a phrase inside one ("rank 3").
bool isSentence(const QString &text)
{
    constexpr int kSentenceFrom = 16; // characters of a pattern's own text
    for (const Pattern &p : patterns())
        if (p.literal >= kSentenceFrom && p.match.match(text).hasMatch())
            return true;
    return false;
}

std::optional<QString> translatePhrase(const QString &text, int depth)
{
    if (depth > 6 || text.isEmpty())
        return std::nullopt;
    for (const Pattern &p : patterns()) {
        const QRegularExpressionMatch m = p.match.match(text);
        if (!m.hasMatch())
            continue;
        QStringList args(qsizetype(p.order.size()));
        bool everyArgumentKnown = true;
        for (std::size_t g = 0; g < p.order.size(); ++g) {
            const QString arg = m.captured(int(g) + 1);
            const std::optional<QString> said = isCodeArgument(p.source, p.order[g])
                                                    ? std::optional(arg)
                                                    : translateArgument(arg, depth + 1);
            everyArgumentKnown = everyArgumentKnown && (said || isNumbers(arg));
            args[p.order[g] - 1] = said.value_or(arg);
        }
        if (p.literal < kGenericBelow && !everyArgumentKnown)
            continue;
        return fill(p.source, args);
    }
    return std::nullopt;
}

// A Python exception's line, "KeyError: 'weights of rank 0 has no key 3; it holds 0'" or
// "rankstep.PuzzleError: update(layer 0): ...": the exception's name stays, the engine's words
// after it (inside the quotes a KeyError puts around them) are translated when they are a whole
// sentence of the engine's; a learner's own KeyError: 'rank 3' stays as it is.
std::optional<QString> translateException(const QString &text)
{
    static const QRegularExpression exception(
        QStringLiteral("^([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception)): (.+)$"));
    const QRegularExpressionMatch m = exception.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    QString said = m.captured(2);
    const bool quoted =
        said.size() > 2 && said.startsWith(QLatin1Char('\'')) && said.endsWith(QLatin1Char('\''));
    if (quoted)
        said = said.mid(1, said.size() - 2);
    const std::optional<QString> translated = translateArgument(said, 0);
    if (!translated || !isSentence(said))
        return std::nullopt;
    const QString inner =
        quoted ? QLatin1Char('\'') + *translated + QLatin1Char('\'') : *translated;
    return m.captured(1) + QStringLiteral(": ") + inner;
}

} // namespace

QString engineText(const QString &english)
{
    QStringList lines = english.split(QLatin1Char('\n'));
    for (QString &line : lines) {
        // A hang's lines are indented under its first: the indent stays.
        const qsizetype indent = line.size() - QStringView(line).trimmed().size() > 0
                                     ? line.indexOf(QRegularExpression(QStringLiteral("\\S")))
                                     : 0;
        if (indent < 0)
            continue;
        const QString text = line.mid(indent);
        // An exception's name first: "KeyError: 'weights of rank 0 ...'" is no "%1 of rank %2".
        if (auto raised = translateException(text)) {
            line = line.left(indent) + *raised;
        } else if (auto said = translateArgument(text, 0)) {
            line = line.left(indent) + *said;
        } else if (!text.endsWith(QLatin1Char('.'))) {
            // The verdict quotes a sentence without its full stop.
            if (auto stopped = translateArgument(text + QLatin1Char('.'), 0);
                stopped && stopped->endsWith(QLatin1Char('.')))
                line = line.left(indent) + stopped->chopped(1);
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString engineTraceback(const QString &traceback)
{
    QStringList lines = traceback.split(QLatin1Char('\n'));
    for (QString &line : lines)
        if (auto raised = translateException(line))
            line = *raised;
    return lines.join(QLatin1Char('\n'));
}

QString engineText(const std::string &english)
{
    return engineText(QString::fromStdString(english));
}

namespace {

class TranslatedPhrasebook : public core::Phrasebook
{
public:
    std::string say(const char *pattern, std::initializer_list<std::string> args) const override
    {
        QStringList said;
        for (const std::string &arg : args)
            said << QString::fromStdString(arg);
        return fill(pattern, said).toStdString();
    }
    std::string quote(const std::string &english) const override
    {
        return engineText(english).toStdString();
    }
};

} // namespace

const core::Phrasebook &engineWords()
{
    static const TranslatedPhrasebook words;
    return words;
}

} // namespace rankstep::gui
