// C++
#include <csignal>

// Qt
#include <QCoreApplication>
#include <QTextStream>

// Presence
#include "server-mock/admin/AdminServer.h"
#include "server-mock/admin/GatewayAdminBackend.h"
#include "server-mock/app/FileLimit.h"
#include "server-mock/app/JsonLog.h"
#include "server-mock/app/ServerOptions.h"
#include "server-mock/app/ServiceNotifier.h"
#include "server-mock/app/UnixSignalWatcher.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/directory/PopulationGenerator.h"
#include "server-mock/directory/UsersFile.h"
#include "server-mock/http/HttpsIdentity.h"
#include "server-mock/loop/EpollEventDispatcher.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/qa/ChurnDriver.h"
#include "server-mock/qa/QaGateway.h"
#include "server-mock/qa/ScenarioPlayer.h"
#include "server-mock/redis/RedisChatStore.h"
#include "server-mock/redis/RedisFriendGraph.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

namespace {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

int fail(const QString &message, int exitCode = 1)
{
    QTextStream(stderr) << "presence-mock-server: " << message << '\n';
    return exitCode;
}

std::optional<UserDirectory> population(const ServerOptions &options, QString *error)
{
    if (!options.generateCount && options.usersFile.isEmpty())
        return UserDirectory(); // --friends-from-redis alone: everyone comes from Redis
    if (!options.generateCount)
        return UsersFile::load(options.usersFile, error);
    out() << "generating " << *options.generateCount << " users with " << options.friendsPerUser
          << " friends each (seed " << options.seed
          << "); generated tokens are for local QA only\n";
    return PopulationGenerator::generate(
        *options.generateCount, options.friendsPerUser, options.seed);
}

// What a start needs besides the options, each checked: the population, the scenario (whose
// users must be in it) and the churn.
struct Prepared {
    UserDirectory directory;
    std::optional<Scenario> scenario;
    std::optional<ChurnModel> churn;
};

std::optional<Prepared> prepare(const ServerOptions &options, QString *error)
{
    auto directory = population(options, error);
    if (!directory)
        return std::nullopt;
    Prepared prepared { std::move(*directory), std::nullopt, std::nullopt };
    if (!options.scenarioFile.isEmpty()) {
        prepared.scenario = Scenario::load(options.scenarioFile, error);
        if (!prepared.scenario)
            return std::nullopt;
        for (const QString &user : prepared.scenario->userIds()) {
            if (!prepared.directory.indexOfId(user)) {
                *error
                    = u"%1: user \"%2\" is not in the population"_s.arg(options.scenarioFile, user);
                return std::nullopt;
            }
        }
    }
    if (options.churnRate) {
        QStringList ids;
        ids.reserve(prepared.directory.size());
        for (int i = 0; i < prepared.directory.size(); ++i)
            ids.append(prepared.directory.user(i).id);
        QString why;
        prepared.churn = ChurnModel::create(ids, *options.churnRate, options.seed, &why);
        if (!prepared.churn) {
            *error = u"--churn: %1"_s.arg(why);
            return std::nullopt;
        }
    }
    return prepared;
}

} // namespace

