// SPDX-License-Identifier: MIT
#include "codeeditor.h"

#include "appearance.h"
#include "palette.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qscistyledtext.h>

#include <QFontDatabase>

#include <QEvent>
#include <QHelpEvent>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace rankstep::gui {
namespace {

constexpr int kEditorPoints = 11;         // the editor's font size at zoom 1 (setUpLook)
constexpr int kSavePauseMs = 400;         // a pause in typing this long saves
constexpr int kSaveMaxDelayMs = 1000;     // typing never goes longer than this unsaved
constexpr int kMaximumMinimumWidth = 900; // a zoomed editor still leaves room on 1280 px

// The ranks standing on one line, as the margin shows them: one or two single-digit ranks as
// themselves, more as a range ("0-15") or the first and a count ("0 +14"), never past six
// characters.
QString compactRanks(const std::vector<int> &ranks)
{
    const bool contiguous = ranks.back() - ranks.front() + 1 == int(ranks.size());
    if (ranks.size() >= 3 && contiguous)
        return QStringLiteral("%1-%2").arg(ranks.front()).arg(ranks.back());
    return QStringLiteral("%1 +%2").arg(ranks.front()).arg(ranks.size() - 1);
}

QString fullRanks(const std::vector<int> &ranks)
{
    QStringList names;
    for (int rank : ranks)
        names << QString::number(rank);
    return (ranks.size() == 1 ? QObject::tr("Rank %1") : QObject::tr("Ranks %1"))
        .arg(names.join(QStringLiteral(", ")));
}

} // namespace

CodeEditor::CodeEditor(Appearance &appearance, QWidget *parent)
    : QsciScintilla(parent)
    , m_appearance(appearance)
    , m_chipGap(-1, QStringLiteral("rank chip gap"), Qt::black, Qt::white,
                QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
    setUpLook();
    // The editor's font follows the zoom (in its own steps), its colors the palette (changeEvent).
    const auto applyLook = [this] {
        m_rankStyles.clear(); // in the old scheme's colors
        setZoomSteps(int(std::lround(kEditorPoints * (m_appearance.zoom() - 1.0))));
    };
    connect(&appearance, &Appearance::lookChanged, this, applyLook);
    applyLook();
    m_saveTimer.setSingleShot(true);
    connect(&m_saveTimer, &QTimer::timeout, this, [this] {
        m_unsavedSince.invalidate();
        Q_EMIT codeEdited();
    });
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (m_loading)
            return;
        // A pause of kSavePauseMs saves; continuous typing saves kSaveMaxDelayMs after the first
        // unsaved edit (a debounce alone would wait for the whole burst: kill -9 lost it all).
        if (!m_unsavedSince.isValid())
            m_unsavedSince.start();
        const qint64 left = kSaveMaxDelayMs - m_unsavedSince.elapsed();
        m_saveTimer.start(int(std::clamp<qint64>(left, 0, kSavePauseMs)));
    });
    viewport()->installEventFilter(this); // the rank margin's tooltip
}

void CodeEditor::setUpLook()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(kEditorPoints);
    auto *lexer = new QsciLexerPython(this);
    lexer->setDefaultFont(font);
    lexer->setFont(font);
    lexer->setIndentationWarning(QsciLexerPython::Inconsistent);
    setLexer(lexer);
    setUtf8(true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginsFont(font);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginLineNumbers(0, true);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xee, 0xf3, 0xfb));
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setAutoIndent(true);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(100);
    // A line longer than the editor is wide wraps, indented under its start, with an arrow at the
    // end of each cut piece: it no longer ran past the right edge with no sign of what was cut.
    setWrapMode(QsciScintilla::WrapWord);
    setWrapVisualFlags(QsciScintilla::WrapFlagByText, QsciScintilla::WrapFlagNone);
    setWrapIndentMode(QsciScintilla::WrapIndentIndented);
    SendScintilla(SCI_SETHSCROLLBAR, 0L); // nothing to scroll to: every line wraps
    m_errorMarker = markerDefine(QsciScintilla::Background);
    setMarkerBackgroundColor(QColor(0xfd, 0xd8, 0xd8), m_errorMarker);
    m_rankMarker = markerDefine(QsciScintilla::Background);
    setMarginType(1, QsciScintilla::TextMargin); // rank chips while stepping, else hidden
    setMarginWidth(1, 0);
}

void CodeEditor::setCode(const QString &text)
{
    m_loading = true;
    m_saveTimer.stop(); // what was typed before belongs to the code shown before (saved first)
    m_unsavedSince.invalidate();
    setText(text);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    setModified(false);
    clearMarkers();
    m_loading = false;
}

void CodeEditor::replaceAllUndoable(const QString &text)
{
    beginUndoAction();
    selectAll();
    replaceSelectedText(text);
    endUndoAction();
    setCursorPosition(0, 0);
    m_saveTimer.stop();
    m_unsavedSince.invalidate();
    Q_EMIT codeEdited();
}

