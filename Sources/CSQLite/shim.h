// The system's SQLite 3 header: Debian/Ubuntu's libsqlite3-dev on Linux, the SDK's on macOS.
#include <sqlite3.h>

/// Closing this handle leaves the write-ahead log as it is, without checkpointing it into the file or deleting it:
/// what a killed process leaves. (`sqlite3_db_config` is variadic, which Swift cannot call.)
static inline int csqlite_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
