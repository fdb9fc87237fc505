import Foundation

/// The SQLite store file of an on-disk mapper case: in /dev/shm when the machine has it, else the temporary
/// directory; unique per case, removed at tear-down, never named in a report.
struct MapperStoreFile {
    let path: String

    static func make() -> MapperStoreFile {
        let shm = "/dev/shm"
        let directory = FileManager.default.isWritableFile(atPath: shm) ? shm : NSTemporaryDirectory()
        return MapperStoreFile(path: (directory.hasSuffix("/") ? directory : directory + "/") + "graphfuzz-mapper-\(UUID().uuidString).sqlite")
    }

    /// Removes the file and SQLite's companions.
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
