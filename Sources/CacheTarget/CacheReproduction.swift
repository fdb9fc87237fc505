import CacheSpec
import GraphFuzzEngine
import PersistentCache

/// Swift Testing source that replays a case against the production API directly (an `async` test body).
extension CacheMachine: SwiftExportable {
    /// Reproductions drive the production `CacheCore` directly; the key type with equal descriptions
    /// and the value encoding come from the target and the specification.
    public static var swiftImports: [String] { ["Foundation", "PersistentCache", "CacheSpec", "CacheTarget"] }

    /// One line: the shared setup is `CacheExportFixture` (named `app`), so a test holds only its steps.
    public func swiftSetup(_ config: CacheConfig) -> [String] {
        ["// \(config.trace)",
         "let app = CacheExportFixture(realFileSystem: \(config.realFileSystem), cleanupInterval: \(config.cleanupInterval), "
            + "strategy: \(strategy.swiftLiteral("CacheStrategy")))"]
    }

    func swiftLines(_ command: CacheCommand, _ expected: Prediction<CacheObservation>, _ step: TraceStep, _ isLast: Bool) -> [String] {
        let comment = "// \(command.trace)"
        func check(_ observed: String) -> [String] {
            guard isLast else { return ["_ = \(observed)"] }
            let allowed = ([expected.value] + expected.alternatives).map(CacheReproduction.literal)
            if allowed.count == 1 { return ["#expect(\(observed) == \(allowed[0]))"] }
            return ["#expect([\(allowed.joined(separator: ", "))].contains(\(observed)))"]
        }
        func value(_ spec: CacheValueSpec, _ key: Int) -> String { "CacheTargetValue.bytes(\(CacheReproduction.literal(spec)), key: \(key))" }
        switch command {
        case .get(let cache, let key):
            return [comment] + check("CacheTargetValue.observeRead(app.caches[\(cache.index)].value(for: CacheTargetKey(\(key))), key: \(key)) "
                                     + "{ app.faults.fileExists(at: app.path(app.caches[\(cache.index)].identifier, \(key))) }")
        case .set(let cache, let key, let spec):
            let set = "app.caches[\(cache.index)].set(\(value(spec, key)), for: CacheTargetKey(\(key)))"
            return [comment, set] + (isLast ? check("CacheObservation.folders([app.folder(app.caches[\(cache.index)].identifier)])") : [])
        case .contains(let cache, let key):
            return [comment] + check("CacheObservation.flag(app.caches[\(cache.index)].contains(CacheTargetKey(\(key))))")
        case .hasFile(let identifier, let key):
            return [comment] + check("CacheObservation.flag(app.faults.fileExists(at: app.path(\"\(identifier.rawValue)\", \(key))))")
        case .advance(let seconds):
            return [comment, "app.clock.advance(by: \(seconds))"]
        case .evict(let key):
            let action = key.map { "evict(app.caches[0].memoryKey(for: CacheTargetKey(\($0))))" } ?? "evictAll()"
            return [comment, "for identifier in [\"main\", \"other\"] { (app.environment.sharedMemoryTier(for: identifier) as? ManualMemoryTier)?.\(action) }"]
        case .faultySet(let cache, let key, let spec, let fault, let tornLength):
            var lines = [comment, "do {",
                         "    app.faults.arm(.\(fault.rawValue), tornLength: \(tornLength))",
                         "    app.caches[\(cache.index)].set(\(value(spec, key)), for: CacheTargetKey(\(key)))",
                         "    let interrupted = app.faults.isCrashed",
                         "    let fired = !app.faults.isArmed",
                         "    app.faults.disarm()"]
            if fault.crashes {
                lines += ["    _ = fired", "    app.restart(clean: false)"]
                    + check("CacheObservation.crashed(interrupted: interrupted, file: app.file(\(cache.index), \(key)), folders: app.instanceFolders())")
                        .map { "    " + $0 }
            } else {
                let reached = fault == .failedRename ? "fired" : "nil"
                lines += ["    _ = interrupted"] + (fault == .failedRename ? [] : ["    _ = fired"])
                    + check("CacheObservation.failedWrite(renameReached: \(reached), app.folder(app.caches[\(cache.index)].identifier))").map { "    " + $0 }
            }
            return lines + ["}"]
        case .flipBit(let identifier, let key, let bit):
            return [comment] + check("CacheObservation.flag(app.faults.flipBit(in: app.path(\"\(identifier.rawValue)\", \(key)), bit: \(bit)))")
        case .restart(let clean):
            return [comment, "app.restart(clean: \(clean))"] + (isLast ? check("CacheObservation.folders(app.instanceFolders())") : [])
        case .open(_, let identifier):
            return [comment, "app.caches.append(CacheCore(identifier: \"\(identifier.rawValue)\", environment: app.environment, strategy: app.strategy))"]
                + (isLast ? check("CacheObservation.folders([app.folder(\"\(identifier.rawValue)\")])") : [])
        case .cleanUp(let cache):
            return [comment, "app.caches[\(cache.index)].cleanUp()"]
                + (isLast ? check("CacheObservation.folders([app.folder(app.caches[\(cache.index)].identifier)])") : [])
        case .removeFolder(let identifier):
            return [comment, "app.faults.removeFolderExternally(app.environment.folder(for: \"\(identifier.rawValue)\"))"]
        case .strayFiles(let identifier):
            let folder = "app.environment.folder(for: \"\(identifier.rawValue)\")"
            return [comment, "do {",
                    "    let names = (0..<\(CacheMachine.keyCount)).map { (app.path(\"\(identifier.rawValue)\", $0) as NSString).lastPathComponent }"]
                + check("CacheObservation.count(((try? app.faults.list(\(folder))) ?? []).filter { !names.contains($0.name) }.count)").map { "    " + $0 }
                + ["}"]
        case .actorGet(let cache, let key):
            return [comment] + check("CacheTargetValue.observeRead(await MemoryCache(sharing: SharedCore(app.caches[\(cache.index)])).value(for: CacheTargetKey(\(key))), key: \(key)) "
                                     + "{ app.faults.fileExists(at: app.path(app.caches[\(cache.index)].identifier, \(key))) }")
        case .actorSet(let cache, let key, let spec):
            let set = "await MemoryCache(sharing: SharedCore(app.caches[\(cache.index)])).set(\(value(spec, key)), for: CacheTargetKey(\(key)))"
            return [comment, set] + (isLast ? check("CacheObservation.folders([app.folder(app.caches[\(cache.index)].identifier)])") : [])
        }
    }
}

