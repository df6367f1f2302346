# Precompiled Qt headers, one per group of targets that compile with the same flags.
#
# Parsing Qt's headers is most of the cost of every translation unit here (2-5 s each in a
# Debug build), and the tests alone are over 50 executables. So each group of targets shares
# one precompiled header, built once in an "anchor" object library and taken by the members
# with REUSE_FROM.
#
# GCC uses a precompiled header only where every macro defined when it was built is defined
# the same way, and no macro it tests is defined besides (QtTest tests QT_GUI_LIB,
# QT_WIDGETS_LIB and QT_NETWORK_LIB; Qt Test users also carry their directories in
# QT_TESTCASE_SOURCEDIR and QT_TESTCASE_BUILDDIR). Hence the groups: with or without the
# hygiene definitions (presence_library_hygiene); Qt Core only, Core with Network, or Widgets
# with Network, as the target's links make it see them; and for Qt Test users, their directory.
# The anchor links only the Qt modules of its group, so it defines a subset of what each member
# defines. CMake passes -Winvalid-pch, so under PRESENCE_WARNINGS_AS_ERRORS a member that does
# not match its group's header fails to build instead of silently compiling without it.
#
# Targets join through presence_target_warnings(); the groups are formed when their links are
# known: at the end of a Qt Test user's directory, at the end of the project for the others.

option(PRESENCE_PRECOMPILED_HEADERS "Precompile Qt's headers once per group of targets with the same flags" ON)

# A group of fewer sources than this compiles faster without a header of its own: building one
# costs 6-11 s, and it saves 1-3 s a source.
set(PRESENCE_PCH_MIN_SOURCES 5)

set(PRESENCE_PCH_CORE_HEADERS
    <algorithm> <chrono> <functional> <memory> <optional> <utility> <vector>
    <QByteArray> <QCoreApplication> <QDateTime> <QElapsedTimer> <QFile> <QHash> <QJsonArray>
    <QJsonDocument> <QJsonObject> <QList> <QLoggingCategory> <QObject> <QPointer>
    <QRegularExpression> <QSet> <QString> <QStringList> <QTimer> <QUrl> <QVariant>)
set(PRESENCE_PCH_NETWORK_HEADERS <QHostAddress> <QTcpServer> <QTcpSocket>)
set(PRESENCE_PCH_WIDGETS_HEADERS
    <QAbstractItemView> <QApplication> <QLabel> <QLineEdit> <QListView> <QPainter> <QPushButton>
    <QScrollBar> <QStyle> <QWidget>)
set(PRESENCE_PCH_TEST_HEADERS <QSignalSpy> <QTest>)

# presence_precompile_qt(<target>): <target> takes its group's precompiled Qt headers.
function(presence_precompile_qt target)
    if(NOT PRESENCE_PRECOMPILED_HEADERS)
        return()
    endif()
    get_directory_property(pending PRESENCE_PCH_PENDING)
    if(NOT pending)
        cmake_language(DEFER CALL _presence_pch_directory_done)
    endif()
    set_property(DIRECTORY APPEND PROPERTY PRESENCE_PCH_PENDING ${target})
endfunction()

# _presence_pch_closure(<out> <items>...): every target reachable through these links and the
# interface links below them; private links of static libraries carry no definitions, so not those.
function(_presence_pch_closure out)
    set(seen)
    set(queue ${ARGN})
    while(queue)
        list(POP_FRONT queue item)
        if(item MATCHES "\\$<" OR item MATCHES "^::@")
            continue()
        endif()
        if(NOT TARGET "${item}")
            # An imported target of another directory (pkg-config's PkgConfig::HIREDIS): kept
            # by name, so the caller sees it; a plain library name is no target at all.
            if(item MATCHES "::")
                list(APPEND seen ${item})
            endif()
            continue()
        endif()
        get_target_property(aliased "${item}" ALIASED_TARGET)
        if(aliased)
            set(item ${aliased})
        endif()
        if(item IN_LIST seen)
            continue()
        endif()
        list(APPEND seen ${item})
        get_target_property(links "${item}" INTERFACE_LINK_LIBRARIES)
        if(links)
            list(APPEND queue ${links})
        endif()
    endwhile()
    set(${out} ${seen} PARENT_SCOPE)
endfunction()

# _presence_pch_group(<out> <target>): the group's name, or nothing if the target takes no header.
function(_presence_pch_group out target)
    set(${out} "" PARENT_SCOPE)
    get_target_property(links ${target} LINK_LIBRARIES)
    if(NOT links)
        return()
    endif()
    _presence_pch_closure(closure ${links})
    if(NOT Qt6::Core IN_LIST closure)
        return()
    endif()
    # Definitions or options from a library outside Qt (hiredis's -D_FILE_OFFSET_BITS=64)
    # change what the system headers declare: such a target, or one linking a target this
    # directory cannot see, compiles on its own.
    foreach(item IN LISTS closure)
        if(NOT TARGET ${item})
            return()
        elseif(NOT item MATCHES "^Qt6::")
            get_target_property(options ${item} INTERFACE_COMPILE_OPTIONS)
            get_target_property(definitions ${item} INTERFACE_COMPILE_DEFINITIONS)
            if(options OR definitions)
                return()
            endif()
        endif()
    endforeach()
    if(Qt6::Widgets IN_LIST closure AND Qt6::Network IN_LIST closure)
        set(group widgets)
    elseif(Qt6::Gui IN_LIST closure OR Qt6::Widgets IN_LIST closure)
        return() # Gui without Widgets and Network, or Widgets without Network: no group of their own
    elseif(Qt6::Network IN_LIST closure)
        set(group network)
    else()
        set(group core)
    endif()
    if(Qt6::Test IN_LIST closure)
        string(APPEND group _test)
    endif()
    get_target_property(definitions ${target} COMPILE_DEFINITIONS)
    if(definitions AND QT_NO_KEYWORDS IN_LIST definitions)
        string(APPEND group _hygiene)
    endif()
    set(${out} ${group} PARENT_SCOPE)
