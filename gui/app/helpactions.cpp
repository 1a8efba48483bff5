// SPDX-License-Identifier: MIT
#include "helpactions.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QShortcut>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

QString plain(QString text)
{
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

void addMenu(const QMenu *menu, const QString &where, std::vector<ShortcutEntry> &found)
{
    for (const QAction *action : menu->actions()) {
        if (action->menu()) {
            addMenu(action->menu(), where, found);
            continue;
        }
        if (!action->shortcuts().isEmpty())
            found.push_back({where, plain(action->text()), action->shortcuts()});
    }
}

} // namespace

std::vector<ShortcutEntry> windowShortcuts(QWidget *window)
{
    std::vector<ShortcutEntry> found;
    const auto *mainWindow = qobject_cast<QMainWindow *>(window);
    if (const auto *bar =
            mainWindow ? qobject_cast<const QMenuBar *>(mainWindow->menuWidget()) : nullptr)
        for (const QAction *top : bar->actions())
            if (top->menu())
                addMenu(top->menu(), plain(top->text()), found);
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (action->shortcuts().isEmpty() || !action->associatedObjects().isEmpty())
            continue; // in a menu (above) or a toolbar's copy of one
        found.push_back({QObject::tr("Window"), plain(action->text()), action->shortcuts()});
    }
    for (const QShortcut *shortcut : window->findChildren<QShortcut *>())
        if (!shortcut->whatsThis().isEmpty())
            found.push_back({QObject::tr("Stepping"), shortcut->whatsThis(), {shortcut->key()}});
    return found;
}

HelpActions::HelpActions(QMenuBar *menuBar, QWidget *window) : QObject(window), m_window(window)
{
    QMenu *menu = menuBar->addMenu(tr("&Help"));
    menu->setObjectName(QStringLiteral("helpMenu"));
    QAction *keys = menu->addAction(tr("&Keyboard Shortcuts"), this, &HelpActions::showShortcuts);
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcuts(QKeySequence::keyBindings(QKeySequence::HelpContents));
    QAction *guide = menu->addAction(tr("&Writing Lessons"), this, [] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(lessonGuidePath()));
    });
    guide->setObjectName(QStringLiteral("lessonGuideAction"));
    guide->setToolTip(tr("How to write a lesson of your own: five text files"));
    menu->addSeparator();
    QAction *about = menu->addAction(tr("&About Rankstep"), this, &HelpActions::showAbout);
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    QAction *qt = menu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    qt->setObjectName(QStringLiteral("aboutQtAction"));
    qt->setMenuRole(QAction::AboutQtRole);
}

QString HelpActions::lessonGuidePath()
{
    const QString installed = QDir(QCoreApplication::applicationDirPath())
                                  .filePath(QStringLiteral("../share/rankstep/lessons/README.md"));
    if (QFileInfo::exists(installed))
        return QFileInfo(installed).canonicalFilePath();
    return QStringLiteral(RANKSTEP_SOURCE_DIR "/lessons/README.md");
}

QDialog *HelpActions::shortcutsDialog()
{
    auto *dialog = new QDialog(m_window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(dialog);
    const std::vector<ShortcutEntry> entries = windowShortcuts(m_window);
    auto *table = new QTableWidget(int(entries.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Where"), tr("What"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAccessibleName(tr("Keyboard shortcuts"));
    for (int row = 0; row < int(entries.size()); ++row) {
        const ShortcutEntry &entry = entries[std::size_t(row)];
        QStringList keys;
        for (const QKeySequence &key : entry.keys)
            keys << key.toString(QKeySequence::NativeText);
        table->setItem(row, 0, new QTableWidgetItem(entry.where));
        table->setItem(row, 1, new QTableWidgetItem(entry.what));
        table->setItem(row, 2, new QTableWidgetItem(keys.join(tr(" or "))));
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(new QLabel(
        tr("Every key of the window. PageDown and PageUp give way to the code editor and the "
           "lesson text, except while presenting or replaying a demonstration.")));
    layout->addWidget(table, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(640, 560);
    return dialog;
}

void HelpActions::showShortcuts()
{
    shortcutsDialog()->open();
}

QString HelpActions::aboutText()
{
    return tr("<h3>Rankstep %1</h3><p>Learn how large language models are trained on many GPUs: "
              "data parallel, sharded weights, pipelines, and their combinations, one rank at a "
              "time.</p><p>Rankstep's own code is under the MIT licence. This program links Qt "
              "(LGPL-3), Qt Charts and QScintilla (GPL-3), so the program as a whole is "
              "distributed under the GNU GPL version 3; see the copyright file for every "
              "part.</p>")
               .arg(QCoreApplication::applicationVersion()) +
           tr("<p>The puzzles' API and the lessons' skeletons come from Sasha Rush's LLM "
              "Training Puzzles, under the MIT licence (copyright 2023 Sasha Rush).</p>");
}

void HelpActions::showAbout()
{
    QMessageBox::about(m_window, tr("About Rankstep"), aboutText());
}

} // namespace rankstep::gui
