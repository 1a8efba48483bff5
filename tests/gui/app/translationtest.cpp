// SPDX-License-Identifier: MIT
// The user interface's translation: German loads under a German locale (the window's
// menus, the command-line options), English needs none, and the shipped German translation is
// complete (every message of resources/translations/rankstep_de.ts translated).
#include "core/engine.h"
#include "core/explain/describe.h"
#include "core/explain/waitexplain.h"
#include "core/sentences.h"
#include "enginetext.h"
#include "errordialog.h"
#include "guitestsupport.h"
#include "lessontitle.h"
#include "resultspanel.h"
#include "stepbar.h"
#include "translations.h"

#include <QApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QRegularExpression>
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

// A merge left the four_d lesson's title and the context-parallel one's in one message of the
// translation: the lesson list read "Many dimensions at once" among the German titles.
TEST_F(TranslationTest, TheModernParallelismsLessonTitlesReadInGerman)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    EXPECT_EQ(utf8(QCoreApplication::translate("LessonTitle", "Many dimensions at once")),
              "Viele Dimensionen zugleich");
    EXPECT_EQ(
        utf8(QCoreApplication::translate("LessonTitle", "Context parallelism (ring attention)")),
        "Kontextparallelität (Ring-Attention)");
}

// The What if tab's fields, chart and table are widgets of their own, each its own context of the
// translation: their words stay German.
TEST_F(TranslationTest, TheWhatIfTabsPartsReadInGerman)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    EXPECT_EQ(utf8(QCoreApplication::translate("rankstep::gui::WhatIfFields", "Batches per rank")),
              "Batches pro Rank");
    EXPECT_EQ(utf8(QCoreApplication::translate("rankstep::gui::WhatIfChart", "Pareto front")),
              "Pareto-Front");
    EXPECT_EQ(utf8(QCoreApplication::translate("rankstep::gui::WhatIfTable", "peak memory")),
              "Spitzenspeicher");
}

// The device's memory in the exported memory plot and in the results' figures: the app's
// German, as its memory chart says it.
TEST_F(TranslationTest, TheDevicesMemoryReadsInGermanInExportsAndResults)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    EXPECT_EQ(
        utf8(QCoreApplication::translate("MemoryPlot", "%1: the device's memory")),
        utf8(QCoreApplication::translate("rankstep::gui::MemoryChart", "%1: the device's memory")));
    EXPECT_EQ(utf8(QCoreApplication::translate("MemoryPlot",
                                               "max %1 (rank %2, t %3): fits, %4 to spare")),
              "max. %1 (Rank %2, t %3): passt, %4 Reserve");
    EXPECT_EQ(utf8(QCoreApplication::translate(
                  "MemoryPlot", "max %1 (rank %2, t %3): %4 over the device's memory")),
              "max. %1 (Rank %2, t %3): %4 über dem Speicher des Geräts");
    core::Trace trace;
    trace.figures.hasEvents = true;
    trace.figures.maxMemory = 120'160'000'000;
    trace.config.cost.deviceMemory = 80'000'000'000;
    EXPECT_EQ(utf8(deviceFitText(trace)), "40.16 GB über den 80 GB des Geräts");
    trace.figures.maxMemory = 60'270'000'000;
    EXPECT_EQ(utf8(deviceFitText(trace)), "passt in 80 GB, 19.73 GB Reserve");
}

TEST_F(TranslationTest, EnglishNeedsNone)
{
    EXPECT_FALSE(installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates)));
    auto window = makeWindow();
    EXPECT_EQ(window->menuBar()->actions().front()->text(), QStringLiteral("&File"));
}

// The refused update of a data-parallel run, as the engine says it.
std::string refusedUpdate()
{
    core::Engine engine(core::RunConfig{4, 1, 4, {}});
    core::Object grad;
    grad.kind = core::ObjectKind::WeightGrad;
    grad.batches = core::IndexSet{2};
    grad.totalBatches = 4;
    core::Object weight;
    weight.kind = core::ObjectKind::Weight;
    core::Object opt = weight;
    opt.kind = core::ObjectKind::OptState;
    const auto updated = engine.update(core::CallSite{2, 27}, 0, grad, weight, opt);
    EXPECT_FALSE(updated);
    return updated ? std::string() : updated.error().message;
}