endfunction()

# _presence_pch_sources(<out> <targets>...): how many .cpp sources they compile.
function(_presence_pch_sources out)
    set(total 0)
    foreach(target IN LISTS ARGN)
        get_target_property(sources ${target} SOURCES)
        list(FILTER sources INCLUDE REGEX "\\.cpp$")
        list(LENGTH sources count)
        math(EXPR total "${total} + ${count}")
    endforeach()
    set(${out} ${total} PARENT_SCOPE)
endfunction()

# _presence_pch_anchor(<group> <members>...): the group's anchor in the current directory, with the
# group's Qt modules and definitions, precompiling its headers; the members reuse them.
function(_presence_pch_anchor group)
    _presence_pch_sources(sources ${ARGN})
    if(sources LESS PRESENCE_PCH_MIN_SOURCES)
        return()
    endif()
    file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    string(MAKE_C_IDENTIFIER "presence_pch_${where}_${group}" anchor)
    string(REPLACE "__" "_" anchor ${anchor})
    set(source ${CMAKE_CURRENT_BINARY_DIR}/${anchor}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT "// The anchor of a precompiled header (cmake/PresencePch.cmake).\n")
    add_library(${anchor} OBJECT ${source})
    set_target_properties(${anchor} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    presence_target_warning_options(${anchor})

    set(headers ${PRESENCE_PCH_CORE_HEADERS})
    set(modules Qt6::Core)
    if(group MATCHES "^network")
        list(APPEND headers ${PRESENCE_PCH_NETWORK_HEADERS})
        list(APPEND modules Qt6::Network)
    elseif(group MATCHES "^widgets")
        list(APPEND headers ${PRESENCE_PCH_NETWORK_HEADERS} ${PRESENCE_PCH_WIDGETS_HEADERS})
        list(APPEND modules Qt6::Network Qt6::Widgets)
    endif()
    if(group MATCHES "_test")
        list(APPEND headers ${PRESENCE_PCH_TEST_HEADERS})
        list(APPEND modules Qt6::Test)
    endif()
    if(group MATCHES "_hygiene")
        target_compile_definitions(${anchor} PRIVATE ${PRESENCE_HYGIENE_DEFINITIONS})
    endif()
    target_link_libraries(${anchor} PRIVATE ${modules})
    target_precompile_headers(${anchor} PRIVATE ${headers})
    foreach(target IN LISTS ARGN)
        target_precompile_headers(${target} REUSE_FROM ${anchor})
        # Without headers of its own a target's moc output is included by its sources (a test's
        # "tst_x.moc"), and its moc compilation unit is empty: loading the header would be all
        # of its cost.
        get_target_property(sources ${target} SOURCES)
        list(FILTER sources INCLUDE REGEX "\\.h$")
        get_target_property(automoc ${target} AUTOMOC)
        if(automoc AND NOT sources)
            get_target_property(binary_dir ${target} BINARY_DIR)
            set_source_files_properties(${binary_dir}/${target}_autogen/mocs_compilation.cpp
                TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
        endif()
    endforeach()
endfunction()

# _presence_pch_form_groups(<targets>...): groups these targets and gives each group its anchor.
function(_presence_pch_form_groups)
    set(groups)
    foreach(target IN LISTS ARGN)
        _presence_pch_group(group ${target})
        if(group)
            list(APPEND groups ${group})
            list(APPEND members_${group} ${target})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES groups)
    foreach(group IN LISTS groups)
        _presence_pch_anchor(${group} ${members_${group}})
    endforeach()
endfunction()

# At the end of each directory: Qt Test users are grouped here (their definitions name this
# directory); the others wait for the end of the project, to be grouped across directories.
function(_presence_pch_directory_done)
    get_directory_property(pending PRESENCE_PCH_PENDING)
    set(local)
    foreach(target IN LISTS pending)
        get_target_property(links ${target} LINK_LIBRARIES)
        _presence_pch_closure(closure ${links})
        if(Qt6::Test IN_LIST closure)
            list(APPEND local ${target})
        else()
            set_property(GLOBAL APPEND PROPERTY PRESENCE_PCH_SHARED ${target})
        endif()
    endforeach()
    _presence_pch_form_groups(${local})
endfunction()

function(_presence_pch_project_done)
    get_property(shared GLOBAL PROPERTY PRESENCE_PCH_SHARED)
    _presence_pch_form_groups(${shared})
endfunction()

if(PRESENCE_PRECOMPILED_HEADERS)
    cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _presence_pch_project_done)
endif()
