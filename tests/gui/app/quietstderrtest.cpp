// SPDX-License-Identifier: MIT
// A learner's terminal: the app prints no debug lines of its own unless asked to
// (QT_LOGGING_RULES), so what it does print (a lesson that failed to load, a saving failure)
// stands out.
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace rankstep::gui::testing {
namespace {

// Runs the solution of the DDP lesson in the app, as a script does, and returns its stderr.
QByteArray scriptedRunStderr(const QString &loggingRules)
{
    QTemporaryDir home;
    EXPECT_TRUE(home.isValid());
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(name), home.filePath(QString::fromLatin1(name)));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("QT_LOGGING_RULES"));
    if (!loggingRules.isEmpty())
        env.insert(QStringLiteral("QT_LOGGING_RULES"), loggingRules);
    app.setProcessEnvironment(env);
    app.start(
        QStringLiteral(RANKSTEP_APP),
        {QStringLiteral("--lesson"), QStringLiteral("ddp"), QStringLiteral("--code"),
         QStringLiteral(RANKSTEP_SOURCE_DIR "/lessons/30-ddp/solution.py"), QStringLiteral("--run"),
         QStringLiteral("--screenshot"), home.filePath(QStringLiteral("shot.png"))});
    const bool ended = app.waitForFinished(60000);
    if (!ended)
        app.kill();
    EXPECT_TRUE(ended) << "the scripted run did not end";
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().constData();
    return app.readAllStandardError();
}

TEST(QuietStderr, TheAppPrintsNoDebugLinesByDefault)
{
    const QByteArray err = scriptedRunStderr({});
    EXPECT_FALSE(err.contains("rankstep.")) << err.constData();
}

TEST(QuietStderr, LoggingRulesStillTurnTheDebugLinesOn)
{
    // The child run's category says when it starts the runner: proof the rules reach it.
    const QByteArray err = scriptedRunStderr(QStringLiteral("rankstep.*.debug=true"));
    EXPECT_TRUE(err.contains("rankstep.child")) << err.constData();
}

} // namespace
} // namespace rankstep::gui::testing
