/// The specification's description of seed 004's entities: what the store must enforce for them.
public struct SpecAttribute: Sendable {
    public var name: String
    public var optional: Bool
    public var defaultValue: SpecValue
    public var range: ClosedRange<Int>?
    public var length: ClosedRange<Int>?
    public var unique: Bool = false

    public init(name: String, optional: Bool, defaultValue: SpecValue, range: ClosedRange<Int>? = nil,
                length: ClosedRange<Int>? = nil, unique: Bool = false) {
        self.name = name
        self.optional = optional
        self.defaultValue = defaultValue
        self.range = range
        self.length = length
        self.unique = unique
    }
}

public enum SpecDeleteRule: String, Sendable { case nullify, cascade, deny, noAction }

public struct SpecRelationship: Sendable {
    public var name: String
    public var destination: Int
    public var toMany: Bool
    /// Index of the inverse in the destination's relationships.
    public var inverse: Int?
    public var deleteRule: SpecDeleteRule
    public var optional: Bool
    public var maxCount: Int?

    public init(name: String, destination: Int, toMany: Bool, inverse: Int?, deleteRule: SpecDeleteRule, optional: Bool, maxCount: Int? = nil) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.optional = optional
        self.maxCount = maxCount
    }
}

public struct SpecEntity: Sendable {
    public var name: String
    public var attributes: [SpecAttribute]
    public var relationships: [SpecRelationship]

    public init(name: String, attributes: [SpecAttribute], relationships: [SpecRelationship]) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// The BooksTracker entities (seed 004 after its fixes) in one schema configuration.
public enum BooksEntities {
    public static let work = 0, edition = 1, author = 2, entry = 3
    public static let names = ["Work", "Edition", "Author", "UserLibraryEntry"]

    /// Attribute indexes used by the domain rules.
    public static let workTitle = 0, editionPageCount = 3, editionFormat = 4, authorName = 0, entryStatus = 0, entryRating = 1
    /// Relationship indexes.
    public static let workAuthors = 0, workEditions = 1, workEntries = 2
    public static let editionWork = 0, editionEntries = 1, authorWorks = 0, entryWork = 0, entryEdition = 1

    private static func attr(_ name: String, optional: Bool = true, _ value: SpecValue = .null,
                             range: ClosedRange<Int>? = nil, length: ClosedRange<Int>? = nil) -> SpecAttribute {
        SpecAttribute(name: name, optional: optional, defaultValue: value, range: range, length: length)
    }

    /// The entities for `schema`: local has `.deny` on Edition.userLibraryEntries and a required
    /// UserLibraryEntry.work; CloudKit has `.nullify` and every relationship optional.
    public static func entities(_ schema: SchemaConfiguration) -> [SpecEntity] {
        let local = schema == .local
        return [
            SpecEntity(name: "Work", attributes: [
                attr("title", optional: false, .string(""), length: 1...500),
                attr("firstPublicationYear", range: 1...3000),
                attr("originalLanguage"),
                attr("subjectTags", optional: false, .strings([])),
                attr("synthetic", optional: false, .bool(false)),
                attr("primaryProvider"),
                attr("googleBooksVolumeIDs", optional: false, .strings([])),
            ], relationships: [
                SpecRelationship(name: "authors", destination: author, toMany: true, inverse: authorWorks, deleteRule: .nullify, optional: true, maxCount: 3),
                SpecRelationship(name: "editions", destination: edition, toMany: true, inverse: editionWork, deleteRule: .cascade, optional: true),
                SpecRelationship(name: "userLibraryEntries", destination: entry, toMany: true, inverse: entryWork, deleteRule: .cascade, optional: true),
            ]),
            SpecEntity(name: "Edition", attributes: [
                attr("isbn"), attr("publisher"), attr("publicationDate"),
                attr("pageCount", range: 1...50000),
                attr("format", optional: false, .string("hardcover")),
                attr("coverImageURL"), attr("editionTitle"), attr("primaryProvider"),
            ], relationships: [
                SpecRelationship(name: "work", destination: work, toMany: false, inverse: workEditions, deleteRule: .nullify, optional: true),
                SpecRelationship(name: "userLibraryEntries", destination: entry, toMany: true, inverse: entryEdition,
                                 deleteRule: local ? .deny : .nullify, optional: true),
            ]),
            SpecEntity(name: "Author", attributes: [
                attr("name", optional: false, .string(""), length: 1...200),
                attr("nationality"),
            ], relationships: [
                SpecRelationship(name: "works", destination: work, toMany: true, inverse: workAuthors, deleteRule: .nullify, optional: true),
            ]),
            SpecEntity(name: "UserLibraryEntry", attributes: [
                attr("readingStatus", optional: false, .string("toRead")),
                attr("rating", range: 1...5),
                attr("notes", length: 0...2000),
            ], relationships: [
                SpecRelationship(name: "work", destination: work, toMany: false, inverse: workEntries, deleteRule: .nullify, optional: !local),
                SpecRelationship(name: "edition", destination: edition, toMany: false, inverse: editionEntries, deleteRule: .nullify, optional: true),
            ]),
        ]
    }

    /// The CloudKit violations (R23, R24) the specification predicts for `schema` (B7).
    public static func cloudKitViolations(_ schema: SchemaConfiguration) -> [String] {
        cloudKitViolations(of: entities(schema))
    }

