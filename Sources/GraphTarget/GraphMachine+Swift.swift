import GraphFuzzEngine
import GraphSpec

/// Swift Testing source that replays a case against the production API directly (store, models, library),
/// ending in the `#expect` the specification predicts for the last step.
extension GraphMachine {
    public static var swiftImports: [String] { ["GraphStore", "BooksTracker", "GraphTarget"] }

    /// One line: the shared setup is `GraphExportFixture` (named `app`), so a test holds only its steps.
    public func swiftSetup(_ config: GraphConfig) -> [String] {
        let schema = config.schema == .local ? ".local" : ".cloudKit"
        let behavior = "StoreBehavior(newModelLink: .\(config.newModelLink.rawValue), temporaryIDAfterSave: .\(config.temporaryIDAfterSave == .resolves ? "resolves" : "unknown"), registeredAfterForeignDelete: .\(config.registeredAfterForeignDelete == .stale ? "stale" : "none"))"
        return ["// \(config.trace)", "let app = GraphExportFixture(configuration: \(schema), behavior: \(behavior))"]
    }

    /// Each step: its trace as a comment, then its production calls (in a `do { … }` block when it binds names).
    func swiftLines(_ command: GraphCommand, _ step: TraceStep, predicted expected: Prediction<GraphObservation>, isLast: Bool) -> [String] {
        var body: [String] = []
        /// The last step binds what its `#expect` reads; a trap's `#expect` reads only the container.
        let binds = isLast && !expected.value.isTrap
        func r(_ ref: Ref) -> String { "app.refs[\(ref.index)]!" }
        func typed(_ ref: Ref, _ type: String) -> String { "(app.refs[\(ref.index)] as! \(type))" }
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
            body.append("app.refs.append(\(make))")
            if context >= 0 { body.append("app.contexts[\(context)].insert(app.refs.last!!)") }
        case let .insert(ref, c): body.append("app.contexts[\(c)].insert(\(r(ref)))")
        case let .relate(ref, rel, target): body.append("\(r(ref)).relate(\(rel), to: \(r(target)))")
        case let .unrelate(ref, rel, target): body.append("\(r(ref)).unrelate(\(rel), from: \(r(target)))")
        case let .set(ref, slot, variant):
            var attributes: [String] = [], values: [String] = []
            for entity in 0..<4 {
                let settable = BooksEntities.settable(entity)
                guard slot < settable.count, variant < settable[slot].pool.count else { continue }
                attributes.append("\"\(BooksEntities.names[entity])\": \(settable[slot].attribute)")
                values.append("\"\(BooksEntities.names[entity])\": \(Self.storeLiteral(settable[slot].pool[variant]))")
            }
            body += ["let model = \(r(ref))",
                     "let attributes: [String: Int] = [\(attributes.joined(separator: ", "))]",
                     "let values: [String: AttributeValue] = [\(values.joined(separator: ", "))]",
                     "model.setValue(values[model.entity.name]!, at: attributes[model.entity.name]!)"]
        case let .delete(ref): body.append("\(r(ref)).modelContext?.delete(\(r(ref)))")
        case let .save(c):
            if binds {
                var failed = false
                if case .refused = expected.value { failed = true }
                if case .saveFailed = expected.value { failed = true }
                if failed { body.append("let rowsBefore = app.container.rows") }
                body += ["var saveCode: Int? = nil",
                         "do throws(LibrarySaveError) { try app.libraries[\(c)].save() } catch {",
                         "    if case .store(let failure) = error { saveCode = failure.code } else { saveCode = -1 }",
                         "}"]
            } else {
                body.append("try? app.libraries[\(c)].save()")
            }
        case let .rollback(c): body.append("app.contexts[\(c)].rollback()")
        case let .holdID(ref): body.append("app.held.append(\(r(ref)).persistentModelID)")
        case let .lookup(_, h, c, method):
            switch method {
            case .model: body.append("app.refs.append(app.contexts[\(c)].model(for: app.held[\(h)]!))")
            case .registered: body.append("app.refs.append(app.contexts[\(c)].registeredModel(for: app.held[\(h)]!))")
            case .fetch: body.append("app.refs.append(app.contexts[\(c)].fetch(FetchDescriptor(.identifier(app.held[\(h)]!))).first)")
            }
        case let .read(ref, p):
            body.append("\(binds ? "let property =" : "_ =") \(r(ref)).entity.attributes.count > \(p) ? \"\\(\(r(ref)).value(at: \(p)))\" : \"\\(\(r(ref)).related(\(p) - \(r(ref)).entity.attributes.count).count)\"")
        case let .state(ref): body.append("\(binds ? "let state =" : "_ =") (\(r(ref)).lifecycle, \(r(ref)).isDeleted)")
        case let .fetchTitle(c, v):
            body.append("\(binds ? "let fetched =" : "_ =") app.contexts[\(c)].fetch(FetchDescriptor(.attribute(entity: \"Work\", attribute: \"title\", equals: .string(\(BooksEntities.titles[v])))))")
        case let .wishlist(_, w, c): body.append("app.refs.append(app.libraries[\(c)].createWishlistEntry(for: \(typed(w, "Work"))))")
        case let .owned(_, w, ed, c):
            body.append("app.refs.append(app.libraries[\(c)].createOwnedEntry(for: \(typed(w, "Work")), edition: \(typed(ed, "Edition"))))")
        case let .acquire(e, ed): body.append("app.libraries[0].acquire(\(typed(e, "UserLibraryEntry")), edition: \(typed(ed, "Edition")))")
        case let .userEntry(w): body.append("\(binds ? "let userEntry =" : "_ =") app.libraries[0].userEntry(of: \(typed(w, "Work")))")
        case .relaunch, .killedSave:
            let relaunch = ["app.container = try app.container.relaunch()",
                            "app.contexts = [ModelContext(app.container), ModelContext(app.container)]",
                            "app.libraries = app.contexts.map { Library(context: $0, policy: LibraryPolicy(configuration: app.configuration)) }"]
            if case let .killedSave(c, point) = command {
                // As the harness runs it: a save that trapped ended the app before the kill, so no relaunch follows
                // and the expectation reads the container that trapped.
                body += ["app.container.writeInterruption = WriteInterruption(afterOperations: app.container.writeOperations + \(point))",
                         "try? app.libraries[\(c)].save()",
                         "if app.container.traps.isEmpty {"] + relaunch.map { "    " + $0 } + ["}"]
            } else {
                body += relaunch
            }
        case let .validate(e):
            if binds {
                body.append("var validation: EntryValidationError? = nil")
                body.append("do throws(EntryValidationError) { try \(typed(e, "UserLibraryEntry")).validate() } catch { validation = error }")
            } else {
                body.append("try? \(typed(e, "UserLibraryEntry")).validate()")
            }
        }
        if isLast { body += Self.expectation(command, expected.value) }
        // A step that binds local names is a `do { … }` block, so they never clash with another step's.
        guard body.contains(where: { $0.hasPrefix("let ") || $0.hasPrefix("var ") }) else { return ["// \(step)"] + body }
        return ["// \(step)", "do {"] + body.map { "    " + $0 } + ["}"]
    }

    static func storeLiteral(_ value: SpecValue) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let v): return ".bool(\(v))"
        case .int(let v): return ".int(\(v))"
        case .string(let v): return ".string(\"\(v)\")"
        case .strings(let v): return ".strings([" + v.map { "\"\($0)\"" }.joined(separator: ", ") + "])"
        }
    }

    private static func refExpression(_ name: ObjectName) -> String { "app.refs[\(name.ref)]!.persistentModelID" }

    /// The `#expect` lines for the last step.
    static func expectation(_ command: GraphCommand, _ expected: GraphObservation) -> [String] {
        switch expected {
        case .trap(let code): return ["#expect(app.container.traps.first?.code == .\(code))"]
        default: break
        }
        var lines = ["#expect(app.container.traps.isEmpty)"]
        switch (command, expected) {
        case (_, .identifier(let kind)), (_, .entry(let kind, _, _)):
            let id = command.result.map { "app.refs[\($0.index)]!" } ?? {
                if case let .insert(ref, _) = command { return "app.refs[\(ref.index)]!" }
                if case let .holdID(ref) = command { return "app.refs[\(ref.index)]!" }
                return "app.refs.last!!"
            }()
            switch kind {
            case .none: lines.append("#expect(\(id).persistentModelID == nil)")
            case .temporary: lines.append("#expect(\(id).persistentModelID?.isTemporary == true)")
            case .permanent: lines.append("#expect(\(id).persistentModelID?.isTemporary == false)")
            }
            if case let .entry(_, inWork, inEdition) = expected, case let .owned(r, _, ed, _) = command {
                lines.append("#expect((app.refs[\(ed.index)] as! Edition).userLibraryEntries.contains { $0 === app.refs[\(r.index)]! } == \(inEdition))")
                _ = inWork
            } else if case let .entry(_, inWork, _) = expected, case let .wishlist(r, w, _) = command {
                lines.append("#expect((app.refs[\(w.index)] as! Work).userLibraryEntries.contains { $0 === app.refs[\(r.index)]! } == \(inWork))")
            }
        case (.relate(let ref, let rel, let target), .related(let n)), (.unrelate(let ref, let rel, let target), .related(let n)):
            lines.append("#expect(app.refs[\(target.index)]!.entity.relationships.indices.map { app.refs[\(target.index)]!.related($0).contains { $0 === app.refs[\(ref.index)]! } }.contains(true) == \(n > 0)) // inverse of relationship \(rel)")
        case (_, .deleted(let pending, _)):
            lines.append("#expect(app.contexts.map(\\.deletedModelsArray.count).contains(\(pending)))")
        case (.save, .saved): lines.append("#expect(saveCode == nil)")
        case (.save, .refused): lines += ["#expect(saveCode == -1)", "#expect(app.container.rows == rowsBefore)"]
        case (.save, .saveFailed(let code, _)): lines += ["#expect(saveCode == \(code))", "#expect(app.container.rows == rowsBefore)"]
        case (.lookup(let result, _, _, _), .found(_, _, _, let lifecycle)):
            lines.append("#expect(app.refs[\(result.index)]?.lifecycle == .\(lifecycle))")
        case (.lookup(let result, _, _, _), .notFound): lines.append("#expect(app.refs[\(result.index)] == nil)")
        case (.read, .value(let value)): lines.append("#expect(property == #\"\(value.description)\"#)")
        case (.read, .objects(let names)): lines.append("#expect(property == \"\(names.count)\")")
        case (.state, .state(_, let lifecycle, let deleted, _)): lines.append("#expect(state.0 == .\(lifecycle) && state.1 == \(deleted))")
        case (.fetchTitle, .objects(let names)): lines.append("#expect(fetched.count == \(names.count))")
        case (.acquire(let e, _), .acquired(let status, let inEdition)):
            lines.append("#expect((app.refs[\(e.index)] as! UserLibraryEntry).readingStatus.rawValue == \(status)) // in edition: \(inEdition)")
        case (.userEntry, .object(let name)):
            lines.append(name.map { "#expect(userEntry?.persistentModelID == \(refExpression($0)))" } ?? "#expect(userEntry == nil)")
        case (.validate, .validation(let error)):
            lines.append(error.map { "#expect(validation == .\($0))" } ?? "#expect(validation == nil)")
        default: break
        }
        return lines
    }
}
