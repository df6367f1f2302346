#include "server-mock/websocket/Utf8Validator.h"

// C++
#include <array>
#include <cstring>

namespace Presence::Server {

namespace {

// Classes of bytes that the DFA treats alike.
enum Class : quint8 {
    Ascii, // 00-7F
    Cont80, // 80-8F
    Cont90, // 90-9F
    ContA0, // A0-BF
    Never, // C0, C1 (always overlong), F5-FF (past U+10FFFF)
    Lead2, // C2-DF
    LeadE0,
    Lead3, // E1-EC, EE-EF
    LeadED,
    LeadF0,
    Lead4, // F1-F3
    LeadF4,
    ClassCount,
};

constexpr std::array<quint8, 256> makeClasses()
{
    std::array<quint8, 256> classes {};
    for (int byte = 0; byte < 256; ++byte) {
        quint8 c = Never;
        if (byte < 0x80)
            c = Ascii;
        else if (byte < 0x90)
            c = Cont80;
        else if (byte < 0xA0)
            c = Cont90;
        else if (byte < 0xC0)
            c = ContA0;
        else if (byte >= 0xC2 && byte <= 0xDF)
            c = Lead2;
        else if (byte == 0xE0)
            c = LeadE0;
        else if (byte == 0xED)
            c = LeadED;
        else if (byte >= 0xE1 && byte <= 0xEF)
            c = Lead3;
        else if (byte == 0xF0)
            c = LeadF0;
        else if (byte >= 0xF1 && byte <= 0xF3)
            c = Lead4;
        else if (byte == 0xF4)
            c = LeadF4;
        classes[byte] = c;
    }
    return classes;
}

// States of the DFA; the ones in between say which continuation bytes may follow.
namespace S {
enum : quint8 {
    Accept, // between characters (Utf8Validator::Accept)
    Reject, // no valid text starts this way (Utf8Validator::Reject)
    OneMore, // any continuation byte, then done
    TwoMore,
    ThreeMore,
    AfterE0, // A0-BF: below is overlong
    AfterED, // 80-9F: above is a surrogate
    AfterF0, // 90-BF: below is overlong
    AfterF4, // 80-8F: above is past U+10FFFF
    StateCount,
};
} // namespace S
using Row = std::array<quint8, ClassCount>;

constexpr std::array<Row, S::StateCount> makeTransitions()
{
    std::array<Row, S::StateCount> next {};
    for (Row &row : next)
        row.fill(S::Reject);
    next[S::Accept][Ascii] = S::Accept;
    next[S::Accept][Lead2] = S::OneMore;
    next[S::Accept][LeadE0] = S::AfterE0;
    next[S::Accept][Lead3] = S::TwoMore;
    next[S::Accept][LeadED] = S::AfterED;
    next[S::Accept][LeadF0] = S::AfterF0;
    next[S::Accept][Lead4] = S::ThreeMore;
    next[S::Accept][LeadF4] = S::AfterF4;
    for (quint8 c : { Cont80, Cont90, ContA0 }) {
        next[S::OneMore][c] = S::Accept;
        next[S::TwoMore][c] = S::OneMore;
        next[S::ThreeMore][c] = S::TwoMore;
    }
    next[S::AfterE0][ContA0] = S::OneMore;
    next[S::AfterED][Cont80] = S::OneMore;
    next[S::AfterED][Cont90] = S::OneMore;
    next[S::AfterF0][Cont90] = S::TwoMore;
    next[S::AfterF0][ContA0] = S::TwoMore;
    next[S::AfterF4][Cont80] = S::TwoMore;
    return next;
}

constexpr std::array<quint8, 256> kClasses = makeClasses();
constexpr std::array<Row, S::StateCount> kNext = makeTransitions();

constexpr quint64 kHighBits = 0x8080808080808080ULL;

} // namespace

bool Utf8Validator::feed(QByteArrayView bytes)
{
    static_assert(Accept == S::Accept && Reject == S::Reject);
    const auto *p = reinterpret_cast<const uchar *>(bytes.data());
    const uchar *const end = p + bytes.size();
    quint8 state = m_state;
    while (p < end && state != Reject) {
        // Most text is ASCII: between characters, skip 8 such bytes at a time.
        if (state == Accept) {
            while (end - p >= 8) {
                quint64 word;
                std::memcpy(&word, p, sizeof word);
                if (word & kHighBits)
                    break;
                p += 8;
            }
            if (p == end)
                break;
        }
        state = kNext[state][kClasses[*p++]];
    }
    m_state = state;
    return state != Reject;
}

bool Utf8Validator::isValid(QByteArrayView text)
{
    Utf8Validator validator;
    return validator.feed(text) && validator.isComplete();
}

} // namespace Presence::Server
