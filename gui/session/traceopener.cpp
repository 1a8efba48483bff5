// SPDX-License-Identifier: MIT
#include "traceopener.h"

#include "core/io/chrometracereader.h"
#include "core/io/filekind.h"
#include "core/io/realtrace.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "core/regularfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <memory>

namespace rankstep::gui {
namespace {

constexpr std::size_t kMaxSourceBytes = std::size_t(1) << 20; // a puzzle's .py

io::FileKind kindOf(const QString &path, QString *error)
{
    const std::string name = QFile::encodeName(path).toStdString();
    if (const core::Status checked = core::checkRegularFile(name, core::kMaxTraceFileBytes);
        !checked) {
        if (error)
            *error = QString::fromStdString(checked.error().message);
        return io::FileKind::Other;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return io::FileKind::Other;
    }
    const QByteArray head = file.read(64 * 1024);
    return io::sniffFileKind(std::string_view(head.constData(), std::size_t(head.size())));
}

// The learner's file beside the trace: the relative path the trace names (without ".."), from
// the trace's folder or from where the app was started, or its name in the trace's folder.
QString codeBeside(const QString &tracePath, const QString &file)
{
    if (file.isEmpty())
        return {};
    const QDir folder = QFileInfo(tracePath).absoluteDir();
    QStringList candidates;
    const bool plain =
        QDir::isRelativePath(file) &&
        !QDir::cleanPath(file).split(QLatin1Char('/')).contains(QStringLiteral(".."));
    if (plain)
        candidates << folder.filePath(file) << QDir::current().filePath(file);
    candidates << folder.filePath(QFileInfo(file).fileName());
    for (const QString &candidate : candidates) {
        if (!candidate.endsWith(QLatin1String(".py")))
            continue;
        auto text =
            core::readRegularFile(QFile::encodeName(candidate).toStdString(), kMaxSourceBytes);
        if (text)
            return QString::fromUtf8(text->data(), qsizetype(text->size()));
    }
    return {};
}

} // namespace

bool TraceOpener::isTrace(const QString &path)
{
    switch (kindOf(path, nullptr)) {
        case io::FileKind::BinaryTrace:
        case io::FileKind::TraceJson:
        case io::FileKind::RealReport:
        case io::FileKind::ChromeTrace:
            return true;
        default:
            return false;
    }
}

bool TraceOpener::isDemonstration(const QString &path)
{
    return kindOf(path, nullptr) == io::FileKind::Demonstration;
}

OpenedTrace TraceOpener::open(const QString &path)
{
    return open(path, {});
}

OpenedTrace TraceOpener::open(const QString &path, const io::ReadProgress &progress)
{
    const QString name = QFileInfo(path).fileName();
    const auto failed = [&name](const QString &why) {
        return OpenedTrace{std::nullopt, tr("%1 cannot be opened: %2").arg(name, why)};
    };
    QString why;
    const io::FileKind kind = kindOf(path, &why);
    if (!why.isEmpty())
        return failed(why);
    const std::string filePath = QFile::encodeName(path).toStdString();
    // A binary trace is decoded as it is read, never held whole beside the run (16,384 ranks:
    // 0.8 GB); the other kinds are read first.
    core::Result<std::string> bytes = std::string();
    if (kind != io::FileKind::BinaryTrace)
        bytes = core::readRegularFile(filePath, core::kMaxTraceFileBytes);
    if (!bytes)
        return failed(QString::fromStdString(bytes.error().message));
    const std::string_view text(*bytes);
    OpenedRun run;
    core::Result<core::Trace> trace = core::Error{core::ErrorKind::Usage, -1, 0, ""};
    io::TraceJsonOptions options;
    switch (kind) {
        case io::FileKind::BinaryTrace:
            trace = io::traceFromBinaryFile(filePath, &options, progress);
            break;
        case io::FileKind::TraceJson:
            trace = io::traceFromJson(text, options);
            break;
        case io::FileKind::RealReport:
            trace = io::realTraceFromJson(text);
            run.real = true;
            break;
        case io::FileKind::ChromeTrace: {
            auto chrome = io::runFromChromeJson(text);
            if (!chrome)
                return failed(QString::fromStdString(chrome.error().message));
            run.profile = true;
            run.real = !chrome->simulated;
            trace = std::move(chrome->trace);
            break;
        }
        default:
            return failed(tr("it is no trace, run report or Chrome trace that Rankstep writes."));
    }
    if (!trace)
        return failed(QString::fromStdString(trace.error().message));
    run.trace = std::make_shared<const core::Trace>(std::move(*trace));
    run.units = run.real || run.trace->config.cost.realScale() ? TraceUnits::Seconds
                                                               : TraceUnits::SimulatedSteps;
    run.file = QString::fromStdString(options.file);
    run.function = QString::fromStdString(options.function);
    run.code = codeBeside(path, run.file);
    return OpenedTrace{std::move(run), {}};
}

QString TraceOpener::describe(const OpenedRun &run)
{
    const core::RunConfig &config = run.trace->config;
    const QString ranks = config.ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(config.ranks);
    if (run.profile)
        return run.real ? tr("torch.profiler's trace of a real run, %1").arg(ranks)
                        : tr("a Chrome trace of a simulated run, %1").arg(ranks);
    const QString shape =
        tr("%1, %2 layers, %3 batches").arg(ranks).arg(config.layers).arg(config.batches);
    if (run.real)
        return tr("a run on real processes, %1").arg(shape);
    if (run.function.isEmpty())
        return shape;
    if (run.file.isEmpty())
        return tr("%1, %2").arg(run.function, shape);
    return tr("%1 from %2, %3").arg(run.function, run.file, shape);
}

} // namespace rankstep::gui
