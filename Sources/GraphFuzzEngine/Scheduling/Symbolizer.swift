#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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
        /// `ReentrantCounter.increment(_:)`, `closure in LostUpdate.branches(_:headStart:)`: the function's
        /// type and name with its argument labels, without its module, generic parameters or types.
        let name: String
        /// The resumption point the code starts at: 0 for the function's start; `n` for the code after its
        /// `n`-th suspension point (in source order: an actor method called from outside starts with a hop
        /// onto its actor, so its first `await` is its second suspension point).
        let resumePoint: Int
        /// The module the function belongs to (of the outermost function, for a closure).
        let module: String

        /// Code of the harness, not of the code under test: the engine's own (the scheduler's wrapper that runs a
        /// branch's body, a concurrent step's wrappers around its action's `perform`).
        var isHarness: Bool { module == "GraphFuzzEngine" }
        /// Code of the standard library or the concurrency runtime (`Task.sleep`'s own tasks, for one).
        var isRuntime: Bool { module == "Swift" || module == "_Concurrency" }
    }

    /// Guards `files` and `names`.
    private static let lock = Mutex(())
    #if os(Linux)
    nonisolated(unsafe) private static var files: [String: (bias: UInt, table: LoadedImages.SymbolTable?)] = [:]
    #endif
    nonisolated(unsafe) private static var names: [UInt: Function?] = [:]

    /// The function at `address`, if a symbol covers it.
    static func function(at address: UInt) -> Function? {
        lock.withLock { _ in
            if let known = names[address] { return known }
            let found = mangledName(at: address).flatMap { mangled in
                Self.demangle(mangled).map(Self.readable) ?? Self.runtimeAdapters.first { mangled.contains($0.key) }?.value
            }
            names[address] = found
            return found
        }
    }

    #if os(Linux)
    static func mangledName(at address: UInt) -> String? {
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
    static func mangledName(at address: UInt) -> String? { nil }
    #endif

    /// The concurrency runtime's C++ resumption adapters a suspended task may wait in, by a part of their symbol
    /// (a task's own entry, `future_adapter`, stays unnamed: the start of the task).
    private static let runtimeAdapters: KeyValuePairs<String, Function> = [
        "task_group_wait_resume_adapter": Function(name: "TaskGroup.next", resumePoint: 0, module: "_Concurrency"),
        "task_future_wait_resume_adapter": Function(name: "Task.value", resumePoint: 0, module: "_Concurrency"),
    ]

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
    /// `Ledger.write(_:)` at resumption point 2.
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
        let (name, module) = shortName(String(text))
        return Function(name: name, resumePoint: resumePoint, module: module)
    }

    /// `static (extension in Swift):Swift.Task<…>._sleep<A>(until: A1.Instant, …) async throws -> ()` as
    /// (`Task._sleep(until:tolerance:clock:)`, `Swift`); a closure as `closure in` its outermost function's path.
    static func shortName(_ demangled: String) -> (name: String, module: String) {
        var text = demangled
        for prefix in ["partial apply for ", "merged ", "generic specialization "] {
            while text.hasPrefix(prefix) {
                text.removeFirst(prefix.count)
                // A specialization's `<…> of `.
                if text.hasPrefix("<"), let end = closing(text, from: text.startIndex), text[text.index(after: end)...].hasPrefix(" of ") {
                    text = String(text[text.index(end, offsetBy: 5)...])
                }
            }
        }
        // A closure is named after the function it is in, the last ` in ` outside brackets.
        var closure = false
        if text.hasPrefix("closure #") || text.hasPrefix("implicit closure #") {
            var depth = 0
            var outermost: String.Index?
            var index = text.startIndex
            while index < text.endIndex {
                switch text[index] {
                case "(", "<", "[": depth += 1
                case ")", "]": depth -= 1
                case ">" where index > text.startIndex && text[text.index(before: index)] != "-": depth -= 1
                case " " where depth == 0 && text[index...].hasPrefix(" in "): outermost = text.index(index, offsetBy: 4)
                default: break
                }
                index = text.index(after: index)
            }
            if let outermost {
                closure = true
                text = String(text[outermost...])
            }
        }
        for prefix in ["static ", "merged "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        // A private declaration's name carries its file's discriminator: `(download in _0A1B…)`.
        while let start = text.firstRange(of: "("), let inside = text[start.upperBound...].firstRange(of: " in _"),
              let end = text[inside.upperBound...].firstIndex(of: ")"),
              !text[start.upperBound..<inside.lowerBound].contains(where: { " ().,<>".contains($0) }) {
            text.replaceSubrange(start.lowerBound...end, with: text[start.upperBound..<inside.lowerBound])
        }
        while let start = text.firstRange(of: "(extension in "), let end = text[start.upperBound...].firstIndex(of: ":") {
            text.removeSubrange(start.lowerBound...end)
        }
        // The path (generic parameters dropped) up to the parameter list.
        var path = "", parameters: Substring?, depth = 0, index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 {
                if character == "(" {
                    let end = closing(text, from: index) ?? text.index(before: text.endIndex)
                    parameters = text[text.index(after: index)..<end]
                    break
                }
                if character == " " { break }
                path.append(character)
            }
            index = text.index(after: index)
        }
        let parts = path.split(separator: ".")
        let module = parts.count > 1 ? String(parts[0]) : ""
        let labels = splitTopLevel(parameters ?? "").map { parameter -> String in
            if let colon = parameter.firstIndex(of: ":"), !parameter[..<colon].contains(where: { $0 == " " || $0 == "." || $0 == "<" }) {
                return String(parameter[..<colon]) + ":"
            }
            return "_:"
        }
        let qualified = parts.dropFirst(parts.count > 1 ? 1 : 0).suffix(2).joined(separator: ".")
        // A closure names the function it is in without that function's labels: `closure in LostUpdate.branches`.
        if closure { return ("closure in " + qualified, module) }
        return (qualified + (parameters == nil ? "" : "(" + labels.joined() + ")"), module)
    }

    /// The index of the bracket closing the one at `open`.
    private static func closing(_ text: String, from open: String.Index) -> String.Index? {
        var depth = 0
        for index in text[open...].indices {
            switch text[index] {
            case "(", "<", "[": depth += 1
            case ")", ">", "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
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
}
