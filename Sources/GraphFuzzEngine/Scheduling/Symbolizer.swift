import Foundation

/// Names code addresses for schedule reports: the function a job resumes and the await it resumes after, the
/// caller that handed work to Dispatch.
///
/// A job of a task records the address it will resume at (the `ResumeTask` word of its header, which the
/// runtime's ABI fixes). An address is looked up in the function symbols of the file that holds it — the
/// program's own `.symtab`, since an executable exports none of its functions to `dladdr` — and the Swift name
/// demangled by the runtime's `swift_demangle`. An async function's resumption points are functions of their
/// own, `(2) await resume partial function for Ledger.write(_:)`, so the name says which await a job resumes
/// after. A stripped binary has only its exported symbols: its jobs go unnamed (reports fall back to task and
/// actor names). Linux only; elsewhere every lookup is nil.
enum Symbolizer {
    /// A function as a report names it.
    struct Function: Equatable, Sendable {
        /// `ReentrantCounter.increment(_:)`: the innermost named function, qualified by its type.
        let name: String
        /// 1 for the code after the function's first await, …; 0 for its start (or code that is not async).
        let resumePoint: Int
    }

    private static let lock = NSLock()
    #if os(Linux)
    nonisolated(unsafe) private static var files: [String: (bias: UInt, table: LoadedImages.SymbolTable?)] = [:]
    #endif
    nonisolated(unsafe) private static var names: [UInt: Function?] = [:]

    /// The function at `address`, if a symbol covers it.
    static func function(at address: UInt) -> Function? {
        lock.lock()
        defer { lock.unlock() }
        if let known = names[address] { return known }
        let found = mangledName(at: address).flatMap { Self.demangle($0) }.map(Self.readable)
        names[address] = found
        return found
    }

    #if os(Linux)
    private static func mangledName(at address: UInt) -> String? {
        guard let info = LoadedImages.info(address), let path = info.file.map({ String(cString: $0) }) else { return nil }
        if let symbol = info.symbol, let start = info.symbolAddress, UInt(bitPattern: start) <= address {
            return String(cString: symbol)
        }
        let base = UInt(bitPattern: info.base)
        let file = files[path] ?? {
            let table = LoadedImages.symbolTable(ofFile: path == "" ? "/proc/self/exe" : path)
            let entry = (bias: base &- (table?.firstSegment ?? 0), table: table)
            files[path] = entry
            return entry
        }()
        return file.table?.name(covering: address &- file.bias)
    }
    #else
    private static func mangledName(at address: UInt) -> String? { nil }
    #endif

    @_silgen_name("swift_demangle")
    private static func swiftDemangle(_ mangled: UnsafePointer<CChar>, _ length: Int, _ output: UnsafeMutablePointer<CChar>?,
                                      _ outputSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

    /// The runtime's demangling of a Swift symbol; nil for other symbols (C, C++).
    static func demangle(_ mangled: String) -> String? {
        mangled.withCString { text in
            guard let demangled = swiftDemangle(text, strlen(text), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }

    /// `(2) await resume partial function for ScheduleSamples.Ledger.write(Swift.Int) async -> ()` as
    /// `Ledger.write(_:)` after await 2.
    static func readable(_ demangled: String) -> Function {
        var text = Substring(demangled)
        var resumePoint = 0
        if text.hasPrefix("("), let close = text.firstIndex(of: ")"), let number = Int(text.dropFirst().prefix { $0 != ")" }) {
            let rest = text[text.index(after: close)...]
            for marker in [" await resume partial function for ", " suspend resume partial function for "] where rest.hasPrefix(marker) {
                resumePoint = number
                text = rest.dropFirst(marker.count)
            }
        }
        for prefix in ["partial apply for ", "merged ", "implicit closure #1 : @Sendable () async -> () in "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        return Function(name: shortName(text), resumePoint: resumePoint)
    }

    /// `ScheduleSamples.ReentrantCounter.increment(Swift.String) async -> ()` as `ReentrantCounter.increment(_:)`;
    /// `closure #1 () async -> () in Foo.bar()` as `closure in Foo.bar()`.
    private static func shortName(_ text: Substring) -> String {
        if text.hasPrefix("closure #"), let range = text.range(of: " in ") {
            return "closure in " + shortName(text[range.upperBound...])
        }
        // The function path up to its parameter list, and the parameter list (types dropped, labels kept).
        guard let open = text.firstIndex(of: "(") else { return dropModule(String(text.prefix { $0 != " " })) }
        var depth = 0, close = open
        for index in text[open...].indices {
            if text[index] == "(" { depth += 1 } else if text[index] == ")" { depth -= 1; if depth == 0 { close = index; break } }
        }
        let parameters = splitTopLevel(text[text.index(after: open)..<close]).map { parameter -> String in
            if let colon = parameter.firstIndex(of: ":"), !parameter[..<colon].contains(" "), !parameter[..<colon].contains(".") {
                return String(parameter[..<colon]) + ":"
            }
            return "_:"
        }
        return dropModule(String(text[..<open])) + "(" + (parameters == ["_:"] && text[text.index(after: open)..<close].isEmpty ? "" : parameters.joined()) + ")"
    }

    /// Parameters separated by top-level commas.
    private static func splitTopLevel(_ text: Substring) -> [Substring] {
        if text.isEmpty { return [] }
        var parts: [Substring] = [], depth = 0, start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "(", "<", "[": depth += 1
            case ")", ">", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts.map { $0.drop { $0 == " " } }
    }

    /// `ScheduleSamples.ReentrantCounter.increment` as `ReentrantCounter.increment` (keeps the last two parts).
    private static func dropModule(_ path: String) -> String {
        let parts = path.split(separator: ".")
        return parts.suffix(2).joined(separator: ".")
    }
}
