#pragma once

// C++
#include <cstdio>
#include <cstdlib>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>

// The value of an integer option from low to high, `fallback` when not given; anything else
// ends the benchmark with exit code 2 and a line naming the option and its range.
inline int integerOption(const QCommandLineParser &parser, const QCommandLineOption &option,
    int low, int high, int fallback)
{
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const int value = parser.value(option).toInt(&ok);
    if (!ok || value < low || value > high) {
        std::fprintf(stderr, "--%s must be an integer from %d to %d\n",
            qPrintable(option.names().constFirst()), low, high);
        std::exit(2);
    }
    return value;
}
