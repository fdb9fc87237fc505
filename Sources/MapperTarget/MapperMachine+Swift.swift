import BooksTracker
import GraphFuzzEngine
import MapperSpec

/// Swift Testing source reproducing a case against the production API directly.
extension MapperMachine: SwiftExportable {
    public static var swiftImports: [String] { ["GraphStore", "BooksTracker", "MapperTarget"] }

    /// One line: the shared setup is `MapperExportFixture` (named `app`), so a test holds only its steps.
    public func swiftSetup(_ config: MapperConfig) -> [String] {
        let behavior = "StoreBehavior(newModelLink: .\(config.newModelLink.rawValue), temporaryIDAfterSave: .\(config.temporaryIDAfterSave.rawValue), "
            + "registeredAfterForeignDelete: .\(config.registeredAfterForeignDelete.rawValue))"
        guard strategy != .shipped else { return ["let app = MapperExportFixture(behavior: \(behavior))"] }
        return ["let app = MapperExportFixture(behavior: \(behavior), mapper: DTOMapper(strategy: \(Self.swift(strategy))))  // DTOMapper() passes"]
    }

    func swiftLines(_ command: MapperCommand, _ expected: Prediction<MapperObservation>, _ step: TraceStep, _ isLast: Bool) -> [String] {
        var lines: [String]
        switch command {
        case .map(let response, let result):
            lines = ["app.works = app.mapper.mapToWorks(\(Self.swift(response)), context: app.context)"]
            guard case .mapped(let mapped, _) = expected.value else { return lines }
            let firstNew = result?.index ?? Int.max
            if isLast { return lines + Self.expectations(mapped, firstNew: firstNew) }
            for (position, work) in mapped.enumerated() where work.ref >= firstNew {
                lines.append("app.refs.append(app.works[\(position)])  // \(Ref(work.ref))")
            }
            return lines
        case .enrich(let response):
            // Alone, an enrichment maps as a map step does; the works it creates are named in the order it returns them.
            lines = ["app.works = app.mapper.mapToWorks(\(Self.swift(response)), context: app.context)"]
            guard case .mapped(let mapped, _) = expected.value, isLast else {
                return lines + ["for work in app.works where !app.refs.contains(where: { $0 === work }) { app.refs.append(work) }"]
            }
            return lines + Self.expectations(mapped, firstNew: Int.max)
        case .mapMalformed(let response, let missing):
            // `.init` is `Data` (the parameter's type), so the test needs no Foundation import.
            let body = MalformedBody.text(MapperSystem.dto(response), missing: missing)
            lines = [
                "do {  // lacks \(missing)",
                "    let before = (app.context.insertedModelsArray.count, app.context.changedModelsArray.count)",
                "    #expect(throws: DTODecodingError.self) { try app.mapper.mapToWorks(json: .init(\(Self.quoted(body)).utf8), context: app.context) }",
                "    #expect(app.context.insertedModelsArray.count == before.0 && app.context.changedModelsArray.count == before.1)",
                "}",
            ]
        case .save: lines = ["try app.context.save()"]
        case .rollback: lines = ["app.context.rollback()"]
        case .newContext: lines = ["app.context = ModelContext(app.container)"]
        case .clearCache: lines = ["app.mapper.clearCache()"]
        case .relaunch: lines = ["app.container = try app.container.relaunch()", "app.context = ModelContext(app.container)"]
        case .deleteWork(let ref, let evict):
            lines = ["if let work = DTOMapper.liveWork(app.refs[\(ref.index)].persistentModelID!, in: app.context) {  // \(ref)"]
            if evict { lines.append("    app.mapper.removeWorkFromCache(work)") }
            lines += ["    app.context.delete(work)", "}"]
        case .deleteElsewhere(let ref):
            lines = [
                "do {",
                "    let other = ModelContext(app.container)",
                "    if let work = other.fetch(.identifier(app.refs[\(ref.index)].persistentModelID!)).first { other.delete(work) }  // \(ref)",
                "    try other.save()",
                "}",
            ]
        }
        if isLast { lines.append("#expect(app.container.traps.isEmpty)") }
        return lines
    }

    private static func expectations(_ mapped: [MappedWork], firstNew: Int) -> [String] {
        var lines = ["#expect(app.container.traps.isEmpty)", "try #require(app.works.count == \(mapped.count))"]
        for (position, item) in mapped.enumerated() {
            let work = "app.works[\(position)]"
            if item.ref < firstNew {
                lines.append("#expect(\(work).persistentModelID == app.refs[\(item.ref)].persistentModelID)  // \(Ref(item.ref))")
            }
            let isbns = item.work.editionISBNs.map { $0.map { "\"\($0)\"" } ?? "nil" }.joined(separator: ", ")
            // The editions' ISBN, title, publisher and page count as stored are compared when predicted (M5, M14).
            let details = item.work.editionDetails.isEmpty ? "" : ", withEditionDetails: true"
            let detailsField = item.work.editionDetails.isEmpty ? "" : ", editionDetails: \(list(item.work.editionDetails))"
            lines += [
                "#expect(\(work).modelContext === app.context && !\(work).isDeleted)",
                "#expect(StoredWork(\(work)\(details)) == StoredWork(title: \(quoted(item.work.title)), subjectTags: \(list(item.work.tags)), "
                    + "primaryProvider: \(item.work.provider.map(quoted) ?? "nil"), googleBooksVolumeIDs: \(list(item.work.volumeIDs)), "
                    + "editionISBNs: [\(isbns)], authors: \(list(item.work.authors))\(detailsField)))",
            ]
        }
        return lines
    }

    static func swift(_ response: SpecResponse) -> String {
        let data = MapperSystem.dto(response)
        let works = data.works.map { work in
            "WorkDTO(id: \(quoted(work.id)), title: \(quoted(work.title)), subjectTags: \(list(work.subjectTags)), synthetic: \(work.synthetic), primaryProvider: \(work.primaryProvider.map(quoted) ?? "nil"), googleBooksVolumeIDs: \(list(work.googleBooksVolumeIDs)))"
        }
        let editions = data.editions.map { edition in
            "EditionDTO(isbn: \(edition.isbn.map(quoted) ?? "nil"), isbns: \(list(edition.isbns)), title: \(edition.title.map(quoted) ?? "nil"), publisher: \(edition.publisher.map(quoted) ?? "nil"), pageCount: \(edition.pageCount.map(String.init) ?? "nil"), workId: \(edition.workId.map(quoted) ?? "nil"))"
        }
        let authors = data.authors.map { "AuthorDTO(name: \(quoted($0.name)), workIds: \(list($0.workIds)))" }
        return "SearchResponseData(works: [\(works.joined(separator: ", "))], editions: [\(editions.joined(separator: ", "))], authors: [\(authors.joined(separator: ", "))])"
    }

    static func swift(_ strategy: MapperStrategy) -> String {
        strategy.swiftLiteral("MapperStrategy")
    }

    private static func quoted(_ text: String) -> String { TraceValue.string(text).description }
    private static func list(_ texts: [String]) -> String { "[" + texts.map(quoted).joined(separator: ", ") + "]" }
}
