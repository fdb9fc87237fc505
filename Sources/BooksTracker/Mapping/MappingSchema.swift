import GraphStore

extension DTOMapper {
    /// The BooksTracker schema of `configuration` plus the mapper's `WorkProvenance` records.
    public static func schema(_ configuration: BooksConfiguration) -> Schema {
        let books = BooksTrackerSchema.schema(configuration)
        do {
            // The configuration's entities (its delete-rule and optionality variants) are kept as they are.
            return try Schema(BooksTrackerSchema.models + [WorkProvenance.self], variants: books.entities)
        } catch {
            preconditionFailure("the mapping schema does not hold together: \(error)")
        }
    }

    /// A container for the mapper: the BooksTracker schema of `configuration` with provenance records.
    public static func container(_ configuration: BooksConfiguration = .cloudKit,
                                 store: ModelConfiguration = ModelConfiguration()) -> ModelContainer {
        ModelContainer(schema: schema(configuration), configuration: store)
    }
}