void CodeEditor::markError(int line)
{
    markerDeleteAll(m_errorMarker);
    m_errorLine = line;
    if (line > 0) {
        markerAdd(line - 1, m_errorMarker);
        jumpToLine(line);
    }
}

QRect CodeEditor::lineRectGlobal(int line) const
{
    if (line < 1)
        return {};
    auto *self = const_cast<CodeEditor *>(this); // SendScintilla is not const
    const long position = self->SendScintilla(SCI_POSITIONFROMLINE, line - 1);
    const int y = int(self->SendScintilla(SCI_POINTYFROMPOSITION, 0, position));
    // A wrapped line takes as many rows as it was cut into.
    const int height = int(self->SendScintilla(SCI_TEXTHEIGHT, line - 1)) *
                       std::max(1, int(self->SendScintilla(SCI_WRAPCOUNT, line - 1)));
    const QRect rect(0, y, viewport()->width(), height);
    if (!viewport()->rect().intersects(rect))
        return {};
    return QRect(viewport()->mapToGlobal(rect.topLeft()), rect.size());
}

void CodeEditor::clearMarkers()
{
    markerDeleteAll();
    m_errorLine = 0;
    clearRankLines();
}

const QsciStyle &CodeEditor::rankStyle(int rank)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont); // as the line numbers
    font.setPointSize(kEditorPoints);
    font.setBold(true);
    while (int(m_rankStyles.size()) <= rank) {
        const QColor color = m_appearance.look().colors().rank(int(m_rankStyles.size()));
        m_rankStyles.emplace_back(-1, QStringLiteral("rank"), Palette::textOn(color), color, font);
    }
    return m_rankStyles[std::size_t(rank)];
}

void CodeEditor::setRankLines(const std::vector<std::pair<int, int>> &rankAndLine, int selectedRank)
{
    clearRankLines();
    std::map<int, std::vector<int>> ranksByLine;
    for (const auto &[rank, line] : rankAndLine)
        if (rank >= 0 && line > 0 && line <= lines())
            ranksByLine[line].push_back(rank);
    QString widest;
    for (auto &[line, ranks] : ranksByLine) {
        std::sort(ranks.begin(), ranks.end());
        const bool selected = std::find(ranks.begin(), ranks.end(), selectedRank) != ranks.end();
        QList<QsciStyledText> chips{QsciStyledText(QStringLiteral(" "), m_chipGap)};
        QString shown;
        if (ranks.size() == 1 || (ranks.size() == 2 && ranks.back() < 10)) {
            for (int rank : ranks) {
                const QString chip = QStringLiteral(" %1 ").arg(rank);
                chips.append(QsciStyledText(chip, rankStyle(rank)));
                shown += chip;
            }
        } else { // in the color of the selected rank when it stands here, else the first's
            shown = QStringLiteral(" %1 ").arg(compactRanks(ranks));
            chips.append(QsciStyledText(shown, rankStyle(selected ? selectedRank : ranks.front())));
        }
        setMarginText(line - 1, chips);
        m_rankToolTips[line] = ranks; // named when asked: 16,384 names a step would cost
        if (shown.size() > widest.size())
            widest = shown;
        if (selected)
            m_selectedRankLine = line;
    }
    if (!widest.isEmpty())
        setRankMarginWidth(QString(widest.size() + 2, QLatin1Char('0')));
    if (m_selectedRankLine > 0) {
        const QColor rank = m_appearance.look().colors().rank(selectedRank);
        // A pale tint of the rank's color on light paper, a deep one on dark paper: the syntax
        // colors keep reading on it either way.
        const double keep = m_paper.lightnessF() < 0.5 ? 0.3 : 0.25;
        setMarkerBackgroundColor(
            QColor::fromRgbF(float(m_paper.redF() + (rank.redF() - m_paper.redF()) * keep),
                             float(m_paper.greenF() + (rank.greenF() - m_paper.greenF()) * keep),
                             float(m_paper.blueF() + (rank.blueF() - m_paper.blueF()) * keep)),
            m_rankMarker);
        markerAdd(m_selectedRankLine - 1, m_rankMarker);
        ensureLineVisible(m_selectedRankLine - 1);
    }
}

void CodeEditor::clearRankLines()
{
    clearMarginText();
    m_rankToolTips.clear();
    markerDeleteAll(m_rankMarker);
    setRankMarginWidth({});
    m_selectedRankLine = 0;
}

void CodeEditor::setRankMarginWidth(const QString &widest)
{
    const int before = marginWidth(1);
    if (widest.isEmpty())
        setMarginWidth(1, 0);
    else
        setMarginWidth(1, widest);
    // Scintilla keeps the lines wrapped for the code's old width: beside wider chips a wrapped
    // piece ran past the editor's edge, its arrow out of sight. Wrap them again.
    if (marginWidth(1) != before && wrapMode() != WrapNone)
        QTimer::singleShot(0, this, [this] { // once Scintilla took the margin's new width
            const WrapMode mode = wrapMode();
            setWrapMode(WrapNone);
            setWrapMode(mode);
        });
}

