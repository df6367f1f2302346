// presence-loadgen: the load generator of the gateway benchmark (docs/benchmarks.md, "Gateway
// against a Node ws peer"). Options: presence-loadgen --help.

// C++
#include <iostream>
#include <string>
#include <vector>
// System
#include <boost/asio/ip/address.hpp>
#include <sys/resource.h>

// Presence
#include "bench/loadgen/LoadOptions.h"
#include "bench/loadgen/LoadRun.h"
#include "bench/loadgen/Population.h"
#include "bench/loadgen/Report.h"

int main(int argc, char *argv[])
{
    using namespace LoadGen;
    std::string error;
    const auto options
        = LoadOptions::parse(std::vector<std::string>(argv + 1, argv + argc), &error);
    if (!options) {
        if (error.empty())
            return 0; // --help
        std::cerr << "presence-loadgen: " << error << '\n' << LoadOptions::usage();
        return 2;
    }
    boost::system::error_code addressError;
    (void)boost::asio::ip::make_address_v4(options->host, addressError);
    if (addressError) {
        std::cerr << "presence-loadgen: --url: the host must be an IPv4 address\n";
        return 2;
    }
    const auto population = Population::load(options->usersFile, &error);
    if (!population) {
        std::cerr << "presence-loadgen: " << error << '\n';
        return 2;
    }
    if (options->slowReaders > 0
        && options->slowReaders >= options->connectionsFor(population->size())) {
        std::cerr << "presence-loadgen: --slow-readers: fewer than the connections, not "
                  << options->slowReaders << '\n';
        return 2;
    }
    // Every connection is a descriptor: take all the hard limit allows.
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }

    const RunResult result = LoadRun(*options, *population).run();
    Report::writeText(std::cout, *options, result);
    std::cout << Report::json(*options, result) << std::endl;
    return result.passed() ? 0 : 1;
}
