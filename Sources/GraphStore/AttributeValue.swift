/// A stored attribute value. Models keep their attributes as a slot array of these.
public enum AttributeValue: Hashable, Sendable, Comparable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    /// A list of strings, stored as one value (R31: a collection attribute is one opaque value; equal
    /// when the lists are equal element by element, order included).
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

    /// The integer, when this is an integer.
    public var intValue: Int? { if case .int(let v) = self { return v } else { return nil } }
    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    /// The list, when this is a list of strings.
    public var stringsValue: [String]? { if case .strings(let v) = self { return v } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    private var order: Int {
        switch self {
        case .null: return 0
        case .bool: return 1
        case .int: return 2
        case .string: return 3
        case .strings: return 4
        }
    }

    public static func < (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return a < b
        case (.strings(let a), .strings(let b)): return a.lexicographicallyPrecedes(b)
        default: return lhs.order < rhs.order
        }
    }
}