QString CodeEditor::rankMarginText(int line) const
{
    if (line <= 0)
        return {};
    // SCI_MARGINGETTEXT wants a buffer as long as the text; margin texts here are short.
    QByteArray buffer(256, '\0');
    const long length = SendScintilla(SCI_MARGINGETTEXT, line - 1, buffer.data());
    return QString::fromUtf8(buffer.left(int(std::clamp(length, 0L, 255L))));
}

QString CodeEditor::rankMarginToolTip(int line) const
{
    const auto found = m_rankToolTips.find(line);
    return found == m_rankToolTips.end() ? QString() : fullRanks(found->second);
}

int CodeEditor::rankMarginWidth() const
{
    return marginWidth(1);
}

int CodeEditor::characterWidth() const
{
    const char zero[] = "0";
    return std::max(1, int(SendScintilla(SCI_TEXTWIDTH, STYLE_DEFAULT, zero)));
}

int CodeEditor::textPadding() const
{
    return int(const_cast<CodeEditor *>(this)->SendScintilla(SCI_GETMARGINLEFT)) + 1;
}

int CodeEditor::visibleColumns() const
{
    const int margins = marginWidth(0) + marginWidth(1) + marginWidth(2) + textPadding();
    return std::max(0, viewport()->width() - margins) / characterWidth();
}

QSize CodeEditor::minimumSizeHint() const
{
    // The line numbers, a rank margin of six characters, the code, the scroll bar and the frame.
    const int code = (m_minimumColumns + 8) * characterWidth() + marginWidth(0) + textPadding();
    const int width = code + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {std::min(width, kMaximumMinimumWidth), QsciScintilla::minimumSizeHint().height()};
}

void CodeEditor::setMinimumColumns(int columns)
{
    if (columns == m_minimumColumns)
        return;
    m_minimumColumns = columns;
    updateGeometry();
}

bool CodeEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == viewport() && event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int x = help->pos().x();
        if (x >= marginWidth(0) && x < marginWidth(0) + marginWidth(1)) {
            const long position = SendScintilla(
                SCI_POSITIONFROMPOINT, marginWidth(0) + marginWidth(1) + marginWidth(2) + 1,
                long(help->pos().y()));
            const int line = int(SendScintilla(SCI_LINEFROMPOSITION, position)) + 1;
            const QString tip = rankMarginToolTip(line);
            if (!tip.isEmpty()) {
                QToolTip::showText(help->globalPos(), tip, viewport());
                return true;
            }
        }
        QToolTip::hideText();
    }
    return QsciScintilla::eventFilter(watched, event);
}

void CodeEditor::jumpToLine(int line)
{
    if (line <= 0)
        return;
    setCursorPosition(line - 1, 0);
    ensureLineVisible(line - 1);
    setFocus();
}

void CodeEditor::changeEvent(QEvent *event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) // a theme, or the desktop's light or dark
        setColors(palette());
}

void CodeEditor::setZoomSteps(int steps)
{
    zoomTo(steps);
    // Half a character between the line numbers and the code: without rank chips (before a
    // run, or after a syntax error) the code touched the numbers ("1# Distributed...").
    SendScintilla(SCI_SETMARGINLEFT, 0, long(characterWidth() / 2));
}

void CodeEditor::setColors(const QPalette &palette)
{
    QsciLexer *syntax = lexer();
    const QColor paper = palette.color(QPalette::Base);
    m_paper = paper;
    const bool dark = paper.lightnessF() < 0.5;
    for (int style = 0; style < 128; ++style) {
        if (syntax->description(style).isEmpty())
            continue;
        QColor ink = syntax->defaultColor(style);
        if (dark)
            ink = QColor::fromHslF(ink.hslHueF(), std::min(ink.hslSaturationF(), 0.7f), 0.78f);
        syntax->setColor(ink, style);
    }
    syntax->setDefaultPaper(paper);
    syntax->setPaper(paper); // every style
    setMarginsBackgroundColor(palette.color(QPalette::Window));
    m_chipGap.setPaper(palette.color(QPalette::Window)); // the rank margin's empty part
    m_chipGap.setColor(palette.color(QPalette::Text));
    setMarginsForegroundColor(palette.color(QPalette::PlaceholderText));
    setCaretForegroundColor(palette.color(QPalette::Text));
    setCaretLineBackgroundColor(dark ? Palette::faded(paper, 0.12) : QColor(0xee, 0xf3, 0xfb));
    setEdgeColor(palette.color(QPalette::Mid));
    setMarkerBackgroundColor(dark ? QColor(0x6e, 0x1e, 0x1e) : QColor(0xfd, 0xd8, 0xd8),
                             m_errorMarker);
}

} // namespace rankstep::gui
