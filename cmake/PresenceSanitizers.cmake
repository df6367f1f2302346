# PRESENCE_SANITIZE: every target of the build compiled and linked with these sanitizers.
# Qt itself is not instrumented, so a report always points into our code or our use of Qt.
# UndefinedBehaviorSanitizer stops at its first finding (-fno-sanitize-recover), so that a test
# fails instead of printing and passing.
#
# PRESENCE_FUZZ: everything is compiled for libFuzzer's coverage (-fsanitize=fuzzer-no-link),
# with AddressSanitizer and UndefinedBehaviorSanitizer, and optimised a little (-O1) so that the
# fuzzers run fast while Q_ASSERT stays on.
if(PRESENCE_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "PRESENCE_FUZZ needs clang (libFuzzer): configure with "
            "-DCMAKE_CXX_COMPILER=clang++ (Debian's clang and libclang-rt-14-dev)")
    endif()
    if(PRESENCE_SANITIZE STREQUAL "")
        set(PRESENCE_SANITIZE "address,undefined")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link -O1)
endif()
if(PRESENCE_SANITIZE STREQUAL "")
    return()
endif()
set(_presence_sanitizer_sets "address,undefined" "address" "undefined" "thread")
if(NOT PRESENCE_SANITIZE IN_LIST _presence_sanitizer_sets)
    message(FATAL_ERROR "PRESENCE_SANITIZE=${PRESENCE_SANITIZE}: expected one of "
        "address,undefined; address; undefined; thread")
endif()
add_compile_options(-fsanitize=${PRESENCE_SANITIZE} -fno-omit-frame-pointer)
add_link_options(-fsanitize=${PRESENCE_SANITIZE})
if(PRESENCE_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
endif()
# For the few tests that must know (see tests/system/tst_own_transport.cpp).
add_compile_definitions(PRESENCE_SANITIZE="${PRESENCE_SANITIZE}")
