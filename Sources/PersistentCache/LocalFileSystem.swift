#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through `FileManager` and POSIX calls.
public struct LocalFileSystem: CacheFileSystem {
    public init() {}

    public func createFolder(at path: String) throws(FileSystemError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileSystemError(.ioError, path: path, operation: "createFolder")
        }
    }

    public func folderExists(at path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    public func write(_ data: Data, to path: String, modified: Date) throws(FileSystemError) {
        // POSIX calls rather than `FileManager.createFile`, which writes atomically through a
        // temporary file of its own: this seam's write is in place, the cache decides about atomicity.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw FileSystemError(LocalFileSystem.reason(errno, missing: .folderMissing), path: path, operation: "write")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        close(descriptor)
        guard failure == 0 else {
            throw FileSystemError(LocalFileSystem.reason(failure, missing: .notFound), path: path, operation: "write")
        }
        do {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        } catch {
            throw FileSystemError(.ioError, path: path, operation: "setModificationDate")
        }
    }

    private static func reason(_ code: Int32, missing: FileSystemError.Reason) -> FileSystemError.Reason {
        switch code {
        case ENOENT: return missing
        case ENOSPC: return .diskFull
        default: return .ioError
        }
    }

    public func synchronize(_ path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileSystemError(.notFound, path: path, operation: "synchronize") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileSystemError(.ioError, path: path, operation: "synchronize") }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        #if canImport(Glibc)
        let renamed = Glibc.rename(source, destination)
        #else
        let renamed = Darwin.rename(source, destination)
        #endif
        guard renamed == 0 else {
            throw FileSystemError(errno == ENOENT ? .notFound : .ioError, path: source, operation: "rename")
        }
    }

    public func read(_ path: String) throws(FileSystemError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileSystemError(.notFound, path: path, operation: "read")
        }
        return data
    }

    public func fileExists(at path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public func remove(_ path: String) throws(FileSystemError) {
        guard unlink(path) == 0 else { throw FileSystemError(errno == ENOENT ? .notFound : .ioError, path: path, operation: "remove") }
    }

    public func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw FileSystemError(folderExists(at: folder) ? .ioError : .folderMissing, path: folder, operation: "list")
        }
        var result: [(name: String, modified: Date)] = []
        for name in names.sorted() {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            result.append((name, (attributes?[.modificationDate] as? Date) ?? .distantPast))
        }
        return result
    }

    public func removeFolder(at path: String) throws(FileSystemError) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw FileSystemError(folderExists(at: path) ? .ioError : .notFound, path: path, operation: "removeFolder")
        }
    }
}
