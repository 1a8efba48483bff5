// SPDX-License-Identifier: MIT
// The user interface's translation: German loads under a German locale (the window's
// menus, the command-line options), English needs none, and the shipped German translation is
// complete (every message of resources/translations/rankstep_de.ts translated).
#include "guitestsupport.h"
#include "stepbar.h"
#include "translations.h"

#include <QApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QToolButton>
#include <QTranslator>

namespace rankstep::gui::testing {
namespace {

class TranslationTest : public WindowTest
{
protected:
    void TearDown() override
    {
        for (QTranslator *translator : qApp->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(translator);
            delete translator;
        }
        WindowTest::TearDown();
    }
};

TEST_F(TranslationTest, GermanLoadsUnderAGermanLocale)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    auto window = makeWindow();
    QStringList menus;
    for (const QAction *top : window->menuBar()->actions())
        menus << top->text();
    EXPECT_EQ(menus, QStringList({QStringLiteral("&Datei"), QStringLiteral("&Bearbeiten"),
                                  QStringLiteral("A&usführen"), QStringLiteral("&Ansicht"),
                                  QStringLiteral("&Hilfe")}));
    // The step bar's Play button keeps room for its text, the longer of Play and Pause (German
    // "Abspielen" is the longer one; it was cut to "Ab…en").
    const QToolButton *play = window->parts().stepBar->playButton();
    EXPECT_GE(play->minimumWidth(), play->sizeHint().width());
    EXPECT_EQ(QCoreApplication::translate("Options", "Start in presentation mode (F11)."),
              QStringLiteral("Im Präsentationsmodus starten (F11)."));
    // Qt's own texts (the error dialog's Show Details…) come from Debian's qt6-translations-l10n,
    // which scripts/setup-deps.sh installs (the package only recommends it): they were English
    // among the German.
    if (QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) +
                      QStringLiteral("/qtbase_de.qm")))
        EXPECT_EQ(QCoreApplication::translate("QMessageBox", "Show Details..."),
                  QStringLiteral("Details einblenden..."));
    else
        ADD_FAILURE() << "qt6-translations-l10n is missing: run scripts/setup-deps.sh";
    // The views' own words: the verdict and a time axis.
    EXPECT_EQ(QCoreApplication::translate("rankstep::gui::ResultsPanel", "Solved!"),
              QStringLiteral("Gelöst!"));
}

TEST_F(TranslationTest, EnglishNeedsNone)
{
    EXPECT_FALSE(installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates)));
    auto window = makeWindow();
    EXPECT_EQ(window->menuBar()->actions().front()->text(), QStringLiteral("&File"));
}

TEST_F(TranslationTest, TheGermanTranslationIsComplete)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/resources/translations/rankstep_de.ts"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_GT(text.count("<message"), 500);
    EXPECT_EQ(text.count("type=\"unfinished\""), 0)
        << "run `cmake --build build --target update_translations` and translate the new texts";
    EXPECT_EQ(text.count("type=\"vanished\"") + text.count("type=\"obsolete\""), 0);
}

} // namespace
} // namespace rankstep::gui::testing
