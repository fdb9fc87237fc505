import BooksTracker
import FaultPoints
import GraphStore
import Testing

/// One step of a generated store session. Indexes are taken modulo what exists when the step runs, so a
/// step means the same on both backends.
private enum SessionStep {
    case create(entity: Int, seed: Int)
    case insert(object: Int, context: Int)
    case set(object: Int, attribute: Int, seed: Int)
    case relate(object: Int, relationship: Int, target: Int)
    case unrelate(object: Int, relationship: Int, position: Int)
    case delete(object: Int, context: Int)
    case save(context: Int)
    case rollback(context: Int)
    case holdID(object: Int)
    case lookup(held: Int, context: Int)
    case registered(held: Int, context: Int)
    case fetchAll(entity: Int, context: Int)
    case interruptedSave(context: Int, after: Int)
    case relaunch
    /// A valid work with two authors and two editions, inserted into the first context and related.
    case graph(seed: Int)
}

/// A session's objects and store on one backend.
private final class Session {
    var container: ModelContainer
    var containers: [ModelContainer]
    var contexts: [ModelContext]
    var objects: [PersistentModel] = []
    var held: [PersistentIdentifier] = []

    init(_ container: ModelContainer, grouping: SaveTransactions) {
        container.saveTransactions = grouping
        self.container = container
        self.containers = [container]
        self.contexts = [ModelContext(container), ModelContext(container)]
    }

    static let entityNames = ["Work", "Edition", "Author", "UserLibraryEntry"]

    private static func make(_ entity: Int) -> PersistentModel {
        switch entity % 4 {
        case 0: return Work()
        case 1: return Edition()
        case 2: return Author()
        default: return UserLibraryEntry()
        }
    }

    private func value(_ kind: AttributeKind, _ seed: Int) -> AttributeValue {
        if seed % 11 == 0 { return .null }
        switch kind {
        case .bool: return .bool(seed % 2 == 0)
        case .int: return .int(seed % 9 - 2)
        case .string: return .string(["", String(repeating: "x", count: 501), "a", "Dune", "O'Neil", "b", "c", "d", "e", "f"][seed % 10])
        case .strings: return .strings(Array(["t1", "t2", "", "t'3"].prefix(seed % 4)))
        }
    }

    private func describe(_ model: PersistentModel) -> String {
        let values = model.lifecycle == .invalidated ? "-" : model.entity.attributes.indices.map { "\(model.value(at: $0))" }.joined(separator: ",")
        return "\(model.persistentModelID?.description ?? "nil") \(model.lifecycle) deleted:\(model.isDeleted) [\(values)]"
    }

