#pragma once

// Qt
#include <QByteArrayView>

namespace Presence::Server {

// An incremental UTF-8 validator (RFC 3629): a text message may arrive in fragments and reads,
// split anywhere, even inside a character. A small DFA over byte classes; it refuses overlong
// forms, the surrogates U+D800-U+DFFF and anything above U+10FFFF, and fails on the first byte
// that cannot continue a valid text (RFC 6455 §8.1 "fail fast"). One byte of state, no memory.
class Utf8Validator {
public:
    // Checks the next bytes. Returns false once the text so far can no longer be valid UTF-8
    // (and keeps returning false until reset()).
    bool feed(QByteArrayView bytes);

    // Whether everything fed so far is valid and ends on a character boundary: the test at the
    // end of a message, where a truncated character is invalid.
    [[nodiscard]] bool isComplete() const { return m_state == Accept; }
    [[nodiscard]] bool hasFailed() const { return m_state == Reject; }
    void reset() { m_state = Accept; }

    // The whole text at once.
    [[nodiscard]] static bool isValid(QByteArrayView text);

private:
    // The DFA's states (Utf8Validator.cpp); these two are all the header needs.
    static constexpr quint8 Accept = 0;
    static constexpr quint8 Reject = 1;

    quint8 m_state = Accept;
};

} // namespace Presence::Server
