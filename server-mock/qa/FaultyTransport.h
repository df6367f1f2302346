#pragma once

// C++
#include <chrono>
#include <deque>
#include <memory>

// Qt
#include <QStringList>
#include <QTimer>

// Presence
#include "server-mock/transport/ClientTransport.h"

namespace Presence::Server {

// A connection's transport as the delay and stall faults make it (docs/scenarios.md): each
// outgoing frame waits `delay` before it is written, in order; a stalled transport neither
// reads nor writes anything (no pings, no pongs) until it is released, then catches up in
// order: what it wrote, what it had read, then what waited in TCP. Everything else passes
// through to the transport it decorates, which it adopts.
class FaultyTransport : public ClientTransport, private ClientTransport::Receiver {
public:
    explicit FaultyTransport(ClientTransport *inner);

    void setOutgoingDelay(std::chrono::milliseconds delay);
    void setStalled(bool stalled);
    [[nodiscard]] bool isStalled() const { return m_stalled; }

    [[nodiscard]] QString peer() const override { return m_inner->peer(); }
    [[nodiscard]] bool isOpen() const override { return m_inner->isOpen(); }
    [[nodiscard]] qint64 bytesToWrite() const override { return m_inner->bytesToWrite(); }
    void sendText(const QByteArray &frame) override;
    void ping() override;
    void close(quint16 code, const QString &reason) override;
    void abort() override;
    void setReadingPaused(bool paused) override;
    [[nodiscard]] bool isReadingPaused() const override;

private:
    void transportText(const QString &text) override;
    void transportBinary() override { tellBinary(); }
    bool transportPing() override { return tellPing(); }
    void transportPong() override { tellPong(); }
    void transportReadingResumed() override { tellReadingResumed(); }
    void transportClosed(quint16 closeCode) override { tellClosed(closeCode); }
    void writeDue();

    struct Queued {
        std::chrono::steady_clock::time_point due;
        QByteArray frame;
    };
    std::unique_ptr<ClientTransport> m_inner;
    std::chrono::milliseconds m_delay { 0 };
    bool m_stalled = false;
    bool m_pausedByOwner = false; // reading paused by the connection itself, not by the stall
    bool m_ending = false; // closed or aborted: nothing more is written
    std::deque<Queued> m_outbox; // frames held by a delay or a stall, in order
    QStringList m_inbox; // frames read just before the stall began, handed over at its end
    QTimer m_outboxTimer; // also the context of its timeout's connection
};

} // namespace Presence::Server
