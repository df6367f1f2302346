include(${CMAKE_CURRENT_LIST_DIR}/PresencePch.cmake)

# presence_target_warning_options(<target>): the project's warning set, fatal when
# PRESENCE_WARNINGS_AS_ERRORS is on (the test command and CI build that way).
function(presence_target_warning_options target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
        -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough
        -Wno-missing-field-initializers)
    if(PRESENCE_WARNINGS_AS_ERRORS)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# presence_target_warnings(<target>): every target of ours, built with the warning set and the
# precompiled Qt headers of its group (cmake/PresencePch.cmake).
function(presence_target_warnings target)
    presence_target_warning_options(${target})
    presence_precompile_qt(${target})
endfunction()

# Libraries and executables never convert between 8-bit strings and QString implicitly (every
# such conversion is a decision).
set(PRESENCE_HYGIENE_DEFINITIONS QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
    QT_NO_URL_CAST_FROM_STRING QT_NO_CAST_FROM_BYTEARRAY QT_NO_KEYWORDS)

# presence_library_hygiene(<target>): the warning set and PRESENCE_HYGIENE_DEFINITIONS.
function(presence_library_hygiene target)
    presence_target_warnings(${target})
    target_compile_definitions(${target} PRIVATE ${PRESENCE_HYGIENE_DEFINITIONS})
endfunction()
