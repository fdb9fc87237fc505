#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Where a harness keeps the store files of its cases: a folder it was told (a `graph-fuzz` worker gets one of
/// its own, which its parent removes however the worker ends), or the system's scratch location. It also keeps
/// the empty store images made there (`EmptyStoreImage`), each made once per instance. Package access: the
/// harness's targets use it; an app never sees it.
package final class ScratchStores: Sendable {
    /// The folder the files go in, ending in "/".
    package let folder: String
    private let images = Mutex<[String: EmptyStoreImage?]>([:])

    /// - Parameter folder: an existing folder for the files; nil for the system's scratch location (/dev/shm when
    ///   the machine has it, else the temporary directory).
    package init(folder: String? = nil) {
        let folder = folder ?? ScratchStoreFile.defaultDirectory
        self.folder = folder.hasSuffix("/") ? folder : folder + "/"
    }

    /// A new, unused store file path in the folder whose file name starts with `prefix`.
    package func file(prefix: String) -> ScratchStoreFile {
        ScratchStoreFile(path: folder + prefix + "-" + UUID().uuidString + ".sqlite")
    }

    /// The empty store image for `schema` and `storeIdentifier`, made in the folder on first use and kept under
    /// `key` (one key per schema the caller uses); nil when it could not be made (the caller then creates each
    /// store itself).
    package func emptyImage(_ key: String, schema: @autoclosure () -> Schema, storeIdentifier: String) -> EmptyStoreImage? {
        images.withLock { images in
            if let image = images[key] { return image }
            let image = EmptyStoreImage(schema: schema(), storeIdentifier: storeIdentifier, in: self)
            images[key] = image
            return image
        }
    }
}
