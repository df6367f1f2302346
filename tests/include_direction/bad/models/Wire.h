#pragma once

// A model header that a widget may include, bringing the socket along: the check must refuse
// the widget that sees it.
#include <QWebSocket>
