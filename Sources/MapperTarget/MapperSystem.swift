import BooksTracker
import GraphFuzzEngine
import GraphStore
import MapperSpec

/// The system under test for one case: a container (traps recorded), the mapper's context, the
/// mapper, and the harness's table from references to works.
///
/// Unchecked `Sendable`: concurrent enrichments share it between tasks, but every job of a case, theirs included, runs
/// on the thread that drives the case, one at a time (the case's scheduler), and no step overlaps a concurrent one.
public final class MapperSystem: @unchecked Sendable {
    struct Slot {
        /// The work's identifier as last seen (permanent after a save).
        var id: PersistentIdentifier?
        /// The work in the current mapper context, if the harness holds it.
        var object: Work?
        /// The work's model in the last context the mapper abandoned (a fresh context or a relaunch), if the harness
        /// held one: a mapping that returns it brought back a work that is not live.
        var abandoned: Work?

        /// The slot after the mapper's context is abandoned: the work is no longer held.
        mutating func abandon() {
            if let object { abandoned = object }
            object = nil
        }
    }

    private(set) var container: ModelContainer
    private(set) var context: ModelContext
    /// An empty in-memory container for the grouping part of map steps (`groupingPart`); nothing is saved in it.
    private let scratchContainer: ModelContainer
    /// The containers of earlier launches (models of theirs raise traps there) and the store file, if on disk.
    private var retired: [ModelContainer] = []
    private let storeFile: ScratchStoreFile?
    let mapper: DTOMapper
    private(set) var slots: [Slot] = []
    /// Set by steps that change the saved rows; the store is compared after them.
    var storeChanged = false
    private let entities: (work: Int, edition: Int, author: Int)
    /// The grouping mappings (`groupingPart`) of this case's responses that raised no trap, by response. The grouping
    /// mapping is a function of the response, the mapper's faults and the store configuration alone (a fresh mapper,
    /// a fresh context, each work's own id as its only volume ID: no lookup finds a work, every group is inserted
    /// anew), so mapping a response again (`mapAgain`) takes the works it gave the first time.
    private var groupings: [(response: SpecResponse, works: [CanonicalWork])] = []

    /// - Parameter stores: where an on-disk case's store file goes. It starts from a copy of the schema's empty store
    ///   file (the file the store would create at its path, made once per machine) and opens it with the production
    ///   code; when the image could not be made or written, the store creates the file as before.
    init(config: MapperConfig, strategy: MapperStrategy, stores: ScratchStores = ScratchStores()) throws {
        let storeSchema = BooksTrackerSchema.schema(.cloudKit)
        if config.onDisk {
            let file = stores.file(prefix: "graphfuzz-mapper")
            storeFile = file
            do {
                let image = stores.emptyImage("cloudKit", schema: storeSchema, storeIdentifier: ModelConfiguration().storeIdentifier)
                container = try ModelContainer(schema: storeSchema, configuration: config.storeConfiguration, path: file.path,
                                               image: image)
            } catch {
                file.remove()
                if let cause = file.unwritable() {
                    throw HarnessFault("cannot write the case's scratch store file \(file.path) (the store reported \(error))",
                                       underlying: cause)
                }
                if error.isMachineFailure { throw HarnessFault("the machine failed the case's new scratch store file: \(error)") }
                throw error
            }
        } else {
            storeFile = nil
            container = ModelContainer(schema: storeSchema, configuration: config.storeConfiguration)
        }
        context = ModelContext(container)
        scratchContainer = ModelContainer(schema: storeSchema, configuration: config.storeConfiguration)
        mapper = DTOMapper(strategy: strategy)
        let schema = container.schema
        entities = (schema.entityIndex(named: "Work") ?? -1, schema.entityIndex(named: "Edition") ?? -1,
                    schema.entityIndex(named: "Author") ?? -1)
    }

    func tearDown() {
        container.close()
        scratchContainer.close()
        storeFile?.remove()
    }

    /// An app relaunch: the container is closed and reopened on the same store; a fresh context takes the
    /// mapper's; the mapper and its cache are kept; the harness keeps only identifiers. A `HarnessFault` when the
    /// machine failed the store file (`StoreError.isMachineFailure`).
    func relaunch() throws(HarnessFault) -> MapperObservation {
        do {
            let old = container
            container = try old.relaunch()
            retired.append(old)
        } catch {
            if error.isMachineFailure { throw HarnessFault("the machine failed the store file at a relaunch: \(error)") }
            return .trap(code: "relaunchFailed", message: "\(error)")
        }
        context = ModelContext(container)
        for index in slots.indices { slots[index].abandon() }
        storeChanged = true
        return .done
    }