    /// Runs `step`; what it observed, then the saved rows and every trap so far.
    func run(_ step: SessionStep) throws -> String {
        var seen = ""
        // Even indexes pick one of the four newest objects (fetched ones included), odd ones any object.
        func object(_ index: Int) -> PersistentModel? {
            if objects.isEmpty { return nil }
            if index % 2 == 1 { return objects[index / 2 % objects.count] }
            return objects[objects.count - 1 - index / 2 % min(objects.count, 4)]
        }
        switch step {
        case .create(let entity, let seed):
            let model = Self.make(entity)
            container.schema.adopt(model)
            for (a, attribute) in model.entity.attributes.enumerated() where (seed + a) % 3 != 0 {
                model.setValue(value(attribute.kind, seed + a), at: a)
            }
            objects.append(model)
        case .insert(let o, let c):
            if let model = object(o) { contexts[c % 2].insert(model) }
        case .set(let o, let a, let seed):
            if let model = object(o) {
                let index = a % model.entity.attributes.count
                model.setValue(value(model.entity.attributes[index].kind, seed), at: index)
            }
        case .relate(let o, let r, let t):
            guard let model = object(o), !model.entity.relationships.isEmpty else { break }
            let index = r % model.entity.relationships.count
            let destination = model.entity.relationships[index].destination
            let targets = objects.filter { $0.entity.name == destination }
            if !targets.isEmpty {
                model.relate(index, to: t % 2 == 1 ? targets[t / 2 % targets.count] : targets[targets.count - 1 - t / 2 % min(targets.count, 4)])
            }
        case .unrelate(let o, let r, let p):
            guard let model = object(o), !model.entity.relationships.isEmpty else { break }
            let index = r % model.entity.relationships.count
            let current = model.related(index)
            if !current.isEmpty { model.unrelate(index, from: current[p % current.count]) }
        case .delete(let o, let c):
            if let model = object(o) { contexts[c % 2].delete(model) }
        case .save(let c):
            do {
                try contexts[c % 2].save()
                seen = "saved"
            } catch {
                seen = failure(error)
            }
        case .rollback(let c):
            contexts[c % 2].rollback()
        case .holdID(let o):
            if let id = object(o)?.persistentModelID { held.append(id) }
        case .lookup(let h, let c):
            if !held.isEmpty { seen = describe(contexts[c % 2].model(for: held[h % held.count])) }
        case .registered(let h, let c):
            if !held.isEmpty { seen = contexts[c % 2].registeredModel(for: held[h % held.count]).map(describe) ?? "nil" }
        case .fetchAll(let e, let c):
            let name = Self.entityNames[e % 4]
            let found = contexts[c % 2].fetch(.all(entity: name))
            seen = found.map(describe).joined(separator: "; ")
            // Models read back from rows join the session's objects, so later steps change and delete saved rows.
            for model in found where !objects.contains(where: { $0 === model }) { objects.append(model) }
        case .interruptedSave(let c, let after):
            container.writeInterruption = WriteInterruption(afterOperations: container.writeOperations + after)
            do {
                try contexts[c % 2].save()
                seen = "saved"
            } catch {
                seen = failure(error)
            }
            container.writeInterruption = nil
            if !container.isOpen { try relaunch() }
        case .relaunch:
            try relaunch()
        case .graph(let seed):
            let work = Work(title: "g\(seed)")
            let authors = [Author(name: "a\(seed)"), Author(name: "b\(seed)")]
            let editions = [Edition(pageCount: 1 + seed % 50), Edition(isbn: "i\(seed)")]
            let parts: [PersistentModel] = [work] + authors + editions
            for model in parts { contexts[0].insert(model) }
            for author in authors { work.authors.append(author) }
            for edition in editions { edition.work = work }
            objects += parts
        }
        let rows = container.rows.map { id, row in "\(id)=\(row.values)\(row.links)" }.sorted()
        let traps = containers.flatMap(\.traps).map(\.description)
        let states = objects.map { "\($0.lifecycle.rawValue.first!)\($0.hasChanges ? "*" : "")" }.joined()
        return "\(seen) | open:\(container.isOpen) changes:\(contexts.map(\.hasChanges)) objects:\(states) | \(rows) | \(traps)"
    }

    /// A failed save as both backends should see it (the store's file name aside).
    private func failure(_ error: SaveError) -> String {
        "failed \(error.code) \(error.issues) \(error.storeFailure.map { "\($0.kind): \($0.message)" } ?? "")"
    }

    private func relaunch() throws {
        container = try container.relaunch()
        containers.append(container)
        contexts = [ModelContext(container), ModelContext(container)]
    }

    func close() {
        container.close()
        for model in objects { model.breakReferenceCycles() }
    }
}

/// A small deterministic random source for the generator.
private struct Mix {
    var state: UInt64
    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// Differential testing of the two backends: generated sessions of store operations (inserts, edits,
/// relationships, deletes, saves that fail validation, rollbacks, lookups of held identifiers, fetches,
/// relaunches and interrupted saves), under random behaviours and transaction groupings, run on rows in
/// memory and on an SQLite file; every observation must be the same.
@Suite("Backends agree")
struct BackendDifferentialTests {
    private func steps(_ random: inout Mix, count: Int) -> [SessionStep] {
        var steps: [SessionStep] = []
        for _ in 0..<count {
            steps.append(step(&random))
        }
        return steps
    }

