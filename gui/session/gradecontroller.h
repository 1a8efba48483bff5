// SPDX-License-Identifier: MIT
#pragma once

#include "childrun.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// A class folder graded: `rankstep-cli grade FOLDER --roster --json` (README "Grading a class").
struct ClassRoster {
    QString folder;
    QStringList lessons; // the columns, in the app's lesson order
    struct Cell {
        QString status; // "solved", "not solved: <kind of mistake>" or "missing"
        QString file;   // the learner's file it was graded from; empty when missing
        QString error;  // its one-line error; empty when none
        bool solved() const { return status == QLatin1String("solved"); }
        bool missing() const { return status == QLatin1String("missing"); }
    };
    struct Learner {
        QString name;
        std::vector<Cell> cells; // parallel to lessons
    };
    std::vector<Learner> learners;
    struct Mistake {
        QString kind;
        int learners = 0;
        QStringList lessons;
    };
    std::vector<Mistake> mistakes; // most learners first
    double seconds = 0;            // the grading's wall-clock time
};

// Reads the JSON of `grade --roster --json`; false with why for anything else.
bool parseClassRoster(const QByteArray &json, ClassRoster *roster, QString *why);

// Grades a class folder in the background (QCoro): every learner's submissions run as the
// command line grades them, in parallel on every core, each in its own sandboxed run. No learner
// code runs in the app's process.
class GradeController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kStopGraceMs = 3000;

    explicit GradeController(QObject *parent = nullptr);
    ~GradeController() override;

    bool isRunning() const { return m_runs.busy(); }

public Q_SLOTS:
    // Each submission stops at timeLimitSeconds (an endless loop holds only its own run).
    void start(const QString &folder, double timeLimitSeconds = 10);
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    void finished(const rankstep::gui::ClassRoster &roster);
    void failed(const QString &message);
    void stopped();

private:
    QCoro::Task<void> execute(QString folder, double timeLimitSeconds);
    // The grader's answer read, or why it is none (its own words first).
    void report(const ChildOutcome &outcome, const QString &folder);

    ChildRuns m_runs;
};

} // namespace rankstep::gui

Q_DECLARE_METATYPE(rankstep::gui::ClassRoster)
