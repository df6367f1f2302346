#pragma once

// Qt
#include <QLoggingCategory>

// QT_LOGGING_RULES="presence.session.debug=true" shows the session's traffic. Never the token.
Q_DECLARE_LOGGING_CATEGORY(lcSession)
