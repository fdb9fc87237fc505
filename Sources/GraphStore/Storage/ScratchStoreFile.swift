import Foundation

/// A throwaway SQLite store file for one test case: in /dev/shm when the machine has it, else the temporary
/// directory; unique per case. `remove()` deletes it with every companion the store may leave (SQLite's
/// journal, WAL and shared-memory files, and the `.creating` file a new store is built in before it is
/// renamed into place). Package access: the harness's targets use it; an app never sees it.
package struct ScratchStoreFile: Sendable {
    package let path: String

    /// A new, unused path whose file name starts with `prefix`.
    package static func make(prefix: String) -> ScratchStoreFile {
        let shm = "/dev/shm"
        var isDirectory: ObjCBool = false
        let usesShm = FileManager.default.fileExists(atPath: shm, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.isWritableFile(atPath: shm)
        let directory = usesShm ? shm : NSTemporaryDirectory()
        let parent = directory.hasSuffix("/") ? directory : directory + "/"
        return ScratchStoreFile(path: parent + prefix + "-" + UUID().uuidString + ".sqlite")
    }

    /// Why the harness cannot write a file where this one goes (its folder missing or unwritable, the disk
    /// full), or nil when it can. Asked only after the store failed to create this file, to tell the harness's
    /// own I/O failure (not the store's to answer for) from the store's refusal.
    package func unwritable() -> (any Error)? {
        let probe = path + ".probe"
        defer { try? FileManager.default.removeItem(atPath: probe) }
        do { try Data([0]).write(to: URL(fileURLWithPath: probe)) } catch { return error }
        return nil
    }

    /// Removes the file and its companions.
    package func remove() {
        for base in [path, path + ".creating"] {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: base + suffix) }
        }
    }
}
