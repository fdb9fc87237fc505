import GraphFuzzEngine

/// What a step of the `mapper` target observes.
public enum MapperObservation: Equatable, CustomStringConvertible, Sendable {
    /// The works a mapping returned in the mapper's context, in return order (the context part), and the works the
    /// same response makes in an empty context with each work's id as its only volume ID, one per group (the
    /// grouping part: a work's volume IDs are then the response works it holds).
    case mapped([MappedWork], groups: [CanonicalWork])
    /// Decoding a body threw, naming the coding path; whether the mapper's context changed all the same.
    case rejected(path: String, contextChanged: Bool)
    /// The step completed.
    case done
    /// The store recorded a trap (what would have stopped the process): its code and message.
    case trap(code: String, message: String)
    /// A work the step needed is not live in the context it looked in.
    case missing(Int)
    /// A save threw.
    case saveFailed(String)

    public var description: String {
        switch self {
        case .mapped(let works, _): return works.isEmpty ? "no works" : works.map(\.description).joined(separator: "; ")
        case .rejected(let path, let changed): return "rejected at '\(path)'\(changed ? ", context changed" : "")"
        case .done: return "done"
        case .trap(let code, let message): return "trap \(code): \(message)"
        case .missing(let ref): return "v\(ref + 1) is not live"
        case .saveFailed(let message): return "save failed: \(message)"
        }
    }
}

/// The parts of an observation, labelled as `MappingPart` names them; a prediction declares the rule of each.
extension MapperObservation: ObservationParts {
    public var parts: [(label: String, value: String)] {
        switch self {
        case .trap(let code, _): return [(MappingPart.trap, code)]
        case .mapped(let works, let groups): return [(MappingPart.trap, "none")] + MappingPart.parts(groups: groups, returned: works)
        default: return [(MappingPart.trap, "none"), (MappingPart.result, description)]
        }
    }

    public var trapCode: String? {
        if case .trap(let code, _) = self { return code }
        return nil
    }
}

/// The labels of an observation's parts. A map step's parts come in the order a mismatch is located: the trap, which
/// response works each group holds, the groups' values, whether the returned works are live, which work each is, and
/// the returned works' values (title and volume IDs first); each work's other values field by field (`Field`).
public enum MappingPart {
    /// A work's values, in the order they are compared.
    public enum Field: Int, CaseIterable, Sendable {
        case editions, authorCount, authors, editionDetails, tags, provider, synthetic, editionProviders

        var name: String {
            ["editions", "author count", "authors", "edition details", "tags", "provider", "synthetic", "edition providers"][rawValue]
        }

        func value(_ work: CanonicalWork) -> String {
            switch self {
            case .editions: return work.editionISBNs.map { $0 ?? "nil" }.joined(separator: ", ")
            case .authorCount: return String(work.authors.count)
            case .authors: return work.authors.joined(separator: ", ")
            case .editionDetails: return work.editionDetails.joined(separator: ", ")
            case .tags: return work.tags.joined(separator: ", ")
            case .provider: return work.provider ?? "nil"
            case .synthetic: return String(work.synthetic)
            case .editionProviders: return work.editionProviders.map { $0 ?? "nil" }.joined(separator: ", ")
            }
        }
    }

    /// What the store recorded: "none", or a trap's code.
    public static let trap = "trap"
    /// A step's result, for the steps other than a mapping.
    public static let result = "result"
    /// The returned works that are not live in the mapper's context.
    public static let notLive = "works not live"

    /// Which response works group `index` (0-based) holds, and its title.
    public static func group(_ index: Int) -> String { index < labels.count ? labels[index].group : "group \(index + 1)" }
    public static func group(_ index: Int, _ field: Field) -> String {
        index < labels.count ? labels[index].groupFields[field.rawValue] : "group \(index + 1) \(field.name)"
    }
    /// Which work the mapping returned at `index` (0-based): its reference.
    public static func returned(_ index: Int) -> String { index < labels.count ? labels[index].returned : "returned work \(index + 1)" }
    /// The title of the work returned at `index`.
    public static func returnedTitle(_ index: Int) -> String {
        index < labels.count ? labels[index].returnedTitle : "returned work \(index + 1) title"
    }
    /// The volume IDs of the work returned at `index`.
    public static func returnedVolumes(_ index: Int) -> String {
        index < labels.count ? labels[index].returnedVolumes : "returned work \(index + 1) volumes"
    }
    public static func returned(_ index: Int, _ field: Field) -> String {
        index < labels.count ? labels[index].returnedFields[field.rawValue] : "returned work \(index + 1) \(field.name)"
    }

    /// The labels of the first nine groups and returned works, made once.
    private static let labels = (1...9).map { n in
        (group: "group \(n)", groupFields: Field.allCases.map { "group \(n) \($0.name)" },
         returned: "returned work \(n)", returnedTitle: "returned work \(n) title", returnedVolumes: "returned work \(n) volumes", returnedFields: Field.allCases.map { "returned work \(n) \($0.name)" })
    }

    static func parts(groups: [CanonicalWork], returned works: [MappedWork]) -> [(label: String, value: String)] {
        var parts: [(label: String, value: String)] = []
        for (i, work) in groups.enumerated() { parts.append((group(i), "\(work.volumeIDs.joined(separator: "+")) \(work.title)")) }
        for (i, work) in groups.enumerated() { for field in Field.allCases { parts.append((group(i, field), field.value(work))) } }
        parts.append((notLive, works.filter { !$0.isLive }.map { "v\($0.ref + 1)" }.joined(separator: ", ")))
        for (j, work) in works.enumerated() { parts.append((returned(j), "v\(work.ref + 1)")) }
        for (j, work) in works.enumerated() {
            parts.append((returnedTitle(j), work.work.title))
            parts.append((returnedVolumes(j), work.work.volumeIDs.joined(separator: ", ")))
            for field in Field.allCases { parts.append((returned(j, field), field.value(work.work))) }
        }
        return parts
    }
}
