// SPDX-License-Identifier: MIT
#include "kindcolors.h"

#include <QCoreApplication>

namespace rankstep::gui {
namespace {

struct KindText {
    Q_DECLARE_TR_FUNCTIONS(KindText)
};

} // namespace

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
    switch (kind) {
        case core::ObjectKind::Weight:
            return KindText::tr("weights");
        case core::ObjectKind::OptState:
            return KindText::tr("optimizer states");
        case core::ObjectKind::Activation:
            return KindText::tr("activations");
        case core::ObjectKind::ActivationGrad:
            return KindText::tr("activation gradients");
        case core::ObjectKind::WeightGrad:
            return KindText::tr("weight gradients");
    }
    return QString::fromUtf8(core::kindWords(kind)) + QStringLiteral("s");
}

} // namespace rankstep::gui
