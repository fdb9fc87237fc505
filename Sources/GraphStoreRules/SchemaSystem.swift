#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The system under test for one case of a schema: a container (traps recorded) over the schema, two contexts,
/// and the models and identifiers the steps made. An app action's code sees it as `AppModels`.
public struct SchemaSystem {
    package internal(set) var container: ModelContainer
    package internal(set) var contexts: [ModelContext]
    /// The models the steps made or looked up, by reference (`refs[0]` is `v1`).
    package internal(set) var refs: [PersistentModel?] = []
    var held: [PersistentIdentifier?] = []
    /// The specification's view of the schema: its value pools say what a create or set step stores.
    let schema: GraphSchema
    /// Makes the model of a create step (an app's initializer), nil for `Schema.newModel`.
    let makeModel: (@Sendable (_ entity: Int, _ value: SpecValue?) -> PersistentModel)?
    /// The SQLite store file of an on-disk case (removed at tear-down), nil in memory.
    let storeFile: ScratchStoreFile?
    /// The empty store image the case's SQLite store was made from (its layout serves G26's damaged copies).
    package let storeImage: EmptyStoreImage?
    /// Where the case's store file and G26's damaged copies go.
    let stores: ScratchStores
    /// The containers of earlier launches: their models raise traps there (G22).
    var retired: [ModelContainer] = []
    /// G27: per entity, the highest permanent number saved so far (the registered models' after each successful
    /// save, across launches).
    var highestSaved: [Int]
    /// G21: the store's CloudKit check of the container's schema, and the specification's derivation from it. Read
    /// through a class that holds the system (`GraphSystem.store`), this pair is loaded alone, where a computed
    /// property (`cloudKitAgrees`) first copies the whole system.
    package let cloudKit: (found: [String], predicted: [String])

    /// Throws the store's `StoreError`, or a `HarnessFault` when the harness cannot write the store file's folder.
    package init(schema: GraphSchema, store: Schema, parameters: StoreParameters, configuration: ModelConfiguration,
                 saveTransactions: SaveTransactions = .single, image: EmptyStoreImage? = nil, stores: ScratchStores,
                 makeModel: (@Sendable (Int, SpecValue?) -> PersistentModel)? = nil,
                 cloudKit: (found: [String], predicted: [String])? = nil) throws {
        self.schema = schema
        self.stores = stores
        self.makeModel = makeModel
        self.storeImage = parameters.backend == .sqlite ? image : nil
        (container, storeFile) = try Self.openContainer(store, configuration: configuration, backend: parameters.backend, image: storeImage, stores: stores)
        container.saveTransactions = saveTransactions
        contexts = [ModelContext(container), ModelContext(container)]
        highestSaved = store.entities.map { _ in 0 }
        self.cloudKit = cloudKit ?? (store.cloudKitViolations().map(\.description), GraphSchema(store).cloudKitViolations)
    }

    /// G21: the store's CloudKit check of the container's schema, and what the specification derives from it.
    package var cloudKitFound: [String] { cloudKit.found }
    package var cloudKitPredicted: [String] { cloudKit.predicted }
    /// Whether the store's CloudKit check lists what the specification derives from the container's schema (G21).
    package var cloudKitAgrees: Bool { cloudKit.found == cloudKit.predicted }

    /// The case's container on its backend. Throws the store's `StoreError`, or a `HarnessFault` when the store
    /// could not create its file because the harness cannot write there.
    static func openContainer(_ schema: Schema, configuration: ModelConfiguration, backend: StoreBackend, image: EmptyStoreImage?,
                              stores: ScratchStores) throws -> (ModelContainer, ScratchStoreFile?) {
        guard backend == .sqlite else { return (ModelContainer(schema: schema, configuration: configuration), nil) }
        let made = stores.file(prefix: "graphfuzz-graph")
        do {
            return (try ModelContainer(schema: schema, configuration: configuration, path: made.path, image: image), made)
        } catch {
            made.remove()
            if let cause = made.unwritable() {
                throw HarnessFault("cannot write the case's scratch store file \(made.path) (the store reported \(error))", underlying: cause)
            }
            if error.isMachineFailure { throw HarnessFault("the machine failed the case's new scratch store file: \(error)") }
            throw error
        }
    }

    /// The model reference `ref` names.
    package func model(_ ref: Ref) -> PersistentModel { refs[ref.index]! }

    /// Binds the next reference to `model` (a model your action made or found; nil for none).
    package mutating func bind(_ model: PersistentModel?) { refs.append(model) }

