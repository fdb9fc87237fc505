#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A fetch of models of one class, as SwiftData's `FetchDescriptor`: a predicate, written as a Swift closure where
/// SwiftData takes a `#Predicate`, a sort, a limit and an offset.
///
///     FetchDescriptor<Task>(predicate: { $0.isDone }, sortBy: [SortDescriptor(\.timestamp)])
///
/// The predicate sees a saved model's attributes and identifier as the store holds them (a context's pending
/// changes included); a relationship it reads holds the models this context has of it (saved rows the context never
/// made a model of read as none).
public struct FetchDescriptor<T: PersistentModel> {
    /// The models to fetch (nil: all of `T`).
    public var predicate: ((T) -> Bool)?
    /// Their order (none: pending inserts first, then saved rows in the order they were saved): `SortDescriptor`s as
    /// in SwiftData, or any other comparator of `T`; the first that tells two models apart orders them. (Typed as
    /// `SortComparator`, which FoundationEssentials has: `SortDescriptor` needs Foundation's internationalization
    /// library, which the store does not load.)
    public var sortBy: [any SortComparator<T>]
    /// At most this many.
    public var fetchLimit: Int?
    /// Leaves out this many first.
    public var fetchOffset: Int?

    public init(predicate: ((T) -> Bool)? = nil, sortBy: [any SortComparator<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

extension ModelContext {
    /// The models of `T` that `descriptor` selects (R16): this context's pending inserts, then the saved rows, as
    /// the store holds them overlaid with this context's models (pending changes included); pending deletes are
    /// still fetched (R18). Only the models fetched become this context's. Throws when the container is closed.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws(StoreError) -> [T] {
        guard container.isOpen else { throw StoreError(.closed, path: container.path ?? ":memory:", message: "the container is closed") }
        guard let entity = container.schema.entityIndex(of: T.self) else { return [] }
        let accepts = descriptor.predicate ?? { _ in true }
        var results: [T] = []
        for model in inserted where model.entityIndex == entity {
            let typed = unsafeDowncast(model, to: T.self)
            if accepts(typed) { results.append(typed) }
        }
        // A saved row no model of this context stands for is judged on an object of its own (one for the whole fetch),
        // so only the rows fetched become the context's models.
        var scratch: PersistentModel?
        for id in container.rowIDs(entity) {
            if let model = registry[id] {
                let typed = unsafeDowncast(model, to: T.self)
                if accepts(typed) { results.append(typed) }
            } else if let row = container.row(id) {
                let judged = scratch ?? container.schema.models.madeForRow(entity)
                scratch = judged
                judged.values = row.values
                judged.identifier = id
                if accepts(unsafeDowncast(judged, to: T.self)) { results.append(unsafeDowncast(materialize(id), to: T.self)) }
            }
        }
        if !descriptor.sortBy.isEmpty {
            // As Foundation's `sort(using:)` over a sequence of comparators: the first that does not find two models
            // the same orders them.
            results.sort { first, second in
                for comparator in descriptor.sortBy {
                    let order = comparator.compare(first, second)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return false
            }
        }
        if let offset = descriptor.fetchOffset { results = Array(results.dropFirst(max(0, offset))) }
        if let limit = descriptor.fetchLimit { results = Array(results.prefix(max(0, limit))) }
        return results
    }

    /// How many models `fetch(descriptor)` returns.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws(StoreError) -> Int {
        try fetch(descriptor).count
    }
}
