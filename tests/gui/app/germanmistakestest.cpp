// SPDX-License-Identifier: MIT
// A German learner reads one language: the typical mistakes of the lessons, run in the window
// under German, show no sentence of the engine in English (the verdict said "Noch nicht gelöst:
// Der Lauf wurde nicht beendet (Fehler): rank 2 stopped at line 27 without calling…").
#include "core/explain/compare.h"
#include "core/explain/waitexplain.h"
#include "core/sentences.h"
#include "enginetext.h"
#include "explainview.h"
#include "guitestsupport.h"
#include "liveobjectsmodel.h"
#include "resultspanel.h"
#include "translations.h"
#include "waitforview.h"

#include <QListWidget>
#include <QRegularExpression>
#include <QTextDocumentFragment>
#include <QTranslator>

namespace rankstep::gui::testing {
namespace {

class GermanMistakesTest : public WindowTest
{
protected:
    void SetUp() override
    {
        WindowTest::SetUp();
        ASSERT_TRUE(installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)));
    }
    void TearDown() override
    {
        for (QTranslator *translator : qApp->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(translator);
            delete translator;
        }
        WindowTest::TearDown();
    }
};

// Every text a failed run puts on screen: the error dialog (with its details), the results, the
// hang picture's title, line and captions, and the Why tab's sentences.
QStringList shownTexts(MainWindow &window)
{
    QStringList texts;
    if (QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"))) {
        texts << box->text()
              << QTextDocumentFragment::fromHtml(box->informativeText()).toPlainText()
              << box->detailedText();
        box->close();
    }
    const WindowParts &p = window.parts();
    texts << p.results->text();
    if (p.waitForView->hasDiagnosis()) {
        texts << p.waitForView->title() << p.waitForView->detail();
        for (int rank = 0; rank < 4; ++rank)
            texts << p.waitForView->captionOf(rank);
    }
    texts << p.explainView->peakText() << p.explainView->formulaText();
    const QListWidget *chain = p.explainView->chainList();
    for (int i = 0; i < chain->count(); ++i)
        texts << chain->item(i)->text();
    // The table of what the rank holds: its kinds ("weight" stood among the German columns).
    const QAbstractItemModel &objects = p.explainView->objects();
    for (int row = 0; row < objects.rowCount(); ++row)
        texts << QStringLiteral(" %1 ").arg(objects.index(row, 0).data().toString());
    return texts;
}

// The words of the engine's English patterns that no German sentence uses: a pattern's fixed
// text between its placeholders, cut into runs of two words or more ("waits in", "does not
// exist"), and a few words that are English alone.
QStringList englishTells()
{
    QStringList tells = {
        QStringLiteral(" the "),      QStringLiteral(" which "),   QStringLiteral(" without "),
        QStringLiteral(" but "),      QStringLiteral(" needs "),   QStringLiteral(" has not "),
        QStringLiteral("Not solved"), QStringLiteral(" is at "),   QStringLiteral(" of "),
        QStringLiteral(" for rank"),  QStringLiteral(" on rank "), QStringLiteral(" at t "),
        QStringLiteral(" objects"),   QStringLiteral(" should "),  QStringLiteral(" does not "),
        QStringLiteral(" at line "),  QStringLiteral(" waited "),  QStringLiteral("Peak "),
        QStringLiteral("Error ("),    QStringLiteral(" weight "),  QStringLiteral(" activation ")};
    static const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
    for (const char *pattern : core::sentencePatterns())
        for (const QString &piece : QString::fromUtf8(pattern).split(placeholder)) {
            const QString trimmed = piece.trimmed();
            if (trimmed.count(QLatin1Char(' ')) >= 2)
                tells << trimmed;
        }
    return tells;
}

// What a text says in English: the first tell found in it, or empty.
QString englishIn(const QString &text)
{
    for (const QString &tell : englishTells())
        if (text.contains(tell))
            return tell;
    return {};
}

struct Mistake {
    const char *name;
    const char *lesson;
    // Replaces `from` in the lesson's solution by `to`.
    const char *from;
    const char *to;
    // What the error dialog says, in German.
    const char *german;
    // Python's own words, which stay as Python says them (and the traceback's frames with them).
    const char *python = nullptr;
};

