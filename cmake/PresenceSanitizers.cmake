# PRESENCE_SANITIZE: every target of the build compiled and linked with these sanitizers.
# Qt itself is not instrumented, so a report always points into our code or our use of Qt.
# UndefinedBehaviorSanitizer stops at its first finding (-fno-sanitize-recover), so that a test
# fails instead of printing and passing.
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
