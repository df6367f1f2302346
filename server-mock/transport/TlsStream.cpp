#include "server-mock/transport/TlsStream.h"

// C++
#include <algorithm>
#include <cerrno>
#include <climits>

// OpenSSL
#include <openssl/err.h>
#include <openssl/ssl.h>

// Presence
#include "server-mock/transport/TlsContext.h"

namespace Presence::Server {

TlsStream::TlsStream(std::shared_ptr<const TlsContext> context, int descriptor)
    : m_context(std::move(context))
    , m_ssl(SSL_new(m_context->get()))
{
    if (!m_ssl || SSL_set_fd(m_ssl, descriptor) != 1)
        m_broken = true;
    else
        SSL_set_accept_state(m_ssl);
    ERR_clear_error();
}

TlsStream::~TlsStream()
{
    SSL_free(m_ssl);
}

TlsStream::Step TlsStream::handshake()
{
    if (m_broken)
        return Step::Failed;
    ERR_clear_error();
    const int result = SSL_do_handshake(m_ssl);
    if (result == 1)
        return Step::Done;
    const int error = SSL_get_error(m_ssl, result);
    ERR_clear_error(); // a stranger's bad handshake is not ours to keep on the error queue
    switch (error) {
    case SSL_ERROR_WANT_READ:
        return Step::WantRead;
    case SSL_ERROR_WANT_WRITE:
        return Step::WantWrite;
    default:
        m_broken = true;
        return Step::Failed;
    }
}

ssize_t TlsStream::read(char *data, size_t size)
{
    if (m_broken) {
        errno = ECONNRESET;
        return -1;
    }
    ERR_clear_error();
    return outcome(SSL_read(m_ssl, data, int(std::min<size_t>(size, INT_MAX))));
}

ssize_t TlsStream::write(const char *data, size_t size)
{
    if (m_broken) {
        errno = EPIPE;
        return -1;
    }
    if (size == 0)
        return 0;
    ERR_clear_error();
    return outcome(SSL_write(m_ssl, data, int(std::min<size_t>(size, INT_MAX))));
}

ssize_t TlsStream::outcome(int result)
{
    m_wantsWrite = false;
    if (result > 0)
        return result;
    const int error = SSL_get_error(m_ssl, result);
    ERR_clear_error();
    switch (error) {
    case SSL_ERROR_WANT_READ:
        errno = EAGAIN;
        return -1;
    case SSL_ERROR_WANT_WRITE:
        m_wantsWrite = true;
        errno = EAGAIN;
        return -1;
    case SSL_ERROR_ZERO_RETURN: // close_notify
        return 0;
    case SSL_ERROR_SYSCALL:
        m_broken = true;
        if (errno == 0 || errno == EAGAIN)
            return 0; // the peer closed TCP without close_notify
        return -1;
    default:
        m_broken = true;
        errno = EPROTO;
        return -1;
    }
}

bool TlsStream::hasBuffered() const
{
    return !m_broken && SSL_pending(m_ssl) > 0;
}

void TlsStream::shutdown()
{
    if (m_broken || !SSL_is_init_finished(m_ssl))
        return;
    ERR_clear_error();
    // One close_notify; the peer's answer is not awaited (the descriptor closes next).
    (void)SSL_shutdown(m_ssl);
    ERR_clear_error();
    m_broken = true;
}

} // namespace Presence::Server
