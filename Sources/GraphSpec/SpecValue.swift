/// An attribute value in the specification (mirrors the store's values without importing it).
public enum SpecValue: Hashable, Sendable, Comparable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    /// A list of strings, one value (R31): equal element by element, order included.
    case strings([String])

    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .strings(let values): return "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }

    private var order: Int {
        switch self {
        case .null: return 0
        case .bool: return 1
        case .int: return 2
        case .string: return 3
        case .strings: return 4
        }
    }

    public static func < (lhs: SpecValue, rhs: SpecValue) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return a < b
        case (.strings(let a), .strings(let b)): return a.lexicographicallyPrecedes(b)
        default: return lhs.order < rhs.order
        }
    }
}
