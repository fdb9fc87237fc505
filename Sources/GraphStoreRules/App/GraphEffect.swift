import GraphFuzzEngine
import GraphSpec
import GraphStore

/// What an app action does to the object graph, said once in the app's terms: which model it creates, inserts,
/// relates, sets, deletes, which context it saves or rolls back. The specification applies each operation by the
/// rules (G1–G28): it predicts the traps, identifiers, contexts, relationships and saved rows the action's code must
/// observe. The first trap ends the description (the app would have stopped).
///
/// A mistake in the description — a reference to no model, a key path that is no declared property, a relationship
/// to a model of the wrong class, the context of a model in none — is reported naming the action, and the check stops.
public struct GraphEffect {
    /// The specification's state, changed operation by operation.
    var state: GraphModel
    let schema: Schema
    /// The model the description creates, if any (one per action), with its entity.
    private(set) var created: (ref: Ref, entity: Int)?
    /// The trap the description ran into, if any.
    private(set) var trap: SpecTrap?
    /// The last save's failure code, if the last save failed.
    private(set) var failedSave: Int?
    /// The first mistake in the description, if any.
    private(set) var misuse: String?
    /// What the action's observation holds, in the order the description first names it.
    private(set) var mentions: [AppMention] = []
    /// Whether the description saves (the observation then holds the saved rows).
    private(set) var saves = false

    init(state: GraphModel, schema: Schema) {
        self.state = state
        self.schema = schema
    }

    // MARK: Operations

    /// A new model of `type` with its class's declared initial values (never inserted: no context, no identifier, G1).
    @discardableResult
    public mutating func create<Model: PersistentModel>(_ type: Model.Type) -> ModelRef<Model> {
        createObject(type).ref
    }

    /// A new model with the values `model` holds: pass the model your code's initializer makes (`Task(title: t)`),
    /// without relationships (relate it with `relate`).
    @discardableResult
    public mutating func create<Model: PersistentModel>(_ model: Model) -> ModelRef<Model> {
        let (ref, object) = createObject(Model.self)
        guard let object else { return ref }
        schema.adopt(model)
        defer { model.breakReferenceCycles() }
        if model.entity.relationships.indices.contains(where: { !model.related($0).isEmpty }) {
            fail("creates a \(Model.self) whose initializer relates it; create it without relationships and relate it with `graph.relate`")
            return ref
        }
        for a in model.entity.attributes.indices { _ = state.setValue(object, a, SchemaSystem.spec(model.value(at: a))) }
        return ref
    }

    /// Inserts `model` into `context` (G2, G4; a registered model traps, G5).
    public mutating func insert<Model: PersistentModel>(_ model: ModelRef<Model>, into context: ContextRef) {
        guard let o = object(model) else { return }
        if let trap = state.insert(o, context.index) { stop(trap) }
    }

    /// The context `model` is in. A model in none is a mistake of the description: draw it `.inContext`.
    public mutating func context<Model: PersistentModel>(of model: ModelRef<Model>) -> ContextRef {
        guard let o = object(model) else { return .main }
        guard state.objects[o].context >= 0 else {
            fail("asks for the context of \(model), which is in none (\(state.objects[o].lifecycle.rawValue)); draw it with `.inContext`")
            return .main
        }
        return ContextRef(state.objects[o].context)
    }

    /// Relates `target` through `relationship` of `model`: sets a to-one, adds to a to-many, keeping the inverse
    /// (G7); models of two contexts trap, a new model related to a registered one traps or is inserted (G6).
    public mutating func relate<Model: PersistentModel, Value: RelationshipValue, Target: PersistentModel>(
        _ model: ModelRef<Model>, _ relationship: KeyPath<Model, Value>, to target: ModelRef<Target>) {
        guard let (o, r, t) = pair(model, relationship: relationship, target) else { return }
        if let trap = state.relate(o, r, t) { stop(trap) }
    }

    /// `relate` by the relationship's name.
    public mutating func relate<Model: PersistentModel, Target: PersistentModel>(_ model: ModelRef<Model>, _ relationship: String,
                                                                                to target: ModelRef<Target>) {
        guard let (o, r, t) = pair(model, named: relationship, target) else { return }
        if let trap = state.relate(o, r, t) { stop(trap) }
    }

    /// Removes `target` from `relationship` of `model`, and the inverse (G7).
    public mutating func unrelate<Model: PersistentModel, Value: RelationshipValue, Target: PersistentModel>(
        _ model: ModelRef<Model>, _ relationship: KeyPath<Model, Value>, from target: ModelRef<Target>) {
        guard let (o, r, t) = pair(model, relationship: relationship, target) else { return }
        if let trap = state.unrelate(o, r, t) { stop(trap) }
    }

