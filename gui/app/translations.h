// SPDX-License-Identifier: MIT
#pragma once

#include <QLocale>

class QCoreApplication;

namespace rankstep::gui {

// Installs the translation of the user interface for `locale` (the system's by default; the
// lessons stay English): Rankstep's own, built in at :/i18n (resources/translations/*.ts), and
// Qt's for its standard dialogs when the system has them. Returns whether Rankstep's own was
// found; English needs none.
bool installTranslations(QCoreApplication &app, const QLocale &locale = QLocale());

} // namespace rankstep::gui
