// SPDX-License-Identifier: MIT
#include "kindcolors.h"

#include <QObject>

namespace rankstep::gui {

QColor kindColor(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::Weight:
            return QColor(0x00, 0x72, 0xb2);
        case core::ObjectKind::OptState:
            return QColor(0x56, 0xb4, 0xe9);
        case core::ObjectKind::Activation:
            return QColor(0xe6, 0x9f, 0x00);
        case core::ObjectKind::ActivationGrad:
            return QColor(0xd5, 0x5e, 0x00);
        case core::ObjectKind::WeightGrad:
            return QColor(0x00, 0x9e, 0x73);
    }
    return Qt::gray;
}

QString kindPlural(core::ObjectKind kind)
{
    return QString::fromUtf8(core::kindWords(kind)) + QStringLiteral("s");
}

} // namespace rankstep::gui