    /// Sets `attribute` of `model` to `value` (G20; a model whose deletion was saved or whose row is gone traps).
    public mutating func set<Model: PersistentModel, Value: AttributeStorable>(_ model: ModelRef<Model>, _ attribute: KeyPath<Model, Value>,
                                                                              to value: Value) {
        guard let o = object(model), let a = property(attribute, of: Model.self, relationship: false) else { return }
        setAttribute(model.ref, o, a, value.attributeValue)
    }

    /// `set` by the attribute's name.
    public mutating func set<Model: PersistentModel, Value: AttributeStorable>(_ model: ModelRef<Model>, _ attribute: String, to value: Value) {
        guard let o = object(model) else { return }
        guard let a = state.entities[state.objects[o].entity].attributes.firstIndex(where: { $0.name == attribute }) else {
            fail("sets \(attribute), which is no attribute of \(Model.self)")
            return
        }
        setAttribute(model.ref, o, a, value.attributeValue)
    }

    /// Deletes `model` in its context: it is only marked; delete rules run at save (G8, G9).
    public mutating func delete<Model: PersistentModel>(_ model: ModelRef<Model>) {
        guard let o = object(model) else { return }
        if let trap = state.delete(o) { stop(trap) }
    }

    /// Saves `context` (G9–G12, G19, G28). A save that fails is one whose code must throw its `SaveError`.
    public mutating func save(_ context: ContextRef) {
        guard misuse == nil, trap == nil else { return }
        saves = true
        let prediction = state.storeSave(context.index)
        switch prediction.value {
        case .trap(let name): stop(SpecTrap(TrapName(rawValue: name) ?? .invalidatedBackingData, prediction.rule))
        case .saveFailed(let code, _, _): failedSave = code
        default: failedSave = nil
        }
    }

    /// Rolls `context` back (G13).
    public mutating func rollback(_ context: ContextRef) {
        guard misuse == nil, trap == nil else { return }
        state.rollback(context.index)
    }

    // MARK: Resolution

    /// The object `model` names, noted for the observation; nil after a trap or a mistake.
    private mutating func object<Model: PersistentModel>(_ model: ModelRef<Model>) -> Int? {
        guard misuse == nil, trap == nil else { return nil }
        guard let o = state.object(model.ref.index) else {
            fail("names \(model), which names no model (\(model.ref.index < state.refs.count ? "a lookup that found none" : "no step made it yet"))")
            return nil
        }
        guard let entity = schema.entityIndex(of: Model.self), state.objects[o].entity == entity else {
            fail("names \(model) as a \(Model.self), but it is a \(state.entities[state.objects[o].entity].name)")
            return nil
        }
        note(.state(model.ref))
        return o
    }

    /// A new object of `type`'s entity bound to the step's result, and its index (nil after a trap or a mistake).
    private mutating func createObject<Model: PersistentModel>(_ type: Model.Type) -> (ref: ModelRef<Model>, object: Int?) {
        let ref = Ref(state.refs.count)
        guard misuse == nil, trap == nil else { return (ModelRef(ref), nil) }
        guard created == nil else {
            fail("creates a second model; an action makes at most one (split it into two actions)")
            return (ModelRef(ref), nil)
        }
        guard let entity = schema.entityIndex(of: type) else {
            fail("creates a \(type), which is not a model class of the schema (\(schema.entities.map(\.name).joined(separator: ", ")))")
            return (ModelRef(ref), nil)
        }
        let o = state.newObject(entity)
        state.bind(ref.index, o)
        created = (ref, entity)
        note(.state(ref))
        for a in state.entities[entity].attributes.indices { note(.attribute(ref, a)) }
        return (ModelRef(ref), o)
    }

    /// The objects and relationship index of a relate or unrelate, each checked.
    private mutating func pair<Model: PersistentModel, Value: RelationshipValue, Target: PersistentModel>(
        _ model: ModelRef<Model>, relationship: KeyPath<Model, Value>, _ target: ModelRef<Target>) -> (Int, Int, Int)? {
        guard let o = object(model), let t = object(target), let r = property(relationship, of: Model.self, relationship: true) else { return nil }
        return checkedPair(model.ref, o, r, target, t)
    }

