import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The system under test for one case: a recording container with the BooksTracker schema, two contexts,
/// a library per context, and the models the references name.
public struct GraphSystem {
    public internal(set) var container: ModelContainer
    public internal(set) var contexts: [ModelContext]
    var libraries: [Library]
    let policy: LibraryPolicy
    /// The SQLite store file of a `.sqlite` case (removed at tear-down), nil in memory.
    let storeFile: ScratchStoreFile?
    /// The empty store image the case's SQLite store was made from (its layout serves G26's damaged copies).
    let storeImage: EmptyStoreImage?
    /// Where the case's store file and G26's damaged copies go.
    let stores: ScratchStores
    /// The containers of earlier launches: their models raise traps there (G22).
    var retired: [ModelContainer] = []
    var refs: [PersistentModel?] = []
    var held: [PersistentIdentifier?] = []
    /// G26: what opening each `StoreDamage` of the file observed at this step's relaunch on the SQLite backend;
    /// nil when the step did not relaunch there (a killed save whose save trapped ends the app before the kill,
    /// with no relaunch), so the invariant names the path the system took. (When the harness cannot make the
    /// copies, the step ends in a `HarnessFault`: nothing here is judged.)
    var damagedRefusals: [String]?
    /// G27: per entity, the highest permanent number saved so far, and as it was before the last save.
    var highestSaved = BooksEntities.names.map { _ in 0 }, highestBeforeLastSave = BooksEntities.names.map { _ in 0 }
    /// The CloudKit checks this case compares after every save (B7, G21), taken at the first such save.
    let cloudKit: CloudKitFindings
    /// Whether the CloudKit check of the container's schema lists what the specification derives from it (G21).
    /// Both lists are immutable for the case (see `CloudKitFindings`), so comparing them once gives the answer of
    /// every save's comparison.
    let containerViolationsAgree: Bool

    /// Throws the store's `StoreError`, or a `HarnessFault` when the harness cannot write the store file's folder.
    /// - Parameter stores: where the store files go (default: the system's scratch location).
    package init(config: GraphConfig, faults: GraphFaults = .shipped, stores: ScratchStores = ScratchStores()) throws {
        let store = ModelConfiguration(trapPolicy: .record, behavior: faults.behavior(config))
        self.stores = stores
        (container, storeFile) = try Self.openContainer(config, store: store, faults: faults, stores: stores)
        storeImage = Self.storeImage(config, stores)
        contexts = [ModelContext(container), ModelContext(container)]
        policy = faults.policy(config)
        libraries = contexts.map { [policy] in Library(context: $0, policy: policy) }
        cloudKit = CloudKitFindings.of(config.schema == .local ? .local : .cloudKit, faults.editionEntriesRule)
        containerViolationsAgree = cloudKit.predictedContainerViolations == cloudKit.containerViolations
    }

    /// Runs `command` and returns what it observed: the first trap it raised, or its result. Throws a
    /// `HarnessFault` when the harness's own I/O of the step failed (a relaunch's damaged copies, G26).
    package mutating func run(_ command: GraphCommand) throws(HarnessFault) -> GraphObservation {
        damagedRefusals = nil
        let before = trapCount
        let observation = try perform(command)
        if trapCount > before { return .trap(trap(at: before).code.rawValue) }
        if case .save = command, observation == .saved { noteSavedNumbers() }
        return observation
    }

    /// G27: the highest permanent number per entity among the models registered with one after a successful
    /// save (the rows it wrote or read), kept across relaunches; and as it was before that save.
    private mutating func noteSavedNumbers() {
        highestBeforeLastSave = highestSaved
        for case let model? in refs where model.lifecycle == .registered {
            guard let id = model.persistentModelID, !id.isTemporary else { continue }
            let entity = Self.entityIndex(model)
            highestSaved[entity] = max(highestSaved[entity], id.number)
        }
    }

    /// G27: the models at `refs` (the rows the last save numbered) whose permanent number is not above every
    /// number of their entity saved before that save, described.
    func reusedNumbers(_ refs: [Int]) -> [String] {
        refs.compactMap { ref in
            guard ref >= 0, ref < self.refs.count, let model = self.refs[ref], let id = model.persistentModelID, !id.isTemporary else { return nil }
            let highest = highestBeforeLastSave[Self.entityIndex(model)]
            return id.number > highest ? nil : "v\(ref + 1) \(id) (saved before up to p\(highest))"
        }
    }

    private func model(_ ref: Ref) -> PersistentModel { refs[ref.index]! }

