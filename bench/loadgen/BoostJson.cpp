// Boost.JSON's implementation, compiled once into presence-loadgen: Debian's libboost1.81-dev
// ships it as headers, so no compiled Boost library is needed.
// System
#include <boost/json/src.hpp>
