/// An attribute value in the specification (mirrors the store's values without importing it).
public enum SpecValue: Hashable, Sendable, CustomStringConvertible {
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
}
