import GraphFuzzEngine

/// One of the library's domain operations (seed 004), on models the store steps made. Its trace
/// (`v3 = wishlist(work: v1, context: 0)`) is derived from how the graph target's actions draw it.
public enum BooksCommand: Sendable, Equatable {
    case wishlist(result: Ref, work: Ref, context: Int)
    case owned(result: Ref, work: Ref, edition: Ref, context: Int)
    case acquire(Ref, edition: Ref)
    case userEntry(Ref)
    case validate(Ref)
}
