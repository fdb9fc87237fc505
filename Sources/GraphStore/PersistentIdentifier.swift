/// A model's identifier. Temporary from insert until the first successful save of its context, then
/// permanent; the two are different values (R2, R3).
public struct PersistentIdentifier: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable { case temporary, permanent }

    public let entityName: String
    public let kind: Kind
    /// The store that issued it (permanent) or the issuing counter (temporary); numbers are per kind.
    public let storeIdentifier: String
    public let number: Int

    public init(entityName: String, kind: Kind, storeIdentifier: String, number: Int) {
        self.entityName = entityName
        self.kind = kind
        self.storeIdentifier = storeIdentifier
        self.number = number
    }

    public var isTemporary: Bool { kind == .temporary }

    /// Compares the number and kind first: identifiers rarely share a number, so the strings are
    /// compared only for a real match.
    public static func == (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.number == rhs.number && lhs.kind == rhs.kind && lhs.entityName == rhs.entityName
            && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the number and kind only (consistent with `==`; identifiers of one store that share a
    /// number differ in entity, a rare collision), so registry and row lookups hash no strings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(kind == .temporary)
    }

    /// Core Data's URI form: `x-coredata:///Work/t1` or `x-coredata://<store>/Work/p1`.
    public var description: String {
        switch kind {
        case .temporary: return "x-coredata:///\(entityName)/t\(number)"
        case .permanent: return "x-coredata://\(storeIdentifier)/\(entityName)/p\(number)"
        }
    }
}
