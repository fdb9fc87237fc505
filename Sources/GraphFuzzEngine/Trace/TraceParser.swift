extension TraceStep {
    /// Parses one line written by `description`: `[vN = ]name(label: value, …)`.
    /// Values are integers, `true`/`false`, `nil`, references `vN`, quoted strings and `[…]` lists.
    package init(parsing line: Substring) throws(TraceError) {
        var parser = TraceParser(line)
        self = try parser.parseStep()
    }
}

struct TraceParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: Substring) { scalars = Array(text.unicodeScalars) }

    /// A step; `nested`: a step inside another's arguments, which may be followed by more text.
    mutating func parseStep(nested: Bool = false) throws(TraceError) -> TraceStep {
        skipSpaces()
        var result: Ref?
        let first = identifier()
        guard !first.isEmpty else { throw error("expected a step name") }
        skipSpaces()
        var name = first
        if peek == "=" {
            guard let ref = Ref(parsing: Substring(first)) else { throw error("'\(first)' is not a reference like v1") }
            result = ref
            position += 1
            skipSpaces()
            name = identifier()
            guard !name.isEmpty else { throw error("expected a step name after '='") }
        }
        try expect("(")
        var arguments: [TraceStep.Argument] = []
        skipSpaces()
        if peek != ")" {
            while true {
                skipSpaces()
                let label = identifier()
                guard !label.isEmpty else { throw error("expected an argument label") }
                skipSpaces()
                try expect(":")
                let value = try parseValue()
                arguments.append(.init(label, value))
                skipSpaces()
                if peek == "," { position += 1; continue }
                break
            }
        }
        try expect(")")
        skipSpaces()
        guard nested || position == scalars.count else { throw error("unexpected text after ')'") }
        return TraceStep(name, result: result, arguments)
    }

    private mutating func parseValue() throws(TraceError) -> TraceValue {
        skipSpaces()
        guard let c = peek else { throw error("expected a value") }
        if c == "\"" { return .string(try parseString()) }
        if c == "[" {
            position += 1
            var values: [TraceValue] = []
            skipSpaces()
            if peek == "]" { position += 1; return .list(values) }
            while true {
                values.append(try parseValue())
                skipSpaces()
                if peek == "," { position += 1; continue }
                try expect("]")
                return .list(values)
            }
        }
        if c == "-" || ("0"..."9").contains(c) {
            let start = position
            position += 1
            while let d = peek, ("0"..."9").contains(d) { position += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let value = Int(text) else { throw error("'\(text)' is not an integer") }
            return .int(value)
        }
        let start = position
        let word = identifier()
        // A nested step: `name(…)` or `v3 = name(…)`.
        let next = position
        skipSpaces()
        if !word.isEmpty, peek == "(" || (peek == "=" && Ref(parsing: Substring(word)) != nil) {
            position = start
            return .step(try parseStep(nested: true))
        }
        position = next
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .null
        default:
            if let ref = Ref(parsing: Substring(word)) { return .ref(ref) }
            throw error(word.isEmpty ? "unexpected '\(c)'" : "'\(word)' is not a value")
        }
    }

    private mutating func parseString() throws(TraceError) -> String {
        position += 1
        var out = String.UnicodeScalarView()
        while let c = peek {
            position += 1
            if c == "\"" { return String(out) }
            guard c == "\\" else { out.append(c); continue }
            guard let e = peek else { break }
            position += 1
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\"", "\\": out.append(e)
            case "u":
                try expect("{")
                let start = position
                while let h = peek, h != "}" { position += 1 }
                let hex = String(String.UnicodeScalarView(scalars[start..<position]))
                try expect("}")
                guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else { throw error("bad escape \\u{\(hex)}") }
                out.append(scalar)
            default: throw error("unknown escape '\\\(e)'")
            }
        }
        throw error("unterminated string")
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func identifier() -> String {
        let start = position
        while let c = peek, c == "_" || c == "-" || c == "." || ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) {
            position += 1
        }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" { position += 1 }
    }

    private mutating func expect(_ c: Unicode.Scalar) throws(TraceError) {
        skipSpaces()
        guard peek == c else { throw error("expected '\(c)'") }
        position += 1
    }

    private func error(_ message: String) -> TraceError {
        TraceError("\(message) at column \(position + 1)")
    }
}
