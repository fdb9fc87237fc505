import BooksSpec
import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules

/// The system under test for one case of the `graph` target: the store over the BooksTracker schema (`SchemaSystem`)
/// and, per context, the library whose operations the app actions call; context 1 is the background actor's
/// (`CatalogRefresh`) in concurrent steps.
///
/// Unchecked `Sendable`: the branches of a concurrent step share it between tasks, but every job of a case, theirs
/// included, runs on the thread that drives the case, one at a time (the case's scheduler), and no step overlaps a
/// concurrent one.
public final class GraphSystem: @unchecked Sendable {
    public internal(set) var store: SchemaSystem
    let policy: LibraryPolicy
    /// B7: the store's CloudKit check of the shipped configuration's schema.
    let shippedViolations: [String]
    /// The background actor over context 1, made when a concurrent step first needs it (again after a relaunch).
    var background: (actor: CatalogRefresh, context: ModelContext)?
    /// The store's traps (by index) that main-actor branches raised: a background branch in flight meanwhile does not
    /// observe them as its own.
    var mainActorTraps: [Int] = []

    /// Throws the store's `StoreError`, or a `HarnessFault` when the harness cannot write the store file's folder.
    /// - Parameter stores: where the store files go (default: the system's scratch location).
    package init(config: GraphConfig, faults: GraphFaults = .shipped, stores: ScratchStores = ScratchStores()) throws {
        let configuration: BooksConfiguration = config.schema == .local ? .local : .cloudKit
        let findings = CloudKitFindings.of(configuration, faults.editionEntriesRule)
        let schema = BooksTrackerSchema.schema(configuration, localEditionEntriesRule: faults.editionEntriesRule)
        // The image of the store this case opens, with its delete rule: one made for another rule would not fit, and
        // every case would build its store file again.
        let image = config.parameters.backend == .sqlite
            ? stores.emptyImage("\(config.schema.rawValue)-\(faults.editionEntriesRule.rawValue)", schema: schema,
                                storeIdentifier: ModelConfiguration().storeIdentifier)
            : nil
        store = try SchemaSystem(schema: BooksEntities.schema(config.schema),
                                 store: schema,
                                 parameters: config.parameters, configuration: ModelConfiguration(trapPolicy: .record, behavior: faults.behavior(config)),
                                 saveTransactions: faults.saveTransactions, image: image, stores: stores, makeModel: Self.make,
                                 cloudKit: (findings.containerViolations, findings.predictedContainerViolations))
        policy = faults.policy(config)
        shippedViolations = findings.shippedViolations
    }

    /// The library over context `c` (a relaunch makes new contexts; a library holds nothing else).
    func library(_ c: Int) -> Library { Library(context: store.contexts[c], policy: policy) }

    /// Runs a store operation; a save is `Library.save()`.
    package func run(_ command: GraphCommand) throws(HarnessFault) -> GraphObservation {
        let policy = self.policy
        return try store.run(command) { system, c throws(HarnessFault) in try Self.librarySave(&system, c, policy) }
    }

    /// `Library.save()` on context `c`: validation and the CloudKit guard (refusals), then the store's save.
    static func librarySave(_ system: inout SchemaSystem, _ c: Int, _ policy: LibraryPolicy) throws(HarnessFault) -> GraphObservation {
        let library = Library(context: system.contexts[c], policy: policy)
        return try system.saving { () throws(SaveError) -> [String]? in
            do throws(LibrarySaveError) {
                try library.save()
                return nil
            } catch {
                switch error {
                case .refused(let issues): return issues.map(\.rawValue)
                case .store(let failure): throw failure
                }
            }
        }
    }

