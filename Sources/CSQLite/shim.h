// The system's SQLite 3 (Debian: libsqlite3-dev), used through its C API by TouchstoneServer's SQLite store.
#include <sqlite3.h>