// A German learner reads one language: the engine's sentences that the verdict, the results
// and the error dialog quote are German too ("Noch nicht gelöst: Der Lauf wurde nicht beendet
// (Fehler): rank 2 stopped at line 27 without calling…" switched language mid-way).
TEST_F(TranslationTest, TheEnginesSentencesReadInGerman)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    const std::string update = refusedUpdate();
    ASSERT_EQ(update,
              "update(layer 0): the weight gradient covers batches {2}, but an update "
              "needs all batches {0, 1, 2, 3} (batches 0, 1 and 3 are missing; allreduce "
              "it first)");
    EXPECT_EQ(utf8(engineText(update)),
              "update(layer 0): Der Gewichtsgradient deckt die Batches {2} ab, ein Update braucht "
              "aber alle Batches {0, 1, 2, 3} (Batches 0, 1 und 3 fehlen; erst allreduce "
              "aufrufen)");

    // A rank that an error of its own stopped before the allreduce the others wait in: the
    // verdict leads with that error, in German.
    core::Trace trace;
    trace.config = core::RunConfig{4, 2, 4, {}};
    trace.status = core::RunStatus::Error;
    trace.error = core::Error{
        core::ErrorKind::Check, 2, 27,
        update + "\n  " +
            core::say(core::sentence::kWaitsInForRank, {"0", "allreduce(layer 1)", "20", "2"}) +
            "\n  " +
            core::say(core::sentence::kStoppedWithoutCallingMany,
                      {"2", "27", "allreduce(layer 1)", "0, 1 and 3"})};
    lessons::Lesson lesson;
    lesson.config = trace.config;
    const QString verdict = verdictText(lesson, trace, lessons::judge(lesson, trace));
    EXPECT_EQ(utf8(verdict),
              "Noch nicht gelöst: Der Lauf wurde nicht beendet (Fehler): Rank 2, Zeile 27: "
              "update(layer 0): Der Gewichtsgradient deckt die Batches {2} ab, ein Update braucht "
              "aber alle Batches {0, 1, 2, 3} (Batches 0, 1 und 3 fehlen; erst allreduce "
              "aufrufen).");
    const RunErrorText dialog = describeRunError(trace);
    EXPECT_TRUE(
        dialog.text.contains(QStringLiteral("Rank 0 wartet in allreduce(layer 1) in "
                                            "Zeile 20 auf Rank 2")))
        << utf8(dialog.text);
    EXPECT_FALSE(dialog.text.contains(QStringLiteral(" waits "))) << utf8(dialog.text);
    const QString results = resultsHtml(&lesson, trace);
    EXPECT_TRUE(results.contains(QStringLiteral("Der Gewichtsgradient deckt"))) << utf8(results);

    // Each rank a waiting one names says where it stands, in German too.
    const std::string waits =
        core::say(core::sentence::kWaitsInForRanks,
                  {"0", "allreduce(layer 0)", "33",
                   core::say(core::sentence::kStoppedRank, {"1"}) + ", " +
                       core::say(core::sentence::kNotStartedRank, {"2"}) + ", " +
                       core::say(core::sentence::kCutShortRank, {"3"})});
    EXPECT_EQ(utf8(engineText(waits)),
              "Rank 0 wartet in allreduce(layer 0) in Zeile 33 auf die Ranks 1 (durch einen "
              "Fehler gestoppt), 2 (nie gestartet), 3 (abgebrochen)");

    // The verdict quotes a sentence without its full stop.
    EXPECT_EQ(utf8(engineText(core::say(core::sentence::kStoppedWhileRank,
                                        {core::sentence::kOnRequest, "0", "5"})
                                  .substr(0, 57))),
              "Der Lauf wurde auf Wunsch angehalten, als Rank 0 in Zeile 5 war");

    // The quiz's question and choices.
    EXPECT_EQ(utf8(engineText(std::string(core::sentence::kQuizMovesNext))),
              "Welcher Rank ist als Nächstes dran?");
    EXPECT_EQ(utf8(engineText(std::string("rank 3"))), "Rank 3");
    EXPECT_EQ(utf8(engineText(std::string("weight gradient of layer 1, batches 0-3"))),
              "Gewichtsgradient von Schicht 1, Batches 0-3");

    // The lesson list's titles.
    lessons::Lesson ddp;
    ddp.title = "Distributed data parallel";
    EXPECT_EQ(utf8(lessonTitle(ddp)), "Verteilte Datenparallelität (DDP)");
}

