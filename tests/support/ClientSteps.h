#pragma once

// C++
#include <memory>

// Qt
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

class TestClient;

namespace Presence::Server {
class Gateway;
}

// What a test's client does with a gateway, one call a step: sign in as a user of the test
// population (GatewayFixture), the presence requests of docs/protocol.md, each sent and its
// answer waited for (an empty object on timeout), and leaving.
namespace ClientSteps {

// Signs `id` in at `url` with tokenOf(id), asking for `status` in the hello when one is given.
// nullptr, with a qWarning of what arrived, unless the welcome names `id`.
[[nodiscard]] std::unique_ptr<TestClient> signIn(
    const QUrl &url, const QString &id, const QString &status = {});

[[nodiscard]] QJsonObject subscribe(TestClient &client, const QStringList &ids);
[[nodiscard]] QJsonObject unsubscribe(TestClient &client, const QStringList &ids);
[[nodiscard]] QJsonObject setStatus(TestClient &client, const QString &status);
// watch_availability, answered with `availability`.
[[nodiscard]] QJsonObject watchAvailability(TestClient &client);

// Sends a ping and waits for its pong: every frame the gateway sent before has arrived then.
// A qWarning when no pong comes.
void roundTrip(TestClient &client);

// Closes the client's socket and waits until the gateway has let go of the connection.
[[nodiscard]] bool closeAndWait(const Presence::Server::Gateway &gateway, TestClient &client);

} // namespace ClientSteps