    // MARK: Steps

    func map(_ response: SpecResponse) -> MapperObservation {
        let traps = trapCount
        let deadBefore = heldNotLive
        let data = Self.dto(response)
        return observe(mapper.mapToWorks(data, context: context), of: response, data, traps: traps, deadBefore: deadBefore)
    }

    /// An enrichment of the response's volume IDs through `EnrichmentQueue`: the response arrives after a suspension
    /// (under the case's scheduler other enrichments run meanwhile), then the queue maps it.
    func enrich(_ response: SpecResponse) async -> MapperObservation {
        let traps = trapCount
        let data = Self.dto(response)
        var deadBefore: [Int] = []
        let works = await EnrichmentQueue(mapper: mapper).enrich(volumeIDs: data.works.flatMap(\.googleBooksVolumeIDs), into: context) {
            await Task.yield()
            // Taken as the response arrives: what other enrichments did during the wait is before this one's mapping.
            deadBefore = heldNotLive
            return data
        }
        return observe(works, of: response, data, traps: traps, deadBefore: deadBefore)
    }

    /// The works the harness holds that are not live (read without fetching anything).
    private var heldNotLive: [Int] { slots.indices.filter { slots[$0].object.map { !isLive($0) } ?? false } }

    /// What a mapping of `response` (its DTOs `data`) that returned `works` observes; `traps` and `deadBefore` were
    /// taken before it mapped.
    private func observe(_ works: [Work], of response: SpecResponse, _ data: SearchResponseData, traps: Int, deadBefore: [Int]) -> MapperObservation {
        if let trap = newTrap(since: traps) { return trap }
        var mapped: [MappedWork] = []
        for work in works {
            let ref = identify(work)
            let canonical = Self.canonicalWork(work)
            if let trap = newTrap(since: traps) { return trap }
            // A work the step brought back (a rolled-back insert, a deleted work, a model of an abandoned context) is
            // not live: M10 asks for the live holder or a fresh work.
            let live = isLive(work) && !deadBefore.contains(ref) && slots[ref].abandoned !== work
            mapped.append(MappedWork(ref: ref, work: canonical, isLive: live))
        }
        if let earlier = groupings.first(where: { $0.response == response }) {
            return .mapped(mapped, groups: earlier.works)
        }
        let groups = groupingPart(data)
        if let trap = groups.trap { return trap }
        if groupings.count < Self.groupingsKept { groupings.append((response, groups.works)) }
        return .mapped(mapped, groups: groups.works)
    }

    /// How many responses' grouping mappings a case keeps (a `mapAgain` step draws from the first 8 distinct responses).
    private static let groupingsKept = 16

    /// The grouping part of a map step: the works a fresh mapper makes of the response (`data`, the DTOs of the
    /// step's response) in an empty context of a scratch container (never saved), one per group, each response work
    /// carrying its own id as its only volume ID, so that every group makes a work of its own and a work's volume IDs
    /// are the response works it holds; and the first trap that recorded, if any.
    private func groupingPart(_ data: SearchResponseData) -> (works: [CanonicalWork], trap: MapperObservation?) {
        var marked = data
        for index in marked.works.indices { marked.works[index].googleBooksVolumeIDs = [marked.works[index].id] }
        let scratch = ModelContext(scratchContainer)
        let before = scratchContainer.traps.count
        let works = mapper.withEmptyCache().mapToWorks(marked, context: scratch).map(Self.canonicalWork)
        let traps = scratchContainer.traps
        return (works, traps.count > before ? Self.observation(traps[before]) : nil)
    }

    /// Saves the mapper's context. A `HarnessFault` when the machine failed the store's write (`saveFailed`).
    func save() throws(HarnessFault) -> MapperObservation {
        let traps = trapCount
        do {
            try context.save()
        } catch {
            return try Self.saveFailed(error)
        }
        if let trap = newTrap(since: traps) { return trap }
        for index in slots.indices {
            if let id = slots[index].object?.persistentModelID { slots[index].id = id }
        }
        storeChanged = true
        return .done
    }

