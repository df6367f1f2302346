#pragma once

// What a fuzz target asserts besides "no crash, no leak, no undefined behaviour": a property
// that must hold for every input. A broken one aborts, so that libFuzzer keeps the input.

// C++
#include <cstdio>
#include <cstdlib>

inline void fuzzCheck(bool holds, const char *property)
{
    if (holds)
        return;
    std::fprintf(stderr, "fuzz property broken: %s\n", property);
    std::abort();
}
