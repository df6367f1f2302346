#pragma once

// Allowed to include the model, but through it sees <QWebSocket>.
#include "models/Wire.h"
