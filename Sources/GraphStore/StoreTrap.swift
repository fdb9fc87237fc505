/// A condition under which SwiftData stops the process, with a code and a message modelled on the real one.
public struct StoreTrap: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// R9: inserting a model that is already registered.
        case duplicateRegistration
        /// R10: a relationship between models of different contexts, or (with `.trap`) a new model and a registered one.
        case crossContextRelationship
        /// Inserting a model registered in another context.
        case insertIntoSecondContext
        /// R14, R28: reading a model whose row no longer exists (a placeholder or a stale model).
        case invalidatedBackingData
        /// R27: changing a model whose deletion has been saved.
        case mutatingDeletedModel
        /// R7: two pending inserts with the same unique value.
        case temporaryIdentifierRemap
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    static func duplicateRegistration(_ id: String) -> StoreTrap {
        StoreTrap(.duplicateRegistration, "Duplicate registration attempt for object with id \(id)")
    }
    static func crossContext(_ relationship: String, _ source: String, _ destination: String) -> StoreTrap {
        StoreTrap(.crossContextRelationship,
                  "Illegal attempt to establish a relationship '\(relationship)' between objects in different contexts (source = \(source), destination = \(destination))")
    }
    static func secondContext(_ id: String) -> StoreTrap {
        StoreTrap(.insertIntoSecondContext, "An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext: \(id)")
    }
    static func invalidated(_ id: String) -> StoreTrap {
        StoreTrap(.invalidatedBackingData,
                  "This model instance was invalidated because its backing data could no longer be found the store. PersistentIdentifier(\(id))")
    }
    static func mutatingDeleted(_ id: String) -> StoreTrap {
        StoreTrap(.mutatingDeletedModel, "Cannot modify a model whose deletion was saved: \(id)")
    }
    static func remapped(_ id: String) -> StoreTrap {
        StoreTrap(.temporaryIdentifierRemap,
                  "PersistentIdentifier \(id) was remapped to a temporary identifier during save. This is a fatal logic error in DefaultStore")
    }
}

/// What the store does at a trap.
public enum TrapPolicy: Sendable, Equatable {
    /// Stop the process with the trap's message, as SwiftData does (the default).
    case crash
    /// Record the trap in the container and leave the offending operation without effect.
    case record
}
