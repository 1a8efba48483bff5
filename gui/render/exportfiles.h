// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/tracejson.h"
#include "core/replay/state.h"
#include "core/trace.h"
#include "exportfigure.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace rankstep::gui {

// Writers for File > Export and `rankstep-cli --svg/--png/--state-png`. Each writes through
// core::writeWholeFile (a failed write leaves no half file and keeps the file that was there) and
// returns an empty string, or a sentence naming the file and the reason ("Could not write /x.svg:
// the disk is full (No space left on device)").

// The timeline-and-memory figure as an SVG of options.size pixels (width, height and viewBox).
QByteArray timelineFigureSvg(const std::shared_ptr<const core::Trace> &trace,
                             const FigureOptions &options);
QString writeTimelineSvg(const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options, const QString &path);
QString writeTimelinePng(const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options, const QString &path);
QString writeStatePng(const std::shared_ptr<const core::Trace> &trace,
                      const replay::RunState &state, const FigureOptions &options,
                      const QString &path);
// The explanation slide (explainfigure.h), as SVG or PNG.
QString writeExplainFigure(const core::Trace &trace, const FigureOptions &options,
                           const QString &path, bool svg);
// docs/trace-format.md, what `rankstep-cli run --json` writes.
QString writeTraceJson(const core::Trace &trace, const io::TraceJsonOptions &options,
                       const QString &path);
// Chrome's Trace Event Format, which ui.perfetto.dev opens.
QString writePerfettoTrace(const core::Trace &trace, const QString &path);

} // namespace rankstep::gui
