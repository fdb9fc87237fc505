import BooksSpec
import GraphFuzzEngine
import GraphSpec

/// Swift Testing source that replays a case against the production API directly (store, models, library),
/// ending in the `#expect` the specification predicts for the last step.
extension GraphMachine {
    public static var swiftImports: [String] { ["GraphStore", "BooksTracker", "GraphTarget"] }

    /// One line: the shared setup is `GraphExportFixture` (named `app`), so a test holds only its steps.
    public func swiftSetup(_ config: GraphConfig) -> [String] {
        let schema = config.schema == .local ? ".local" : ".cloudKit"
        let parameters = config.parameters
        let behavior = "StoreBehavior(newModelLink: .\(parameters.newModelLink.rawValue), temporaryIDAfterSave: .\(parameters.temporaryIDAfterSave.rawValue), registeredAfterForeignDelete: .\(parameters.registeredAfterForeignDelete.rawValue))"
        return ["// \(config.trace)", "let app = GraphExportFixture(configuration: \(schema), behavior: \(behavior))"]
    }

    /// A store step: its trace as a comment, then its production calls (in a `do { … }` block when it binds names).
    func swiftLines(_ command: GraphCommand, _ expected: Prediction<GraphObservation>, _ step: TraceStep, _ isLast: Bool) -> [String] {
        var body: [String] = []
        /// The last step binds what its `#expect` reads; a trap's `#expect` reads only the container.
        let binds = isLast && !expected.value.isTrap
        func r(_ ref: Ref) -> String { "app.refs[\(ref.index)]!" }
        let schema = BooksEntities.schema(.local)
        switch command {
        case let .create(_, entity, variant, context, _):
            let value = schema.createPools[entity]!.values[variant]
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
            for entity in BooksEntities.names.indices {
                let settable = schema.settable[entity]
                guard slot < settable.count, variant < settable[slot].values.count else { continue }
                attributes.append("\"\(BooksEntities.names[entity])\": \(settable[slot].attribute)")
                values.append("\"\(BooksEntities.names[entity])\": \(Self.storeLiteral(settable[slot].values[variant]))")
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
            case .fetch: body.append("app.refs.append(app.contexts[\(c)].fetch(.identifier(app.held[\(h)]!)).first)")
            }
        case let .read(ref, p):
            body.append("\(binds ? "let property =" : "_ =") \(r(ref)).entity.attributes.count > \(p) ? \"\\(\(r(ref)).value(at: \(p)))\" : \"\\(\(r(ref)).related(\(p) - \(r(ref)).entity.attributes.count).count)\"")
        case let .state(ref): body.append("\(binds ? "let state =" : "_ =") (\(r(ref)).lifecycle, \(r(ref)).isDeleted)")
        case let .fetch(c, _, _, value):
            body.append("\(binds ? "let fetched =" : "_ =") app.contexts[\(c)].fetch(.attribute(entity: \"Work\", attribute: \"title\", equals: .string(\(value))))")
        case .relaunch, .killedSave:
            let relaunch = ["app.container = try app.container.relaunch()",
                            "app.contexts = [ModelContext(app.container), ModelContext(app.container)]",
                            "app.libraries = app.contexts.map { Library(context: $0, policy: LibraryPolicy(configuration: app.configuration)) }"]
            if case let .killedSave(c, back) = command {
                // As the harness runs it: a save that trapped ended the app before the kill, so no relaunch follows
                // and the expectation reads the container that trapped.
                body += ["app.container.writeInterruption = WriteInterruption(beforeEnd: \(back))",
                         "try? app.libraries[\(c)].save()",
                         "if app.container.traps.isEmpty {"] + relaunch.map { "    " + $0 } + ["}"]
            } else {
                body += relaunch
            }
        }
        if isLast { body += Self.expectation(command, expected.value) }
        return Self.block(step, body)
    }

    /// A domain operation's lines (as a store step's).
    func swiftLines(_ command: BooksCommand, _ expected: Prediction<BooksObservation>, _ step: TraceStep, _ isLast: Bool) -> [String] {
        var body: [String] = []
        let binds = isLast && !expected.value.isTrap
        func typed(_ ref: Ref, _ type: String) -> String { "(app.refs[\(ref.index)] as! \(type))" }
        switch command {
        case let .wishlist(_, w, c): body.append("app.refs.append(app.libraries[\(c)].createWishlistEntry(for: \(typed(w, "Work"))))")
        case let .owned(_, w, ed, c):
            body.append("app.refs.append(app.libraries[\(c)].createOwnedEntry(for: \(typed(w, "Work")), edition: \(typed(ed, "Edition"))))")
        case let .acquire(e, ed): body.append("app.libraries[0].acquire(\(typed(e, "UserLibraryEntry")), edition: \(typed(ed, "Edition")))")
        case let .userEntry(w): body.append("\(binds ? "let userEntry =" : "_ =") app.libraries[0].userEntry(of: \(typed(w, "Work")))")
        case let .validate(e):
            if binds {
                body.append("var validation: EntryValidationError? = nil")
                body.append("do throws(EntryValidationError) { try \(typed(e, "UserLibraryEntry")).validate() } catch { validation = error }")
            } else {
                body.append("try? \(typed(e, "UserLibraryEntry")).validate()")
            }
        }
        if isLast { body += Self.expectation(command, expected.value) }
        return Self.block(step, body)
    }

