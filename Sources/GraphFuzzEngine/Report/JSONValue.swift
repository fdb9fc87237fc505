/// A JSON value whose objects keep their keys in the order written, so output is byte-stable.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered == rhs.rendered }

    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// Compact JSON text.
    package var rendered: String {
        var out = ""
        write(to: &out, shortEscapes: false)
        return out
    }

    /// Compact JSON text as `rendered`, but for backspace and form feed in strings, written `\b` and `\f` as
    /// Foundation's `JSONSerialization` writes them.
    package var renderedAsJSONSerialization: String {
        var out = ""
        write(to: &out, shortEscapes: true)
        return out
    }

    private func write(to out: inout String, shortEscapes: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .uint(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                out += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            } else {
                out += "null"
            }
        case .string(let value): JSONValue.writeString(value, to: &out, shortEscapes: shortEscapes)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out, shortEscapes: shortEscapes)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out, shortEscapes: shortEscapes)
                out += ":"
                value.write(to: &out, shortEscapes: shortEscapes)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String, shortEscapes: Bool) {
        out += "\""
        // A string with nothing to escape (no quote, backslash or control character) is appended whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}" where shortEscapes: out += "\\b"
            case "\u{C}" where shortEscapes: out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
