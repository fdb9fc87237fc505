import GraphFuzzEngine
import SyncSpec

/// A device of the sync target, printed by letter.
public enum DeviceName: String, CaseIterable, Sendable {
    case A, B

    public init(_ index: Int) {
        switch index {
        case 0: self = .A
        case 1: self = .B
        default: preconditionFailure("no device \(index)")
        }
    }
    public var index: Int {
        switch self {
        case .A: return 0
        case .B: return 1
        }
    }
}

/// Trace names of the spec enumerations.
enum KindName: String, CaseIterable {
    case log, plan, step
    init(_ kind: SpecProjectKind) { self = KindName.allCases[kind.rawValue] }
    var kind: SpecProjectKind { SpecProjectKind(rawValue: KindName.allCases.firstIndex(of: self)!)! }
}

enum CollectionName: String, CaseIterable {
    case glassItems, tags, techniques, referenceUrls
    init(_ collection: SpecCollection) { self = CollectionName.allCases[collection.rawValue] }
    var collection: SpecCollection { SpecCollection(rawValue: CollectionName.allCases.firstIndex(of: self)!)! }
}

/// The per-case parameters: last-writer-wins granularity (R30 is undocumented: fuzzed both ways) and the world the
/// case starts from (`SyncStart`).
public struct SyncConfig: Sendable, Equatable {
    public var granularity: SpecGranularity
    public var start: SyncStart

    public init(granularity: SpecGranularity, start: SyncStart = .blank) {
        self.granularity = granularity
        self.start = start
    }
}

/// One step of the sync target.
public enum SyncCommand: TraceCodable, Sendable, Equatable {
    case addItem(DeviceName, project: Ref, SpecCollection, code: Int, result: Ref)
    case push(DeviceName)
    case fetch(DeviceName, deliver: [Ref]?)
    case migrate
    case removeItem(DeviceName, item: Ref)
    case moveItem(DeviceName, item: Ref, to: Int)
    case setQuantity(DeviceName, item: Ref, quantity: Int)
    case createProject(DeviceName, SpecProjectKind, result: Ref)
    case rollbackReads
    case restart(DeviceName)

    public var trace: TraceStep {
        func dev(_ d: DeviceName) -> TraceStep.Argument { .init("device", .string(d.rawValue)) }
        switch self {
        case .addItem(let d, let project, let collection, let code, let result):
            return TraceStep("addItem", result: result, [dev(d), .init("project", .ref(project)),
                                                          .init("collection", .string(CollectionName(collection).rawValue)),
                                                          .init("code", .int(code))])
        case .push(let d): return TraceStep("push", [dev(d)])
        case .fetch(let d, let deliver):
            return TraceStep("fetch", [dev(d), .init("deliver", deliver.map { .list($0.map { .ref($0) }) } ?? .null)])
        case .migrate: return TraceStep("migrate")
        case .removeItem(let d, let item): return TraceStep("removeItem", [dev(d), .init("item", .ref(item))])
        case .moveItem(let d, let item, let to):
            return TraceStep("moveItem", [dev(d), .init("item", .ref(item)), .init("to", .int(to))])
        case .setQuantity(let d, let item, let quantity):
            return TraceStep("setQuantity", [dev(d), .init("item", .ref(item)), .init("quantity", .int(quantity))])
        case .createProject(let d, let kind, let result):
            return TraceStep("createProject", result: result, [dev(d), .init("kind", .string(KindName(kind).rawValue))])
        case .rollbackReads: return TraceStep("rollbackReads")
        case .restart(let d): return TraceStep("restart", [dev(d)])
        }
    }

    /// The item or project the command creates (its trace's result).
    public var createdRef: Ref? {
        switch self {
        case .addItem(_, _, _, _, let result), .createProject(_, _, let result): return result
        default: return nil
        }
    }

    public init(trace step: TraceStep) throws(TraceError) {
        func dev() throws(TraceError) -> DeviceName { try step.enumeration("device", DeviceName.self) }
        switch step.name {
        case "addItem":
            self = .addItem(try dev(), project: try step.ref("project"),
                            try step.enumeration("collection", CollectionName.self).collection,
                            code: try step.int("code", in: 0...3), result: try step.requireResult())
        case "push": self = .push(try dev())
        case "fetch":
            switch try step.value("deliver") {
            case .null: self = .fetch(try dev(), deliver: nil)
            case .list(let values):
                var refs: [Ref] = []
                for value in values {
                    guard case .ref(let ref) = value else { throw TraceError("'deliver' of 'fetch' holds \(value), not a reference") }
                    refs.append(ref)
                }
                self = .fetch(try dev(), deliver: refs)
            default: throw TraceError("'deliver' of 'fetch' is neither nil nor a list of references")
            }
        case "migrate": self = .migrate
        case "removeItem": self = .removeItem(try dev(), item: try step.ref("item"))
        case "moveItem": self = .moveItem(try dev(), item: try step.ref("item"), to: try step.int("to", in: 0...10_000))
        case "setQuantity": self = .setQuantity(try dev(), item: try step.ref("item"), quantity: try step.int("quantity", in: 0...1_000))
        case "createProject":
            self = .createProject(try dev(), try step.enumeration("kind", KindName.self).kind, result: try step.requireResult())
        case "rollbackReads": self = .rollbackReads
        case "restart": self = .restart(try dev())
        default: throw TraceError("unknown sync command '\(step.name)'")
        }
    }
}
