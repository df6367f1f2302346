#pragma once

// Qt
#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;

// One HTTP answer, however it came (QNetworkAccessManager or a raw socket).
struct HttpAnswer {
    int status = 0; // 0: no answer
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // names in lower case
    bool closed = false; // raw requests: the server closed the connection after answering
    int responses = 0; // raw requests: final (non-1xx) responses received

    [[nodiscard]] QJsonObject json() const;
    // The "error" object's code and message (docs/admin-api.md).
    [[nodiscard]] QString errorCode() const;
    [[nodiscard]] QString errorMessage() const;
    [[nodiscard]] QByteArray header(const QByteArray &name) const
    {
        return headers.value(name.toLower());
    }
};

// Sends one request and waits (event loop running) for its answer; status 0 after 5 s.
// authorization is the whole header value ("Bearer …"), none when empty.
HttpAnswer httpCall(QNetworkAccessManager &http, const QByteArray &verb, const QUrl &url,
    const QByteArray &body = {}, const QByteArray &authorization = {});
