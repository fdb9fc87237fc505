import CacheSpec
import GraphFuzzEngine
import PersistentCache

/// The identifiers of the target's two folders.
public enum CacheIdentifier: String, CaseIterable, Sendable {
    case main, other

    public var index: Int { self == .main ? 0 : 1 }
    public init(index: Int) { self = index == 0 ? .main : .other }
}

/// A step of the `cache` target. Instances are `v1` (always open), `v2`, …; keys are 0...3.
public enum CacheCommand: Sendable, Equatable {
    case get(cache: Ref, key: Int)
    case set(cache: Ref, key: Int, value: CacheValueSpec)
    case contains(cache: Ref, key: Int)
    case hasFile(identifier: CacheIdentifier, key: Int)
    case advance(seconds: Int)
    case evict(key: Int?)
    case faultySet(cache: Ref, key: Int, value: CacheValueSpec, fault: FileSystemFault, tornLength: Int)
    case flipBit(identifier: CacheIdentifier, key: Int, bit: Int)
    case restart(clean: Bool)
    case open(result: Ref, identifier: CacheIdentifier)
    case cleanUp(cache: Ref)
    case removeFolder(identifier: CacheIdentifier)
    case strayFiles(identifier: CacheIdentifier)
    /// A get and a set through the instance's `MemoryCache` actor: steps that may run concurrently.
    case actorGet(cache: Ref, key: Int)
    case actorSet(cache: Ref, key: Int, value: CacheValueSpec)
}

extension FileSystemFault {
    /// Whether the fault crashes the process (a restart follows).
    public var crashes: Bool { self == .tornWrite || self == .crashBeforeRename }
    /// Whether the fault keeps a prefix of the write (its length is part of the step).
    public var keepsPrefix: Bool { self == .tornWrite || self == .partialWrite || self == .fullDiskMidFile }
}

extension CacheCommand: TraceCodable {
    public var trace: TraceStep {
        switch self {
        case .get(let cache, let key):
            return TraceStep("get", [.init("cache", .ref(cache)), .init("key", .int(key))])
        case .set(let cache, let key, let value):
            return TraceStep("set", [.init("cache", .ref(cache)), .init("key", .int(key)), .init("tag", .int(value.tag)), .init("length", .int(value.length))])
        case .contains(let cache, let key):
            return TraceStep("contains", [.init("cache", .ref(cache)), .init("key", .int(key))])
        case .hasFile(let identifier, let key):
            return TraceStep("hasFile", [.init("identifier", .string(identifier.rawValue)), .init("key", .int(key))])
        case .advance(let seconds):
            return TraceStep("advance", [.init("seconds", .int(seconds))])
        case .evict(let key):
            return TraceStep("evict", [.init("key", key.map { .int($0) } ?? .null)])
        case .faultySet(let cache, let key, let value, let fault, let tornLength):
            return TraceStep("faultySet", [.init("cache", .ref(cache)), .init("key", .int(key)), .init("tag", .int(value.tag)),
                                           .init("length", .int(value.length)), .init("fault", .string(fault.rawValue)),
                                           .init("tornLength", .int(tornLength))])
        case .flipBit(let identifier, let key, let bit):
            return TraceStep("flipBit", [.init("identifier", .string(identifier.rawValue)), .init("key", .int(key)), .init("bit", .int(bit))])
        case .restart(let clean):
            return TraceStep("restart", [.init("clean", .bool(clean))])
        case .open(let result, let identifier):
            return TraceStep("open", result: result, [.init("identifier", .string(identifier.rawValue))])
        case .cleanUp(let cache):
            return TraceStep("cleanUp", [.init("cache", .ref(cache))])
        case .removeFolder(let identifier):
            return TraceStep("removeFolder", [.init("identifier", .string(identifier.rawValue))])
        case .strayFiles(let identifier):
            return TraceStep("strayFiles", [.init("identifier", .string(identifier.rawValue))])
        case .actorGet(let cache, let key):
            return TraceStep("actorGet", [.init("cache", .ref(cache)), .init("key", .int(key))])
        case .actorSet(let cache, let key, let value):
            return TraceStep("actorSet", [.init("cache", .ref(cache)), .init("key", .int(key)), .init("tag", .int(value.tag)), .init("length", .int(value.length))])
        }
    }

    /// The instance an `open` creates (its trace's result).
    public var createdRef: Ref? {
        if case .open(let result, _) = self { return result }
        return nil
    }

    public init(trace step: TraceStep) throws(TraceError) {
        func key() throws(TraceError) -> Int { try step.int("key", in: 0...(CacheMachine.keyCount - 1)) }
        func value() throws(TraceError) -> CacheValueSpec {
            CacheValueSpec(tag: try step.int("tag", in: 0...255), length: try step.int("length", in: 0...(4 << 20)))
        }
        switch step.name {
        case "get": self = .get(cache: try step.ref("cache"), key: try key())
        case "set": self = .set(cache: try step.ref("cache"), key: try key(), value: try value())
        case "contains": self = .contains(cache: try step.ref("cache"), key: try key())
        case "hasFile": self = .hasFile(identifier: try step.enumeration("identifier", CacheIdentifier.self), key: try key())
        case "advance": self = .advance(seconds: try step.int("seconds", in: 0...(1 << 30)))
        case "evict":
            if case .null = try step.value("key") { self = .evict(key: nil) } else { self = .evict(key: try key()) }
        case "faultySet":
            self = .faultySet(cache: try step.ref("cache"), key: try key(), value: try value(),
                              fault: try step.enumeration("fault", FileSystemFault.self),
                              tornLength: try step.int("tornLength", in: 0...(8 << 20)))
        case "flipBit":
            self = .flipBit(identifier: try step.enumeration("identifier", CacheIdentifier.self), key: try key(),
                            bit: try step.int("bit", in: 0...(64 << 20)))
        case "restart": self = .restart(clean: try step.bool("clean"))
        case "open": self = .open(result: try step.requireResult(), identifier: try step.enumeration("identifier", CacheIdentifier.self))
        case "cleanUp": self = .cleanUp(cache: try step.ref("cache"))
        case "removeFolder": self = .removeFolder(identifier: try step.enumeration("identifier", CacheIdentifier.self))
        case "strayFiles": self = .strayFiles(identifier: try step.enumeration("identifier", CacheIdentifier.self))
        case "actorGet": self = .actorGet(cache: try step.ref("cache"), key: try key())
        case "actorSet": self = .actorSet(cache: try step.ref("cache"), key: try key(), value: try value())
        default: throw TraceError("unknown cache command '\(step.name)'")
        }
    }
}