    /// Runs `body` and observes what it returns, or the first trap the store raised meanwhile (`.trap`), as the
    /// specification names traps.
    package mutating func observe<O>(_ trap: (String) -> O, _ body: (inout SchemaSystem) throws -> O) rethrows -> O {
        let before = trapCount
        let observation = try body(&self)
        return trapCount > before ? trap(trapName(at: before)) : observation
    }

    /// The specification's name of a store trap (`TrapName`); a trap the specification has no name for keeps the
    /// store's.
    static func trapName(_ code: StoreTrap.Code) -> String {
        switch code {
        case .duplicateRegistration: return TrapName.duplicateRegistration.rawValue
        case .insertIntoSecondContext: return TrapName.insertIntoSecondContext.rawValue
        case .crossContextRelationship: return TrapName.crossContextRelationship.rawValue
        case .invalidatedBackingData: return TrapName.invalidatedBackingData.rawValue
        case .mutatingDeletedModel: return TrapName.mutatingDeletedModel.rawValue
        case .temporaryIdentifierRemap: return TrapName.temporaryIdentifierRemap.rawValue
        }
    }

    /// Runs a store operation and returns what it observed: the first trap it raised, or its result. `save` is
    /// the save a `save` or `killedSave` step makes (the context's, or an app's). Throws a `HarnessFault` when the
    /// harness's own I/O of the step failed (a relaunch's damaged copies, G26).
    package mutating func run(_ command: GraphCommand,
                              save: (inout SchemaSystem, Int) throws(HarnessFault) -> GraphObservation) throws(HarnessFault) -> GraphObservation {
        do {
            return try observe({ .trap($0) }) { system in try system.perform(command, save: save) }
        } catch let fault as HarnessFault {
            throw fault
        } catch {
            preconditionFailure("a store operation threw \(error)")
        }
    }

    private mutating func perform(_ command: GraphCommand,
                                  save: (inout SchemaSystem, Int) throws(HarnessFault) -> GraphObservation) throws(HarnessFault) -> GraphObservation {
        switch command {
        case let .create(_, entity, variant, context, unique):
            let value = schema.createPools[entity].map { ($0.attribute, $0.values[variant]) }
            let model = makeModel?(entity, value?.1) ?? container.schema.newModel(container.schema.entities[entity].name)!
            // An app's initializer leaves the values in the model's properties: the model takes the container's schema.
            container.schema.adopt(model)
            if makeModel == nil, let (attribute, value) = value { model.setValue(Self.store(value), at: attribute) }
            for pool in schema.uniquePools[entity] { model.setValue(Self.store(pool.values[unique]), at: pool.attribute) }
            if context >= 0 { contexts[context].insert(model) }
            refs.append(model)
            return .identifier(Self.kind(model.persistentModelID))
        case let .insert(ref, context):
            let model = model(ref), before = contexts[context].insertedModelsArray.count
            contexts[context].insert(model)
            return .inserted(Self.kind(model.persistentModelID), models: contexts[context].insertedModelsArray.count - before)
        case let .relate(ref, r, target):
            model(ref).relate(r, to: model(target))
            return .related(inverse: Self.inverseCount(model(ref), r, model(target)))
        case let .unrelate(ref, r, target):
            model(ref).unrelate(r, from: model(target))
            return .related(inverse: Self.inverseCount(model(ref), r, model(target)))
        case let .set(ref, slot, variant):
            let model = model(ref)
            let pool = schema.settable[model.entityIndex(in: container.schema)][slot]
            model.setValue(Self.store(pool.values[variant]), at: pool.attribute)
            return .none
        case let .delete(ref):
            let model = model(ref)
            guard let context = model.modelContext else { return .count(-1) }
            context.delete(model)
            return .deleted(pending: context.deletedModelsArray.count, referencedBy: Self.referencedBy(model, readsDetached: container.configuration.behavior.readAfterSavedDelete == .readable))
        case let .save(c):
            return try save(&self, c)
        case let .rollback(c):
            contexts[c].rollback()
            return .none
        case let .holdID(ref):
            let id = model(ref).persistentModelID
            held.append(id)
            return .identifier(Self.kind(id))
        case let .lookup(_, h, c, method):
            let id = held[h]!
            let found: PersistentModel?
            switch method {
            case .model: found = contexts[c].model(for: id)
            case .registered: found = contexts[c].registeredModel(for: id)
            case .fetch: found = contexts[c].fetch(.identifier(id)).first
            }
            guard let found else {
                refs.append(nil)
                return .notFound
            }
            let same = refs.firstIndex { $0 === found } ?? -1
            refs.append(found)
            return .found(name(found), sameAs: same, context: contextIndex(found), lifecycle: found.lifecycle.rawValue)
        case let .read(ref, p):
            let model = model(ref)
            let attributes = model.entity.attributes.count
            if p < attributes { return .value(Self.spec(model.value(at: p))) }
            return .objects(model.related(p - attributes).map { name($0) }.sorted())
        case let .state(ref):
            let model = model(ref)
            return .state(context: contextIndex(model), lifecycle: model.lifecycle.rawValue, deleted: model.isDeleted, changes: model.hasChanges)
        case let .fetch(c, entity, attribute, value):
            let entitySchema = container.schema.entities[entity]
            let found = contexts[c].fetch(.attribute(entity: entitySchema.name, attribute: entitySchema.attributes[attribute].name,
                                                     equals: Self.store(value)))
            return .objects(found.map { name($0) }.sorted())
        case .relaunch:
            if let failure = try relaunch() { return failure }
            return .relaunched(count: container.rows.count, try savedState(damaged: true))
        case let .killedSave(c, back):
            container.writeInterruption = WriteInterruption(beforeEnd: back)
            let observation = try save(&self, c)
            if case .trap = observation { return observation }
            if let failure = try relaunch() { return failure }
            return observation.with(try savedState(damaged: true))
        }
    }

