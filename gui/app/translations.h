// SPDX-License-Identifier: MIT
#pragma once

#include <QLocale>

class QCoreApplication;

namespace rankstep::gui {

// Installs the translation of the user interface for `locale` (the system's by default):
// Rankstep's own, built in at :/i18n (resources/translations/*.ts), and Qt's for its standard
// dialogs when the system has them. Returns whether Rankstep's own was found; English needs none.
bool installTranslations(QCoreApplication &app, const QLocale &locale = QLocale());

// The language `--lang de|en` (or `--lang=de`) asks for among `arguments`, else the system's;
// read before the options are parsed, whose help is translated too. An unknown language is
// English.
QLocale localeFromArguments(const QStringList &arguments);

} // namespace rankstep::gui
