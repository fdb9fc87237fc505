import CacheSpec
import GraphFuzzEngine
import PersistentCache

/// Swift Testing source that replays a case against the production API directly (an `async` test body).
extension CacheMachine: SwiftExportable {
    /// Reproductions drive the production `CacheCore` directly; the key type with equal descriptions
    /// and the value encoding come from the target and the specification.
    public static var swiftImports: [String] { ["Foundation", "PersistentCache", "CacheSpec", "CacheTarget"] }

    public func swiftSetup(_ config: CacheConfig) -> [String] {
        var lines = ["// \(config.trace)", "let clock = ManualClock()"]
        if config.realFileSystem {
            lines += [
                "let root = NSTemporaryDirectory() + \"graphfuzz-cache-repro-\" + UUID().uuidString",
                "defer { try? FileManager.default.removeItem(atPath: root) }",
                "let faults = FaultInjectingFileSystem(base: LocalFileSystem())",
            ]
        } else {
            lines += [
                "let root = \"/caches\"",
                "let disk = SimulatedFileSystem()",
                "let faults = FaultInjectingFileSystem(base: disk)",
            ]
        }
        lines += [
            "let environment = CacheEnvironment(cachesDirectory: root, fileSystem: faults, clock: clock,",
            "                                   cleanupInterval: \(config.cleanupInterval), memoryTier: { ManualMemoryTier() })",
            "let strategy = \(CacheMutants.strategyLiteral(for: mutant))",
            "var caches = [CacheCore<CacheTargetKey, Data>(identifier: \"main\", environment: environment, strategy: strategy)]",
            "func restart(clean: Bool) {",
            "    if clean { caches.forEach { $0.shutDown() } }",
            "    environment.dropMemoryTiers()",
        ]
        if !config.realFileSystem { lines.append("    disk.powerLoss()") }
        lines += [
            "    faults.recover()",
            "    faults.disarm()",
            "    caches = caches.map { CacheCore(identifier: $0.identifier, environment: environment, strategy: strategy) }",
            "}",
            "func path(_ identifier: String, _ key: Int) -> String {",
            "    environment.folder(for: identifier) + \"/\" + (caches[0].filePath(for: CacheTargetKey(key)) as NSString).lastPathComponent",
            "}",
        ]
        return lines
    }

