import GraphFuzzEngine
import GraphSpec
import GraphStore

/// A model an earlier step made or found, of class `Model`: `v1`, `v2`, … in reports. An app action's arguments
/// draw it (`AppArguments.model(_:_:)`), its description names it (`GraphEffect`), its code gets the model
/// (`AppModels[ref]`).
public struct ModelRef<Model: PersistentModel>: Hashable, Sendable, CustomStringConvertible {
    /// The step reference (`v1` is index 0).
    public let ref: Ref

    public init(_ ref: Ref) { self.ref = ref }

    public var description: String { ref.description }
}

/// One of the case's two contexts over its container: `main` and `background` (a second context, as a
/// `ModelActor`'s).
public struct ContextRef: Hashable, Sendable, CustomStringConvertible {
    /// 0 (main) or 1 (background).
    public let index: Int

    init(_ index: Int) { self.index = index }

    public static let main = ContextRef(0), background = ContextRef(1)
    static let names = ["main", "background"]

    public var description: String { Self.names[index] }
}

/// Which models an argument may name.
public enum ModelFilter: Sendable, Equatable {
    /// Registered in a context and not deleted (the default).
    case inContext
    /// Registered in a context, not deleted, and saved (a permanent identifier).
    case saved
    /// Never inserted (no context).
    case new
    /// Any model a step made or found, whatever its state (deleted, detached, or whose row is gone: the crash class).
    case any
}

/// Draws an app action's arguments from the specification's state: models of a class (`model(Group.self)`), a
/// context, values. What is drawn is written into the step's trace and read back when a saved case replays.
/// Models of an earlier launch of the store are never drawn.
public struct AppArguments {
    var arguments: Arguments
    let state: GraphModel
    let schema: Schema
    private var labels: [String] = []

    init(_ arguments: Arguments, state: GraphModel, schema: Schema) {
        self.arguments = arguments
        self.state = state
        self.schema = schema
    }

    /// A model of `type` that `filter` accepts, labelled in the trace by its class (`group`; `group2` for a second).
    /// Throws `Arguments.unavailable` when there is none: the engine chooses another action.
    public mutating func model<Model: PersistentModel>(_ type: Model.Type, _ filter: ModelFilter = .inContext,
                                                      label: String? = nil) throws -> ModelRef<Model> {
        guard let entity = schema.entityIndex(of: type) else {
            throw AppMisuse("draws a \(type), which is not a model class of the schema (\(schema.entities.map(\.name).joined(separator: ", ")))")
        }
        let state = self.state
        let ref = try arguments.ref(uniqueLabel(label ?? Self.label(of: schema.entities[entity].name)), among: state.refs.count) { r in
            guard let o = state.object(r), state.objects[o].entity == entity, !state.isEarlierLaunch(Ref(r)) else { return false }
            return Self.accepts(filter, state.objects[o])
        }
        // Read back from a trace, the reference must name such a model in this state too.
        try arguments.require(state.object(ref.index).map { state.objects[$0].entity == entity && Self.accepts(filter, state.objects[$0]) } == true
                              && !state.isEarlierLaunch(ref))
        return ModelRef(ref)
    }

    /// A context, the main one mostly.
    public mutating func context() -> ContextRef {
        ContextRef(arguments.name(uniqueLabel("context"), from: ContextRef.names) { $0.chooseWeighted([6, 1]) })
    }

    /// An integer in `range`.
    public mutating func int(_ label: String, in range: ClosedRange<Int>) -> Int { arguments.int(uniqueLabel(label), in: range) }

    /// A boolean.
    public mutating func bool(_ label: String) -> Bool { arguments.bool(uniqueLabel(label)) }

    /// One of `values`, written in the trace as it describes itself (the first is the simplest).
    public mutating func value<Value: CustomStringConvertible>(_ label: String, from values: [Value]) -> Value {
        values[arguments.name(uniqueLabel(label), from: values.map(\.description))]
    }

    /// Leaves the action out of this step unless `condition` holds (another action is chosen).
    public func require(_ condition: Bool) throws { try arguments.require(condition) }

    static func accepts(_ filter: ModelFilter, _ object: SpecObject) -> Bool {
        switch filter {
        case .any: return true
        case .new: return object.lifecycle == .new
        case .inContext: return object.lifecycle == .registered && object.context >= 0 && !object.deleted
        case .saved: return object.lifecycle == .registered && object.context >= 0 && !object.deleted && object.id?.permanent == true
        }
    }

    /// `Group` → `group`.
    static func label(of entity: String) -> String { entity.prefix(1).lowercased() + entity.dropFirst() }

    /// `label`, or `label2`, `label3`, … when this step used it already.
    private mutating func uniqueLabel(_ label: String) -> String {
        var unique = label, n = 1
        while labels.contains(unique) {
            n += 1
            unique = "\(label)\(n)"
        }
        labels.append(unique)
        return unique
    }
}

/// A mistake in an app action (its description, its arguments or its code's result), reported as a fault of the
/// test naming the action and what to change, never as a verdict on the code under test.
struct AppMisuse: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
