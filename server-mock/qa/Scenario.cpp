#include "server-mock/qa/Scenario.h"

// C++
#include <algorithm>
#include <cmath>
#include <limits>

// Qt
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

// Presence
#include "protocol/FieldReader.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::FieldReader;
using Presence::Protocol::Need;
using std::chrono::milliseconds;
using Action = Presence::Server::Scenario::Step::Action;

namespace Presence::Server {

namespace {

constexpr qint64 kMaxTimeMs = Scenario::kMaxTime.count();

QString timeSyntax()
{
    return u"a time: milliseconds as an integer, or a number with a unit ms, s, m or h "
           "such as \"250ms\", \"1.5s\" or \"2m\""_s;
}

// "12.5s": how messages show a time.
QString formatTime(milliseconds time)
{
    return u"%1s"_s.arg(QString::number(double(time.count()) / 1000.0, 'g', 12));
}

bool isAsciiDigits(QStringView text)
{
    return !text.isEmpty()
        && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

// "250ms", "1.5s", "2m", "1h": digits, an optional fraction, a unit, nothing else (no sign, no
// space). The result may be past the limit: the caller says so.
std::optional<qint64> parseTimeText(QStringView text, QString *problem)
{
    struct Unit {
        QStringView suffix;
        qint64 ms;
    };
    // "ms" before "m" and "s", which it ends with.
    static constexpr Unit kUnits[] { { u"ms", 1 }, { u"s", 1000 }, { u"m", 60'000 },
        { u"h", 3'600'000 } };
    const Unit *unit = nullptr;
    for (const Unit &candidate : kUnits) {
        if (text.endsWith(candidate.suffix)) {
            unit = &candidate;
            break;
        }
    }
    const QStringView number = unit ? text.chopped(unit->suffix.size()) : QStringView();
    const qsizetype dot = number.indexOf(u'.');
    QStringView whole = dot < 0 ? number : number.first(dot);
    QStringView fraction = dot < 0 ? QStringView() : number.sliced(dot + 1);
    if (!unit || !isAsciiDigits(whole) || (dot >= 0 && !isAsciiDigits(fraction))) {
        *problem
            = text.startsWith(u'-') ? u"must not be negative"_s : u"must be %1"_s.arg(timeSyntax());
        return std::nullopt;
    }
    while (whole.size() > 1 && whole.startsWith(u'0'))
        whole = whole.sliced(1);
    while (fraction.endsWith(u'0'))
        fraction.chop(1);
    // Past a billion of any unit is past the limit; below it nothing overflows.
    constexpr qint64 kTooLate = std::numeric_limits<qint64>::max();
    if (whole.size() > 9)
        return kTooLate;
    // The units' factors of 10 stop at 10^7 (an hour is 2^7 * 3^2 * 5^5 ms): a longer
    // fraction cannot come to whole milliseconds.
    const auto notWhole = [&] {
        *problem = u"must be a whole number of milliseconds"_s;
        return std::nullopt;
    };
    if (fraction.size() > 9)
        return notWhole();
    qint64 scale = 1;
    for (qsizetype i = 0; i < fraction.size(); ++i)
        scale *= 10;
    const qint64 parts = fraction.isEmpty() ? 0 : fraction.toLongLong() * unit->ms;
    if (parts % scale != 0)
        return notWhole();
    return whole.toLongLong() * unit->ms + parts / scale;
}

// A time field ("at" or "for"), as an integer of milliseconds or a string with a unit.
std::optional<milliseconds> readTime(FieldReader &read, QLatin1StringView key, Need need)
{
    const auto value = read.value(key, need);
    if (!value)
        return std::nullopt;
    QString problem;
    std::optional<qint64> ms;
    if (value->isDouble()) {
        const double number = value->toDouble();
        if (number < 0)
            problem = u"must not be negative"_s;
        else if (number > double(kMaxTimeMs))
            ms = std::numeric_limits<qint64>::max();
        else if (std::trunc(number) != number)
            problem = u"must be a whole number of milliseconds"_s;
        else
            ms = qint64(number);
    } else if (value->isString()) {
        ms = parseTimeText(value->toString(), &problem);
    } else {
        problem = u"must be %1"_s.arg(timeSyntax());
    }
    if (ms && *ms > kMaxTimeMs)
        problem = u"must be at most 24h (%1 ms)"_s.arg(kMaxTimeMs);
    if (!problem.isEmpty()) {
        read.failField(key, problem);
        return std::nullopt;
    }
    return milliseconds(*ms);
}

// The "do" values and what they become.
struct Verb {
    QLatin1StringView name;
    Action action;
    ChosenStatus status;
};

constexpr Verb kVerbs[] {
    { "online"_L1, Action::SetStatus, ChosenStatus::Online },
    { "away"_L1, Action::SetStatus, ChosenStatus::Away },
    { "invisible"_L1, Action::SetStatus, ChosenStatus::Invisible },
    { "offline"_L1, Action::Offline, ChosenStatus::Online },
    { "connect"_L1, Action::Connect, ChosenStatus::Online },
    { "disconnect"_L1, Action::Disconnect, ChosenStatus::Online },
    { "fault"_L1, Action::StartFault, ChosenStatus::Online },
    { "end_fault"_L1, Action::EndFault, ChosenStatus::Online },
    { "log"_L1, Action::Log, ChosenStatus::Online },
};

// One step from its JSON object; false with read's problem set.
bool readStep(FieldReader &read, Scenario::Step *step)
{
    const QString verbName = read.string("do"_L1, Need::Required);
    if (read.failed())
        return false;
    const Verb *verb = std::find_if(std::begin(kVerbs), std::end(kVerbs),
        [&](const Verb &candidate) { return candidate.name == verbName; });
    if (verb == std::end(kVerbs)) {
        QStringList names;
        for (const Verb &candidate : kVerbs)
            names.append(candidate.name);
        read.failField("do"_L1, u"must be one of %1"_s.arg(names.join(u", "_s)));
        return false;
    }
    step->action = verb->action;
    step->status = verb->status;
    const bool vowel = QStringView(u"aeiou").contains(verbName.front());
    const QString owner = u"%1 \"%2\" step"_s.arg(vowel ? u"an"_s : u"a"_s, verbName);

    const auto allow = [&](std::initializer_list<QLatin1StringView> fields) {
        return read.allowOnly(fields, owner);
    };
    switch (step->action) {
    case Action::SetStatus:
    case Action::Offline:
        if (!allow({ "at"_L1, "do"_L1, "user"_L1 }))
            return false;
        break;
    case Action::Connect:
        if (!allow({ "at"_L1, "do"_L1, "user"_L1, "device"_L1, "status"_L1 }))
            return false;
        break;
    case Action::Disconnect:
        if (!allow({ "at"_L1, "do"_L1, "user"_L1, "device"_L1 }))
            return false;
        break;
    case Action::StartFault:
        if (!allow({ "at"_L1, "do"_L1, "id"_L1, "fault"_L1, "for"_L1 }))
            return false;
        break;
    case Action::EndFault:
        if (!allow({ "at"_L1, "do"_L1, "id"_L1 }))
            return false;
        break;
    case Action::Log:
        if (!allow({ "at"_L1, "do"_L1, "text"_L1 }))
            return false;
        break;
    }

    if (const auto at = readTime(read, "at"_L1, Need::Required))
        step->at = *at;
    switch (step->action) {
    case Action::SetStatus:
    case Action::Offline:
        step->user = read.id("user"_L1, Need::Required);
        break;
    case Action::Connect:
    case Action::Disconnect:
        step->user = read.id("user"_L1, Need::Required);
        step->device = read.id("device"_L1, u"a device id", Need::Required);
        if (step->action != Action::Connect)
            break;
        step->status = read.name("status"_L1, Protocol::kChosenStatusNames, Need::Optional)
                           .value_or(step->status);
        break;
    case Action::StartFault: {
        step->faultId = read.id("id"_L1, u"a fault id", Need::Required);
        const QJsonObject fault = read.object("fault"_L1, Need::Required);
        if (read.failed())
            return false;
        QString problem;
        const auto spec = FaultSpec::fromJson(fault, &problem);
        if (!spec) {
            read.fail(u"fault \"%1\": %2"_s.arg(step->faultId, problem));
            return false;
        }
        step->fault = *spec;
        step->faultFor = readTime(read, "for"_L1, Need::Optional);
        if (step->faultFor && step->faultFor->count() == 0)
            read.failField("for"_L1, u"must be longer than 0"_s);
        break;
    }
    case Action::EndFault:
        step->faultId = read.id("id"_L1, u"a fault id", Need::Required);
        break;
    case Action::Log:
        step->text = read.string("text"_L1, Need::Required);
        break;
    }
    return !read.failed();
}

// Reads line by line; stops at the first problem, which names the line.
class Parser {
public:
    explicit Parser(const QString &name)
        : m_name(name)
    {
    }

    bool run(QByteArrayView text)
    {
        if (text.size() > Scenario::kMaxFileBytes)
            return failFile(
                u"larger than the limit of %1 MiB"_s.arg(Scenario::kMaxFileBytes / (1024 * 1024)));
        // Some editors start UTF-8 files with a byte order mark.
        if (text.startsWith("\xEF\xBB\xBF"))
            text = text.sliced(3);
        int number = 0;
        for (qsizetype start = 0; start < text.size();) {
            qsizetype end = text.indexOf('\n', start);
            if (end < 0)
                end = text.size();
            ++number;
            if (!parseLine(text.sliced(start, end - start), number))
                return false;
            start = end + 1;
        }
        if (m_steps.isEmpty())
            return failFile(u"no steps (only blank lines and comments)"_s);
        std::stable_sort(m_steps.begin(), m_steps.end(),
            [](const Scenario::Step &a, const Scenario::Step &b) { return a.at < b.at; });
        return checkFaults();
    }

    QList<Scenario::Step> steps() const { return m_steps; }
    QStringList userIds() const { return m_userIds; }
    milliseconds length() const { return m_length; }
    QString error() const { return m_error; }

private:
    bool fail(int line, const QString &problem)
    {
        m_error = u"%1:%2: %3"_s.arg(m_name, QString::number(line), problem);
        return false;
    }

    bool failFile(const QString &problem)
    {
        m_error = u"%1: %2"_s.arg(m_name, problem);
        return false;
    }

    bool parseLine(QByteArrayView line, int number)
    {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.size() > Scenario::kMaxLineBytes)
            return fail(
                number, u"line longer than the limit of %1 bytes"_s.arg(Scenario::kMaxLineBytes));
        const QByteArrayView trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#'))
            return true;
        if (m_steps.size() == Scenario::kMaxSteps)
            return fail(number, u"more than %1 steps"_s.arg(Scenario::kMaxSteps));
        // A scalar or an array is valid JSON but never a step.
        if (!trimmed.startsWith('{'))
            return fail(number, u"a step must be a JSON object {...} on one line"_s);
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return fail(number,
                u"not valid JSON: %1 near column %2 (each step is one JSON object on "
                "one line)"_s.arg(parseError.errorString())
                    .arg(parseError.offset + 1));

        Scenario::Step step;
        step.line = number;
        FieldReader read(document.object());
        if (!readStep(read, &step))
            return fail(number, read.problem());
        noteUser(step.user);
        if (step.action == Action::StartFault)
            noteUser(step.fault.user);
        m_steps.append(step);
        return true;
    }

    void noteUser(const QString &id)
    {
        if (!id.isEmpty() && !m_seenUsers.contains(id)) {
            m_seenUsers.insert(id);
            m_userIds.append(id);
        }
    }

    // In time order, a fault id is started only while it is not running and ended only while
    // it is. A fault whose "for" is over ends before the steps of that same time.
    bool checkFaults()
    {
        struct Running {
            std::optional<milliseconds> end;
            int line = 0;
        };
        QHash<QString, Running> running;
        QHash<QString, milliseconds> endedAt;
        for (const Scenario::Step &step : std::as_const(m_steps)) {
            for (auto it = running.begin(); it != running.end();) {
                if (it->end && *it->end <= step.at) {
                    endedAt.insert(it.key(), *it->end);
                    it = running.erase(it);
                } else {
                    ++it;
                }
            }
            m_length = std::max(m_length, step.at);
            if (step.action == Action::StartFault) {
                if (const auto it = running.constFind(step.faultId); it != running.constEnd())
                    return fail(step.line,
                        u"fault \"%1\" is still running (started on line %2)"_s.arg(step.faultId)
                            .arg(it->line));
                std::optional<milliseconds> end;
                if (step.faultFor) {
                    end = step.at + *step.faultFor;
                    m_length = std::max(m_length, *end);
                }
                running.insert(step.faultId, { end, step.line });
            } else if (step.action == Action::EndFault) {
                if (running.remove(step.faultId))
                    endedAt.insert(step.faultId, step.at);
                else if (const auto it = endedAt.constFind(step.faultId); it != endedAt.constEnd())
                    return fail(step.line,
                        u"fault \"%1\" already ended at %2"_s.arg(step.faultId, formatTime(*it)));
                else
                    return fail(step.line,
                        u"fault \"%1\" is not started by any step before %2"_s.arg(
                            step.faultId, formatTime(step.at)));
            }
        }
        return true;
    }

    QString m_name;
    QString m_error;
    QList<Scenario::Step> m_steps;
    QStringList m_userIds;
    QSet<QString> m_seenUsers;
    milliseconds m_length { 0 };
};

} // namespace

std::optional<Scenario> Scenario::load(const QString &path, QString *error)
{
    const auto failWith = [&](const QString &problem) {
        if (error)
            *error = u"%1: %2"_s.arg(path, problem);
        return std::nullopt;
    };
    if (!QFileInfo::exists(path))
        return failWith(u"not found"_s);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failWith(u"cannot read: %1"_s.arg(file.errorString()));
    const QString tooBig = u"larger than the limit of %1 MiB"_s.arg(kMaxFileBytes / (1024 * 1024));
    if (file.size() > kMaxFileBytes)
        return failWith(tooBig);
    // Read one byte past the limit: a pipe or a growing file has no size to trust.
    const QByteArray text = file.read(kMaxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return failWith(u"cannot read: %1"_s.arg(file.errorString()));
    if (text.size() > kMaxFileBytes)
        return failWith(tooBig);
    return parse(text, path, error);
}

std::optional<Scenario> Scenario::parse(
    QByteArrayView text, const QString &nameForErrors, QString *error)
{
    Parser parser(nameForErrors);
    if (!parser.run(text)) {
        if (error)
            *error = parser.error();
        return std::nullopt;
    }
    Scenario scenario;
    scenario.m_steps = parser.steps();
    scenario.m_userIds = parser.userIds();
    scenario.m_length = parser.length();
    return scenario;
}

} // namespace Presence::Server
