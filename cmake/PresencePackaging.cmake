# Two Debian packages from one build (`cpack -G DEB`, or tools/package.sh):
#   presence-chat         the client, its desktop entry and icon (translations are compiled in)
#   presence-mock-server  the gateway, its systemd unit and an example configuration
# Each install() names its component, client or gateway. Library dependencies come from
# dpkg-shlibdeps (dpkg-dev); only what is loaded at run time without being linked is written
# here: Qt's SVG plugins for the icon, and what the client is better with.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME presence-chat)
set(CPACK_PACKAGE_VENDOR "Presence Chat")
set(CPACK_PACKAGE_CONTACT "Presence Chat developers <dev@presence-chat.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Empty, so that each package's own description gives its summary line (its first line)
# rather than the project's.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Release binaries without their symbols: a package is for running, not debugging.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL client gateway)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# The maintainer scripts' permissions as Debian wants them (0755), whatever the checkout's.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_CLIENT_PACKAGE_NAME presence-chat)
set(CPACK_DEBIAN_CLIENT_PACKAGE_SECTION net)
set(CPACK_DEBIAN_CLIENT_DESCRIPTION "desktop chat that shows which friends are online now
Presence Chat shows, next to every friend, whether they are online, away or
offline right now, from events the presence gateway pushes; it reconnects by
itself and chats one to one.")
set(CPACK_DEBIAN_CLIENT_PACKAGE_DEPENDS "libqt6svg6")
set(CPACK_DEBIAN_CLIENT_PACKAGE_RECOMMENDS "qt6-translations-l10n, fonts-noto-color-emoji")

set(CPACK_DEBIAN_GATEWAY_PACKAGE_NAME presence-mock-server)
set(CPACK_DEBIAN_GATEWAY_PACKAGE_SECTION net)
set(CPACK_DEBIAN_GATEWAY_DESCRIPTION "presence gateway for Presence Chat
A WebSocket server speaking the Presence Chat protocol: presence pushed to the
friends who watch it, 1:1 chat, tokens, TLS, and presence shared between
gateways through Redis. Runs as a systemd service (Type=notify).")
set(CPACK_DEBIAN_GATEWAY_PACKAGE_SUGGESTS "redis-server")
# Only what the unit needs: systemd reads it again, an upgrade restarts a running gateway, a
# removal stops it (resources/debian).
set(CPACK_DEBIAN_GATEWAY_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/resources/debian/postinst
    ${PROJECT_SOURCE_DIR}/resources/debian/prerm
    ${PROJECT_SOURCE_DIR}/resources/debian/postrm)

include(CPack)
