import GraphFuzzEngine
import GraphSpec

/// Swift Testing source that replays a case against the production API directly (store, models, library),
/// ending in the `#expect` the specification predicts for the last step.
extension GraphMachine {
    public func swiftSetup(_ config: GraphConfig) -> [String] {
        let schema = config.schema == .local ? ".local" : ".cloudKit"
        return [
            "// \(config.trace)",
            "let behavior = StoreBehavior(newModelLink: .\(config.newModelLink.rawValue), temporaryIDAfterSave: .\(config.temporaryIDAfterSave == .resolves ? "resolves" : "unknown"), registeredAfterForeignDelete: .\(config.registeredAfterForeignDelete == .stale ? "stale" : "none"))",
            "let container = BooksTrackerSchema.container(\(schema), store: ModelConfiguration(trapPolicy: .record, behavior: behavior))",
            "let contexts = [ModelContext(container), ModelContext(container)]",
            "let libraries = contexts.map { Library(context: $0, policy: LibraryPolicy(configuration: \(schema))) }",
            "var refs: [PersistentModel?] = []",
            "var held: [PersistentIdentifier?] = []",
        ]
    }

    public func swiftLines(_ command: GraphCommand, expected: Expectation<GraphObservation>, isLast: Bool) -> [String] {
        var lines = ["// \(command.trace)"]
        func r(_ ref: Ref) -> String { "refs[\(ref.index)]!" }
        func typed(_ ref: Ref, _ type: String) -> String { "(refs[\(ref.index)] as! \(type))" }
        switch command {
        case let .create(_, entity, variant, context):
            let value = BooksEntities.createPool(entity).pool[variant]
            let make: String
            switch entity {
            case BooksEntities.work: make = "Work(title: \(value))"
            case BooksEntities.edition: make = "Edition(pageCount: \(value))"
            case BooksEntities.author: make = "Author(name: \(value))"
            default: make = "UserLibraryEntry(readingStatus: .\(value.description.dropFirst().dropLast()))"
            }
            lines.append("refs.append(\(make))")
            if context >= 0 { lines.append("contexts[\(context)].insert(refs.last!!)") }
        case let .insert(ref, c): lines.append("contexts[\(c)].insert(\(r(ref)))")
        case let .relate(ref, rel, target): lines.append("\(r(ref)).relate(\(rel), to: \(r(target)))")
        case let .unrelate(ref, rel, target): lines.append("\(r(ref)).unrelate(\(rel), from: \(r(target)))")
        case let .set(ref, slot, variant):
            lines.append("\(r(ref)).setValue(\(Self.literal(command, slot: slot, variant: variant)), at: \(r(ref)).entity.attributeIndex(named: \"\(Self.attributeName(command))\")!)")
        case let .delete(ref): lines.append("\(r(ref)).modelContext?.delete(\(r(ref)))")
        case let .save(c):
            lines += ["var saveCode: Int? = nil",
                      "let rowsBefore = container.rows",
                      "do throws(LibrarySaveError) { try libraries[\(c)].save() } catch {",
                      "    if case .store(let failure) = error { saveCode = failure.code } else { saveCode = -1 }",
                      "}"]
        case let .rollback(c): lines.append("contexts[\(c)].rollback()")
        case let .holdID(ref): lines.append("held.append(\(r(ref)).persistentModelID)")
        case let .lookup(_, h, c, method):
            switch method {
            case .model: lines.append("refs.append(contexts[\(c)].model(for: held[\(h)]!))")
            case .registered: lines.append("refs.append(contexts[\(c)].registeredModel(for: held[\(h)]!))")
            case .fetch: lines.append("refs.append(contexts[\(c)].fetch(FetchDescriptor(.identifier(held[\(h)]!))).first)")
            }
        case let .read(ref, p): lines.append("let property = \(r(ref)).entity.attributes.count > \(p) ? \"\\(\(r(ref)).value(at: \(p)))\" : \"\\(\(r(ref)).related(\(p) - \(r(ref)).entity.attributes.count).count)\"")
        case let .state(ref): lines.append("let state = (\(r(ref)).lifecycle, \(r(ref)).isDeleted)")
        case let .fetchTitle(c, v):
            lines.append("let fetched = contexts[\(c)].fetch(FetchDescriptor(.attribute(entity: \"Work\", attribute: \"title\", equals: .string(\(BooksEntities.titles[v])))))")
        case let .wishlist(_, w, c): lines.append("refs.append(libraries[\(c)].createWishlistEntry(for: \(typed(w, "Work"))))")
        case let .owned(_, w, ed, c):
            lines.append("refs.append(libraries[\(c)].createOwnedEntry(for: \(typed(w, "Work")), edition: \(typed(ed, "Edition"))))")
        case let .acquire(e, ed): lines.append("libraries[0].acquire(\(typed(e, "UserLibraryEntry")), edition: \(typed(ed, "Edition")))")
        case let .userEntry(w): lines.append("let userEntry = libraries[0].userEntry(of: \(typed(w, "Work")))")
        case let .validate(e):
            lines.append("var validation: EntryValidationError? = nil")
            lines.append("do throws(EntryValidationError) { try \(typed(e, "UserLibraryEntry")).validate() } catch { validation = error }")
        }
        if isLast { lines += Self.expectation(command, expected.value) }
        return lines
    }