int main(int argc, char *argv[])
{
    // The main thread's dispatcher is chosen before QCoreApplication, which would otherwise
    // create Qt's own (poll() over every socket on every iteration).
    {
        QStringList args;
        for (int i = 0; i < argc; ++i)
            args.append(QString::fromLocal8Bit(argv[i]));
        QString error;
        const auto loop = ServerOptions::eventLoopFromArguments(args, &error);
        if (!loop)
            return fail(error + u"\nTry 'presence-mock-server --help'."_s, 2);
        if (*loop == ServerOptions::EventLoop::Epoll)
            QCoreApplication::setEventDispatcher(new EpollEventDispatcher);
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"presence-mock-server"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(PRESENCE_VERSION));

    QString error;
    const auto options = ServerOptions::parse(QCoreApplication::arguments(), &error);
    if (!options)
        return fail(error + u"\nTry 'presence-mock-server --help'."_s, 2);
    if (options->action == ServerOptions::Action::ShowHelp) {
        out() << options->helpText;
        return 0;
    }
    if (options->action == ServerOptions::Action::ShowVersion) {
        out() << "presence-mock-server " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    if (options->logFormat == ServerOptions::LogFormat::Json)
        JsonLog::install();

    auto prepared = prepare(*options, &error);
    if (options->action == ServerOptions::Action::CheckConfig) {
        // The same checks and messages as a start, and nothing started.
        if (!prepared)
            return fail(error, 2);
        out() << "presence-mock-server: configuration OK (" << prepared->directory.size()
              << " users)\n";
        return 0;
    }
    if (!prepared)
        return fail(error);
    auto &directory = prepared->directory;
    auto &scenario = prepared->scenario;
    auto &churn = prepared->churn;
    if (!options->dumpUsersFile.isEmpty()) {
        if (!UsersFile::save(directory, options->dumpUsersFile, &error))
            return fail(error);
        out() << "wrote " << directory.size() << " users to " << options->dumpUsersFile << '\n';
    }
    const long fileLimit = raiseOpenFileLimit();

    const QString exampleUser = directory.size() > 0 ? directory.user(0).id : u"alice"_s;
    const int userCount = directory.size();
    // A Redis that cannot be reached yet is not fatal: the store logs it and keeps retrying
    // (clients can connect meanwhile; their subscribes wait for Redis).
    // The one place that picks memory or Redis.
    PresenceStore *store = options->redis
        ? static_cast<PresenceStore *>(new RedisPresenceStore(*options->redis))
        : new MemoryPresenceStore(options->config.grace);
    ChatStore *chats = options->redis ? static_cast<ChatStore *>(
                           new RedisChatStore({ options->redis->url, options->redis->prefix }))
                                      : new MemoryChatStore;
    QaGateway gateway(options->config, std::move(directory), store, chats);
    if (!gateway.listen(&error))
        return fail(error);

    // The users file again (SIGHUP, POST /admin/reload): a file that does not load changes
    // nothing. A generated population has no file.
    std::unique_ptr<RedisFriendGraph> friendGraph;
    if (options->friendsFromRedis) {
        friendGraph
            = std::make_unique<RedisFriendGraph>(options->redis->url, options->redis->prefix);
        gateway.friendships().setFriendSource(friendGraph.get());
    }
    GatewayAdminBackend::Reload reloadUsers;
    if (!options->usersFile.isEmpty()) {
        reloadUsers = [&gateway, path = options->usersFile](
                          QString *problem) -> std::optional<DirectoryDiff> {
            const auto next = UsersFile::load(path, problem);
            if (!next) {
                qWarning().noquote() << "users file not reloaded, nothing changed:" << *problem;
                return std::nullopt;
            }
            DirectoryDiff diff = gateway.friendships().diffTo(*next);
            gateway.friendships().applyDirectoryDiff(diff);
            return diff;
        };
    }

    std::unique_ptr<GatewayAdminBackend> adminBackend;
    std::unique_ptr<AdminServer> adminServer;
    // The certificate again (SIGHUP), for wss:// and the admin API's HTTPS: one that does not
    // load leaves the one in use.
    const auto reloadTls = [&gateway, &adminServer, &options] {
        const QString &certificate = options->tlsCertificateFile;
        QString problem;
        auto tls = TlsContext::load(certificate, options->tlsKeyFile, &problem);
        const auto https = tls && adminServer
            ? HttpsIdentity::load(certificate, options->tlsKeyFile, &problem)
            : std::nullopt;
        if (!tls || (adminServer && !https)) {
            qWarning().noquote() << "TLS certificate not reloaded, the one in use stays:"
                                 << problem;
            return;
        }
        gateway.setTls(std::move(tls));
        if (adminServer)
            adminServer->setTls(*https);
        qInfo().noquote() << "TLS certificate reloaded from" << certificate;
    };

    ServiceNotifier service;
    UnixSignalWatcher signalWatcher({ SIGINT, SIGTERM, SIGHUP });
    QObject::connect(&signalWatcher, &UnixSignalWatcher::signalReceived, &gateway,
        [&service, &gateway, &reloadUsers, &reloadTls, &options](int signalNumber) {
            if (signalNumber != SIGHUP) {
                service.stopping();
                gateway.shutdown();
                return;
            }
            service.reloading();
            if (reloadUsers) {
                QString problem;
                (void)reloadUsers(&problem);
            } else {
                qInfo("SIGHUP: the population was generated (--generate): no users file to read");
            }
            if (!options->tlsCertificateFile.isEmpty())
                reloadTls();
            service.ready(u"reloaded"_s);
        });
    QObject::connect(&gateway, &Gateway::shutdownFinished, &app, &QCoreApplication::quit);

    if (options->admin) {
        adminBackend = std::make_unique<GatewayAdminBackend>(gateway, options->admin->heartbeatTtl);
        adminBackend->setReload(reloadUsers);
        adminServer = std::make_unique<AdminServer>(*adminBackend, *options->admin);
        if (!adminServer->listen(&error))
            return fail(u"--admin: %1"_s.arg(error));
        out() << "admin API on " << adminServer->url().toString()
              << (options->admin->adminToken.isEmpty()
                         ? " (/healthz, /metrics and /api only: no --admin-token)"
                         : "")
              << '\n';
    }
    std::unique_ptr<ChurnDriver> churnDriver;
    if (churn) {
        churnDriver = std::make_unique<ChurnDriver>(std::move(*churn), gateway);
        churnDriver->start();
        out() << "churn: about " << *options->churnRate
              << " presence changes per second across simulated users (seed " << options->seed
              << ")\n";
    }
    std::unique_ptr<ScenarioPlayer> player;
    if (scenario) {
        player = std::make_unique<ScenarioPlayer>(
            std::move(*scenario), gateway.simulatedUsers(), gateway.faults());
        player->start();
    }

    out()
        << "presence-mock-server listening on " << gateway.url().toString() << " (" << userCount
        << " users, open-file limit " << fileLimit << ", "
        << (options->eventLoop == ServerOptions::EventLoop::Epoll ? "epoll" : "qt")
        << " event loop)\n"
        << "log in: connect a WebSocket client and send {\"type\":\"hello\",\"token\":\"<token of "
        << exampleUser << ">\",\"protocol\":1,\"client\":\"wscat/1\"}"
        << (options->dumpUsersFile.isEmpty() ? u""_s
                                             : u" (tokens are in %1)"_s.arg(options->dumpUsersFile))
        << '\n';
    out().flush();
    service.ready(u"listening on %1 (%2 users)"_s.arg(gateway.url().toString()).arg(userCount));
    return app.exec();
}
