#include "server-mock/app/ConfigFile.h"

// Qt
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// A config file is small; a larger one is a mistake (the wrong path, a binary).
constexpr qint64 kMaxBytes = 1024 * 1024;

// The value of a path option, taken from the config file's folder when relative ("KID=" kept).
QString resolved(const QString &value, const QDir &folder)
{
    static const QRegularExpression kid(u"^([A-Za-z0-9._-]{1,64}=)(.+)$"_s);
    const QRegularExpressionMatch match = kid.match(value);
    const QString prefix = match.hasMatch() ? match.captured(1) : QString();
    const QString path = match.hasMatch() ? match.captured(2) : value;
    if (path.isEmpty() || QFileInfo(path).isAbsolute())
        return value;
    return prefix + QDir::cleanPath(folder.absoluteFilePath(path));
}

std::optional<bool> flagValue(const QString &text)
{
    const QString lower = text.trimmed().toLower();
    if (lower == u"true" || lower == u"yes" || lower == u"on" || lower == u"1")
        return true;
    if (lower == u"false" || lower == u"no" || lower == u"off" || lower == u"0")
        return false;
    return std::nullopt;
}

} // namespace

std::optional<QStringList> ConfigFile::arguments(const QString &path, const QList<Option> &options,
    const std::function<bool(const QString &)> &isGiven, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists() || !info.isFile() || !info.isReadable()) {
        *error = u"config file '%1': %2"_s.arg(
            path, info.exists() ? u"not a readable file"_s : u"no such file"_s);
        return std::nullopt;
    }
    if (info.size() > kMaxBytes) {
        *error = u"config file '%1': larger than %2 bytes, not a config file"_s.arg(path).arg(
            kMaxBytes);
        return std::nullopt;
    }
    const QSettings settings(path, QSettings::IniFormat);
    if (settings.status() != QSettings::NoError) {
        *error = u"config file '%1': not an INI file (key = value lines)"_s.arg(path);
        return std::nullopt;
    }
    const QDir folder = info.absoluteDir();
    QStringList arguments;
    for (const QString &key : settings.allKeys()) {
        if (key.contains(u'/')) {
            *error = u"config file '%1': '%2' is in a section; options go at the top, before "
                     "any [section]"_s.arg(path, key);
            return std::nullopt;
        }
        const auto option = std::find_if(options.cbegin(), options.cend(),
            [&key](const Option &candidate) { return candidate.name == key; });
        if (option == options.cend()) {
            *error = u"config file '%1': unknown key '%2' (the keys are the long options of "
                     "--help, without their dashes)"_s.arg(path, key);
            return std::nullopt;
        }
        if (isGiven(key))
            continue; // the command line wins
        const QVariant value = settings.value(key);
        QStringList values = value.typeId() == QMetaType::QStringList
            ? value.toStringList()
            : QStringList { value.toString() };
        if (!option->repeatable && values.size() > 1)
            values = { values.join(u',') }; // a comma the file did not quote
        if (!option->takesValue) {
            const std::optional<bool> on = flagValue(values.join(u','));
            if (!on) {
                *error = u"config file '%1': '%2' must be true or false (got \"%3\")"_s.arg(
                    path, key, values.join(u','));
                return std::nullopt;
            }
            if (*on)
                arguments.append(u"--"_s + key);
            continue;
        }
        for (QString &each : values) {
            each = each.trimmed();
            arguments.append(u"--%1=%2"_s.arg(key, option->isPath ? resolved(each, folder) : each));
        }
    }
    return arguments;
}

} // namespace Presence::Server