    private mutating func perform(_ command: GraphCommand) throws(HarnessFault) -> GraphObservation {
        switch command {
        case let .create(_, entity, variant, context):
            let model = Self.make(entity, variant)
            if context >= 0 { contexts[context].insert(model) }
            refs.append(model)
            return .identifier(Self.kind(model.persistentModelID))
        case let .insert(ref, context):
            let model = model(ref)
            contexts[context].insert(model)
            return .identifier(Self.kind(model.persistentModelID))
        case let .relate(ref, r, target):
            model(ref).relate(r, to: model(target))
            return .related(inverse: Self.inverseCount(model(ref), r, model(target)))
        case let .unrelate(ref, r, target):
            model(ref).unrelate(r, from: model(target))
            return .related(inverse: Self.inverseCount(model(ref), r, model(target)))
        case let .set(ref, slot, variant):
            let model = model(ref)
            let settable = BooksEntities.settable(Self.entityIndex(model))[slot]
            model.setValue(Self.store(settable.pool[variant]), at: settable.attribute)
            return .none
        case let .delete(ref):
            let model = model(ref)
            guard let context = model.modelContext else { return .count(-1) }
            context.delete(model)
            return .deleted(pending: context.deletedModelsArray.count, referencedBy: Self.referencedBy(model))
        case let .save(c):
            do throws(LibrarySaveError) {
                try libraries[c].save()
                return .saved
            } catch {
                switch error {
                case .refused(let issues): return .refused(issues.map(\.rawValue))
                case .store(let failure):
                    if let store = failure.storeFailure, store.isMachineFailure {
                        throw HarnessFault("the machine failed the store's save: \(store)")
                    }
                    return .saveFailed(code: failure.code, issues: failure.issues.map {
                        IssueName(code: $0.code, entity: $0.entity, key: $0.key, object: $0.object.map { idName($0) })
                    }.sorted())
                }
            }
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
            case .fetch: found = contexts[c].fetch(FetchDescriptor(.identifier(id))).first
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
            return .state(context: contextIndex(model), lifecycle: model.lifecycle.rawValue, deleted: model.isDeleted,
                          changes: model.hasChanges)
        case let .fetchTitle(c, v):
            let title = Self.store(BooksEntities.titles[v])
            let found = contexts[c].fetch(FetchDescriptor(.attribute(entity: "Work", attribute: "title", equals: title)))
            return .objects(found.map { name($0) }.sorted())
        case let .wishlist(_, w, c):
            guard let work = model(w) as? Work else { return .trap("typeMismatch") }
            let entry = libraries[c].createWishlistEntry(for: work)
            refs.append(entry)
            return .entry(Self.kind(entry.persistentModelID), inWork: work.userLibraryEntries.contains { $0 === entry }, inEdition: false)
        case let .owned(_, w, ed, c):
            guard let work = model(w) as? Work, let edition = model(ed) as? Edition else { return .trap("typeMismatch") }
            let entry = libraries[c].createOwnedEntry(for: work, edition: edition)
            refs.append(entry)
            return .entry(Self.kind(entry.persistentModelID), inWork: work.userLibraryEntries.contains { $0 === entry },
                          inEdition: edition.userLibraryEntries.contains { $0 === entry })
        case let .acquire(e, ed):
            guard let entry = model(e) as? UserLibraryEntry, let edition = model(ed) as? Edition else { return .trap("typeMismatch") }
            libraries[0].acquire(entry, edition: edition)
            return .acquired(status: .string(entry.readingStatus.rawValue), inEdition: edition.userLibraryEntries.contains { $0 === entry })
        case let .userEntry(w):
            guard let work = model(w) as? Work else { return .trap("typeMismatch") }
            return .object(libraries[0].userEntry(of: work).map { name($0) })
        case .relaunch, .killedSave:
            return try performLaunch(command)
        case let .validate(e):
            guard let entry = model(e) as? UserLibraryEntry else { return .trap("typeMismatch") }
            do throws(EntryValidationError) {
                try entry.validate()
                return .validation(nil)
            } catch {
                return .validation(error.rawValue)
            }
        }
    }

    // MARK: Naming, as the specification names models

    func name(_ model: PersistentModel) -> ObjectName {
        if let id = model.persistentModelID, !id.isTemporary { return idName(id) }
        return ObjectName(row: false, ref: refs.firstIndex { $0 === model } ?? -1)
    }

    /// The first reference whose model has identifier `id`.
    func idName(_ id: PersistentIdentifier) -> ObjectName {
        let ref = refs.firstIndex { $0?.persistentModelID == id } ?? -1
        return ObjectName(row: !id.isTemporary, ref: ref)
    }

    func contextIndex(_ model: PersistentModel) -> Int {
        guard let context = model.modelContext else { return -1 }
        return contexts.firstIndex { $0 === context } ?? -1
    }

