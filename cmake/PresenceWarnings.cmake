# presence_target_warnings(<target>): the project's warning set, fatal when
# PRESENCE_WARNINGS_AS_ERRORS is on (the test command and CI build that way).
function(presence_target_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
        -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough
        -Wno-missing-field-initializers)
    if(PRESENCE_WARNINGS_AS_ERRORS)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# presence_library_hygiene(<target>): libraries and executables never convert
# between 8-bit strings and QString implicitly (every such conversion is a decision).
function(presence_library_hygiene target)
    presence_target_warnings(${target})
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
        QT_NO_URL_CAST_FROM_STRING QT_NO_CAST_FROM_BYTEARRAY QT_NO_KEYWORDS)
endfunction()