    /// Runs one of the library's domain operations and returns what it observed: the first trap it raised, or
    /// its result.
    package func run(_ command: BooksCommand) -> BooksObservation {
        let policy = self.policy
        return store.observe({ .trap($0) }) { store in
            func library(_ c: Int) -> Library { Library(context: store.contexts[c], policy: policy) }
            switch command {
            case let .wishlist(_, w, c):
                guard let work = store.model(w) as? Work else { return .trap("typeMismatch") }
                let entry = library(c).createWishlistEntry(for: work)
                store.bind(entry)
                return .entry(SchemaSystem.kind(entry.persistentModelID), inWork: work.userLibraryEntries.contains { $0 === entry }, inEdition: false)
            case let .owned(_, w, ed, c):
                guard let work = store.model(w) as? Work, let edition = store.model(ed) as? Edition else { return .trap("typeMismatch") }
                let entry = library(c).createOwnedEntry(for: work, edition: edition)
                store.bind(entry)
                return .entry(SchemaSystem.kind(entry.persistentModelID), inWork: work.userLibraryEntries.contains { $0 === entry },
                              inEdition: edition.userLibraryEntries.contains { $0 === entry })
            case let .acquire(e, ed):
                guard let entry = store.model(e) as? UserLibraryEntry, let edition = store.model(ed) as? Edition else { return .trap("typeMismatch") }
                library(0).acquire(entry, edition: edition)
                return .acquired(status: .string(entry.readingStatus.rawValue), inEdition: edition.userLibraryEntries.contains { $0 === entry })
            case let .userEntry(w):
                guard let work = store.model(w) as? Work else { return .trap("typeMismatch") }
                return .object(library(0).userEntry(of: work).map { store.name($0) })
            case let .validate(e):
                guard let entry = store.model(e) as? UserLibraryEntry else { return .trap("typeMismatch") }
                do throws(EntryValidationError) {
                    try entry.validate()
                    return .validation(nil)
                } catch {
                    return .validation(error.rawValue)
                }
            }
        }
    }

    /// A create step's model, made with the app's initializer: a work with its title, an edition with its page
    /// count, an author with a name, an entry with a status.
    @Sendable static func make(_ entity: Int, _ value: SpecValue?) -> PersistentModel {
        switch entity {
        case BooksEntities.work: return Work(title: value?.stringText ?? "")
        case BooksEntities.edition:
            if case .int(let count)? = value { return Edition(pageCount: count) }
            return Edition()
        case BooksEntities.author: return Author(name: value?.stringText ?? "")
        default: return UserLibraryEntry(readingStatus: ReadingStatus(rawValue: value?.stringText ?? "") ?? .toRead)
        }
    }
}

/// What the CloudKit checks say about a case's schemas: the shipped configuration's (B7) and the container's, with
/// what the specification derives from the container's schema (G21). A case's container is built from its
/// configuration and the local delete rule alone, and schemas are immutable values, so the lists are pure functions
/// of those two: they are taken once per process for every pair.
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
        predictedContainerViolations = GraphSchema(container).cloudKitViolations
    }

    /// The findings for a case of `configuration` whose local schema uses `rule` on `Edition.userLibraryEntries`.
    /// Each pair's are taken the first time a case of the process asks for them (a worker process that runs a few
    /// shrink candidates takes one or two pairs, not all eight).
    static func of(_ configuration: BooksConfiguration, _ rule: DeleteRule) -> CloudKitFindings {
        switch (configuration, rule) {
        case (.local, .nullify): localNullify
        case (.local, .cascade): localCascade
        case (.local, .deny): localDeny
        case (.local, .noAction): localNoAction
        case (.cloudKit, .nullify): cloudKitNullify
        case (.cloudKit, .cascade): cloudKitCascade
        case (.cloudKit, .deny): cloudKitDeny
        case (.cloudKit, .noAction): cloudKitNoAction
        }
    }

    private static let localNullify = CloudKitFindings(.local, .nullify)
    private static let localCascade = CloudKitFindings(.local, .cascade)
    private static let localDeny = CloudKitFindings(.local, .deny)
    private static let localNoAction = CloudKitFindings(.local, .noAction)
    private static let cloudKitNullify = CloudKitFindings(.cloudKit, .nullify)
    private static let cloudKitCascade = CloudKitFindings(.cloudKit, .cascade)
    private static let cloudKitDeny = CloudKitFindings(.cloudKit, .deny)
    private static let cloudKitNoAction = CloudKitFindings(.cloudKit, .noAction)
}

extension SpecValue {
    var stringText: String { if case .string(let v) = self { return v } else { return "" } }
}