// What explain and the Why tab say of a ring mid-way, in German: an attention that has seen some
// chunks only, a partial sum, and a wait followed back to the sender's started pass.
TEST_F(TranslationTest, TheRingsUnfinishedObjectsAndWaitsReadInGerman)
{
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    core::Object output;
    output.kind = core::ObjectKind::Activation;
    output.layer = 1;
    output.batches = core::IndexSet{0};
    output.shards = core::IndexSet{0};
    output.total = 4;
    output.context = true;
    output.step = 0b1011;
    EXPECT_EQ(explain::describeUnfinished(output, 4, engineWords()),
              "Attention-Ausgabe von Schicht 0 für Batch 0, Chunk 0: 3 von 4 Chunks gesehen");
    output.step = 0;
    output.partial = true;
    EXPECT_EQ(explain::describeUnfinished(output, 4, engineWords()),
              "eine Teilsumme: braucht das Allreduce ihrer Tensorgruppe");

    core::Trace trace;
    trace.config.ranks = 2;
    const auto event = [](int rank, core::OpKind op, std::int64_t start, std::int64_t ticks,
                          int peer) {
        core::Event e;
        e.rank = rank;
        e.op = op;
        e.layer = op == core::OpKind::Forward ? 0 : -1;
        e.setPeer(peer);
        e.link = peer >= 0 ? 7 : -1;
        e.start = core::SimTime::fromTicks(start);
        e.duration = core::SimTime::fromTicks(ticks);
        return e;
    };
    trace.events = {event(0, core::OpKind::Forward, 0, 100, -1),
                    event(1, core::OpKind::Forward, 0, 125, -1),
                    event(1, core::OpKind::Forward, 500, 125, -1)};
    trace.overlapped = {event(0, core::OpKind::PassTo, 100, 200, 1),
                        event(1, core::OpKind::Receive, 300, 200, 0)};
    const std::vector<explain::Wait> waits = explain::waits(trace);
    ASSERT_EQ(waits.size(), 1U);
    EXPECT_EQ(explain::describeWait(trace, waits[0], engineWords()),
              "Rank 1 wartete 0.375 (t 0.125 bis 0.5) in dem await seines receive von Rank 0 "
              "(gestartet auf dem Kommunikationsstrom), das auf pass_to_start an Rank 1 bei Rank 0 "
              "(t 0.1 bis 0.3 auf seinem Kommunikationsstrom) wartete, das Rank 0 bei t 0.1 nach "
              "seinem forward von Schicht 0 startete.");
}

// In English the engine's words come through exactly (the command line, the grader and the docs
// quote them), and a line no pattern knows is left as it is.
TEST_F(TranslationTest, TheEnginesSentencesStayExactInEnglish)
{
    for (const char *pattern : core::sentencePatterns()) {
        const std::string said = core::say(pattern, {"update(layer 0)", "1", "2", "3", "4", "5"});
        EXPECT_EQ(utf8(engineText(said)), said);
    }
    EXPECT_EQ(utf8(engineText(refusedUpdate())), refusedUpdate());
    ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    const std::string python = "KeyError: 'rank 3'\n  File \"ddp.py\", line 4";
    EXPECT_EQ(utf8(engineText(python)), python);
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

// Seen in the expert lesson: its engine sentences said "Rang 2" and "Schicke jedes Token ..." where
// every other German text says "Rank 2" and addresses the learner as "Sie".
TEST_F(TranslationTest, TheGermanTranslationSaysRankAndAddressesTheLearnerFormally)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/resources/translations/rankstep_de.ts"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression translation(
        QStringLiteral("<translation>([^<]*)</translation>"));
    static const QRegularExpression informal(
        QStringLiteral("\\b(Rang|Rangs|Ränge|Rängen|Gib|Schicke|Ordne|Rufe|Nimm|Sende)\\b"));
    int checked = 0;
    for (const QRegularExpressionMatch &match : translation.globalMatch(text)) {
        ++checked;
        const QRegularExpressionMatch found = informal.match(match.captured(1));
        EXPECT_FALSE(found.hasMatch())
            << utf8(found.captured(0)) << " in " << utf8(match.captured(1));
    }
    EXPECT_GT(checked, 500);
}

} // namespace
} // namespace rankstep::gui::testing
