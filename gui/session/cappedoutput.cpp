// SPDX-License-Identifier: MIT
#include "cappedoutput.h"

#include <QObject>

namespace rankstep::gui {

CappedOutput::CappedOutput(qsizetype headBytes, qsizetype tailBytes)
    : m_headBytes(headBytes), m_tailBytes(tailBytes)
{}

void CappedOutput::append(const QByteArray &bytes)
{
    m_total += bytes.size();
    qsizetype used = 0;
    if (m_head.size() < m_headBytes) {
        used = std::min(bytes.size(), m_headBytes - m_head.size());
        m_head.append(bytes.constData(), used);
    }
    const qsizetype rest = bytes.size() - used;
    if (rest == 0)
        return;
    // The tail keeps the last tailBytes: what falls out of it is dropped.
    const qsizetype fromRest = std::min(rest, m_tailBytes);
    const qsizetype keepOld = std::min(m_tail.size(), m_tailBytes - fromRest);
    m_dropped += (m_tail.size() - keepOld) + (rest - fromRest);
    m_tail =
        m_tail.right(keepOld) + QByteArray(bytes.constData() + bytes.size() - fromRest, fromRest);
}

QString CappedOutput::text() const
{
    QString text = QString::fromUtf8(m_head);
    if (m_dropped > 0)
        text += QObject::tr("\n[output cut: %1 more bytes were printed here and dropped]\n")
                    .arg(m_dropped);
    return text + QString::fromUtf8(m_tail);
}

} // namespace rankstep::gui
