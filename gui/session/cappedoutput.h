// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace rankstep::gui {

// What a run printed, kept within a bound however much it printed (a learner's os.write(1, ...)
// of a gigabyte passes the runner's own 1 MiB cap): the first headBytes, the last tailBytes (where
// the runner's closing "Error: ..." line is), and how many bytes in between were dropped.
class CappedOutput
{
public:
    explicit CappedOutput(qsizetype headBytes = 1 << 20, qsizetype tailBytes = 64 << 10);

    void append(const QByteArray &bytes);
    qint64 dropped() const { return m_dropped; }
    qint64 total() const { return m_total; }
    // Head, a line saying how much was dropped (when any), and tail, decoded as UTF-8.
    QString text() const;

private:
    qsizetype m_headBytes, m_tailBytes;
    QByteArray m_head, m_tail;
    qint64 m_dropped = 0, m_total = 0;
};

} // namespace rankstep::gui
