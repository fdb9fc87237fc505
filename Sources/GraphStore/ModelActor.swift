/// Background work in the shape of SwiftData's `@ModelActor`: an actor that owns a context of its own over the app's
/// container. Where SwiftData writes `@ModelActor actor Refresher {}`, write
///
///     actor Refresher: ModelActor {
///         let modelContext: ModelContext
///         init(modelContainer: ModelContainer) { modelContext = ModelContext(modelContainer) }
///     }
///
/// Models never leave the actor: callers pass `PersistentIdentifier`s, and the actor finds its own models by them
/// (`self[id, as: Work.self]`).
public protocol ModelActor: Actor {
    /// The actor's context; no other code uses it while the actor lives.
    var modelContext: ModelContext { get }
}

extension ModelActor {
    /// The container of the actor's context.
    public var modelContainer: ModelContainer { modelContext.container }

    /// The model of `id` in the actor's context, if the context holds it or its row exists and it is a `T`
    /// (SwiftData's `self[id, as: T.self]`): a registered model, else a fetch by identifier (R15, R16).
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
        if let model = modelContext.registeredModel(for: id) { return model as? T }
        return modelContext.fetch(.identifier(id)).first as? T
    }
}