    /// G21: every deny rule, required or inverse-less relationship, unique attribute and required attribute
    /// without default of `entities`, as "kind: Entity.property", sorted by entity, property, kind.
    public static func cloudKitViolations(of entities: [SpecEntity]) -> [String] {
        var result: [(String, String, String)] = []
        for entity in entities {
            for a in entity.attributes {
                if a.unique { result.append((entity.name, a.name, "uniqueAttribute")) }
                if !a.optional && a.defaultValue == .null { result.append((entity.name, a.name, "requiredAttributeWithoutDefault")) }
            }
            for r in entity.relationships {
                if r.deleteRule == .deny { result.append((entity.name, r.name, "denyDeleteRule")) }
                if !r.optional { result.append((entity.name, r.name, "requiredRelationship")) }
                if r.inverse == nil { result.append((entity.name, r.name, "relationshipWithoutInverse")) }
            }
        }
        return result.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map { "\($0.2): \($0.0).\($0.1)" }
    }

    /// Values the harness creates and sets, simplest (valid) first; later ones break validation.
    public static let titles: [SpecValue] = [.string("Dune"), .string(""), .string("Emma")]
    public static let pageCounts: [SpecValue] = [.null, .int(320), .int(0)]
    public static let formats: [SpecValue] = [.string("hardcover"), .string("ebook")]
    public static let authorNames: [SpecValue] = [.string("Le Guin"), .string(""), .string("Woolf")]
    public static let statuses: [SpecValue] = [.string("toRead"), .string("wishlist"), .string("read")]
    public static let ratings: [SpecValue] = [.null, .int(5), .int(9)]

    /// The attribute a create step sets, per entity, and its pool.
    public static func createPool(_ entity: Int) -> (attribute: Int, pool: [SpecValue]) {
        switch entity {
        case work: return (workTitle, titles)
        case edition: return (editionPageCount, pageCounts)
        case author: return (authorName, authorNames)
        default: return (entryStatus, statuses)
        }
    }

    /// Settable attributes per entity and their pools: the hand-picked slots first (their indexes and the first
    /// values of their pools never change, so recorded traces keep their meaning), each pool followed by the
    /// attribute's schema boundaries; then every other attribute with boundaries (a range, a length, or optional).
    public static func settable(_ entity: Int) -> [(attribute: Int, pool: [SpecValue])] { settableSlots[entity] }

    /// The most slots any entity has, and the longest pool: the ranges the set action draws from.
    public static let settableSlotCount = settableSlots.map(\.count).max() ?? 1
    public static let settablePoolCount = settableSlots.joined().map(\.pool.count).max() ?? 1

    /// How many of slot `slot`'s pool values were picked by hand (the rest are schema boundaries).
    public static func handPicked(_ entity: Int, _ slot: Int) -> Int { slot < handPickedSlots(entity).count ? handPickedSlots(entity)[slot].pool.count : 0 }

    /// The weights the set action draws slot `slot`'s pool with: the hand-picked values as before, then each
    /// boundary the schema allows 2 and each one beyond it 1 (a failed save keeps everything pending).
    public static func settableWeights(_ entity: Int, _ slot: Int) -> [UInt32] {
        let picked = handPicked(entity, slot)
        let first: [UInt32] = picked == 3 ? [5, 3, 2] : [5, 3]
        let attribute = entities(.local)[entity].attributes[settable(entity)[slot].attribute]
        return settable(entity)[slot].pool.indices.map { $0 < picked ? first[$0] : allows(attribute, settable(entity)[slot].pool[$0]) ? 2 : 1 }
    }

    /// Whether `value` is within `attribute`'s range and length (nil only when it is optional).
    static func allows(_ attribute: SpecAttribute, _ value: SpecValue) -> Bool {
        switch value {
        case .null: return attribute.optional
        case .int(let n): return attribute.range?.contains(n) ?? true
        case .string(let text): return attribute.length?.contains(text.count) ?? true
        default: return true
        }
    }

    private static func handPickedSlots(_ entity: Int) -> [(attribute: Int, pool: [SpecValue])] {
        switch entity {
        case work: return [(workTitle, titles)]
        case edition: return [(editionPageCount, pageCounts), (editionFormat, formats)]
        case author: return [(authorName, authorNames)]
        default: return [(entryStatus, statuses), (entryRating, ratings)]
        }
    }

    private static let settableSlots: [[(attribute: Int, pool: [SpecValue])]] = {
        let attributes = entities(.local).map(\.attributes)
        return attributes.indices.map { e in
            let picked = handPickedSlots(e)
            let extended = picked.map { slot in (slot.attribute, appending(boundaries(attributes[e][slot.attribute]), to: slot.pool)) }
            let others = attributes[e].indices.filter { a in !picked.contains { $0.attribute == a } }
                .map { a in (a, boundaries(attributes[e][a])) }.filter { !$0.1.isEmpty }
            return extended + others
        }
    }()

    private static func appending(_ values: [SpecValue], to pool: [SpecValue]) -> [SpecValue] {
        values.reduce(into: pool) { pool, value in if !pool.contains(value) { pool.append(value) } }
    }

    /// The boundary values of `attribute`, from its schema description alone (issue 14): nil when it is optional,
    /// each bound of its range and the bound ± 1, the shortest and longest string its length allows and one
    /// character beyond each, and a value for an optional attribute without constraints (so it is sometimes set).
    public static func boundaries(_ attribute: SpecAttribute) -> [SpecValue] {
        var values: [SpecValue] = attribute.optional ? [.null] : []
        if let range = attribute.range {
            let (low, high) = (range.lowerBound, range.upperBound)
            values += [low - 1, low, low + 1, high - 1, high, high + 1].map(SpecValue.int)
        }
        if let length = attribute.length {
            let (low, high) = (length.lowerBound, length.upperBound)
            values += [low - 1, low, high, high + 1].filter { $0 >= 0 }.map { .string(String(repeating: "x", count: $0)) }
        }
        if attribute.range == nil && attribute.length == nil && attribute.optional { values.append(.string("x")) }
        return appending(values, to: [])
    }
}