const Mistake kMistakes[] = {
    {"update before the allreduce", "ddp",
     "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n", "",
     "(Batches 1-3 fehlen; erst allreduce aufrufen)"},
    {"a rank skips the allreduce", "ddp",
     "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n",
     "        if model.rank != 2:\n"
     "            grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n",
     "Rank 2 hielt in Zeile 27 an, ohne allreduce(layer 0) aufzurufen"},
    {"a syntax error", "ddp",
     "for layer in range(model.LAYERS):", "for layer in range(model.LAYERS)",
     "SyntaxError: expected ':' (Zeile 11, Spalte 37)", "expected ':'"},
    {"backward before forward", "ddp",
     "    for layer in range(model.LAYERS):\n"
     "        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])\n",
     "", "KeyError: 'activations von Rank 0 hat keinen Schlüssel 2; es enthält 0'"},
    {"a batch that does not exist", "ddp", "model.get_activation([model.rank])",
     "model.get_activation([model.rank + 2])",
     "get_activation: Batch 4 gibt es nicht; dieser Lauf hat Batches 0-3"},
    {"a name that does not exist", "ddp", "    # ----- your code starts here -----\n",
     "    # ----- your code starts here -----\n    x = undefined_name\n",
     "NameError: name 'undefined_name' is not defined", "name 'undefined_name' is not defined"},
    {"a message to a rank that does not exist", "ddp", "    # ----- your code starts here -----\n",
     "    # ----- your code starts here -----\n    await model.pass_to(7, activations[0])\n",
     "pass_to: Rank 7 gibt es nicht; dieser Lauf hat Ranks 0-3"},
    {"a key deleted twice", "ddp", "        del grad_activations[layer + 1], activations[layer]\n",
     "        del grad_activations[layer + 1], activations[layer]\n"
     "        del activations[layer]\n",
     "activations von Rank 0 hat keinen Schlüssel 1 zum Löschen; es enthält 0, 2"},
    // The hang's picture said "wartet in receive from rank 3" under its German title.
    {"an input gradient never passed back", "zero_bubble",
     "        if not is_first:\n"
     "            await model.pass_to(model.rank - 1, grad_activations[first, mb])\n",
     "", "Rank 2 wartet in receive von Rank 3 in Zeile 34 auf Rank 3"},
    {"the loss taken where the expert left the tokens", "expert_parallel",
     "    activations[2] = await model.alltoall(to_homes(activations[2]), 1, group=experts)\n", "",
     "loss braucht die Tokens von Batch 1 zurück auf Rank 0: Sie sind noch bei Experte 1 auf "
     "Rank 1; führen Sie sie zuerst mit alltoall zusammen"},
};

TEST_F(GermanMistakesTest, TheTypicalMistakesShowNoEnglishSentenceOfTheEngine)
{
    for (const Mistake &mistake : kMistakes) {
        SCOPED_TRACE(mistake.name);
        const QString solution =
            QString::fromStdString(builtinLesson(QString::fromUtf8(mistake.lesson)).solution);
        QString code = solution;
        code.replace(QString::fromUtf8(mistake.from), QString::fromUtf8(mistake.to));
        ASSERT_NE(code, solution);
        auto window = makeWindow();
        ASSERT_TRUE(window->openLesson(QString::fromUtf8(mistake.lesson)));
        window->showScriptCode(code);
        ASSERT_TRUE(runAndWait(*window));
        const QStringList texts = shownTexts(*window);
        ASSERT_FALSE(texts.isEmpty());
        EXPECT_TRUE(texts.join(QLatin1Char('\n')).contains(QString::fromUtf8(mistake.german)))
            << utf8(texts.join(QLatin1Char('\n')));
        for (QString text : texts) {
            // A traceback's frames are Python's ("File "ddp.py", line 4, in ddp").
            text.remove(
                QRegularExpression(QStringLiteral("(^|\n)(Traceback \\(most recent call "
                                                  "last\\):|  File [^\n]*|    [^\n]*)")));
            if (mistake.python)
                text.remove(QString::fromUtf8(mistake.python));
            EXPECT_EQ(englishIn(text), QString()) << utf8(text);
        }
    }
}

// Why a rank waited, as the Why tab's list and the timeline's tooltip say it: every part German
// through the app's phrasebook, and English, as the command line says it, without it.
TEST_F(GermanMistakesTest, AWaitIsExplainedInGerman)
{
    const auto trace = referenceTrace("gpipe");
    ASSERT_TRUE(trace);
    const std::vector<explain::Wait> waits = explain::waits(*trace);
    const auto chained = std::find_if(waits.begin(), waits.end(),
                                      [](const explain::Wait &w) { return !w.chain.empty(); });
    ASSERT_NE(chained, waits.end());
    const QString german =
        QString::fromStdString(explain::describeWait(*trace, *chained, engineWords()));
    EXPECT_TRUE(german.startsWith(QStringLiteral("Rank %1 wartete ").arg(chained->rank)))
        << utf8(german);
    EXPECT_EQ(englishIn(german), QString()) << utf8(german);
    const std::string english = explain::describeWait(*trace, *chained);
    EXPECT_EQ(english.rfind("Rank " + std::to_string(chained->rank) + " waited ", 0), 0U)
        << english;
}

// The Compare tab: a run that failed against the solution, every part German, the error it
// quotes too.
TEST_F(GermanMistakesTest, AComparisonIsExplainedInGerman)
{
    const auto solution = referenceTrace("ddp");
    ASSERT_TRUE(solution);
    core::Trace failed = *solution;
    failed.status = core::RunStatus::Error;
    failed.error = core::Error{
        core::ErrorKind::Check, 2, 8,
        core::say(core::sentence::kBatchNotExist, {"get_activation", "batch 4", "batches 0-3"})};
    const QString german =
        QString::fromStdString(explain::compareText(failed, *solution, engineWords()));
    EXPECT_TRUE(german.contains(QStringLiteral("A hielt bei t ")) &&
                german.contains(QStringLiteral("(Rank 2, Zeile 8: get_activation: Batch 4 gibt es "
                                               "nicht; dieser Lauf hat Batches 0-3)")) &&
                german.contains(QStringLiteral("Endzeiten lassen sich nur vergleichen")))
        << utf8(german);
    EXPECT_EQ(englishIn(german), QString()) << utf8(german);
    EXPECT_NE(explain::compareText(failed, *solution).find("A stopped with an error at t "),
              std::string::npos);
}

} // namespace
} // namespace rankstep::gui::testing
