// SPDX-License-Identifier: MIT
#include "traceloader.h"

#include "residentmemory.h"

#include <QCoreApplication>
#include <QCoroFuture>
#include <QCoroTask>
#include <QEvent>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>

Q_LOGGING_CATEGORY(lcTraceLoader, "rankstep.open")

namespace rankstep::gui {
namespace {

// The parts made after the read: the stepping, and each of TraceDerived::prepare's.
constexpr int kParts = 1 + TraceDerived::kParts;

// The calling thread (one of the loader's own) gives way to the GUI thread: a nice value of 5 on
// Linux, where it is a thread's own. Both cores read and prepare, and the window still answers
// within a frame on a loaded machine.
void giveWay()
{
    const auto thread = id_t(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, thread);
    if (errno == 0 && nice < 5)
        setpriority(PRIO_PROCESS, thread, 5);
}

// What the decoded trace holds in its long lists, in MiB (docs/benchmarks.md).
void logTraceSizes(const core::Trace &trace)
{
    const auto mib = [](std::size_t count, std::size_t bytes) {
        return QString::number(double(count * bytes) / double(1 << 20), 'f', 0);
    };
    qCDebug(lcTraceLoader).noquote()
        << QStringLiteral(
               "the trace holds %1 events (%2 MiB), %3 changes (%4 MiB), %5 slices "
               "(%6 MiB)")
               .arg(trace.events.size())
               .arg(mib(trace.events.size(), sizeof(core::Event)))
               .arg(trace.changes.size())
               .arg(mib(trace.changes.size(), sizeof(core::StorageChange)))
               .arg(trace.slices.size())
               .arg(mib(trace.slices.size(), sizeof(core::Slice)));
}

struct Outcome {
    std::shared_ptr<PreparedRun> run; // null: failed (error) or cancelled (neither)
    QString error;
};

// On the worker: everything the open needs, or nothing once cancelled (the half-made run is
// freed here, not on the GUI thread).
std::shared_ptr<Outcome> prepare(const QString &path,
                                 const std::shared_ptr<TraceLoader::Work> &work, QThreadPool *pool)
{
    giveWay();
    const QElapsedTimer &clock = work->clock;
    auto outcome = std::make_shared<Outcome>();
    const auto keepGoing = [&work] {
        return !work->cancelled.load();
    };
    if (work->checkpoint)
        work->checkpoint(TraceLoader::Stage::Reading);
    OpenedTrace opened = TraceOpener::open(path, [&work](std::uint64_t read, std::uint64_t size) {
        work->read = read;
        work->size = size;
        return !work->cancelled.load();
    });
    if (!keepGoing())
        return outcome;
    if (!opened.run) {
        outcome->error = opened.error;
        return outcome;
    }
    qCDebug(lcTraceLoader) << "read and decoded" << path << "in" << clock.elapsed() << "ms;"
                           << qUtf8Printable(residentMemory());
    if (lcTraceLoader().isDebugEnabled())
        logTraceSizes(*opened.run->trace);
    work->stage = int(TraceLoader::Stage::Preparing);
    if (work->checkpoint)
        work->checkpoint(TraceLoader::Stage::Preparing);
    auto run = std::make_shared<PreparedRun>();
    run->run = std::move(*opened.run);
    const TracePtr trace = run->run.trace;
    // The stepping on the other core while this one derives the views' parts.
    QFuture<std::shared_ptr<Stepping>> stepping = QtConcurrent::run(pool, [trace, work] {
        giveWay();
        auto made = std::make_shared<Stepping>(Stepping::of(*trace));
        qCDebug(lcTraceLoader) << "the stepping made at" << work->clock.elapsed() << "ms;"
                               << qUtf8Printable(residentMemory());
        ++work->partsDone;
        return made;
    });
    auto derived = std::make_shared<TraceDerived>(trace);
    derived->prepare([&work, &keepGoing] {
        if (!keepGoing())
            return false;
        ++work->partsDone;
        return true;
    });
    qCDebug(lcTraceLoader) << "the views' parts made at" << clock.elapsed() << "ms;"
                           << qUtf8Printable(residentMemory());
    stepping.waitForFinished();
    if (!keepGoing())
        return outcome;
    run->stepping = std::move(*stepping.result());
    run->derived = std::move(derived);
    outcome->run = std::move(run);
    return outcome;
}

// Calls `done` once the first paint after it was made is done: queued after that paint, so the
// widgets painted in the same frame are done too. Watches every object's events while it waits.
class PaintWatch : public QObject
{
public:
    PaintWatch(QObject *parent, std::function<void()> done)
        : QObject(parent), m_done(std::move(done))
    {
        QCoreApplication::instance()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            QCoreApplication::instance()->removeEventFilter(this);
            QTimer::singleShot(0, this, [this] {
                m_done();
                deleteLater();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_done;
    bool m_seen = false;
};

} // namespace

TraceLoader::TraceLoader(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(2); // the read, then the stepping beside the views' parts
    m_ticker.setInterval(100);
    connect(&m_ticker, &QTimer::timeout, this, &TraceLoader::progressChanged);
}

TraceLoader::~TraceLoader()
{
    blockSignals(true); // an open the window's end stops is news to nobody: they go first
    cancel();
}

void TraceLoader::open(const QString &path)
{
    cancel();
    m_work = std::make_shared<Work>();
    m_work->checkpoint = m_checkpoint;
    m_work->clock.start();
    m_path = path;
    m_ticker.start();
    Q_EMIT busyChanged(true);
    Q_EMIT progressChanged();
    load(path, m_work); // reports its own errors; never awaited
}

void TraceLoader::cancel()
{
    if (!m_work)
        return;
    m_work->cancelled = true;
    finish();
}

void TraceLoader::finish()
{
    m_work.reset();
    m_path.clear();
    m_ticker.stop();
    Q_EMIT busyChanged(false);
}

QCoro::Task<void> TraceLoader::load(QString path, std::shared_ptr<Work> work)
{
    QPointer<TraceLoader> self(this);
    try {
        // A named future: g++ 12 ends a temporary's life too early across a co_await.
        QFuture<std::shared_ptr<Outcome>> preparing = QtConcurrent::run(
            &m_pool, [path, work, pool = &m_pool] { return prepare(path, work, pool); });
        const std::shared_ptr<Outcome> outcome = co_await preparing;
        if (!self || work != m_work)
            co_return; // cancelled, or another open took its place
        finish();
        if (outcome->run) {
            const qint64 ready = work->clock.elapsed();
            Q_EMIT loaded(outcome->run, path);
            qCDebug(lcTraceLoader) << "the run taken in at" << work->clock.elapsed() << "ms (the"
                                   << "GUI thread held" << work->clock.elapsed() - ready << "ms)";
            if (self)
                logWhenPainted(work);
        } else {
            Q_EMIT failed(outcome->error, path);
        }
    } catch (const std::exception &e) {
        qCWarning(lcTraceLoader) << "opening" << path << "failed:" << e.what();
        if (self && work == m_work) {
            finish();
            Q_EMIT failed(tr("%1 cannot be opened: %2")
                              .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())),
                          path);
        }
    }
}

void TraceLoader::logWhenPainted(const std::shared_ptr<Work> &work)
{
    if (!lcTraceLoader().isDebugEnabled())
        return;
    new PaintWatch(this, [work] {
        qCDebug(lcTraceLoader) << "the run on screen at" << work->clock.elapsed() << "ms;"
                               << qUtf8Printable(residentMemory());
    });
}

QString TraceLoader::progressText() const
{
    if (!m_work)
        return {};
    const QString name = QFileInfo(m_path).fileName();
    if (m_work->stage.load() == int(Stage::Preparing))
        return tr("Preparing the steps and the views of %1").arg(name);
    const std::uint64_t size = m_work->size.load();
    if (size == 0)
        return tr("Reading %1").arg(name);
    const auto megabytes = [](std::uint64_t bytes) {
        return QString::number(double(bytes) / 1e6, 'f', 0);
    };
    return tr("Reading %1: %2 of %3 MB").arg(name, megabytes(m_work->read), megabytes(size));
}

std::int64_t TraceLoader::progressDone() const
{
    if (!m_work)
        return 0;
    if (m_work->stage.load() == int(Stage::Preparing))
        return m_work->partsDone.load();
    return std::int64_t(m_work->read.load() >> 10);
}

std::int64_t TraceLoader::progressTotal() const
{
    if (!m_work)
        return 0;
    if (m_work->stage.load() == int(Stage::Preparing))
        return kParts;
    return std::int64_t(m_work->size.load() >> 10);
}

} // namespace rankstep::gui