    /// The container's rows named as the specification names them, sorted.
    func canonicalRows() -> [CanonicalRow] {
        let naming = RowNaming(refs: refs, entities: container.schema.entities, rows: container.rows.keys)
        return container.rows.map { id, row in
            CanonicalRow(name: naming.name(id), entity: row.entity, values: row.values.map(Self.spec),
                         links: row.links.map { CanonicalRow.sortedNames($0.map(naming.name)) })
        }.sorted()
    }

    /// Whether `canonicalRows() == model.canonicalRows()`, decided without building either side's canonical rows
    /// (no arrays per row, no sort). Both lists are sorted by (name, entity); when every saved row of the
    /// specification has a name (a first reference), those keys are distinct (a reference names one object, which
    /// has one identifier), so the sorted lists are equal exactly when the counts agree and each container row
    /// matches, by name, a distinct specification row of the same entity, values and relationship contents
    /// (compared as multisets, which is what equality of the sorted lists of names is). An unnamed row on either
    /// side returns false, and the caller then takes the full comparison.
    func rowsMatch(_ model: GraphModel) -> Bool {
        let rows = container.rows
        var specRows = 0
        for row in model.rows where row != nil { specRows += 1 }
        guard rows.count == specRows else { return false }
        if rows.isEmpty { return true }
        let specNames = model.savedRowNames()
        // The specification's row named by each reference.
        var rowOfRef = Array(repeating: -1, count: model.refs.count)
        for (number, row) in model.rows.enumerated() where row != nil {
            let r = specNames.firstRef[number]
            guard r >= 0 else { return false }
            rowOfRef[r] = number
        }
        let naming = RowNaming(refs: refs, entities: container.schema.entities, rows: rows.keys)
        var matched = Array(repeating: false, count: model.rows.count)
        for (id, row) in rows {
            let r = naming.name(id).ref
            guard r >= 0, r < rowOfRef.count else { return false }
            let number = rowOfRef[r]
            guard number >= 0, !matched[number], let want = model.rows[number], want.entity == row.entity,
                  want.values.count == row.values.count, want.links.count == row.links.count else { return false }
            matched[number] = true
            for (a, value) in row.values.enumerated() where Self.spec(value) != want.values[a] { return false }
            for (k, ids) in row.links.enumerated() {
                let wanted = want.links[k]
                guard wanted.count == ids.count else { return false }
                if ids.count == 1 {
                    if naming.name(ids[0]) != specNames.name(wanted[0], model) { return false }
                    continue
                }
                // Each name occurs as often on both sides (lists are short; no sorted copies are made).
                for target in wanted {
                    let name = specNames.name(target, model)
                    var expected = 0, found = 0
                    for other in wanted where specNames.name(other, model) == name { expected += 1 }
                    for other in ids where naming.name(other) == name { found += 1 }
                    if expected != found { return false }
                }
            }
        }
        return true
    }

    // MARK: Conversions

    static func make(_ entity: Int, _ variant: Int) -> PersistentModel {
        let value = BooksEntities.createPool(entity).pool[variant]
        switch entity {
        case BooksEntities.work: return Work(title: value.stringText)
        case BooksEntities.edition:
            if case .int(let count) = value { return Edition(pageCount: count) }
            return Edition()
        case BooksEntities.author: return Author(name: value.stringText)
        default: return UserLibraryEntry(readingStatus: ReadingStatus(rawValue: value.stringText) ?? .toRead)
        }
    }

    /// How many models the target's inverse of `source`'s relationship `r` holds (-1 without an inverse).
    static func inverseCount(_ source: PersistentModel, _ r: Int, _ target: PersistentModel) -> Int {
        guard let name = source.entity.relationships[r].inverse, let inverse = target.entity.relationshipIndex(named: name) else { return -1 }
        return target.related(inverse).count
    }

    /// How many of `model`'s related models (with backing data) hold it in the inverse relationship.
    static func referencedBy(_ model: PersistentModel) -> Int {
        var count = 0
        for (r, relationship) in model.entity.relationships.enumerated() {
            guard let name = relationship.inverse else { continue }
            for partner in model.related(r) where partner.lifecycle != .invalidated {
                if let inverse = partner.entity.relationshipIndex(named: name), partner.related(inverse).contains(where: { $0 === model }) {
                    count += 1
                }
            }
        }
        return count
    }

    /// The store schema as the specification describes schemas, for the CloudKit check (G21).
    static func specEntities(_ schema: Schema) -> [SpecEntity] {
        schema.entities.map { entity in
            SpecEntity(name: entity.name, attributes: entity.attributes.map {
                SpecAttribute(name: $0.name, optional: $0.isOptional, defaultValue: spec($0.defaultValue), unique: $0.isUnique)
            }, relationships: entity.relationships.enumerated().map { r, relationship in
                SpecRelationship(name: relationship.name, destination: entity.destinationIndex[r], toMany: relationship.isToMany,
                                 inverse: entity.inverseIndex[r], deleteRule: SpecDeleteRule(rawValue: relationship.deleteRule.rawValue) ?? .noAction,
                                 optional: relationship.isOptional, maxCount: relationship.maxCount)
            })
        }
    }

