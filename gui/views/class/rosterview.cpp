// SPDX-License-Identifier: MIT
#include "rosterview.h"

#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace rankstep::gui {
namespace {

// Cell colors with their own dark text, so they read in the light and the dark theme alike.
const QColor kSolved(0xd4, 0xed, 0xda);
const QColor kNotSolved(0xf8, 0xd7, 0xda);
const QColor kMissing(0xe9, 0xec, 0xef);
const QColor kText(0x21, 0x25, 0x29);

// A lesson's name in its column's header may break after an underscore ("pipeline_" over
// "fsdp"): a zero-width space gives the line breaker the chance.
QString breakableName(QString name)
{
    return name.replace(QLatin1Char('_'), QStringLiteral("_\u200b"));
}

// The widest word of text (split at spaces and zero-width spaces) in metrics.
int longestWord(const QFontMetrics &metrics, const QString &text)
{
    int widest = 0;
    static const QRegularExpression breaks(QStringLiteral("[\\s\u200b]+"));
    for (const QString &word : text.split(breaks, Qt::SkipEmptyParts))
        widest = std::max(widest, metrics.horizontalAdvance(word));
    return widest;
}

QString learnersText(int count)
{
    return count == 1 ? RosterView::tr("1 learner") : RosterView::tr("%1 learners").arg(count);
}

} // namespace

std::vector<int> fitColumnWidths(const std::vector<int> &natural, const std::vector<int> &least,
                                 int room)
{
    const auto total = [&](int cap) {
        long long sum = 0;
        for (std::size_t i = 0; i < natural.size(); ++i)
            sum += std::min(natural[i], std::max(cap, least[i]));
        return sum;
    };
    int widest = 0;
    for (const int width : natural)
        widest = std::max(widest, width);
    // The largest cap under which they fit: the widest columns give up width first.
    int low = 0, high = widest;
    while (low < high) {
        const int cap = (low + high + 1) / 2;
        if (total(cap) <= room)
            low = cap;
        else
            high = cap - 1;
    }
    std::vector<int> widths;
    for (std::size_t i = 0; i < natural.size(); ++i)
        widths.push_back(std::min(natural[i], std::max(low, least[i])));
    return widths;
}

RosterView::RosterView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("rosterView"));
    setAccessibleName(tr("Class roster"));
    setAccessibleDescription(
        tr("A row per learner and a column per lesson: solved, not solved "
           "with the kind of mistake, or missing"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_folderLabel = new QLabel(tr("No class folder open."));
    m_folderLabel->setObjectName(QStringLiteral("rosterFolder"));
    m_folderLabel->setWordWrap(true);
    m_folderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_folderLabel);
    auto *top = new QHBoxLayout;
    top->addStretch(1);
    auto *open = new QPushButton(tr("Open Class Folder…"));
    open->setObjectName(QStringLiteral("rosterOpen"));
    open->setToolTip(tr("A folder with a subfolder, .py file or notebook per learner"));
    connect(open, &QPushButton::clicked, this, &RosterView::openFolderRequested);
    top->addWidget(open);
    m_again = new QPushButton(tr("Grade Again"));
    m_again->setObjectName(QStringLiteral("rosterAgain"));
    m_again->setEnabled(false);
    connect(m_again, &QPushButton::clicked, this, &RosterView::gradeAgainRequested);
    top->addWidget(m_again);
    layout->addLayout(top);

    auto *statusRow = new QHBoxLayout;
    m_status =
        new QLabel(tr("Open a class folder to grade every learner's code at once: a "
                      "subfolder, .py file or notebook per learner."));
    m_status->setObjectName(QStringLiteral("rosterStatus"));
    m_status->setWordWrap(true);
    statusRow->addWidget(m_status, 1);
    m_busy = new QProgressBar;
    m_busy->setObjectName(QStringLiteral("rosterBusy"));
    m_busy->setRange(0, 0); // busy: the grading says nothing until it ends
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_busy->setAccessibleName(tr("Grading"));
    m_busy->hide();
    statusRow->addWidget(m_busy);
    layout->addLayout(statusRow);

    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("rosterTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    // A mistake wraps within its column, so that more lessons fit side by side.
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setMaximumSectionSize(
        m_table->fontMetrics().horizontalAdvance(QStringLiteral("✗ update before all")));
    m_table->setAccessibleName(tr("Roster"));
    // The columns are fitted to the width (fitColumns); a lesson's name wraps in its header.
    m_table->horizontalHeader()->setDefaultAlignment(
        Qt::Alignment::fromInt(Qt::AlignCenter | Qt::TextWordWrap));
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideNone);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->viewport()->installEventFilter(this);
    connect(m_table, &QTableWidget::cellClicked, this, &RosterView::onCellClicked);
    connect(m_table, &QTableWidget::cellActivated, this, &RosterView::onCellClicked);
    layout->addWidget(m_table, 1);

    m_mistakes = new QLabel;
    m_mistakes->setObjectName(QStringLiteral("rosterMistakes"));
    m_mistakes->setWordWrap(true);
    m_mistakes->setTextFormat(Qt::RichText);
    layout->addWidget(m_mistakes);

    m_ticker.setInterval(500);
    connect(&m_ticker, &QTimer::timeout, this, &RosterView::tick);
}

