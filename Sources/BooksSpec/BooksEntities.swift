import GraphSpec

/// The schema configuration of the BooksTracker models.
public enum SchemaConfiguration: String, Sendable, CaseIterable {
    case local, cloudKit
}

/// The BooksTracker entities (seed 004 after its fixes) as a schema of the object-graph rules, in one
/// configuration, with the values the harness creates and sets picked for the app.
public enum BooksEntities {
    public static let work = 0, edition = 1, author = 2, entry = 3
    public static let names = ["Work", "Edition", "Author", "UserLibraryEntry"]

    /// Attribute indexes used by the domain rules.
    public static let workTitle = 0, editionPageCount = 3, editionFormat = 4, authorName = 0, entryStatus = 0, entryRating = 1
    /// Relationship indexes.
    public static let workAuthors = 0, workEditions = 1, workEntries = 2
    public static let editionWork = 0, editionEntries = 1, authorWorks = 0, entryWork = 0, entryEdition = 1

    private static func attr(_ name: String, _ kind: SpecValueKind = .string, optional: Bool = true, _ value: SpecValue = .null,
                             range: ClosedRange<Int>? = nil, length: ClosedRange<Int>? = nil) -> SpecAttribute {
        SpecAttribute(name: name, kind: kind, optional: optional, defaultValue: value, range: range, length: length)
    }

    /// The entities for `configuration`: local has `.deny` on Edition.userLibraryEntries and a required
    /// UserLibraryEntry.work; CloudKit has `.nullify` and every relationship optional. The delete rule on
    /// Edition.userLibraryEntries is B4's (an owned entry keeps its edition), Work's cascades are B6's.
    public static func entities(_ configuration: SchemaConfiguration) -> [SpecEntity] {
        let local = configuration == .local
        return [
            SpecEntity(name: "Work", attributes: [
                attr("title", optional: false, .string(""), length: 1...500),
                attr("firstPublicationYear", .int, range: 1...3000),
                attr("originalLanguage"),
                attr("subjectTags", .strings, optional: false, .strings([])),
                attr("synthetic", .bool, optional: false, .bool(false)),
                attr("primaryProvider"),
                attr("googleBooksVolumeIDs", .strings, optional: false, .strings([])),
            ], relationships: [
                SpecRelationship(name: "authors", destination: author, toMany: true, inverse: authorWorks, deleteRule: .nullify, optional: true, maxCount: 3),
                SpecRelationship(name: "editions", destination: edition, toMany: true, inverse: editionWork, deleteRule: .cascade, optional: true,
                                 rule: BooksRules.workCascade),
                SpecRelationship(name: "userLibraryEntries", destination: entry, toMany: true, inverse: entryWork, deleteRule: .cascade, optional: true,
                                 rule: BooksRules.workCascade),
            ]),
            SpecEntity(name: "Edition", attributes: [
                attr("isbn"), attr("publisher"), attr("publicationDate"),
                attr("pageCount", .int, range: 1...50000),
                attr("format", optional: false, .string("hardcover")),
                attr("coverImageURL"), attr("editionTitle"), attr("primaryProvider"),
            ], relationships: [
                SpecRelationship(name: "work", destination: work, toMany: false, inverse: workEditions, deleteRule: .nullify, optional: true),
                SpecRelationship(name: "userLibraryEntries", destination: entry, toMany: true, inverse: entryEdition,
                                 deleteRule: local ? .deny : .nullify, optional: true, rule: BooksRules.ownedKeepsEdition),
            ]),
            SpecEntity(name: "Author", attributes: [
                attr("name", optional: false, .string(""), length: 1...200),
                attr("nationality"),
            ], relationships: [
                SpecRelationship(name: "works", destination: work, toMany: true, inverse: workAuthors, deleteRule: .nullify, optional: true),
            ]),
            SpecEntity(name: "UserLibraryEntry", attributes: [
                attr("readingStatus", optional: false, .string("toRead")),
                attr("rating", .int, range: 1...5),
                attr("notes", length: 0...2000),
            ], relationships: [
                SpecRelationship(name: "work", destination: work, toMany: false, inverse: workEntries, deleteRule: .nullify, optional: !local),
                SpecRelationship(name: "edition", destination: edition, toMany: false, inverse: editionEntries, deleteRule: .nullify, optional: true),
            ]),
        ]
    }

    /// The schema of `configuration`, with the app's values: a create step sets a work's title, an edition's page
    /// count, an author's name or an entry's status; a set step prefers those and an edition's format (their
    /// first values never change, so recorded traces keep their meaning), then every attribute's boundaries.
    public static func schema(_ configuration: SchemaConfiguration) -> GraphSchema {
        configuration == .local ? local : cloudKit
    }

    private static let local = makeSchema(.local), cloudKit = makeSchema(.cloudKit)

    private static func makeSchema(_ configuration: SchemaConfiguration) -> GraphSchema {
        func pool(_ attribute: Int, _ values: [SpecValue]) -> ValuePool {
            ValuePool(attribute: attribute, values: values, weights: values.count == 3 ? [5, 3, 2] : [5, 3])
        }
        return GraphSchema(name: configuration.rawValue, entities: entities(configuration), createPools: [
            ValuePool(attribute: workTitle, values: titles, weights: [6, 2, 2]),
            ValuePool(attribute: editionPageCount, values: pageCounts, weights: [6, 2, 2]),
            ValuePool(attribute: authorName, values: authorNames, weights: [6, 2, 2]),
            ValuePool(attribute: entryStatus, values: statuses, weights: [6, 2, 2]),
        ], handPicked: [
            [pool(workTitle, titles)],
            [pool(editionPageCount, pageCounts), pool(editionFormat, formats)],
            [pool(authorName, authorNames)],
            [pool(entryStatus, statuses), pool(entryRating, ratings)],
        ], createWeights: [4, 3, 2, 1])
    }

    /// B7: the CloudKit violations (R23, R24) the specification predicts for `configuration`.
    public static func cloudKitViolations(_ configuration: SchemaConfiguration) -> [String] {
        schema(configuration).cloudKitViolations
    }

    /// Values the harness creates and sets, simplest (valid) first; later ones break validation.
    public static let titles: [SpecValue] = [.string("Dune"), .string(""), .string("Emma")]
    public static let pageCounts: [SpecValue] = [.null, .int(320), .int(0)]
    public static let formats: [SpecValue] = [.string("hardcover"), .string("ebook")]
    public static let authorNames: [SpecValue] = [.string("Le Guin"), .string(""), .string("Woolf")]
    public static let statuses: [SpecValue] = [.string("toRead"), .string("wishlist"), .string("read")]
    public static let ratings: [SpecValue] = [.null, .int(5), .int(9)]
}