    func rollback() -> MapperObservation {
        context.rollback()
        return .done
    }

    func newContext() -> MapperObservation {
        context = ModelContext(container)
        for index in slots.indices { slots[index].abandon() }
        return .done
    }

    func clearCache() -> MapperObservation {
        mapper.clearCache()
        return .done
    }

    func deleteWork(_ ref: Int, evict: Bool) -> MapperObservation {
        let traps = trapCount
        guard let work = liveObject(ref) else { return .missing(ref) }
        if evict { mapper.removeWorkFromCache(work) }
        context.delete(work)
        return newTrap(since: traps) ?? .done
    }

    func deleteElsewhere(_ ref: Int) throws(HarnessFault) -> MapperObservation {
        let traps = trapCount
        let other = ModelContext(container)
        guard ref < slots.count, let id = slots[ref].id, let work = other.fetch(.identifier(id)).first else {
            return .missing(ref)
        }
        other.delete(work)
        do {
            try other.save()
        } catch {
            return try Self.saveFailed(error)
        }
        storeChanged = true
        return newTrap(since: traps) ?? .done
    }

    /// A failed save as observed, or a `HarnessFault` when the machine failed the store's write rather than the
    /// store its rules (`StoreError.isMachineFailure`).
    private static func saveFailed(_ error: SaveError) throws(HarnessFault) -> MapperObservation {
        if let store = error.storeFailure, store.isMachineFailure { throw HarnessFault("the machine failed the store's save: \(store)") }
        return .saveFailed(String(describing: error))
    }

    // MARK: Reading

    /// Traps recorded by every launch's container, the current one last.
    private var traps: [StoreTrap] { retired.isEmpty ? container.traps : retired.flatMap(\.traps) + container.traps }

    /// How many traps every launch's container recorded (`traps.count`, without joining the lists).
    var trapCount: Int { retired.reduce(container.traps.count) { $0 + $1.traps.count } }

    /// The first trap recorded since the store had recorded `count`, as the step observes it.
    private func newTrap(since count: Int) -> MapperObservation? {
        guard trapCount > count else { return nil }
        return Self.observation(traps[count])
    }

    private static func observation(_ trap: StoreTrap) -> MapperObservation { .trap(code: trap.code.rawValue, message: trap.message) }

    /// Whether `work` is registered in the mapper's context and not deleted.
    private func isLive(_ work: Work) -> Bool { work.modelContext === context && !work.isDeleted }

    /// The work of `ref` in the mapper's context, if live there.
    private func liveObject(_ ref: Int) -> Work? {
        guard ref < slots.count else { return nil }
        if let object = slots[ref].object, isLive(object) { return object }
        guard let id = slots[ref].id, let work = DTOMapper.liveWork(id, in: context) else { return nil }
        slots[ref].object = work
        return work
    }

    /// The reference of a returned work: the slot holding it (or its model in an abandoned context), or matching its
    /// identifier, or a new one.
    private func identify(_ work: Work) -> Int {
        if let index = slots.firstIndex(where: { $0.object === work || $0.abandoned === work }) { return index }
        if let id = work.persistentModelID, let index = slots.firstIndex(where: { $0.id == id }) {
            slots[index].object = work
            return index
        }
        slots.append(Slot(id: work.persistentModelID, object: work))
        return slots.count - 1
    }

    /// The work as the specification sees it, read from the work itself.
    package static func canonicalWork(_ work: Work) -> CanonicalWork {
        // Read in the order the fields are listed (the first read of a gone model raises the trap a step reports);
        // the editions are taken once, for their ISBNs and their details.
        let title = work.title, tags = work.subjectTags, provider = work.primaryProvider, volumeIDs = work.googleBooksVolumeIDs
        let synthetic = work.synthetic
        let editions = work.editions
        return CanonicalWork(
            title: title, tags: tags, provider: provider, volumeIDs: volumeIDs,
            editionISBNs: editions.map(\.isbn),
            authors: work.authors.map(\.name),
            editionDetails: editions.map { edition in
                CanonicalWork.editionDetail(isbn: edition.isbn, title: edition.editionTitle, publisher: edition.publisher, pageCount: edition.pageCount)
            },
            synthetic: synthetic, editionProviders: editions.map(\.primaryProvider))
    }