void RosterView::showGrading(const QString &folder)
{
    m_folder = folder;
    m_roster = ClassRoster();
    m_folderLabel->setText(QDir::toNativeSeparators(folder));
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    m_mistakes->clear();
    m_again->setEnabled(false);
    m_busy->show();
    m_clock.start();
    m_ticker.start();
    tick();
}

void RosterView::tick()
{
    m_status->setText(
        tr("Grading every learner's code on every core… %1 s (%2 stops)")
            .arg(QString::number(double(m_clock.elapsed()) / 1000.0, 'f', 0),
                 QKeySequence(QKeySequence::Cancel).toString(QKeySequence::NativeText)));
}

void RosterView::setRoster(const ClassRoster &roster)
{
    m_ticker.stop();
    m_busy->hide();
    m_again->setEnabled(true);
    m_roster = roster;
    m_folder = roster.folder;
    m_folderLabel->setText(QDir::toNativeSeparators(roster.folder));
    m_table->clear();
    m_table->setColumnCount(int(roster.lessons.size()));
    m_table->setRowCount(int(roster.learners.size()));
    QStringList headers;
    for (const QString &lesson : roster.lessons)
        headers << breakableName(lesson);
    m_table->setHorizontalHeaderLabels(headers);
    QStringList names;
    int solved = 0, graded = 0;
    for (int r = 0; r < int(roster.learners.size()); ++r) {
        const ClassRoster::Learner &learner = roster.learners[std::size_t(r)];
        names.append(learner.name);
        for (int c = 0; c < int(learner.cells.size()); ++c) {
            const ClassRoster::Cell &cell = learner.cells[std::size_t(c)];
            QString text;
            QColor background;
            if (cell.solved()) {
                text = QStringLiteral("✓"); // narrow: the mistakes need the width
                background = kSolved;
            } else if (cell.missing()) {
                text = QStringLiteral("—");
                background = kMissing;
            } else {
                // "not solved: update before allreduce" reads as its kind.
                text = QStringLiteral("✗ ") + cell.status.section(QStringLiteral(": "), 1);
                background = kNotSolved;
            }
            auto *item = new QTableWidgetItem(text);
            item->setBackground(background);
            item->setForeground(kText);
            QString tip = cell.status;
            if (!cell.error.isEmpty())
                tip += QStringLiteral("\n") + cell.error;
            if (!cell.file.isEmpty())
                tip += QStringLiteral("\n") + QDir::toNativeSeparators(cell.file) +
                       tr("\nClick to open it read-only and run it.");
            item->setToolTip(tip);
            item->setData(Qt::AccessibleTextRole,
                          tr("%1, %2: %3").arg(learner.name, roster.lessons[c], cell.status));
            m_table->setItem(r, c, item);
            graded += cell.missing() ? 0 : 1;
            solved += cell.solved() ? 1 : 0;
        }
    }
    m_table->setVerticalHeaderLabels(names);
    fitColumns();
    if (roster.learners.empty()) {
        m_status->setText(
            tr("No learner's code in this folder: it needs a subfolder, .py file or "
               "notebook per learner."));
    } else {
        m_status->setText(learnersText(int(roster.learners.size())) + QStringLiteral(", ") +
                          tr("%1 of %2 graded lessons solved, in %3 s. Click a cell to open that "
                             "learner's code read-only and run it.")
                              .arg(solved)
                              .arg(graded)
                              .arg(QString::number(roster.seconds, 'f', 1)));
    }
    QString mistakes;
    for (const ClassRoster::Mistake &mistake : roster.mistakes)
        mistakes += QStringLiteral("<li>") + learnersText(mistake.learners) + QStringLiteral(": ") +
                    mistake.kind.toHtmlEscaped() + QStringLiteral(" (") +
                    mistake.lessons.join(QStringLiteral(", ")).toHtmlEscaped() +
                    QStringLiteral(")</li>");
    m_mistakes->setText(
        mistakes.isEmpty()
            ? QString()
            : tr("<b>Common mistakes</b><ul style='margin:0'>%1</ul>").arg(mistakes));
}

