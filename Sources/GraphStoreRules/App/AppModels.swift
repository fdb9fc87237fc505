import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The app's side of a step: the models earlier steps made or found and the case's two contexts, for an app
/// action's code and an app invariant. `app[group]` is the `Group` a `ModelRef<Group>` names.
public struct AppModels {
    let refs: [PersistentModel?]
    /// The case's container.
    public let container: ModelContainer
    let contexts: [ModelContext]
    /// The reference a model this step makes will take (reading it before is a mistake of the action).
    let making: Ref?

    init(_ system: SchemaSystem, making: Ref?) {
        refs = system.refs
        container = system.container
        contexts = system.contexts
        self.making = making
    }

    /// The model `ref` names.
    public subscript<Model: PersistentModel>(ref: ModelRef<Model>) -> Model {
        get throws {
            if ref.ref == making { throw AppMisuse("its code reads \(ref), the model it makes; use the model your code made") }
            guard ref.ref.index < refs.count, let model = refs[ref.ref.index] else { throw AppMisuse("its code reads \(ref), which names no model") }
            guard let typed = model as? Model else { throw AppMisuse("its code reads \(ref) as a \(Model.self), but it is a \(type(of: model))") }
            return typed
        }
    }

    /// The context `ref` names.
    public subscript(context: ContextRef) -> ModelContext { contexts[context.index] }
}

extension SchemaSystem {
    /// What the app action whose description noted `mentions` observes after its code ran: `outcome`, then each
    /// part read from the store's models as the specification reads its own (a read that would trap is written
    /// `unreadable`, never made), then the saved rows when the description saves.
    func appObservation(outcome: String, mentions: [AppMention], rows: Bool) -> AppObservation {
        let readsDetached = container.configuration.behavior.readAfterSavedDelete == .readable
        var parts: [AppObservation.Part] = []
        for mention in mentions {
            guard mention.ref.index < refs.count, let model = refs[mention.ref.index] else { continue }
            // A model the app's code made and left outside every context has no schema yet: its properties hold
            // what it has.
            let held = model.heldInProperties(laidOutBy: container.schema)
            let entity = held?.entity ?? model.entity
            let label = mention.label(attribute: { entity.attributes[$0].name }, relationship: { entity.relationships[$0].name })
            let readable = model.lifecycle != .invalidated && (readsDetached || model.lifecycle != .detached)
            switch mention {
            case .state:
                parts.append(.init(label, AppObservation.state(context: contextIndex(model), lifecycle: model.lifecycle.rawValue,
                                                                                id: Self.kind(model.persistentModelID), deleted: model.isDeleted)))
            case let .relationship(_, r):
                parts.append(.init(label, readable ? "[" + (held?.links[r] ?? model.related(r)).map(name).sorted().map(\.description).joined(separator: ", ") + "]"
                                                                    : AppObservation.unreadable))
            case let .attribute(_, a):
                parts.append(.init(label, readable ? Self.spec(held?.values[a] ?? model.value(at: a)).description : AppObservation.unreadable))
            }
        }
        return AppObservation(outcome: outcome, parts: parts, rows: rows ? canonicalRows() : nil)
    }
}
