#include "protocol/CompactJsonWriter.h"

// C++
#include <utility>

namespace Presence::Protocol {

namespace {

char hexDigit(uint value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10); // lower case, as Qt writes it
}

void appendUtf8(QByteArray &out, char32_t code)
{
    if (code < 0x800) {
        out.append(char(0xC0 | (code >> 6)));
    } else if (code < 0x10000) {
        out.append(char(0xE0 | (code >> 12)));
        out.append(char(0x80 | ((code >> 6) & 0x3F)));
    } else {
        out.append(char(0xF0 | (code >> 18)));
        out.append(char(0x80 | ((code >> 12) & 0x3F)));
        out.append(char(0x80 | ((code >> 6) & 0x3F)));
    }
    out.append(char(0x80 | (code & 0x3F)));
}

} // namespace

CompactJsonWriter::CompactJsonWriter(qsizetype reserve)
{
    m_out.reserve(reserve);
}

void CompactJsonWriter::separate()
{
    if (!std::exchange(m_first, false))
        m_out.append(',');
}

void CompactJsonWriter::beginObject()
{
    separate();
    m_out.append('{');
    m_first = true;
}

void CompactJsonWriter::endObject()
{
    m_out.append('}');
    m_first = false;
}

void CompactJsonWriter::beginArray()
{
    separate();
    m_out.append('[');
    m_first = true;
}

void CompactJsonWriter::endArray()
{
    m_out.append(']');
    m_first = false;
}

void CompactJsonWriter::key(QLatin1StringView name)
{
    separate();
    m_out.append('"');
    m_out.append(name.data(), name.size()); // the protocol's keys need no escapes
    m_out.append("\":", 2);
    m_first = true; // the value that follows takes no comma
}

void CompactJsonWriter::value(const QString &text)
{
    separate();
    m_out.append('"');
    appendEscaped(text);
    m_out.append('"');
}

void CompactJsonWriter::value(QLatin1StringView text)
{
    value(QString(text));
}

void CompactJsonWriter::value(qint64 number)
{
    separate();
    m_out.append(QByteArray::number(number));
}

void CompactJsonWriter::appendEscaped(const QString &text)
{
    // What Qt's JSON writer does: ", \ and control characters escaped (the short forms where
    // JSON has them), everything else as UTF-8, and a lone surrogate as \uXXXX.
    const auto *it = reinterpret_cast<const char16_t *>(text.utf16());
    const char16_t *const end = it + text.size();
    while (it != end) {
        const char16_t unit = *it++;
        if (unit < 0x80) {
            if (unit >= 0x20 && unit != u'"' && unit != u'\\') {
                m_out.append(char(unit));
                continue;
            }
            m_out.append('\\');
            switch (unit) {
            case u'"':
                m_out.append('"');
                break;
            case u'\\':
                m_out.append('\\');
                break;
            case u'\b':
                m_out.append('b');
                break;
            case u'\f':
                m_out.append('f');
                break;
            case u'\n':
                m_out.append('n');
                break;
            case u'\r':
                m_out.append('r');
                break;
            case u'\t':
                m_out.append('t');
                break;
            default:
                m_out.append("u00", 3);
                m_out.append(hexDigit(unit >> 4));
                m_out.append(hexDigit(unit & 0xF));
            }
            continue;
        }
        if (QChar::isHighSurrogate(unit) && it != end && QChar::isLowSurrogate(*it)) {
            appendUtf8(m_out, QChar::surrogateToUcs4(unit, *it++));
            continue;
        }
        if (QChar::isSurrogate(unit)) {
            m_out.append("\\u", 2);
            for (int shift = 12; shift >= 0; shift -= 4)
                m_out.append(hexDigit((unit >> shift) & 0xF));
            continue;
        }
        appendUtf8(m_out, unit);
    }
}

} // namespace Presence::Protocol
