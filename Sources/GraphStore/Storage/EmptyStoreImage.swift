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

/// The bytes of a new, empty SQLite store file: what `ModelContainer(schema:configuration:path:)` creates when no
/// file is at its path, before it opens the file (launch 0, no rows). A harness that needs a new store in every
/// case makes the image once and writes it where each case's store goes, instead of building the same file
/// (its tables, in a durable transaction) again per case; opening the written file is the production path.
/// Package access: the targets use it; an app never sees it.
package struct EmptyStoreImage: Sendable {
    /// The schema and store identifier the image was made for.
    package let schema: Schema
    package let storeIdentifier: String
    let bytes: [UInt8]
    /// The schema's tables and statements, shared by every store opened with the image.
    let layout: SQLiteLayout

    /// Creates a store for `schema` in a scratch file of `stores` with the production code, keeps its bytes and
    /// removes the file; nil when the store could not be created or read there (the caller then creates each store
    /// itself). A harness asks `ScratchStores.emptyImage`, which keeps the image.
    package init?(schema: Schema, storeIdentifier: String, in stores: ScratchStores = ScratchStores()) {
        let file = stores.file(prefix: "graphfuzz-empty")
        defer { file.remove() }
        guard let layout = try? SQLiteLayout(schema: schema),
              (try? SQLiteRowStorage.create(path: file.path, layout: layout, storeIdentifier: storeIdentifier)) != nil,
              let bytes = try? ScratchStoreFile.contents(of: file.path), !bytes.isEmpty else { return nil }
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.bytes = bytes
        self.layout = layout
    }

    /// Whether a container for `schema` and `storeIdentifier` would create this image's file.
    package func fits(_ schema: Schema, storeIdentifier: String) -> Bool {
        storeIdentifier == self.storeIdentifier && schema == self.schema
    }

    /// Writes the image to `path`, which must not exist yet. False when it could not be written whole (nothing
    /// is left at `path` then).
    package func write(to path: String) -> Bool {
        do {
            try ScratchStoreFile.write(bytes, to: path, exclusive: true)
            return true
        } catch {
            return false
        }
    }
}

extension ModelContainer {
    /// A container over the SQLite store file at `path`, as `init(schema:configuration:path:)` opens it, for a harness
    /// that opens many stores of one schema: when `image` fits the schema and the configuration's store identifier,
    /// a missing file is written from the image (the file the store would create) and the schema's layout is taken
    /// from the image instead of being derived again. Otherwise, or when the image cannot be written, exactly
    /// `init(schema:configuration:path:)`.
    package convenience init(schema: Schema, configuration: ModelConfiguration = ModelConfiguration(), path: String,
                             image: EmptyStoreImage?) throws(StoreError) {
        guard let image, image.fits(schema, storeIdentifier: configuration.storeIdentifier) else {
            try self.init(schema: schema, configuration: configuration, path: path)
            return
        }
        if access(path, F_OK) != 0 { _ = image.write(to: path) }
        let storage = try SQLiteRowStorage(path: path, schema: schema, storeIdentifier: configuration.storeIdentifier, layout: image.layout)
        self.init(schema: schema, configuration: configuration, storage: storage)
    }
}