    private func step(_ random: inout Mix) -> SessionStep {
        func n(_ bound: Int) -> Int {
            // Contexts: the first three times in four, so that most saves have something to write.
            bound == 2 ? (random.below(4) == 0 ? 1 : 0) : random.below(bound)
        }
            switch random.below(28) {
            case 25, 26: return .graph(seed: n(1000))
            case 23, 24: return .relate(object: n(50), relationship: n(3), target: n(50))
            case 0, 1, 2: return .create(entity: n(4), seed: n(1000))
            case 3, 4, 5: return .insert(object: n(50), context: n(2))
            case 6: return .set(object: n(50), attribute: n(10), seed: n(1000))
            case 7, 8: return .relate(object: n(50), relationship: n(3), target: n(50))
            case 9: return .unrelate(object: n(50), relationship: n(3), position: n(5))
            case 10: return .delete(object: n(50), context: n(2))
            case 11, 12, 13: return .save(context: n(2))
            case 14: return .rollback(context: n(2))
            case 15, 16: return .holdID(object: n(50))
            case 17, 18: return .lookup(held: n(20), context: n(2))
            case 19: return .registered(held: n(20), context: n(2))
            case 20, 21: return .fetchAll(entity: n(4), context: n(2))
            case 22: return .interruptedSave(context: n(2), after: n(6))
            default: return .relaunch
            }
    }

    private func behavior(_ random: inout Mix) -> StoreBehavior {
        let newModelLink: StoreBehavior.NewModelLink = random.below(2) == 0 ? .autoInsert : .trap
        let temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave = random.below(2) == 0 ? .resolves : .unknown
        let registered: StoreBehavior.RegisteredAfterForeignDelete = random.below(2) == 0 ? .stale : .none
        // Each store fault with probability 1/4, drawn in this order.
        let faults: [Fault<StoreBehavior>] = [.permanentIdentifiersAtInsert, .deleteRulesAtDelete, .partialFailedSave, .noInverseMaintenance]
        let selected = faults.filter { _ in random.below(4) == 0 }
        return StoreBehavior(newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave,
                             registeredAfterForeignDelete: registered, faults: Faults(selected))
    }

    @Test("Generated sessions observe the same on rows in memory and on SQLite", arguments: 0..<4)
    func sessionsAgree(_ shard: Int) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var compared = 0
        var coverage = (saved: 0, readBack: 0, relaunchedWithRows: 0, interrupted: 0, orderedLinks: 0)
        for session in 0..<40 {
            let seed = UInt64(shard * 1000 + session)
            var random = Mix(state: seed)
            let behavior = behavior(&random)
            let grouping = SaveTransactions.allCases[random.below(4) == 0 ? 1 + random.below(2) : 0]
            let steps = steps(&random, count: 40)
            let configuration = ModelConfiguration(trapPolicy: .record, behavior: behavior)
            let schema = BooksTrackerSchema.schema(random.below(2) == 0 ? .local : .cloudKit)
            let memory = Session(ModelContainer(schema: schema, configuration: configuration), grouping: grouping)
            let sqlite = Session(try ModelContainer(schema: schema, configuration: configuration, path: scratch.file("s\(seed).sqlite")),
                                 grouping: grouping)
            defer {
                memory.close()
                sqlite.close()
            }
            for (index, step) in steps.enumerated() {
                let expected = try memory.run(step)
                let observed = try sqlite.run(step)
                compared += 1
                if expected.hasPrefix("saved") { coverage.saved += 1 }
                switch step {
                case .lookup, .fetchAll: if expected.contains("x-coredata://store/") && expected.contains("registered") { coverage.readBack += 1 }
                default: break
                }
                if case .relaunch = step, !expected.contains("| [] |") { coverage.relaunchedWithRows += 1 }
                if expected.contains("interrupted:") { coverage.interrupted += 1 }
                if case .relaunch = step, expected.contains(", x-coredata://store/Author") { coverage.orderedLinks += 1 }
                guard expected == observed else {
                    Issue.record("seed \(seed) step \(index + 1) \(step): memory saw\n\(expected)\nSQLite saw\n\(observed)")
                    return
                }
            }
        }
        #expect(compared == 40 * 40)
        // The sessions reach what the backends could disagree on.
        #expect(coverage.saved >= 100, "\(coverage)")
        #expect(coverage.readBack >= 3, "\(coverage)")
        #expect(coverage.relaunchedWithRows >= 2, "\(coverage)")
        #expect(coverage.interrupted >= 2, "\(coverage)")
        #expect(coverage.orderedLinks >= 2, "\(coverage)")
    }
}
