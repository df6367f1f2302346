#include "ClientSteps.h"

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestClient.h"

using namespace Qt::StringLiterals;

namespace ClientSteps {

std::unique_ptr<TestClient> signIn(const QUrl &url, const QString &id, const QString &status)
{
    auto client = std::make_unique<TestClient>();
    QJsonObject extra;
    if (!status.isEmpty())
        extra.insert("status"_L1, status);
    const QJsonObject welcome = client->login(url, tokenOf(id), extra);
    if (welcome.value("user"_L1).toObject().value("id"_L1).toString() != id) {
        qWarning("login as %s failed: %s", qPrintable(id),
            PresenceFrames::dump(client->received()).constData());
        return nullptr;
    }
    return client;
}

QJsonObject subscribe(TestClient &client, const QStringList &ids)
{
    return client.request(
        { { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray::fromStringList(ids) } });
}

QJsonObject unsubscribe(TestClient &client, const QStringList &ids)
{
    return client.request(
        { { "type"_L1, "unsubscribe"_L1 }, { "ids"_L1, QJsonArray::fromStringList(ids) } });
}

QJsonObject setStatus(TestClient &client, const QString &status)
{
    return client.request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, status } });
}

QJsonObject watchAvailability(TestClient &client)
{
    return client.request({ { "type"_L1, "watch_availability"_L1 } });
}

void roundTrip(TestClient &client)
{
    const QJsonObject pong = client.request({ { "type"_L1, "ping"_L1 } });
    if (pong.value("type"_L1).toString() != u"pong")
        qWarning("ping got %s", QJsonDocument(pong).toJson(QJsonDocument::Compact).constData());
}

bool closeAndWait(const Presence::Server::Gateway &gateway, TestClient &client)
{
    const int before = gateway.connectionCount();
    client.socket().close();
    return client.waitDisconnected()
        && QTest::qWaitFor([&] { return gateway.connectionCount() == before - 1; }, 5000);
}

} // namespace ClientSteps