    /// A step's lines under its trace; a step that binds local names is a `do { … }` block, so they never clash
    /// with another step's.
    static func block(_ step: TraceStep, _ body: [String]) -> [String] {
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

    /// The `#expect` lines for the last store step.
    static func expectation(_ command: GraphCommand, _ expected: GraphObservation) -> [String] {
        if case .trap(let code) = expected { return ["#expect(app.container.traps.first?.code == .\(code))"] }
        var lines = ["#expect(app.container.traps.isEmpty)"]
        switch (command, expected) {
        case (_, .identifier(let kind)), (_, .inserted(let kind, _)):
            let id: String
            switch command {
            case let .create(result, _, _, _, _): id = "app.refs[\(result.index)]!"
            case let .insert(ref, _), let .holdID(ref): id = "app.refs[\(ref.index)]!"
            default: id = "app.refs.last!!"
            }
            lines.append(identifierExpectation(id, kind))
        case (.relate(let ref, let rel, let target), .related(let n)), (.unrelate(let ref, let rel, let target), .related(let n)):
            lines.append("#expect(app.refs[\(target.index)]!.entity.relationships.indices.map { app.refs[\(target.index)]!.related($0).contains { $0 === app.refs[\(ref.index)]! } }.contains(true) == \(n > 0)) // inverse of relationship \(rel)")
        case (_, .deleted(let pending, _)):
            lines.append("#expect(app.contexts.map(\\.deletedModelsArray.count).contains(\(pending)))")
        case (.save, .saved): lines.append("#expect(saveCode == nil)")
        case (.save, .refused): lines += ["#expect(saveCode == -1)", "#expect(app.container.rows == rowsBefore)"]
        case (.save, .saveFailed(let code, _, _)): lines += ["#expect(saveCode == \(code))", "#expect(app.container.rows == rowsBefore)"]
        case (.lookup(let result, _, _, _), .found(_, _, _, let lifecycle)):
            lines.append("#expect(app.refs[\(result.index)]?.lifecycle == .\(lifecycle))")
        case (.lookup(let result, _, _, _), .notFound): lines.append("#expect(app.refs[\(result.index)] == nil)")
        case (.read, .value(let value)): lines.append("#expect(property == #\"\(value.description)\"#)")
        case (.read, .objects(let names)): lines.append("#expect(property == \"\(names.count)\")")
        case (.state, .state(_, let lifecycle, let deleted, _)): lines.append("#expect(state.0 == .\(lifecycle) && state.1 == \(deleted))")
        case (.fetch, .objects(let names)): lines.append("#expect(fetched.count == \(names.count))")
        default: break
        }
        return lines
    }

    /// The `#expect` lines for the last domain operation.
    static func expectation(_ command: BooksCommand, _ expected: BooksObservation) -> [String] {
        if case .trap(let code) = expected { return ["#expect(app.container.traps.first?.code == .\(code))"] }
        var lines = ["#expect(app.container.traps.isEmpty)"]
        switch (command, expected) {
        case let (.wishlist(r, w, _), .entry(kind, inWork, _)):
            lines.append(identifierExpectation("app.refs[\(r.index)]!", kind))
            lines.append("#expect((app.refs[\(w.index)] as! Work).userLibraryEntries.contains { $0 === app.refs[\(r.index)]! } == \(inWork))")
        case let (.owned(r, _, ed, _), .entry(kind, _, inEdition)):
            lines.append(identifierExpectation("app.refs[\(r.index)]!", kind))
            lines.append("#expect((app.refs[\(ed.index)] as! Edition).userLibraryEntries.contains { $0 === app.refs[\(r.index)]! } == \(inEdition))")
        case (.acquire(let e, _), .acquired(let status, let inEdition)):
            lines.append("#expect((app.refs[\(e.index)] as! UserLibraryEntry).readingStatus.rawValue == \(status)) // in edition: \(inEdition)")
        case (.userEntry, .object(let name)):
            lines.append(name.map { "#expect(userEntry?.persistentModelID == app.refs[\($0.ref)]!.persistentModelID)" } ?? "#expect(userEntry == nil)")
        case (.validate, .validation(let error)):
            lines.append(error.map { "#expect(validation == .\($0))" } ?? "#expect(validation == nil)")
        default: break
        }
        return lines
    }

    /// The `#expect` of a model's identifier kind.
    static func identifierExpectation(_ model: String, _ kind: IDKind) -> String {
        switch kind {
        case .none: return "#expect(\(model).persistentModelID == nil)"
        case .temporary: return "#expect(\(model).persistentModelID?.isTemporary == true)"
        case .permanent: return "#expect(\(model).persistentModelID?.isTemporary == false)"
        }
    }
}