    public func swiftLines(_ command: CacheCommand, _ step: TraceStep, predicted expected: Prediction<CacheObservation>, isLast: Bool) -> [String] {
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
            return [comment] + check("CacheTargetValue.observeRead(caches[\(cache.index)].value(for: CacheTargetKey(\(key))), key: \(key)) "
                                     + "{ faults.fileExists(at: path(caches[\(cache.index)].identifier, \(key))) }")
        case .set(let cache, let key, let spec):
            return [comment, "caches[\(cache.index)].set(\(value(spec, key)), for: CacheTargetKey(\(key)))"]
        case .contains(let cache, let key):
            return [comment] + check("CacheObservation.flag(caches[\(cache.index)].contains(CacheTargetKey(\(key))))")
        case .hasFile(let identifier, let key):
            return [comment] + check("CacheObservation.flag(faults.fileExists(at: path(\"\(identifier.rawValue)\", \(key))))")
        case .advance(let seconds):
            return [comment, "clock.advance(by: \(seconds))"]
        case .evict(let key):
            let action = key.map { "evict(caches[0].memoryKey(for: CacheTargetKey(\($0))))" } ?? "evictAll()"
            return [comment, "for identifier in [\"main\", \"other\"] { (environment.sharedMemoryTier(for: identifier) as? ManualMemoryTier)?.\(action) }"]
        case .faultySet(let cache, let key, let spec, let fault, let tornLength):
            var lines = [comment, "do {",
                         "    faults.arm(.\(fault.rawValue), tornLength: \(tornLength))",
                         "    caches[\(cache.index)].set(\(value(spec, key)), for: CacheTargetKey(\(key)))",
                         "    let interrupted = faults.isCrashed",
                         "    let fired = !faults.isArmed",
                         "    faults.disarm()"]
            if fault == .failedRename {
                lines += ["    _ = interrupted"] + check("CacheObservation.flag(fired)").map { "    " + $0 }
            } else if fault.crashes {
                lines += ["    _ = fired", "    restart(clean: false)"]
                    + check("CacheObservation.crashed(interrupted: interrupted, fileKept: faults.fileExists(at: path(caches[\(cache.index)].identifier, \(key))))")
                        .map { "    " + $0 }
            } else {
                lines += ["    _ = interrupted", "    _ = fired"]
            }
            return lines + ["}"]
        case .flipBit(let identifier, let key, let bit):
            return [comment] + check("CacheObservation.flag(faults.flipBit(in: path(\"\(identifier.rawValue)\", \(key)), bit: \(bit)))")
        case .restart(let clean):
            return [comment, "restart(clean: \(clean))"]
        case .open(_, let identifier):
            return [comment, "caches.append(CacheCore(identifier: \"\(identifier.rawValue)\", environment: environment, strategy: strategy))"]
        case .cleanUp(let cache):
            return [comment, "caches[\(cache.index)].cleanUp()"]
        case .removeFolder(let identifier):
            return [comment, "faults.removeFolderExternally(environment.folder(for: \"\(identifier.rawValue)\"))"]
        case .strayFiles(let identifier):
            let folder = "environment.folder(for: \"\(identifier.rawValue)\")"
            return [comment, "do {",
                    "    let names = (0..<\(CacheMachine.keyCount)).map { (path(\"\(identifier.rawValue)\", $0) as NSString).lastPathComponent }"]
                + check("CacheObservation.count(((try? faults.list(\(folder))) ?? []).filter { !names.contains($0.name) }.count)").map { "    " + $0 }
                + ["}"]
        case .burst(let key, let count, let tag):
            let values = CacheMachine.burstValues(count: count, tag: tag)
            let concurrent = values.sets.dropFirst().map(CacheReproduction.literal).joined(separator: ", ")
            var lines = [comment, "do {",
                         "    let actor = MemoryCache<CacheTargetKey, Data>(identifier: \"main\", environment: environment, strategy: strategy)",
                         "    await actor.set(\(value(values.sets[0], key)), for: CacheTargetKey(\(key)))",
                         "    await withTaskGroup(of: Void.self) { group in",
                         "        for spec in [\(concurrent)] {",
                         "            group.addTask { await actor.set(CacheTargetValue.bytes(spec, key: \(key)), for: CacheTargetKey(\(key))) }",
                         "            group.addTask { _ = await actor.value(for: CacheTargetKey(\(key))) }",
                         "        }",
                         "    }",
                         "    let after = CacheTargetValue.observe(await actor.value(for: CacheTargetKey(\(key))), key: \(key))"]
            if isLast {
                lines.append("    #expect([\(concurrent)].map { CacheObservation.value($0) }.contains(after))")
            } else {
                lines.append("    _ = after")
            }
            return lines + ["    await actor.set(\(value(values.final, key)), for: CacheTargetKey(\(key)))",
                            "    await actor.shutDown()", "}"]
        }
    }
}

enum CacheReproduction {
    static func literal(_ spec: CacheValueSpec) -> String { "CacheValueSpec(tag: \(spec.tag), length: \(spec.length))" }

    static func literal(_ observation: CacheObservation) -> String {
        switch observation {
        case .done: return ".done"
        case .value(let spec): return "CacheObservation.value(\(spec.map(literal) ?? "nil"))"
        case .damaged(let length): return "CacheObservation.damaged(length: \(length))"
        case .otherKeysValue(let spec, let key): return "CacheObservation.otherKeysValue(\(literal(spec)), key: \(key))"
        case .missKeepingFile: return "CacheObservation.missKeepingFile"
        case .flag(let flag): return "CacheObservation.flag(\(flag))"
        case .count(let count): return "CacheObservation.count(\(count))"
        case .crashed(let interrupted, let kept): return "CacheObservation.crashed(interrupted: \(interrupted), fileKept: \(kept))"
        case .burst(let allowed, let after):
            return "CacheObservation.burst(allGetsAllowed: \(allowed), after: \(after.map(literal) ?? "nil"))"
        }
    }
}
