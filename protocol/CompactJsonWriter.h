#pragma once

// Qt
#include <QByteArray>
#include <QLatin1StringView>
#include <QString>

namespace Presence::Protocol {

// Writes compact JSON straight into UTF-8 bytes, exactly as QJsonDocument::Compact would write
// the same object (same escapes, same number form), without building a QJsonObject first: the
// gateway's largest replies (snapshots, friend pages) were mostly spent in QJsonObject and
// QCborValue. The caller writes keys in the sorted order QJsonObject keeps them in.
class CompactJsonWriter {
public:
    explicit CompactJsonWriter(qsizetype reserve = 256);

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    // A key of the object being written; a value must follow.
    void key(QLatin1StringView name);
    void value(const QString &text);
    void value(QLatin1StringView text);
    void value(qint64 number);
    // A key and its value.
    void member(QLatin1StringView name, const QString &text)
    {
        key(name);
        value(text);
    }
    void member(QLatin1StringView name, QLatin1StringView text)
    {
        key(name);
        value(text);
    }
    void member(QLatin1StringView name, qint64 number)
    {
        key(name);
        value(number);
    }

    [[nodiscard]] QByteArray take() { return std::move(m_out); }

private:
    void separate(); // a comma before every element but the first
    void appendEscaped(const QString &text);

    QByteArray m_out;
    bool m_first = true; // nothing written yet in the innermost object or array
};

} // namespace Presence::Protocol