    /// The context's save (`ModelContext.save()`), observed with the saved state.
    package static func contextSave(_ system: inout SchemaSystem, _ c: Int) throws(HarnessFault) -> GraphObservation {
        let context = system.contexts[c]
        return try system.saving { () throws(SaveError) -> [String]? in
            try context.save()
            return nil
        }
    }

    /// What a save made by `body` observes: `.saved` with the saved state, `.saveFailed` with the error's code and
    /// issues and the state, or `.refused` with the reasons `body` returns (an app's save that refused before the
    /// store saved); after a relaunch, a successful save's state says which numbers it reused (G27). A store the
    /// machine failed (`StoreError.isMachineFailure`) is a `HarnessFault`, never the store's.
    package mutating func saving(_ body: () throws(SaveError) -> [String]?) throws(HarnessFault) -> GraphObservation {
        let temporary = refs.indices.filter { refs[$0]?.persistentModelID?.isTemporary == true }
        // G28: an insert that takes a saved row over keeps that row's number, which is no reuse.
        let savedBefore = container.schema.hasUniqueAttributes ? Set(container.rows.keys) : []
        let refused: [String]?
        do {
            refused = try body()
        } catch {
            return try observeSave(.failure(error))
        }
        if refused != nil { return try observeSave(.success(refused)) }
        let reused = noteSavedNumbers(numbered: temporary.filter { refs[$0]?.persistentModelID.map { !savedBefore.contains($0) } ?? true })
        return .saved(try savedState(reusedNumbers: container.launch > 1 ? reused : nil))
    }

    /// What a save that has run observes, `outcome` being its error or the reasons an app's save refused for (nil:
    /// saved): as `saving` observes it, without the numbers a successful save reused (G27), which need the state just
    /// before the save (a save made inside an actor, awaited, is observed this way).
    package func observeSave(_ outcome: Result<[String]?, SaveError>) throws(HarnessFault) -> GraphObservation {
        switch outcome {
        case .failure(let error):
            if let store = error.storeFailure, store.isMachineFailure { throw HarnessFault("the machine failed the store's save: \(store)") }
            return .saveFailed(code: error.code, issues: error.issues.map {
                IssueName(code: $0.code, entity: $0.entity, key: $0.key, object: $0.object.map { idName($0) })
            }.sorted(), try savedState())
        case .success(let refused?): return .refused(refused, try savedState())
        case .success(nil): return .saved(try savedState())
        }
    }

    /// The specification's name of the `index`-th trap the store raised (of `trapCount`).
    package func trapName(at index: Int) -> String { Self.trapName(trap(at: index).code) }

    /// G27: the models at `numbered` (temporary before the save) that the save numbered at or below a number of
    /// their entity saved before, described; then the highest numbers per entity are updated.
    private mutating func noteSavedNumbers(numbered: [Int]) -> [String] {
        let before = highestSaved
        var reused: [String] = []
        for ref in numbered {
            guard let model = refs[ref], let id = model.persistentModelID, !id.isTemporary else { continue }
            let highest = before[model.entityIndex(in: container.schema)]
            if id.number <= highest { reused.append("v\(ref + 1) \(id) (saved before up to p\(highest))") }
        }
        for case let model? in refs where model.lifecycle == .registered {
            guard let id = model.persistentModelID, !id.isTemporary else { continue }
            let entity = model.entityIndex(in: container.schema)
            highestSaved[entity] = max(highestSaved[entity], id.number)
        }
        return reused
    }
}

extension PersistentModel {
    /// The index of the model's entity in `schema`.
    func entityIndex(in schema: Schema) -> Int { schema.entityIndex(named: entity.name) ?? 0 }
}