void RosterView::showFailure(const QString &message)
{
    m_ticker.stop();
    m_busy->hide();
    m_again->setEnabled(!m_folder.isEmpty());
    m_status->setText(tr("The class could not be graded: %1").arg(message));
}

void RosterView::showStopped()
{
    m_ticker.stop();
    m_busy->hide();
    m_again->setEnabled(!m_folder.isEmpty());
    m_status->setText(tr("Stopped. Grade Again starts over."));
}

bool RosterView::eventFilter(QObject *watched, QEvent *event)
{
    // A width it was not fitted to (not a height: rows growing for what wraps).
    if (watched == m_table->viewport() && event->type() == QEvent::Resize &&
        m_table->viewport()->width() != m_fittedWidth)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

// Each column as wide as its cells and header ask (at most the cap the header keeps), narrowed
// to the viewport's width when they would not fit; the rows and the header then grow for what
// wraps.
void RosterView::fitColumns()
{
    QHeaderView *header = m_table->horizontalHeader();
    const int columns = m_table->columnCount();
    if (columns == 0)
        return;
    const QFontMetrics metrics = m_table->fontMetrics();
    QFont bold = header->font();
    bold.setBold(true);
    const QFontMetrics headerMetrics(bold);
    const int padding = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin) + 8;
    std::vector<int> natural, least;
    QStringList titles;
    for (int c = 0; c < columns; ++c) {
        const QString title = m_table->model()->headerData(c, Qt::Horizontal).toString();
        titles << title;
        int wide = headerMetrics.horizontalAdvance(QString(title).remove(QChar(0x200b)));
        int narrow = longestWord(headerMetrics, title);
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (const QTableWidgetItem *item = m_table->item(r, c)) {
                wide = std::max(wide, metrics.horizontalAdvance(item->text()));
                narrow = std::max(narrow, longestWord(metrics, item->text()));
            }
        natural.push_back(std::min(wide, header->maximumSectionSize()) + padding);
        least.push_back(narrow + padding);
    }
    m_fittedWidth = m_table->viewport()->width();
    const std::vector<int> widths = fitColumnWidths(natural, least, m_fittedWidth - 1);
    for (int c = 0; c < columns; ++c)
        header->resizeSection(c, widths[std::size_t(c)]);
    int tallest = 0;
    for (int c = 0; c < columns; ++c)
        tallest = std::max(tallest,
                           headerMetrics
                               .boundingRect(QRect(0, 0, widths[std::size_t(c)] - padding, 10000),
                                             Qt::TextWordWrap, titles[c])
                               .height());
    header->setMinimumHeight(tallest + 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin) +
                             4);
    m_table->resizeRowsToContents();
}

void RosterView::onCellClicked(int row, int column)
{
    if (row < 0 || column < 0 || row >= int(m_roster.learners.size()) ||
        column >= int(m_roster.lessons.size()))
        return;
    const ClassRoster::Learner &learner = m_roster.learners[std::size_t(row)];
    const ClassRoster::Cell &cell = learner.cells[std::size_t(column)];
    if (cell.missing() || cell.file.isEmpty())
        return;
    Q_EMIT cellActivated(learner.name, m_roster.lessons[column], cell.file);
}

} // namespace rankstep::gui