    private mutating func pair<Model: PersistentModel, Target: PersistentModel>(_ model: ModelRef<Model>, named name: String,
                                                                              _ target: ModelRef<Target>) -> (Int, Int, Int)? {
        guard let o = object(model), let t = object(target) else { return nil }
        guard let r = state.entities[state.objects[o].entity].relationships.firstIndex(where: { $0.name == name }) else {
            fail("relates through \(name), which is no relationship of \(Model.self)")
            return nil
        }
        return checkedPair(model.ref, o, r, target, t)
    }

    private mutating func checkedPair<Target: PersistentModel>(_ ref: Ref, _ o: Int, _ r: Int, _ target: ModelRef<Target>, _ t: Int) -> (Int, Int, Int)? {
        let relationship = state.entities[state.objects[o].entity].relationships[r]
        guard relationship.destination == state.objects[t].entity else {
            fail("relates \(target) (a \(Target.self)) through \(relationship.name), which holds \(state.entities[relationship.destination].name)s")
            return nil
        }
        note(.relationship(ref, r))
        if let inverse = relationship.inverse { note(.relationship(target.ref, inverse)) }
        return (o, r, t)
    }

    /// The index of the declared property `keyPath` reads on `Model`.
    private mutating func property(_ keyPath: AnyKeyPath, of type: PersistentModel.Type, relationship: Bool) -> Int? {
        guard let property = schema.property(keyPath, of: type), property.isRelationship == relationship else {
            fail("names \(keyPath), which is no \(relationship ? "@Relationship" : "@Attribute") of \(type)")
            return nil
        }
        return property.index
    }

    private mutating func setAttribute(_ ref: Ref, _ o: Int, _ a: Int, _ value: AttributeValue) {
        note(.attribute(ref, a))
        if let trap = state.setValue(o, a, SchemaSystem.spec(value)) { stop(trap) }
    }

    private mutating func note(_ mention: AppMention) {
        if !mentions.contains(mention) { mentions.append(mention) }
    }

    private mutating func stop(_ trap: SpecTrap) {
        self.trap = trap
        state.crash()
    }

    private mutating func fail(_ message: String) {
        if misuse == nil { misuse = "its description " + message }
    }

    // MARK: The prediction

    /// What the action's code must observe, under `rule` (a trap under the rule that predicts it).
    func prediction(rule: String) -> Prediction<AppObservation> {
        if let trap { return Prediction(AppObservation(trap: trap.name.rawValue), rule: trap.rule) }
        var parts: [AppObservation.Part] = []
        for mention in mentions {
            guard let o = state.object(mention.ref.index) else { continue }
            switch mention {
            case .state:
                let object = state.objects[o]
                parts.append(.init(mention.label(state.entities[object.entity]),
                                   AppObservation.state(context: object.context, lifecycle: object.lifecycle.rawValue,
                                                        id: state.kind(object.id), deleted: object.deleted)))
            case let .relationship(_, r):
                let value = state.readTrap(o) != nil ? AppObservation.unreadable : "[" + state.objects[o].links[r].map(state.name).sorted().map(\.description).joined(separator: ", ") + "]"
                parts.append(.init(mention.label(state.entities[state.objects[o].entity]), value))
            case let .attribute(_, a):
                let value = state.readTrap(o) != nil ? AppObservation.unreadable : state.objects[o].values[a].description
                parts.append(.init(mention.label(state.entities[state.objects[o].entity]), value))
            }
        }
        let outcome = failedSave.map(AppObservation.saveFailed) ?? AppObservation.done
        return Prediction(AppObservation(outcome: outcome, parts: parts, rows: saves ? state.canonicalRows() : nil), rule: rule)
    }
}

/// Something an app action's observation holds: a model's state, one of its relationships or attributes.
enum AppMention: Equatable, Sendable {
    case state(Ref)
    case relationship(Ref, Int)
    case attribute(Ref, Int)

    var ref: Ref {
        switch self {
        case .state(let ref), .relationship(let ref, _), .attribute(let ref, _): return ref
        }
    }

    /// The part's label: `v3`, `v3.groups`, `v3.title` (the names of the model's entity's properties given).
    func label(attribute: (Int) -> String, relationship: (Int) -> String) -> String {
        switch self {
        case .state(let ref): return ref.description
        case let .relationship(ref, r): return "\(ref).\(relationship(r))"
        case let .attribute(ref, a): return "\(ref).\(attribute(a))"
        }
    }

    /// The part's label for a model of the specification's `entity`.
    func label(_ entity: SpecEntity) -> String { label(attribute: { entity.attributes[$0].name }, relationship: { entity.relationships[$0].name }) }
}
