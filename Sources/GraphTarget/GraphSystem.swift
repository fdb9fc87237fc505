import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The system under test for one case: a recording container with the BooksTracker schema, two contexts,
/// a library per context, and the models the references name.
public struct GraphSystem {
    public let container: ModelContainer
    public let contexts: [ModelContext]
    let libraries: [Library]
    var refs: [PersistentModel?] = []
    var held: [PersistentIdentifier?] = []
    /// The CloudKit checks this case compares after every save (B7, G21), taken at the first such save.
    let cloudKit: CloudKitFindings

    init(config: GraphConfig, mutant: GraphMutant?) {
        let store = ModelConfiguration(trapPolicy: .record, behavior: GraphMutant.behavior(config, mutant))
        container = BooksTrackerSchema.container(config.schema == .local ? .local : .cloudKit, store: store,
                                                 localEditionEntriesRule: GraphMutant.editionEntriesRule(mutant))
        contexts = [ModelContext(container), ModelContext(container)]
        let policy = GraphMutant.policy(config, mutant)
        libraries = contexts.map { Library(context: $0, policy: policy) }
        cloudKit = CloudKitFindings.of(config.schema == .local ? .local : .cloudKit, GraphMutant.editionEntriesRule(mutant))
    }

    /// Runs `command` and returns what it observed: the first trap it raised, or its result.
    mutating func run(_ command: GraphCommand) -> GraphObservation {
        let before = container.traps.count
        let observation = perform(command)
        if container.traps.count > before { return .trap(container.traps[before].code.rawValue) }
        return observation
    }

    private func model(_ ref: Ref) -> PersistentModel { refs[ref.index]! }

    private mutating func perform(_ command: GraphCommand) -> GraphObservation {
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
        // The first reference whose model has each identifier, in one pass over the references.
        var firstRef = [PersistentIdentifier: Int](minimumCapacity: refs.count)
        for (r, model) in refs.enumerated() {
            if let id = model?.persistentModelID, firstRef[id] == nil { firstRef[id] = r }
        }
        func rowName(_ id: PersistentIdentifier) -> ObjectName { ObjectName(row: true, ref: firstRef[id] ?? -1) }
        return container.rows.map { id, row in
            CanonicalRow(name: rowName(id), entity: row.entity, values: row.values.map(Self.spec),
                         links: row.links.map { CanonicalRow.sortedNames($0.map(rowName)) })
        }.sorted()
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

extension SpecValue {
    var stringText: String { if case .string(let v) = self { return v } else { return "" } }
}
