#pragma once

// C++
#include <functional>
#include <memory>
#include <optional>
#include <vector>

// Qt
#include <QByteArray>
#include <QHostAddress>
#include <QMap>
#include <QUrl>

// Presence
#include "bench/RawHttpExchange.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/Window.h"

namespace PushPollingBench {

// Where the gateway's HTTP API is, and the Host header that names it.
struct HttpEndpoint {
    QHostAddress address;
    quint16 port = 0;
    QByteArray host;

    static HttpEndpoint of(const QUrl &url)
    {
        return { QHostAddress(url.host()), quint16(url.port()),
            url.host().toUtf8() + ':' + QByteArray::number(url.port()) };
    }
};

// What one kind of HTTP request cost, for the requests started in the window.
struct HttpCounters {
    qint64 requests = 0;
    qint64 bytesOut = 0;
    qint64 bytesIn = 0;
    qint64 segmentsOut = 0;
    qint64 segmentsIn = 0;
    qint64 failures = 0; // no complete answer
    QMap<int, qint64> statuses;
    std::vector<double> roundTripMs; // connect to complete answer
    qint64 inFlight = 0; // all requests, window or not

    void add(const HttpOutcome &outcome, double roundTrip)
    {
        ++requests;
        bytesOut += outcome.bytesWritten;
        bytesIn += outcome.bytesRead;
        if (outcome.segmentsToAnswer) {
            segmentsOut += qint64(outcome.segmentsToAnswer->segmentsOut) + 2; // FIN, ACK
            segmentsIn += qint64(outcome.segmentsToAnswer->segmentsIn) + 2;
        }
        if (!outcome.error.isEmpty())
            ++failures;
        ++statuses[outcome.status];
        if (roundTrip >= 0)
            roundTripMs.push_back(roundTrip);
    }
};

// Sends one request and counts it in `counters` if it started inside the window. answered:
// when the whole answer is in; done: when the exchange is over, answered or not.
inline void exchange(const HttpEndpoint &endpoint, const std::optional<QHostAddress> &source,
    QByteArray request, HttpCounters &counters, const Window &window,
    RawHttpExchange::Answered answered, std::function<void()> done = {})
{
    const auto started = Clock::now();
    const bool counted = window.contains(started);
    auto answeredAt = std::make_shared<std::optional<Clock::time_point>>();
    ++counters.inFlight;
    RawHttpExchange::start(
        endpoint.address, endpoint.port, source, std::move(request),
        [answeredAt, answered = std::move(answered)](
            Clock::time_point at, int status, const QByteArray &body) {
            *answeredAt = at;
            if (answered)
                answered(at, status, body);
        },
        [&counters, counted, started, answeredAt, done = std::move(done)](
            const HttpOutcome &outcome) {
            --counters.inFlight;
            if (counted)
                counters.add(outcome, *answeredAt ? msBetween(started, **answeredAt) : -1.0);
            if (done)
                done();
        });
}

} // namespace PushPollingBench
