import BooksTracker
import GraphStore

/// A recording container for the BooksTracker schema.
func makeContainer(_ configuration: BooksConfiguration = .local, behavior: StoreBehavior = StoreBehavior()) -> ModelContainer {
    BooksTrackerSchema.container(configuration, store: ModelConfiguration(trapPolicy: .record, behavior: behavior))
}
