// FrameTypes: the protocol's lists of frame types are the codec's own. Every message the
// encoders make has its type in the list of its direction, once, and every type listed is one
// the decoders know; so a type added to the codec but not to the list (or the other way round)
// fails here, and whoever walks the lists (the gateway's metrics) sees every type.

// C++
#include <utility>
#include <variant>

// Qt
#include <QSet>
#include <QTest>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/FrameTypes.h"
#include "protocol/ServerMessages.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

namespace {

// The type of each kind of message the variant holds, as its toJson() writes it.
template <typename Variant> QStringList encodedTypes()
{
    QStringList types;
    [&]<std::size_t... I>(std::index_sequence<I...>)
    {
        (types.append(
             toJson(std::variant_alternative_t<I, Variant> {}).value(u"type"_s).toString()),
            ...);
    }
    (std::make_index_sequence<std::variant_size_v<Variant>> {});
    return types;
}

template <typename Decode> bool decoderKnows(const QString &type, Decode decode)
{
    Envelope envelope;
    envelope.type = type;
    envelope.body = { { u"type"_s, type } };
    const auto decoded = decode(envelope);
    // Fields are missing, so bad_request is fine: only unknown_type means "not ours".
    return decoded.ok() || decoded.error().code != ErrorCode::UnknownType;
}

} // namespace

class TestFrameTypes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clientTypesAreTheCodecs();
    void serverTypesAreTheCodecs();
};

void TestFrameTypes::clientTypesAreTheCodecs()
{
    const QStringList encoded = encodedTypes<ClientMessage>();
    QCOMPARE(QSet<QString>(encoded.cbegin(), encoded.cend()).size(), encoded.size());
    QCOMPARE(QSet<QString>(encoded.cbegin(), encoded.cend()),
        QSet<QString>(clientFrameTypes().cbegin(), clientFrameTypes().cend()));
    QCOMPARE(clientFrameTypes().size(), encoded.size()); // no type listed twice
    for (const QString &type : clientFrameTypes())
        QVERIFY2(decoderKnows(type, decodeClientMessage), qPrintable(type));
    QVERIFY(!decoderKnows(u"made_up"_s, decodeClientMessage));
}

void TestFrameTypes::serverTypesAreTheCodecs()
{
    const QStringList encoded = encodedTypes<ServerMessage>();
    QCOMPARE(QSet<QString>(encoded.cbegin(), encoded.cend()).size(), encoded.size());
    QCOMPARE(QSet<QString>(encoded.cbegin(), encoded.cend()),
        QSet<QString>(serverFrameTypes().cbegin(), serverFrameTypes().cend()));
    QCOMPARE(serverFrameTypes().size(), encoded.size());
    for (const QString &type : serverFrameTypes())
        QVERIFY2(decoderKnows(type, decodeServerMessage), qPrintable(type));
    QVERIFY(!decoderKnows(u"made_up"_s, decodeServerMessage));
}

QTEST_APPLESS_MAIN(TestFrameTypes)
#include "tst_frame_types.moc"
