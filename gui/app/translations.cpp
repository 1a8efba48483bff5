// SPDX-License-Identifier: MIT
#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QStringList>
#include <QTranslator>

namespace rankstep::gui {

bool installTranslations(QCoreApplication &app, const QLocale &locale)
{
    // Qt's own (the buttons of QMessageBox, QFileDialog): Debian's qt6-translations-l10n.
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    auto *own = new QTranslator(&app);
    if (!own->load(locale, QStringLiteral("rankstep"), QStringLiteral("_"),
                   QStringLiteral(":/i18n"))) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    return true;
}

QLocale localeFromArguments(const QStringList &arguments)
{
    const QString option = QStringLiteral("--lang");
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &argument = arguments[i];
        if (argument == QStringLiteral("--"))
            break;
        if (argument == option && i + 1 < arguments.size())
            return QLocale(arguments[i + 1]);
        if (argument.startsWith(option + QLatin1Char('=')))
            return QLocale(argument.mid(option.size() + 1));
    }
    return QLocale();
}

} // namespace rankstep::gui