    private static func attributeName(_ command: GraphCommand) -> String {
        guard case let .set(_, slot, _) = command else { return "" }
        // The slot names one settable attribute per entity; the names are unique across entities' slots.
        let names = [["title"], ["pageCount", "format"], ["name"], ["readingStatus", "rating"]]
        return names.compactMap { $0.count > slot ? $0[slot] : nil }.first ?? ""
    }

    private static func literal(_ command: GraphCommand, slot: Int, variant: Int) -> String {
        let pools = [BooksEntities.settable(BooksEntities.work), BooksEntities.settable(BooksEntities.edition),
                     BooksEntities.settable(BooksEntities.author), BooksEntities.settable(BooksEntities.entry)]
        for pool in pools where slot < pool.count && variant < pool[slot].pool.count {
            return storeLiteral(pool[slot].pool[variant])
        }
        return ".null"
    }

    static func storeLiteral(_ value: SpecValue) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let v): return ".bool(\(v))"
        case .int(let v): return ".int(\(v))"
        case .string(let v): return ".string(\"\(v)\")"
        }
    }

    private static func refExpression(_ name: ObjectName) -> String { "refs[\(name.ref)]!.persistentModelID" }

    /// The `#expect` lines for the last step.
    static func expectation(_ command: GraphCommand, _ expected: GraphObservation) -> [String] {
        switch expected {
        case .trap(let code): return ["#expect(container.traps.first?.code == .\(code))"]
        default: break
        }
        var lines = ["#expect(container.traps.isEmpty)"]
        switch (command, expected) {
        case (_, .identifier(let kind)), (_, .entry(let kind, _, _)):
            let id = command.result.map { "refs[\($0.index)]!" } ?? {
                if case let .insert(ref, _) = command { return "refs[\(ref.index)]!" }
                if case let .holdID(ref) = command { return "refs[\(ref.index)]!" }
                return "refs.last!!"
            }()
            switch kind {
            case .none: lines.append("#expect(\(id).persistentModelID == nil)")
            case .temporary: lines.append("#expect(\(id).persistentModelID?.isTemporary == true)")
            case .permanent: lines.append("#expect(\(id).persistentModelID?.isTemporary == false)")
            }
            if case let .entry(_, inWork, inEdition) = expected, case let .owned(r, _, ed, _) = command {
                lines.append("#expect((refs[\(ed.index)] as! Edition).userLibraryEntries.contains { $0 === refs[\(r.index)]! } == \(inEdition))")
                _ = inWork
            } else if case let .entry(_, inWork, _) = expected, case let .wishlist(r, w, _) = command {
                lines.append("#expect((refs[\(w.index)] as! Work).userLibraryEntries.contains { $0 === refs[\(r.index)]! } == \(inWork))")
            }
        case (.relate(let ref, let rel, let target), .related(let n)), (.unrelate(let ref, let rel, let target), .related(let n)):
            lines.append("#expect(refs[\(target.index)]!.entity.relationships.indices.map { refs[\(target.index)]!.related($0).contains { $0 === refs[\(ref.index)]! } }.contains(true) == \(n > 0)) // inverse of relationship \(rel)")
        case (_, .deleted(let pending, _)):
            lines.append("#expect(contexts.map(\\.deletedModelsArray.count).contains(\(pending)))")
        case (.save, .saved): lines.append("#expect(saveCode == nil)")
        case (.save, .refused): lines += ["#expect(saveCode == -1)", "#expect(container.rows == rowsBefore)"]
        case (.save, .saveFailed(let code, _)): lines += ["#expect(saveCode == \(code))", "#expect(container.rows == rowsBefore)"]
        case (.lookup(let result, _, _, _), .found(_, _, _, let lifecycle)):
            lines.append("#expect(refs[\(result.index)]?.lifecycle == .\(lifecycle))")
        case (.lookup(let result, _, _, _), .notFound): lines.append("#expect(refs[\(result.index)] == nil)")
        case (.read, .value(let value)): lines.append("#expect(property == #\"\(value.description)\"#)")
        case (.read, .objects(let names)): lines.append("#expect(property == \"\(names.count)\")")
        case (.state, .state(_, let lifecycle, let deleted, _)): lines.append("#expect(state.0 == .\(lifecycle) && state.1 == \(deleted))")
        case (.fetchTitle, .objects(let names)): lines.append("#expect(fetched.count == \(names.count))")
        case (.acquire(let e, _), .acquired(let status, let inEdition)):
            lines.append("#expect((refs[\(e.index)] as! UserLibraryEntry).readingStatus.rawValue == \(status)) // in edition: \(inEdition)")
        case (.userEntry, .object(let name)):
            lines.append(name.map { "#expect(userEntry?.persistentModelID == \(refExpression($0)))" } ?? "#expect(userEntry == nil)")
        case (.validate, .validation(let error)):
            lines.append(error.map { "#expect(validation == .\($0))" } ?? "#expect(validation == nil)")
        default: break
        }
        return lines
    }
}
