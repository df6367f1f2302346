#include "server-mock/app/JsonLog.h"

// C++
#include <cstdio>

// Qt
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

QString levelOf(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return u"debug"_s;
    case QtInfoMsg:
        return u"info"_s;
    case QtWarningMsg:
        return u"warning"_s;
    case QtCriticalMsg:
        return u"critical"_s;
    case QtFatalMsg:
        return u"fatal"_s;
    }
    return u"info"_s;
}

void writeLine(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray line
        = JsonLog::line(type, context.category, message, QDateTime::currentDateTimeUtc());
    // One write per line: lines from two threads never interleave within one.
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

QByteArray JsonLog::line(
    QtMsgType type, const char *category, const QString &message, const QDateTime &time)
{
    static const QRegularExpression connection(u"\\bconnection (\\d+)\\b"_s);
    static const QRegularExpression user(u"\\b(?:signed in as|of) \"([A-Za-z0-9._-]{1,64})\""_s);
    QJsonObject object { { "time"_L1, time.toUTC().toString(Qt::ISODateWithMs) },
        { "level"_L1, levelOf(type) },
        { "category"_L1, QString::fromUtf8(category ? category : "default") },
        { "message"_L1, message } };
    if (const QRegularExpressionMatch match = connection.match(message); match.hasMatch())
        object.insert("connection"_L1, match.captured(1).toLongLong());
    if (const QRegularExpressionMatch match = user.match(message); match.hasMatch())
        object.insert("user"_L1, match.captured(1));
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

void JsonLog::install()
{
    qInstallMessageHandler(writeLine);
}

} // namespace Presence::Server
