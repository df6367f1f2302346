#include "server-mock/app/PopulationOptions.h"

// C++
#include <limits>

// Presence
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"
#include "server-mock/directory/PopulationGenerator.h"
#include "server-mock/qa/ChurnModel.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

bool PopulationOptions::read(const ServerCommandLine &line, ServerOptions &options, QString *error)
{
    const bool hasUsers = line.isSet(u"users"_s);
    const bool hasGenerate = line.isSet(u"generate"_s);
    // With the graph in Redis, users need not be in any file: a JSON Web Token names them.
    const bool friendsFromRedis = line.isSet(u"friends-from-redis"_s);
    if (hasUsers == hasGenerate && !(friendsFromRedis && !hasGenerate)) {
        *error = hasUsers ? u"give either --users or --generate, not both"_s
                          : u"give --users FILE or --generate N"_s;
        return false;
    }
    if (!hasGenerate && line.isSet(u"friends"_s)) {
        *error = u"--friends goes with --generate"_s;
        return false;
    }
    if (!hasGenerate && !line.isSet(u"churn"_s) && line.isSet(u"seed"_s)) {
        *error = u"--seed goes with --generate or --churn"_s;
        return false;
    }
    if (line.isSet(u"churn"_s)) {
        bool ok = false;
        const double rate = line.value(u"churn"_s).toDouble(&ok);
        const QString problem = ok ? ChurnModel::checkRate(rate)
                                   : u"not a number (got \"%1\")"_s.arg(line.value(u"churn"_s));
        if (!problem.isEmpty()) {
            *error = u"--churn: %1"_s.arg(problem);
            return false;
        }
        options.churnRate = rate;
    }
    if (line.isSet(u"scenario"_s)) {
        options.scenarioFile = line.value(u"scenario"_s);
        if (options.scenarioFile.isEmpty()) {
            *error = u"--scenario needs a file"_s;
            return false;
        }
    }
    options.usersFile = line.value(u"users"_s);
    options.dumpUsersFile = line.value(u"dump-users"_s);

    const auto generate = line.integer(u"generate"_s, 1, PopulationGenerator::kMaxUsers, 0, error);
    const auto friends
        = line.integer(u"friends"_s, 0, PopulationGenerator::kMaxFriendsPerUser, 50, error);
    const auto seed = line.integer(u"seed"_s, 0, std::numeric_limits<qint64>::max(), 1, error);
    if (!generate || !friends || !seed)
        return false;
    if (hasGenerate)
        options.generateCount = int(*generate);
    options.friendsPerUser = int(*friends);
    options.seed = quint64(*seed);
    return true;
}

} // namespace Presence::Server
