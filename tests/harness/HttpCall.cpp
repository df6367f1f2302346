#include "tests/harness/HttpCall.h"

// C++
#include <chrono>
#include <memory>

// Qt
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>

// Presence
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

QJsonObject HttpAnswer::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString HttpAnswer::errorCode() const
{
    return json().value("error"_L1).toObject().value("code"_L1).toString();
}

QString HttpAnswer::errorMessage() const
{
    return json().value("error"_L1).toObject().value("message"_L1).toString();
}

HttpAnswer httpCall(QNetworkAccessManager &http, const QByteArray &verb, const QUrl &url,
    const QByteArray &body, const QByteArray &authorization)
{
    QNetworkRequest request(url);
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization"_ba, authorization);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    std::unique_ptr<QNetworkReply> reply(http.sendCustomRequest(request, verb, body));
    if (!Harness::waitUntil([&reply] { return reply->isFinished(); }, 5s)) {
        qWarning() << "no answer to" << verb << url;
        return {};
    }
    HttpAnswer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        answer.headers.insert(name.toLower(), value);
    return answer;
}
