#pragma once

// C++
#include <functional>
#include <memory>
#include <optional>

// Qt
#include <QHostAddress>
#include <QObject>
#include <QString>

// Presence
#include "server-mock/transport/ConnectionRefusal.h"

namespace Presence::Server {

class ClientTransport;
class TlsContext;

// How clients' WebSockets come in, whichever transport carries them: listens, upgrades each TCP
// connection and hands over its ClientTransport, or refuses it and says why. Our own
// (WebSocketAcceptor) and Qt's (QtWebSocketAcceptor) behind one seam, so that the gateway has
// one accept path.
class ClientAcceptor : public QObject {
    Q_OBJECT
public:
    // Asked for every TCP connection before its upgrade: false refuses it with HTTP 503.
    using AdmissionCheck = std::function<bool()>;

    using QObject::QObject;

    [[nodiscard]] virtual bool listen(const QHostAddress &address, quint16 port, QString *error)
        = 0;
    // Stops listening; upgrades under way end.
    virtual void close() = 0;
    [[nodiscard]] virtual QHostAddress address() const = 0;
    [[nodiscard]] virtual quint16 port() const = 0;
    virtual void setAdmissionCheck(AdmissionCheck check) = 0;
    // Serves wss:// with this identity from the next connection on; nullptr: ws://.
    virtual void setTls(std::shared_ptr<const TlsContext> tls) = 0;
    // TCP connections held now, upgraded or not; nullopt when the transport cannot tell.
    [[nodiscard]] virtual std::optional<int> heldCount() const = 0;

Q_SIGNALS:
    // Upgraded: the receiver adopts the transport.
    void transportReady(Presence::Server::ClientTransport *transport);
    void refused(Presence::Server::ConnectionRefusal reason);
    // Accepting paused at the descriptor limit (the own transport; Qt's does not tell).
    void pausedAtDescriptorLimit();
};

} // namespace Presence::Server
