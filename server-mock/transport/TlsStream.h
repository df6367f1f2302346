#pragma once

// C++
#include <memory>
// System
#include <sys/types.h>

typedef struct ssl_st SSL;

namespace Presence::Server {

class TlsContext;

// The server side of one TLS connection on a non-blocking socket (OpenSSL over the
// descriptor, which stays the caller's to watch and close). It reads and writes as recv() and
// send() do, so that a transport can use either.
class TlsStream {
public:
    enum class Step { Done, WantRead, WantWrite, Failed };

    // Keeps the context for the connection's life.
    TlsStream(std::shared_ptr<const TlsContext> context, int descriptor);
    ~TlsStream();
    TlsStream(const TlsStream &) = delete;
    TlsStream &operator=(const TlsStream &) = delete;

    // Moves the handshake on; Done once it is over (then again at once).
    [[nodiscard]] Step handshake();
    // Bytes read or written; 0 when the peer closed (read); -1 with errno EAGAIN to wait (for
    // readability, or writability when wantsWrite()), or with another errno when broken.
    [[nodiscard]] ssize_t read(char *data, size_t size);
    [[nodiscard]] ssize_t write(const char *data, size_t size);
    [[nodiscard]] bool wantsWrite() const { return m_wantsWrite; }
    // Decrypted bytes held here: a read returns them without the socket saying so.
    [[nodiscard]] bool hasBuffered() const;
    // Sends close_notify, once, without waiting for the peer's.
    void shutdown();

private:
    // Maps OpenSSL's outcome of a read or write to recv()/send()'s.
    ssize_t outcome(int result);

    std::shared_ptr<const TlsContext> m_context;
    SSL *m_ssl;
    bool m_wantsWrite = false;
    bool m_broken = false;
};

} // namespace Presence::Server
