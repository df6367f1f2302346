#pragma once

// Qt
#include <QLoggingCategory>

// What the epoll dispatcher could not do (a descriptor epoll refuses, a failed epoll_wait).
Q_DECLARE_LOGGING_CATEGORY(lcLoop)
