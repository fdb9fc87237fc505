/// One validation failure of a save, with Core Data's code (R25).
public struct ValidationIssue: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1570 missing mandatory value; 1580/1590 too few/too many; 1600 deny delete; 1610/1620 number too
    /// large/small; 1660/1670 string too long/short.
    public var code: Int
    public var entity: String
    public var key: String
    /// The model's identifier at save (temporary for a pending insert).
    public var object: PersistentIdentifier?

    public init(code: Int, entity: String, key: String, object: PersistentIdentifier?) {
        self.code = code
        self.entity = entity
        self.key = key
        self.object = object
    }

    public var description: String { "\(code) \(entity).\(key)" }

    public static func < (lhs: ValidationIssue, rhs: ValidationIssue) -> Bool {
        (lhs.code, lhs.entity, lhs.key, lhs.object?.description ?? "") < (rhs.code, rhs.entity, rhs.key, rhs.object?.description ?? "")
    }
}

/// A failed save: a single issue's code, or 1560 aggregating several (`NSDetailedErrorsKey`), or 134030
/// (`NSPersistentStoreSaveError`) when the store could not write.
public struct SaveError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int
    /// Every failure, sorted.
    public var issues: [ValidationIssue]
    /// Why the store could not write the save (nothing of it was committed in one transaction).
    public var storeFailure: StoreError?

    public init(issues: [ValidationIssue]) {
        self.issues = issues.sorted()
        self.code = issues.count == 1 ? issues[0].code : 1560
        self.storeFailure = nil
    }

    /// A save the store could not write.
    public init(storeFailure: StoreError) {
        self.issues = []
        self.code = 134_030
        self.storeFailure = storeFailure
    }

    public var description: String {
        if let storeFailure { return "NSCocoaErrorDomain \(code): \(storeFailure)" }
        return "NSCocoaErrorDomain \(code): " + issues.map(\.description).joined(separator: ", ")
    }
}