enum CacheReproduction {
    static func literal(_ spec: CacheValueSpec) -> String { "CacheValueSpec(tag: \(spec.tag), length: \(spec.length))" }

    static func literal(_ folder: CacheFolder) -> String {
        "CacheFolder(identifier: \(folder.identifier), files: \(folder.files), strays: \(folder.strays))"
    }

    static func literal(_ file: CacheFile) -> String {
        switch file {
        case .none: return "CacheFile.none"
        case .value(let spec): return "CacheFile.value(\(literal(spec)))"
        case .damaged: return "CacheFile.damaged"
        case .otherKeys(let spec, let key): return "CacheFile.otherKeys(\(spec.map(literal) ?? "nil"), key: \(key.map(String.init) ?? "nil"))"
        }
    }

    static func literal(_ observation: CacheObservation) -> String {
        switch observation {
        case .done: return ".done"
        case .value(let spec): return "CacheObservation.value(\(spec.map(literal) ?? "nil"))"
        case .damaged(let length): return "CacheObservation.damaged(length: \(length))"
        case .otherKeysValue(let spec, let key): return "CacheObservation.otherKeysValue(\(literal(spec)), key: \(key))"
        case .missKeepingFile: return "CacheObservation.missKeepingFile"
        case .flag(let flag): return "CacheObservation.flag(\(flag))"
        case .count(let count): return "CacheObservation.count(\(count))"
        case .folders(let folders): return "CacheObservation.folders([\(folders.map(literal).joined(separator: ", "))])"
        case .failedWrite(let reached, let folder):
            return "CacheObservation.failedWrite(renameReached: \(reached.map(String.init) ?? "nil"), \(literal(folder)))"
        case .crashed(let interrupted, let file, let folders):
            return "CacheObservation.crashed(interrupted: \(interrupted), file: \(literal(file)), folders: [\(folders.map(literal).joined(separator: ", "))])"
        }
    }
}
