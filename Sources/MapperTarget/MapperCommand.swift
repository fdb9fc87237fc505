import GraphFuzzEngine
import MapperSpec

/// One step of the `mapper` target.
public enum MapperCommand: TraceCodable, Sendable, Equatable {
    /// Maps a response in the mapper's context; `result` is the first work it creates (nil when none).
    case map(SpecResponse, result: Ref?)
    /// An enrichment (`EnrichmentQueue`): awaits the response for its volume IDs, then maps it in the mapper's context;
    /// a step that may run concurrently with other enrichments.
    case enrich(SpecResponse)
    /// Maps the JSON body of a response that lacks the required field at the coding path `missing` (M13).
    case mapMalformed(SpecResponse, missing: String)
    /// Saves the mapper's context.
    case save
    /// Rolls the mapper's context back.
    case rollback
    /// Deletes a live work in the mapper's context; `evict` first calls `removeWorkFromCache` (the
    /// deletion site of before seed 000), otherwise it only deletes (the sites seed 000 simplified).
    case deleteWork(Ref, evict: Bool)
    /// Another context deletes a saved work and saves (a deletion site that never evicts).
    case deleteElsewhere(Ref)
    /// `clearCache()`.
    case clearCache
    /// The mapper's context is dropped unsaved and a fresh one takes its place (the mapper is kept).
    case newContext
    /// The app is relaunched: the container is closed and reopened on the same store, a fresh context takes the
    /// mapper's place; the mapper (and its cache, as a cache persisted by the app) is kept (G22–G24, M15).
    case relaunch

    public var trace: TraceStep {
        switch self {
        case .map(let response, let result): return ResponseTrace.step(response, result: result)
        case .enrich(let response): return TraceStep("enrich", ResponseTrace.step(response, result: nil).arguments)
        case .mapMalformed(let response, let missing):
            return TraceStep("mapMalformed", ResponseTrace.step(response, result: nil).arguments + [.init("missing", .string(missing))])
        case .save: return TraceStep("save")
        case .rollback: return TraceStep("rollback")
        case .deleteWork(let ref, let evict): return TraceStep("deleteWork", [.init("work", .ref(ref)), .init("evict", .bool(evict))])
        case .deleteElsewhere(let ref): return TraceStep("deleteElsewhere", [.init("work", .ref(ref))])
        case .clearCache: return TraceStep("clearCache")
        case .newContext: return TraceStep("newContext")
        case .relaunch: return TraceStep("relaunch")
        }
    }

    /// The first work a mapping creates (its trace's result).
    public var createdRef: Ref? {
        if case .map(_, let result) = self { return result }
        return nil
    }

    public init(trace: TraceStep) throws(TraceError) {
        switch trace.name {
        case "map": self = .map(try ResponseTrace.response(trace), result: trace.result)
        case "enrich": self = .enrich(try ResponseTrace.response(trace))
        case "mapMalformed": self = .mapMalformed(try ResponseTrace.response(trace), missing: try trace.string("missing"))
        case "save": self = .save
        case "rollback": self = .rollback
        case "deleteWork": self = .deleteWork(try trace.ref("work"), evict: try trace.bool("evict"))
        case "deleteElsewhere": self = .deleteElsewhere(try trace.ref("work"))
        case "clearCache": self = .clearCache
        case "newContext": self = .newContext
        case "relaunch": self = .relaunch
        default:
            throw TraceError("unknown command '\(trace.name)'; expected map, enrich, mapMalformed, save, rollback, deleteWork, deleteElsewhere, clearCache, newContext or relaunch")
        }
    }
}