    /// The saved works, edition rows and author rows, read from the container's rows (no context).
    func storeSnapshot() -> (works: [CanonicalWork], editions: Int, authors: Int) {
        let rows = container.rows
        var works: [CanonicalWork] = []
        var editions = 0, authors = 0
        for row in rows.values {
            if row.entity == entities.edition {
                editions += 1
            } else if row.entity == entities.author {
                authors += 1
            } else if row.entity == entities.work {
                let c = RowColumns.shipped
                works.append(CanonicalWork(
                    title: row.values[c.title].stringValue ?? "",
                    tags: row.values[c.subjectTags].stringsValue ?? [],
                    provider: row.values[c.provider].stringValue,
                    volumeIDs: row.values[c.volumeIDs].stringsValue ?? [],
                    editionISBNs: row.links[c.editions].map { rows[$0]?.values[c.isbn].stringValue },
                    authors: row.links[c.authors].map { rows[$0]?.values[c.authorName].stringValue ?? "?" },
                    editionDetails: row.links[c.editions].map { link in
                        let values = rows[link]?.values
                        return CanonicalWork.editionDetail(
                            isbn: values?[c.isbn].stringValue, title: values?[c.editionTitle].stringValue,
                            publisher: values?[c.publisher].stringValue, pageCount: values?[c.pageCount].intValue)
                    },
                    synthetic: row.values[c.synthetic].boolValue ?? false,
                    editionProviders: row.links[c.editions].map { rows[$0]?.values[c.editionProvider].stringValue }))
            }
        }
        return (works.sorted(), editions, authors)
    }

    // MARK: DTOs

    /// The DTOs of a specification response (work ids `w1`, `w2`, … by position).
    static func dto(_ response: SpecResponse) -> SearchResponseData {
        typealias V = MapperVocabulary
        return SearchResponseData(
            works: response.works.enumerated().map { position, work in
                WorkDTO(id: V.workID(position), title: V.titles[work.title], subjectTags: work.tags.map { V.tags[$0] },
                        synthetic: work.synthetic, primaryProvider: work.provider.map { V.providers[$0] },
                        googleBooksVolumeIDs: work.volumes.map { V.volumeIDs[$0] })
            },
            editions: response.editions.map { edition in
                // `isbns` lists every ISBN the backend sends, the primary one first (as the backend does).
                let isbns = edition.allISBNs.map { V.isbns[$0] }
                return EditionDTO(isbn: edition.isbn.map { V.isbns[$0] }, isbns: isbns, title: edition.title.map { V.editionTitles[$0] },
                                  publisher: edition.publisher.map { V.publishers[$0] },
                                  pageCount: edition.pageCount.map { V.pageCounts[$0] }, workId: V.workID(edition.work))
            },
            authors: response.authors.map { author in
                AuthorDTO(name: V.authors[author.name], workIds: author.works.map(V.workID))
            })
    }
}

/// Where a saved row keeps what the specification compares: the attribute and relationship indexes of the entities
/// the BooksTracker models' declarations make, by name.
struct RowColumns {
    let title, subjectTags, provider, volumeIDs, synthetic, editions, authors: Int
    let isbn, editionTitle, publisher, pageCount, editionProvider, authorName: Int

    init(_ schema: Schema) {
        let work = schema.entities[schema.entityIndex(named: "Work")!], edition = schema.entities[schema.entityIndex(named: "Edition")!]
        let author = schema.entities[schema.entityIndex(named: "Author")!]
        (title, subjectTags, provider) = (work.attributeIndex(named: "title")!, work.attributeIndex(named: "subjectTags")!,
                                         work.attributeIndex(named: "primaryProvider")!)
        (volumeIDs, synthetic) = (work.attributeIndex(named: "googleBooksVolumeIDs")!, work.attributeIndex(named: "synthetic")!)
        (editions, authors) = (work.relationshipIndex(named: "editions")!, work.relationshipIndex(named: "authors")!)
        (isbn, editionTitle, publisher) = (edition.attributeIndex(named: "isbn")!, edition.attributeIndex(named: "editionTitle")!,
                                          edition.attributeIndex(named: "publisher")!)
        (pageCount, editionProvider) = (edition.attributeIndex(named: "pageCount")!, edition.attributeIndex(named: "primaryProvider")!)
        authorName = author.attributeIndex(named: "name")!
    }

    /// The columns of the mapper's store (the CloudKit configuration's schema).
    static let shipped = RowColumns(BooksTrackerSchema.schema(.cloudKit))
}
