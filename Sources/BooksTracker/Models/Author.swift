import GraphStore

/// An author of works.
public final class Author: PersistentModel {
    @Attribute(.length(1...200)) public var name: String = ""
    @Attribute public var nationality: String? = nil

    @Relationship public var works: [Work] = []

    public init(name: String = "", nationality: String? = nil) {
        self.name = name
        self.nationality = nationality
    }

    public required init() {}
}
