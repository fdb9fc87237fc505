// The system's SQLite 3 header: Debian/Ubuntu's libsqlite3-dev on Linux, the SDK's on macOS.
#include <sqlite3.h>
