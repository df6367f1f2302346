#pragma once

// Qt
#include <QLoggingCategory>

// Turn on with QT_LOGGING_RULES="presence.gateway.transport.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcTransport)
