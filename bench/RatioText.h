#pragma once

// Qt
#include <QString>

namespace BenchSupport {

// "a/b" as a benchmark's table prints it: "12.3x", with fewer decimals as it grows;
// `overZero` when b is not positive and a is, empty when both are nothing.
inline QString ratioText(double a, double b, const QString &overZero)
{
    using namespace Qt::StringLiterals;
    if (b <= 0)
        return a > 0 ? overZero : QString();
    const double r = a / b;
    return r >= 100 ? u"%1x"_s.arg(r, 0, 'f', 0)
        : r >= 10   ? u"%1x"_s.arg(r, 0, 'f', 1)
                    : u"%1x"_s.arg(r, 0, 'f', 2);
}

} // namespace BenchSupport