    static func entityIndex(_ model: PersistentModel) -> Int {
        BooksEntities.names.firstIndex(of: model.entity.name) ?? 0
    }

    static func kind(_ id: PersistentIdentifier?) -> IDKind {
        guard let id else { return .none }
        return id.isTemporary ? .temporary : .permanent
    }

    static func store(_ value: SpecValue) -> AttributeValue {
        switch value {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .int(let v): return .int(v)
        case .string(let v): return .string(v)
        case .strings(let v): return .strings(v)
        }
    }

    static func spec(_ value: AttributeValue) -> SpecValue {
        switch value {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .int(let v): return .int(v)
        case .string(let v): return .string(v)
        case .strings(let v): return .strings(v)
        }
    }
}

/// What the CloudKit checks say about a case's schemas: the shipped configuration's (B7) and the container's, with
/// what the specification derives from the container's schema (G21). A case's container is built from its
/// configuration and the local delete rule alone, and schemas are immutable values, so the lists are pure functions
/// of those two: they are taken once per process for every pair (not per case or per save) and compared after every
/// save.
struct CloudKitFindings: Sendable {
    /// The store's check of the shipped configuration's schema.
    let shippedViolations: [String]
    /// The store's check of the container's schema.
    let containerViolations: [String]
    /// The specification's check of the container's schema, described as the specification describes schemas.
    let predictedContainerViolations: [String]

    init(_ configuration: BooksConfiguration, _ rule: DeleteRule) {
        let container = BooksTrackerSchema.schema(configuration, localEditionEntriesRule: rule)
        shippedViolations = BooksTrackerSchema.schema(configuration).cloudKitViolations().map(\.description)
        containerViolations = container.cloudKitViolations().map(\.description)
        predictedContainerViolations = BooksEntities.cloudKitViolations(of: GraphSystem.specEntities(container))
    }

    /// The findings for a case of `configuration` whose local schema uses `rule` on `Edition.userLibraryEntries`.
    static func of(_ configuration: BooksConfiguration, _ rule: DeleteRule) -> CloudKitFindings {
        let index = BooksConfiguration.allCases.firstIndex(of: configuration)! * DeleteRule.allCases.count
            + DeleteRule.allCases.firstIndex(of: rule)!
        return all[index]
    }

    private static let all: [CloudKitFindings] = BooksConfiguration.allCases.flatMap { configuration in
        DeleteRule.allCases.map { CloudKitFindings(configuration, $0) }
    }
}

/// Names identifiers as the specification names saved rows: by the first reference whose model has the identifier.
/// The first references are found in one pass and kept in one flat table indexed by (kind, entity, number) — the
/// store numbers identifiers per kind and entity — instead of a dictionary of identifiers.
struct RowNaming {
    let refs: [PersistentModel?]
    let entities: [EntitySchema]
    private let width: Int
    private var firstRef: [Int] = []

    /// `rows`: the identifiers to be named are mostly the rows' (the table covers their numbers; any other
    /// identifier is named by a search of the references).
    init(refs: [PersistentModel?], entities: [EntitySchema], rows: Dictionary<PersistentIdentifier, Row>.Keys) {
        self.refs = refs
        self.entities = entities
        var width = 1
        for id in rows where id.number >= width { width = id.number + 1 }
        self.width = width
        firstRef = Array(repeating: -1, count: 2 * entities.count * width)
        for (r, model) in refs.enumerated() {
            if let id = model?.persistentModelID, let s = slot(id), firstRef[s] < 0 { firstRef[s] = r }
        }
    }

    private func slot(_ id: PersistentIdentifier) -> Int? {
        guard let entity = entities.firstIndex(where: { $0.name == id.entityName }), id.number >= 0, id.number < width else { return nil }
        return ((id.isTemporary ? 0 : entities.count) + entity) * width + id.number
    }

    /// The row name of `id`: `r:` and the first reference whose model has it (-1 for none).
    func name(_ id: PersistentIdentifier) -> ObjectName {
        if let s = slot(id) {
            let r = firstRef[s]
            // The table is keyed without the store identifier: confirm the whole identifier, else search.
            if r < 0 || refs[r]?.persistentModelID == id { return ObjectName(row: true, ref: r) }
        }
        return ObjectName(row: true, ref: refs.firstIndex { $0?.persistentModelID == id } ?? -1)
    }
}

extension SpecValue {
    var stringText: String { if case .string(let v) = self { return v } else { return "" } }
}
