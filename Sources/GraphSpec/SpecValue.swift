/// An attribute value in the specification (the store's values, as the observations compare them).
public enum SpecValue: Hashable, Sendable, CustomStringConvertible {
    case null, bool(Bool), int(Int), string(String)
    /// A list of strings, one value (R31): equal element by element, order included.
    case strings([String])

    private static func quoted(_ text: String) -> String { "\"" + text + "\"" }

    /// As reports print it: `nil`, `true`, `320`, `"Dune"`, `["a", "b"]`.
    public var description: String {
        if case .string(let text) = self { return Self.quoted(text) }
        if case .strings(let list) = self { return "[" + list.map(Self.quoted).joined(separator: ", ") + "]" }
        if case .bool(let flag) = self { return String(flag) }
        if case .int(let number) = self { return String(number) }
        return "nil"
    }
}
