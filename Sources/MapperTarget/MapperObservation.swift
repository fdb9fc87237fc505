import MapperSpec

/// What a step of the `mapper` target observes.
public enum MapperObservation: Equatable, CustomStringConvertible, Sendable {
    /// The works a mapping returned in the mapper's context, in return order (the context part: M9–M11), and the
    /// works the same response without volume IDs makes in an empty context, one per group (the grouping part:
    /// M1–M8, M14); `known` is how many works the case had made before the step (a reference below it is an old
    /// work, at or above it one this mapping created).
    case mapped([MappedWork], groups: [CanonicalWork], known: Int)
    /// Decoding a body threw, naming the coding path; whether the mapper's context changed all the same.
    case rejected(path: String, contextChanged: Bool)
    /// The step completed.
    case done
    /// The store recorded a trap (what would have stopped the process).
    case trap(String)
    /// A work the step needed is not live in the context it looked in.
    case missing(Int)
    /// A save threw.
    case saveFailed(String)

    public var description: String {
        switch self {
        case .mapped(let works, _, _): return works.isEmpty ? "no works" : works.map(\.description).joined(separator: "; ")
        case .rejected(let path, let changed): return "rejected at '\(path)'\(changed ? ", context changed" : "")"
        case .done: return "done"
        case .trap(let message): return "trap \(message)"
        case .missing(let ref): return "v\(ref + 1) is not live"
        case .saveFailed(let message): return "save failed: \(message)"
        }
    }
}
