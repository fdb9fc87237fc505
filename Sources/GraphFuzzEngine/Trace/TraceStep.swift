/// A value in a trace step's argument list.
public enum TraceValue: Hashable, Sendable, CustomStringConvertible {
    case int(Int)
    case bool(Bool)
    case string(String)
    case ref(Ref)
    case null
    case list([TraceValue])
    /// A whole step as a value: the branches of a concurrent step (`concurrently(A: withdraw(amount: 3), …)`).
    case step(TraceStep)

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .string(let value): return TraceValue.quote(value)
        case .ref(let ref): return ref.description
        case .null: return "nil"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .step(let step): return step.description
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// One step as a generator-independent record: `v3 = createWork(title: "Dune", synthetic: true)`.
///
/// Corpus files keep steps in this form, so a saved case outlives changes to the generators.
public struct TraceStep: Hashable, Sendable, CustomStringConvertible {
    public struct Argument: Hashable, Sendable {
        public var label: String
        public var value: TraceValue
        public init(_ label: String, _ value: TraceValue) {
            self.label = label
            self.value = value
        }
    }

    public var result: Ref?
    public var name: String
    public var arguments: [Argument]

    public init(_ name: String, result: Ref? = nil, _ arguments: [Argument] = []) {
        self.name = name
        self.result = result
        self.arguments = arguments
    }

    public var description: String {
        let call = name + "(" + arguments.map { "\($0.label): \($0.value)" }.joined(separator: ", ") + ")"
        return result.map { "\($0) = \(call)" } ?? call
    }

    // MARK: Reading arguments

    public func value(_ label: String) throws(TraceError) -> TraceValue {
        guard let argument = arguments.first(where: { $0.label == label }) else {
            throw TraceError("step '\(name)' has no argument '\(label)'")
        }
        return argument.value
    }

    public func int(_ label: String, in range: ClosedRange<Int>? = nil) throws(TraceError) -> Int {
        guard case .int(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not an integer") }
        if let range, !range.contains(value) {
            throw TraceError("argument '\(label)' of '\(name)' is \(value), outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    public func bool(_ label: String) throws(TraceError) -> Bool {
        guard case .bool(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not true or false") }
        return value
    }

    public func string(_ label: String) throws(TraceError) -> String {
        guard case .string(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not a string") }
        return value
    }

    public func optionalString(_ label: String) throws(TraceError) -> String? {
        switch try self.value(label) {
        case .null: return nil
        case .string(let value): return value
        default: throw TraceError("argument '\(label)' of '\(name)' is not a string or nil")
        }
    }

    public func ref(_ label: String) throws(TraceError) -> Ref {
        guard case .ref(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not a reference like v1") }
        return value
    }

    public func optionalRef(_ label: String) throws(TraceError) -> Ref? {
        switch try self.value(label) {
        case .null: return nil
        case .ref(let value): return value
        default: throw TraceError("argument '\(label)' of '\(name)' is not a reference or nil")
        }
    }

    public func list(_ label: String) throws(TraceError) -> [TraceValue] {
        guard case .list(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not a list") }
        return value
    }

    /// A whole step given as the value of `label`.
    public func step(_ label: String) throws(TraceError) -> TraceStep {
        guard case .step(let value) = try self.value(label) else { throw TraceError("argument '\(label)' of '\(name)' is not a step like name(…)") }
        return value
    }

    /// The result reference, required.
    public func requireResult() throws(TraceError) -> Ref {
        guard let result else { throw TraceError("step '\(name)' needs a result like 'v1 = \(name)(…)'") }
        return result
    }

    /// An enumeration case by its raw name.
    public func enumeration<E: RawRepresentable & CaseIterable>(_ label: String, _ type: E.Type) throws(TraceError) -> E where E.RawValue == String {
        let raw = try string(label)
        guard let value = E(rawValue: raw) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw TraceError("argument '\(label)' of '\(name)' is \"\(raw)\"; expected one of \(allowed)")
        }
        return value
    }
}

/// A trace that cannot be read or applied: the message names what and where.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A command that writes its own trace step and reads itself back: for a machine whose commands are drawn by
/// generators of their own rather than value by value through `Arguments` (`Arguments.coded`). The trace is
/// what reports print and corpus cases keep, so `init(trace:)` must read back every command `trace` writes,
/// and a trace that names no command of the type, or a value out of its range, throws a `TraceError` naming
/// the step and the argument (`TraceStep.int(_:in:)`, `ref(_:)`, `enumeration(_:_:)` do).
///
///     enum CartCommand: TraceCodable {
///         case add(item: Int), total
///         var trace: TraceStep {
///             switch self {
///             case .add(let item): TraceStep("add", [.init("item", .int(item))])
///             case .total: TraceStep("total")
///             }
///         }
///         init(trace step: TraceStep) throws(TraceError) {
///             switch step.name {
///             case "add": self = .add(item: try step.int("item", in: 0...3))
///             case "total": self = .total
///             default: throw TraceError("unknown cart command '\(step.name)'")
///             }
///         }
///     }
public protocol TraceCodable {
    /// The step as reports print it and corpus cases keep it: its name (the action's, as a rule), its labelled
    /// arguments, and the reference it creates (`v3 = open(…)`).
    var trace: TraceStep { get }
    /// The command a trace step names; throws when the step names none, or an argument is missing or out of range.
    init(trace: TraceStep) throws(TraceError)
    /// The reference the command creates: its trace's result (`v3 = …`). Searches ask for it at every step
    /// instead of the whole trace, so a command whose trace costs something to build answers it directly.
    var createdRef: Ref? { get }
}

extension TraceCodable {
    public var createdRef: Ref? { trace.result }
}

/// The configuration of a machine that has no parameters: it draws nothing, and reports print no
/// configuration line for it.
public struct NoConfig: Sendable, Equatable {
    public init() {}
}
