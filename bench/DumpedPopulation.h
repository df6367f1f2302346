#pragma once

// What the benchmarks that run the real gateway read back from it and from the machine: the
// users file it dumped (--dump-users), this process's CPU time and the load average.

// C++
#include <algorithm>
#include <optional>
#include <vector>
// System
#include <time.h>

// Qt
#include <QCryptographicHash>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace BenchSupport {

// The users file the gateway dumped: ids, tokens and (mutual) friends.
struct DumpedPopulation {
    QStringList ids;
    QList<QByteArray> tokens;
    std::vector<std::vector<int>> friends; // user indices, ascending
    QHash<QString, int> indexOfId;
    QByteArray digest; // of the file: every run must get the same population

    static std::optional<DumpedPopulation> load(const QString &path, QString *error)
    {
        using namespace Qt::StringLiterals;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = u"cannot read %1: %2"_s.arg(path, file.errorString());
            return std::nullopt;
        }
        const QByteArray text = file.readAll();
        const QJsonArray users = QJsonDocument::fromJson(text).object().value(u"users"_s).toArray();
        DumpedPopulation population;
        population.digest = QCryptographicHash::hash(text, QCryptographicHash::Sha256);
        for (const QJsonValue &entry : users) {
            const QJsonObject user = entry.toObject();
            population.indexOfId.insert(user.value(u"id"_s).toString(), int(population.ids.size()));
            population.ids.append(user.value(u"id"_s).toString());
            population.tokens.append(user.value(u"token"_s).toString().toUtf8());
        }
        population.friends.resize(size_t(population.ids.size()));
        for (qsizetype i = 0; i < users.size(); ++i) {
            for (const QJsonValue &id : users.at(i).toObject().value(u"friends"_s).toArray()) {
                const int other = population.indexOfId.value(id.toString(), -1);
                if (other < 0) {
                    *error = u"%1: unknown friend %2"_s.arg(path, id.toString());
                    return std::nullopt;
                }
                // A friendship listed on either side is mutual.
                population.friends[size_t(i)].push_back(other);
                population.friends[size_t(other)].push_back(int(i));
            }
        }
        for (auto &list : population.friends) {
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
        }
        if (population.ids.isEmpty()) {
            *error = u"%1 holds no users"_s.arg(path);
            return std::nullopt;
        }
        return population;
    }
};

// CPU time of this process (the benchmark's own share of the machine), in seconds.
inline double processCpuSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

// The 1-minute load average, or -1 when it cannot be read.
inline double loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    return file.readAll().split(' ').value(0).toDouble();
}

} // namespace BenchSupport
